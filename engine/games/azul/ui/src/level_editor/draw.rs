//! Drawing the Azul scenario editor: tiles, the brush bar, a player's
//! board, factories and the centre, seats and goal, the tile counts and
//! "Best achievable".

use egui::{Color32, CornerRadius, Rect, RichText, Sense, Stroke, StrokeKind, Vec2};
use tessera_ui::text::count;

use super::*;

/// The room of a factory's "+ factory N" button.
const FACTORY_BUTTON: f32 = 84.0;

impl AzulLevelEditor {
    pub(super) fn tile(
        &self,
        ui: &mut egui::Ui,
        size: f32,
        colour: Option<usize>,
        label: &str,
    ) -> bool {
        let (rect, response) = ui.allocate_exact_size(Vec2::splat(size), Sense::click());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label));
        let fill = colour.map_or(Color32::from_gray(245), |k| tile_colour(&self.palette, k));
        let r = if response.hovered() {
            rect
        } else {
            rect.shrink(1.5)
        };
        ui.painter().rect_filled(r, CornerRadius::same(5), fill);
        ui.painter().rect_stroke(
            r,
            CornerRadius::same(5),
            Stroke::new(1.0, Color32::GRAY),
            StrokeKind::Inside,
        );
        response.clicked()
    }

    pub(super) fn brush_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let mut grey = self.grey();
            if ui
                .checkbox(&mut grey, "Grey wall (variant)")
                .on_hover_text(
                    "No printed pattern: players choose each tile's column. Saved in the \
                     level as grey_wall.",
                )
                .changed()
            {
                self.level.grey_wall = Some(grey);
                self.recheck();
            }
            ui.separator();
            ui.label("Brush:");
            for k in 0..COLOURS {
                let name = self.palette.get(k).map_or("?", |c| c.name.as_str());
                let selected = self.brush == Brush::Colour(k);
                let text = RichText::new(name)
                    .color(tile_colour(&self.palette, k))
                    .strong();
                if ui.selectable_label(selected, text).clicked() {
                    self.brush = Brush::Colour(k);
                }
            }
            if ui
                .selectable_label(self.brush == Brush::Erase, "erase")
                .clicked()
            {
                self.brush = Brush::Erase;
            }
        });
    }

    /// One player's board; returns the width it took.
    pub(super) fn board_ui(&mut self, ui: &mut egui::Ui, p: usize) -> f32 {
        let Some(board) = self
            .level
            .position
            .as_ref()
            .and_then(|x| x.boards.get(p))
            .cloned()
        else {
            return 0.0;
        };
        let grey = self.grey();
        let frame = egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.vertical(|ui| {
                ui.horizontal(|ui| {
                    ui.label(RichText::new(format!("Player {}", p + 1)).strong());
                    let mut score = board.score;
                    if ui
                        .add(
                            egui::DragValue::new(&mut score)
                                .range(0..=500)
                                .prefix("score "),
                        )
                        .changed()
                        && let Some(b) = self.board_mut(p)
                    {
                        b.score = score;
                    }
                });
                ui.horizontal_top(|ui| {
                    // Pattern lines, right-aligned, beside the wall.
                    ui.vertical(|ui| {
                        for row in 0..LINES {
                            let text = board.lines.get(row).cloned().unwrap_or_default();
                            let count = text.chars().count();
                            let colour = text.chars().next().and_then(colour_of);
                            ui.horizontal(|ui| {
                                ui.add_space((LINES - 1 - row) as f32 * CELL);
                                for i in (0..=row).rev() {
                                    let label =
                                        format!("player {} line {} cell {}", p + 1, row + 1, i + 1);
                                    let filled = (i < count).then_some(colour).flatten();
                                    if self.tile(ui, CELL, filled, &label) {
                                        self.paint_line(p, row, i + 1);
                                    }
                                }
                            });
                        }
                    });
                    ui.vertical(|ui| {
                        for row in 0..LINES {
                            let cells: Vec<char> = board
                                .wall
                                .get(row)
                                .map(|r| r.chars().collect())
                                .unwrap_or_default();
                            ui.horizontal(|ui| {
                                for column in 0..LINES {
                                    let placed = cells.get(column).is_some_and(|&c| c != '.');
                                    // The grey wall shows what lies there.
                                    let k = if grey {
                                        cells.get(column).and_then(|&c| colour_of(c))
                                    } else {
                                        Some(wall_colour(row, column))
                                    };
                                    let label =
                                        format!("player {} wall {} {}", p + 1, row + 1, column + 1);
                                    let (rect, response) =
                                        ui.allocate_exact_size(Vec2::splat(CELL), Sense::click());
                                    response.widget_info(|| {
                                        egui::WidgetInfo::labeled(egui::Role::Button, true, &label)
                                    });
                                    let base = k.map_or(Color32::from_gray(150), |k| {
                                        tile_colour(&self.palette, k)
                                    });
                                    let fill = if placed {
                                        base
                                    } else {
                                        base.gamma_multiply(0.22)
                                    };
                                    let r: Rect = rect.shrink(1.5);
                                    ui.painter().rect_filled(r, CornerRadius::same(4), fill);
                                    if response.clicked() {
                                        self.paint_wall(p, row, column);
                                    }
                                }
                            });
                        }
                    });
                });
                // The button and the check box first, the tiles after
                // them, in a row a tile high: adding a tile moves neither
                // (the button ran right under the pointer, the row grew).
                ui.horizontal(|ui| {
                    ui.set_min_height(CELL * 0.8);
                    ui.label("floor");
                    if ui
                        .small_button(format!("+ player {} floor", p + 1))
                        .on_hover_text("add a tile of the brush's colour")
                        .clicked()
                    {
                        self.paint_floor(p);
                    }
                    let mut marker = board.marker;
                    if ui.checkbox(&mut marker, "first-player marker").changed()
                        && let Some(position) = &mut self.level.position
                    {
                        for (q, b) in position.boards.iter_mut().enumerate() {
                            b.marker = marker && q == p;
                        }
                    }
                    let tiles: Vec<usize> = board.floor.chars().filter_map(colour_of).collect();
                    if board.marker {
                        ui.label(RichText::new("1").strong());
                    }
                    for (i, &k) in tiles.iter().enumerate() {
                        let label = format!("player {} floor tile {}", p + 1, i + 1);
                        if self.tile(ui, CELL * 0.8, Some(k), &label) {
                            self.brush_then(Brush::Erase, |e| e.paint_floor(p));
                        }
                    }
                });
            });
        });
        frame.response.rect.width()
    }

    pub(super) fn brush_then(&mut self, brush: Brush, f: impl FnOnce(&mut Self)) {
        let old = self.brush;
        self.brush = brush;
        f(self);
        self.brush = old;
    }

    /// One factory (or the centre); returns the width it took.
    /// (A factory holds at most four tiles: its room is the button's and
    /// four tiles'.)
    pub(super) fn source_ui(&mut self, ui: &mut egui::Ui, f: Option<usize>, text: &str) -> f32 {
        let name = match f {
            Some(f) => format!("factory {}", f + 1),
            None => "centre".into(),
        };
        let frame = egui::Frame::group(ui.style())
            .corner_radius(CornerRadius::same(if f.is_some() { 40 } else { 8 }))
            .fill(Color32::from_rgb(0xF5, 0xF5, 0xDC))
            .show(ui, |ui| {
                ui.vertical(|ui| {
                    ui.label(RichText::new(&name).small().color(Color32::from_gray(60)));
                    // A factory keeps its tiles on one row (so the row of
                    // factories wraps whole factories); the centre, which
                    // may hold many, wraps its tiles.
                    // The button first, then the tiles, in a row a tile
                    // high and (a factory) four tiles wide: adding a tile
                    // moves neither the button nor the next factory.
                    let mut tiles = |ui: &mut egui::Ui| {
                        ui.set_min_height(CELL * 0.8);
                        if ui
                            .small_button(format!("+ {name}"))
                            .on_hover_text("add a tile of the brush's colour")
                            .clicked()
                        {
                            self.brush_then(
                                if self.brush == Brush::Erase {
                                    Brush::Colour(0)
                                } else {
                                    self.brush
                                },
                                |e| e.paint_source(f),
                            );
                        }
                        for (i, k) in text.chars().filter_map(colour_of).enumerate() {
                            let label = format!("{name} tile {}", i + 1);
                            if self.tile(ui, CELL * 0.8, Some(k), &label) {
                                // Clicking a tile takes it away.
                                if let Some(p) = &mut self.level.position {
                                    let s = match f {
                                        Some(f) => p.factories.get_mut(f),
                                        None => Some(&mut p.centre),
                                    };
                                    if let Some(s) = s {
                                        let mut chars: Vec<char> = s.chars().collect();
                                        if i < chars.len() {
                                            chars.remove(i);
                                        }
                                        *s = chars.into_iter().collect();
                                    }
                                }
                            }
                        }
                    };
                    if f.is_some() {
                        let tile = CELL * 0.8 + ui.spacing().item_spacing.x;
                        ui.set_min_width(FACTORY_BUTTON + 4.0 * tile);
                        ui.horizontal(&mut tiles);
                    } else {
                        ui.horizontal_wrapped(&mut tiles);
                    }
                });
            });
        frame.response.rect.width()
    }

    pub(super) fn seats_and_goal(&mut self, ui: &mut egui::Ui) {
        let players = self.level.position.as_ref().map_or(2, |p| p.boards.len());
        ui.horizontal(|ui| {
            let mut n = players;
            ui.label("Players");
            for k in 2..=4 {
                if ui.selectable_label(n == k, k.to_string()).clicked() {
                    n = k;
                }
            }
            if n != players {
                self.set_players(n);
            }
            if let Some(p) = &mut self.level.position {
                ui.add(
                    egui::DragValue::new(&mut p.round)
                        .range(1..=50)
                        .prefix("round "),
                );
                let mut to_move = p.to_move;
                let boards = p.boards.len() as u8;
                tessera_ui::labelled_combo(
                    ui,
                    "to move",
                    "azul to move",
                    format!("player {to_move}"),
                    |ui| {
                        for k in 1..=boards {
                            ui.selectable_value(&mut to_move, k, format!("player {k}"));
                        }
                    },
                );
                p.to_move = to_move;
            }
        });
        ui.horizontal(|ui| {
            ui.label("Seats");
            if self.level.seats.len() != players {
                self.level.seats.resize(
                    players,
                    Seat::Ai {
                        level: "hard".into(),
                    },
                );
            }
            let levels = self.ai_levels.clone();
            for (i, seat) in self.level.seats.iter_mut().enumerate() {
                let label = format!("seat {}", i + 1);
                let shown = seat.to_string();
                tessera_ui::labelled_combo(ui, &label, ("azul seat", i), shown, |ui| {
                    ui.selectable_value(seat, Seat::Human, "human");
                    for l in &levels {
                        ui.selectable_value(seat, Seat::Ai { level: l.clone() }, format!("ai:{l}"));
                    }
                });
            }
        });
        ui.horizontal(|ui| {
            let goal = &mut self.level.goal;
            let seat = goal.seat().map_or(1, |s| s as u8 + 1);
            let points = match goal {
                Goal::RoundScore { points, .. } | Goal::FinalScore { points, .. } => *points,
                _ => 10,
            };
            let kinds = [
                ("none", Goal::None),
                ("score this round", Goal::RoundScore { seat, points }),
                ("win from here", Goal::Win { seat }),
                ("final score", Goal::FinalScore { seat, points }),
            ];
            let current = match goal {
                Goal::None => 0,
                Goal::RoundScore { .. } => 1,
                Goal::Win { .. } => 2,
                Goal::FinalScore { .. } => 3,
            };
            let mut chosen = current;
            tessera_ui::labelled_combo(ui, "goal", "azul goal", kinds[current].0, |ui| {
                for (i, (name, _)) in kinds.iter().enumerate() {
                    ui.selectable_value(&mut chosen, i, *name);
                }
            });
            if chosen != current {
                *goal = kinds[chosen].1.clone();
            }
            match goal {
                Goal::None => {}
                Goal::RoundScore { seat, points } | Goal::FinalScore { seat, points } => {
                    ui.add(
                        egui::DragValue::new(seat)
                            .range(1..=players as u8)
                            .prefix("player "),
                    );
                    ui.add(
                        egui::DragValue::new(points)
                            .range(1..=300)
                            .prefix("points "),
                    );
                }
                Goal::Win { seat } => {
                    ui.add(
                        egui::DragValue::new(seat)
                            .range(1..=players as u8)
                            .prefix("player "),
                    );
                }
            }
        });
    }

    pub(super) fn counts_ui(&self, ui: &mut egui::Ui) {
        let Some(check) = &self.check else {
            return;
        };
        let limit = self.rules.unwrap_or_default().tiles_per_colour;
        ui.horizontal_wrapped(|ui| {
            ui.label("Tiles placed (of the script's tiles per colour):");
            for k in 0..COLOURS {
                let n = check.placed[k];
                let over = n > u32::from(limit);
                let name = self.palette.get(k).map_or("?", |c| c.name.as_str());
                let text = RichText::new(format!("{name} {n}/{limit}")).color(if over {
                    Color32::from_rgb(0xC0, 0x39, 0x2B)
                } else {
                    tile_colour(&self.palette, k)
                });
                ui.label(if over { text.strong() } else { text });
            }
        });
    }

    pub(super) fn best_ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        ui.horizontal(|ui| {
            let can = self.job.is_none() && self.findings().iter().all(|d| !d.is_error());
            if ui
                .add_enabled(can, egui::Button::new("Best achievable"))
                .on_hover_text("plays the goal's seat with the hard AI's search")
                .clicked()
            {
                self.start_best(cx);
            }
            ui.add(
                egui::DragValue::new(&mut self.seed)
                    .prefix("seed ")
                    .range(0..=u64::MAX),
            );
            if let Some(job) = &self.job {
                let control = job.control();
                ui.add(
                    egui::ProgressBar::new(control.progress() as f32)
                        .desired_width(160.0)
                        .text(control.note()),
                );
                ui.label(count(control.nodes(), "node"));
                if ui.button("Cancel").clicked() {
                    self.cancel_best();
                }
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(50));
            }
        });
        match &self.best {
            Some(Ok(a)) => {
                let verdict = match a.met {
                    Some(true) => "goal met",
                    Some(false) => "goal missed",
                    None => "no goal",
                };
                ui.label(
                    RichText::new(format!(
                        "Hard AI achieves {} ({verdict}); final scores {:?}",
                        a.progress, a.scores
                    ))
                    .strong(),
                );
                ui.collapsing("Its moves", |ui| {
                    for m in &a.moves {
                        ui.label(RichText::new(m).monospace());
                    }
                });
            }
            Some(Err(e)) => {
                ui.colored_label(Color32::from_rgb(0xC0, 0x39, 0x2B), e);
            }
            None => {}
        }
    }
}
