//! A seat's board: the wall with its faint colour pattern, the pattern
//! lines, the floor with its penalties, and what a click there plays.

use egui::{Color32, CornerRadius, Rect, RichText, Sense, Stroke, StrokeKind, Vec2};
use tessera_azul::rules::{COLOURS, FLOOR, FLOOR_SLOTS, LINES, Move, State, wall_colour};
use tessera_azul::{AzulAction, move_to_action};
use tessera_host::{Seat, Turn};

use super::{AzulPlaytest, BROWN, FLOOR_CELL, GOLD, TILE, WALL_CELL};

/// Names, scores and numbers on a board: dark on its light grey in both
/// themes (the theme's own text is white in dark mode).
const BOARD_TEXT: Color32 = Color32::from_gray(25);
/// A board's light grey.
const BOARD_FILL: Color32 = Color32::from_rgb(0xE8, 0xE8, 0xE8);

impl AzulPlaytest {
    /// `size` at the scale of the board being drawn.
    pub(super) fn px(&self, size: f32) -> f32 {
        size * self.drawn_scale
    }

    /// The gap `size` around a cell at the board's scale: whole below
    /// half size, as the cell itself shrinks, down to half (a small
    /// board's tiles keep most of their room).
    fn gap(&self, size: f32) -> f32 {
        (self.px(2.0 * size)).clamp(size / 2.0, size)
    }

    /// A cell's corner radius `full` at full size, rounded down with the
    /// scale (a small tile stays a square with round corners, not a dot).
    fn corner(&self, full: u8) -> CornerRadius {
        let radius = self.px(f32::from(full)).clamp(1.0, f32::from(full));
        CornerRadius::same(radius as u8)
    }

    /// The first human seat ("you").
    pub(super) fn human_seat(&self) -> Option<usize> {
        self.game
            .options()
            .seats
            .iter()
            .position(|s| *s == Seat::Human)
    }

