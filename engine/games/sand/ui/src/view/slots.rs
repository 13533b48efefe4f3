//! The preview slots and dragging a piece from them: the ghost on the
//! board (snapped to a cell, green or red with the reason), rotation while
//! dragging, and the placement it plays.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2, pos2, vec2};
use tessera_host::Game;
use tessera_sand::SandAction;
use tessera_sand::piece::Piece;

use super::{SHAKE_SECONDS, SandPlaytest};

/// A slot's width where there is room: the widest piece with a margin.
const SLOT_WIDTH: f32 = 96.0;
/// The narrowest slot: a piece four cells long (16 px a cell) still fits.
pub(super) const MIN_SLOT_WIDTH: f32 = 64.0;
/// The gap between slots.
const SLOT_GAP: f32 = 8.0;

/// How wide each of `slots` slots is when their row may take `room`:
/// narrower in a narrow panel, down to [`MIN_SLOT_WIDTH`].
pub(super) fn slot_width(room: f32, slots: usize) -> f32 {
    let slots = slots.max(1) as f32;
    ((room - (slots - 1.0) * SLOT_GAP) / slots).clamp(MIN_SLOT_WIDTH, SLOT_WIDTH)
}

/// The width of a row of `slots` slots each `width` wide.
pub(super) fn row_width(width: f32, slots: usize) -> f32 {
    let slots = slots.max(1) as f32;
    slots * width + (slots - 1.0) * SLOT_GAP
}

impl SandPlaytest {
    /// The logical cell the dragged piece's top-left would snap to: always
    /// inside the board (a drop at an edge or past it, above or beside the
    /// board, lands at the nearest position that fits the board, and the
    /// ghost shows it there).
    pub(super) fn snapped_cell(&self, pointer: Pos2, piece: &Piece) -> (i32, i32) {
        let game = self.session.game();
        let cell = game.cell_size() as f32 * self.grain_px;
        let cells = piece.shape.rotated_cells(self.drag_rotation);
        let width = i32::from(cells.iter().map(|c| c.0).max().unwrap_or(0)) + 1;
        let height = i32::from(cells.iter().map(|c| c.1).max().unwrap_or(0)) + 1;
        let local = pointer - self.board_rect.min;
        let x = (local.x / cell - width as f32 / 2.0).round() as i32;
        let y = (local.y / cell - height as f32 / 2.0).round() as i32;
        let (columns, rows) = game.logical_size();
        let (columns, rows) = (columns as i32, rows as i32);
        (
            x.clamp(0, (columns - width).max(0)),
            y.clamp(0, (rows - height).max(0)),
        )
    }

    pub(super) fn paint_ghost(
        &self,
        ui: &egui::Ui,
        painter: &egui::Painter,
        slot: usize,
        cell: f32,
    ) {
        let Some(pointer) = ui.ctx().pointer_latest_pos() else {
            return;
        };
        let Some(piece) = self.session.game().slots().get(slot).copied() else {
            return;
        };
        let (x, y) = self.snapped_cell(pointer, &piece);
        let colour = self.colour(piece.colour);
        // The engine's verdict on the whole drop: a piece reaching past a
        // wall or the top is refused like an overlap, and shown so.
        let verdict = self.ghost_verdict(slot, x, y);
        // Clipped to the board: over the board the ghost is clamped inside
        // it, and outside it must not cover the toolbar or the slots.
        let painter = &ui
            .painter()
            .clone()
            .with_layer_id(painter.layer_id())
            .with_clip_rect(self.board_rect);
        let mut lowest = self.board_rect.min.y;
        for (dx, dy) in piece.shape.rotated_cells(self.drag_rotation) {
            let (cx, cy) = (x + i32::from(dx), y + i32::from(dy));
            let min = self.board_rect.min + vec2(cx as f32 * cell, cy as f32 * cell);
            let r = Rect::from_min_size(min, Vec2::splat(cell));
            lowest = lowest.max(r.max.y);
            let free = verdict.is_ok()
                && self
                    .session
                    .game()
                    .logical_cell_is_free(i64::from(cx), i64::from(cy));
            let fill = if free {
                Color32::from_rgba_unmultiplied(colour.r(), colour.g(), colour.b(), 150)
            } else {
                Color32::from_rgba_unmultiplied(230, 40, 40, 150)
            };
            painter.rect_filled(r, 2.0, fill);
            painter.rect_stroke(
                r,
                2.0,
                Stroke::new(1.0, Color32::from_white_alpha(120)),
                StrokeKind::Inside,
            );
        }
        if let Err(reason) = verdict {
            // The reason is written inside the board, under the ghost.
            let painter = &painter.clone().with_clip_rect(ui.clip_rect());
            let at = pos2(pointer.x, lowest.min(self.board_rect.max.y - 40.0) + 6.0);
            let galley = painter.layout(
                reason,
                FontId::proportional(13.0),
                Color32::WHITE,
                (self.board_rect.width() * 0.9).max(160.0),
            );
            let rect = Align2::CENTER_TOP
                .anchor_size(at, galley.size())
                .expand(4.0);
            painter.rect_filled(rect, 4.0, Color32::from_rgba_unmultiplied(150, 20, 20, 220));
            painter.galley(rect.min + vec2(4.0, 4.0), galley, Color32::WHITE);
        }
    }

