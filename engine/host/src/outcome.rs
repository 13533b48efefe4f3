//! How a session stands ([`Outcome`]) and whose move it is ([`Turn`]):
//! plain values every layer reads, in a leaf module that imports nothing of
//! the host. `crate::plugin` re-exports both.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How a session stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Still being played.
    Playing,
    /// The (single) player solved or won it.
    Won,
    /// The (single) player lost: game over.
    Lost,
    /// A multi-player game ended with this seat (0-based) ahead.
    Winner(usize),
    /// A multi-player game ended with these seats sharing the win (a tie
    /// that no tie-break settles).
    Shared(Vec<usize>),
}

impl Outcome {
    /// Whether the session has ended.
    pub fn is_over(&self) -> bool {
        !matches!(self, Outcome::Playing)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Playing => write!(f, "playing"),
            Outcome::Won => write!(f, "won"),
            Outcome::Lost => write!(f, "lost"),
            Outcome::Winner(player) => write!(f, "player {} wins", player + 1),
            Outcome::Shared(players) => {
                let names: Vec<String> = players.iter().map(|p| (p + 1).to_string()).collect();
                write!(f, "players {} share the win", names.join(" and "))
            }
        }
    }
}

/// Whose move it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Turn {
    /// This seat (0-based) is to move; AI seats are asked for a move.
    Seat(usize),
    /// A real-time game: the player acts whenever they like and time runs
    /// in ticks (sand, classic tetris).
    RealTime,
    /// The game is over.
    Over,
}
