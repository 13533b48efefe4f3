//! Sand drop (seed 000): Block-Blast style drag-and-drop of tetrominoes that
//! crumble into grains of sand; a same-colour cluster of settled grains that
//! spans the board from the left wall to the right wall is cleared.
//!
//! - [`grid`]: the grain grid (bit rows); [`physics`]: one tick of grain
//!   motion; [`clear`]: the spanning-cluster search; [`piece`]: shapes and
//!   the 7-bag; [`settings`]: what `scripts/sand.lua` tunes.
//! - This file holds the game (`Sand`, its actions, its clear log) and its
//!   `Game` impl; `level.rs` the level file and its diagnosis;
//!   `placement.rs` where a piece may go; `flow.rs` the flow: ticks, the
//!   clear sequence (flash, burst, removal, fall, chain), scoring through
//!   the script, and game over; `report.rs` the text and JSON summaries.
//!
//! Flow decisions (RULINGS "Sand drop" plus our choices where it is silent):
//! - A spanning check (settled grains only) runs when a placed piece has
//!   fully settled (its grains carry a piece tag, so this is exact even
//!   while other pieces fall) and when the board has settled after a
//!   removal. No check runs while a clear is under way: a piece that lands
//!   meanwhile is checked right after the removal.
//! - A check that follows a removal continues the chain (level + 1); the
//!   chain ends when the board settles after a removal with nothing to
//!   clear. A check that finds nothing checks game over (and calls
//!   `on_settle` when the whole board is settled). Several clusters found by
//!   one check are scored at the same level.
//! - A score function that fails (error, NaN, negative) scores 0 for that
//!   cluster; the error is kept for the host (`take_messages`) and the game
//!   goes on. A later script swap takes effect at the next clear.

pub mod clear;
pub mod cli;
mod flow;
pub mod generate;
pub mod grid;
mod level;
pub mod physics;
pub mod piece;
mod placement;
mod report;
pub mod scenarios;
pub mod settings;

pub use level::{LevelColour, SandLevel};

use serde::{Deserialize, Serialize};

use tessera_host::level::{Diagnostic, LevelFile};
use tessera_host::plugin::{Game, GameError, GameEvent, Outcome, Setup, Turn};
use tessera_host::plugin::{Moves, Reports, Scripted};
use tessera_host::registrar::{Plugin, Registrar};
use tessera_host::rng::{GameRng, game_rng};
use tessera_host::script::{LiveScript, Script, ScriptError, ScriptSchema};

use clear::{Cluster, ClusterSearch};
use grid::GrainGrid;
use piece::{Bag, Piece};
use settings::{PaletteColour, Settings};

/// Most ticks `Settle` runs before giving up (a board always settles far
/// sooner; this only guards against a runaway script timing).
pub const SETTLE_LIMIT: u64 = 10_000_000;

/// A player move or a command for headless play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum SandAction {
    /// Place the piece of `slot` with its bounding box's top-left logical
    /// cell at column `x`, row `y`.
    Place {
        /// Preview slot, 0-based.
        slot: usize,
        /// Logical column of the piece's left edge.
        x: i32,
        /// Logical row of the piece's top edge.
        y: i32,
        /// Clockwise quarter turns (only when the script allows rotation).
        #[serde(default)]
        rotation: u8,
    },
    /// Let `n` ticks pass.
    Tick(u32),
    /// Let time pass until the board is settled and no clear is under way.
    Settle,
}

/// One scored cluster in the chain log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoredCluster {
    /// Palette index.
    pub colour: u8,
    /// Grains cleared.
    pub grains: u32,
    /// Logical cells cleared (grains / cell area).
    pub cells: f64,
    /// Points the script gave it (0 when the score function failed).
    pub points: u64,
}

