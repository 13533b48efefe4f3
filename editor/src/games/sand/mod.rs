//! Sand drop in the editor: the playtest view (F5).
//!
//! The view only draws the engine's state and turns mouse input into
//! `Place` actions; the rules (and time, in ticks) stay in the engine.
//! Flashes, particles and pop-ups are presentation: they use their own
//! little random generator, never the game's.

mod view;

use std::path::Path;

use tessera_engine::Game;
use tessera_engine::games::sand::{Sand, SandLevel};
use tessera_engine::level::{Diagnostic, LevelFile, load_level};
use tessera_engine::project::Project;

use crate::playtest::{GameUi, PlaytestView};

pub use view::SandPlaytest;

/// Sand drop's contribution to the editor.
pub fn game_ui() -> GameUi {
    GameUi {
        id: Sand::ID,
        playtest: start_playtest,
        level_editor: None,
    }
}

/// Reads a sand level file (or the default level), refusing one with errors.
pub fn load_sand_level(level: Option<&Path>) -> anyhow::Result<SandLevel> {
    let Some(path) = level else {
        return Ok(SandLevel::default());
    };
    let parsed: SandLevel = load_level(path)?;
    if let Some(error) = parsed.diagnose().into_iter().find(Diagnostic::is_error) {
        return Err(Diagnostic {
            path: path.to_path_buf(),
            ..error
        }
        .into());
    }
    Ok(parsed)
}

/// Starts the playtest view on a level with the project's live script.
pub fn start_playtest(
    project: &mut Project,
    level: Option<&Path>,
    seed: u64,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    let level = load_sand_level(level)?;
    let script = project
        .script(&project.game_script_path(Sand::ID))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(Box::new(SandPlaytest::new(level, script, seed)?))
}
