//! Why a game refused: [`GameError`], in a leaf module of its own so the
//! options, the agent contract, replays and the plugin traits can all name
//! it without importing one another. `crate::plugin::GameError` re-exports
//! it.

use crate::level::Diagnostic;
use crate::script::ScriptError;

/// Why a game refused to start or to take an action.
#[derive(Debug, Clone, thiserror::Error)]
pub enum GameError {
    /// The action breaks a rule; the state is unchanged (games say so where
    /// a failed attempt has consequences, e.g. a game-over check).
    #[error("illegal action: {0}")]
    Illegal(String),
    /// The action text does not parse as this game's action.
    #[error("cannot read action: {0}")]
    BadAction(String),
    /// A number or setting outside what the game accepts.
    #[error("{0}")]
    Invalid(String),
    /// The level cannot be played.
    #[error(transparent)]
    Level(#[from] Diagnostic),
    /// The script failed; the game keeps its state.
    #[error(transparent)]
    Script(#[from] ScriptError),
    /// An AI (or other background work) was cancelled before it decided.
    #[error("cancelled")]
    Cancelled,
}
