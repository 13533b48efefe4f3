//! The ranges a difficulty's numbers must lie in: the script reader and
//! the AI log's reader refuse the same values (one rule, two inputs).

use std::ops::RangeInclusive;

use super::{Adversary, Difficulty};

/// `noise`: amplitude of the uniform noise.
pub const NOISE: RangeInclusive<f64> = 0.0..=1000.0;
/// `lookahead`: pieces looked ahead.
pub const LOOKAHEAD: RangeInclusive<f64> = 0.0..=32.0;
/// `beam`: candidates the lookahead examines.
pub const BEAM: RangeInclusive<f64> = 1.0..=4096.0;
/// `line_depth`: plies of the expected-line search (0 = `lookahead`).
pub const LINE_DEPTH: RangeInclusive<f64> = 0.0..=64.0;
/// `line_beam`: boards per ply of the expected-line search (0 = `beam`).
pub const LINE_BEAM: RangeInclusive<f64> = 0.0..=65_536.0;
/// `line_step`: plies' worth of boards a kept search adds a decision.
pub const LINE_STEP: RangeInclusive<f64> = 0.0..=32.0;
/// `line_lead`: moves ahead the planner's beams are rooted (0 = no
/// planner).
pub const LINE_LEAD: RangeInclusive<f64> = 0.0..=64.0;
/// `line_trust`: the reader's pieces in a row before the expected
/// line is followed (0 in a row without an `off_line` ranking).
pub const LINE_TRUST: RangeInclusive<f64> = 0.0..=64.0;
/// `decision_ms`: the presentation pause.
pub const DECISION_MS: RangeInclusive<f64> = 0.0..=10_000.0;
/// `special_chance` and `ceiling_every`: feed mode's rules, whose reader
/// owns their ranges.
pub use tessera_tetris::feed_rules::{CEILING_EVERY, SPECIAL_CHANCE};
/// A weight's magnitude (`gameOverAfterMove = -1e6` is the largest the
/// shipped script uses).
pub const WEIGHT: f64 = 1e12;

/// Most bytes one decision's expected-line search may hold: half the
/// 256 MiB a game may use, the rest for the game, the script and the
/// brains of the other seat. Values inside every range above can ask
/// for gigabytes together (64 plies of 65,536 boards), so the product
/// is bounded too.
pub const SEARCH_BYTES: u64 = 128 * 1024 * 1024;
/// The board width a script's rows are checked for: the feed board's
/// 10 columns. On a wider level the search keeps fewer boards per ply
/// (`Difficulty::line_beam_on`).
pub const CHECKED_COLUMNS: usize = 10;
/// Landings of one piece per column the budget allows for: four
/// orientations, and as many again for tucks and spins under overhangs.
const LANDINGS_PER_COLUMN: u64 = 8;
/// One child of a ply (its board and its line) and one link of a kept
/// tree, in bytes, rounded up: the search against a player who reads the
/// AI (`own`, `lookahead.rs`), which holds each child's board.
const CHILD_BYTES: u64 = std::mem::size_of::<tessera_tetris::board::Board>() as u64 + 64;
const LINK_BYTES: u64 = 64;
/// The search against HATETRIS (`height`, `hatetris_search.rs`) holds no
/// board per child. A child waits in an expander's list (its link and
/// fingerprint, 40 bytes, the list up to half empty after it grew) until
/// its batch is merged; the merge holds at most `prune_at` children plus
/// one batch's (48 bytes each, half empty, and an entry of 40 in the table
/// of boards seen). Each board kept a ply costs its board twice (the ply's
/// and the next one's while it is built) and its link (32 bytes, counted
/// as 40) on the deepest ply, then a compact step of 8 on each older one.
const HATETRIS_EXPANDED_BYTES: u64 = 40 * 3 / 2;
const HATETRIS_MERGED_BYTES: u64 = 48 * 3 / 2 + 40;
const HATETRIS_BOARD_BYTES: u64 = 2 * std::mem::size_of::<tessera_tetris::board::Board>() as u64;
const HATETRIS_LINK_BYTES: u64 = 40;
const HATETRIS_STEP_BYTES: u64 = 8;

/// The worst-case bytes one board kept a ply costs a line search against
/// an `own` or `score` adversary, `depth` plies deep on a board `columns`
/// wide: the children it may have (every landing of the predicted piece)
/// and its links in the tree kept between decisions.
fn bytes_per_board(depth: u16, columns: usize) -> u64 {
    let landings = LANDINGS_PER_COLUMN * columns.max(1) as u64;
    landings * CHILD_BYTES + u64::from(depth) * LINK_BYTES
}

