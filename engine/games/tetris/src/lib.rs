//! Classic Tetris (seed 002) with levels: falling tetrominoes on a bit-row
//! board, the seed's cycle rotation or SRS with wall kicks, 7-bag or
//! uniform pieces, hold, preview, lock delay and DAS/ARR in ticks; level
//! files add goals, starting garbage and fixed piece sequences.
//!
//! - [`piece`]: shapes, orientations, kick tables; [`board`]: bit rows;
//!   [`movegen`]: every reachable landing (bit-parallel) and the input path
//!   to one; [`rules`]: the script-free core (inputs, gravity, lock,
//!   clears); [`settings`]: what `scripts/tetris.lua` tunes; [`level`]:
//!   the RON format; [`solver`]: the fixed-sequence puzzle search;
//!   [`scenarios`]: bench positions.
//! - This file holds the flow: scoring, levels and goals through the
//!   script (per lock), events, and the `Game` impl.
//!
//! These are the rules alone, the way Cold Clear keeps its bot apart from
//! libtetris (issue #48): [`piece`], [`board`], [`movegen`], [`rules`],
//! [`level`], `flow`, [`settings`], [`feed`] (feed mode: the offer, the
//! ceiling, the pieces given and their boards), [`feed_rules`] (its
//! script values and the ceiling's clock), [`sim`], [`solver`],
//! [`generate`], [`scenarios`], `report`. The bot (the AI, its agents,
//! seats, checks, campaign and commands) is the crate `tessera-tetris-bot`,
//! which depends on this one and registers itself beside the rules
//! (`tessera_tetris_bot::register`); Cargo keeps the direction. Registered
//! alone, Tetris is classic play for one human seat.
//!
//! Flow decisions (RULINGS "Classic Tetris" plus our choices where it is
//! silent):
//! - Level = the script's `level_for(score)` (seed: 1000 points per
//!   level, starting at 0 with the seed's 2 s per row); the marathon goal
//!   is won when `won(score, level, lines)` says so (seed: level 9 passed,
//!   9000 points).
//! - Top-out: after a lock and its clears, a block in the board's top row
//!   (row 0, hidden rows included), or a next piece that cannot spawn.
//! - Soft drop never locks; hard drop locks at once; with the seed's lock
//!   delay of 0 a grounded piece locks at its next gravity step.
//! - Script settings are re-read at each lock when the script changed; a
//!   bad value is reported with its line and the last good settings stay.
//!
//! Modes (RULINGS "Tetris AI and feed mode"):
//! - `classic`: one seat. A human plays with the keyboard; an AI seat
//!   (`ai:god`, ...) places each piece with a `Drop` at a reachable landing.
//! - `feed`: seat 1 (the player, or the `random` / `hate` feeder) chooses
//!   each piece the AI in seat 2 gets, from the seven plus, with the
//!   difficulty's chance, one special. The ceiling drops a row every N AI
//!   pieces and pieces spawn just under it. The player wins when a locked
//!   AI piece reaches the row under the ceiling (or the ceiling comes down
//!   onto the stack, or a piece cannot spawn); the AI wins on clearing the
//!   level's `target_lines`.

pub mod board;
pub mod feed;
pub mod feed_rules;
mod flow;
pub mod generate;
pub mod level;
pub mod movegen;
pub mod piece;
pub mod rules;
pub mod scenarios;
pub mod settings;
pub mod sim;
pub mod solver;

mod report;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use tessera_host::agent::AgentGame;
use tessera_host::level::{Diagnostic, LevelFile};
use tessera_host::options::{GameSpec, ModeSpec, Seat};
use tessera_host::plugin::{Game, GameError, GameEvent, Outcome, Setup, Turn};
use tessera_host::plugin::{LevelFormats, Moves, Reports, Scripted, Simulated};
use tessera_host::registrar::{Plugin, Registrar};
use tessera_host::rng::game_rng;
use tessera_host::script::{LiveScript, Script, ScriptError, ScriptSchema};
use tessera_host::sim::{SimFigure, SimOptionSpec, SimOptions, SimPlay, SimStyle};

use board::{Board, spawn_position};
use level::{Goal, TetrisLevel};
use movegen::{MoveGen, Placement};
use piece::{PieceKind, RotationSystem};
use rules::{Config, Field, Key, PieceSource};
use settings::Settings;

