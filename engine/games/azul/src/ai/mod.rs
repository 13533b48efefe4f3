//! The AI ladder: `easy` (a random legal move), `medium` (the seed's
//! one-move evaluation), `hard` (alpha-beta / paranoid search to the end of
//! the round with move ordering and a transposition table) and `expert`
//! (Monte Carlo tree search over the round, with whole-game playouts whose
//! future deals come from the bag through the agent's own random stream).
//!
//! Every weight comes from the script, read once into [`AiSettings`] when
//! the agent is built; no search calls Lua.
//!
//! Grey wall: a column choice ([`State::pending_choice`]) is a decision
//! like any other. `easy` picks a random legal column; `medium` scores
//! each column by its evaluation ([`evaluate_wall_move`]: the placement's
//! points now plus the end-bonus progress of its column and colour);
//! `hard` searches the choices inside its alpha-beta (every remaining
//! choice of the tiling is a node, for every player) and `expert` expands
//! them in its tree. Choices the searches meet beyond the current tiling
//! (the tiling at the end of a searched round, and in playouts) are made
//! by [`crate::rules::Board::target_column`]: the legal column scoring
//! most, then the fullest column.

use tessera_host::{Agent, Considered, Decision, GameError, Thinking};

mod easy;
mod expert;
mod hard;
pub(crate) mod medium;
mod playout;
mod tree;

pub use expert::{ExpertMemory, tree_count};
pub use medium::{evaluate_move, evaluate_wall_move};
pub use playout::random_playout;

use crate::rules::{Move, MoveList, State};
use crate::{Azul, AzulView, move_to_action};

/// The medium AI's weights (the seed's evaluation: immediate score + 0.5
/// future potential - floor risk + 0.3 blocking).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MediumWeights {
    /// Points scored at once when the move completes a line.
    pub immediate: f64,
    /// Progress towards the points of an unfinished line.
    pub potential: f64,
    /// Floor penalty the move causes.
    pub floor_risk: f64,
    /// Tiles denied to an opponent who needs that colour.
    pub blocking: f64,
}

impl Default for MediumWeights {
    fn default() -> Self {
        Self {
            immediate: 1.0,
            potential: 0.5,
            floor_risk: 1.0,
            blocking: 0.3,
        }
    }
}

/// The hard AI's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HardSettings {
    /// Most search nodes per move.
    pub nodes: u64,
    /// Weight of the wall potential (rows, columns, colours near complete)
    /// in end-of-round evaluations.
    pub potential: f64,
    /// Weight of unfinished pattern lines carried to the next round.
    pub carry: f64,
}

impl Default for HardSettings {
    fn default() -> Self {
        Self {
            nodes: 200_000,
            potential: 1.0,
            carry: 0.5,
        }
    }
}

/// The expert AI's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExpertSettings {
    /// Most playouts per move.
    pub playouts: u64,
    /// Most thinking time per move.
    pub seconds: f64,
    /// UCT exploration constant.
    pub exploration: f64,
    /// Chance that a playout move is random rather than greedy.
    pub epsilon: f64,
    /// Share of the reward that is win/loss (the rest is score margin).
    pub win_weight: f64,
    /// Points of margin that earn 0.88 of the margin reward (tanh(1)).
    pub margin_scale: f64,
    /// Share of the reward for the player's own score (the rest is the
    /// contest: win/loss and margin). 0 plays only to win, which in
    /// self-play means low-scoring games of mutual blocking; 1 ignores the
    /// opponent's score.
    pub own_weight: f64,
    /// Points that earn the whole own-score reward.
    pub score_scale: f64,
    /// Trees searched side by side, one per thread (root parallelism);
    /// 0 means one per core. The decision depends on the tree count, not
    /// on the scheduling, so a fixed count with a playout budget decides
    /// the same on any machine.
    pub threads: u32,
    /// Most tree nodes over all trees (20 bytes each): the memory bound
    /// of one decision, whatever its time.
    pub max_nodes: u64,
    /// Round ends a playout plays through before it stops and scores the
    /// table by estimate (score plus `potential` x wall potential plus
    /// `carry` x unfinished lines, as hard does); 0 plays to the game's
    /// end. A shorter playout is cheaper and less noisy, so more of them
    /// fit in a move.
    pub horizon: u32,
    /// Weight of the end bonuses' progress in a cut-off playout's estimate.
    pub potential: f64,
    /// Weight of unfinished pattern lines in a cut-off playout's estimate.
    pub carry: f64,
    /// Progressive widening: a node with `n` visits lets UCT choose among
    /// its first `2 + n^widening` children only (they come best first by
    /// the search ordering), so the playouts go to plausible moves before
    /// the rest; 0 lets UCT choose among all of them from the start.
    pub widening: f64,
}

