//! The editor window: project tree, tabs, console, playtest area and the
//! prompts that guard unsaved work. [`EditorApp::ui`] draws one frame into
//! any `Ui`, so eframe and egui_kittest drive the same code.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use egui::{Key, KeyboardShortcut, Modifiers, RichText, ViewportCommand};
use tessera_host::project::{ChangeReport, Project};
use tessera_host::registry::ReplaySetup;
use tessera_host::script::watcher::{DEBOUNCE, FolderWatcher};

use crate::console::{Console, SourceLocation};
use crate::disk_versions::DiskVersions;
use crate::disk_watch::DiskWatch;
use crate::document::{Document, DocumentKind};
use crate::playtest::{GameUi, PlaytestContext};
use crate::playtest_area::{PlaytestArea, PlaytestRequest, PlaytestTarget};
use crate::prompts::{Answer, Prompt, Prompts};
use crate::tabs::{TabAction, tab_bar};
use crate::tests_panel::{TestsPanel, TestsRequest};
use crate::tree::ProjectTree;

/// How often an idle editor wakes up anyway (tree rescans, folders that
/// appear); file changes wake it at once through [`DiskWatch`].
const IDLE_WAKE: Duration = Duration::from_secs(1);

const SAVE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
const SAVE_ALL: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::S);
const CLOSE_TAB: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::W);
const PLAY: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F5);

/// The whole editor's state.
pub struct EditorApp {
    project: Project,
    /// The watch, until the first frame moves it onto its thread (which
    /// needs the `egui::Context` to wake the UI). Both `None` when watching
    /// failed (reported in the console); saves made in the editor still
    /// reload.
    watcher: Option<FolderWatcher>,
    /// The watch running on its own thread.
    watch: Option<DiskWatch>,
    /// Which watched folders existed when the watcher started, so it is
    /// restarted when `scripts/` or `levels/` appears later.
    watched: Vec<bool>,
    tree: ProjectTree,
    documents: Vec<Document>,
    active: Option<usize>,
    console: Console,
    playtest: PlaytestArea,
    prompts: Prompts,
    versions: DiskVersions,
    /// Scripts with a live slot in the project, polled for `print` output.
    live_scripts: BTreeSet<PathBuf>,
    /// Set once the user agreed to quit, so the next close goes through.
    quitting: bool,
    /// The games' editor UIs (playtest views, level editors).
    games: Vec<GameUi>,
    /// The replay suite, run in the background.
    tests: TestsPanel,
}

impl EditorApp {
    /// Opens the project at `root`: loads its scripts (reporting errors in
    /// the console) and starts watching `scripts/` and `levels/`.
    pub fn open(root: &Path) -> anyhow::Result<Self> {
        Self::open_with_games(root, crate::games::all())
    }

    /// Opens the project with a chosen set of game UIs (tests bring their
    /// own small games).
    pub fn open_with_games(root: &Path, games: Vec<GameUi>) -> anyhow::Result<Self> {
        let project = Project::open(root, tessera_builtin::registry())
            .with_context(|| format!("cannot open project {}", root.display()))?;
        let tree = ProjectTree::new(project.root());
        let mut app = Self {
            watched: Vec::new(),
            watcher: None,
            watch: None,
            tree,
            documents: Vec::new(),
            active: None,
            console: Console::default(),
            playtest: PlaytestArea::default(),
            prompts: Prompts::default(),
            versions: DiskVersions::default(),
            live_scripts: BTreeSet::new(),
            quitting: false,
            games,
            tests: TestsPanel::default(),
            project,
        };
        app.start_watcher();
        let files = app.tree.files();
        let mut scripts = 0;
        for path in files.iter().filter(|p| is_script(p)) {
            scripts += 1;
            app.load_script(path);
        }
        let levels = files.iter().filter(|p| is_level(p)).count();
        app.console.info(format!(
            "opened {}: {scripts} script{}, {levels} level{}",
            app.project.root().display(),
            plural(scripts),
            plural(levels)
        ));
        Ok(app)
    }

