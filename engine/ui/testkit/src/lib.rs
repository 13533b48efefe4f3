//! The kittest rig of every UI crate's tests (the games' `ui` crates and
//! the editor): a game's playtest view or level editor hosted as the
//! editor's panels host it, a throwaway project holding the shipped
//! scripts, and the pointer gestures and waits the tests repeat. A
//! dev-dependency only, with no test binary of its own.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_host::driver::Driver;
use tessera_host::project::Project;
use tessera_ui::{ConsoleLine, LevelEditor, PlaytestContext, PlaytestView};

pub mod layout;

pub use layout::{Layout, Sweep};

/// The one harness builder of every UI crate's tests (the games' views,
/// their level editors, the whole editor): a window of `size` in the
/// editor's look (its fonts and button padding: a view measured in egui's
/// default look passed while its cells grew in the editor), drawing `draw`
/// over `state` each frame. One builder, so a layout sweep measures every
/// host alike.
pub fn window<S: 'static>(
    size: egui::Vec2,
    draw: impl FnMut(&mut egui::Ui, &mut S) + 'static,
    state: S,
) -> Harness<'static, S> {
    Harness::builder()
        .with_size(size)
        .with_context_setup(tessera_ui::style::apply)
        .build_ui_state(draw, state)
}

/// The repository root (the shipped `scripts/` and `levels/`).
pub fn repo_root() -> PathBuf {
    tessera_testkit::repo_root()
}

/// A fresh project folder holding the repository's files named by
/// `files` (`scripts/sand.lua`, `levels/tetris/feed_1_first_taste.ron`)
/// at the same places, with `scripts/` and `levels/` made even when empty.
pub fn temp_project(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for folder in ["scripts", "levels"] {
        std::fs::create_dir_all(dir.path().join(folder)).expect("a project folder");
    }
    for file in files {
        copy_in(dir.path(), file);
    }
    dir
}

/// Copies the repository's `file` into the project at `root`, at the same
/// relative place.
pub fn copy_in(root: &Path, file: &str) {
    let to = root.join(file);
    if let Some(folder) = to.parent() {
        std::fs::create_dir_all(folder).expect("the file's folder");
    }
    std::fs::copy(repo_root().join(file), &to)
        .unwrap_or_else(|e| panic!("cannot copy {file}: {e}"));
}

/// A game's playtest view as the playtest panel hosts it: the view, the
/// project it plays in, the console it writes to and the host's driver of
/// its AI seats.
pub struct Playing<V> {
    /// The view under test.
    pub view: V,
    /// The project the game was started in.
    pub project: Project,
    /// What the view wrote to the console.
    pub console: Vec<ConsoleLine>,
    /// The host's driver of the AI seats (used with [`Playing::driving_ai`]).
    pub driver: Driver,
    drives_ai: bool,
    /// The project's temporary folder, kept as long as the harness.
    pub folder: Option<tempfile::TempDir>,
}

impl<V: PlaytestView + 'static> Playing<V> {
    /// `view` playing in `project`; AI seats wait (tests step them).
    pub fn new(view: V, project: Project) -> Self {
        Self {
            view,
            project,
            console: Vec::new(),
            driver: Driver::default(),
            drives_ai: false,
            folder: None,
        }
    }

    /// Drives the AI seats each frame as the playtest panel does (a
    /// decision on a worker, the "thinking" line above the view).
    pub fn driving_ai(mut self) -> Self {
        self.drives_ai = true;
        self
    }

    /// Keeps the project's temporary folder for as long as the harness.
    pub fn in_folder(mut self, folder: tempfile::TempDir) -> Self {
        self.folder = Some(folder);
        self
    }

    /// A harness of `size` drawing the view each frame.
    pub fn harness(self, size: egui::Vec2) -> Harness<'static, Self> {
        window(
            size,
            |ui, s: &mut Self| {
                let mut cx = PlaytestContext {
                    project: &mut s.project,
                    console: &mut s.console,
                };
                if s.drives_ai {
                    tessera_ui::drive_view(&mut s.view, &mut s.driver, ui, &mut cx);
                }
                s.view.ui(ui, &mut cx);
            },
            self,
        )
    }
}

