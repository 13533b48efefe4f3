//! Tessera's engine: the plugin host every game runs in.
//!
//! A game is a [`Game`] implementation in `games/<id>/`. Everything shared by
//! all games lives beside `games/`: the plugin trait and registry
//! ([`plugin`], [`registry`]), the Lua script host ([`script`]), RON level
//! loading ([`level`]), the seeded RNG ([`rng`]), replays ([`replay`]), file
//! checks ([`check`]) and the live project with hot reload ([`project`]).
//!
//! The engine knows nothing about any UI: the CLI and the editor drive games
//! through the same API.

pub mod check;
pub mod level;
pub mod plugin;
pub mod project;
pub mod registry;
pub mod replay;
pub mod rng;
pub mod script;

/// The Lua binding the script host is built on, for games that read script
/// tables themselves (same version as the host, by construction).
pub use mlua;
pub use plugin::{Game, GameError, Outcome, Session};
pub use registry::{PluginEntry, Registry};
pub use script::{LiveScript, Script, ScriptError, ScriptLimits, ScriptSchema};