    /// Applies the editor's look (dark theme, readable sizes) to `ctx`.
    pub fn apply_style(ctx: &egui::Context) {
        use egui::{FontFamily, FontId, TextStyle};
        ctx.set_theme(egui::Theme::Dark);
        // Ubuntu-Light lacks some symbols the editor shows (the unsaved
        // marker ●); the monospace face has them, so it is the last fallback.
        let mut fonts = egui::FontDefinitions::default();
        let monospace = fonts
            .families
            .get(&FontFamily::Monospace)
            .and_then(|faces| faces.first())
            .cloned();
        if let Some(monospace) = monospace
            && let Some(faces) = fonts.families.get_mut(&FontFamily::Proportional)
            && !faces.contains(&monospace)
        {
            faces.push(monospace);
        }
        ctx.set_fonts(fonts);
        ctx.all_styles_mut(|style| {
            style.text_styles = [
                (
                    TextStyle::Small,
                    FontId::new(11.0, FontFamily::Proportional),
                ),
                (TextStyle::Body, FontId::new(14.0, FontFamily::Proportional)),
                (
                    TextStyle::Button,
                    FontId::new(14.0, FontFamily::Proportional),
                ),
                (
                    TextStyle::Heading,
                    FontId::new(19.0, FontFamily::Proportional),
                ),
                (
                    TextStyle::Monospace,
                    FontId::new(14.0, FontFamily::Monospace),
                ),
            ]
            .into();
            style.spacing.item_spacing = egui::vec2(8.0, 5.0);
            style.spacing.button_padding = egui::vec2(8.0, 3.0);
        });
    }

    /// The open project.
    pub fn project(&self) -> &Project {
        &self.project
    }

    /// The open project, for hosts that hold its live scripts (tests, views).
    pub fn project_mut(&mut self) -> &mut Project {
        &mut self.project
    }

    /// The console's lines.
    pub fn console(&self) -> &Console {
        &self.console
    }

    /// Open files, in tab order.
    pub fn documents(&self) -> &[Document] {
        &self.documents
    }

    /// The file being shown.
    pub fn active_document(&self) -> Option<&Document> {
        self.active.and_then(|i| self.documents.get(i))
    }

    /// The question being asked, if any.
    pub fn prompt(&self) -> Option<&Prompt> {
        self.prompts.current()
    }

    /// The playtest panel.
    pub fn playtest(&self) -> &PlaytestArea {
        &self.playtest
    }

    /// Opens `path` (absolute or relative to the project) in a tab, or
    /// shows its tab when already open. Errors go to the console.
    pub fn open_file(&mut self, path: &Path) -> Option<usize> {
        let absolute = self.project.absolute(path);
        if let Some(index) = self.document_index(&absolute) {
            self.active = Some(index);
            return Some(index);
        }
        let display = self.project.display_path(&absolute);
        match Document::open(&absolute, &display) {
            Ok(document) => {
                self.documents.push(document);
                let index = self.documents.len() - 1;
                self.active = Some(index);
                Some(index)
            }
            Err(e) => {
                self.console.error(format!("error {e:#}"));
                None
            }
        }
    }

    fn document_index(&self, absolute: &Path) -> Option<usize> {
        self.documents.iter().position(|d| d.path() == absolute)
    }

    /// Saves the active file; returns whether it was written.
    pub fn save_active(&mut self) -> bool {
        match self.active {
            Some(index) => self.save_document(index),
            None => false,
        }
    }

    /// Saves every file with unsaved edits; returns whether all were
    /// written.
    pub fn save_all(&mut self) -> bool {
        let dirty: Vec<usize> = (0..self.documents.len())
            .filter(|&i| self.documents[i].is_dirty())
            .collect();
        // Try every file even after a failure, so one bad path does not
        // leave the others unsaved.
        let mut all_saved = true;
        for index in dirty {
            all_saved &= self.save_document(index);
        }
        all_saved
    }

