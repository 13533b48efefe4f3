//! Recorded sessions: a game plus the record of everything done to it.
//!
//! [`Recorded<G>`] is the one way a game is played, by the CLI, the editor
//! and the replay suite alike: it resolves the options, records every step
//! (actions, ticks, script reloads) into a [`Replay`](crate::replay::Replay), collects the game's
//! events per step, and hands AI seats their [`AiTask`](crate::agent::AiTask)s. [`Session`] is
//! its object-safe twin, with actions as RON, for code that does not know
//! the game (`erased.rs`: it, type-erased AI tasks and decisions, and the
//! downcasts back to [`Recorded<G>`]); `recorded.rs` holds [`Recorded<G>`]
//! itself, so this facade and its two children import no circle.

mod erased;
mod recorded;

pub use erased::{
    ErasedAiTask, ErasedDecision, Session, SessionAi, SessionFaces, SessionPlay, SessionRecord,
    SessionReports, SessionSim, downcast, downcast_box, downcast_mut,
};
pub use recorded::{ActionList, Recorded, is_reload_event, replay_to_ron, with_level_defaults};

pub use crate::replay::short_hash;
