//! Replays: seed + level + the steps taken. Because rules draw randomness
//! only from the seeded [`crate::rng::GameRng`], replaying the steps on the
//! same level and seed reproduces the session exactly.

use serde::{Deserialize, Serialize};

/// One recorded step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Step<A> {
    /// A player (or AI) action.
    Act(A),
    /// Time passing.
    Tick(u32),
}

/// A whole session's record, stored as RON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay<L, A> {
    /// Plugin id.
    pub game: String,
    /// The session's seed.
    pub seed: u64,
    /// The level as it was played (inline, so a later edit of the level file
    /// cannot change the replay).
    pub level: L,
    /// Everything done, in order.
    pub steps: Vec<Step<A>>,
}

/// Just the header of a replay, to find which game it belongs to.
#[derive(Debug, Deserialize)]
pub struct ReplayHeader {
    /// Plugin id.
    pub game: String,
}