    /// Writes a document atomically and reloads it into the project at once
    /// (see `disk_versions` for why the watcher's echo is then skipped).
    fn save_document(&mut self, index: usize) -> bool {
        let Some(document) = self.documents.get_mut(index) else {
            return false;
        };
        match document.save() {
            Ok(text) => {
                let path = document.path().to_path_buf();
                self.versions.record(&path, text.as_bytes());
                if is_script(&path) || is_level(&path) {
                    let report = self.project.handle_change(&path);
                    self.report(&path, report);
                } else {
                    let display = self.project.display_path(&path);
                    self.console.info(format!("saved {}", display.display()));
                }
                self.tree.rescan();
                true
            }
            Err(e) => {
                self.console.error(format!("error {e:#}"));
                false
            }
        }
    }

    /// Loads a script into the project so it has a live slot.
    fn load_script(&mut self, path: &Path) {
        match self.project.script(path) {
            Ok(_) => {
                self.live_scripts.insert(path.to_path_buf());
                if let Ok(bytes) = std::fs::read(path) {
                    self.versions.record(path, &bytes);
                }
            }
            Err(e) => self.console.error(format!("error {e}")),
        }
    }

    fn report(&mut self, path: &Path, report: ChangeReport) {
        if report.result.is_ok() && !report.removed && is_script(path) {
            self.live_scripts.insert(path.to_path_buf());
        }
        let text = report.to_string();
        match report.result {
            Ok(()) => self.console.info(text),
            Err(_) => self.console.error(text),
        }
    }

    fn start_watcher(&mut self) {
        let folders = self.project.watched_folders();
        self.watched = folders.iter().map(|f| f.is_dir()).collect();
        self.watch = None;
        self.watcher = match FolderWatcher::new(&folders, DEBOUNCE) {
            Ok(watcher) => Some(watcher),
            Err(e) => {
                self.console.error(format!(
                    "error {e} (changes made outside the editor will not reload)"
                ));
                None
            }
        };
    }

    /// Handles what the watcher saw change on disk.
    pub fn poll_disk(&mut self) {
        let appeared = self
            .project
            .watched_folders()
            .iter()
            .zip(&self.watched)
            .any(|(folder, existed)| !existed && folder.is_dir());
        if appeared {
            self.start_watcher();
            self.tree.rescan();
        }
        let changed = match (&self.watch, &self.watcher) {
            (Some(watch), _) => watch.poll(),
            (None, Some(watcher)) => watcher.poll(),
            (None, None) => Vec::new(),
        };
        if changed.is_empty() {
            return;
        }
        self.tree.rescan();
        for path in changed {
            self.disk_changed(&path);
        }
    }

