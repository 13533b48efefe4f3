//! Sand drop (seed 000): Block-Blast style drag-and-drop of tetrominoes that
//! crumble into grains of sand; a same-colour cluster of settled grains that
//! spans the board from the left wall to the right wall is cleared.
//!
//! - [`grid`]: the grain grid (bit rows); [`physics`]: one tick of grain
//!   motion; [`clear`]: the spanning-cluster search; [`piece`]: shapes and
//!   the 7-bag; [`settings`]: what `scripts/sand.lua` tunes.
//! - This file holds the flow: placements, the clear sequence (flash, burst,
//!   removal, fall, chain), scoring through the script, and game over.
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
pub mod grid;
pub mod physics;
pub mod piece;
pub mod scenarios;
pub mod settings;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use tessera_host::level::{Diagnostic, LevelFile};
use tessera_host::plugin::{Game, GameError, GameEvent, Outcome, Setup, Turn};
use tessera_host::rng::{GameRng, game_rng};
use tessera_host::script::{LiveScript, Script, ScriptError, ScriptSchema};

use clear::{Cluster, ClusterSearch};
use grid::{GrainGrid, MAX_WIDTH};
use physics::RandomBits;
use piece::{Bag, Piece};
use settings::{ClearTimings, PaletteColour, Settings};

/// Most ticks `Settle` runs before giving up (a board always settles far
/// sooner; this only guards against a runaway script timing).
pub const SETTLE_LIMIT: u64 = 10_000_000;

/// A sand level: the board size and, optionally, grains already on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandLevel {
    /// Format version (1).
    pub version: u32,
    /// Logical columns (12).
    #[serde(default = "default_columns")]
    pub columns: u32,
    /// Logical rows (22).
    #[serde(default = "default_rows")]
    pub rows: u32,
    /// Grains per logical cell side (10).
    #[serde(default = "default_cell")]
    pub cell: u32,
    /// Logical cells already filled at the start, top row first: `.` empty,
    /// a palette letter for a cell of that colour. Fewer rows than `rows`
    /// are aligned to the bottom.
    #[serde(default)]
    pub board: Vec<String>,
    /// The level's own colours, replacing the script's palette for this
    /// level: its pieces come in these colours and its board letters name
    /// them. Absent: the script's palette.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub palette: Option<Vec<LevelColour>>,
}

/// One colour of a level's own palette.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelColour {
    /// Name for people ("red").
    pub name: String,
    /// The letter used in the board and text pictures ('R').
    pub letter: char,
    /// sRGB colour.
    pub rgb: (u8, u8, u8),
}

impl LevelColour {
    /// As a palette entry.
    pub fn to_palette(&self) -> PaletteColour {
        PaletteColour {
            name: self.name.clone(),
            letter: self.letter,
            rgb: [self.rgb.0, self.rgb.1, self.rgb.2],
        }
    }
}

impl SandLevel {
    /// The palette this level plays with: its own when it has one, else
    /// `script`'s.
    pub fn palette_over(&self, script: &[PaletteColour]) -> Vec<PaletteColour> {
        match &self.palette {
            Some(own) => own.iter().map(LevelColour::to_palette).collect(),
            None => script.to_vec(),
        }
    }

