//! The game plugins. Each game is one folder that reads the same way:
//! `mod.rs` (the [`crate::Game`] impl), `rules.rs`, and its hot paths.

use crate::registry::Registry;

pub mod sand;

/// Registers every built-in game.
pub fn register_builtin(registry: &mut Registry) {
    registry.register::<sand::Sand>();
}
