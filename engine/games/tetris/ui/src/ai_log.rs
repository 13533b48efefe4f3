//! The seed's debugging aids (its section 5): the AI log panel (S) with
//! the last decision's log and a Copy button, the debug HUD (D) with
//! HOLES(+NEW) / BLOCK / WELLS / PRED, and the version line (V).
//!
//! The log text is the engine's (`tessera_tetris_bot::ai::log::write`, kept
//! by the session as its last explanation). The HUD does not read numbers
//! out of that text: it reads the log back with the engine's parser and
//! replays the decision ([`tessera_tetris_bot::ai::log::explain`]), so it shows
//! the decision's own candidate (typed metrics, its `decidedBy`) whatever
//! the log's layout.

use std::sync::atomic::AtomicBool;

use egui::RichText;

use tessera_tetris::board::Board;
use tessera_tetris::movegen::Placement;
use tessera_tetris_bot::ai::metrics::{Metric, Metrics, board_metrics};
use tessera_tetris_bot::ai::{Candidate, log};

/// The editor's version, as the seed's version line shows it.
pub fn version_line() -> String {
    format!("v{}", env!("CARGO_PKG_VERSION"))
}

/// The AI's chosen landing, from its decision replayed.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    /// Where the piece goes.
    pub placement: Placement,
    /// The landing as the log writes it (`T r1 x3 y17`).
    pub landing: String,
    /// The chosen candidate: its metrics, score and lookahead values.
    pub best: Candidate,
    /// What separated it from the runner-up (`-` for nothing).
    pub decided_by: String,
}

impl Prediction {
    /// One metric's value (`holesCreated` → `1`), by the metric's name.
    pub fn metric(&self, name: &str) -> Option<String> {
        let metric = Metric::from_name(name)?;
        let v = self.best.value(metric);
        Some(match metric {
            Metric::Score | Metric::Lookahead => log::grouped(v, 2),
            _ if v.fract() != 0.0 => log::grouped(v, 1),
            _ => log::grouped(v, 0),
        })
    }
}

/// The decision an AI log records, replayed by the engine on a worker;
/// `None` when the log does not read or has no best landing, and at once
/// when `cancel` is set (the playtest moved on or closed), so a replay of
/// a large logged table does not run on after nobody waits for it.
pub fn prediction_until(text: &str, cancel: &AtomicBool) -> Option<Prediction> {
    let parsed = log::parse(text).ok()?;
    let (choice, _) = log::explain_until(&parsed, &parsed.input.difficulty, cancel).ok()?;
    let best = choice.best()?.clone();
    Some(Prediction {
        placement: best.placement,
        landing: log::landing_text(&best),
        decided_by: choice.decided_by.unwrap_or("-").to_string(),
        best,
    })
}

/// The HUD's lines: the board's holes (with the holes the last AI move
/// made), blockades, wells, and the AI's prediction.
pub fn hud_lines(board: &Board, danger_rows: usize, pred: Option<&Prediction>) -> Vec<String> {
    let m: Metrics = board_metrics(board, danger_rows);
    let new = pred
        .and_then(|p| p.metric("holesCreated"))
        .unwrap_or_else(|| "0".into());
    let mut lines = vec![format!(
        "HOLES {}(+{new})  BLOCK {}  WELLS {}",
        m.holes, m.blockades, m.well_sums
    )];
    match pred {
        Some(p) => {
            lines.push(format!("PRED {}", p.landing));
            lines.push(format!("decidedBy {}", p.decided_by));
            let shown = [
                ("nextTopOut", "nextTop"),
                ("highRows", "high"),
                ("netBenefit", "net"),
                ("linesCleared", "lines"),
                ("holes", "holes"),
                ("holesCreated", "new"),
                ("blockades", "block"),
                ("wellSums", "wells"),
                ("maxHeight", "maxH"),
                ("aggregateHeight", "aggH"),
                ("bumpiness", "bump"),
                ("score", "score"),
            ];
            let values: Vec<String> = shown
                .iter()
                .filter_map(|(name, short)| p.metric(name).map(|v| format!("{short} {v}")))
                .collect();
            // Short lines: the HUD sits on a board ten cells wide.
            for chunk in values.chunks(4) {
                lines.push(chunk.join("  "));
            }
        }
        None => lines.push("PRED - (no AI decision yet)".into()),
    }
    lines
}

