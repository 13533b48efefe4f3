//! Tetris in the editor: the keyboard playtest view (F5) and the level
//! editor (board size, garbage painting, goal, piece sequence, overrides,
//! validation and the "Solvable?" search).

mod ai_log;
mod ai_move;
pub mod balance;
pub mod campaign;
mod feed;
mod level_editor;
mod playtest;
/// A registry of this game alone, with its bot, for the projects its UI
/// opens on worker threads and in its tests (a game's UI needs no other
/// game).
pub fn registry() -> tessera_host::Registry {
    tessera_tetris_bot::registry()
}

#[cfg(test)]
mod tests;

use std::path::Path;

use tessera_host::Game;
use tessera_host::project::Project;
use tessera_tetris::Tetris;

use tessera_ui::{GameUi, PlaytestView};

pub use level_editor::TetrisLevelEditor;
pub use playtest::{TetrisPlaytest, cell_colour};

/// Tetris's contribution to the editor.
pub fn game_ui() -> GameUi {
    GameUi {
        id: Tetris::ID,
        view: open_view,
        level_editor: Some(open_level_editor),
    }
}

/// Shows a tetris session (started by the host, or replayed) in the view.
pub fn open_view(
    _project: &mut Project,
    session: Box<dyn tessera_host::Session>,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    Ok(Box::new(TetrisPlaytest::from_session(
        tessera_ui::recorded::<Tetris>(session)?,
    )))
}

fn open_level_editor(path: &Path, text: &str) -> anyhow::Result<Box<dyn tessera_ui::LevelEditor>> {
    Ok(Box::new(TetrisLevelEditor::open(path, text)?))
}
