//! The factory ring and the centre: the sources a colour is picked from.

use egui::{Color32, CornerRadius, Rect, RichText, Sense, Stroke, StrokeKind, Vec2};
use tessera_azul::rules::{CENTRE, State};

use super::{AzulPlaytest, BROWN, GOLD, TILE};

/// The room one factory takes in the ring.
const FACTORY_CELL: Vec2 = Vec2::new(190.0, 78.0);

/// The ring's radii: an ellipse wide enough that no factory overlaps the
/// centre or its neighbours (5, 7 or 9 factories).
fn ring_radii(factories: u8) -> (f32, f32) {
    let rx = (f32::from(factories) * FACTORY_CELL.x / std::f32::consts::TAU * 1.3).max(240.0);
    (rx, (rx * 0.5).max(120.0))
}

/// The room the factory ring takes.
pub(super) fn ring_size(factories: u8) -> Vec2 {
    let (rx, ry) = ring_radii(factories);
    Vec2::new(2.0 * rx + FACTORY_CELL.x, 2.0 * ry + FACTORY_CELL.y + 20.0)
}

/// The height of the centre's row under the factories' grid.
const CENTRE_ROW: f32 = FACTORY_CELL.y + 20.0;

/// How many factory cells share a row of the grid `width` wide.
fn grid_columns(width: f32) -> usize {
    ((width / FACTORY_CELL.x).floor() as usize).max(1)
}

/// The room the sources take in `width`: the ring where it fits, else
/// (a docked playtest) a grid of factory cells as wide as the panel with
/// the centre on a row of its own below, so no factory lies past the
/// panel's edge. Fixed cells: taking tiles moves no other source.
pub(super) fn sources_size(factories: u8, width: f32) -> Vec2 {
    let ring = ring_size(factories);
    if width >= ring.x {
        return ring;
    }
    let rows = usize::from(factories).div_ceil(grid_columns(width));
    Vec2::new(
        width.max(FACTORY_CELL.x),
        rows as f32 * FACTORY_CELL.y + CENTRE_ROW,
    )
}

impl AzulPlaytest {
    /// One source (factory or centre): a tile button per colour present.
    pub(super) fn source(&mut self, ui: &mut egui::Ui, s: &State, source: u8, can_pick: bool) {
        let counts = if source == CENTRE {
            s.centre
        } else {
            s.factories[source as usize]
        };
        let name = if source == CENTRE {
            "centre".to_string()
        } else {
            format!("factory {}", source + 1)
        };
        let frame = egui::Frame::group(ui.style())
            .corner_radius(CornerRadius::same(if source == CENTRE { 8 } else { 60 }))
            .fill(Color32::from_rgb(0xF5, 0xF5, 0xDC))
            .stroke(Stroke::new(1.5, BROWN))
            .show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.label(RichText::new(&name).small());
                    ui.horizontal(|ui| {
                        if counts.iter().all(|&n| n == 0) {
                            ui.add_sized(Vec2::splat(TILE), egui::Label::new("-"));
                        }
                        for (k, &n) in counts.iter().enumerate() {
                            if n == 0 {
                                continue;
                            }
                            let selected = self.selected == Some((source, k as u8));
                            let size =
                                Vec2::new(TILE + 10.0 * f32::from(n.min(5) - 1).min(3.0), TILE);
                            let (rect, response) = ui.allocate_exact_size(size, Sense::click());
                            let label = format!("{name} {} x{n}", self.colour_name(k));
                            response.widget_info(|| {
                                egui::WidgetInfo::labeled(egui::Role::Button, can_pick, &label)
                            });
                            let hovered = can_pick && response.hovered();
                            let draw = if hovered {
                                rect.expand(2.0)
                            } else {
                                rect.shrink(1.0)
                            };
                            let mut fill = self.colour(k);
                            if !can_pick {
                                fill = fill.gamma_multiply(0.5);
                            }
                            ui.painter().rect_filled(draw, CornerRadius::same(8), fill);
                            ui.painter().text(
                                draw.center(),
                                egui::Align2::CENTER_CENTER,
                                format!("{n}"),
                                egui::FontId::proportional(14.0),
                                Color32::WHITE,
                            );
                            if selected {
                                ui.painter().rect_stroke(
                                    draw,
                                    CornerRadius::same(8),
                                    Stroke::new(3.0, GOLD),
                                    StrokeKind::Outside,
                                );
                            }
                            if can_pick && response.clicked() {
                                self.selected = if selected {
                                    None
                                } else {
                                    Some((source, k as u8))
                                };
                            }
                        }
                    });
                    if source == CENTRE && s.marker_in_centre {
                        ui.label(RichText::new("first-player marker (1)").small());
                    }
                });
            });
        self.rects.sources.insert(source, frame.response.rect);
    }

    pub(super) fn factory_ring(&mut self, ui: &mut egui::Ui, s: &State, can_pick: bool) {
        let n = s.factory_count as usize;
        let size = sources_size(s.factory_count, ui.available_width());
        let ring = size == ring_size(s.factory_count);
        let (area, _) = ui.allocate_exact_size(size, Sense::hover());
        ui.painter().rect_filled(
            area,
            CornerRadius::same(12),
            Color32::from_rgb(0xF5, 0xF5, 0xDC).gamma_multiply(0.6),
        );
        // Child uis that do not move the parent's cursor: what follows the
        // sources starts below all of them.
        let place = |ui: &mut egui::Ui, rect: Rect, source: u8, this: &mut Self| {
            let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
            child.vertical_centered(|ui| this.source(ui, s, source, can_pick));
        };
        if !ring {
            let columns = grid_columns(area.width());
            for f in 0..n {
                let at = area.min
                    + Vec2::new(
                        (f % columns) as f32 * FACTORY_CELL.x,
                        (f / columns) as f32 * FACTORY_CELL.y,
                    );
                place(ui, Rect::from_min_size(at, FACTORY_CELL), f as u8, self);
            }
            let centre = Rect::from_min_max(
                egui::pos2(area.left(), area.bottom() - CENTRE_ROW),
                area.max,
            );
            place(ui, centre, CENTRE, self);
            return;
        }
        let (rx, ry) = ring_radii(s.factory_count);
        let centre = area.center();
        for f in 0..n {
            let angle = -std::f32::consts::FRAC_PI_2 + f as f32 * std::f32::consts::TAU / n as f32;
            let at = centre + Vec2::new(angle.cos() * rx, angle.sin() * ry);
            place(ui, Rect::from_center_size(at, FACTORY_CELL), f as u8, self);
        }
        let rect = Rect::from_center_size(
            centre,
            Vec2::new(FACTORY_CELL.x + 40.0, FACTORY_CELL.y + 20.0),
        );
        place(ui, rect, CENTRE, self);
    }
}
