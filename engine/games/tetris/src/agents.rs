//! The AI players the host hands decisions to: [`PlacerAgent`] places the
//! piece in play (classic AI seats and feed mode's AI), [`FeederAgent`]
//! gives feed mode's AI its next piece. Both hold plain values read from
//! the script when they were made, and never call Lua.
//!
//! The host builds an agent for each decision; the search's working
//! memory (a [`Brain`]: move generators, the candidate list) outlives it
//! on the game's [`BrainShelf`], so a decision reuses the last one's
//! buffers instead of allocating its own.

use std::sync::{Arc, Mutex};

use rand::RngCore;
use tessera_host::agent::{Agent, Considered, Decision, Thinking};
use tessera_host::plugin::GameError;

use crate::ai::Brain;
use crate::ai::feeder::{Feeder, pick};
use crate::ai::log::{DecisionInput, landing_text, write};
use crate::ai::settings::ChosenDifficulty;
use crate::{Tetris, TetrisAction, TetrisSnapshot};

/// Brains kept between decisions: the game holds one shelf and hands it
/// to every agent it builds; an agent takes a brain for its decision and
/// puts it back. A brain is only buffers (no decision depends on what
/// it held before), so any brain serves any seat.
/// (Boxed: a brain holds its move generators' tables, tens of kilobytes
/// that a move off and back onto the shelf would otherwise copy.)
#[derive(Clone, Default)]
pub struct BrainShelf(Arc<Mutex<Vec<Box<Brain>>>>);

impl BrainShelf {
    /// A brain from the shelf, or a new one when none is there.
    pub fn take(&self) -> Box<Brain> {
        self.0
            .lock()
            .ok()
            .and_then(|mut brains| brains.pop())
            .unwrap_or_default()
    }

    /// Puts `brain` back for the next decision.
    pub fn put(&self, brain: Box<Brain>) {
        if let Ok(mut brains) = self.0.lock() {
            brains.push(brain);
        }
    }
}

/// Places the piece in play by a difficulty of the script's table.
pub struct PlacerAgent {
    difficulty: ChosenDifficulty,
    log_top: usize,
    shelf: BrainShelf,
}

impl PlacerAgent {
    /// An agent playing `difficulty` (the script's row, shared); its logs
    /// list `log_top` candidates (0 = no log).
    pub fn new(difficulty: impl Into<ChosenDifficulty>, log_top: usize) -> Self {
        Self {
            difficulty: difficulty.into(),
            log_top,
            shelf: BrainShelf::default(),
        }
    }

    /// This agent, deciding with the brains of `shelf` (the game's).
    pub fn with_shelf(mut self, shelf: BrainShelf) -> Self {
        self.shelf = shelf;
        self
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
        let mut brain = self.shelf.take();
        let decision = self.decide_with(&mut brain, position, noise_seed, view.ai_pieces, thinking);
        self.shelf.put(brain);
        decision
    }
}

impl PlacerAgent {
    /// The decision, with `brain`'s buffers.
    fn decide_with(
        &self,
        brain: &mut Brain,
        position: crate::ai::Position,
        noise_seed: u64,
        ai_pieces: u64,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<TetrisAction>, GameError> {
        let keep = if self.log_top == 0 {
            2
        } else {
            self.log_top.max(5)
        };
        // Ctrl+C or the editor's Cancel stops the search: the decision is
        // then no move at all, never the best of a half-searched tree.
        let choice = brain
            .choose_top_until(
                &position,
                &self.difficulty,
                noise_seed,
                keep,
                thinking.cancel_flag(),
            )
            .map_err(|_| GameError::Cancelled)?;
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
            // The log carries its own copy of the row (it is written out).
            difficulty: (*self.difficulty).clone(),
            noise_seed,
            turn: ai_pieces + 1,
        };
        Ok(Decision {
            action,
            considered,
            explanation: Some(write(&input, choice, self.log_top)),
        })
    }
}

/// Gives feed mode's AI its next piece, headless.
pub struct FeederAgent {
    feeder: Feeder,
    against: ChosenDifficulty,
    shelf: BrainShelf,
}

impl FeederAgent {
    /// `feeder` against an AI playing `against`.
    pub fn new(feeder: Feeder, against: impl Into<ChosenDifficulty>) -> Self {
        Self {
            feeder,
            against: against.into(),
            shelf: BrainShelf::default(),
        }
    }

    /// This feeder, judging with the brains of `shelf` (the game's).
    pub fn with_shelf(mut self, shelf: BrainShelf) -> Self {
        self.shelf = shelf;
        self
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
            ceiling: view.ceiling,
            reader_streak: 0,
            unknown_next: crate::ai::UnknownNext::Worst(Vec::new()),
        };
        let mut brain = self.shelf.take();
        let kind = pick(
            self.feeder,
            &mut brain,
            &position,
            &view.offer,
            &self.against,
            thinking.rng,
        );
        self.shelf.put(brain);
        let kind = kind.ok_or_else(|| GameError::Illegal("nothing on offer to feed".into()))?;
        Ok(Decision::just(TetrisAction::Feed(kind)))
    }
}

/// The agents Tetris registers ([`Tetris::agent`]), built on the game's
/// thread with the script read once.
impl Tetris {
    /// The agent for `seat` at AI `level`; `with_log` makes a placer write
    /// the AI log with each decision (the editor's S panel), which costs
    /// more than the decision itself, so simulations leave it out.
    pub fn make_agent(
        &self,
        seat: usize,
        level: &str,
        with_log: bool,
    ) -> Result<Box<dyn Agent<Self>>, GameError> {
        let script = self.script.current();
        if let Some(feeder) = Feeder::from_name(level) {
            if self.feed.is_none() || seat != 0 {
                return Err(GameError::Invalid(format!(
                    "`{level}` feeds pieces: it plays feed mode's first seat"
                )));
            }
            let against = self
                .feed
                .as_ref()
                .map(|f| f.difficulty.clone())
                .ok_or_else(|| GameError::Invalid("no AI to feed".into()))?;
            return Ok(Box::new(
                FeederAgent::new(feeder, against).with_shelf(self.brains.clone()),
            ));
        }
        let difficulty =
            crate::ai::settings::chosen_difficulty(&script, level)?.ok_or_else(|| {
                GameError::Invalid(format!(
                    "no difficulty `{level}` in the script's `ai.difficulties`"
                ))
            })?;
        let log_top = if with_log {
            crate::ai::settings::feed_settings(&script)?.log_top
        } else {
            0
        };
        Ok(Box::new(
            PlacerAgent::new(difficulty, log_top).with_shelf(self.brains.clone()),
        ))
    }

    /// `random` / `hate` feed the AI; a difficulty name places pieces.
    /// The script is read here, once per decision; a simulation's agents
    /// write no log.
    pub fn agent(&self, seat: usize, level: &str) -> Result<Box<dyn Agent<Self>>, GameError> {
        self.make_agent(seat, level, self.sim.is_none())
    }
}