impl Default for ExpertSettings {
    fn default() -> Self {
        Self {
            playouts: 1_000_000,
            seconds: 1.0,
            exploration: 0.35,
            epsilon: 0.15,
            win_weight: 0.5,
            margin_scale: 20.0,
            own_weight: 0.3,
            score_scale: 100.0,
            threads: 0,
            max_nodes: 4_000_000,
            horizon: 0,
            potential: 1.0,
            carry: 0.5,
            widening: 0.0,
        }
    }
}

/// Everything the AIs read from the script.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AiSettings {
    /// The medium AI's weights.
    pub medium: MediumWeights,
    /// The hard AI's settings.
    pub hard: HardSettings,
    /// The expert AI's settings.
    pub expert: ExpertSettings,
}

/// Which AI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Random legal move.
    Easy,
    /// One-move evaluation.
    Medium,
    /// Search to the end of the round.
    Hard,
    /// MCTS over whole games.
    Expert,
}

impl Level {
    /// The level named `name` (`easy`, `medium`, `hard`, `expert`).
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "easy" => Level::Easy,
            "medium" => Level::Medium,
            "hard" => Level::Hard,
            "expert" => Level::Expert,
            _ => return None,
        })
    }
}

/// An Azul AI player.
pub struct AzulAgent {
    level: Level,
    settings: AiSettings,
    /// The expert's kept trees and the seat they belong to (tree reuse).
    memory: Option<(ExpertMemory, usize)>,
}

impl AzulAgent {
    /// An agent at `level` with `settings` already read from the script;
    /// its expert starts every decision with fresh trees.
    pub fn new(level: Level, settings: AiSettings) -> Self {
        Self {
            level,
            settings,
            memory: None,
        }
    }

    /// The same agent, keeping its expert's trees for `seat` in `memory`
    /// between decisions (the game holds the memory; agents come and go).
    pub fn with_memory(mut self, memory: ExpertMemory, seat: usize) -> Self {
        self.memory = Some((memory, seat));
        self
    }

    /// Decides on a bare state (benches, `tessera sim`, the editor's hint).
    pub fn decide_state(
        &mut self,
        state: &State,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<Move>, GameError> {
        let mut moves = MoveList::default();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(GameError::Illegal("no legal move: the game is over".into()));
        }
        if moves.len() == 1 {
            return Ok(Decision::just(moves.as_slice()[0]));
        }
        Ok(match self.level {
            Level::Easy => easy::easy(&moves, thinking),
            Level::Medium => medium::medium(state, &moves, &self.settings.medium, thinking),
            Level::Hard => hard::hard(state, &self.settings.hard, thinking)?,
            Level::Expert => {
                let memory = self.memory.as_ref().map(|(m, seat)| (m, *seat));
                expert::expert(state, &self.settings, memory, thinking)?
            }
        })
    }
}

impl Agent<Azul> for AzulAgent {
    fn decide(
        &mut self,
        view: &AzulView,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<crate::AzulAction>, GameError> {
        let decision = self.decide_state(&view.state, thinking)?;
        Ok(Decision {
            action: move_to_action(decision.action),
            considered: decision.considered,
            explanation: None,
        })
    }
}

/// Words for a move, for the "why" panel.
pub fn describe(m: Move) -> String {
    move_to_action(m).to_string()
}

pub(crate) fn top5(mut scored: Vec<(Move, f64, String)>) -> Decision<Move> {
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    let action = scored[0].0;
    Decision {
        action,
        explanation: None,
        considered: scored
            .into_iter()
            .take(5)
            .map(|(m, value, detail)| Considered {
                action: describe(m),
                value,
                detail,
            })
            .collect(),
    }
}
