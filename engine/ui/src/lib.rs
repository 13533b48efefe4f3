//! The extension points through which a game brings its own UI into the
//! editor: a playtest view (F5) and, optionally, a visual level editor.
//! Each game's UI crate (`engine/games/<id>/ui`) implements them; the
//! editor shell hosts them without naming a game.

mod drive;
pub mod goto;
mod keyboard;
mod labelled;
pub mod slot;
pub mod style;
mod tool_window;
pub mod undo;

pub use drive::{drive_view, thinking_line};
pub use goto::{finding_label, take_open_request};
pub use keyboard::text_field_has_keyboard;
pub use labelled::{labelled_combo, speed_slider};
/// Counts as people read them ("1 piece", "12,000 positions"): the
/// host's one helper, shared with the engine crates' own messages.
pub use tessera_host::text;
pub use tool_window::{set_tool_area, tool_area, tool_window};
pub use undo::UndoStack;

use std::path::Path;
use std::time::Duration;

use tessera_host::project::Project;
use tessera_host::session::ErasedDecision;
use tessera_host::{GameError, Session};

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
    /// The least time between asking an AI seat and showing its move (an
    /// AI's "reaction time"; presentation only). Default: none.
    fn ai_reaction(&self) -> Duration {
        Duration::ZERO
    }
    /// Applies an AI seat's decision, made by the host's driver on a
    /// worker. Views that show moves (animations, a log) override it;
    /// the default applies it to the session.
    fn apply_ai(&mut self, decision: ErasedDecision) -> Result<(), GameError> {
        match self.session_mut() {
            Some(session) => session.apply_ai(decision),
            None => Ok(()),
        }
    }
    /// Takes back the player's last move (Ctrl+Z, the host's undo on the
    /// recorded session); `Ok(false)` when there is nothing to undo. Views
    /// holding derived state (a selection, animations) clear it here.
    fn undo(&mut self) -> Result<bool, GameError> {
        match self.session_mut() {
            Some(session) => Ok(session.undo_move()?.is_some()),
            None => Ok(false),
        }
    }
    /// Redoes an undone move, for games whose own rules keep a redo list
    /// (Ctrl+Shift+Z); `Ok(false)` when there is none.
    fn redo(&mut self) -> Result<bool, GameError> {
        Ok(false)
    }
    /// Something the view asks of the playtest area (a new game on the
    /// same start path), taken once per frame after [`PlaytestView::ui`].
    fn take_request(&mut self) -> Option<ViewRequest> {
        None
    }
    /// The view's open tool windows (an AI log, a Balance window) with
    /// what they show, taken when a new playtest of the same game replaces
    /// the view (Run ▸ Playtest, a test opened at a step) and handed to
    /// the new view's [`PlaytestView::keep_tool_windows`], so windows the
    /// designer opened stay open. `None`: none is open.
    fn take_tool_windows(&mut self) -> Option<Box<dyn std::any::Any>> {
        None
    }
    /// Takes over the tool windows the previous view of this game had
    /// open (what its [`PlaytestView::take_tool_windows`] returned).
    fn keep_tool_windows(&mut self, _windows: Box<dyn std::any::Any>) {}
}

/// The concrete game behind the session a [`ViewFactory`] receives (the
/// registry and the UI are matched by id, so a mismatch is a bug, reported
/// as an error rather than a panic).
pub fn recorded<G: tessera_host::Plugin>(
    session: Box<dyn Session>,
) -> anyhow::Result<tessera_host::Recorded<G>> {
    tessera_host::session::downcast_box::<G>(session)
        .map(|session| *session)
        .map_err(|_| anyhow::anyhow!("this session is not a {} game", G::TITLE))
}

/// What a view asks the playtest area to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewRequest {
    /// Start the same level again through the host's start path: with the
    /// seed just played (`None`) or another.
    NewGame {
        /// The seed of the new game, or `None` for the seed just played.
        seed: Option<u64>,
    },
}

/// Shows a session in the game's playtest view: a new one started by the
/// host's one start path (`Project::start_session`: the level read with
/// the input cap and diagnosed, the script checked, the options resolved),
/// or one that already ran (a replay opened at a step), to play on.
pub type ViewFactory =
    fn(project: &mut Project, session: Box<dyn Session>) -> anyhow::Result<Box<dyn PlaytestView>>;

/// A visual editor for one level file (shown beside the raw RON text tab
/// when the game provides one).
///
/// The editor shell owns the document's text; the visual editor is a view
/// of it. The shell loads the current text into the editor whenever the
/// text changed elsewhere (the text tab, an undo, a reload from disk), and
/// after each visual edit takes the text back with [`LevelEditor::to_ron`]
/// and loads it again, so both views always show the one document.
pub trait LevelEditor {
    /// Draws the editor and applies the designer's edits to its level.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>);
    /// The text last loaded with the edits made since written into it:
    /// only the changed values replaced, the file's comments and layout
    /// kept (where the text cannot be patched, the level re-serialised).
    fn to_ron(&self) -> anyhow::Result<String>;
    /// Whether the level was edited since the text was last loaded.
    fn is_dirty(&self) -> bool;
    /// Reads the level from the document's `text`, which later edits are
    /// written into; what the designer is looking at (the selected piece,
    /// the tool, the camera) stays. On error the editor keeps its level.
    fn load(&mut self, text: &str) -> anyhow::Result<()>;
}

/// Opens a level file's text in a game's visual editor.
pub type LevelEditorFactory = fn(path: &Path, text: &str) -> anyhow::Result<Box<dyn LevelEditor>>;

/// What one game contributes to the editor.
#[derive(Clone, Copy)]
pub struct GameUi {
    /// Plugin id, matching the engine registry.
    pub id: &'static str,
    /// Shows a session in its playtest view (F5, the Tests panel's
    /// "Open at step").
    pub view: ViewFactory,
    /// Its visual level editor, if it has one.
    pub level_editor: Option<LevelEditorFactory>,
}

/// The end screen's two buttons, stacked from `first` down: "Play again"
/// (the seed just played) and "New seed" (the next one). Returns the new
/// game asked for, if a button was clicked. They are placed over the card
/// without moving `ui`'s cursor (`put` moved it: what followed the board,
/// sand's slots, rose 18 px over the board at the game's end).
pub fn play_again_buttons(ui: &mut egui::Ui, first: egui::Rect, seed: u64) -> Option<ViewRequest> {
    let mut request = None;
    if ui
        .place(first, egui::Button::new("Play again"))
        .on_hover_text("The same seed again, through the playtest's start")
        .clicked()
    {
        request = Some(ViewRequest::NewGame { seed: None });
    }
    let next = first.translate(egui::vec2(0.0, first.height() + 6.0));
    if ui
        .place(next, egui::Button::new("New seed"))
        .on_hover_text("The next seed")
        .clicked()
    {
        request = Some(ViewRequest::NewGame {
            seed: Some(seed.wrapping_add(1)),
        });
    }
    request
}
