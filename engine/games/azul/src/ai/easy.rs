//! The easy AI: a random legal move.

use rand::Rng;
use tessera_host::{Decision, Thinking};

use crate::rules::{Move, MoveList};

/// A random legal move from the agent's stream.
pub(super) fn easy(moves: &MoveList, thinking: &mut Thinking<'_>) -> Decision<Move> {
    thinking.count_nodes(1);
    let m = moves.as_slice()[thinking.rng.random_range(0..moves.len())];
    Decision::just(m)
}
