//! Polycube packing in the editor: a playtest view and a level editor.

pub mod iso;
pub mod json_file;
pub mod level_editor;
pub mod make_unique;
pub mod patch;
pub mod playtest;
pub mod solution_steps;
pub mod solvable;

use tessera_ui::GameUi;

/// What the polycube game brings to the editor.
pub const GAME_UI: GameUi = GameUi {
    id: "polycube",
    view: playtest::open_view,
    level_editor: Some(level_editor::open),
};

/// A registry of this game alone, for the projects its UI opens on worker
/// threads and in its tests (a game's UI needs no other game).
pub fn registry() -> tessera_host::Registry {
    tessera_host::Registry::of::<tessera_polycube::Polycube>()
}

#[cfg(test)]
mod tests;
