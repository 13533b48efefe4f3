//! The built-in games, listed once. The CLI, the editor, the bench command
//! and the test suites all start from here; the host and the editor shell
//! name no game.
//!
//! Adding a game: its crate under `engine/games/<id>/` (and its UI crate
//! under `engine/games/<id>/ui/`, if it brings one), their dependencies in
//! this crate's `Cargo.toml`, and one line in [`games!`] below.

use tessera_host::Registry;

/// One line per game: its plugin type, and its editor UI when it has one
/// (a game without one plays in the editor's generic view).
macro_rules! games {
    ($($game:path => $ui:expr),* $(,)?) => {
        /// Every game shipped with Tessera.
        pub fn registry() -> Registry {
            let mut registry = Registry::empty();
            $(registry.register::<$game>();)*
            registry
        }

        /// Every built-in game's editor UI.
        #[cfg(feature = "ui")]
        pub fn game_uis() -> Vec<tessera_ui::GameUi> {
            vec![$($ui),*]
        }
    };
}

games! {
    tessera_azul::Azul => tessera_azul_ui::game_ui(),
    tessera_polycube::Polycube => tessera_polycube_ui::GAME_UI,
    tessera_sand::Sand => tessera_sand_ui::game_ui(),
    tessera_tetris::Tetris => tessera_tetris_ui::game_ui(),
}