pub use feed::FeedState;
pub use level::TetrisLevel as Level;

/// A player input, a tick, or a scripted placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TetrisAction {
    /// One column left (a tap).
    Left,
    /// One column right (a tap).
    Right,
    /// One row down (a tap; never locks).
    SoftDrop,
    /// Drop to the bottom and lock.
    HardDrop,
    /// Turn clockwise.
    RotateCw,
    /// Turn counter-clockwise.
    RotateCcw,
    /// Swap with the hold box (when the script allows hold).
    Hold,
    /// Pause or resume.
    Pause,
    /// Key down: moves now, repeats after DAS every ARR ticks while held.
    Press(Key),
    /// Key up.
    Release(Key),
    /// Let `n` ticks pass.
    Tick(u32),
    /// Feed mode: the player gives the AI this piece (one of the offer).
    Feed(PieceKind),
    /// Lock the piece in play at a reachable landing: `rotation` state,
    /// leftmost cell in column `x` (0-based), and, for tucks, the top
    /// cell in row `y` (the highest such landing when left out).
    Drop {
        /// Column of the piece's leftmost cell.
        x: i32,
        /// Rotation state (0 = spawn; SRS 1 = R, 2, 3 = L).
        rotation: u8,
        /// Row of the piece's top cell, to pick one of several landings.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        y: Option<i32>,
    },
}

/// What an AI (next issue) or the puzzle search decides from: the board
/// bits and the piece state, no script.
#[derive(Debug, Clone)]
pub struct TetrisSnapshot {
    /// Locked cells.
    pub board: Board,
    /// The piece in play.
    pub active: Option<Placement>,
    /// Next pieces, first to come first.
    pub queue: Vec<PieceKind>,
    /// The held piece.
    pub hold: Option<PieceKind>,
    /// Whether hold may be used now.
    pub hold_allowed: bool,
    /// The rotation system in force.
    pub rotation: RotationSystem,
    /// The row pieces spawn at (0, or just under feed mode's ceiling).
    pub spawn_row: i32,
    /// Rows from the top where a locked cell tops out.
    pub danger_rows: usize,
    /// When feed mode's ceiling drops next (never, in classic play).
    pub ceiling: feed_rules::CeilingClock,
    /// Feed mode: the pieces the player may give now (empty otherwise).
    pub offer: Vec<PieceKind>,
    /// Whether this is a feed game (the next piece is the feeder's choice).
    pub feed: bool,
    /// Pieces the AI has placed (the seed's "turn").
    pub ai_pieces: u64,
}

/// One scored lock in the clear log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClearRecord {
    /// Tick of the lock.
    pub tick: u64,
    /// Lines cleared.
    pub lines: u32,
    /// Points the script gave.
    pub points: u64,
    /// Level after it.
    pub level: u32,
}

/// A game of tetris.
pub struct Tetris {
    level: TetrisLevel,
    script: LiveScript,
    generation: u64,
    settings: Settings,
    field: Field,
    movegen: Box<MoveGen>,
    seed: u64,
    score: u64,
    level_no: u32,
    outcome: Outcome,
    log: Vec<ClearRecord>,
    events: Vec<GameEvent>,
    over_reason: Option<String>,
    feed: Option<FeedState>,
    /// Classic mode with an AI seat: the game waits for its `Drop`s.
    ai_plays: bool,
    /// The piece (by the count of pieces locked before it) the player's
    /// keys last steered: the first key on a new piece begins a move, the
    /// unit the host's undo takes back.
    steered_piece: Option<u64>,
    /// Set in a simulation ([`Simulated::sim_setup`]): its cap and preview.
    sim: Option<sim::SimSettings>,
    /// This game, for what outside code keeps about it.
    instance: Arc<Instance>,
}

/// A game of tetris as a key for what code outside the rules keeps about
/// it (the bot keeps its working memory by it): one per started game,
/// never shared by two, so a replay or an undo (a new start) gets its own.
#[derive(Debug)]
pub struct Instance(());

