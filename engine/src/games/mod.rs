//! The game plugins. Each game is one folder that reads the same way:
//! `mod.rs` (the [`crate::Game`] impl), `rules.rs`, and its hot paths.

pub mod polycube;
pub mod sand;

use crate::registry::Registry;

/// Registers every built-in game.
pub fn register_builtin(registry: &mut Registry) {
    registry.register::<polycube::Polycube>();
    registry.register::<sand::Sand>();
}
