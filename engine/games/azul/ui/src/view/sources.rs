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

/// A factory's room in the grid of a narrow (docked) table: its tiles two
/// by two, so five factories share a row of a docked panel's width.
const COMPACT_CELL: Vec2 = Vec2::new(80.0, 2.0 * TILE + 20.0);

/// The height of the centre's row under the factories' grid: its tiles on
/// one line, its name and the first-player marker beside them.
const CENTRE_ROW: f32 = TILE + 18.0;

/// How many factory cells share a row of the grid `width` wide.
fn grid_columns(width: f32, factories: u8) -> usize {
    ((width / COMPACT_CELL.x).floor() as usize).clamp(1, usize::from(factories).max(1))
}

/// The room the sources take in `width`: the ring where it fits, else
/// (a docked playtest) a grid of compact factory cells as wide as the
/// panel with the centre on a row of its own below, so no factory lies
/// past the panel's edge and the table fits a docked panel's height.
/// Fixed cells: taking tiles moves no other source.
pub(super) fn sources_size(factories: u8, width: f32) -> Vec2 {
    let ring = ring_size(factories);
    if width >= ring.x {
        return ring;
    }
    let rows = usize::from(factories).div_ceil(grid_columns(width, factories));
    Vec2::new(
        width.max(COMPACT_CELL.x),
        rows as f32 * COMPACT_CELL.y + CENTRE_ROW,
    )
}

impl AzulPlaytest {
    /// One source (factory or centre): a tile button per colour present.
    /// `compact`: a factory's tiles two by two without its name, the
    /// centre's on one line with its name first (a docked table).
    pub(super) fn source(
        &mut self,
        ui: &mut egui::Ui,
        s: &State,
        source: u8,
        can_pick: bool,
        compact: bool,
    ) {
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
            .corner_radius(CornerRadius::same(match (source == CENTRE, compact) {
                (true, _) => 8,
                (false, true) => 24,
                (false, false) => 60,
            }))
            .fill(Color32::from_rgb(0xF5, 0xF5, 0xDC))
            .stroke(Stroke::new(1.5, BROWN))
            .show(ui, |ui| {
                let tiles = |ui: &mut egui::Ui, this: &mut Self| {
                    if counts.iter().all(|&n| n == 0) {
                        // Named by its source: the empty sources are told
                        // apart (a test's layout sweep follows each).
                        let empty = format!("{name} empty");
                        ui.add_sized(Vec2::splat(TILE), egui::Label::new("-"))
                            .widget_info(|| {
                                egui::WidgetInfo::labeled(egui::Role::Label, true, &empty)
                            });
                    }
                    let mut shown = 0;
                    for (k, &n) in counts.iter().enumerate() {
                        if n == 0 {
                            continue;
                        }
                        // Two by two in a compact factory.
                        if compact && source != CENTRE && shown == 2 {
                            ui.end_row();
                        }
                        shown += 1;
                        this.tile(ui, source, &name, k, n, can_pick, compact);
                    }
                };
                if compact && source != CENTRE {
                    ui.spacing_mut().item_spacing = Vec2::splat(4.0);
                    egui::Grid::new(("azul compact factory", source))
                        .spacing(Vec2::splat(4.0))
                        .min_col_width(TILE)
                        .min_row_height(TILE)
                        .show(ui, |ui| tiles(ui, self));
                } else if compact {
                    // The marker before the tiles, which gather as the
                    // factories are taken: it keeps its place.
                    ui.horizontal(|ui| {
                        ui.label(RichText::new(&name).small());
                        if s.marker_in_centre {
                            ui.label(RichText::new("first-player marker (1)").small());
                        }
                        tiles(ui, self);
                    });
                } else {
                    ui.vertical_centered(|ui| {
                        ui.label(RichText::new(&name).small());
                        ui.horizontal(|ui| tiles(ui, self));
                        if source == CENTRE && s.marker_in_centre {
                            ui.label(RichText::new("first-player marker (1)").small());
                        }
                    });
                }
            });
        self.rects.sources.insert(source, frame.response.rect);
    }

    /// One tile button of `source` (named `name`): colour `k`, `n` of them.
    /// In a compact factory every button is a tile wide.
    #[allow(clippy::too_many_arguments)]
    fn tile(
        &mut self,
        ui: &mut egui::Ui,
        source: u8,
        name: &str,
        k: usize,
        n: u8,
        can_pick: bool,
        compact: bool,
    ) {
        let selected = self.selected == Some((source, k as u8));
        let wider = if compact && source != CENTRE {
            0.0
        } else {
            10.0 * f32::from(n.min(5) - 1).min(3.0)
        };
        let size = Vec2::new(TILE + wider, TILE);
        let (rect, response) = ui.allocate_exact_size(size, Sense::click());
        let label = format!("{name} {} x{n}", self.colour_name(k));
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, can_pick, &label));
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
        let compact = !ring;
        let place = |ui: &mut egui::Ui, rect: Rect, source: u8, this: &mut Self| {
            let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
            child.vertical_centered(|ui| this.source(ui, s, source, can_pick, compact));
        };
        if compact {
            let columns = grid_columns(area.width(), s.factory_count);
            // The cells share the panel's width.
            let cell = Vec2::new(area.width() / columns as f32, COMPACT_CELL.y);
            for f in 0..n {
                let at = area.min
                    + Vec2::new((f % columns) as f32 * cell.x, (f / columns) as f32 * cell.y);
                place(ui, Rect::from_min_size(at, cell), f as u8, self);
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
