//! Replays: everything a session started from, and every step taken.
//! Because rules draw randomness only from the seeded
//! [`crate::rng::GameRng`], replaying the steps on the same level, options,
//! seed and script reproduces the session exactly, reloads included.

use serde::{Deserialize, Serialize};

use crate::options::SessionOptions;

/// One recorded step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Step<A> {
    /// A player (or AI) action.
    Act(A),
    /// Time passing.
    Tick(u32),
    /// The script was reloaded here; the new text, whole.
    Reload(String),
}

/// The script a session was played with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptRecord {
    /// The script's path, relative to the project root.
    pub path: String,
    /// [`crate::script::content_hash`] of the text at the start.
    pub hash: String,
    /// The text at the start, whole.
    pub source: String,
}

/// A whole session's record, stored as RON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay<L, A> {
    /// Plugin id.
    pub game: String,
    /// The session's seed.
    pub seed: u64,
    /// Mode and seats (resolved: complete).
    #[serde(default)]
    pub options: SessionOptions,
    /// The level file it was played on, relative to the project root
    /// (`None` for a game's default level or an unsaved buffer).
    #[serde(default)]
    pub level_path: Option<String>,
    /// The level as it was played (inline, so a later edit of the level file
    /// cannot change the replay unless asked to).
    pub level: L,
    /// The script at the start (`None` in replays written before scripts
    /// were recorded).
    #[serde(default)]
    pub script: Option<ScriptRecord>,
    /// Everything done, in order.
    pub steps: Vec<Step<A>>,
}

/// Just the header of a replay: which game it belongs to and the script it
/// recorded.
#[derive(Debug, Deserialize)]
pub struct ReplayHeader {
    /// Plugin id.
    pub game: String,
    /// The script the session started with, when recorded.
    #[serde(default)]
    pub script: Option<ScriptRecord>,
}

/// Which script a replay runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScriptChoice {
    /// The text recorded in the replay, reloads applied as recorded.
    Recorded,
    /// The project's current script file, throughout (recorded reloads are
    /// skipped): what a rule-change test wants.
    #[default]
    Current,
}

/// Which level a replay runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LevelChoice {
    /// The level stored inline.
    Recorded,
    /// The project's current file at `level_path`, when there is one.
    #[default]
    Current,
}
