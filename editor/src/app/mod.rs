//! The editor window: project tree, tabs, console, playtest area and the
//! prompts that guard unsaved work. [`EditorApp::ui`] draws one frame into
//! any `Ui`, so eframe and egui_kittest drive the same code.
//!
//! This file holds the window's state and its frame; `documents.rs` open
//! files and the disk, `commands.rs` the one `Command` enum that menus,
//! shortcuts, the tree and the playtest toolbar make, and `run`, `playtest.rs` starting games and replays, `layout.rs` the
//! panels (playtest docked, maximised or popped out) and the remembered
//! window state.

mod commands;
mod documents;
mod layout;
mod playtest;
mod resume;

pub use commands::Command;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tessera_ui::text::count;

use anyhow::Context as _;
use tessera_host::project::Project;
use tessera_host::script::watcher::FolderWatcher;

use crate::console::Console;
use crate::disk_watch::DiskWatch;
use crate::document::Document;
use crate::files::FileDialog;
use crate::playtest::GameUi;
use crate::playtest_area::PlaytestArea;
use crate::prompts::{Prompt, Prompts};
use crate::restore::Remembered;
use crate::tests_panel::{TestsPanel, TestsRequest};
use crate::tree::ProjectTree;
use tessera_host::script::versions::DiskVersions;

/// How often an idle editor wakes up anyway (tree rescans, folders that
/// appear); file changes wake it at once through [`DiskWatch`].
const IDLE_WAKE: Duration = Duration::from_secs(1);

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
    /// Save all on quit, under way: the files still to write, one a frame
    /// under a "Saving…" dialog, so the window shows what it does.
    saving_for_quit: Option<SavingForQuit>,
    /// The games' editor UIs (playtest views, level editors).
    games: Vec<GameUi>,
    /// The replay suite, run in the background.
    tests: TestsPanel,
    /// A file operation asking for a name or a confirmation.
    file_dialog: Option<FileDialog>,
    /// File ▸ Generate…: the active game's generator as a form.
    generate_dialog: Option<crate::generate_dialog::GenerateDialog>,
    /// The last spec each game's Generate… form was left with (the words
    /// after `generate GAME`), so reopening it keeps the designer's
    /// options for the session.
    generate_specs: BTreeMap<String, Vec<String>>,
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
    /// The game record the game file beside the state file holds now.
    written_game: Option<String>,
    /// When the state file was last checked for changes (egui time).
    state_checked: f64,
    /// The quick-open or find-in-project box, when open.
    search: Option<crate::search::Search>,
    /// Each frame's start and length, when asked for (`TESSERA_FRAME_LOG`).
    frame_log: Option<crate::frame_log::FrameLog>,
}

impl EditorApp {
    /// Opens the project at `root`: loads its scripts (reporting errors in
    /// the console) and starts watching `scripts/` and `levels/`.
    pub fn open(root: &Path) -> anyhow::Result<Self> {
        Self::open_with_games(
            root,
            tessera_builtin::registry(),
            tessera_builtin_ui::game_uis(),
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
            saving_for_quit: None,
            games,
            tests: TestsPanel::default(),
            project,
            file_dialog: None,
            generate_dialog: None,
            generate_specs: BTreeMap::new(),
            save_before_playtest: false,
            scratch: None,
            state_file: None,
            layout: Remembered::default(),
            written: Remembered::default(),
            written_game: None,
            state_checked: f64::NEG_INFINITY,
            search: None,
            frame_log: None,
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
            "opened {}: {}, {}",
            crate::home::shown_folder(app.project.root()),
            count(scripts, "script"),
            count(levels, "level")
        ));
        Ok(app)
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

    /// The console, to add lines to (tests, embedding hosts).
    pub fn console_mut(&mut self) -> &mut Console {
        &mut self.console
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

    /// The file dialog being shown, if any.
    pub fn file_dialog(&self) -> Option<&FileDialog> {
        self.file_dialog.as_ref()
    }

    /// Logs every frame from now on to `path` (its start, its length and
    /// whether an AI worker computes): the measure of "the UI never waits
    /// on the AI".
    pub fn log_frames_to(&mut self, path: &Path) -> anyhow::Result<()> {
        let log = crate::frame_log::FrameLog::create(path)
            .with_context(|| format!("cannot write the frame log {}", path.display()))?;
        self.frame_log = Some(log);
        Ok(())
    }

    /// Draws one frame.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let started = std::time::Instant::now();
        self.frame(ui);
        if let Some(log) = self.frame_log.as_mut()
            && let Err(e) = log.frame(started, started.elapsed(), self.playtest.ai_computing())
        {
            // Reported once; the editor works on without the log.
            self.frame_log = None;
            self.console
                .error(format!("error cannot write the frame log: {e}"));
        }
    }

    fn frame(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.poll_disk();
        self.drain_prints();
        self.handle_shortcuts(&ctx);
        self.handle_close_request(&ctx);

        self.panels(ui);
        // A game's UI asked for a file at a line (a finding clicked in a
        // level editor): shown as a console error's click shows it.
        if let Some(at) = tessera_ui::take_open_request(&ctx) {
            self.go_to(&crate::console::SourceLocation {
                path: at.path,
                line: at.line,
                column: None,
            });
        }
        if let Some(TestsRequest::Open { path, steps }) = self.tests.ui(&ctx, &self.project) {
            self.open_replay(&path, steps);
        }

        if let Some((prompt, answer)) = self.prompts.ui(&ctx) {
            self.handle_answer(&ctx, prompt, answer);
        }
        self.save_for_quit(&ctx);
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
        if let Some(dialog) = self.generate_dialog.as_mut()
            && let Some(generation) = dialog.ui(&ctx)
        {
            if let Some(dialog) = self.generate_dialog.take() {
                self.generate_specs
                    .insert(dialog.game().to_string(), dialog.command_line());
            }
            self.generated(generation);
        }
        if let Some(watcher) = self.watcher.take() {
            self.watch = Some(DiskWatch::spawn(watcher, ctx.clone()));
        }
        self.persist(&ctx, false);
        ctx.request_repaint_after(IDLE_WAKE);
    }
}

fn is_script(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("lua" | "luau")
    )
}

fn is_level(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some("ron") || crate::document::is_level_json(path)
}

/// Save all on quit, one file a frame (see [`EditorApp::save_for_quit`]).
struct SavingForQuit {
    /// The documents still to write (by path: a tab may close meanwhile).
    left: std::collections::VecDeque<PathBuf>,
    /// How many there were.
    total: usize,
    /// Frames the dialog was drawn in: nothing is written before it was
    /// seen.
    frames_drawn: u8,
    /// Whether every write so far went through.
    all_saved: bool,
}