pub(crate) fn config_of(settings: &Settings, level: &TetrisLevel, level_no: u32) -> Config {
    Config {
        rotation: level.rotation_override().unwrap_or(settings.rotation),
        fall_ticks: settings.fall_ticks_at(level_no),
        soft_drop_ticks: settings.soft_drop_ticks,
        lock_delay_ticks: settings.lock_delay_ticks,
        lock_resets: settings.lock_resets,
        das_ticks: settings.das_ticks,
        arr_ticks: settings.arr_ticks,
        preview: settings.preview,
        hold: settings.hold,
    }
}

impl Tetris {
    /// The level played.
    pub fn level(&self) -> &TetrisLevel {
        &self.level
    }

    /// The rules core (board, piece, queue, hold).
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The rotation system in force.
    pub fn rotation(&self) -> RotationSystem {
        self.field.config().rotation
    }

    /// Score.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Lines cleared.
    pub fn lines(&self) -> u64 {
        self.field.rows_cleared()
    }

    /// Current level (0-based).
    pub fn level_number(&self) -> u32 {
        self.level_no
    }

    /// Why the game ended, in words (`OVER: ...`, `won: ...`).
    pub fn over_reason(&self) -> Option<&str> {
        self.over_reason.as_deref()
    }

    /// Every scoring lock so far.
    pub fn clear_log(&self) -> &[ClearRecord] {
        &self.log
    }

    /// Hidden rows above the visible field.
    pub fn hidden_rows(&self) -> usize {
        self.level.hidden_rows as usize
    }

    /// How far the goal is, as (done, needed), for the progress display.
    pub fn goal_progress(&self) -> (u64, u64) {
        match self.level.goal {
            Goal::Marathon => (self.score, 9000),
            Goal::Score(n) => (self.score, n),
            Goal::Lines(n) => (self.lines(), n),
            Goal::Survive(n) => (self.field.locked(), n),
            Goal::ClearGarbage => {
                let (start, _) = self.level.starting_cells();
                let total = u64::from(start.count());
                (
                    total - u64::from(self.field.garbage().count()).min(total),
                    total,
                )
            }
        }
    }

    /// Every landing of the piece in play (deduped by cell set).
    pub fn landings(&mut self) -> Vec<Placement> {
        let Some(active) = self.field.active() else {
            return Vec::new();
        };
        let spawn = self.spawn_of(active.kind);
        self.movegen
            .generate(self.field.board(), active.kind, self.rotation(), spawn)
            .to_vec()
    }

    /// Where `kind` spawns (under the ceiling in feed mode).
    pub fn spawn_of(&self, kind: PieceKind) -> (i32, i32) {
        let (x, _) = spawn_position(kind, self.field.board().width());
        (x, self.field.spawn_row())
    }

    /// Feed mode's state (`None` in classic play).
    pub fn feed_state(&self) -> Option<&FeedState> {
        self.feed.as_ref()
    }

    /// This game's instance token.
    pub fn instance(&self) -> &Arc<Instance> {
        &self.instance
    }

    /// Whether the game is played by a simulation (`tessera sim`), which
    /// keeps no AI log: the log would cost more than the decision.
    pub fn in_simulation(&self) -> bool {
        self.sim.is_some()
    }

    /// The script as it is now.
    pub fn current_script(&self) -> Arc<Script> {
        self.script.current()
    }

    /// The landing `Drop { x, rotation, y }` names, or why none does.
    pub fn find_drop(
        &mut self,
        x: i32,
        rotation: u8,
        y: Option<i32>,
    ) -> Result<Placement, GameError> {
        let Some(active) = self.field.active() else {
            return Err(GameError::Illegal("no piece in play".into()));
        };
        let system = self.rotation();
        if rotation >= system.states(active.kind) {
            return Err(GameError::Illegal(format!(
                "rotation {rotation}: the {} piece has {} states under {system}",
                active.kind,
                system.states(active.kind)
            )));
        }
        let state = piece::orientation(active.kind, rotation).canonical;
        let landings = self.landings();
        landings
            .into_iter()
            .filter(|p| p.state == state && p.left_column() == x)
            .find(|p| y.is_none_or(|y| p.top_row() == y))
            .ok_or_else(|| {
                GameError::Illegal(format!(
                    "the {} piece cannot reach a landing in rotation {rotation} at column {x}{}",
                    active.kind,
                    y.map(|y| format!(", row {y}")).unwrap_or_default()
                ))
            })
    }
}

