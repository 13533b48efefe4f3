//! One open file: its text, what is on disk, and how it is shown (Lua
//! editor, RON text with live validation, or a game's visual level editor).

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use egui::{Id, RichText};
use tessera_host::check;
use tessera_host::level::{Diagnostic, Severity, write_atomic};
use tessera_host::registry::Registry;

use crate::code_editor::{CodeEditor, CursorPosition};
use crate::highlight::Language;
use crate::playtest::{GameUi, LevelEditor, PlaytestContext};

/// What kind of file a document holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    /// A Luau script.
    Script,
    /// A RON level.
    Level,
    /// Any other text file.
    Text,
}

/// An open file.
pub struct Document {
    path: PathBuf,
    display: PathBuf,
    kind: DocumentKind,
    /// The buffer being edited.
    text: String,
    /// The file's content as last read or written; the buffer is dirty when
    /// it differs.
    disk_text: String,
    /// Whether the file vanished from disk while open (saving recreates it).
    missing_on_disk: bool,
    editor: CodeEditor,
    /// The game's visual editor, when it has one for this level.
    visual: Option<Box<dyn LevelEditor>>,
    /// Show the visual editor (true) or the raw RON text.
    show_visual: bool,
    /// Whether the visual editor was already tried for the current text, so
    /// a factory error is reported once, not every frame.
    visual_tried: bool,
    /// Findings about the level text, refreshed when it changes.
    diagnostics: Vec<Diagnostic>,
    /// Hash of the text the diagnostics describe.
    validated: Option<u64>,
    /// Why the last save of this script did not load, if it did not.
    reload_error: Option<Diagnostic>,
}

/// A `.json` file in `levels/<game>/`: a level in a game's JSON import
/// format (which game reads it is the registry's business, as for RON).
pub fn is_level_json(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some("json")
        && path
            .parent()
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .is_some_and(|f| f == "levels")
}

impl Document {
    /// Reads `path` (absolute); `display` is how messages name it.
    pub fn open(path: &Path, display: &Path) -> anyhow::Result<Self> {
        let text = tessera_host::level::read_text(path)
            .map_err(|e| anyhow::anyhow!("cannot open {}: {}", display.display(), e.message))?;
        let kind = match Language::of(path) {
            Language::Lua => DocumentKind::Script,
            Language::Ron => DocumentKind::Level,
            Language::Plain if is_level_json(path) => DocumentKind::Level,
            Language::Plain => DocumentKind::Text,
        };
        Ok(Self {
            path: path.to_path_buf(),
            display: display.to_path_buf(),
            kind,
            disk_text: text.clone(),
            text,
            missing_on_disk: false,
            editor: CodeEditor::new(
                Id::unique(("document", path)),
                Language::of(path),
                format!("Text of {}", display.display()),
            ),
            visual: None,
            show_visual: false,
            visual_tried: false,
            diagnostics: Vec::new(),
            validated: None,
            reload_error: None,
        })
    }

    /// Absolute path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Path relative to the project, for messages.
    pub fn display_path(&self) -> &Path {
        &self.display
    }

    /// The file was renamed on disk to `path` (shown as `display`).
    pub fn relocate(&mut self, path: &Path, display: &Path) {
        self.path = path.to_path_buf();
        self.display = display.to_path_buf();
    }

    /// The last reload's error (`None` once a version loads).
    pub fn set_reload_error(&mut self, error: Option<Diagnostic>) {
        self.reload_error = error;
    }

    /// Lines marked in the gutter: (1-based line, is an error).
    pub fn marked_lines(&self) -> Vec<(usize, bool)> {
        self.reload_error
            .iter()
            .chain(&self.diagnostics)
            .filter_map(|d| Some((d.line? as usize, d.is_error())))
            .collect()
    }

    /// Where the line numbers were drawn last frame (screen x of their
    /// right edge).
    pub fn gutter_right(&self) -> f32 {
        self.editor.gutter_right()
    }

    /// Script, level or other text.
    pub fn kind(&self) -> DocumentKind {
        self.kind
    }

    /// The buffer.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Replaces the buffer (as typing would).
    pub fn set_text(&mut self, text: String) {
        self.text = text;
    }

    /// The text that would be saved now (the visual editor's RON when it is
    /// shown): what a playtest of the unsaved buffer plays.
    pub fn text_to_save(&self) -> anyhow::Result<String> {
        match &self.visual {
            Some(visual) if self.show_visual => visual.to_ron(),
            _ => Ok(self.text.clone()),
        }
    }