    /// Whether dropping the dragged piece of `slot` at logical (x, y) is
    /// legal, and why not: the engine's own words.
    pub(super) fn ghost_verdict(&self, slot: usize, x: i32, y: i32) -> Result<(), String> {
        self.session
            .game()
            .check_placement(slot, x, y, self.drag_rotation)
            .map(|_| ())
            .map_err(|e| match e {
                tessera_host::GameError::Illegal(reason) => reason,
                other => other.to_string(),
            })
    }

    /// The reason the dragged piece would be refused where it is now, if
    /// it would (shown under the red ghost).
    pub fn ghost_refusal(&self, pointer: Pos2) -> Option<String> {
        let slot = self.dragging?;
        let piece = *self.session.game().slots().get(slot)?;
        let (x, y) = self.snapped_cell(pointer, &piece);
        self.ghost_verdict(slot, x, y).err()
    }

    /// Quarter turns of the piece being dragged.
    pub fn drag_rotation(&self) -> u8 {
        self.drag_rotation
    }

    /// The slots' row, each slot `width` wide (see [`slot_width`]).
    pub(super) fn slots_ui(&mut self, ui: &mut egui::Ui, now: f64, width: f32) {
        let mut started = None;
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = SLOT_GAP;
            for slot in 0..self.session.game().slots().len() {
                let piece = self.session.game().slots()[slot];
                let over = self.session.game().outcome().is_over();
                // While rows clear, their grains still fill the board: a
                // slot waits rather than saying "no room".
                // One mask per row, all zero between clears.
                let clearing = self
                    .session
                    .game()
                    .clearing_rows()
                    .iter()
                    .any(|&row| row != 0);
                let fits = self.session.game().fits_anywhere(slot) && !over;
                let note = if over {
                    None
                } else if clearing {
                    Some("wait…")
                } else if !fits {
                    Some("no room")
                } else {
                    None
                };
                let (rect, response) = ui.allocate_exact_size(vec2(width, 80.0), Sense::drag());
                response.widget_info(|| {
                    let mut info = egui::WidgetInfo::labeled(
                        egui::Role::Button,
                        fits,
                        format!("slot {}", slot + 1),
                    );
                    // The note drawn under the piece, for screen readers
                    // and UI tests.
                    info.current_text_value = note.map(str::to_string);
                    info
                });
                if fits && response.drag_started() {
                    started = Some(slot);
                }
                let shake = match self.shake {
                    Some((s, start)) if s == slot => {
                        let t = (now - start) as f32;
                        (t * 50.0).sin() * 8.0 * (1.0 - t / SHAKE_SECONDS as f32).max(0.0)
                    }
                    _ => 0.0,
                };
                let rect = rect.translate(vec2(shake, 0.0));
                let painter = ui.painter();
                painter.rect_filled(rect, 6.0, Color32::from_gray(if fits { 40 } else { 25 }));
                let mut colour = if fits {
                    self.colour(piece.colour)
                } else {
                    Color32::from_gray(70)
                };
                if self.dragging == Some(slot) {
                    colour = colour.gamma_multiply(0.35);
                }
                let size = 16.0;
                let centre = rect.center();
                let cells = piece.shape.cells();
                let width = cells.iter().map(|c| c.0).max().unwrap_or(0) as f32 + 1.0;
                let height = cells.iter().map(|c| c.1).max().unwrap_or(0) as f32 + 1.0;
                let origin = centre - vec2(width, height) * size / 2.0;
                for (dx, dy) in cells {
                    let min = origin + vec2(f32::from(dx), f32::from(dy)) * size;
                    painter.rect_filled(
                        Rect::from_min_size(min, Vec2::splat(size - 1.0)),
                        2.0,
                        colour,
                    );
                }
                if let Some(note) = note {
                    painter.text(
                        rect.center_bottom() - vec2(0.0, 8.0),
                        Align2::CENTER_CENTER,
                        note,
                        FontId::proportional(11.0),
                        Color32::from_gray(140),
                    );
                }
            }
        });
        if let Some(slot) = started {
            self.dragging = Some(slot);
            self.drag_rotation = 0;
        }
        // Turning the held piece: R or a right click, when the script
        // allows rotation (the engine refuses turns otherwise).
        if self.dragging.is_some() && self.session.game().settings().rotation {
            let turn = ui.input_mut(|i| {
                i.consume_key(egui::Modifiers::NONE, egui::Key::R)
                    || i.pointer.button_pressed(egui::PointerButton::Secondary)
            });
            if turn {
                self.drag_rotation = (self.drag_rotation + 1) % 4;
            }
        }
        // Release anywhere ends the drag: a legal spot places the piece.
        // A refused spot sends it back with a shake and an info line, and
        // takes no step (nothing to undo), unless no piece fits anywhere:
        // then the attempt is played, for it ends the game (seed 11.3).
        if let Some(slot) = self.dragging
            && ui.input(|i| i.pointer.primary_released())
        {
            self.dragging = None;
            let Some(pointer) = ui.ctx().pointer_latest_pos() else {
                return;
            };
            let piece = self.session.game().slots()[slot];
            let (x, y) = self.snapped_cell(pointer, &piece);
            let verdict = self.ghost_verdict(slot, x, y);
            let stuck = !(0..self.session.game().slots().len())
                .any(|s| self.session.game().fits_anywhere(s));
            let place = SandAction::Place {
                slot,
                x,
                y,
                rotation: self.drag_rotation,
            };
            let placed = (verdict.is_ok() || stuck) && self.session.apply(&place).is_ok();
            if !placed {
                self.shake = Some((slot, now));
            }
            if let (Err(reason), false) = (verdict, stuck) {
                self.refusal = Some(reason);
            }
        }
    }
}