/// What decided the logged decision, in one line for the top of the log
/// panel (the log's own `decidedBy:` line sits below the board, out of
/// sight): the criterion, its place in the difficulty's order and the
/// criteria before it, on which the best two tied (GOD's guards, when
/// they did not decide), and the landing chosen. `None` when the log does
/// not read.
pub fn decision_line(text: &str) -> Option<String> {
    let parsed = log::parse(text).ok()?;
    let best = parsed.best.as_deref().unwrap_or("-");
    let row = &parsed.input.difficulty;
    let (ranking, off_line) = row.ranking_at(&parsed.input.position);
    let order = &ranking.order;
    let name = &row.name;
    // Which of GOD's two orders: its own follows the expected line.
    let which = match (&row.off_line, off_line) {
        (None, _) => String::new(),
        (Some(_), true) => format!(
            " for a player off its line (fed its reader's piece {} of {} times in a row)",
            parsed.input.position.reader_streak, row.line_trust
        ),
        (Some(_), false) => " for a player who feeds its line".to_string(),
    };
    let Some(decided) = parsed.decided_by.as_deref() else {
        return Some(format!(
            "decidedBy -: the best two tie on every criterion · best {best}"
        ));
    };
    let place = order.iter().position(|m| m.name() == decided);
    Some(match place {
        Some(i) => {
            let tied: Vec<&str> = order[..i].iter().map(|m| m.name()).collect();
            let before = if tied.is_empty() {
                String::new()
            } else {
                format!("; tied on {}", tied.join(", "))
            };
            format!(
                "decidedBy {decided}: criterion {} of {} in {name}'s order{which}{before} · best {best}",
                i + 1,
                order.len()
            )
        }
        None => format!("decidedBy {decided} ({name} ranks by score) · best {best}"),
    })
}

