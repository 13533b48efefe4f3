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

/// How the sources are laid out in a width: the ring, or a docked
/// table's grid of fixed cells with the centre on a row below.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct SourcesLayout {
    /// The ring (a wide table); else a grid.
    pub(super) ring: bool,
    /// Factory cells per row of the grid.
    pub(super) columns: usize,
    /// A factory's cell in the grid.
    pub(super) cell: Vec2,
    /// A tile button's side.
    pub(super) tile: f32,
    /// The room the sources take.
    pub(super) size: Vec2,
}

impl SourcesLayout {
    /// The sources' layout in `width`: the ring where it fits; else
    /// compact cells (tiles two by two) as wide as the panel, so no
    /// factory lies past its edge; and when those would take two rows (a
    /// table of three or four players, 7 or 9 factories) one row of
    /// smaller tiles, so the docked table keeps the height for its
    /// boards. Fixed cells: taking tiles moves no other source.
    pub(super) fn of(factories: u8, width: f32) -> Self {
        let ring = ring_size(factories);
        if width >= ring.x {
            return Self {
                ring: true,
                columns: usize::from(factories),
                cell: FACTORY_CELL,
                tile: TILE,
                size: ring,
            };
        }
        let width = width.max(COMPACT_CELL.x);
        let columns = grid_columns(width, factories);
        let (columns, cell, tile) = if columns >= usize::from(factories) {
            (columns, COMPACT_CELL, TILE)
        } else {
            // One row: each cell holds two tiles, their gap and the
            // frame's margins across.
            let columns = usize::from(factories).max(1);
            let across = width / columns as f32;
            let tile = ((across - DENSE_MARGINS) / 2.0)
                .floor()
                .clamp(DENSE_TILE_MIN, TILE);
            (
                columns,
                Vec2::new(across, 2.0 * tile + DENSE_MARGINS + 4.0),
                tile,
            )
        };
        let rows = usize::from(factories).div_ceil(columns);
        let centre_row = tile + CENTRE_ROW - TILE;
        Self {
            ring: false,
            columns,
            cell,
            tile,
            size: Vec2::new(width, rows as f32 * cell.y + centre_row),
        }
    }
}

/// A dense factory's two tiles' gap, its frame's inner margins and its
/// stroke, across.
const DENSE_MARGINS: f32 = 10.0;

/// The smallest tile of a dense factory row: still a comfortable target
/// for a pointer.
const DENSE_TILE_MIN: f32 = 18.0;

/// The room the sources take in `width` ([`SourcesLayout::of`]).
pub(super) fn sources_size(factories: u8, width: f32) -> Vec2 {
    SourcesLayout::of(factories, width).size
}

impl AzulPlaytest {
    /// One source (factory or centre): a tile button per colour present.
    /// `compact`: a factory's tiles two by two without its name, the
    /// centre's on one line with its name first (a docked table), its
    /// tiles `tile` wide (smaller in a dense row).
    pub(super) fn source(
        &mut self,
        ui: &mut egui::Ui,
        s: &State,
        source: u8,
        can_pick: bool,
        compact: bool,
        tile: f32,
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
        let dense = tile < TILE;
        let mut frame = egui::Frame::group(ui.style());
        if dense {
            // Its margins are the cell's DENSE_MARGINS.
            frame = frame.inner_margin(2.0);
        }
        let frame = frame
            .corner_radius(CornerRadius::same(
                match (source == CENTRE, compact, dense) {
                    (true, _, _) => 8,
                    (false, true, true) => 12,
                    (false, true, false) => 24,
                    (false, false, _) => 60,
                },
            ))
            .fill(Color32::from_rgb(0xF5, 0xF5, 0xDC))
            .stroke(Stroke::new(1.5, BROWN))
            .show(ui, |ui| {
                let tiles = |ui: &mut egui::Ui, this: &mut Self| {
                    if counts.iter().all(|&n| n == 0) {
                        // Named by its source: the empty sources are told
                        // apart (a test's layout sweep follows each).
                        let empty = format!("{name} empty");
                        ui.add_sized(Vec2::splat(tile), egui::Label::new("-"))
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
                        this.tile(ui, source, &name, (k, n), can_pick, compact, tile);
                    }
                };
                if compact && source != CENTRE {
                    ui.spacing_mut().item_spacing = Vec2::splat(4.0);
                    egui::Grid::new(("azul compact factory", source))
                        .spacing(Vec2::splat(4.0))
                        .min_col_width(tile)
                        .min_row_height(tile)
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

    /// One tile button of `source` (named `name`): `n` tiles of colour
    /// `k`, `side` high. In a compact factory every button is a tile wide.
    #[allow(clippy::too_many_arguments)]
    fn tile(
        &mut self,
        ui: &mut egui::Ui,
        source: u8,
        name: &str,
        (k, n): (usize, u8),
        can_pick: bool,
        compact: bool,
        side: f32,
    ) {
        let selected = self.selected == Some((source, k as u8));
        let wider = if compact && source != CENTRE {
            0.0
        } else {
            10.0 * f32::from(n.min(5) - 1).min(3.0)
        };
        let size = Vec2::new(side + wider, side);
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
        // Rounded as a full tile is: a dense row's small tile stays a
        // square with round corners, not a disc.
        let corner = CornerRadius::same((8.0 * side / TILE).round() as u8);
        ui.painter().rect_filled(draw, corner, fill);
        ui.painter().text(
            draw.center(),
            egui::Align2::CENTER_CENTER,
            format!("{n}"),
            // The count fits a small tile too.
            egui::FontId::proportional(14.0_f32.min(side * 0.6)),
            Color32::WHITE,
        );
        if selected {
            ui.painter()
                .rect_stroke(draw, corner, Stroke::new(3.0, GOLD), StrokeKind::Outside);
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
        let layout = SourcesLayout::of(s.factory_count, ui.available_width());
        let (area, _) = ui.allocate_exact_size(layout.size, Sense::hover());
        ui.painter().rect_filled(
            area,
            CornerRadius::same(12),
            Color32::from_rgb(0xF5, 0xF5, 0xDC).gamma_multiply(0.6),
        );
        // Child uis that do not move the parent's cursor: what follows the
        // sources starts below all of them.
        let compact = !layout.ring;
        let place = |ui: &mut egui::Ui, rect: Rect, source: u8, this: &mut Self| {
            let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
            child.vertical_centered(|ui| {
                this.source(ui, s, source, can_pick, compact, layout.tile);
            });
        };
        if compact {
            let columns = layout.columns;
            // The cells share the panel's width.
            let cell = Vec2::new(area.width() / columns as f32, layout.cell.y);
            for f in 0..n {
                let at = area.min
                    + Vec2::new((f % columns) as f32 * cell.x, (f / columns) as f32 * cell.y);
                place(ui, Rect::from_min_size(at, cell), f as u8, self);
            }
            let rows = n.div_ceil(columns);
            let centre = Rect::from_min_max(
                egui::pos2(area.left(), area.top() + rows as f32 * cell.y),
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
