//! Tessera's plugin host: what every game runs in. It names no game; each
//! game is a crate of its own (`engine/games/<id>`) implementing [`Plugin`],
//! and `tessera-builtin` lists them.
//!
//! - [`plugin`]: the [`Game`] core and its capabilities; [`options`]: modes and seats;
//!   [`error`] and [`outcome`]: the leaf types every layer names ([`GameError`],
//!   [`Outcome`], [`Turn`]);
//!   [`agent`]: the AI contract; [`session`]: recorded sessions
//!   ([`Recorded`], [`Session`]); [`registry`]: type-erased plugins.
//! - [`replay`] and [`trajectory`]: what a session records and how a replay
//!   prints; [`worker`]: background jobs with progress and cancel;
//!   [`job`]: the command line's job contract (Ctrl+C, progress, PARTIAL).
//! - [`script`]: the Luau host; [`level`]: RON levels; [`rng`]: the seeded
//!   RNG; [`check`]: file checks; [`project`]: the live project and its hot
//!   reload.
//! - [`command`]: the subcommands, bench groups and merges a plugin brings
//!   to the `tessera` command line; [`bench`]: figures and their timing;
//!   [`partial`]: the JSON partial of a sharded run.
//!
//! The engine knows nothing about any UI: the CLI and the editor drive games
//! through the same API.

pub mod agent;
pub mod bench;
pub mod check;
pub mod command;
pub mod driver;
pub mod error;
pub mod folders;
pub mod generate;
pub mod job;
pub mod level;
pub mod options;
pub mod outcome;
pub mod partial;
pub mod plugin;
pub mod project;
pub mod registrar;
pub mod registry;
pub mod replay;
pub mod rng;
pub mod ron_diff;
pub mod ron_locate;
pub mod ron_patch;
pub mod script;
pub mod session;
pub mod sim;
pub mod suite;
pub mod text;
pub mod trajectory;
pub mod worker;

pub use agent::{Agent, AgentGame, AiTask, Budget, Considered, Decision, ThinkControl, Thinking};
/// The Lua binding the script host is built on, for games that read script
/// tables themselves (same version as the host, by construction).
pub use mlua;
pub use options::{GameSpec, ModeSpec, Seat, SessionOptions};
pub use plugin::{
    Game, GameError, GameEvent, LevelFormats, Moves, Outcome, Reports, Scripted, Setup, Simulated,
    Turn,
};
pub use registrar::{Capabilities, Capability, Plugin, Registrar};
pub use registry::{PluginEntry, Registry};
pub use script::{LiveScript, Script, ScriptError, ScriptLimits, ScriptSchema};
pub use session::{Recorded, Session, downcast, downcast_mut};

// One test binary per crate: the tests in `tests/` are a module of the
// unit-test binary rather than integration binaries of their own (each would
// link the whole dependency tree again). They name the crate as
// `tessera_host`, like outside code, so they exercise only the public API.
#[cfg(test)]
extern crate self as tessera_host;
#[cfg(test)]
#[path = "../tests/main.rs"]
mod api_tests;
