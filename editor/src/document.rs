//! One open file: its text, what is on disk, and how it is shown (Lua
//! editor, RON text with live validation, or a game's visual level editor).
//!
//! A level has one text and two views of it. The visual editor is loaded
//! from the current text whenever that text changed elsewhere (the text
//! tab, an undo, a reload from disk), and each visual edit writes the text
//! at once (only the changed values, see `LevelEditor::to_ron`), so
//! switching views never shows stale content and saving writes the text
//! either view last changed.

use std::path::{Path, PathBuf};
use tessera_ui::text::count;

use anyhow::Context as _;
use egui::{Id, RichText};
use tessera_host::check;
use tessera_host::level::{Diagnostic, Severity, write_atomic};
use tessera_host::registry::Registry;

use crate::code_editor::{CodeEditor, CursorPosition, Marker};
use crate::highlight::Language;
use crate::playtest::{GameUi, LevelEditor, LevelEditorFactory, PlaytestContext, UndoStack};

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
    /// A new file never saved (a generated level): missing on disk because
    /// it was never written there, not because it was removed.
    never_saved: bool,
    editor: CodeEditor,
    /// The game's visual editor factory for this level: `None` until
    /// looked up (on the first frame), then whether the game has one.
    visual_factory: Option<Option<LevelEditorFactory>>,
    /// The game's visual editor, once the text has loaded into it.
    visual: Option<Box<dyn LevelEditor>>,
    /// Show the visual editor (true) or the raw RON text.
    show_visual: bool,
    /// The text the visual editor last loaded: when the text differs, it
    /// changed elsewhere and is loaded again before the view is drawn.
    visual_text: Option<String>,
    /// Why the current text does not load into the visual editor (shown
    /// in its place instead of a stale level).
    visual_error: Option<String>,
    /// The text before each visual edit (and each stretch of text-tab
    /// edits seen by the visual view), for Ctrl+Z / Ctrl+Shift+Z there.
    history: UndoStack<String>,
    /// Whether the keyboard belongs to the visual editor: the last press
    /// was inside it (Ctrl+Z then undoes its edits, not a playtest move).
    visual_focused: bool,
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
        Ok(Self::with_text(path, display, text))
    }

    /// A new file not yet on disk holding `text` (a generated level):
    /// unsaved until the designer saves it, which creates the file.
    pub fn unsaved(path: &Path, display: &Path, text: String) -> Self {
        let mut document = Self::with_text(path, display, text);
        document.disk_text = String::new();
        document.missing_on_disk = true;
        document.never_saved = true;
        document
    }

    fn with_text(path: &Path, display: &Path, text: String) -> Self {
        let kind = match Language::of(path) {
            Language::Lua => DocumentKind::Script,
            Language::Ron => DocumentKind::Level,
            Language::Plain if is_level_json(path) => DocumentKind::Level,
            Language::Plain => DocumentKind::Text,
        };
        Self {
            path: path.to_path_buf(),
            display: display.to_path_buf(),
            kind,
            disk_text: text.clone(),
            text,
            missing_on_disk: false,
            never_saved: false,
            editor: CodeEditor::new(
                Id::unique(("document", path)),
                Language::of(path),
                format!("Text of {}", display.display()),
            ),
            visual_factory: None,
            visual: None,
            show_visual: false,
            visual_text: None,
            visual_error: None,
            history: UndoStack::default(),
            visual_focused: false,
            diagnostics: Vec::new(),
            validated: None,
            reload_error: None,
        }
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

    /// Lines marked in the gutter, each with its message (and the plain
    /// sentence beside any Luau jargon) for the dot's tooltip.
    pub fn marked_lines(&self) -> Vec<Marker> {
        self.reload_error
            .iter()
            .chain(&self.diagnostics)
            .filter_map(|d| {
                Some(Marker {
                    line: d.line? as usize,
                    is_error: d.is_error(),
                    message: crate::plain_words::with_plain_words(&d.message),
                })
            })
            .collect()
    }

    /// Where the line numbers were drawn last frame (screen x of their
    /// right edge).
    pub fn gutter_right(&self) -> f32 {
        self.editor.gutter_right()
    }

    /// How far the code editor was scrolled sideways on the last frame.
    pub fn sideways_scroll(&self) -> f32 {
        self.editor.sideways_scroll()
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

    /// The text that would be saved now (visual edits are in it as soon as
    /// they are made): what a playtest of the unsaved buffer plays.
    pub fn text_to_save(&self) -> anyhow::Result<String> {
        Ok(self.text.clone())
    }

    /// Whether there are edits not on disk, made in either view.
    pub fn is_dirty(&self) -> bool {
        self.text != self.disk_text || self.missing_on_disk
    }

    /// Whether the visual editor is shown (else the text).
    pub fn shows_visual(&self) -> bool {
        self.show_visual
    }

    /// Whether the keyboard's Ctrl+Z goes to this document's visual editor.
    pub fn visual_has_keyboard(&self) -> bool {
        self.show_visual && self.visual_focused
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
        self.show_visual = false;
        self.editor.jump_to_line(line);
    }

    /// Writes the document atomically; returns the text written.
    pub fn save(&mut self) -> anyhow::Result<String> {
        let text = self.text_to_save()?;
        write_atomic(&self.path, text.as_bytes())
            .with_context(|| format!("cannot save {}", self.display.display()))?;
        self.disk_text = text.clone();
        self.missing_on_disk = false;
        self.never_saved = false;
        Ok(text)
    }

    /// The file on disk now holds `content`. Returns `true` when that
    /// conflicts with unsaved edits (the caller asks the user); otherwise
    /// the buffer follows the disk silently.
    pub fn disk_changed(&mut self, content: String) -> bool {
        self.missing_on_disk = false;
        self.never_saved = false;
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
        self.never_saved = false;
        self.editor.forget_history();
        // Loaded from the new text on the next frame; the old edits are
        // not undone into the new file.
        self.visual_text = None;
        self.history.clear();
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
        self.never_saved = false;
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

    /// Looks up the game's visual level editor on the first frame; when it
    /// has one, the document opens in it (or in the text, with the reason
    /// in the console, when the text does not load).
    fn find_visual(
        &mut self,
        games: &[GameUi],
        registry: &Registry,
        console: &mut Vec<crate::ConsoleLine>,
    ) {
        if self.visual_factory.is_some() {
            return;
        }
        let factory = match self.kind {
            DocumentKind::Level => self.game(registry).and_then(|game| {
                games
                    .iter()
                    .find(|g| g.id == game)
                    .and_then(|g| g.level_editor)
            }),
            _ => None,
        };
        self.visual_factory = Some(factory);
        if factory.is_none() {
            return;
        }
        self.load_visual();
        match &self.visual_error {
            None => self.show_visual = true,
            Some(error) => {
                // The raw text stays editable; the error says why.
                console.push(crate::ConsoleLine {
                    text: format!("error {}: {error}", self.display.display()),
                    is_error: true,
                });
            }
        }
    }

    /// Loads the current text into the visual editor when it changed since
    /// the editor last loaded it. A change made elsewhere while the visual
    /// view was in use (the text tab) becomes one undo step.
    fn load_visual(&mut self) {
        let Some(Some(factory)) = self.visual_factory else {
            return;
        };
        if self.visual_text.as_deref() == Some(self.text.as_str()) {
            return;
        }
        if let Some(before) = self.visual_text.take() {
            self.history.record(before, false);
        }
        let loaded = match self.visual.as_mut() {
            Some(visual) => visual.load(&self.text),
            None => factory(&self.path, &self.text).map(|visual| self.visual = Some(visual)),
        };
        self.visual_error = loaded.err().map(|e| format!("{e:#}"));
        self.visual_text = Some(self.text.clone());
    }

    /// Takes a visual edit into the text: the editor's patched RON becomes
    /// the document's text (the old text an undo step), and the editor is
    /// loaded from it again so the next edit patches the new text.
    fn take_visual_edit(&mut self, gesture: bool, console: &mut Vec<crate::ConsoleLine>) {
        let Some(visual) = self.visual.as_mut() else {
            return;
        };
        if !visual.is_dirty() {
            return;
        }
        let written = visual.to_ron().and_then(|text| {
            visual.load(&text)?;
            Ok(text)
        });
        match written {
            Ok(text) => {
                if text != self.text {
                    let before = std::mem::replace(&mut self.text, text);
                    self.history.record(before, gesture);
                }
                self.visual_text = Some(self.text.clone());
                self.visual_focused = true;
            }
            Err(e) => console.push(crate::ConsoleLine {
                text: format!("error {}: {e:#}", self.display.display()),
                is_error: true,
            }),
        }
    }

    /// Undoes (or redoes) the last visual edit; returns whether there was
    /// one.
    pub fn undo_visual(&mut self, redo: bool) -> bool {
        let current = self.text.clone();
        let restored = if redo {
            self.history.redo(current)
        } else {
            self.history.undo(current)
        };
        let Some(text) = restored else {
            return false;
        };
        self.text = text;
        // Loaded without becoming an undo step of its own.
        self.visual_text = None;
        self.load_visual();
        true
    }

    /// Whether the visual editor has an edit to undo / to redo.
    pub fn can_undo_visual(&self) -> (bool, bool) {
        (self.history.can_undo(), self.history.can_redo())
    }

    /// Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo, while the visual editor
    /// has the keyboard (its last press was inside it, not in the playtest)
    /// and no text field does.
    fn visual_undo_keys(&mut self, ui: &egui::Ui, keyboard: bool) {
        let area = ui.max_rect();
        if let Some(pos) = ui.input(|i| {
            i.pointer
                .any_pressed()
                .then(|| i.pointer.interact_pos())
                .flatten()
        }) {
            self.visual_focused = area.contains(pos);
        }
        if !keyboard || !self.visual_focused || tessera_ui::text_field_has_keyboard(ui.ctx()) {
            return;
        }
        let (redo, undo) = ui.input_mut(|i| {
            let redo = i.consume_key(
                egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
                egui::Key::Z,
            ) || i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y);
            (redo, i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z))
        });
        if redo || undo {
            self.undo_visual(redo);
        }
    }

    /// The name of the text tab: the document's own format (a seed-format
    /// `.json` level is JSON text, not RON).
    pub fn text_tab_label(&self) -> &'static str {
        if is_level_json(&self.path) {
            "JSON text"
        } else {
            "RON text"
        }
    }

    /// The Visual / text switch (named by the file's format) with the
    /// visual editor's undo buttons.
    /// What the file's state on disk asks of the designer: a new file
    /// not written yet, or one removed on disk.
    fn file_note(&self, ui: &egui::Ui) -> Option<RichText> {
        if self.never_saved {
            Some(RichText::new(
                "A new file, not saved yet. Save to write it.",
            ))
        } else if self.missing_on_disk {
            Some(
                RichText::new("This file was removed on disk. Save to write it again.")
                    .color(ui.visuals().warn_fg_color),
            )
        } else {
            None
        }
    }

    /// The Visual / text switch, the visual edits' Undo and Redo, and the
    /// file's `note` after them, elided to the room left.
    fn view_switch(&mut self, ui: &mut egui::Ui, note: Option<RichText>) {
        let text_tab = self.text_tab_label();
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.show_visual, true, "Visual");
            ui.selectable_value(&mut self.show_visual, false, text_tab);
            if self.show_visual {
                ui.separator();
                let (can_undo, can_redo) = self.can_undo_visual();
                if ui
                    .add_enabled(can_undo, egui::Button::new("↶ Undo edit"))
                    .on_hover_text("Undo the last edit (Ctrl+Z)")
                    .clicked()
                {
                    self.undo_visual(false);
                }
                if ui
                    .add_enabled(can_redo, egui::Button::new("↷ Redo edit"))
                    .on_hover_text("Redo (Ctrl+Shift+Z or Ctrl+Y)")
                    .clicked()
                {
                    self.undo_visual(true);
                }
            }
            if let Some(note) = note {
                ui.separator();
                let text = note.text().to_string();
                ui.add(egui::Label::new(note).truncate())
                    .on_hover_text(text);
            }
        });
        ui.separator();
    }

    /// The visual view: the level of the current text, or why the text
    /// does not load (the one validation path's findings).
    fn visual_ui(&mut self, ui: &mut egui::Ui, keyboard: bool, cx: &mut PlaytestContext<'_>) {
        self.load_visual();
        self.visual_undo_keys(ui, keyboard);
        if let Some(error) = self.visual_error.clone() {
            self.validate(cx.project.registry());
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!("The text does not read as a level, so the visual editor cannot show it. Fix it in the {} tab:", self.text_tab_label()),
            );
            let findings: Vec<String> = self
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(format_diagnostic)
                .collect();
            if findings.is_empty() {
                ui.monospace(error);
            }
            for finding in findings {
                ui.monospace(finding);
            }
            if ui.button("Show the text").clicked() {
                self.show_visual = false;
            }
            return;
        }
        if let Some(visual) = self.visual.as_mut() {
            visual.ui(ui, cx);
        }
        let gesture = ui.input(|i| i.pointer.any_down());
        self.take_visual_edit(gesture, cx.console);
        if !gesture {
            self.history.end_gesture();
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
    /// level editor. `keyboard` says whether Ctrl+Z may go to the document (not when the
    /// playtest has the keyboard).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        games: &[GameUi],
        keyboard: bool,
        cx: &mut PlaytestContext<'_>,
    ) {
        self.find_visual(games, cx.project.registry(), cx.console);
        let note = self.file_note(ui);
        if matches!(self.visual_factory, Some(Some(_))) {
            // The note shares the switch's row: Visual, Undo and the
            // editor below stay put when it comes or goes (a save).
            self.view_switch(ui, note);
        } else if let Some(note) = note {
            ui.label(note);
        }
        if self.show_visual {
            self.visual_ui(ui, keyboard, cx);
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
                    "{}, {}",
                    count(errors, "error"),
                    count(warnings, "warning")
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