/// One clear round: every cluster one check found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClearRound {
    /// Tick the check ran on.
    pub tick: u64,
    /// Chain level (1 for the first clear after a placement).
    pub chain: u32,
    /// The clusters, each scored at `chain`.
    pub clusters: Vec<ScoredCluster>,
}

impl ClearRound {
    /// Points of the whole round.
    pub fn points(&self) -> u64 {
        self.clusters.iter().map(|c| c.points).sum()
    }
}

/// Where a clear under way stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClearPhase {
    /// The matched grains flash; `left` ticks remain.
    Flash {
        /// Ticks left in this phase.
        left: u32,
    },
    /// The grains burst into particles; `left` ticks remain before removal.
    Burst {
        /// Ticks left in this phase.
        left: u32,
        /// Length of the phase, for animations.
        total: u32,
    },
}

/// A game of sand drop. Cloned by the generator's search (each
/// placement sequence plays on a copy).
#[derive(Clone)]
pub struct Sand {
    level: SandLevel,
    script: LiveScript,
    settings: Settings,
    cell: usize,
    columns: usize,
    rows: usize,
    grid: GrainGrid,
    search: ClusterSearch,
    /// Grains of the clear under way (one mask per row).
    clearing: Vec<u128>,
    clusters: Vec<Cluster>,
    phase: Option<ClearPhase>,
    /// Chain level of the last clear of the chain under way; 0 when none.
    chain: u32,
    /// A check is due once the whole board has settled (after a removal,
    /// or for grains that carry no piece tag).
    check_due: bool,
    /// A placed piece has fully settled; a check is due (once no clear is
    /// under way).
    piece_check_due: bool,
    /// The last check removed grains: the next check on the settled board
    /// continues the chain.
    chain_pending: bool,
    /// Tags of placed pieces with grains still awake.
    in_flight: Vec<u8>,
    slots: Vec<Piece>,
    bag: Bag,
    /// The session's seed (shown in summaries).
    seed: u64,
    pieces_rng: GameRng,
    physics_rng: GameRng,
    score: u64,
    tick: u64,
    placed: u64,
    cleared_grains: u64,
    outcome: Outcome,
    log: Vec<ClearRound>,
    /// Events since the host last took them (clears, script errors and
    /// prints, game over).
    events: Vec<GameEvent>,
}

impl Sand {
    /// The grain grid.
    pub fn grid(&self) -> &GrainGrid {
        &self.grid
    }

    /// The settings read at the start.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The palette.
    pub fn palette(&self) -> &[PaletteColour] {
        &self.settings.palette
    }

    /// Grains per logical cell side.
    pub fn cell_size(&self) -> usize {
        self.cell
    }

    /// Logical columns and rows.
    pub fn logical_size(&self) -> (usize, usize) {
        (self.columns, self.rows)
    }

    /// The spanning clears so far (clusters cleared).
    pub fn clears(&self) -> u64 {
        self.log
            .iter()
            .map(|round| round.clusters.len() as u64)
            .sum()
    }

    /// Whether the level's fixed tray is played (pieces leave, none come).
    pub fn has_tray(&self) -> bool {
        !self.level.tray.is_empty()
    }

    /// The pieces in the preview slots.
    pub fn slots(&self) -> &[Piece] {
        &self.slots
    }

    /// Total score.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Ticks played.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Pieces placed.
    pub fn placed(&self) -> u64 {
        self.placed
    }

    /// Grains removed by clears so far.
    pub fn cleared_grains(&self) -> u64 {
        self.cleared_grains
    }

    /// Every clear round so far.
    pub fn chain_log(&self) -> &[ClearRound] {
        &self.log
    }

    /// The clear under way, if any.
    pub fn clear_phase(&self) -> Option<ClearPhase> {
        self.phase
    }

    /// Grains of the clear under way (one mask per grain row).
    pub fn clearing_rows(&self) -> &[u128] {
        &self.clearing
    }

    /// The clusters of the clear under way (or the last one).
    pub fn clusters(&self) -> &[Cluster] {
        &self.clusters
    }

