//! Each game's editor UI (playtest view, level editor) in `games/<id>.rs`,
//! listed here. Games register one [`GameUi`] each.

use crate::playtest::GameUi;

pub mod sand;

/// Every game UI the editor knows.
pub fn all() -> Vec<GameUi> {
    vec![sand::game_ui()]
}

/// The UI for game `id`.
pub fn find(id: &str) -> Option<GameUi> {
    all().into_iter().find(|g| g.id == id)
}
