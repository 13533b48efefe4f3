//! The visual sand level editor: board size and cell size, starting grains
//! painted by colour (brush, fill, erase) with the script's palette or the
//! level's own (a palette override), and the engine's live validation.

use std::path::Path;

use egui::{Color32, Rect, RichText, Sense, Stroke, StrokeKind, pos2, vec2};
use tessera_host::level::{Diagnostic, LevelFile, Severity, parse_level};
use tessera_host::ron_diff::edited_text;
use tessera_sand::settings::{PaletteColour, Settings, default_palette};
use tessera_sand::{LevelColour, SandLevel};

use tessera_ui::{LevelEditor, PlaytestContext};

/// Largest board the editor offers (the engine diagnoses the grain width).
const MAX_SIDE: u32 = 64;
/// The letter of an empty cell in a level board.
const EMPTY: char = '.';

/// What a click on the board does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// Paint one cell with the chosen colour.
    Brush,
    /// Paint the connected same-coloured region.
    Fill,
    /// Empty cells.
    Erase,
}

/// The editor's state for one level file.
pub struct SandLevelEditor {
    columns: u32,
    rows: u32,
    cell: u32,
    /// `rows` rows of `columns` letters, top row first (`.` is empty).
    cells: Vec<Vec<char>>,
    /// The level file's path (parse errors name it).
    path: std::path::PathBuf,
    /// The document's text as last loaded: edits are patched into it.
    source: String,
    /// The level that text reads as.
    parsed: SandLevel,
    /// What the editor made of it (the board bottom-aligned): the level is
    /// edited when it differs.
    loaded: SandLevel,
    tool: Tool,
    colour: char,
    /// The script's palette, read once (never per frame).
    palette: Option<Vec<PaletteColour>>,
    /// The level's own palette, overriding the script's, if it has one.
    own_palette: Option<Vec<LevelColour>>,
    board_rect: Rect,
    cell_px: f32,
    /// The one validation path's findings (`tessera check`'s, with
    /// file:line) and the text they are about: refreshed when it changes.
    findings: Option<(String, Vec<Diagnostic>)>,
    /// The cell the brush was last at during a drag: a fast drag paints
    /// every cell between two pointer positions, not only where they fell.
    stroke_from: Option<(f32, f32)>,
}

/// Opens a sand level's text in the visual editor.
pub fn open(path: &Path, text: &str) -> anyhow::Result<Box<dyn LevelEditor>> {
    Ok(Box::new(SandLevelEditor::from_file(path, text)?))
}

impl SandLevelEditor {
    /// The editor on a level's RON text (errors when it does not parse).
    pub fn from_text(text: &str) -> anyhow::Result<Self> {
        Self::from_file(Path::new("level.ron"), text)
    }

    /// The editor on the text of the level file at `path`.
    pub fn from_file(path: &Path, text: &str) -> anyhow::Result<Self> {
        let mut editor = Self {
            columns: 1,
            rows: 1,
            cell: 1,
            cells: Vec::new(),
            path: path.to_path_buf(),
            source: String::new(),
            parsed: SandLevel::default(),
            loaded: SandLevel::default(),
            tool: Tool::Brush,
            colour: 'R',
            palette: None,
            own_palette: None,
            board_rect: Rect::NOTHING,
            cell_px: 1.0,
            stroke_from: None,
            findings: None,
        };
        editor.read(text)?;
        Ok(editor)
    }

