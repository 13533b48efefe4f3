//! Azul in the editor: the table (the seed's section 3) as a playtest view.
//!
//! The view draws the engine's state and turns clicks into `Take` actions:
//! click a colour in a factory or the centre, then a pattern line or the
//! floor. AI seats think on a worker ([`tessera_host::worker::Job`]) and
//! their move is shown after the script's reaction time (presentation
//! only). Undo takes back the human's last move (and any AI replies since);
//! Hint asks the expert AI. Levels open in the scenario editor
//! ([`level_editor`]).

pub mod balance;
pub mod level_editor;
mod view;

use std::path::Path;

use tessera_azul::{Azul, AzulLevel};
use tessera_host::Game;
use tessera_host::SessionOptions;
use tessera_host::level::load_level;
use tessera_host::project::Project;

use crate::playtest::{GameUi, PlaytestView};

pub use view::AzulPlaytest;

/// Azul's contribution to the editor.
pub fn game_ui() -> GameUi {
    GameUi {
        id: Azul::ID,
        playtest: start_playtest,
        resume: None,
        level_editor: Some(level_editor::open),
    }
}

/// Starts the table on a level with the project's live script: the human
/// against the AI level the options name (or the script's default AI).
pub fn start_playtest(
    project: &mut Project,
    level: Option<&Path>,
    seed: u64,
    options: &SessionOptions,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    let level: AzulLevel = match level {
        Some(path) => load_level(&project.absolute(path))?,
        None => AzulLevel::default(),
    };
    let script = project
        .script(&project.game_script_path(Azul::ID))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut view = AzulPlaytest::new(level, script, seed, None)?;
    if let Some(ai) = options.seats.iter().find_map(|s| s.ai_level()) {
        view.set_ai_level(ai);
        view.new_game();
    }
    Ok(Box::new(view))
}

#[cfg(test)]
mod tests;
