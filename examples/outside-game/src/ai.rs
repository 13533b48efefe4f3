//! Cairns' AI: one agent for both levels. It plays the winning move (the
//! one that leaves a Grundy value of 0) unless its level's mistake rate
//! says to play a random legal move; `easy` errs always, `hard` never (the
//! script's `mistakes` tunes both). It decides from a [`CairnView`] with its
//! own random stream and never calls Lua.

use rand::Rng;
use tessera_host::{Agent, Decision, GameError, Thinking};

use crate::Cairn;
use crate::rules::{CairnAction, Rows};

/// What the AI sees: the grid and the move cap (read from the script
/// before the decision).
#[derive(Debug, Clone)]
pub struct CairnView {
    /// Stones left per row.
    pub rows: Vec<u32>,
    /// Most stones one move may take.
    pub max_take: u32,
}

/// An AI seat: how often it plays a random move instead of its best.
pub struct CairnAgent {
    /// Chance of a random move, 0 to 1 (the script's `mistakes.<level>`).
    pub mistake: f64,
}

impl Agent<Cairn> for CairnAgent {
    fn decide(
        &mut self,
        view: &CairnView,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<CairnAction>, GameError> {
        let rows = Rows::new(view.rows.clone());
        let moves = rows.moves(view.max_take);
        if moves.is_empty() {
            return Err(GameError::Illegal(
                "the game is over: every stone is taken".into(),
            ));
        }
        thinking.count_nodes(moves.len() as u64);
        // Draw first whatever the outcome, so a decision uses its stream
        // the same way at every mistake rate.
        let random = moves[thinking.rng.random_range(0..moves.len())];
        let errs = thinking.rng.random_bool(self.mistake.clamp(0.0, 1.0));
        let action = match rows.winning_move(view.max_take) {
            Some(best) if !errs => best,
            // In a lost position every move loses: any will do.
            _ => random,
        };
        Ok(Decision::just(action))
    }
}
