//! The level editor: box size, pieces edited on z-slices with a 3D
//! preview, live validation, and a background solve with progress and
//! cancel.

use std::path::Path;

use egui::{Color32, RichText};
use tessera_host::level::{Diagnostic, LevelFile, parse_level, to_ron_string};
use tessera_host::ron_diff::leading_comments;
use tessera_polycube::import::import_json;
use tessera_polycube::{PieceSpec, PolycubeLevel};

use super::iso::{self, Camera, Cube};
use super::json_file::JsonFile;
use super::solvable::Solvable;
use tessera_ui::{LevelEditor, PlaytestContext};

/// The visual editor for one polycube level.
pub struct PolycubeLevelEditor {
    /// The file's path: a `.json` file's text may be an import.
    path: std::path::PathBuf,
    level: PolycubeLevel,
    /// The level of the text last loaded (edits are patched into it).
    saved: PolycubeLevel,
    piece: usize,
    layer: i64,
    camera: Camera,
    /// Solvable? / Unique? / Count all.
    solvable: Solvable,
    /// Make unique: the generator's smallest edits, as proposals.
    make_unique: super::make_unique::MakeUnique,
    /// The file's format (a `.json` level saves as the seed's JSON) and
    /// the JSON export.
    json: JsonFile,
    /// The file's leading comment lines, written back when the file has to
    /// be re-serialised.
    header: String,
    /// The document's text as last loaded (its level is `saved`): edits
    /// patch the changed values into it.
    source: Option<String>,
    /// Whether the edits can be patched into `source`, for the level they
    /// were worked out for (worked out again only when the level changes).
    patchable: Option<(PolycubeLevel, bool)>,
}

/// Opens a level's text (RON, or JSON in either import format).
pub fn open(path: &Path, text: &str) -> anyhow::Result<Box<dyn LevelEditor>> {
    Ok(Box::new(PolycubeLevelEditor::from_text(path, text)?))
}

impl PolycubeLevelEditor {
    /// An editor on `level`.
    pub fn new(level: PolycubeLevel) -> Self {
        Self {
            path: std::path::PathBuf::new(),
            saved: level.clone(),
            level,
            piece: 0,
            layer: 1,
            camera: Camera::default(),
            solvable: Solvable::default(),
            make_unique: Default::default(),
            json: JsonFile::default(),
            header: String::new(),
            source: None,
            patchable: None,
        }
    }

    /// The level re-serialised, the file's header comment kept.
    fn rewritten(&self) -> anyhow::Result<String> {
        if let Some(json) = self.json.save_text(&self.level) {
            return json;
        }
        let mut level = self.level.clone();
        level.version = PolycubeLevel::VERSION;
        Ok(format!("{}{}", self.header, to_ron_string(&level)?))
    }

    /// The file's text with only the changed values rewritten, if it can
    /// be patched.
    fn patched(&self) -> Option<String> {
        super::patch::patch(self.source.as_deref()?, &self.saved, &self.level)
    }

    /// Whether a save now keeps the file's comments and layout (patching
    /// it); `false` when it re-serialises the level. Before any edit, it
    /// tells whether an edit could be patched in (a probe: the name
    /// changed), so the note under the box never appears or changes
    /// under the designer's hand at their first click.
    pub fn save_keeps_layout(&mut self) -> bool {
        match &self.patchable {
            Some((level, ok)) if *level == self.level => *ok,
            _ => {
                let ok = match self.source.as_deref() {
                    None => false,
                    Some(text) if self.level == self.saved => {
                        let mut probe = self.saved.clone();
                        probe.name.push('?');
                        super::patch::patch(text, &self.saved, &probe).is_some()
                    }
                    Some(_) => self.patched().is_some(),
                };
                self.patchable = Some((self.level.clone(), ok));
                ok
            }
        }
    }

