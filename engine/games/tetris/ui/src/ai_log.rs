//! The seed's debugging aids (its section 5): the AI log panel (S) with
//! the last decision's log and a Copy button, the debug HUD (D) with
//! HOLES(+NEW) / BLOCK / WELLS / PRED, and the version line (V).
//!
//! The log text is the engine's (`tessera_tetris::ai::log::write`, kept
//! by the session as its last explanation); this file only reads back
//! its `best:` line to draw the predicted landing.

use egui::RichText;

use tessera_tetris::ai::metrics::{Metrics, board_metrics};
use tessera_tetris::board::Board;
use tessera_tetris::movegen::Placement;
use tessera_tetris::piece::PieceKind;

use super::ai_move::placement_of;

/// The editor's version, as the seed's version line shows it.
pub fn version_line() -> String {
    format!("v{}", env!("CARGO_PKG_VERSION"))
}

/// The AI's chosen landing as its log states it, with its metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    /// Where the piece goes.
    pub placement: Placement,
    /// The landing as the log writes it (`T r1 x3 y17`).
    pub landing: String,
    /// `name=value` pairs of the log's `best:` line, in its order.
    pub metrics: Vec<(String, String)>,
    /// The log's `decidedBy`.
    pub decided_by: String,
}

impl Prediction {
    /// One metric's value as written (`holesCreated` → `1`).
    pub fn metric(&self, name: &str) -> Option<&str> {
        self.metrics
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads the `best:` and `decidedBy:` lines of an AI log; `None` when the
/// log has no best landing.
pub fn prediction(log: &str) -> Option<Prediction> {
    let mut decided_by = String::from("-");
    let mut best = None;
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix("decidedBy:") {
            decided_by = rest.trim().to_string();
        } else if let Some(rest) = line.strip_prefix("best:") {
            best = Some(rest.trim().to_string());
        }
    }
    let best = best?;
    let (landing, metrics) = best.split_once('|').unwrap_or((best.as_str(), ""));
    let landing = landing.trim();
    let mut words = landing.split_whitespace();
    let kind = words
        .next()
        .and_then(|w| w.chars().next())
        .and_then(PieceKind::from_letter)?;
    let mut number =
        |prefix: char| -> Option<i32> { words.next()?.strip_prefix(prefix)?.parse().ok() };
    let rotation = u8::try_from(number('r')?).ok()?;
    let left = number('x')?;
    let top = number('y')?;
    let metrics = metrics
        .split_whitespace()
        .filter_map(|pair| pair.split_once('='))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    Some(Prediction {
        placement: placement_of(kind, rotation, left, top),
        landing: landing.to_string(),
        metrics,
        decided_by,
    })
}

/// The HUD's lines: the board's holes (with the holes the last AI move
/// made), blockades, wells, and the AI's prediction.
pub fn hud_lines(board: &Board, danger_rows: usize, pred: Option<&Prediction>) -> Vec<String> {
    let m: Metrics = board_metrics(board, danger_rows);
    let new = pred
        .and_then(|p| p.metric("holesCreated"))
        .unwrap_or("0")
        .to_string();
    let mut lines = vec![format!(
        "HOLES {}(+{new})  BLOCK {}  WELLS {}",
        m.holes, m.blockades, m.well_sums
    )];
    match pred {
        Some(p) => {
            lines.push(format!("PRED {}", p.landing));
            lines.push(format!("decidedBy {}", p.decided_by));
            let shown = [
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

/// The AI log panel: the last decision's log, monospace and scrollable,
/// with Copy (to the clipboard) and Close. Returns whether Close was
/// clicked.
pub fn log_panel(ui: &mut egui::Ui, log: Option<(usize, &str)>, copied: &mut bool) -> bool {
    let mut close = false;
    ui.horizontal(|ui| {
        ui.strong("AI LOG");
        match log {
            Some((seat, _)) => ui.weak(format!("seat {}", seat + 1)),
            None => ui.weak("no decision yet"),
        };
        if ui
            .add_enabled(log.is_some(), egui::Button::new("📋 Copy"))
            .on_hover_text("Copy the whole log (paste it to `tessera tetris explain`)")
            .clicked()
            && let Some((_, text)) = log
        {
            ui.ctx().copy_text(text.to_string());
            *copied = true;
        }
        if *copied {
            ui.weak("copied");
        }
        if ui.button("Close").on_hover_text("S").clicked() {
            close = true;
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

    const LOG: &str = "tessera tetris ai log v1\n\
        difficulty: GOD\n\
        decidedBy: holes\n\
        best: T r1 x0 y17 | gameOverAfterMove=0 netBenefit=-1 linesCleared=0 holes=2 holesCreated=1 score=-3.250\n\
        top(1/1):\n";

    #[test]
    fn the_best_line_gives_the_predicted_landing_and_its_metrics() {
        let p = prediction(LOG).expect("a prediction");
        assert_eq!(p.landing, "T r1 x0 y17");
        assert_eq!(p.placement.left_column(), 0);
        assert_eq!(p.placement.top_row(), 17);
        assert_eq!(p.placement.state, 1);
        assert_eq!(p.metric("holesCreated"), Some("1"));
        assert_eq!(p.decided_by, "holes");
        let lines = hud_lines(&Board::new(10, 20), 1, Some(&p));
        assert_eq!(lines[0], "HOLES 0(+1)  BLOCK 0  WELLS 0");
        assert_eq!(lines[1], "PRED T r1 x0 y17");
        assert_eq!(lines[2], "decidedBy holes");
        assert!(lines[3..].iter().any(|l| l.contains("new 1")), "{lines:?}");
    }

    #[test]
    fn a_log_without_a_best_landing_predicts_nothing() {
        assert!(prediction("best: - (no reachable landing)\n").is_none());
        assert!(prediction("").is_none());
    }
}