impl Game for Tetris {
    const ID: &'static str = "tetris";

    const TITLE: &'static str = "Tetris";

    type Level = TetrisLevel;

    type Action = TetrisAction;

    fn start(setup: Setup<TetrisLevel>) -> Result<Self, GameError> {
        let Setup {
            mut level,
            script,
            seed,
            options,
        } = setup;
        // A game started without a level file gets `Level::default()`, the
        // classic 18 x 12 board; feed mode is played on its own 22 x 10
        // board with a ceiling (RULINGS), so it gets that one instead.
        if options.mode() == "feed" && level == TetrisLevel::default() {
            level = feed::default_feed_level(options.ai_level(1).unwrap_or("GOD"));
        }
        if let Some(error) = level.diagnose().into_iter().find(Diagnostic::is_error) {
            return Err(GameError::Level(error));
        }
        let current = script.current();
        let settings = Settings::read(&current)?;
        let (board, colours) = level.starting_cells();
        let randomizer = level.randomizer_override().unwrap_or(settings.randomizer);
        let source = PieceSource::new(level.sequence_pieces(), randomizer, game_rng(seed));
        let config = config_of(&settings, &level, 0);
        let feed = match options.mode() {
            "feed" => {
                feed::check_seat_count(&options)?;
                Some(feed::feed_state(&level, &options, &current, seed)?)
            }
            _ => {
                if options.seats.len() > 1 {
                    return Err(GameError::Invalid(format!(
                        "classic tetris is played by one seat, not {}",
                        options.seats.len()
                    )));
                }
                None
            }
        };
        let ai_plays = feed.is_none() && options.ai_level(0).is_some();
        let field = if feed.is_some() {
            Field::fed(board, colours, source, config)
        } else {
            Field::new(board, colours, source, config)
        };
        let mut game = Self {
            generation: script.generation(),
            level,
            script,
            settings,
            field,
            movegen: Box::new(MoveGen::new()),
            seed,
            score: 0,
            level_no: 0,
            outcome: Outcome::Playing,
            log: Vec::new(),
            events: Vec::new(),
            over_reason: None,
            feed,
            ai_plays,
            steered_piece: None,
            sim: None,
            instance: Arc::new(Instance(())),
        };
        if game.feed.is_some() {
            game.new_offer();
        } else if game.field.is_over() {
            game.end(
                Outcome::Lost,
                "OVER: the first piece cannot spawn".into(),
                &current,
            );
        }
        Ok(game)
    }

    fn apply(&mut self, action: &TetrisAction) -> Result<(), GameError> {
        if self.outcome.is_over() {
            return Err(GameError::Illegal("the game is over".into()));
        }
        if !matches!(
            action,
            TetrisAction::Tick(_) | TetrisAction::Pause | TetrisAction::Release(_)
        ) {
            self.steered_piece = Some(self.field.locked());
        }
        let paused = self.field.is_paused();
        if paused
            && !matches!(
                action,
                TetrisAction::Pause | TetrisAction::Tick(_) | TetrisAction::Release(_)
            )
        {
            return Err(GameError::Illegal("the game is paused".into()));
        }
        match *action {
            TetrisAction::Left => {
                self.field.shift(-1);
            }
            TetrisAction::Right => {
                self.field.shift(1);
            }
            TetrisAction::SoftDrop => {
                self.field.soft_drop();
            }
            TetrisAction::RotateCw => {
                self.field.rotate(true);
            }
            TetrisAction::RotateCcw => {
                self.field.rotate(false);
            }
            TetrisAction::HardDrop => {
                let lock = self.field.hard_drop();
                self.after(lock);
            }
            TetrisAction::Hold => {
                if !self.field.config().hold {
                    return Err(GameError::Illegal(
                        "hold is switched off in the script (`hold = false`)".into(),
                    ));
                }
                if self.field.hold_used() {
                    return Err(GameError::Illegal(
                        "hold was already used for this piece".into(),
                    ));
                }
                let lock = self.field.hold();
                if let Some(lock) = lock {
                    let script = self.script.current();
                    let reason = if lock.out_of_pieces {
                        "OVER: the sequence ran out"
                    } else {
                        "OVER: the held-out piece cannot spawn"
                    };
                    self.end(Outcome::Lost, reason.into(), &script);
                }
            }
            TetrisAction::Pause => self.field.toggle_pause(),
            TetrisAction::Press(key) => self.field.press(key),
            TetrisAction::Release(key) => self.field.release(key),
            TetrisAction::Tick(n) => self.advance(n)?,
            TetrisAction::Feed(kind) => self.feed_piece(kind)?,
            TetrisAction::Drop { x, rotation, y } => {
                let placement = self.find_drop(x, rotation, y)?;
                let lock = self.field.lock_at(placement);
                self.after(lock);
            }
        }
        Ok(())
    }

