//! The AI players the host hands decisions to: [`PlacerAgent`] places the
//! piece in play (classic AI seats and feed mode's AI), [`FeederAgent`]
//! gives feed mode's AI its next piece. Both hold plain values read from
//! the script when they were made, and never call Lua.
//!
//! The host builds an agent for each decision; the search's working
//! memory (a [`Brain`]: move generators, the candidate list) outlives it
//! on the game's [`BrainShelf`], kept in the bot's memory of the game
//! ([`super::memory`]), so a decision reuses the last one's buffers
//! instead of allocating its own.
//!
//! Also here: what the bot registers for the game ([`make_agent`],
//! [`spec`]) and the reader's streak it counts for each decision
//! ([`reader_streak`]).

use std::sync::{Arc, Mutex};

use rand::RngCore;
use tessera_host::agent::{Agent, Considered, Decision, Thinking};
use tessera_host::options::{GameSpec, ModeSpec, Seat};
use tessera_host::plugin::GameError;
use tessera_host::script::Script;

use crate::ai::Brain;
use crate::ai::feeder::{Feeder, pick};
use crate::ai::log::{DecisionInput, landing_text, write};
use crate::ai::settings::{ChosenDifficulty, chosen_difficulty};
use tessera_tetris::{Tetris, TetrisAction, TetrisSnapshot};

/// Brains kept between decisions: the bot keeps one shelf per game and
/// hands it to every agent it builds for the game; an agent takes a brain for its decision and
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
    /// The reader's streak when the agent was made, for the decision
    /// it makes (the host makes an agent for each decision).
    reader_streak: u32,
}

impl PlacerAgent {
    /// An agent playing `difficulty` (the script's row, shared); its logs
    /// list `log_top` candidates (0 = no log).
    pub fn new(difficulty: impl Into<ChosenDifficulty>, log_top: usize) -> Self {
        Self {
            difficulty: difficulty.into(),
            log_top,
            shelf: BrainShelf::default(),
            reader_streak: 0,
        }
    }

    /// This agent, deciding with the reader's streak `streak` (feed mode).
    pub fn with_reader_streak(mut self, streak: u32) -> Self {
        self.reader_streak = streak;
        self
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
        let Some(position) = super::feed::position(view, self.reader_streak) else {
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
            piece: tessera_tetris::piece::PieceKind::I,
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

/// The agent for `seat` of `game` at AI `level`; `with_log` makes a placer
/// write the AI log with each decision. The script is read here, once per
/// decision.
pub fn make_agent(
    game: &Tetris,
    seat: usize,
    level: &str,
    with_log: bool,
) -> Result<Box<dyn Agent<Tetris>>, GameError> {
    let script = game.current_script();
    let brains = super::memory::of(game.instance()).brains;
    if let Some(feeder) = Feeder::from_name(level) {
        let feed = game.feed_state();
        if feed.is_none() || seat != 0 {
            return Err(GameError::Invalid(format!(
                "`{level}` feeds pieces: it plays feed mode's first seat"
            )));
        }
        let against = feed
            .map(|f| f.difficulty.as_str())
            .ok_or_else(|| GameError::Invalid("no AI to feed".into()))?;
        // The AI's row as the script has it now, as the AI's own agent
        // reads it.
        let against = chosen_difficulty(&script, against)?.ok_or_else(|| {
            GameError::Invalid(format!(
                "no difficulty `{against}` in the script's `ai.difficulties`"
            ))
        })?;
        return Ok(Box::new(
            FeederAgent::new(feeder, against).with_shelf(brains),
        ));
    }
    let difficulty = chosen_difficulty(&script, level)?.ok_or_else(|| {
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
        PlacerAgent::new(difficulty, log_top)
            .with_shelf(brains)
            .with_reader_streak(reader_streak(game)),
    ))
}

/// The game's modes, seats and AI levels: the rules' classic play
/// ([`Tetris::classic_spec`]) with feed mode added and two seats; the
/// feeders (`random`, `hate`, for feed mode's first seat), then the
/// script's difficulties, lower case, weakest first.
pub fn spec(script: &Script) -> Result<GameSpec, GameError> {
    let difficulties = crate::ai::settings::table(script)?;
    let placer = difficulties
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case("god"))
        .or(difficulties.last())
        .map(|d| d.name.to_lowercase())
        .unwrap_or_default();
    let mut feed = ModeSpec::new("feed", "Feed the AI");
    feed.default_seats = vec![Seat::Human, Seat::Ai { level: placer }];
    let mut ai_levels: Vec<String> = Feeder::listed().into_iter().map(Feeder::name).collect();
    ai_levels.extend(difficulties.iter().map(|d| d.name.to_lowercase()));
    let mut spec = Tetris::classic_spec(script)?;
    spec.modes.push(feed);
    spec.max_seats = 2;
    spec.ai_levels = ai_levels;
    // `hate:P` for any P in 0..1, not only the listed three.
    spec.also_accepts = Some(|name| Feeder::from_name(name).is_some());
    Ok(spec)
}

/// The reader's streak of `game`'s feed mode (0 in classic play), by the
/// AI's row as the script has it now; 0 when the script has no such row
/// (the AI's agent then refuses to play it).
pub fn reader_streak(game: &Tetris) -> u32 {
    let Some(feed) = game.feed_state() else {
        return 0;
    };
    match chosen_difficulty(&game.current_script(), &feed.difficulty) {
        Ok(Some(difficulty)) => super::feed::reader_streak(
            feed,
            &difficulty,
            &super::memory::of(game.instance()).streak,
        ),
        _ => 0,
    }
}
