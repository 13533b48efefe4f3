//! Azul in the editor: the table (the seed's section 3) as a playtest view.
//!
//! The view draws the engine's state and turns clicks into `Take` actions:
//! click a colour in a factory or the centre, then a pattern line or the
//! floor. AI seats are played by the host's driver on a worker, and their
//! move is shown after the script's reaction time (presentation only).
//! Undo is the host's (the human's last move and any AI replies since);
//! Hint asks the expert AI. Levels open in the scenario editor
//! ([`level_editor`]).

pub mod balance;
pub mod level_editor;
mod view;

use tessera_azul::Azul;
use tessera_host::project::Project;
use tessera_host::{Game, Session};

use tessera_ui::{GameUi, PlaytestView};

pub use view::AzulPlaytest;

/// Azul's contribution to the editor.
pub fn game_ui() -> GameUi {
    GameUi {
        id: Azul::ID,
        view: open_view,
        level_editor: Some(level_editor::open),
    }
}

/// Shows an Azul session (started by the host with the playtest's seats,
/// or the level's, or replayed) on the table.
pub fn open_view(
    _project: &mut Project,
    session: Box<dyn Session>,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    Ok(Box::new(AzulPlaytest::from_session(
        tessera_ui::recorded::<Azul>(session)?,
        None,
    )?))
}

/// A registry of this game alone, for the projects its UI opens on worker
/// threads and in its tests (a game's UI needs no other game).
pub fn registry() -> tessera_host::Registry {
    tessera_host::Registry::of::<tessera_azul::Azul>()
}

#[cfg(test)]
mod tests;