    fn advance(&mut self, ticks: u32) -> Result<(), GameError> {
        // Feed mode and AI play are turn by turn: the AI's piece does not
        // fall while it thinks.
        if self.feed.is_some() || self.ai_plays {
            return Ok(());
        }
        for _ in 0..ticks {
            if self.outcome.is_over() || self.field.is_paused() {
                break;
            }
            let lock = self.field.tick();
            self.after(lock);
        }
        Ok(())
    }

    fn legal_actions(&self) -> Vec<TetrisAction> {
        if self.outcome.is_over() {
            return Vec::new();
        }
        let Some(active) = self.field.active() else {
            return match &self.feed {
                Some(feed) => feed.offer.iter().map(|&k| TetrisAction::Feed(k)).collect(),
                None => Vec::new(),
            };
        };
        let spawn = self.spawn_of(active.kind);
        let mut generator = MoveGen::new();
        let mut out: Vec<TetrisAction> = generator
            .generate(self.field.board(), active.kind, self.rotation(), spawn)
            .iter()
            .map(|p| TetrisAction::Drop {
                x: p.left_column(),
                rotation: p.state,
                y: Some(p.top_row()),
            })
            .collect();
        if self.field.config().hold && !self.field.hold_used() {
            out.push(TetrisAction::Hold);
        }
        out
    }

    fn turn(&self) -> Turn {
        if self.outcome.is_over() {
            Turn::Over
        } else if self.feed.is_some() {
            if self.field.active().is_some() {
                Turn::Seat(1)
            } else {
                Turn::Seat(0)
            }
        } else if self.ai_plays {
            Turn::Seat(0)
        } else {
            Turn::RealTime
        }
    }

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
    }

    fn take_events(&mut self) -> Vec<GameEvent> {
        std::mem::take(&mut self.events)
    }

    fn render_text(&self) -> String {
        self.render_line()
    }
}

impl Scripted for Tetris {
    /// The shipped `scripts/tetris.lua`: every tunable at the seed's value.
    const DEFAULT_SCRIPT: Option<&'static str> =
        Some(include_str!("../../../../scripts/tetris.lua"));

    fn script_schema() -> ScriptSchema {
        settings::schema()
    }

    /// The settings readers are the one check, every section of the
    /// script: a speed table that is not decreasing, an unknown rotation
    /// system, a misspelt weight, `beam = 1000`, a duplicated difficulty or
    /// a special that is not a pentomino is refused by `check`, `watch`,
    /// the editor's reload and game start alike, at its line.
    fn check_script(script: &Script) -> Result<(), ScriptError> {
        Settings::read(script)?;
        feed_rules::check(script)
    }
}

/// The rules' capabilities: the script, classic play's mode, feed levels,
/// reports, moves of several key presses, simulations and the generator.
/// Feed mode's seats, the AI levels, the AI players and their checks are
/// the bot's to register (`tessera_tetris_bot::register`, whose seats
/// replace these).
impl Plugin for Tetris {
    fn register(game: &mut Registrar<Self>) {
        game.scripted()
            .seats(Self::classic_spec)
            .level_formats()
            .reports()
            .moves()
            .simulated()
            .generator(generate::GENERATOR);
    }
}

impl Tetris {
    /// The rules' one mode: `classic`, one human seat (a game recorded
    /// without the bot replays by it).
    pub fn classic_spec(_script: &Script) -> Result<GameSpec, GameError> {
        Ok(GameSpec {
            modes: vec![ModeSpec::new("classic", "Classic")],
            ..GameSpec::single_player()
        })
    }
}

