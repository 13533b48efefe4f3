//! Feed mode's side of the view: the offer as clickable mini pieces, the
//! AI's progress against its target, the ceiling, and the end screens'
//! words. The rules (what is on offer, when the ceiling drops, who won)
//! are the engine's `FeedState`; this file draws it.

use egui::{Color32, Rect, Sense, vec2};
use tessera_ui::text::{count, thousands};

use tessera_host::Outcome;
use tessera_tetris::FeedState;
use tessera_tetris::piece::{PieceKind, orientation};

use super::playtest::cell_colour;

/// Draws `kind` (spawn orientation) centred in `rect`, cells `cell` px.
pub fn paint_piece(painter: &egui::Painter, rect: Rect, kind: PieceKind, cell: f32) {
    let o = orientation(kind, 0);
    let size = vec2(f32::from(o.width as u8), f32::from(o.height as u8)) * cell;
    let origin = rect.center() - size / 2.0;
    for &(x, y) in o.cells() {
        let at = origin + vec2(f32::from(x - o.left) * cell, f32::from(y - o.top) * cell);
        painter.rect_filled(
            Rect::from_min_size(at, vec2(cell, cell)).shrink(0.5),
            1.5,
            cell_colour(kind.colour()),
        );
    }
}

/// One offered piece as a button: its shape and letter; `special` pieces
/// get a gold frame. Its accessible label is `give T`.
pub fn piece_button(
    ui: &mut egui::Ui,
    kind: PieceKind,
    special: bool,
    enabled: bool,
) -> egui::Response {
    let cell = 11.0;
    let size = vec2(5.0 * cell + 6.0, 3.0 * cell + 20.0);
    let sense = if enabled {
        Sense::click()
    } else {
        Sense::hover()
    };
    let (rect, response) = ui.allocate_exact_size(size, sense);
    let label = format!("give {kind}");
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, &label));
    let painter = ui.painter_at(rect);
    let fill = if !enabled {
        Color32::from_gray(22)
    } else if response.hovered() {
        Color32::from_gray(58)
    } else {
        Color32::from_gray(34)
    };
    painter.rect_filled(rect, 4.0, fill);
    if special {
        painter.rect_stroke(
            rect.shrink(1.0),
            4.0,
            egui::Stroke::new(2.0, Color32::from_rgb(240, 200, 60)),
            egui::StrokeKind::Inside,
        );
    }
    let shape = Rect::from_min_size(rect.min, vec2(size.x, 3.0 * cell + 6.0));
    if enabled {
        paint_piece(&painter, shape, kind, cell);
    } else {
        paint_piece(&painter, shape, kind, cell);
        painter.rect_filled(rect, 4.0, Color32::from_black_alpha(140));
    }
    painter.text(
        egui::pos2(rect.center().x, rect.bottom() - 8.0),
        egui::Align2::CENTER_CENTER,
        if special {
            format!("{kind} ★")
        } else {
            kind.to_string()
        },
        egui::FontId::proportional(11.0),
        Color32::from_gray(if enabled { 220 } else { 110 }),
    );
    response.on_hover_text(if special {
        format!("Give the AI the special piece {kind}")
    } else {
        format!("Give the AI {kind}")
    })
}

/// What the player may do now in a feed game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedTurn {
    /// The player chooses the AI's next piece.
    Choose,
    /// The AI is thinking about, or moving, its piece.
    AiPlaces,
    /// A headless feeder (`ai:random`, `ai:hate`) chooses.
    FeederChooses,
    /// The game is over.
    Over,
}

/// The feed panel: whose turn, the offer (clicking a piece returns it),
/// the AI's lines against its target, its pieces, the ceiling.
pub fn feed_panel(
    ui: &mut egui::Ui,
    feed: &FeedState,
    lines: u64,
    turn: FeedTurn,
    pace_ms: u32,
) -> Option<PieceKind> {
    let mut given = None;
    ui.heading(format!("Feed the AI · {}", feed.difficulty));
    let prompt = match turn {
        FeedTurn::Choose => "Your turn: choose the AI's next piece",
        FeedTurn::AiPlaces => "The AI is placing its piece…",
        FeedTurn::FeederChooses => "The feeder chooses…",
        FeedTurn::Over => "Game over",
    };
    ui.label(prompt);
    let enabled = turn == FeedTurn::Choose;
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing = vec2(4.0, 4.0);
        for &kind in &feed.offer {
            let special = !kind.is_tetromino();
            if piece_button(ui, kind, special, enabled).clicked() && enabled {
                given = Some(kind);
            }
        }
    });
    // A slot of its own, there or not: the note comes and goes with the
    // offer, and the Freeze and Restart buttons below must not move.
    tessera_ui::slot::line_slot(ui, 1, |ui| {
        if feed.offer.iter().any(|k| !k.is_tetromino()) {
            ui.small("★ a special piece is on offer this turn");
        }
    });
    ui.separator();
    let target = feed.target_lines.max(1);
    ui.label(format!("AI lines {lines} / {}", feed.target_lines));
    ui.add(
        egui::ProgressBar::new((lines as f32 / target as f32).min(1.0))
            .desired_width(200.0)
            .text(format!("{lines} / {}", feed.target_lines)),
    );
    ui.label(format!("AI pieces {}", thousands(feed.ai_pieces)));
    let every = feed.ceiling_every().max(1);
    let left = every.saturating_sub(feed.since_drop);
    ui.label(format!(
        "Ceiling {} down · drops in {}",
        count(feed.ceiling, "row"),
        count(left, "piece")
    ))
    .on_hover_text(format!(
        "The red line drops one row every {}; an AI piece locked against it loses the game for the AI",
        count(every, "AI piece")
    ));
    ui.weak(format!(
        "special chance {:.0}% · AI pace {} ms",
        feed.rules.special_chance * 100.0,
        pace_ms
    ));
    given
}

/// The end screen's words and colour for a feed game's outcome, seen from
/// the player (seat 1).
pub fn end_words(outcome: &Outcome, player_is_human: bool) -> Option<(&'static str, Color32)> {
    let gold = Color32::from_rgb(255, 220, 90);
    let red = Color32::from_rgb(240, 90, 80);
    match outcome {
        Outcome::Winner(0) if player_is_human => Some(("YOU WIN", gold)),
        Outcome::Winner(0) => Some(("FEEDER WINS", gold)),
        Outcome::Winner(_) => Some(("AI WINS", red)),
        Outcome::Playing => None,
        _ => Some(("OVER", Color32::WHITE)),
    }
}