    /// Player `p`'s board at `scale` (1 = full size); its action if
    /// clicked, and its size at scale 1 (measured, for the next frame's
    /// grid).
    pub(super) fn board(
        &mut self,
        ui: &mut egui::Ui,
        p: usize,
        scale: f32,
    ) -> (Option<AzulAction>, Vec2) {
        self.drawn_scale = scale;
        let s = self.shown_state();
        let b = s.boards[p];
        let seat = self
            .game
            .options()
            .seats
            .get(p)
            .cloned()
            .unwrap_or(Seat::Human);
        let mine = matches!(seat, Seat::Human) && self.game.turn() == Turn::Seat(p);
        let mut chosen = None;
        // A small board's margins shrink with it (the other players'
        // boards beside a crowded docked table's own), down to half.
        let margin = egui::Frame::group(ui.style()).inner_margin * (2.0 * scale).clamp(0.5, 1.0);
        let frame = egui::Frame::group(ui.style())
            .inner_margin(margin)
            .stroke(Stroke::new(1.5, BROWN))
            .fill(BOARD_FILL)
            .show(ui, |ui| {
                // The board is light in either theme: dark text on it.
                ui.visuals_mut().override_text_color = Some(BOARD_TEXT);
                // Gaps shrink with the tiles, so a small board keeps its shape.
                ui.spacing_mut().item_spacing *= scale.max(0.25);
                ui.vertical(|ui| {
                    let name = match &seat {
                        Seat::Human => format!("Player {} (you)", p + 1),
                        Seat::Ai { level } => format!("Player {} (AI {level})", p + 1),
                    };
                    // One line at the board's scale: a wrapped name would
                    // widen nothing but read letter by letter.
                    let name = RichText::new(name)
                        .strong()
                        .size(self.px(15.0).max(10.0))
                        .color(BOARD_TEXT);
                    ui.add(egui::Label::new(name).extend());
                    let score = ui.label(
                        RichText::new(format!("Score: {}", b.score))
                            .size(self.px(18.0).max(11.0))
                            .color(BOARD_TEXT),
                    );
                    self.rects.scores.insert(p, score.rect);
                    ui.horizontal(|ui| {
                        // Pattern lines, right-aligned, beside the wall.
                        ui.vertical(|ui| {
                            for row in 0..LINES {
                                if let Some(a) = self.pattern_line(ui, &s, p, row, mine) {
                                    chosen = Some(a);
                                }
                            }
                        });
                        ui.add_space(self.px(8.0));
                        ui.vertical(|ui| {
                            if let Some(a) = self.wall(ui, &s, p, mine) {
                                chosen = Some(a);
                            }
                        });
                    });
                    if let Some(a) = self.floor_line(ui, &s, p, mine) {
                        chosen = Some(a);
                    }
                });
            });
        let name = format!("player {} board", p + 1);
        frame
            .response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &name));
        // Measure the board at full size for the next frame's grid.
        (chosen, frame.response.rect.size() / scale.max(0.1))
    }

    /// One wall: the printed wall shows its faint colour pattern, the
    /// grey wall grey cells. While its owner chooses a grey-wall column,
    /// the legal cells of the row are highlighted and clickable.
    pub(super) fn wall(
        &mut self,
        ui: &mut egui::Ui,
        s: &State,
        p: usize,
        mine: bool,
    ) -> Option<AzulAction> {
        let b = s.boards[p];
        let pending = (s.to_move as usize == p)
            .then(|| s.pending_choice())
            .flatten();
        let mut chosen = None;
        // A row is a cell high: a horizontal row is at least the
        // interaction height, which made a small board's wall twice as
        // tall as its pattern lines.
        ui.spacing_mut().interact_size.y = self.px(WALL_CELL);
        for row in 0..LINES {
            ui.horizontal(|ui| {
                for col in 0..LINES {
                    let legal =
                        pending.is_some_and(|(r, _, mask)| r == row && mask & (1 << col) != 0);
                    let clickable = legal && mine;
                    let sense = if clickable {
                        Sense::click()
                    } else {
                        Sense::hover()
                    };
                    let (rect, response) =
                        ui.allocate_exact_size(Vec2::splat(self.px(WALL_CELL)), sense);
                    if clickable {
                        let label = format!("wall row {} column {}", row + 1, col + 1);
                        response.widget_info(|| {
                            egui::WidgetInfo::labeled(egui::Role::Button, true, &label)
                        });
                    }
                    self.rects.walls.insert((p, row, col), rect);
                    let fill = match b.colour_at(row, col) {
                        Some(k) => self.colour(k),
                        None if b.grey => Color32::from_gray(if legal { 205 } else { 185 }),
                        None => self.colour(wall_colour(row, col)).gamma_multiply(0.25),
                    };
                    let draw = if clickable && response.hovered() {
                        rect.expand(1.0)
                    } else {
                        rect.shrink(self.gap(1.5))
                    };
                    ui.painter().rect_filled(draw, self.corner(5), fill);
                    if legal {
                        let k = pending.map_or(0, |(_, k, _)| k);
                        // The tile that would land here, faint.
                        ui.painter().rect_filled(
                            draw.shrink(self.px(7.0)),
                            CornerRadius::same(3),
                            self.colour(k).gamma_multiply(0.6),
                        );
                        let width = if clickable && response.hovered() {
                            3.0
                        } else {
                            2.0
                        };
                        ui.painter().rect_stroke(
                            draw,
                            self.corner(5),
                            Stroke::new(width, GOLD),
                            StrokeKind::Outside,
                        );
                    }
                    if clickable && response.hovered() {
                        let points = b.placement_score(row, col);
                        response
                            .clone()
                            .on_hover_text(format!("column {}: +{points}", col + 1));
                    }
                    if clickable && response.clicked() {
                        chosen = Some(AzulAction::Wall {
                            row: row as u8 + 1,
                            column: col as u8 + 1,
                        });
                    }
                }
            });
        }
        chosen
    }

    pub(super) fn preview(&self, s: &State, m: Move) -> String {
        let mut after = *s;
        let p = s.to_move as usize;
        let before = s.boards[p];
        after.play(m);
        let b = after.boards[p];
        let dropped = b.floor_len.saturating_sub(before.floor_len);
        let penalty = b.floor_penalty(&s.rules) - before.floor_penalty(&s.rules);
        if dropped == 0 {
            "nothing falls to the floor".into()
        } else {
            format!("{dropped} to the floor ({})", -penalty)
        }
    }

    pub(super) fn pattern_line(
        &mut self,
        ui: &mut egui::Ui,
        s: &State,
        p: usize,
        row: usize,
        mine: bool,
    ) -> Option<AzulAction> {
        let b = &s.boards[p];
        let line = b.lines[row];
        let width = 5.0 * self.px(TILE);
        let (rect, response) =
            ui.allocate_exact_size(Vec2::new(width, self.px(TILE)), Sense::click());
        self.rects.lines.insert((p, row), rect);
        let target = Move {
            source: self.selected.map_or(0, |x| x.0),
            colour: self.selected.map_or(0, |x| x.1),
            target: row as u8,
        };
        // Why the picked colour cannot go here (the rules' own words),
        // shown on hover and said in the log on a click.
        let refusal = (mine && self.selected.is_some())
            .then(|| s.refusal(target))
            .flatten();
        let legal = mine && self.selected.is_some() && refusal.is_none();
        let label = if mine {
            format!("line {}", row + 1)
        } else {
            format!("player {} line {}", p + 1, row + 1)
        };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, legal, &label));
        let painter = ui.painter();
        for i in 0..=row {
            // Right to left: cell 0 is the rightmost.
            let x = rect.right() - (i as f32 + 1.0) * self.px(TILE);
            let cell = Rect::from_min_size(egui::pos2(x, rect.top()), Vec2::splat(self.px(TILE)))
                .shrink(self.gap(2.0));
            let fill = if i < line.count as usize {
                self.colour(line.colour as usize)
            } else {
                Color32::from_gray(250)
            };
            painter.rect_filled(cell, self.corner(6), fill);
            painter.rect_stroke(
                cell,
                self.corner(6),
                Stroke::new(1.0, Color32::GRAY),
                StrokeKind::Inside,
            );
        }
        if legal {
            let stroke = if response.hovered() { 3.0 } else { 1.5 };
            painter.rect_stroke(
                rect,
                CornerRadius::same(4),
                Stroke::new(stroke, GOLD),
                StrokeKind::Outside,
            );
        }
        let placing = s.to_move as usize == p && s.pending_choice().is_some_and(|c| c.0 == row);
        if placing {
            // The line whose tile waits for its wall column.
            let cells = Rect::from_min_max(
                egui::pos2(
                    rect.right() - (row as f32 + 1.0) * self.px(TILE),
                    rect.top(),
                ),
                rect.max,
            );
            painter.rect_stroke(
                cells,
                CornerRadius::same(4),
                Stroke::new(2.5, GOLD),
                StrokeKind::Outside,
            );
        }
        if legal && response.hovered() {
            response.clone().on_hover_text(self.preview(s, target));
        }
        if legal && response.clicked() {
            return Some(move_to_action(target));
        }
        if let Some(reason) = refusal {
            if response.hovered() {
                painter.rect_stroke(
                    rect,
                    CornerRadius::same(4),
                    Stroke::new(2.0, Color32::from_rgb(200, 60, 60)),
                    StrokeKind::Outside,
                );
            }
            let response = response.on_hover_text(format!("Cannot go here: {reason}."));
            if response.clicked() {
                self.say(format!("Line {} cannot take it: {reason}.", row + 1), false);
            }
        }
        None
    }

    pub(super) fn floor_line(
        &mut self,
        ui: &mut egui::Ui,
        s: &State,
        p: usize,
        mine: bool,
    ) -> Option<AzulAction> {
        let b = &s.boards[p];
        let (rect, response) = ui.allocate_exact_size(
            Vec2::new(
                FLOOR_SLOTS as f32 * self.px(FLOOR_CELL),
                self.px(FLOOR_CELL + 14.0),
            ),
            Sense::click(),
        );
        self.rects.floors.insert(p, rect);
        let legal = mine && self.selected.is_some();
        let label = if mine {
            "floor".to_string()
        } else {
            format!("player {} floor", p + 1)
        };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, legal, &label));
        let painter = ui.painter();
        // What lies on the floor, marker first.
        let mut tiles: Vec<Option<usize>> = Vec::new();
        if b.marker {
            tiles.push(None);
        }
        for k in 0..COLOURS {
            for _ in 0..b.floor[k] {
                tiles.push(Some(k));
            }
        }
        for slot in 0..FLOOR_SLOTS {
            let cell = Rect::from_min_size(
                egui::pos2(rect.left() + slot as f32 * self.px(FLOOR_CELL), rect.top()),
                Vec2::splat(self.px(FLOOR_CELL)),
            )
            .shrink(self.gap(2.0));
            let fill = match tiles.get(slot) {
                Some(Some(k)) => self.colour(*k),
                Some(None) => Color32::WHITE,
                None => Color32::from_gray(235),
            };
            painter.rect_filled(cell, self.corner(5), fill);
            if tiles.get(slot) == Some(&None) {
                painter.text(
                    cell.center(),
                    egui::Align2::CENTER_CENTER,
                    "1",
                    egui::FontId::proportional(self.px(14.0).max(9.0)),
                    Color32::BLACK,
                );
            }
            painter.text(
                egui::pos2(cell.center().x, rect.bottom() - self.px(6.0)),
                egui::Align2::CENTER_CENTER,
                format!("-{}", s.rules.floor_penalties[slot]),
                egui::FontId::proportional(self.px(10.0).max(8.0)),
                Color32::from_rgb(0xC0, 0x39, 0x2B),
            );
        }
        if legal {
            let stroke = if response.hovered() { 3.0 } else { 1.5 };
            painter.rect_stroke(
                rect,
                CornerRadius::same(4),
                Stroke::new(stroke, GOLD),
                StrokeKind::Outside,
            );
        }
        if legal && let Some((source, colour)) = self.selected {
            let m = Move {
                source,
                colour,
                target: FLOOR,
            };
            if response.hovered() {
                response.clone().on_hover_text(self.preview(s, m));
            }
            if response.clicked() {
                return Some(move_to_action(m));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance of an sRGB colour.
    fn luminance(c: Color32) -> f32 {
        let channel = |v: u8| {
            let v = f32::from(v) / 255.0;
            if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
    }

    #[test]
    fn board_text_is_readable_on_the_board_in_either_theme() {
        // The text no longer follows the theme, so one pair decides both.
        let (light, dark) = (luminance(BOARD_FILL), luminance(BOARD_TEXT));
        let ratio = (light + 0.05) / (dark + 0.05);
        assert!(
            ratio >= 7.0,
            "contrast {ratio:.1}:1 is below WCAG AAA (7:1)"
        );
        // What it replaced: dark mode's white-ish text on the same grey.
        let theme = luminance(egui::Visuals::dark().text_color());
        let old = (light.max(theme) + 0.05) / (light.min(theme) + 0.05);
        assert!(old < 3.0, "the theme's text was {old:.1}:1 on the board");
    }
}
