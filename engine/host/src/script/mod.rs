//! The Lua script host: sandboxed Luau, validated against a game's schema,
//! hot-swappable while a game runs.
//!
//! - [`sandbox`] builds a fresh VM per script version with only `math`,
//!   `string`, `table` and the engine API, a memory cap and a CPU-time budget
//!   per call that also stops loops hidden inside `pcall`.
//! - [`schema`] describes what a game's script table must hold: every key
//!   it may hold, so any other is refused with the nearest known one.
//! - [`Script`] is one loaded, validated version; [`LiveScript`] is the slot a
//!   running game holds, whose content a reload swaps.
//! - `settings` is the one typed reader of a script's settings (ranges,
//!   defaults, lists with caps, refusals at the value's line), and
//!   [`Script::cached`] keeps what a game derives from them per version.
//! - [`watcher`] turns file-system events into debounced change batches.

mod cache;
mod cpu_clock;
mod engine_api;
mod error;
mod live;
mod locate;
mod sandbox;
mod schema;
mod settings;
pub mod versions;
pub mod watcher;

pub use error::{ScriptError, ScriptErrorKind};
pub use live::LiveScript;
pub use locate::field_line;
pub use sandbox::{MAX_SOURCE_BYTES, Script, ScriptLimits, content_hash};
pub use schema::{FieldKind, FieldSpec, HOST_KEYS, ScriptSchema, nearest_key, show_number};
pub use settings::{ListSetting, NamedSetting, Setting, SettingValue, dotted, list_length};
