//! The built-in games, listed once. The CLI and the editor both start from
//! [`registry`]; the host itself names no game.
//!
//! Adding a game: a crate under `engine/games/<id>/`, a dependency in this
//! crate's `Cargo.toml`, and one line in [`registry`].

use tessera_host::Registry;

/// Every game shipped with Tessera.
pub fn registry() -> Registry {
    let mut registry = Registry::empty();
    registry.register::<tessera_azul::Azul>();
    registry.register::<tessera_polycube::Polycube>();
    registry.register::<tessera_sand::Sand>();
    registry.register::<tessera_tetris::Tetris>();
    registry
}
