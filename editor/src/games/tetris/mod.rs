//! Tetris in the editor: the keyboard playtest view (F5) and the level
//! editor (board size, garbage painting, goal, piece sequence, overrides,
//! validation and the "Solvable?" search).

mod ai_log;
mod ai_move;
pub mod balance;
mod feed;
mod level_editor;
mod playtest;
#[cfg(test)]
mod tests;

use std::path::Path;

use tessera_host::Game;
use tessera_host::project::Project;
use tessera_host::registry::load_checked;
use tessera_tetris::Tetris;
use tessera_tetris::level::TetrisLevel;

use crate::playtest::{GameUi, PlaytestView};

pub use level_editor::TetrisLevelEditor;
pub use playtest::{TetrisPlaytest, cell_colour};

/// Tetris's contribution to the editor.
pub fn game_ui() -> GameUi {
    GameUi {
        id: Tetris::ID,
        playtest: start_playtest,
        resume: Some(resume_playtest),
        level_editor: Some(open_level_editor),
    }
}

/// Reads a tetris level file (or the default, the seed's 18 x 12), refusing
/// one with errors.
pub fn load_tetris_level(level: Option<&Path>) -> anyhow::Result<TetrisLevel> {
    let Some(path) = level else {
        return Ok(TetrisLevel::default());
    };
    let text = std::fs::read_to_string(path)?;
    Ok(load_checked(&text, path)?)
}

/// Starts the playtest view on a level with the project's live script.
pub fn start_playtest(
    project: &mut Project,
    level: Option<&Path>,
    seed: u64,
    options: &tessera_host::SessionOptions,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    let level = load_tetris_level(level)?;
    let script = project
        .script(&project.game_script_path(Tetris::ID))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let session = tessera_host::Recorded::start(level, script, seed, options)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(Box::new(TetrisPlaytest::from_session(session)))
}

/// Shows a replayed tetris session in the playtest view.
pub fn resume_playtest(
    _project: &mut Project,
    session: Box<dyn tessera_host::Session>,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    let session = tessera_host::session::downcast_box::<Tetris>(session)
        .map_err(|_| anyhow::anyhow!("this session is not a tetris game"))?;
    Ok(Box::new(TetrisPlaytest::from_session(*session)))
}

fn open_level_editor(
    path: &Path,
    text: &str,
) -> anyhow::Result<Box<dyn crate::playtest::LevelEditor>> {
    Ok(Box::new(TetrisLevelEditor::open(path, text)?))
}