impl AgentGame for Tetris {
    type Snapshot = TetrisSnapshot;
    type Action = TetrisAction;

    fn snapshot(&self) -> TetrisSnapshot {
        // A simulation without preview hides the next pieces from the AI.
        let preview = self.sim.as_ref().is_none_or(|s| s.preview);
        TetrisSnapshot {
            board: *self.field.board(),
            active: self.field.active().map(|a| a.placement()),
            queue: if preview {
                self.field.queue().collect()
            } else {
                Vec::new()
            },
            hold: self.field.held_piece(),
            hold_allowed: self.field.config().hold && !self.field.hold_used(),
            rotation: self.rotation(),
            spawn_row: self.field.spawn_row(),
            danger_rows: self.field.danger_rows(),
            ceiling: self.ceiling_clock(),
            offer: self
                .feed
                .as_ref()
                .map(|f| f.offer.clone())
                .unwrap_or_default(),
            feed: self.feed.is_some(),
            ai_pieces: self
                .feed
                .as_ref()
                .map_or(self.field.locked(), |f| f.ai_pieces),
        }
    }
}

impl LevelFormats for Tetris {
    /// A feed level is played in feed mode against its difficulty.
    fn level_options(level: &TetrisLevel) -> tessera_host::options::SessionOptions {
        match &level.feed {
            Some(feed) => tessera_host::options::SessionOptions {
                mode: Some("feed".into()),
                seats: vec![
                    Seat::Human,
                    Seat::Ai {
                        level: feed.difficulty.to_lowercase(),
                    },
                ],
            },
            None => tessera_host::options::SessionOptions::default(),
        }
    }
}

impl Reports for Tetris {
    fn scores(&self) -> Vec<i64> {
        vec![i64::try_from(self.score).unwrap_or(i64::MAX)]
    }

    fn report_text(&self, render: bool) -> String {
        self.summary(render)
    }

    fn report_json(&self) -> serde_json::Value {
        self.json_report()
    }
}

impl Moves for Tetris {
    /// A move is one piece: its first steering key, a scripted drop or a
    /// feed offer. Time, pause and key releases are not moves.
    fn move_starts(&self, action: &TetrisAction) -> bool {
        match action {
            TetrisAction::Tick(_) | TetrisAction::Pause | TetrisAction::Release(_) => false,
            TetrisAction::Feed(_) | TetrisAction::Drop { .. } => true,
            _ => self.steered_piece != Some(self.field.locked()),
        }
    }
}

impl Simulated for Tetris {
    /// Each AI level plays its own games: `sim tetris --ai easy,god`.
    const SIM_STYLE: SimStyle = SimStyle::Ladder;

    const SIM_OPTIONS: &'static [SimOptionSpec] = sim::OPTIONS;

    fn sim_level(options: &tessera_host::options::SessionOptions) -> Option<TetrisLevel> {
        Some(Self::sim_board(options))
    }

    fn sim_setup(&mut self, options: &SimOptions) -> Result<(), GameError> {
        self.sim = Some(sim::SimSettings::of(options));
        if options.flag("endless")
            && let Some(feed) = &mut self.feed
        {
            // Survival on the level's board and ceiling: the target is out
            // of reach, so the game ends at a top-out or the piece cap.
            feed.target_lines = u64::MAX;
        }
        Ok(())
    }

    fn sim_stopped(&self) -> bool {
        self.sim_capped()
    }

    fn sim_figures(&self, play: &SimPlay) -> Vec<SimFigure> {
        self.figures(play)
    }
}

impl std::fmt::Debug for Tetris {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tetris")
            .field("score", &self.score)
            .field("level", &self.level_no)
            .field("outcome", &self.outcome)
            .finish_non_exhaustive()
    }
}

// One test binary per crate: the tests in `tests/` are a module of the
// unit-test binary rather than integration binaries of their own (each would
// link the whole dependency tree again). They name the crate as
// `tessera_tetris`, like outside code, so they exercise only the public API.
#[cfg(test)]
extern crate self as tessera_tetris;
#[cfg(test)]
#[path = "../tests/main.rs"]
mod api_tests;
