//! Each game's editor UI (playtest view, level editor) in `games/<id>/`,
//! listed here. Games register one [`GameUi`] each.

pub mod azul;
pub mod polycube;
pub mod sand;
pub mod tetris;

use crate::playtest::GameUi;

/// Every game UI the editor knows.
pub fn all() -> Vec<GameUi> {
    vec![
        azul::game_ui(),
        polycube::GAME_UI,
        sand::game_ui(),
        tetris::game_ui(),
    ]
}

/// The UI for game `id`.
pub fn find(id: &str) -> Option<GameUi> {
    all().into_iter().find(|g| g.id == id)
}