    /// Reads the level from `text` (the tool, colour and script palette
    /// stay), which later edits are patched into.
    fn read(&mut self, text: &str) -> anyhow::Result<()> {
        let level: SandLevel = parse_level(text, &self.path).map_err(anyhow::Error::from)?;
        self.columns = level.columns;
        self.rows = level.rows;
        self.cell = level.cell;
        self.own_palette = level.palette.clone();
        self.cells = vec![vec![EMPTY; level.columns as usize]; level.rows as usize];
        // Fewer board rows than `rows` are aligned to the bottom.
        let offset = (level.rows as usize).saturating_sub(level.board.len());
        for (i, row) in level.board.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if let Some(cell) = self.cells.get_mut(offset + i).and_then(|r| r.get_mut(x)) {
                    *cell = c;
                }
            }
        }
        self.source = text.to_string();
        self.parsed = level;
        self.loaded = self.level();
        Ok(())
    }

    /// The level being edited.
    pub fn level(&self) -> SandLevel {
        let first = self
            .cells
            .iter()
            .position(|row| row.iter().any(|&c| c != EMPTY))
            .unwrap_or(self.cells.len());
        SandLevel {
            version: SandLevel::VERSION,
            columns: self.columns,
            rows: self.rows,
            cell: self.cell,
            board: self.cells[first..]
                .iter()
                .map(|row| row.iter().collect())
                .collect(),
            palette: self.own_palette.clone(),
            // What this editor does not draw is kept as the file has it.
            tray: self.parsed.tray.clone(),
            clears: self.parsed.clears,
            physics_seed: self.parsed.physics_seed,
        }
    }

    /// Where logical cell (x, y) was drawn, in screen points.
    pub fn cell_centre(&self, x: usize, y: usize) -> egui::Pos2 {
        self.board_rect.min
            + vec2(
                (x as f32 + 0.5) * self.cell_px,
                (y as f32 + 0.5) * self.cell_px,
            )
    }

    /// The letter in cell (x, y).
    pub fn cell(&self, x: usize, y: usize) -> Option<char> {
        self.cells.get(y).and_then(|r| r.get(x)).copied()
    }

    fn resize(&mut self) {
        let (w, h) = (self.columns as usize, self.rows as usize);
        for row in &mut self.cells {
            row.resize(w, EMPTY);
        }
        // Keep the bottom rows: boards are aligned to the floor.
        let len = self.cells.len();
        if len > h {
            self.cells.drain(..len - h);
        } else {
            let mut grown = vec![vec![EMPTY; w]; h - len];
            grown.append(&mut self.cells);
            self.cells = grown;
        }
    }

    fn paint(&mut self, x: usize, y: usize) {
        let letter = match self.tool {
            Tool::Erase => EMPTY,
            _ => self.colour,
        };
        match self.tool {
            Tool::Brush | Tool::Erase => {
                if let Some(cell) = self.cells.get_mut(y).and_then(|r| r.get_mut(x)) {
                    *cell = letter;
                }
            }
            Tool::Fill => {
                let Some(from) = self.cell(x, y) else {
                    return;
                };
                if from == letter {
                    return;
                }
                let mut stack = vec![(x, y)];
                while let Some((x, y)) = stack.pop() {
                    if self.cell(x, y) != Some(from) {
                        continue;
                    }
                    self.cells[y][x] = letter;
                    stack.push((x + 1, y));
                    stack.push((x, y + 1));
                    if x > 0 {
                        stack.push((x - 1, y));
                    }
                    if y > 0 {
                        stack.push((x, y - 1));
                    }
                }
            }
        }
    }

    /// The palette the level plays with: its own, or the script's.
    fn effective_palette(&mut self, cx: &mut PlaytestContext<'_>) -> Vec<PaletteColour> {
        let script = self.palette(cx);
        self.level().palette_over(&script)
    }

    /// The palette override: a switch, and the level's colours (letter,
    /// name, colour) to edit, add and remove.
    fn palette_ui(&mut self, ui: &mut egui::Ui, script: &[PaletteColour]) {
        let mut own = self.own_palette.is_some();
        let toggle = ui
            .checkbox(&mut own, "Level palette (overrides the script's)")
            .on_hover_text(
                "Give this level its own colours: its pieces come in them and its board \
                 letters name them. Off: the script's palette.",
            );
        if toggle.changed() {
            self.own_palette = own.then(|| {
                script
                    .iter()
                    .map(|c| LevelColour {
                        name: c.name.clone(),
                        letter: c.letter,
                        rgb: (c.rgb[0], c.rgb[1], c.rgb[2]),
                    })
                    .collect()
            });
        }
        let Some(colours) = self.own_palette.as_mut() else {
            return;
        };
        let mut remove = None;
        let mut renamed = None;
        let mut add = false;
        // As many colours to a row as fit: a group does not wrap by itself.
        let per_row = ((ui.available_width() / 215.0) as usize).max(1);
        egui::Grid::new("level palette").show(ui, |ui| {
            for (i, colour) in colours.iter_mut().enumerate() {
                if i > 0 && i % per_row == 0 {
                    ui.end_row();
                }
                ui.group(|ui| {
                    ui.horizontal(|ui| {
                        let n = i + 1;
                        let mut letter = colour.letter.to_string();
                        let field = ui
                            .add(
                                egui::TextEdit::singleline(&mut letter)
                                    .desired_width(26.0)
                                    .align(egui::Align2::CENTER_CENTER),
                            )
                            .accessible_name(format!("Colour {n} letter"));
                        if field.changed()
                            && let Some(c) = letter.chars().last()
                            && c != colour.letter
                        {
                            renamed = Some((colour.letter, c));
                            colour.letter = c;
                        }
                        ui.add(egui::TextEdit::singleline(&mut colour.name).desired_width(70.0))
                            .accessible_name(format!("Colour {n} name"));
                        let (r, g, b) = colour.rgb;
                        let mut rgb = [r, g, b];
                        if ui
                            .color_edit_button_srgb(&mut rgb)
                            .accessible_name(format!("Colour {n} rgb"))
                            .changed()
                        {
                            colour.rgb = (rgb[0], rgb[1], rgb[2]);
                        }
                        if ui
                            .small_button("✖")
                            .accessible_name(format!("Remove colour {n}"))
                            .on_hover_text("Remove this colour")
                            .clicked()
                        {
                            remove = Some(i);
                        }
                    })
                });
            }
            add = ui.button("Add colour").clicked();
        });
        if let Some(i) = remove {
            colours.remove(i);
        }
        if add {
            let letter = ('A'..='Z')
                .find(|l| colours.iter().all(|c| c.letter != *l))
                .unwrap_or('?');
            colours.push(LevelColour {
                name: format!("colour {}", colours.len() + 1),
                letter,
                rgb: (200, 200, 200),
            });
        }
        // A letter changed: cells painted in that colour keep it, unless
        // another colour already uses the new letter.
        if let Some((from, to)) = renamed
            && colours.iter().filter(|c| c.letter == to).count() == 1
        {
            for cell in self.cells.iter_mut().flatten() {
                if *cell == from {
                    *cell = to;
                }
            }
            if self.colour == from {
                self.colour = to;
            }
        }
    }

    /// What `tessera check` says about the level as edited: the level's
    /// diagnosis (board, palette, a board that already spans) and a start
    /// with the project's script (board letters in its palette), each
    /// finding naming the file and line. Recomputed only when the text
    /// changes.
    fn findings(&mut self, cx: &mut PlaytestContext<'_>) -> Vec<Diagnostic> {
        let text = match self.to_ron() {
            Ok(text) => text,
            Err(e) => return vec![Diagnostic::error(&self.path, format!("{e:#}"))],
        };
        if let Some((checked, findings)) = &self.findings
            && *checked == text
        {
            return findings.clone();
        }
        let root = cx.project.root();
        let display = self.path.strip_prefix(root).unwrap_or(&self.path);
        let findings = tessera_host::check::check_level_text(
            cx.project.registry(),
            &self.path,
            display,
            &text,
        );
        self.findings = Some((text, findings.clone()));
        findings
    }

    fn palette(&mut self, cx: &mut PlaytestContext<'_>) -> Vec<PaletteColour> {
        if self.palette.is_none() {
            let path = cx.project.game_script_path("sand");
            let palette = cx
                .project
                .script(&path)
                .ok()
                .and_then(|live| Settings::read(&live.current()).ok())
                .map(|s| s.palette)
                .unwrap_or_else(default_palette);
            self.palette = Some(palette);
        }
        self.palette.clone().unwrap_or_default()
    }
}

