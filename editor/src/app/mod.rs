//! The editor window: project tree, tabs, console, playtest area and the
//! prompts that guard unsaved work. [`EditorApp::ui`] draws one frame into
//! any `Ui`, so eframe and egui_kittest drive the same code.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use egui::{Key, KeyboardShortcut, Modifiers, RichText, ViewportCommand};
use tessera_host::level::{MAX_FILE_BYTES, read_bytes_capped, write_atomic};
use tessera_host::project::{ChangeReport, Project};
use tessera_host::registry::ReplaySetup;
use tessera_host::script::watcher::{DEBOUNCE, FolderWatcher};

use crate::console::{Console, SourceLocation};
use crate::disk_versions::DiskVersions;
use crate::disk_watch::DiskWatch;
use crate::document::{Document, DocumentKind};
use crate::files::{FileDialog, FileOp};
use crate::playtest::{GameUi, PlaytestContext};
use crate::playtest_area::{PlaytestArea, PlaytestRequest, PlaytestTarget};
use crate::prompts::{Answer, Prompt, Prompts};
use crate::restore::Remembered;
use crate::search::{Search, SearchKind};
use crate::tabs::{TabAction, tab_bar};
use crate::tests_panel::{TestsPanel, TestsRequest};
use crate::tree::{ProjectTree, TreeAction};

/// How often an idle editor wakes up anyway (tree rescans, folders that
/// appear); file changes wake it at once through [`DiskWatch`].
const IDLE_WAKE: Duration = Duration::from_secs(1);

const SAVE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
const SAVE_ALL: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::S);
const CLOSE_TAB: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::W);
const PLAY: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F5);
const MAXIMISE_PLAYTEST: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F11);
const QUICK_OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::P);
const FIND_IN_PROJECT: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::F);
const NEW_LEVEL: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);

/// The popped-out playtest's window.
fn playtest_viewport() -> egui::ViewportId {
    egui::ViewportId::from_hash_of("playtest window")
}

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
    /// A file operation asking for a name or a confirmation.
    file_dialog: Option<FileDialog>,
    /// F5 with unsaved level edits: save first (true) or play the buffer.
    save_before_playtest: bool,
    /// Where unsaved level buffers are written for a playtest.
    scratch: Option<tempfile::TempDir>,
    /// Where the window's state is remembered between runs (`None`: not
    /// remembered).
    state_file: Option<PathBuf>,
    /// Panel sizes and the playtest toggle as drawn last frame.
    layout: Remembered,
    /// What the state file holds now.
    written: Remembered,
    /// When the state file was last checked for changes (egui time).
    state_checked: f64,
    /// The quick-open or find-in-project box, when open.
    search: Option<crate::search::Search>,
}

impl EditorApp {
    /// Opens the project at `root`: loads its scripts (reporting errors in
    /// the console) and starts watching `scripts/` and `levels/`.
    pub fn open(root: &Path) -> anyhow::Result<Self> {
        Self::open_with_games(
            root,
            tessera_builtin::registry(),
            tessera_builtin::game_uis(),
        )
    }