    fn save_note(&mut self, ui: &mut egui::Ui) {
        if self.source.is_none() {
            return;
        }
        if self.save_keeps_layout() {
            ui.weak(
                "Saving rewrites only the values you change; the file's comments and layout stay.",
            );
        } else {
            let kept = if self.header.is_empty() {
                "its comments and layout are lost"
            } else {
                "only its header comment is kept"
            };
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "This file's text cannot be patched, so saving rewrites the whole file: {kept}."
                ),
            );
        }
    }

    /// An editor on a level file's text (RON, or JSON in either import
    /// format); saving patches a RON file's text.
    pub fn from_text(path: &Path, text: &str) -> anyhow::Result<Self> {
        let mut editor = Self::new(PolycubeLevel::default());
        editor.path = path.to_path_buf();
        editor.read(text)?;
        Ok(editor)
    }

    /// Reads the level from `text`, which later edits are patched into.
    fn read(&mut self, text: &str) -> anyhow::Result<()> {
        // A `.json` file holds an import in the seed's format, and its
        // saves write that format back (`JsonFile`).
        let is_json = self.path.extension().and_then(|e| e.to_str()) == Some("json")
            && text.trim_start().starts_with(['{', '[']);
        let level = if is_json {
            import_json(text, &self.path)
        } else {
            parse_level::<PolycubeLevel>(text, &self.path)
        }
        .map_err(anyhow::Error::from)?;
        self.json = JsonFile::for_path(&self.path);
        self.header = leading_comments(text);
        // A JSON import is re-written whole: nothing of its text to keep.
        self.source = (!is_json).then(|| text.to_string());
        if level != self.level {
            // Another level (an undo, the text tab): its verdict is unknown.
            self.edited();
        }
        self.saved = level.clone();
        self.level = level;
        self.patchable = None;
        if self.piece >= self.level.pieces.len() {
            self.piece = self.level.pieces.len().saturating_sub(1);
        }
        Ok(())
    }

    /// The level as edited.
    pub fn level(&self) -> &PolycubeLevel {
        &self.level
    }

    /// An edit: the validator row notices a change of shape by itself
    /// (a rename keeps its answers).
    fn edited(&mut self) {}

    fn solve_ui(&mut self, ui: &mut egui::Ui, playable: bool) {
        self.solvable.ui(ui, &self.level, playable);
        if let Some(edited) = self.make_unique.ui(ui, &self.level, playable) {
            self.level = edited;
            self.edited();
        }
    }

    fn box_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label("Box");
            let (mut a, mut b, mut c) = self.level.size;
            let mut changed = false;
            changed |= ui
                .add(egui::DragValue::new(&mut a).range(1..=16).prefix("X "))
                .changed();
            changed |= ui
                .add(egui::DragValue::new(&mut b).range(1..=16).prefix("Y "))
                .changed();
            changed |= ui
                .add(egui::DragValue::new(&mut c).range(1..=16).prefix("Z "))
                .changed();
            if changed {
                self.level.size = (a, b, c);
                self.edited();
            }
            let label = ui.label("Name");
            if ui
                .text_edit_singleline(&mut self.level.name)
                .labelled_by(label.id)
                .changed()
            {
                self.edited();
            }
        });
    }

    fn pieces_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            for i in 0..self.level.pieces.len() {
                let p = &self.level.pieces[i];
                let colour = p
                    .colour
                    .map_or(iso::palette(i), |(r, g, b)| Color32::from_rgb(r, g, b));
                let text = RichText::new(format!("{} ({})", p.id, p.cells.len())).color(colour);
                if ui.selectable_label(self.piece == i, text).clicked() {
                    self.piece = i;
                }
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Add piece").clicked() {
                let id = next_id(&self.level.pieces);
                self.level.pieces.push(PieceSpec {
                    id,
                    cells: vec![(1, 1, 1)],
                    colour: None,
                });
                self.piece = self.level.pieces.len() - 1;
                self.edited();
            }
            let has = self.piece < self.level.pieces.len();
            if ui
                .add_enabled(has, egui::Button::new("Duplicate"))
                .clicked()
            {
                let mut copy = self.level.pieces[self.piece].clone();
                copy.id = next_id(&self.level.pieces);
                self.level.pieces.push(copy);
                self.piece = self.level.pieces.len() - 1;
                self.edited();
            }
            if ui.add_enabled(has, egui::Button::new("Delete")).clicked() {
                self.level.pieces.remove(self.piece);
                self.piece = self.piece.saturating_sub(1);
                self.edited();
            }
            if has {
                let piece = &mut self.level.pieces[self.piece];
                let (r, g, b) = piece.colour.unwrap_or_else(|| {
                    let c = iso::palette(self.piece);
                    (c.r(), c.g(), c.b())
                });
                let mut rgb = [r, g, b];
                if ui.color_edit_button_srgb(&mut rgb).changed() {
                    piece.colour = Some((rgb[0], rgb[1], rgb[2]));
                }
                // A rename keeps the validator's answers (they are about
                // shapes).
                let label = ui.label("Id");
                ui.text_edit_singleline(&mut piece.id).labelled_by(label.id);
            }
        });
    }

    /// Click cells of the selected piece, one z layer at a time.
    fn piece_grid(&mut self, ui: &mut egui::Ui) {
        if self.piece >= self.level.pieces.len() {
            return;
        }
        let (a, b, c) = self.level.size;
        let (a, b, c) = (a.clamp(1, 16), b.clamp(1, 16), c.clamp(1, 16));
        self.layer = self.layer.clamp(1, c);
        ui.horizontal(|ui| {
            let label = ui.label("Layer z =");
            ui.add(egui::DragValue::new(&mut self.layer).range(1..=c))
                .labelled_by(label.id);
        });
        // The layer's grid and the piece in 3D beside it: below the grid
        // the view ran under the console (the level editor does not
        // scroll) and showed nothing in the docs' picture.
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| self.layer_grid(ui, a, b));
            ui.separator();
            ui.vertical(|ui| self.piece_3d(ui, a, b, c));
        });
    }

    /// The piece's cells on layer `self.layer` of an `a` x `b` box:
    /// a click toggles one.
    fn layer_grid(&mut self, ui: &mut egui::Ui, a: i64, b: i64) {
        let z = self.layer;
        let mut toggle = None;
        egui::Grid::new("piece_slice")
            .spacing([2.0, 2.0])
            .show(ui, |ui| {
                for y in (1..=b).rev() {
                    for x in 1..=a {
                        let on = self.level.pieces[self.piece].cells.contains(&(x, y, z));
                        let fill = if on {
                            iso::piece_colour(&self.level, self.piece)
                        } else {
                            ui.visuals().extreme_bg_color
                        };
                        let response = ui.add(
                            egui::Button::new(if on { "■" } else { "·" })
                                .fill(fill)
                                .min_size(egui::vec2(24.0, 24.0)),
                        );
                        let label = format!("piece cell {x},{y},{z}");
                        response.widget_info(|| {
                            egui::WidgetInfo::labeled(egui::Role::Button, true, &label)
                        });
                        if response.clicked() {
                            toggle = Some((x, y, z));
                        }
                    }
                    ui.end_row();
                }
            });
        if let Some(cell) = toggle {
            let cells = &mut self.level.pieces[self.piece].cells;
            match cells.iter().position(|&c| c == cell) {
                Some(i) => {
                    cells.remove(i);
                }
                None => {
                    // The piece's cells are rewritten anyway: in order, as
                    // the shipped levels mostly write them.
                    cells.push(cell);
                    cells.sort_unstable();
                }
            }
            self.edited();
        }
    }

    /// The piece in 3D, in the height left (at most 200 px).
    fn piece_3d(&mut self, ui: &mut egui::Ui, a: i64, b: i64, c: i64) {
        let cubes: Vec<Cube> = self.level.pieces[self.piece]
            .cells
            .iter()
            .map(|&(x, y, z)| Cube {
                cell: {
                    let [x, y, z] = tessera_polycube::Pos(x, y, z).zero_based();
                    [x as i32, y as i32, z as i32]
                },
                colour: iso::piece_colour(&self.level, self.piece),
            })
            .collect();
        iso::show(
            ui,
            &mut self.camera,
            [a as usize, b as usize, c as usize],
            &cubes,
            200.0,
        );
    }
}