    /// Current chain level (0 when no chain is under way).
    pub fn chain(&self) -> u32 {
        self.chain
    }

    /// Whether the board is settled and no clear or check is pending.
    pub fn is_idle(&self) -> bool {
        self.grid.is_settled()
            && self.phase.is_none()
            && !self.check_due
            && !self.piece_check_due
            && self.in_flight.is_empty()
    }

    /// Replaces the piece in `slot` (tests, editor debug tools).
    pub fn set_slot(&mut self, slot: usize, piece: Piece) -> Result<(), GameError> {
        let colours = self.settings.palette.len();
        let count = self.slots.len();
        let Some(target) = self.slots.get_mut(slot) else {
            return Err(GameError::Invalid(format!(
                "slot {slot} does not exist (there are {count})"
            )));
        };
        if usize::from(piece.colour) >= colours {
            return Err(GameError::Invalid(format!(
                "colour {} is not in the palette of {colours}",
                piece.colour
            )));
        }
        *target = piece;
        Ok(())
    }

    fn load_board(&mut self, board: &[String]) -> Result<(), GameError> {
        let offset = self.rows - board.len().min(self.rows);
        for (i, row) in board.iter().enumerate() {
            for (cx, c) in row.chars().enumerate() {
                if c == '.' {
                    continue;
                }
                let Some(colour) = self.settings.palette.iter().position(|p| p.letter == c) else {
                    let finding = self
                        .level
                        .check_letters(&self.settings.palette)
                        .unwrap_or_else(|| {
                            Diagnostic::error(
                                std::path::Path::new(""),
                                format!(
                                    "field `board`, row {}: {c:?} is not a palette letter",
                                    i + 1
                                ),
                            )
                            .at("board")
                            .at_index(i)
                        });
                    return Err(GameError::Level(finding));
                };
                self.grid.fill_area(
                    cx * self.cell,
                    (offset + i) * self.cell,
                    self.cell,
                    self.cell,
                    colour as u8,
                );
                self.check_due = true;
            }
        }
        Ok(())
    }
}

impl Game for Sand {
    const ID: &'static str = "sand";

    const TITLE: &'static str = "Sand drop";

    type Level = SandLevel;

    type Action = SandAction;

    fn start(setup: Setup<SandLevel>) -> Result<Self, GameError> {
        let Setup {
            level,
            script,
            seed,
            ..
        } = setup;
        if let Some(error) = level.diagnose().into_iter().find(Diagnostic::is_error) {
            return Err(GameError::Level(error));
        }
        let mut settings = Settings::read(&script.current())?;
        settings.palette = level.palette_over(&settings.palette);
        let cell = level.cell as usize;
        let (columns, rows) = (level.columns as usize, level.rows as usize);
        let grid = GrainGrid::new(columns * cell, rows * cell)
            .map_err(|e| GameError::Invalid(e.to_string()))?;
        let mut pieces_rng = game_rng(seed);
        let mut physics_rng = game_rng(level.physics_seed.unwrap_or(seed));
        // Separate streams: the piece sequence does not depend on timing.
        physics_rng.set_stream(1);
        let mut bag = Bag::new();
        let colours = settings.palette.len() as u8;
        // A level's fixed tray, or the script's slots from the bag.
        let slots = if level.tray.is_empty() {
            (0..settings.slots)
                .map(|_| bag.draw(&mut pieces_rng, colours))
                .collect()
        } else {
            level
                .tray_pieces(Some(settings.palette.as_slice()))
                .map_err(GameError::Level)?
        };
        let height = rows * cell;
        let board = level.board.clone();
        let mut game = Self {
            level,
            script,
            settings,
            cell,
            columns,
            rows,
            grid,
            search: ClusterSearch::new(height),
            clearing: vec![0; height],
            clusters: Vec::new(),
            phase: None,
            chain: 0,
            check_due: false,
            piece_check_due: false,
            chain_pending: false,
            in_flight: Vec::with_capacity(usize::from(grid::MAX_TAG)),
            slots,
            bag,
            seed,
            pieces_rng,
            physics_rng,
            score: 0,
            tick: 0,
            placed: 0,
            cleared_grains: 0,
            outcome: Outcome::Playing,
            log: Vec::new(),
            events: Vec::new(),
        };
        game.load_board(&board)?;
        Ok(game)
    }