/// The worst-case bytes of the search against HATETRIS, `depth` plies
/// deep keeping `beam` boards per ply on a board `columns` wide.
fn hatetris_bytes(depth: u16, beam: u64, columns: usize) -> u64 {
    use super::hatetris_search::{BATCH_BOARDS, prune_at};
    let landings = LANDINGS_PER_COLUMN * columns.max(1) as u64;
    let batch = beam.min(BATCH_BOARDS as u64) * landings;
    let pruned =
        u64::try_from(prune_at(usize::try_from(beam).unwrap_or(usize::MAX))).unwrap_or(u64::MAX);
    let merged = beam
        .saturating_mul(landings)
        .min(pruned.saturating_add(batch));
    let kept = HATETRIS_BOARD_BYTES + HATETRIS_LINK_BYTES + u64::from(depth) * HATETRIS_STEP_BYTES;
    batch * HATETRIS_EXPANDED_BYTES
        + merged.saturating_mul(HATETRIS_MERGED_BYTES)
        + beam.saturating_mul(kept)
}

/// The worst-case bytes of an expected-line search against `adversary`,
/// `depth` plies deep keeping `beam` boards per ply on a board `columns`
/// wide.
pub fn line_search_bytes(adversary: Adversary, depth: u16, beam: usize, columns: usize) -> u64 {
    match adversary {
        Adversary::Height => hatetris_bytes(depth, beam as u64, columns),
        Adversary::Score | Adversary::Own => {
            (beam as u64).saturating_mul(bytes_per_board(depth, columns))
        }
    }
}

/// The most boards per ply whose search against `adversary`, `depth`
/// plies deep, fits [`SEARCH_BYTES`] on a board `columns` wide (at least
/// 1).
pub fn beam_within_budget(adversary: Adversary, depth: u16, columns: usize) -> usize {
    // The bytes grow with the beam: the widest that fits, by bisection.
    let fits = |beam: usize| line_search_bytes(adversary, depth, beam, columns) <= SEARCH_BYTES;
    let (mut fit, mut over) = (1usize, (*LINE_BEAM.end() as usize).saturating_mul(64));
    if fits(over) {
        return over;
    }
    while over - fit > 1 {
        let mid = fit + (over - fit) / 2;
        if fits(mid) {
            fit = mid;
        } else {
            over = mid;
        }
    }
    fit
}

/// The memory budget as a difficulty row sees it.
impl Difficulty {
    /// The expected-line search's plies and boards per ply: `line_depth`
    /// and `line_beam`, 0 standing for `lookahead` and `beam`.
    pub fn line_search(&self) -> (u8, usize) {
        let depth = match self.line_depth {
            0 => self.lookahead,
            plies => plies,
        };
        let beam = match self.line_beam {
            0 => self.beam.max(1),
            boards => boards,
        };
        (depth, beam)
    }

    /// The plies the expected-line search's tree may hold: `line_depth`
    /// (or `lookahead`), or, for the planner against HATETRIS
    /// (`line_lead > 0`), a whole game's worth
    /// ([`super::hatetris_plan::PLAN_PLIES`]).
    pub fn held_plies(&self) -> u16 {
        if self.adversary == Adversary::Height && self.line_lead > 0 {
            super::hatetris_plan::PLAN_PLIES
        } else {
            u16::from(self.line_search().0)
        }
    }

    /// Boards per ply the search keeps on a board `columns` wide: the row's
    /// own, capped by the memory budget. A feed game whose row does not
    /// fit its board is refused at its start
    /// ([`Difficulty::search_over_budget_on`]); the cap only guards a
    /// search started some other way.
    pub fn line_beam_on(&self, columns: usize) -> usize {
        let beam = self.line_search().1;
        beam.min(beam_within_budget(
            self.adversary,
            self.held_plies(),
            columns,
        ))
    }

    /// Why the row's expected-line search may not fit the memory budget on
    /// the 10-wide board (`None`: it fits, or the row has no line search).
    pub fn search_over_budget(&self) -> Option<String> {
        self.search_over_budget_on(CHECKED_COLUMNS)
    }

    /// Why the row's expected-line search may not fit the memory budget on
    /// a board `columns` wide: a feed game on a wider level than the
    /// script's rows are checked for is refused at the level's `columns`
    /// (rather than searched with fewer boards than the row names).
    pub fn search_over_budget_on(&self, columns: usize) -> Option<String> {
        if self.adversary == Adversary::Score {
            return None;
        }
        let (depth, beam) = (self.held_plies(), self.line_search().1);
        let bytes = line_search_bytes(self.adversary, depth, beam, columns);
        (bytes > SEARCH_BYTES).then(|| {
            format!(
                "a line search of {depth} plies keeping {beam} boards per ply needs up to {} MiB a decision on a {columns}-wide board, over the {} MiB budget; at {depth} plies keep at most {} boards (`line_beam`)",
                bytes.div_ceil(1024 * 1024),
                SEARCH_BYTES / (1024 * 1024),
                beam_within_budget(self.adversary, depth, columns)
            )
        })
    }
}