    /// The first board letter that `palette` has no colour for, as a
    /// finding at its row (the check a game start makes).
    pub fn check_letters(&self, palette: &[PaletteColour]) -> Option<Diagnostic> {
        let whose = if self.palette.is_some() {
            "the level's"
        } else {
            "the script's"
        };
        for (i, row) in self.board.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if c == '.' || palette.iter().any(|p| p.letter == c) {
                    continue;
                }
                let letters: String = palette.iter().map(|p| p.letter).collect();
                let message = format!(
                    "field `board`, row {}, column {}: {c:?} is not a palette letter ({whose} palette: {letters})",
                    i + 1,
                    x + 1,
                );
                return Some(
                    Diagnostic::error(std::path::Path::new(""), message)
                        .at("board")
                        .at_index(i),
                );
            }
        }
        None
    }

    /// Findings about the level's own palette: its size, its letters.
    fn diagnose_palette(&self, found: &mut Vec<Diagnostic>) {
        let Some(own) = &self.palette else {
            return;
        };
        let path = std::path::Path::new("");
        if own.is_empty() || own.len() > grid::MAX_COLOURS {
            found.push(
                Diagnostic::error(
                    path,
                    format!(
                        "field `palette`: a level's palette holds 1 to {} colours, this one {}",
                        grid::MAX_COLOURS,
                        own.len()
                    ),
                )
                .at("palette"),
            );
        }
        for (i, colour) in own.iter().enumerate() {
            let at = |message: String| {
                Diagnostic::error(
                    path,
                    format!("field `palette`, colour {}: {message}", i + 1),
                )
                .at("palette")
                .at_index(i)
            };
            if colour.letter == '.' || colour.letter.is_whitespace() || colour.letter.is_control() {
                found.push(at(format!(
                    "{:?} cannot be a colour's letter (`.` is an empty cell)",
                    colour.letter
                )));
            } else if let Some(first) = own[..i].iter().position(|c| c.letter == colour.letter) {
                found.push(at(format!(
                    "letter {:?} is already colour {}",
                    colour.letter,
                    first + 1
                )));
            }
            if colour.name.trim().is_empty() {
                found.push(at("the colour needs a name".into()));
            }
        }
        let palette: Vec<PaletteColour> = own.iter().map(LevelColour::to_palette).collect();
        found.extend(self.check_letters(&palette));
    }
}

fn default_columns() -> u32 {
    12
}
fn default_rows() -> u32 {
    22
}
fn default_cell() -> u32 {
    10
}

impl Default for SandLevel {
    fn default() -> Self {
        Self {
            version: 1,
            columns: default_columns(),
            rows: default_rows(),
            cell: default_cell(),
            board: Vec::new(),
            palette: None,
        }
    }
}

impl LevelFile for SandLevel {
    const VERSION: u32 = 1;

    fn version(&self) -> u32 {
        self.version
    }

    fn diagnose(&self) -> Vec<Diagnostic> {
        let mut found = Vec::new();
        let path = std::path::Path::new("");
        let width = self.columns as usize * self.cell as usize;
        if self.columns < 4 || self.rows < 2 || self.cell == 0 {
            found.push(Diagnostic::error(
                path,
                format!(
                    "fields `columns`, `rows`, `cell`: need at least 4 columns (an I piece), 2 rows and 1 grain per cell, not {}x{} cells of {}",
                    self.columns, self.rows, self.cell
                ),
            ).at(if self.columns < 4 {
                "columns"
            } else if self.rows < 2 {
                "rows"
            } else {
                "cell"
            }));
        }
        if width > MAX_WIDTH {
            found.push(Diagnostic::error(
                path,
                format!(
                    "fields `columns` x `cell`: the board is {width} grains wide; at most {MAX_WIDTH} are supported"
                ),
            ).at("columns"));
        }
        if self.rows as usize * self.cell as usize > 4096 {
            found.push(
                Diagnostic::error(path, "fields `rows` x `cell`: at most 4096 grains high")
                    .at("rows"),
            );
        }
        if self.board.len() > self.rows as usize {
            found.push(
                Diagnostic::error(
                    path,
                    format!(
                        "field `board`: {} rows given, the board has {}",
                        self.board.len(),
                        self.rows
                    ),
                )
                .at("board")
                .at_index(self.rows as usize),
            );
        }
        for (i, row) in self.board.iter().enumerate() {
            if row.chars().count() != self.columns as usize {
                found.push(
                    Diagnostic::error(
                        path,
                        format!(
                            "field `board`, row {}: {} cells, the board has {} columns",
                            i + 1,
                            row.chars().count(),
                            self.columns
                        ),
                    )
                    .at("board")
                    .at_index(i),
                );
            }
        }
        self.diagnose_palette(&mut found);
        found
    }
}

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

