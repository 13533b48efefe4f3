//! The AI players the host hands decisions to: [`PlacerAgent`] places the
//! piece in play (classic AI seats and feed mode's AI), [`FeederAgent`]
//! gives feed mode's AI its next piece. Both hold plain values read from
//! the script when they were made, and never call Lua.

use rand::RngCore;
use tessera_host::agent::{Agent, Considered, Decision, Thinking};
use tessera_host::plugin::GameError;

use crate::ai::feeder::{Feeder, pick};
use crate::ai::log::{DecisionInput, landing_text, write};
use crate::ai::{Brain, Difficulty};
use crate::{Tetris, TetrisAction, TetrisSnapshot};

/// Places the piece in play by a difficulty of the script's table.
pub struct PlacerAgent {
    difficulty: Difficulty,
    log_top: usize,
    brain: Brain,
}

impl PlacerAgent {
    /// An agent playing `difficulty`; its logs list `log_top` candidates
    /// (0 = no log).
    pub fn new(difficulty: Difficulty, log_top: usize) -> Self {
        Self {
            difficulty,
            log_top,
            brain: Brain::new(),
        }
    }
}

impl Agent<Tetris> for PlacerAgent {
    fn decide(
        &mut self,
        view: &TetrisSnapshot,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<TetrisAction>, GameError> {
        let Some(position) = view.position() else {
            return Err(GameError::Illegal("no piece in play to place".into()));
        };
        let noise_seed = thinking.rng.next_u64();
        let keep = if self.log_top == 0 {
            2
        } else {
            self.log_top.max(5)
        };
        let choice = self
            .brain
            .choose_top(&position, &self.difficulty, noise_seed, keep);
        thinking.count_nodes(choice.candidates.len() as u64);
        let Some(best) = choice.best() else {
            return Err(GameError::Illegal(format!(
                "the {} piece has no reachable landing",
                position.piece
            )));
        };
        let p = best.placement;
        let action = TetrisAction::Drop {
            x: p.left_column(),
            rotation: p.state,
            y: Some(p.top_row()),
        };
        if self.log_top == 0 {
            return Ok(Decision::just(action));
        }
        let considered = choice
            .candidates
            .iter()
            .take(5)
            .map(|c| Considered {
                action: landing_text(c),
                value: c.ahead.unwrap_or(c.score),
                detail: format!(
                    "holes {} (+{}) blockades {} wells {} height {} lines {}",
                    c.metrics.holes,
                    c.metrics.holes_created,
                    c.metrics.blockades,
                    c.metrics.well_sums,
                    c.metrics.max_height,
                    c.metrics.lines_cleared
                ),
            })
            .collect();
        let input = DecisionInput {
            position,
            difficulty: self.difficulty.clone(),
            noise_seed,
            turn: view.ai_pieces + 1,
        };
        Ok(Decision {
            action,
            considered,
            explanation: Some(write(&input, &choice, self.log_top)),
        })
    }
}

/// Gives feed mode's AI its next piece, headless.
pub struct FeederAgent {
    feeder: Feeder,
    against: Difficulty,
    brain: Brain,
}

impl FeederAgent {
    /// `feeder` against an AI playing `against`.
    pub fn new(feeder: Feeder, against: Difficulty) -> Self {
        Self {
            feeder,
            against,
            brain: Brain::new(),
        }
    }
}

impl Agent<Tetris> for FeederAgent {
    fn decide(
        &mut self,
        view: &TetrisSnapshot,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<TetrisAction>, GameError> {
        let position = crate::ai::Position {
            board: view.board,
            piece: crate::piece::PieceKind::I,
            next: None,
            rotation: view.rotation,
            spawn_row: view.spawn_row,
            danger_rows: view.danger_rows,
            unknown_next: crate::ai::UnknownNext::Worst(Vec::new()),
        };
        let kind = pick(
            self.feeder,
            &mut self.brain,
            &position,
            &view.offer,
            &self.against,
            thinking.rng,
        )
        .ok_or_else(|| GameError::Illegal("nothing on offer to feed".into()))?;
        Ok(Decision::just(TetrisAction::Feed(kind)))
    }
}