/// A game's visual level editor as the document tab hosts it.
pub struct Editing<E> {
    /// The editor under test.
    pub editor: E,
    /// The project whose scripts the editor's validation reads.
    pub project: Project,
    /// What the editor wrote to the console.
    pub console: Vec<ConsoleLine>,
    /// The project's temporary folder, kept as long as the harness.
    pub folder: Option<tempfile::TempDir>,
}

impl<E: LevelEditor + 'static> Editing<E> {
    /// `editor` in `project`.
    pub fn new(editor: E, project: Project) -> Self {
        Self {
            editor,
            project,
            console: Vec::new(),
            folder: None,
        }
    }

    /// Keeps the project's temporary folder for as long as the harness.
    pub fn in_folder(mut self, folder: tempfile::TempDir) -> Self {
        self.folder = Some(folder);
        self
    }

    /// A harness of `size` drawing the editor each frame.
    pub fn harness(self, size: egui::Vec2) -> Harness<'static, Self> {
        window(
            size,
            |ui, s: &mut Self| {
                let mut cx = PlaytestContext {
                    project: &mut s.project,
                    console: &mut s.console,
                };
                s.editor.ui(ui, &mut cx);
            },
            self,
        )
    }
}

/// How long a test waits for a worker (an AI, a solver, the suite) before
/// it fails.
pub const WAIT_LIMIT: Duration = Duration::from_secs(30);

/// Steps frame by frame (a running job or game repaints every frame, so
/// the harness never idles) until `done` holds; fails naming `what` after
/// [`WAIT_LIMIT`].
pub fn step_until<S>(
    harness: &mut Harness<'_, S>,
    what: &str,
    done: impl Fn(&Harness<'_, S>) -> bool,
) {
    step_until_within(harness, what, WAIT_LIMIT, done);
}

/// [`step_until`] with its own time limit.
pub fn step_until_within<S>(
    harness: &mut Harness<'_, S>,
    what: &str,
    limit: Duration,
    done: impl Fn(&Harness<'_, S>) -> bool,
) {
    let deadline = Instant::now() + limit;
    while !done(harness) {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        harness.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Steps until a label containing `text` shows (at most [`WAIT_LIMIT`]).
pub fn wait_for<S>(harness: &mut Harness<'_, S>, text: &str) {
    step_until(harness, &format!("a label with `{text}`"), |h| {
        h.query_by_label_contains(text).is_some()
    });
}

/// A mouse click at `at`: the pointer moves there, then presses and
/// releases, a frame for each (kittest steps once per queued event; see
/// [`click_in_one_frame`] for a press and release in the same frame).
pub fn click_at<S>(harness: &mut Harness<'_, S>, at: egui::Pos2) {
    harness.hover_at(at);
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    harness.run();
}

/// A mouse click at `at` whose press and release arrive in the same
/// frame, as `xdotool click` and a quick click on a slow frame give: the
/// pointer moves there first (a frame), then one frame takes both.
pub fn click_in_one_frame<S>(harness: &mut Harness<'_, S>, at: egui::Pos2) {
    harness.hover_at(at);
    harness.step();
    for pressed in [true, false] {
        harness.input_mut().events.push(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    // No queued event: `step` runs one frame, on the input pushed above.
    harness.step();
}

/// A mouse click at `at` with a frame between press and release.
pub fn press_release_at<S>(harness: &mut Harness<'_, S>, at: egui::Pos2) {
    harness.hover_at(at);
    harness.step();
    harness.drag_at(at);
    harness.step();
    harness.drop_at(at);
    harness.step();
    harness.step();
}

/// Starts a drag at `from` and holds it over `to` (not released).
pub fn hold<S>(harness: &mut Harness<'_, S>, from: egui::Pos2, to: egui::Pos2) {
    harness.hover_at(from);
    harness.step();
    harness.drag_at(from);
    harness.step();
    harness.hover_at(to);
    harness.step();
    harness.step();
}

/// Drags from `from` and releases at `to`, through the middle, a frame per
/// pointer event.
pub fn drag<S>(harness: &mut Harness<'_, S>, from: egui::Pos2, to: egui::Pos2) {
    harness.hover_at(from);
    harness.step();
    harness.drag_at(from);
    harness.step();
    harness.hover_at(from + (to - from) * 0.5);
    harness.step();
    harness.hover_at(to);
    harness.step();
    harness.drop_at(to);
    harness.step();
    harness.step();
}