    fn apply(&mut self, action: &SandAction) -> Result<(), GameError> {
        match *action {
            SandAction::Place {
                slot,
                x,
                y,
                rotation,
            } => self.place(slot, x, y, rotation),
            SandAction::Tick(ticks) => self.advance(ticks),
            SandAction::Settle => self.settle().map(|_| ()),
        }
    }

    fn advance(&mut self, ticks: u32) -> Result<(), GameError> {
        for done in 0..ticks {
            if self.is_idle() {
                // An idle tick changes nothing but the clock (no grain is
                // awake, so physics draws no randomness): the rest are free,
                // and `Tick(4294967295)` returns at once.
                self.tick += u64::from(ticks - done);
                break;
            }
            self.tick_once();
        }
        Ok(())
    }

    fn legal_actions(&self) -> Vec<SandAction> {
        self.legal_placements()
    }

    fn turn(&self) -> Turn {
        if self.outcome.is_over() {
            Turn::Over
        } else {
            Turn::RealTime
        }
    }

    fn take_events(&mut self) -> Vec<GameEvent> {
        std::mem::take(&mut self.events)
    }

    /// The header line and the board in logical cells (the grain grid is
    /// [`Sand::grid_text`]).
    fn render_text(&self) -> String {
        format!(
            "tick {}  score {}  chain {}  grains {}  awake {}  slots [{}]  {}\n{}",
            self.tick,
            self.score,
            self.chain,
            self.grid.grain_count(),
            self.grid.awake_count(),
            self.slots_text(),
            self.outcome,
            self.cells_text()
        )
    }

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
    }
}

impl Scripted for Sand {
    /// The shipped `scripts/sand.lua`: every tunable at the seed's value.
    const DEFAULT_SCRIPT: Option<&'static str> = Some(include_str!("../../../../scripts/sand.lua"));

    fn script_schema() -> ScriptSchema {
        settings::schema()
    }

    fn check_script(script: &Script) -> Result<(), ScriptError> {
        Settings::read(script).map(|_| ())
    }
}

/// One human seat and no AI, RON levels, the host's simulation defaults:
/// Sand registers only what it has.
impl Plugin for Sand {
    fn register(game: &mut Registrar<Self>) {
        game.scripted()
            .reports()
            .moves()
            .generator(generate::GENERATOR);
    }
}

impl Reports for Sand {
    fn scores(&self) -> Vec<i64> {
        vec![i64::try_from(self.score).unwrap_or(i64::MAX)]
    }

    fn report_text(&self, render: bool) -> String {
        self.summary(render)
    }

    fn report_json(&self) -> serde_json::Value {
        self.summary_json()
    }
}

impl Moves for Sand {
    fn settle_action(&self) -> Option<SandAction> {
        Some(SandAction::Settle)
    }
}

impl std::fmt::Debug for Sand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sand")
            .field("tick", &self.tick)
            .field("score", &self.score)
            .field("grid", &self.grid)
            .field("level", &self.level)
            .finish_non_exhaustive()
    }
}

// One test binary per crate: the tests in `tests/` are a module of the
// unit-test binary rather than integration binaries of their own (each would
// link the whole dependency tree again). They name the crate as
// `tessera_sand`, like outside code, so they exercise only the public API.
#[cfg(test)]
extern crate self as tessera_sand;
#[cfg(test)]
#[path = "../tests/main.rs"]
mod api_tests;