/// The AI log panel: the last decision's log, monospace and scrollable,
/// with Copy (to the clipboard) and Close; what decided it stands above
/// the log ([`decision_line`]). Returns whether Close was clicked.
pub fn log_panel(ui: &mut egui::Ui, log: Option<(usize, &str)>, copied: &mut bool) -> bool {
    let mut close = false;
    // The buttons first, the words that change after them: "no decision
    // yet" becoming "seat 1" and "copied" appearing moved Copy and Close.
    ui.horizontal(|ui| {
        ui.strong("AI LOG");
        if ui
            .add_enabled(log.is_some(), egui::Button::new("📋 Copy"))
            .on_hover_text("Copy the whole log (paste it to `tessera tetris explain`)")
            .clicked()
            && let Some((_, text)) = log
        {
            ui.ctx().copy_text(text.to_string());
            *copied = true;
        }
        if ui.button("Close").on_hover_text("S").clicked() {
            close = true;
        }
        match log {
            Some((seat, _)) => ui.weak(format!("seat {}", seat + 1)),
            None => ui.weak("no decision yet"),
        };
        if *copied {
            ui.weak("copied");
        }
    });
    // The decision's headline has its line before the first decision too:
    // the log below does not drop when it comes.
    tessera_ui::slot::line_slot(ui, 1, |ui| {
        if let Some(line) = log.and_then(|(_, text)| decision_line(text)) {
            ui.add(egui::Label::new(RichText::new(line).strong()).truncate());
        }
    });
    ui.separator();
    egui::ScrollArea::both()
        .id_salt("tetris ai log")
        .auto_shrink([false, false])
        .show(ui, |ui| match log {
            Some((_, text)) => {
                ui.add(egui::Label::new(RichText::new(text).monospace().size(11.0)).extend());
            }
            None => {
                ui.weak(
                    "The AI's last decision appears here: version, difficulty, turn, the board, \
                     the comparison order, decidedBy and the top candidates with every metric.",
                );
            }
        });
    close
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_tetris::piece::PieceKind;
    use tessera_tetris_bot::ai::{Brain, Position};

    /// The prediction, never cancelled.
    fn prediction(text: &str) -> Option<Prediction> {
        prediction_until(text, &AtomicBool::new(false))
    }

    /// A T to place in feed mode on a 10 x 20 board whose bottom row is
    /// full but for its first cell, the player having given the reader's
    /// piece `reader_streak` times in a row.
    fn feed_position(reader_streak: u32) -> Position {
        let mut board = Board::new(10, 20);
        for x in 1..10 {
            board.set(x, 19, true);
        }
        Position {
            reader_streak,
            ..Position::shipped(board, PieceKind::T)
        }
    }

    fn god_log() -> (String, tessera_tetris_bot::ai::Choice) {
        let mut god = tessera_tetris_bot::ai::settings::default_difficulties()
            .into_iter()
            .find(|d| d.name == "GOD")
            .expect("GOD");
        god.order.insert(1, Metric::HighRows);
        let position = feed_position(0);
        let choice = Brain::new().choose(&position, &god, 0);
        let input = log::DecisionInput {
            position,
            difficulty: god,
            noise_seed: 0,
            turn: 1,
        };
        (log::write(&input, &choice, 5), choice)
    }

    #[test]
    fn the_log_panel_says_what_decided_above_the_log() {
        let (text, choice) = god_log();
        let decided = choice.decided_by.expect("the best two differ");
        let order: Vec<&str> = god_log_order();
        let place = order
            .iter()
            .position(|m| *m == decided)
            .expect("in the order");
        let line = decision_line(&text).expect("the log reads");
        assert!(
            line.starts_with(&format!(
                "decidedBy {decided}: criterion {} of {} in GOD's order",
                place + 1,
                order.len()
            )),
            "{line}"
        );
        // The criteria before it are the ones the best two tied on.
        if place > 0 {
            assert!(
                line.contains(&format!("tied on {}", order[..place].join(", "))),
                "{line}"
            );
        }
        let best = log::landing_text(choice.best().expect("a best landing"));
        assert!(line.ends_with(&format!("· best {best}")), "{line}");
        assert_eq!(decision_line("not a log"), None);
    }

    /// The top of the log's scroll area (its first line: the log's text,
    /// or the note before the first decision) in a window showing
    /// `log_panel` on `log`.
    fn log_top(log: Option<String>) -> f32 {
        use egui_kittest::kittest::Queryable;
        let mut harness = tessera_ui_testkit::window(
            egui::vec2(700.0, 400.0),
            |ui, log: &mut Option<String>| {
                let mut copied = false;
                let _ = log_panel(ui, log.as_deref().map(|t| (0, t)), &mut copied);
            },
            log,
        );
        harness.run_steps(2);
        let first = match harness.state() {
            Some(text) => text.lines().next().unwrap_or_default().to_string(),
            None => "The AI's last decision appears here".to_string(),
        };
        harness.get_by_label_contains(&first).rect().top()
    }

    /// The decision line has its slot before the first decision: the log
    /// under it starts where the note before it did (it dropped a line
    /// when the first decision came, under the designer's pointer).
    #[test]
    fn the_first_decision_does_not_push_the_log_down() {
        let (text, _) = god_log();
        assert!(decision_line(&text).is_some(), "the log has its headline");
        let before = log_top(None);
        let after = log_top(Some(text));
        assert!(
            (after - before).abs() < 1.0,
            "the log starts at {after}, the note before it at {before}"
        );
    }

    #[test]
    fn the_headline_names_which_of_gods_two_orders_decided() {
        use tessera_tetris_bot::ai::{Adversary, Difficulty};
        let seed_god = tessera_tetris_bot::ai::settings::default_difficulties()
            .into_iter()
            .find(|d| d.name == "GOD")
            .expect("GOD");
        // A row that follows its line (weighted, own adversary) and
        // guards with the seed's order otherwise.
        let row = Difficulty {
            order: vec![
                Metric::GameOverAfterMove,
                Metric::LinePlies,
                Metric::Lookahead,
            ],
            lookahead: 1,
            adversary: Adversary::Own,
            line_depth: 2,
            line_beam: 8,
            line_trust: 3,
            off_line: Some(Box::new(seed_god.clone())),
            ..seed_god
        };
        for (streak, says) in [
            (
                0,
                "in GOD's order for a player off its line (fed its reader's piece 0 of 3 times in a row)",
            ),
            (3, "in GOD's order for a player who feeds its line"),
        ] {
            let position = feed_position(streak);
            let choice = Brain::new().choose(&position, &row, 0);
            let input = log::DecisionInput {
                position,
                difficulty: row.clone(),
                noise_seed: 0,
                turn: 1,
            };
            let line = decision_line(&log::write(&input, &choice, 5)).expect("reads");
            assert!(line.contains(says), "{line}");
        }
    }

    /// The order `god_log` decides by.
    fn god_log_order() -> Vec<&'static str> {
        let (text, _) = god_log();
        let parsed = log::parse(&text).expect("reads");
        parsed
            .input
            .difficulty
            .order
            .iter()
            .map(|m| m.name())
            .collect()
    }

    #[test]
    fn the_prediction_is_the_decision_replayed() {
        let (text, choice) = god_log();
        let p = prediction(&text).expect("a prediction");
        let best = choice.best().expect("a best landing");
        assert_eq!(p.placement, best.placement);
        assert_eq!(p.landing, log::landing_text(best));
        assert_eq!(p.best.metrics, best.metrics);
        assert_eq!(p.decided_by, choice.decided_by.unwrap_or("-"));
        assert_eq!(
            p.metric("holesCreated"),
            Some(best.metrics.holes_created.to_string())
        );
        let lines = hud_lines(&Board::new(10, 20), 1, Some(&p));
        assert_eq!(
            lines[0],
            format!("HOLES 0(+{})  BLOCK 0  WELLS 0", best.metrics.holes_created)
        );
        assert_eq!(lines[1], format!("PRED {}", p.landing));
        assert_eq!(lines[2], format!("decidedBy {}", p.decided_by));
        // The layout of the log's table does not matter: a log whose
        // `best:` line lost its metrics still predicts the same.
        let trimmed: String = text
            .lines()
            .map(|l| match l.split_once(" | ") {
                Some((head, _)) if l.starts_with("best:") => format!("{head}\n"),
                _ => format!("{l}\n"),
            })
            .collect();
        assert_eq!(prediction(&trimmed), Some(p));
    }

    #[test]
    fn a_log_that_does_not_read_predicts_nothing() {
        assert!(prediction("best: - (no reachable landing)\n").is_none());
        assert!(prediction("").is_none());
    }
}