/// A game of sand drop.
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

    /// The logical cells the piece of `slot` would cover at (x, y), or why
    /// it cannot go there. Does not change the game.
    pub fn check_placement(
        &self,
        slot: usize,
        x: i32,
        y: i32,
        rotation: u8,
    ) -> Result<[(usize, usize); 4], GameError> {
        let Some(piece) = self.slots.get(slot) else {
            return Err(GameError::Invalid(format!(
                "slot {slot} does not exist; slots are 0 to {}",
                self.slots.len() - 1
            )));
        };
        if !rotation.is_multiple_of(4) && !self.settings.rotation {
            return Err(GameError::Illegal(
                "rotation is switched off in the script (`rotation = false`)".into(),
            ));
        }
        let mut cells = [(0usize, 0usize); 4];
        for (out, (dx, dy)) in cells.iter_mut().zip(piece.shape.rotated_cells(rotation)) {
            let cx = i64::from(x) + i64::from(dx);
            let cy = i64::from(y) + i64::from(dy);
            if cx < 0 || cy < 0 || cx >= self.columns as i64 || cy >= self.rows as i64 {
                return Err(GameError::Illegal(format!(
                    "the {} piece at column {x}, row {y} would leave the {}x{} board (cell {cx},{cy})",
                    piece.shape, self.columns, self.rows
                )));
            }
            *out = (cx as usize, cy as usize);
        }
        for &(cx, cy) in &cells {
            if !self.logical_cell_is_free(cx as i64, cy as i64) {
                return Err(GameError::Illegal(format!(
                    "the {} piece at column {x}, row {y} overlaps grains in cell {cx},{cy}",
                    piece.shape
                )));
            }
        }
        Ok(cells)
    }

    /// Whether logical cell (cx, cy) is on the board and its whole grain
    /// area is empty: the placement rule for one cell (RULINGS 6.3), shared
    /// by [`Sand::check_placement`] and the editor's ghost.
    pub fn logical_cell_is_free(&self, cx: i64, cy: i64) -> bool {
        let inside = cx >= 0 && cy >= 0 && cx < self.columns as i64 && cy < self.rows as i64;
        inside
            && self.grid.area_is_empty(
                cx as usize * self.cell,
                cy as usize * self.cell,
                self.cell,
                self.cell,
            )
    }

    /// Whether the piece of `slot` fits somewhere on the board now.
    pub fn fits_anywhere(&self, slot: usize) -> bool {
        let Some(piece) = self.slots.get(slot) else {
            return false;
        };
        let free = self.free_cells();
        let turns: &[u8] = if self.settings.rotation {
            &[0, 1, 2, 3]
        } else {
            &[0]
        };
        turns.iter().any(|&turn| {
            let shape = piece.shape.rotated_cells(turn);
            (0..self.rows).any(|y| {
                (0..self.columns).any(|x| {
                    shape.iter().all(|&(dx, dy)| {
                        let (cx, cy) = (x + usize::from(dx), y + usize::from(dy));
                        cx < self.columns && cy < self.rows && free[cy * self.columns + cx]
                    })
                })
            })
        })
    }

    /// Which logical cells hold no grain, row-major.
    fn free_cells(&self) -> Vec<bool> {
        let mut free = vec![false; self.columns * self.rows];
        for cy in 0..self.rows {
            let union = (cy * self.cell..(cy + 1) * self.cell)
                .fold(0u128, |acc, y| acc | self.grid.occupied_row(y));
            for cx in 0..self.columns {
                free[cy * self.columns + cx] =
                    union & grid::span_mask(cx * self.cell, self.cell) == 0;
            }
        }
        free
    }

    /// Every legal placement now (unrotated unless the script allows it).
    pub fn legal_placements(&self) -> Vec<SandAction> {
        let mut out = Vec::new();
        if self.outcome.is_over() {
            return out;
        }
        let turns = if self.settings.rotation { 4 } else { 1 };
        for slot in 0..self.slots.len() {
            for rotation in 0..turns {
                for y in 0..self.rows as i32 {
                    for x in 0..self.columns as i32 {
                        if self.check_placement(slot, x, y, rotation).is_ok() {
                            out.push(SandAction::Place {
                                slot,
                                x,
                                y,
                                rotation,
                            });
                        }
                    }
                }
            }
        }
        out
    }

    fn place(&mut self, slot: usize, x: i32, y: i32, rotation: u8) -> Result<(), GameError> {
        if self.outcome.is_over() {
            return Err(GameError::Illegal("the game is over".into()));
        }
        let cells = match self.check_placement(slot, x, y, rotation) {
            Ok(cells) => cells,
            Err(error @ GameError::Illegal(_)) => {
                // A failed attempt checks game over (seed 11.3).
                self.check_game_over();
                return Err(error);
            }
            Err(error) => return Err(error),
        };
        let piece = self.slots[slot];
        // A free tag lets the game see when this piece has settled; with
        // every tag in use the piece is checked when the board settles.
        let tag = (1..=grid::MAX_TAG).find(|t| !self.in_flight.contains(t));
        match tag {
            Some(tag) => self.in_flight.push(tag),
            None => self.check_due = true,
        }
        for (cx, cy) in cells {
            self.grid.fill_area_tagged(
                cx * self.cell,
                cy * self.cell,
                self.cell,
                self.cell,
                piece.colour,
                tag.unwrap_or(0),
            );
        }
        self.placed += 1;
        let colours = self.settings.palette.len() as u8;
        self.slots[slot] = self.bag.draw(&mut self.pieces_rng, colours);
        Ok(())
    }

    /// One tick: physics, the clear timer, then a check when one is due.
    fn tick_once(&mut self) {
        self.tick += 1;
        self.grid.step(&mut RandomBits::new(&mut self.physics_rng));
        match self.phase {
            Some(ClearPhase::Flash { left }) if left > 1 => {
                self.phase = Some(ClearPhase::Flash { left: left - 1 });
            }
            Some(ClearPhase::Flash { .. }) => {
                let total = self.timings_now().burst;
                self.phase = Some(ClearPhase::Burst { left: total, total });
                if total == 0 {
                    self.remove_cleared();
                }
            }
            Some(ClearPhase::Burst { left, total }) if left > 1 => {
                self.phase = Some(ClearPhase::Burst {
                    left: left - 1,
                    total,
                });
            }
            Some(ClearPhase::Burst { .. }) => self.remove_cleared(),
            None => {}
        }
        let mut i = 0;
        while i < self.in_flight.len() {
            let tag = self.in_flight[i];
            if self.grid.any_awake_with_tag(tag) {
                i += 1;
            } else {
                self.grid.clear_tag(tag);
                self.in_flight.swap_remove(i);
                self.piece_check_due = true;
            }
        }
        if self.phase.is_none()
            && (self.piece_check_due || self.check_due && self.grid.is_settled())
        {
            self.run_check();
        }
    }

    fn remove_cleared(&mut self) {
        let removed = self.grid.remove(&self.clearing);
        self.cleared_grains += removed as u64;
        self.clearing.fill(0);
        self.phase = None;
        self.check_due = true;
        self.chain_pending = true;
    }

    fn timings_now(&mut self) -> ClearTimings {
        let script = self.script.current();
        match self.settings.timings(&script) {
            Ok(timings) => timings,
            Err(error) => {
                self.report(&error);
                ClearTimings {
                    flash: (settings::DEFAULT_FLASH_SECONDS * self.settings.ticks_per_second)
                        .round() as u32,
                    burst: (settings::DEFAULT_CLEAR_SECONDS * self.settings.ticks_per_second)
                        .round() as u32,
                }
            }
        }
    }

    fn report(&mut self, error: &ScriptError) {
        self.events.push(GameEvent::error(error.to_string()));
    }

    fn forward_prints(&mut self, script: &Script) {
        for line in script.take_printed() {
            self.events.push(GameEvent::info(format!("script: {line}")));
        }
    }

    /// The spanning check (settled grains only). Runs when a placed piece
    /// has settled, and when the board has settled after a removal.
    fn run_check(&mut self) {
        let board_settled = self.grid.is_settled();
        self.piece_check_due = false;
        if board_settled {
            self.check_due = false;
        }
        let script = self.script.current();
        let colours = self.settings.palette.len() as u8;
        self.clearing.fill(0);
        // Nothing is being cleared while a check runs: nothing to exclude.
        self.search.find_spanning(
            &self.grid,
            colours,
            None,
            &mut self.clearing,
            &mut self.clusters,
        );
        if self.clusters.is_empty() {
            // The chain ends when the board has settled after its last
            // removal without a new clear.
            if board_settled || !self.chain_pending {
                self.chain = 0;
                self.chain_pending = false;
            }
            if board_settled {
                if let Err(error) = settings::hook(&script, "on_settle", self.score) {
                    self.report(&error);
                }
                self.forward_prints(&script);
            }
            self.check_game_over_with(&script);
            return;
        }
        self.chain = if self.chain_pending {
            self.chain + 1
        } else {
            1
        };
        self.chain_pending = false;
        let chain = self.chain;
        let area = (self.cell * self.cell) as f64;
        let mut round = ClearRound {
            tick: self.tick,
            chain,
            clusters: Vec::with_capacity(self.clusters.len()),
        };
        for cluster in self.clusters.clone() {
            let cells = f64::from(cluster.grains) / area;
            let points = match settings::score(&script, cells, chain) {
                Ok(points) => points,
                Err(error) => {
                    self.report(&error);
                    0
                }
            };
            round.clusters.push(ScoredCluster {
                colour: cluster.colour,
                grains: cluster.grains,
                cells,
                points,
            });
        }
        let points = round.points();
        self.score = self.score.saturating_add(points);
        let cells: f64 = round.clusters.iter().map(|c| c.cells).sum();
        if let Err(error) = settings::hook(
            &script,
            "on_clear",
            (chain, round.clusters.len(), cells, points),
        ) {
            self.report(&error);
        }
        self.forward_prints(&script);
        let letters = self.settings.letters();
        for cluster in &round.clusters {
            self.events.push(GameEvent::info(format!(
                "clear chain x{chain}: {} {} grains ({} cells) +{}",
                letters.get(usize::from(cluster.colour)).unwrap_or(&'?'),
                cluster.grains,
                cluster.cells,
                cluster.points
            )));
        }
        self.log.push(round);
        let timings = self.timings_now();
        if timings.flash > 0 {
            self.phase = Some(ClearPhase::Flash {
                left: timings.flash,
            });
        } else if timings.burst > 0 {
            self.phase = Some(ClearPhase::Burst {
                left: timings.burst,
                total: timings.burst,
            });
        } else {
            self.phase = Some(ClearPhase::Burst { left: 1, total: 1 });
        }
    }

    fn check_game_over(&mut self) {
        let script = self.script.current();
        self.check_game_over_with(&script);
    }

    fn check_game_over_with(&mut self, script: &Arc<Script>) {
        if self.outcome.is_over() {
            return;
        }
        if (0..self.slots.len()).any(|slot| self.fits_anywhere(slot)) {
            return;
        }
        self.outcome = Outcome::Lost;
        self.events
            .push(GameEvent::info("game over: no slot piece fits anywhere"));
        if let Err(error) = settings::hook(script, "on_game_over", self.score) {
            self.report(&error);
        }
        self.forward_prints(script);
    }

    /// Advances until idle (settled, no clear, no check due); returns the
    /// ticks taken.
    pub fn settle(&mut self) -> Result<u64, GameError> {
        let start = self.tick;
        while !self.is_idle() {
            if self.tick - start >= SETTLE_LIMIT {
                return Err(GameError::Invalid(format!(
                    "the board did not settle within {SETTLE_LIMIT} ticks"
                )));
            }
            self.tick_once();
        }
        Ok(self.tick - start)
    }

    /// The slots as `letter + shape` (`rT bI`).
    fn slots_text(&self) -> String {
        let slots: Vec<String> = self
            .slots
            .iter()
            .map(|p| format!("{}{}", self.letter(p.colour), p.shape))
            .collect();
        slots.join(" ")
    }

    /// A palette colour's letter (`?` outside the palette).
    fn letter(&self, colour: u8) -> char {
        self.settings
            .palette
            .get(usize::from(colour))
            .map_or('?', |c| c.letter)
    }

    /// The board in logical cells, one character each: `.` empty, the
    /// letter of the colour most of its grains have, lower case when the
    /// cell is less than half full.
    pub fn cells_text(&self) -> String {
        let area = self.cell * self.cell;
        let mut counts = vec![0usize; self.settings.palette.len().max(1)];
        let mut out = String::with_capacity((self.columns + 1) * self.rows);
        for cy in 0..self.rows {
            for cx in 0..self.columns {
                counts.fill(0);
                for y in cy * self.cell..(cy + 1) * self.cell {
                    for x in cx * self.cell..(cx + 1) * self.cell {
                        if let Some(c) = self.grid.colour_at(x, y)
                            && let Some(n) = counts.get_mut(usize::from(c))
                        {
                            *n += 1;
                        }
                    }
                }
                let total: usize = counts.iter().sum();
                let best = (0..counts.len()).max_by_key(|&c| (counts[c], usize::MAX - c));
                out.push(match best {
                    Some(colour) if total > 0 => {
                        let letter = self.letter(colour as u8);
                        if total * 2 >= area {
                            letter.to_ascii_uppercase()
                        } else {
                            letter.to_ascii_lowercase()
                        }
                    }
                    _ => '.',
                });
            }
            out.push('\n');
        }
        out
    }

    /// What `tessera play sand` prints: header, chain log, slots, outcome,
    /// and the grain grid when `render` is set.
    pub fn summary(&self, render: bool) -> String {
        let mut out = format!(
            "sand  seed {}  ticks {}  placed {}  grains {}  score {}\n",
            self.seed,
            self.tick,
            self.placed,
            self.grid.grain_count(),
            self.score
        );
        out.push_str("chain log:\n");
        if self.log.is_empty() {
            out.push_str("  (no clears)\n");
        }
        for round in &self.log {
            for cluster in &round.clusters {
                out.push_str(&format!(
                    "  tick {}  chain x{}  {} {} grains ({} cells)  +{}\n",
                    round.tick,
                    round.chain,
                    self.letter(cluster.colour),
                    cluster.grains,
                    cluster.cells,
                    cluster.points
                ));
            }
        }
        out.push_str(&format!("slots: {}\n", self.slots_text()));
        out.push_str(&format!("outcome: {}\n", self.outcome));
        if render {
            out.push_str(&self.grid_text());
        }
        out
    }

    /// The final state as JSON, for `tessera play sand --json`.
    pub fn summary_json(&self) -> serde_json::Value {
        let slots: Vec<serde_json::Value> = self
            .slots
            .iter()
            .map(|p| {
                serde_json::json!({
                    "shape": p.shape.to_string(),
                    "colour": self.settings.palette.get(usize::from(p.colour)).map(|c| c.name.clone()),
                })
            })
            .collect();
        let grid: Vec<String> = self.grid_text().lines().map(str::to_string).collect();
        serde_json::json!({
            "game": "sand",
            "seed": self.seed,
            "tick": self.tick,
            "placed": self.placed,
            "score": self.score,
            "grains": self.grid.grain_count(),
            "cleared_grains": self.cleared_grains,
            "outcome": self.outcome.to_string(),
            "chain_log": self.log,
            "slots": slots,
            "width": self.grid.width(),
            "height": self.grid.height(),
            "grid": grid,
        })
    }

    /// The grain grid as text (one character per grain, top row first).
    pub fn grid_text(&self) -> String {
        self.grid.to_text(&self.settings.letters())
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
    type Snapshot = ();

    /// The shipped `scripts/sand.lua`: every tunable at the seed's value.
    const DEFAULT_SCRIPT: Option<&'static str> = Some(include_str!("../../../../scripts/sand.lua"));

    fn script_schema() -> ScriptSchema {
        settings::schema()
    }

    fn check_script(script: &Script) -> Result<(), ScriptError> {
        Settings::read(script).map(|_| ())
    }

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
        let mut physics_rng = game_rng(seed);
        // Separate streams: the piece sequence does not depend on timing.
        physics_rng.set_stream(1);
        let mut bag = Bag::new();
        let colours = settings.palette.len() as u8;
        let slots = (0..settings.slots)
            .map(|_| bag.draw(&mut pieces_rng, colours))
            .collect();
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

    fn scores(&self) -> Vec<i64> {
        vec![i64::try_from(self.score).unwrap_or(i64::MAX)]
    }

    fn take_events(&mut self) -> Vec<GameEvent> {
        std::mem::take(&mut self.events)
    }

    fn settle_action(&self) -> Option<SandAction> {
        Some(SandAction::Settle)
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

    fn report_text(&self, render: bool) -> String {
        self.summary(render)
    }

    fn report_json(&self) -> serde_json::Value {
        self.summary_json()
    }

    fn snapshot(&self) {}

    fn outcome(&self) -> Outcome {
        self.outcome.clone()
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
