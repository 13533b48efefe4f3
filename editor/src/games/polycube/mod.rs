//! Polycube packing in the editor: a playtest view and a level editor.

pub mod iso;
pub mod level_editor;
pub mod patch;
pub mod playtest;

use crate::playtest::GameUi;

/// What the polycube game brings to the editor.
pub const GAME_UI: GameUi = GameUi {
    id: "polycube",
    playtest: playtest::start,
    resume: Some(playtest::resume),
    level_editor: Some(level_editor::open),
};

#[cfg(test)]
mod tests;
