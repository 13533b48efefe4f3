//! Presentation only: tiles flying from a source to a line and on to the
//! wall, and score changes floating up from the boards.

use std::time::{Duration, Instant};

use egui::{Color32, CornerRadius, Rect, Stroke, StrokeKind, Vec2};
use tessera_azul::rules::{FLOOR, LINES, State};
use tessera_azul::{AzulAction, action_to_move};

use super::{AzulPlaytest, TILE};

/// Tiles moving from one place to another.
pub(super) struct Flight {
    from: egui::Pos2,
    to: egui::Pos2,
    colour: usize,
    count: u8,
    start: Instant,
}

/// A score change shown for 2 s.
pub(super) struct Popup {
    at: egui::Pos2,
    delta: i32,
    start: Instant,
}

/// How long tiles fly (the seed's 300 ms).
const FLIGHT: Duration = Duration::from_millis(300);
/// How long a score pop-up shows.
const POPUP: Duration = Duration::from_secs(2);

impl AzulPlaytest {
    /// Starts the animations of a move just played on `before`: its tiles
    /// fly from the source to the line (or floor), full lines' tiles fly
    /// on to the wall after them, and score changes pop up.
    pub(super) fn animate(&mut self, before: &State, action: &AzulAction) {
        let Some(m) = action_to_move(action) else {
            return;
        };
        if !self.animations {
            return;
        }
        let now = Instant::now();
        let p = before.to_move as usize;
        // A take flies first; the wall tiles follow it.
        let mut wall_start = now;
        if m.wall_row().is_none() {
            let count = before.source_count(m.source, m.colour as usize);
            let target = if m.target == FLOOR {
                self.rects.floors.get(&p)
            } else {
                self.rects.lines.get(&(p, m.target as usize))
            };
            if let (Some(from), Some(to)) = (self.rects.sources.get(&m.source), target) {
                self.flights.push(Flight {
                    from: from.center(),
                    to: to.center(),
                    colour: m.colour as usize,
                    count,
                    start: now,
                });
            }
            wall_start = now + FLIGHT;
        }
        // Every tile new on a wall flew there from its pattern line (both
        // walls; on the grey wall the chosen or only column).
        let after = *self.state();
        for q in 0..after.players as usize {
            let new = after.boards[q].wall & !before.boards[q].wall;
            for row in 0..LINES {
                for column in 0..LINES {
                    if new & (1 << (row * 5 + column)) == 0 {
                        continue;
                    }
                    let colour = after.boards[q].colour_at(row, column).unwrap_or(0);
                    if let (Some(from), Some(to)) = (
                        self.rects.lines.get(&(q, row)),
                        self.rects.walls.get(&(q, row, column)),
                    ) {
                        self.flights.push(Flight {
                            from: from.center(),
                            to: to.center(),
                            colour,
                            count: 1,
                            start: wall_start,
                        });
                    }
                }
            }
        }
        for q in 0..after.players as usize {
            let delta = after.boards[q].score - before.boards[q].score;
            if delta != 0
                && let Some(rect) = self.rects.scores.get(&q)
            {
                self.popups.push(Popup {
                    at: rect.right_center() + Vec2::new(40.0, 0.0),
                    delta,
                    start: wall_start + FLIGHT,
                });
            }
        }
    }

    /// Draws flights and pop-ups above the table; asks for frames while
    /// any runs.
    pub(super) fn draw_animations(&mut self, ctx: &egui::Context) {
        let now = Instant::now();
        self.flights.retain(|f| now < f.start + FLIGHT);
        self.popups.retain(|p| now < p.start + POPUP);
        if self.flights.is_empty() && self.popups.is_empty() {
            return;
        }
        let painter = ctx.layer_painter(egui::LayerId::new(
            egui::Order::Foreground,
            egui::Id::unique("azul animations"),
        ));
        for f in &self.flights {
            let Some(t) = now.checked_duration_since(f.start) else {
                continue;
            };
            let x = (t.as_secs_f32() / FLIGHT.as_secs_f32()).clamp(0.0, 1.0);
            // ease-in-out
            let e = if x < 0.5 {
                2.0 * x * x
            } else {
                1.0 - (-2.0 * x + 2.0).powi(2) / 2.0
            };
            let at = f.from + (f.to - f.from) * e;
            for i in 0..f.count.min(4) {
                let offset = Vec2::new(f32::from(i) * 6.0, -f32::from(i) * 3.0);
                let rect = Rect::from_center_size(at + offset, Vec2::splat(TILE * 0.8));
                painter.rect_filled(rect, CornerRadius::same(6), self.colour(f.colour));
                painter.rect_stroke(
                    rect,
                    CornerRadius::same(6),
                    Stroke::new(1.5, Color32::WHITE),
                    StrokeKind::Outside,
                );
            }
        }
        for p in &self.popups {
            let Some(t) = now.checked_duration_since(p.start) else {
                continue;
            };
            let x = t.as_secs_f32() / POPUP.as_secs_f32();
            let alpha = if x < 0.6 { 1.0 } else { (1.0 - x) / 0.4 };
            let colour = if p.delta > 0 {
                Color32::from_rgb(0x27, 0xAE, 0x60)
            } else {
                Color32::from_rgb(0xE7, 0x4C, 0x3C)
            };
            let size = 22.0 + 6.0 * (1.0 - (x * 8.0).min(1.0));
            painter.text(
                p.at - Vec2::new(0.0, 24.0 * x),
                egui::Align2::LEFT_CENTER,
                format!("{:+}", p.delta),
                egui::FontId::proportional(size),
                colour.gamma_multiply(alpha.clamp(0.0, 1.0)),
            );
        }
        ctx.request_repaint();
    }
}