    /// Whether there are edits not on disk.
    pub fn is_dirty(&self) -> bool {
        let visual_dirty = self.show_visual && self.visual.as_ref().is_some_and(|v| v.is_dirty());
        visual_dirty || self.text != self.disk_text || self.missing_on_disk
    }

    /// Tab title: the file name, with `●` when unsaved.
    pub fn title(&self) -> String {
        let name = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.display.display().to_string());
        if self.is_dirty() {
            format!("{name} ●")
        } else {
            name
        }
    }

    /// Where the text cursor is.
    pub fn cursor(&self) -> CursorPosition {
        self.editor.cursor()
    }

    /// Shows `line` on the next frame (switching to the text view).
    pub fn jump_to_line(&mut self, line: u32) {
        self.sync_text_from_visual();
        self.show_visual = false;
        self.editor.jump_to_line(line);
    }

    /// Writes the document atomically; returns the text written.
    pub fn save(&mut self) -> anyhow::Result<String> {
        let text = self.text_to_save()?;
        write_atomic(&self.path, text.as_bytes())
            .with_context(|| format!("cannot save {}", self.display.display()))?;
        if let Some(visual) = self.visual.as_mut().filter(|_| self.show_visual) {
            visual.mark_saved();
        }
        self.text = text.clone();
        self.disk_text = text.clone();
        self.missing_on_disk = false;
        Ok(text)
    }

    /// The file on disk now holds `content`. Returns `true` when that
    /// conflicts with unsaved edits (the caller asks the user); otherwise
    /// the buffer follows the disk silently.
    pub fn disk_changed(&mut self, content: String) -> bool {
        self.missing_on_disk = false;
        if content == self.disk_text || content == self.text {
            // Our own save echoing back, or the same edit made elsewhere.
            self.disk_text = content;
            return false;
        }
        if self.is_dirty() {
            return true;
        }
        self.replace_with_disk(content);
        false
    }

    /// Throws the buffer away for `content` from disk.
    pub fn replace_with_disk(&mut self, content: String) {
        self.text = content.clone();
        self.disk_text = content;
        self.missing_on_disk = false;
        self.editor.forget_history();
        // Rebuilt from the new text on the next frame.
        self.visual = None;
        self.visual_tried = false;
    }

    /// Keeps the buffer although the disk now holds `content` (it stays
    /// dirty, and saving overwrites the disk).
    pub fn keep_mine(&mut self, content: String) {
        self.disk_text = content;
    }

    /// The file was removed on disk; the buffer stays and saving recreates
    /// the file.
    pub fn disk_removed(&mut self) {
        self.missing_on_disk = true;
    }

    /// The game this file belongs to: `scripts/<game>.lua`, a level in
    /// `levels/<game>/` (or its `game` field).
    pub fn game(&self, registry: &Registry) -> Option<String> {
        match self.kind {
            DocumentKind::Script => {
                let stem = self.path.file_stem()?.to_str()?;
                Some(stem.to_string())
            }
            DocumentKind::Level => match check::level_game(registry, &self.path, &self.text) {
                Ok(game) => Some(game),
                Err(_) => Some(
                    self.path
                        .parent()?
                        .file_name()?
                        .to_str()
                        .map(str::to_string)?,
                ),
            },
            DocumentKind::Text => None,
        }
    }

    /// Creates the game's visual level editor, when it has one.
    fn ensure_visual(
        &mut self,
        games: &[GameUi],
        registry: &Registry,
        console: &mut Vec<crate::ConsoleLine>,
    ) {
        if self.kind != DocumentKind::Level || self.visual.is_some() || self.visual_tried {
            return;
        }
        self.visual_tried = true;
        let Some(game) = self.game(registry) else {
            return;
        };
        let Some(factory) = games
            .iter()
            .find(|g| g.id == game)
            .and_then(|g| g.level_editor)
        else {
            return;
        };
        match factory(&self.path, &self.text) {
            Ok(visual) => {
                self.visual = Some(visual);
                self.show_visual = true;
            }
            Err(e) => {
                // The raw text stays editable; the error says why.
                console.push(crate::ConsoleLine {
                    text: format!("error {}: {e:#}", self.display.display()),
                    is_error: true,
                });
                self.visual = None;
                self.show_visual = false;
            }
        }
    }

    /// Switching to the text view: the visual editor's unsaved edits become
    /// the text.
    fn sync_text_from_visual(&mut self) {
        if let Some(visual) = self.visual.as_ref().filter(|_| self.show_visual)
            && visual.is_dirty()
            && let Ok(text) = visual.to_ron()
        {
            self.text = text;
        }
    }

    /// Re-validates the level text when it changed.
    fn validate(&mut self, registry: &Registry) {
        if self.kind != DocumentKind::Level {
            return;
        }
        let hash = {
            use std::hash::{Hash, Hasher};
            let mut h = std::hash::DefaultHasher::new();
            self.text.hash(&mut h);
            h.finish()
        };
        if self.validated == Some(hash) {
            return;
        }
        self.validated = Some(hash);
        // The same validation as `tessera check` and a game start.
        self.diagnostics = check::check_level_text(registry, &self.path, &self.display, &self.text);
    }

    /// Findings about the level text as of the last frame.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Draws the document; `games` are the game UIs that may bring a visual
    /// level editor.
    pub fn ui(&mut self, ui: &mut egui::Ui, games: &[GameUi], cx: &mut PlaytestContext<'_>) {
        if self.kind == DocumentKind::Level {
            self.ensure_visual(games, cx.project.registry(), cx.console);
        }
        if self.missing_on_disk {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "This file was removed on disk. Save to write it again.",
            );
        }
        if self.visual.is_some() {
            ui.horizontal(|ui| {
                let was_visual = self.show_visual;
                ui.selectable_value(&mut self.show_visual, true, "Visual");
                ui.selectable_value(&mut self.show_visual, false, "RON text");
                if was_visual && !self.show_visual {
                    self.sync_text_from_visual();
                } else if !was_visual && self.show_visual && self.text != self.disk_text {
                    // Rebuild from the edited text so both views agree.
                    self.visual = None;
                    self.visual_tried = false;
                    self.ensure_visual(games, cx.project.registry(), cx.console);
                }
            });
            ui.separator();
        }
        if self.show_visual
            && let Some(visual) = self.visual.as_mut()
        {
            visual.ui(ui, cx);
            return;
        }
        if self.kind != DocumentKind::Level {
            self.editor.set_markers(self.marked_lines());
            self.editor.ui(ui, &mut self.text);
            return;
        }
        self.validate(cx.project.registry());
        self.editor.set_markers(self.marked_lines());
        egui::Panel::bottom(("diagnostics", &self.path))
            .resizable(true)
            .default_size(110.0)
            .min_size(48.0)
            .show(ui, |ui| self.diagnostics_ui(ui));
        egui::CentralPanel::no_frame().show(ui, |ui| {
            self.editor.ui(ui, &mut self.text);
        });
    }

    fn diagnostics_ui(&mut self, ui: &mut egui::Ui) {
        let errors = self.diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = self.diagnostics.len() - errors;
        ui.horizontal(|ui| {
            ui.strong("Validation");
            if self.diagnostics.is_empty() {
                ui.label(
                    RichText::new("✔ level is valid")
                        .color(egui::Color32::from_rgb(0x6A, 0xC0, 0x6A)),
                );
            } else {
                ui.weak(format!(
                    "{errors} error{}, {warnings} warning{}",
                    if errors == 1 { "" } else { "s" },
                    if warnings == 1 { "" } else { "s" }
                ));
            }
        });
        if self.diagnostics.is_empty() {
            return;
        }
        let mut jump = None;
        egui::ScrollArea::vertical()
            .id_salt(("diagnostics scroll", &self.path))
            .auto_shrink(false)
            .show(ui, |ui| {
                for d in &self.diagnostics {
                    let color = match d.severity {
                        Severity::Error => ui.visuals().error_fg_color,
                        Severity::Warning => ui.visuals().warn_fg_color,
                    };
                    let text = format_diagnostic(d);
                    let label = egui::Label::new(RichText::new(text).monospace().color(color));
                    match d.line {
                        Some(line) => {
                            if ui
                                .add(label.sense(egui::Sense::click()))
                                .on_hover_cursor(egui::CursorIcon::PointingHand)
                                .clicked()
                            {
                                jump = Some(line);
                            }
                        }
                        None => {
                            ui.add(label);
                        }
                    }
                }
            });
        if let Some(line) = jump {
            self.editor.jump_to_line(line);
        }
    }
}

/// `line:col: message` (position parts left out when unknown).
pub fn format_diagnostic(d: &Diagnostic) -> String {
    let warning = if d.severity == Severity::Warning {
        "warning: "
    } else {
        ""
    };
    match (d.line, d.col) {
        (Some(line), Some(col)) => format!("{line}:{col}: {warning}{}", d.message),
        (Some(line), None) => format!("{line}: {warning}{}", d.message),
        _ => format!("{warning}{}", d.message),
    }
}