fn next_id(pieces: &[PieceSpec]) -> String {
    ('A'..='Z')
        .chain('a'..='z')
        .map(String::from)
        .find(|id| pieces.iter().all(|p| &p.id != id))
        .unwrap_or_else(|| format!("P{}", pieces.len() + 1))
}

impl LevelEditor for PolycubeLevelEditor {
    fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut PlaytestContext<'_>) {
        self.box_ui(ui);
        ui.separator();
        self.pieces_ui(ui);
        ui.separator();
        let findings: Vec<Diagnostic> = self.level.diagnose();
        let playable = !findings.iter().any(Diagnostic::is_error);
        // Above the findings, so a warning appearing never moves it.
        self.solve_ui(ui, playable);
        let volume = self.level.size.0 * self.level.size.1 * self.level.size.2;
        let cells: usize = self.level.pieces.iter().map(|p| p.cells.len()).sum();
        ui.label(format!("pieces hold {cells} cells, the box has {volume}"));
        // The findings get a fixed height (scrolling past it), so one
        // appearing or going never moves the piece grid under the mouse.
        let height = 2.0 * ui.text_style_height(&egui::TextStyle::Body) + 4.0;
        egui::ScrollArea::vertical()
            .id_salt("level findings")
            .min_scrolled_height(height)
            .max_height(height)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for finding in &findings {
                    let colour = if finding.is_error() {
                        Color32::from_rgb(230, 90, 80)
                    } else {
                        Color32::from_rgb(230, 180, 60)
                    };
                    ui.label(RichText::new(&finding.message).color(colour));
                }
            });
        ui.separator();
        self.json.ui(ui, &self.level);
        self.save_note(ui);
        self.piece_grid(ui);
    }

    fn to_ron(&self) -> anyhow::Result<String> {
        match self.patched() {
            Some(text) => Ok(text),
            None => self.rewritten(),
        }
    }

    fn is_dirty(&self) -> bool {
        self.level != self.saved
    }

    fn load(&mut self, text: &str) -> anyhow::Result<()> {
        self.read(text)
    }
}