impl LevelEditor for SandLevelEditor {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        let script_palette = self.palette(cx);
        ui.horizontal(|ui| {
            let before = (self.columns, self.rows);
            let label = ui.label("Columns");
            ui.add(egui::DragValue::new(&mut self.columns).range(1..=MAX_SIDE))
                .labelled_by(label.id);
            let label = ui.label("Rows");
            ui.add(egui::DragValue::new(&mut self.rows).range(1..=MAX_SIDE))
                .labelled_by(label.id);
            let label = ui.label("Grains per cell");
            ui.add(egui::DragValue::new(&mut self.cell).range(1..=64))
                .labelled_by(label.id);
            if before != (self.columns, self.rows) {
                self.resize();
            }
        });
        self.palette_ui(ui, &script_palette);
        let palette = self.effective_palette(cx);
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.tool, Tool::Brush, "Brush");
            ui.selectable_value(&mut self.tool, Tool::Fill, "Fill");
            ui.selectable_value(&mut self.tool, Tool::Erase, "Erase");
            ui.separator();
            for colour in &palette {
                let [r, g, b] = colour.rgb;
                let chosen = self.colour == colour.letter && self.tool != Tool::Erase;
                let swatch = egui::Button::new(
                    RichText::new(format!("{} {}", colour.letter, colour.name))
                        .color(Color32::BLACK),
                )
                .fill(Color32::from_rgb(r, g, b))
                .stroke(if chosen {
                    Stroke::new(2.0, Color32::WHITE)
                } else {
                    Stroke::NONE
                });
                if ui.add(swatch).clicked() {
                    self.colour = colour.letter;
                    if self.tool == Tool::Erase {
                        self.tool = Tool::Brush;
                    }
                }
            }
        });
        let diagnostics = self.findings(cx);
        // The findings have a slot of their own, scrolled when long, so
        // the board does not shrink under the brush when a warning comes.
        tessera_ui::slot::line_slot(ui, 3, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("sand level findings")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.strong("Validation");
                        if diagnostics.is_empty() {
                            ui.label(
                                RichText::new("✔ level is valid")
                                    .color(Color32::from_rgb(0x6A, 0xC0, 0x6A)),
                            );
                        }
                    });
                    for d in &diagnostics {
                        let colour = match d.severity {
                            Severity::Error => ui.visuals().error_fg_color,
                            Severity::Warning => ui.visuals().warn_fg_color,
                        };
                        // `file:line` opens the level at that line.
                        tessera_ui::finding_label(ui, d, colour);
                    }
                });
        });
        ui.separator();
        // The board scales to the space, cells stay square.
        let (w, h) = (self.columns as f32, self.rows as f32);
        let available = ui.available_size() - vec2(8.0, 8.0);
        self.cell_px = (available.x / w).min(available.y / h).clamp(4.0, 48.0);
        let (rect, response) = ui.allocate_exact_size(
            vec2(w * self.cell_px, h * self.cell_px),
            Sense::click_and_drag(),
        );
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "sand level board"));
        self.board_rect = rect;
        let stroking = response.dragged() || response.drag_stopped();
        if (response.clicked() || stroking)
            && let Some(p) = response.interact_pointer_pos()
        {
            let local = (p - rect.min) / self.cell_px;
            let (x1, y1) = (local.x, local.y);
            // Fill pours once; the brush and the eraser follow the stroke.
            // A stroke starts where the button went down, not where the
            // pointer was once it had moved far enough to count as a drag.
            let origin = ui
                .input(|i| i.pointer.press_origin())
                .map(|o| (o - rect.min) / self.cell_px)
                .map(|o| (o.x, o.y));
            let (x0, y0) = match (self.stroke_from, origin) {
                (Some(from), _) if self.tool != Tool::Fill && stroking => from,
                (None, Some(from)) if self.tool != Tool::Fill && stroking => from,
                _ => (x1, y1),
            };
            let steps = ((x1 - x0).abs().max((y1 - y0).abs()) * 2.0).ceil().max(1.0) as usize;
            for i in 0..=steps {
                let t = i as f32 / steps as f32;
                let (x, y) = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
                if x >= 0.0 && y >= 0.0 {
                    self.paint(x as usize, y as usize);
                }
                if self.tool == Tool::Fill {
                    break;
                }
            }
            self.stroke_from = Some((x1, y1));
        }
        if !stroking {
            self.stroke_from = None;
        }
        let painter = ui.painter_at(rect.expand(1.0));
        painter.rect_filled(rect, 0.0, ui.visuals().extreme_bg_color);
        for (y, row) in self.cells.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                if c == EMPTY {
                    continue;
                }
                let fill = palette
                    .iter()
                    .find(|p| p.letter == c)
                    .map_or(Color32::GRAY, |p| {
                        Color32::from_rgb(p.rgb[0], p.rgb[1], p.rgb[2])
                    });
                let min = rect.min + vec2(x as f32 * self.cell_px, y as f32 * self.cell_px);
                painter.rect_filled(
                    Rect::from_min_size(min, vec2(self.cell_px, self.cell_px)),
                    0.0,
                    fill,
                );
            }
        }
        let grid = Stroke::new(1.0, Color32::from_white_alpha(18));
        for x in 1..self.columns {
            let px = rect.min.x + x as f32 * self.cell_px;
            painter.line_segment([pos2(px, rect.min.y), pos2(px, rect.max.y)], grid);
        }
        for y in 1..self.rows {
            let py = rect.min.y + y as f32 * self.cell_px;
            painter.line_segment([pos2(rect.min.x, py), pos2(rect.max.x, py)], grid);
        }
        painter.rect_stroke(
            rect,
            0.0,
            Stroke::new(1.0, Color32::from_gray(90)),
            StrokeKind::Outside,
        );
    }

    fn to_ron(&self) -> anyhow::Result<String> {
        Ok(edited_text(&self.source, &self.parsed, &self.level())?)
    }

    fn is_dirty(&self) -> bool {
        self.level() != self.loaded
    }

    fn load(&mut self, text: &str) -> anyhow::Result<()> {
        self.read(text)
    }
}