    /// Opens the project with a chosen set of game plugins and their UIs
    /// (tests bring their own small games).
    pub fn open_with_games(
        root: &Path,
        registry: tessera_host::Registry,
        games: Vec<GameUi>,
    ) -> anyhow::Result<Self> {
        let project = Project::open(root, registry)
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
            file_dialog: None,
            save_before_playtest: false,
            scratch: None,
            state_file: None,
            layout: Remembered::default(),
            written: Remembered::default(),
            state_checked: f64::NEG_INFINITY,
            search: None,
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
                self.playtest.level_saved(&path);
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
                if let Ok(bytes) = read_bytes_capped(path, MAX_FILE_BYTES) {
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
        if let Some(index) = self.document_index(path) {
            self.documents[index].set_reload_error(report.result.clone().err());
        }
        if report.result.is_ok() {
            let shown = self.project.display_path(path);
            self.console.resolve(&shown.display().to_string());
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
        let bytes = match read_bytes_capped(path, MAX_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(_) if !path.exists() && !path.is_symlink() => {
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
                    .error(format!("error {}: {}", display.display(), e.message));
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
        self.playtest.level_saved(path);
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
        let mut cx = PlaytestContext {
            project: &mut self.project,
            console: &mut Vec::new(),
        };
        match crate::playtest_area::open_view(&self.games, &mut cx, run.session) {
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
        self.start_target(target);
    }

    /// Starts the running game again on its level file as saved now.
    pub fn restart_playtest(&mut self) {
        let Some(running) = self.playtest.running().cloned() else {
            return;
        };
        let level = self.playtest.running_level_file().map(Path::to_path_buf);
        self.start_target(PlaytestTarget { level, ..running });
    }

    /// Whether F5 saves a level with unsaved edits first (otherwise it
    /// plays the buffer as it is).
    pub fn save_before_playtest(&self) -> bool {
        self.save_before_playtest
    }

    /// Chooses what F5 does with unsaved level edits (remembered).
    pub fn set_save_before_playtest(&mut self, save: bool) {
        self.save_before_playtest = save;
    }

    /// Writes the unsaved buffer of the level at `index` to a scratch file
    /// the game can load, named like the level.
    fn scratch_copy(&mut self, index: usize) -> anyhow::Result<PathBuf> {
        let document = &self.documents[index];
        let text = document.text_to_save()?;
        if self.scratch.is_none() {
            self.scratch = Some(
                tempfile::Builder::new()
                    .prefix("tessera-playtest-")
                    .tempdir()
                    .context("cannot make a folder for the unsaved level")?,
            );
        }
        let folder = self.scratch.as_ref().map(|d| d.path().to_path_buf());
        let name = document
            .path()
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_else(|| "level.ron".into());
        let path = folder.unwrap_or_default().join(name);
        write_atomic(&path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(path)
    }

    fn start_target(&mut self, mut target: PlaytestTarget) {
        let mut buffer_of = None;
        if let Some(level) = target.level.clone()
            && let Some(index) = self.document_index(&level)
            && self.documents[index].is_dirty()
        {
            if self.save_before_playtest {
                if !self.save_document(index) {
                    return;
                }
            } else {
                match self.scratch_copy(index) {
                    Ok(copy) => {
                        target.level = Some(copy);
                        buffer_of = Some(level);
                    }
                    Err(e) => {
                        self.console.error(format!("error {e:#}"));
                        return;
                    }
                }
            }
        }
        self.playtest.set_buffer_of(buffer_of);
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

    /// Remembers the window's state in `path` from now on, and restores
    /// what it holds: panel sizes, open tabs, the shown tab, the F5 choice
    /// and the last playtest (started again).
    pub fn remember_in(&mut self, path: PathBuf) {
        let state = Remembered::load(&path);
        self.state_file = Some(path);
        self.layout = state.clone();
        self.save_before_playtest = state.save_before_playtest;
        for tab in &state.tabs {
            if self.project.absolute(tab).is_file() {
                self.open_file(tab);
            }
        }
        if let Some(active) = state.active.filter(|&i| i < self.documents.len()) {
            self.active = Some(active);
        }
        if let Some((game, level)) = &state.playtest {
            let level = level.as_ref().map(|l| self.project.absolute(l));
            if level.as_ref().is_none_or(|l| l.is_file()) {
                self.start_target(PlaytestTarget {
                    game: game.clone(),
                    level,
                });
            }
        }
        self.written = state;
    }

    /// The state as it would be remembered now.
    pub fn remembered(&self, ctx: &egui::Context) -> Remembered {
        let relative = |path: &Path| self.project.display_path(path);
        // eframe reports the window's inner size; a headless host only its
        // screen, which is the same size.
        let window = ctx
            .input(|i| i.viewport().inner_rect.unwrap_or(i.content_rect()))
            .size();
        let window = (window.x > 0.0).then(|| [window.x.round(), window.y.round()]);
        Remembered {
            window: window.or(self.written.window),
            tabs: self.documents.iter().map(|d| relative(d.path())).collect(),
            active: self.active,
            playtest: self.playtest.running().map(|t| {
                let level = self
                    .playtest
                    .running_level_file()
                    .map(relative)
                    .or_else(|| t.level.as_deref().map(relative));
                (t.game.clone(), level)
            }),
            save_before_playtest: self.save_before_playtest,
            ..self.layout.clone()
        }
    }

    /// Writes the state file when the state changed (checked twice a
    /// second), or at once with `force` (on exit).
    pub fn persist(&mut self, ctx: &egui::Context, force: bool) {
        let Some(path) = self.state_file.clone() else {
            return;
        };
        let now = ctx.input(|i| i.time);
        if !force && now - self.state_checked < 0.5 && now >= self.state_checked {
            return;
        }
        self.state_checked = now;
        let state = self.remembered(ctx);
        if state == self.written {
            return;
        }
        match state.save(&path) {
            Ok(()) => self.written = state,
            Err(e) => {
                // Reported once; the editor works on without remembering.
                self.console.error(format!(
                    "error cannot remember the window in {}: {e:#}",
                    path.display()
                ));
                self.state_file = None;
            }
        }
    }

    /// Whether the playtest takes the whole window (F11).
    pub fn playtest_maximised(&self) -> bool {
        self.layout.playtest_maximised
    }

    /// Whether the playtest is in a window of its own.
    pub fn playtest_popped_out(&self) -> bool {
        self.layout.playtest_popped_out
    }

    /// The file dialog being shown, if any.
    pub fn file_dialog(&self) -> Option<&FileDialog> {
        self.file_dialog.as_ref()
    }

    /// Starts a file operation from the tree or the File menu.
    fn file_action(&mut self, action: TreeAction) {
        let registry = self.project.registry();
        match action {
            TreeAction::Open(path) => {
                self.open_file(&path);
            }
            TreeAction::NewLevel(game) => {
                let game = game.or_else(|| {
                    self.active_document()
                        .and_then(|d| d.game(self.project.registry()))
                });
                self.file_dialog = Some(FileDialog::new_level(registry, game.as_deref()));
            }
            TreeAction::NewScript => {
                self.file_dialog = Some(FileDialog::new_script(registry, self.project.root()));
            }
            TreeAction::Rename(path) => self.file_dialog = Some(FileDialog::rename(&path)),
            TreeAction::Duplicate(path) => match crate::files::duplicate(&path) {
                Ok(copy) => self.file_done(FileOp::Created(copy)),
                Err(e) => self.console.error(format!("error {e:#}")),
            },
            TreeAction::Delete(path) => {
                let unsaved = self
                    .document_index(&path)
                    .is_some_and(|i| self.documents[i].is_dirty());
                self.file_dialog = Some(FileDialog::Delete {
                    path,
                    unsaved,
                    error: None,
                });
            }
        }
    }

    /// Follows a finished file operation: open what was created, move the
    /// tab of what was renamed, close the tab of what was deleted (no tab
    /// ever points at a missing file).
    fn file_done(&mut self, op: FileOp) {
        self.tree.rescan();
        match op {
            FileOp::Created(path) => {
                let display = self.project.display_path(&path);
                self.console.info(format!("created {}", display.display()));
                if is_script(&path) {
                    self.load_script(&path);
                }
                self.open_file(&path);
            }
            FileOp::Renamed { from, to } => {
                let (old, new) = (
                    self.project.display_path(&from),
                    self.project.display_path(&to),
                );
                self.console
                    .info(format!("renamed {} to {}", old.display(), new.display()));
                if let Some(index) = self.document_index(&from) {
                    self.documents[index].relocate(&to, &new);
                }
                self.versions.forget(&from);
                self.live_scripts.remove(&from);
                for path in [from, to] {
                    if is_script(&path) || is_level(&path) {
                        let report = self.project.handle_change(&path);
                        self.report(&path, report);
                    }
                }
            }
            FileOp::Deleted(path) => {
                if let Some(index) = self.document_index(&path) {
                    self.close_document(index, false);
                }
                self.versions.forget(&path);
                self.live_scripts.remove(&path);
                if is_script(&path) || is_level(&path) {
                    let report = self.project.handle_change(&path);
                    self.report(&path, report);
                } else {
                    let display = self.project.display_path(&path);
                    self.console.info(format!("removed {}", display.display()));
                }
            }
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
        if self.prompts.current().is_some() || self.file_dialog.is_some() {
            return;
        }
        if ctx.input_mut(|i| i.consume_shortcut(&FIND_IN_PROJECT)) {
            self.search = Some(Search::new(SearchKind::FindInProject));
        }
        if ctx.input_mut(|i| i.consume_shortcut(&QUICK_OPEN)) {
            self.search = Some(Search::new(SearchKind::QuickOpen));
        }
        if ctx.input_mut(|i| i.consume_shortcut(&MAXIMISE_PLAYTEST))
            && !self.layout.playtest_popped_out
        {
            self.layout.playtest_maximised = !self.layout.playtest_maximised;
        }
        if ctx.input_mut(|i| i.consume_shortcut(&NEW_LEVEL)) {
            self.file_action(TreeAction::NewLevel(None));
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
        let popped_out = self.layout.playtest_popped_out;
        if self.layout.playtest_maximised && !popped_out {
            egui::CentralPanel::default().show(ui, |ui| self.playtest_ui(ui));
        } else {
            let console = egui::Panel::bottom("console")
                .resizable(true)
                .default_size(self.layout.console_height)
                .min_size(80.0)
                .show(ui, |ui| {
                    if let Some(location) = self.console.ui(ui) {
                        self.go_to(&location);
                    }
                });
            self.layout.console_height = console.response.rect.height().round();
            let tree = egui::Panel::left("tree")
                .resizable(true)
                .default_size(self.layout.tree_width)
                .min_size(150.0)
                .show(ui, |ui| self.tree_ui(ui));
            self.layout.tree_width = tree.response.rect.width().round();
            if !popped_out {
                let playtest = egui::Panel::right("playtest")
                    .resizable(true)
                    .default_size(self.layout.playtest_width)
                    .min_size(220.0)
                    .show(ui, |ui| self.playtest_ui(ui));
                self.layout.playtest_width = playtest.response.rect.width().round();
            }
            egui::CentralPanel::default().show(ui, |ui| self.documents_ui(ui));
        }
        if popped_out {
            self.playtest_window(&ctx);
        }
        if let Some(TestsRequest::Open { path, steps }) = self.tests.ui(&ctx, &self.project) {
            self.open_replay(&path, steps);
        }

        if let Some((prompt, answer)) = self.prompts.ui(&ctx) {
            self.handle_answer(&ctx, prompt, answer);
        }
        if let Some(search) = self.search.as_mut() {
            let root = self.project.root().to_path_buf();
            let files: Vec<(PathBuf, String)> = self
                .tree
                .files()
                .into_iter()
                .map(|p| {
                    let shown = crate::search::shown(&root, &p);
                    (p, shown)
                })
                .collect();
            if let Some(outcome) = search.ui(&ctx, &files) {
                self.search = None;
                if let Some(hit) = outcome
                    && let Some(index) = self.open_file(&hit.path)
                    && let Some(line) = hit.line
                {
                    self.documents[index].jump_to_line(line);
                }
            }
        }
        if self.prompts.current().is_none()
            && let Some(dialog) = self.file_dialog.as_mut()
            && let Some(outcome) = dialog.ui(&ctx, self.project.registry(), self.project.root())
        {
            self.file_dialog = None;
            if let Some(op) = outcome {
                self.file_done(op);
            }
        }
        if let Some(watcher) = self.watcher.take() {
            self.watch = Some(DiskWatch::spawn(watcher, ctx.clone()));
        }
        self.persist(&ctx, false);
        ctx.request_repaint_after(IDLE_WAKE);
    }

    fn tree_ui(&mut self, ui: &mut egui::Ui) {
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
        let is_dirty = |path: &Path| documents.iter().any(|d| d.path() == path && d.is_dirty());
        let active = self
            .active
            .and_then(|i| documents.get(i))
            .map(Document::path);
        if let Some(action) = self.tree.ui(ui, active, &is_dirty) {
            self.file_action(action);
        }
    }

    /// The playtest in a window of its own (a native window where the
    /// platform has them, else a window inside the editor); closing it
    /// docks the playtest again.
    fn playtest_window(&mut self, ctx: &egui::Context) {
        let builder = egui::ViewportBuilder::default()
            .with_title("Tessera playtest")
            .with_inner_size([1000.0, 900.0])
            .with_min_inner_size([320.0, 240.0]);
        ctx.show_viewport_immediate(playtest_viewport(), builder, |ui, class| {
            if class == egui::ViewportClass::EmbeddedWindow {
                // A window inside the editor keeps its size, so the board
                // scales to it rather than the window to the board.
                ui.set_min_size(egui::vec2(960.0, 820.0));
                self.playtest_ui(ui);
            } else {
                egui::CentralPanel::default().show(ui, |ui| self.playtest_ui(ui));
                if ui.input(|i| i.viewport().close_requested()) {
                    self.layout.playtest_popped_out = false;
                }
            }
        });
    }

    fn playtest_ui(&mut self, ui: &mut egui::Ui) {
        ui.add_space(4.0);
        let maximised = self.layout.playtest_maximised;
        let popped_out = self.layout.playtest_popped_out;
        let toggle = if maximised {
            "🗗 Restore layout"
        } else {
            "🗖 Maximise"
        };
        ui.horizontal(|ui| {
            if popped_out {
                if ui
                    .button("↩ Dock")
                    .on_hover_text("Put the playtest back beside the editor")
                    .clicked()
                {
                    self.layout.playtest_popped_out = false;
                }
                return;
            }
            if ui
                .button(toggle)
                .on_hover_text("Let the playtest take the whole window (F11)")
                .clicked()
            {
                self.layout.playtest_maximised = !maximised;
            }
            if ui
                .button("⬈ Pop out")
                .on_hover_text("Play in a window of its own, next to the editor")
                .clicked()
            {
                self.layout.playtest_popped_out = true;
                self.layout.playtest_maximised = false;
            }
        });
        let target = self.playtest_target();
        let mut cx = PlaytestContext {
            project: &mut self.project,
            console: self.console.buffer_mut(),
        };
        match self.playtest.ui(ui, target.as_ref(), &mut cx) {
            Some(PlaytestRequest::Start) => self.start_playtest(),
            Some(PlaytestRequest::Stop) => self.playtest.stop(),
            Some(PlaytestRequest::Restart) => self.restart_playtest(),
            None => {}
        }
    }

    fn menu_ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                let has_document = self.active.is_some();
                if ui
                    .add(egui::Button::new("New level…").shortcut_text("Ctrl+N"))
                    .clicked()
                {
                    self.file_action(TreeAction::NewLevel(None));
                }
                if ui.button("New script…").clicked() {
                    self.file_action(TreeAction::NewScript);
                }
                let active_path = self.active_document().map(|d| d.path().to_path_buf());
                if ui
                    .add_enabled(has_document, egui::Button::new("Rename…"))
                    .clicked()
                    && let Some(path) = active_path.clone()
                {
                    self.file_action(TreeAction::Rename(path));
                }
                if ui
                    .add_enabled(has_document, egui::Button::new("Duplicate"))
                    .clicked()
                    && let Some(path) = active_path.clone()
                {
                    self.file_action(TreeAction::Duplicate(path));
                }
                if ui
                    .add_enabled(has_document, egui::Button::new("Delete…"))
                    .clicked()
                    && let Some(path) = active_path
                {
                    self.file_action(TreeAction::Delete(path));
                }
                ui.separator();
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
                if ui
                    .add(egui::Button::new("Go to file…").shortcut_text("Ctrl+P"))
                    .clicked()
                {
                    self.search = Some(Search::new(SearchKind::QuickOpen));
                }
                if ui
                    .add(egui::Button::new("Find in project…").shortcut_text("Ctrl+Shift+F"))
                    .clicked()
                {
                    self.search = Some(Search::new(SearchKind::FindInProject));
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
                ui.label("F5 with unsaved level edits:");
                ui.radio_value(
                    &mut self.save_before_playtest,
                    false,
                    "Play the edits unsaved",
                );
                ui.radio_value(&mut self.save_before_playtest, true, "Save the level first");
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
