//! The extension points through which a game brings its own UI into the
//! editor: a playtest view (F5) and, optionally, a visual level editor.

use std::path::Path;

use tessera_host::project::Project;
use tessera_host::{Session, SessionOptions};

/// One line for the editor's console (reloads, errors, game messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsoleLine {
    /// The text, e.g. `reloaded scripts/sand.lua` or
    /// `error scripts/sand.lua:3: ... (keeping last good version)`.
    pub text: String,
    /// Whether it reports a problem (drawn in red, clickable when it names
    /// `file:line`).
    pub is_error: bool,
}

/// What a view may touch besides its own state.
pub struct PlaytestContext<'a> {
    /// The open project: live scripts, registry, paths.
    pub project: &'a mut Project,
    /// Lines to append to the console.
    pub console: &'a mut Vec<ConsoleLine>,
}

/// A game's interactive view in the playtest area.
pub trait PlaytestView {
    /// Draws the game and handles input; called every frame while shown.
    /// Views that animate call `ui.ctx().request_repaint()`.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>);
    /// The recorded session the view plays through (its replay is what
    /// "Save playtest as test" writes); `None` for views that record
    /// nothing.
    fn session(&self) -> Option<&dyn Session> {
        None
    }
    /// Mutable form of [`PlaytestView::session`].
    fn session_mut(&mut self) -> Option<&mut dyn Session> {
        None
    }
    /// Whether an AI seat may move now: a view still animating the last
    /// AI move says no, so moves are not applied faster than shown.
    fn ai_may_move(&self) -> bool {
        true
    }
}

/// Starts a playtest of a game on a level file (or its default level).
pub type PlaytestFactory = fn(
    project: &mut Project,
    level: Option<&Path>,
    seed: u64,
    options: &SessionOptions,
) -> anyhow::Result<Box<dyn PlaytestView>>;

/// Shows a session that already ran (a replay opened at a step) in the
/// game's view, to play on from there.
pub type ResumeFactory =
    fn(project: &mut Project, session: Box<dyn Session>) -> anyhow::Result<Box<dyn PlaytestView>>;

/// A visual editor for one level file of a game (shown instead of the raw
/// RON text tab when the game provides one).
pub trait LevelEditor {
    /// Draws the editor; returns nothing, marks itself dirty on edits.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>);
    /// The level as RON text, for saving (the editor writes it atomically).
    fn to_ron(&self) -> anyhow::Result<String>;
    /// Whether there are edits not yet saved.
    fn is_dirty(&self) -> bool;
    /// Called after a successful save.
    fn mark_saved(&mut self);
}

/// Opens a level file's text in a game's visual editor.
pub type LevelEditorFactory = fn(path: &Path, text: &str) -> anyhow::Result<Box<dyn LevelEditor>>;

/// What one game contributes to the editor.
#[derive(Clone, Copy)]
pub struct GameUi {
    /// Plugin id, matching the engine registry.
    pub id: &'static str,
    /// Starts its playtest view.
    pub playtest: PlaytestFactory,
    /// Shows a replayed session in its playtest view (the Tests panel's
    /// "Open"), if the game's view can.
    pub resume: Option<ResumeFactory>,
    /// Its visual level editor, if it has one.
    pub level_editor: Option<LevelEditorFactory>,
}