    fn disk_changed(&mut self, path: &Path) {
        let display = self.project.display_path(path);
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.versions.forget(path);
                if let Some(index) = self.document_index(path) {
                    self.documents[index].disk_removed();
                }
                if is_script(path) || is_level(path) {
                    // The engine's own wording: `removed PATH (running games
                    // keep the version they have)`.
                    let report = self.project.handle_change(path);
                    self.report(path, report);
                } else {
                    self.console.info(format!("removed {}", display.display()));
                }
                return;
            }
            Err(e) => {
                self.console
                    .error(format!("error {}: cannot read: {e}", display.display()));
                return;
            }
        };
        if !self.versions.record(path, &bytes) {
            return;
        }
        if is_script(path) || is_level(path) {
            let report = self.project.handle_change(path);
            self.report(path, report);
        }
        let Some(index) = self.document_index(path) else {
            return;
        };
        let Ok(content) = String::from_utf8(bytes) else {
            self.console.error(format!(
                "error {}: not UTF-8 text any more; the open buffer is kept",
                display.display()
            ));
            return;
        };
        let document = &mut self.documents[index];
        if document.disk_changed(content.clone()) {
            self.prompts.ask(Prompt::ChangedOnDisk {
                path: path.to_path_buf(),
                name: display.display().to_string(),
                content,
            });
        }
    }

    /// Moves script `print` output into the console.
    fn drain_prints(&mut self) {
        for path in &self.live_scripts {
            let Ok(live) = self.project.script(path) else {
                continue;
            };
            let printed = live.current().take_printed();
            if printed.is_empty() {
                continue;
            }
            let display = self.project.display_path(path);
            for line in printed {
                self.console.info(format!("{}: {line}", display.display()));
            }
        }
    }

    /// What F5 would start: the active file's game on that level (or its
    /// default level for a script).
    pub fn playtest_target(&self) -> Option<PlaytestTarget> {
        let document = self.active_document()?;
        let game = document.game(self.project.registry())?;
        let level = (document.kind() == DocumentKind::Level).then(|| document.path().to_path_buf());
        Some(PlaytestTarget { game, level })
    }

    /// Mutable form of [`EditorApp::playtest`] (tests choose seats there).
    pub fn playtest_mut(&mut self) -> &mut PlaytestArea {
        &mut self.playtest
    }

    /// The Tests panel.
    pub fn tests(&self) -> &TestsPanel {
        &self.tests
    }

    /// Mutable form of [`EditorApp::tests`] (tests drive it directly).
    pub fn tests_mut(&mut self) -> &mut TestsPanel {
        &mut self.tests
    }

    /// Shows the Tests panel and runs the suite.
    pub fn run_tests(&mut self) {
        self.tests.open = true;
        if !self.tests.is_running() {
            self.tests.run_all(&self.project);
        }
    }

    /// Replays a test in the playtest view, stopped after `steps` steps,
    /// with the project's current script (live: edits apply as they are
    /// saved) and level.
    pub fn open_replay(&mut self, path: &Path, steps: Option<usize>) {
        let setup = ReplaySetup {
            stop_after: steps,
            ..ReplaySetup::default()
        };
        let display = self.project.display_path(path);
        let run = match self.project.replay(path, &setup) {
            Ok(run) => run,
            Err(e) => {
                self.console
                    .error(format!("cannot open {}: {e}", display.display()));
                return;
            }
        };
        let game = run.session.game_id().to_string();
        let seed = run.session.seed();
        let level = run
            .session
            .level_path()
            .map(|l| self.project.root().join(l));
        let Some(resume) = self
            .games
            .iter()
            .find(|g| g.id == game)
            .and_then(|g| g.resume)
        else {
            self.console.error(format!(
                "{game} has no playtest view that can open a replay"
            ));
            return;
        };
        match resume(&mut self.project, run.session) {
            Ok(view) => {
                let at = steps.map_or("the end".to_string(), |s| format!("step {s}"));
                self.console.info(format!(
                    "opened {} at {at} ({})",
                    display.display(),
                    run.notes.join("; ")
                ));
                self.playtest
                    .show(PlaytestTarget { game, level }, seed, view);
            }
            Err(e) => self
                .console
                .error(format!("cannot open {}: {e:#}", display.display())),
        }
    }

    /// Starts a playtest of the active file's game (or restarts the last).
    pub fn start_playtest(&mut self) {
        let Some(target) = self
            .playtest_target()
            .or_else(|| self.playtest.running().cloned())
        else {
            self.console
                .info("open a level or a game script to playtest it");
            return;
        };
        let script = self.project.game_script_path(&target.game);
        let mut cx = PlaytestContext {
            project: &mut self.project,
            console: self.console.buffer_mut(),
        };
        self.playtest.start(target, &self.games, &mut cx);
        // The game now holds the script's live slot; follow its prints.
        if !self.live_scripts.contains(&script) && script.is_file() {
            self.load_script(&script);
        }
    }

    fn close_document(&mut self, index: usize, ask: bool) {
        let Some(document) = self.documents.get(index) else {
            return;
        };
        if ask && document.is_dirty() {
            self.prompts.ask(Prompt::CloseTab {
                path: document.path().to_path_buf(),
                name: document.display_path().display().to_string(),
            });
            return;
        }
        self.documents.remove(index);
        self.active = match self.active {
            _ if self.documents.is_empty() => None,
            Some(active) if active > index => Some(active - 1),
            Some(active) if active == index => Some(index.min(self.documents.len() - 1)),
            other => other,
        };
    }

    /// Asks the window to close; unsaved work is asked about first.
    pub fn request_quit(&mut self, ctx: &egui::Context) {
        ctx.send_viewport_cmd(ViewportCommand::Close);
    }

    fn unsaved_names(&self) -> Vec<String> {
        self.documents
            .iter()
            .filter(|d| d.is_dirty())
            .map(|d| d.display_path().display().to_string())
            .collect()
    }

    fn handle_close_request(&mut self, ctx: &egui::Context) {
        if !ctx.input(|i| i.viewport().close_requested()) || self.quitting {
            return;
        }
        let unsaved = self.unsaved_names();
        if !unsaved.is_empty() {
            ctx.send_viewport_cmd(ViewportCommand::CancelClose);
            self.prompts.ask(Prompt::Quit { unsaved });
        }
    }

    fn handle_answer(&mut self, ctx: &egui::Context, prompt: Prompt, answer: Answer) {
        match (prompt, answer) {
            // A failed save keeps the window open; the console says why.
            (Prompt::Quit { .. }, Answer::Save) if self.save_all() => {
                self.quitting = true;
                ctx.send_viewport_cmd(ViewportCommand::Close);
            }
            (Prompt::Quit { .. }, Answer::Discard) => {
                self.quitting = true;
                ctx.send_viewport_cmd(ViewportCommand::Close);
            }
            (Prompt::CloseTab { path, .. }, Answer::Save) => {
                if let Some(index) = self.document_index(&path)
                    && self.save_document(index)
                {
                    self.close_document(index, false);
                }
            }
            (Prompt::CloseTab { path, .. }, Answer::Discard) => {
                if let Some(index) = self.document_index(&path) {
                    self.close_document(index, false);
                }
            }
            (Prompt::ChangedOnDisk { path, content, .. }, Answer::ReloadFromDisk) => {
                if let Some(index) = self.document_index(&path) {
                    self.documents[index].replace_with_disk(content);
                }
            }
            (Prompt::ChangedOnDisk { path, content, .. }, Answer::KeepMine) => {
                if let Some(index) = self.document_index(&path) {
                    self.documents[index].keep_mine(content);
                }
            }
            _ => {}
        }
    }

    fn handle_shortcuts(&mut self, ctx: &egui::Context) {
        if self.prompts.current().is_some() {
            return;
        }
        // The more specific shortcut first: Ctrl+Shift+S also matches Ctrl+S.
        if ctx.input_mut(|i| i.consume_shortcut(&SAVE_ALL)) {
            self.save_all();
        }
        if ctx.input_mut(|i| i.consume_shortcut(&SAVE)) {
            self.save_active();
        }
        if ctx.input_mut(|i| i.consume_shortcut(&CLOSE_TAB))
            && let Some(index) = self.active
        {
            self.close_document(index, true);
        }
        if ctx.input_mut(|i| i.consume_shortcut(&PLAY)) {
            self.start_playtest();
        }
    }

    /// Draws one frame.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.poll_disk();
        self.drain_prints();
        self.handle_shortcuts(&ctx);
        self.handle_close_request(&ctx);

        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        egui::Panel::bottom("status")
            .resizable(false)
            .show(ui, |ui| self.status_ui(ui));
        egui::Panel::bottom("console")
            .resizable(true)
            .default_size(200.0)
            .min_size(80.0)
            .show(ui, |ui| {
                if let Some(location) = self.console.ui(ui) {
                    self.go_to(&location);
                }
            });
        egui::Panel::left("tree")
            .resizable(true)
            .default_size(230.0)
            .min_size(150.0)
            .show(ui, |ui| {
                ui.add_space(4.0);
                ui.strong("Project");
                ui.weak(
                    self.project
                        .root()
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                );
                ui.separator();
                let documents = &self.documents;
                let is_dirty =
                    |path: &Path| documents.iter().any(|d| d.path() == path && d.is_dirty());
                let active = self
                    .active
                    .and_then(|i| documents.get(i))
                    .map(Document::path);
                if let Some(path) = self.tree.ui(ui, active, &is_dirty) {
                    self.open_file(&path);
                }
            });
        egui::Panel::right("playtest")
            .resizable(true)
            .default_size(440.0)
            .min_size(220.0)
            .show(ui, |ui| {
                ui.add_space(4.0);
                let target = self.playtest_target();
                let mut cx = PlaytestContext {
                    project: &mut self.project,
                    console: self.console.buffer_mut(),
                };
                match self.playtest.ui(ui, target.as_ref(), &mut cx) {
                    Some(PlaytestRequest::Start) => self.start_playtest(),
                    Some(PlaytestRequest::Stop) => self.playtest.stop(),
                    None => {}
                }
            });
        egui::CentralPanel::default().show(ui, |ui| self.documents_ui(ui));
        if let Some(TestsRequest::Open { path, steps }) = self.tests.ui(&ctx, &self.project) {
            self.open_replay(&path, steps);
        }

        if let Some((prompt, answer)) = self.prompts.ui(&ctx) {
            self.handle_answer(&ctx, prompt, answer);
        }
        if let Some(watcher) = self.watcher.take() {
            self.watch = Some(DiskWatch::spawn(watcher, ctx.clone()));
        }
        ctx.request_repaint_after(IDLE_WAKE);
    }

    fn menu_ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                let has_document = self.active.is_some();
                if ui
                    .add_enabled(
                        has_document,
                        egui::Button::new("Save").shortcut_text("Ctrl+S"),
                    )
                    .clicked()
                {
                    self.save_active();
                }
                if ui
                    .add(egui::Button::new("Save all").shortcut_text("Ctrl+Shift+S"))
                    .clicked()
                {
                    self.save_all();
                }
                if ui
                    .add_enabled(
                        has_document,
                        egui::Button::new("Close tab").shortcut_text("Ctrl+W"),
                    )
                    .clicked()
                    && let Some(index) = self.active
                {
                    self.close_document(index, true);
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    self.request_quit(&ctx);
                }
            });
            ui.menu_button("Run", |ui| {
                if ui
                    .add(egui::Button::new("Playtest").shortcut_text("F5"))
                    .clicked()
                {
                    self.start_playtest();
                }
                if ui
                    .add_enabled(self.playtest.running().is_some(), egui::Button::new("Stop"))
                    .clicked()
                {
                    self.playtest.stop();
                }
                ui.separator();
                if ui
                    .button("Tests")
                    .on_hover_text("Run the replay suite (tests/replays/) and review changes")
                    .clicked()
                {
                    self.run_tests();
                }
            });
        });
    }

    fn status_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.weak(self.project.root().display().to_string());
            if let Some(document) = self.active_document() {
                ui.separator();
                ui.label(document.display_path().display().to_string());
                let cursor = document.cursor();
                ui.weak(format!("Ln {}, Col {}", cursor.line, cursor.column));
            }
            let unsaved = self.documents.iter().filter(|d| d.is_dirty()).count();
            if unsaved > 0 {
                ui.separator();
                ui.label(
                    RichText::new(format!("● {unsaved} unsaved")).color(ui.visuals().warn_fg_color),
                );
            }
            let watching =
                self.watcher.is_some() || self.watch.as_ref().is_some_and(DiskWatch::is_running);
            if !watching {
                ui.separator();
                ui.label(RichText::new("not watching disk").color(ui.visuals().warn_fg_color));
            }
        });
    }

    fn documents_ui(&mut self, ui: &mut egui::Ui) {
        if self.documents.is_empty() {
            ui.add_space(ui.available_height() * 0.3);
            ui.vertical_centered(|ui| {
                ui.heading("Tessera");
                ui.add_space(8.0);
                ui.label("Open a script or a level from the project tree.");
                ui.weak("Ctrl+S saves and reloads it live · F5 playtests · errors in the console are clickable");
            });
            return;
        }
        match tab_bar(ui, &self.documents, self.active) {
            Some(TabAction::Activate(index)) => self.active = Some(index),
            Some(TabAction::Close(index)) => self.close_document(index, true),
            None => {}
        }
        ui.separator();
        let Some(document) = self.active.and_then(|i| self.documents.get_mut(i)) else {
            return;
        };
        let mut cx = PlaytestContext {
            project: &mut self.project,
            console: self.console.buffer_mut(),
        };
        document.ui(ui, &self.games, &mut cx);
    }

    /// Opens the file a console line names, at its line.
    fn go_to(&mut self, location: &SourceLocation) {
        if let Some(index) = self.open_file(&location.path) {
            self.documents[index].jump_to_line(location.line);
        }
    }
}

fn is_script(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("lua" | "luau")
    )
}

fn is_level(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some("ron")
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
