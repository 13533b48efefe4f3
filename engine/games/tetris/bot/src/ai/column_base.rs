//! The board before a move, measured column by column once, so that each
//! landing's metrics cost only the columns the piece touches: the AI
//! weighs every landing of seven pieces on each board its lookahead
//! reaches, and a landing changes two to four columns of ten.
//!
//! Every shape metric is a sum over columns (holes, blockades, column
//! transitions, heights), over neighbouring pairs (row transitions,
//! bumpiness) or over columns with their neighbours (wells), plus the
//! highest column and the stack's top. A landing's metrics are the
//! board's sums with the touched columns' terms (and their neighbours')
//! taken out and put back as they are after the lock: the same integers
//! as measuring the whole board again ([`super::metrics`]'s property test
//! holds the two to it). Landings that clear a row take the row path.

use tessera_tetris::board::MAX_SIZE;

use super::metrics::{Metrics, PieceColumns, column_holes, column_mask};

/// One column's share of the shape metrics (each at most 65 on a board
/// of at most 64 rows: bytes, so a board's table stays small to copy).
#[derive(Clone, Copy, Default)]
struct ColumnTerms {
    height: u8,
    holes: u8,
    blockades: u8,
    column_transitions: u8,
}

/// The shape metrics of the column `here` (bit y = row y; `full` its mask,
/// `rows` tall) but the wells and row transitions, which need neighbours;
/// and its holes (bit y = row y).
#[inline(always)]
fn terms(here: u64, full: u64, rows: u32) -> (ColumnTerms, u64) {
    let holes = column_holes(here, full);
    // Filled cells above the lowest hole (none without holes).
    let above_lowest_hole = u64::MAX.checked_shr(holes.leading_zeros()).unwrap_or(0) >> 1;
    // Changes down the column, the floor counted as filled.
    let below = (here >> 1) | (1u64 << (rows - 1));
    let terms = ColumnTerms {
        height: rows.saturating_sub(here.trailing_zeros()) as u8,
        holes: holes.count_ones() as u8,
        blockades: (here & above_lowest_hole).count_ones() as u8,
        column_transitions: ((here ^ below) & full).count_ones() as u8,
    };
    (terms, holes)
}

/// The wells of column `here` between `left` and `right` (a wall is a
/// full column): its open cells (above its top) with both sides filled,
/// each run down the column adding 1 + 2 + ... + its depth. (On a board
/// two or more columns wide no well lies above the stack's top, so the
/// top does not enter.)
#[inline(always)]
fn wells(here: u64, left: u64, right: u64, full: u64) -> u32 {
    let open = !here & here.wrapping_sub(1) & full;
    let mut cells = open & left & right;
    // Mostly one run or none: adding its lowest bit carries through it.
    if cells.wrapping_add(cells & cells.wrapping_neg()) & cells == 0 {
        let run = cells.count_ones();
        return run * (run + 1) / 2;
    }
    let mut sum = 0;
    while cells != 0 {
        let start = cells.trailing_zeros();
        let run = (!(cells >> start)).trailing_zeros();
        sum += run * (run + 1) / 2;
        cells &= !(column_mask(run as usize) << start);
    }
    sum
}

/// Changes along the rows between two neighbouring columns.
#[inline(always)]
fn row_transitions(left: u64, here: u64, full: u64) -> u32 {
    ((here ^ left) & full).count_ones()
}

/// A board's shape metrics, column by column, and their sums.
pub(super) struct ColumnBase {
    width: usize,
    rows: u32,
    full: u64,
    terms: [ColumnTerms; MAX_SIZE],
    /// At most 1 + 2 + ... + 64 a column.
    wells: [u16; MAX_SIZE],
    /// Between column x - 1 (the left wall for x = 0) and column x (the
    /// right wall for x = width).
    row_transitions: [u8; MAX_SIZE + 1],
    /// The highest of the columns left of x, and of x and those right of it.
    highest_before: [u8; MAX_SIZE + 1],
    highest_from: [u8; MAX_SIZE + 1],
    /// The sums (holes, blockades, wells, heights, bumpiness, transitions).
    sums: Metrics,
    /// The stack's top row (`rows` on an empty board).
    top: u32,
}

impl ColumnBase {
    /// Measures the board whose columns are `columns` (bit y = row y;
    /// `columns[width]` is the right wall, full), `height` rows tall, at
    /// least two columns wide (a one-column board has wells above its top:
    /// the whole-board path measures it). Inlined, so its bit counts take
    /// the caller's instruction set ([`super::metrics::BeforeMove::new`]).
    #[inline(always)]
    pub(super) fn new(columns: &[u64; MAX_SIZE + 1], width: usize, height: usize) -> Option<Self> {
        if !(2..=MAX_SIZE).contains(&width) || height == 0 {
            return None;
        }
        let full = column_mask(height);
        let rows = height as u32;
        let mut base = Self {
            width,
            rows,
            full,
            terms: [ColumnTerms::default(); MAX_SIZE],
            wells: [0; MAX_SIZE],
            row_transitions: [0; MAX_SIZE + 1],
            highest_before: [0; MAX_SIZE + 1],
            highest_from: [0; MAX_SIZE + 1],
            sums: Metrics::default(),
            top: rows,
        };
        let left_of = |x: usize| if x == 0 { full } else { columns[x - 1] };
        for x in 0..width {
            let (t, _) = terms(columns[x], full, rows);
            base.terms[x] = t;
            base.wells[x] = wells(columns[x], left_of(x), columns[x + 1], full) as u16;
            base.row_transitions[x] = row_transitions(left_of(x), columns[x], full) as u8;
            base.highest_before[x + 1] = base.highest_before[x].max(t.height);
            base.top = base.top.min(columns[x].trailing_zeros());
            let s = &mut base.sums;
            s.holes += u32::from(t.holes);
            s.blockades += u32::from(t.blockades);
            s.column_transitions += u32::from(t.column_transitions);
            s.aggregate_height += u32::from(t.height);
            s.well_sums += u32::from(base.wells[x]);
            s.row_transitions += u32::from(base.row_transitions[x]);
            if x > 0 {
                s.bumpiness += u32::from(t.height.abs_diff(base.terms[x - 1].height));
            }
        }
        base.row_transitions[width] = row_transitions(columns[width - 1], full, full) as u8;
        base.sums.row_transitions += u32::from(base.row_transitions[width]);
        for x in (0..width).rev() {
            base.highest_from[x] = base.highest_from[x + 1].max(base.terms[x].height);
        }
        Some(base)
    }

    /// The shape metrics (as the whole-board paths count them,
    /// `holes_created` against `old_holes`) of this board with `piece`
    /// added, `piece_width` columns from its left one, inside the board.
    ///
    /// Mostly bit counts: inlined into callers compiled with `popcnt` and
    /// the bit-manipulation instructions ([`super::metrics::BeforeMove`]).
    #[inline(always)]
    pub(super) fn with_piece_body(
        &self,
        columns: &[u64; MAX_SIZE + 1],
        piece: &PieceColumns,
        piece_width: usize,
        old_holes: &[u64; MAX_SIZE],
        danger_rows: usize,
    ) -> Metrics {
        let (width, rows, full) = (self.width, self.rows, self.full);
        let lo = piece.left;
        let hi = (lo + piece_width).min(width) - 1;
        // Column x after the lock; walls outside.
        let column = |x: usize| {
            if x >= width {
                full
            } else {
                columns[x] | piece.at(x)
            }
        };
        let column_left_of = |x: usize| if x == 0 { full } else { column(x - 1) };
        let mut m = self.sums;
        let mut highest = u32::from(self.highest_before[lo].max(self.highest_from[hi + 1]));
        let mut top = self.top;
        let mut heights = [0u32; 8];
        for x in lo..=hi {
            let here = column(x);
            let was = &self.terms[x];
            let (now, holes) = terms(here, full, rows);
            m.holes = m.holes - u32::from(was.holes) + u32::from(now.holes);
            m.holes_created += (holes & !old_holes[x]).count_ones();
            m.blockades = m.blockades - u32::from(was.blockades) + u32::from(now.blockades);
            m.column_transitions = m.column_transitions - u32::from(was.column_transitions)
                + u32::from(now.column_transitions);
            m.aggregate_height = m.aggregate_height - u32::from(was.height) + u32::from(now.height);
            highest = highest.max(u32::from(now.height));
            top = top.min(here.trailing_zeros());
            heights[x - lo] = u32::from(now.height);
        }
        // Wells of the touched columns and of their neighbours.
        for x in lo.saturating_sub(1)..=(hi + 1).min(width - 1) {
            let now = wells(column(x), column_left_of(x), column(x + 1), full);
            m.well_sums = m.well_sums - u32::from(self.wells[x]) + now;
        }
        // Row transitions and bumpiness of every pair with a touched column.
        let height_at = |x: usize| {
            if (lo..=hi).contains(&x) {
                heights[x - lo]
            } else {
                u32::from(self.terms[x].height)
            }
        };
        for x in lo..=hi + 1 {
            let now = row_transitions(column_left_of(x), column(x), full);
            m.row_transitions = m.row_transitions - u32::from(self.row_transitions[x]) + now;
            if x > 0 && x < width {
                let was = u32::from(self.terms[x].height.abs_diff(self.terms[x - 1].height));
                m.bumpiness = m.bumpiness - was + height_at(x).abs_diff(height_at(x - 1));
            }
        }
        m.max_height = highest;
        m.game_over = (top as usize) < danger_rows.min(rows as usize);
        m
    }
}

/// A board's columns (bit y = row y) with two full columns, walls, on
/// each side: `.0[x + 2]` is column x, so a landing's neighbourhood is one
/// slice, without a test for the walls.
pub(super) struct PaddedColumns(pub(super) [u64; MAX_SIZE + 4]);

impl PaddedColumns {
    /// `columns` (`width` of them) between walls `full` tall.
    #[inline(always)]
    pub(super) fn new(columns: &[u64; MAX_SIZE + 1], width: usize, full: u64) -> Self {
        let mut padded = [full; MAX_SIZE + 4];
        padded[2..width + 2].copy_from_slice(&columns[..width]);
        Self(padded)
    }
}

/// The shape metrics a lean score reads of a landing that clears no row:
/// what [`ColumnBase::with_piece_body`] gives for these, without the
/// others (blockades, heights, bumpiness, holes created).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LeanShape {
    pub(super) holes: u32,
    pub(super) well_sums: u32,
    pub(super) row_transitions: u32,
    pub(super) column_transitions: u32,
    /// The stack's top row after the lock (`rows` when empty).
    pub(super) top: u32,
}

impl ColumnBase {
    /// [`ColumnBase::with_piece_body`]'s holes, column transitions and
    /// stack top, the same integers by the same formulas, computing
    /// nothing else: the lookahead's last ply measures about 500 landings
    /// a decision for a score that reads only a few metrics. The wells and
    /// row transitions are left at the board's; [`ColumnBase::lean_neighbours`]
    /// adds them from the columns after the lock, which this returns
    /// (`near[j]` is column `left + j - 2`, walls full). The piece's cells
    /// are `piece[k]` in column `left + k` (bit y = row y), `W` (at most
    /// 4) columns, inside the board.
    #[inline(always)]
    pub(super) fn lean_touched<const W: usize>(
        &self,
        padded: &PaddedColumns,
        left: usize,
        piece: &[u64; 4],
    ) -> (LeanShape, [u64; 8]) {
        let (rows, full) = (self.rows, self.full);
        debug_assert!(W <= 4 && left + W <= self.width);
        // The columns from two left of the piece to two right of it after
        // the lock: each is read by up to five terms, built once.
        let mut near = [full; 8];
        near[..W + 4].copy_from_slice(&padded.0[left..left + W + 4]);
        for k in 0..W {
            near[k + 2] |= piece[k];
        }
        let s = &self.sums;
        let mut m = LeanShape {
            holes: s.holes,
            well_sums: s.well_sums,
            row_transitions: s.row_transitions,
            column_transitions: s.column_transitions,
            top: self.top,
        };
        // The piece's width is a constant here: the loops unroll.
        for k in 0..W {
            let here = near[k + 2];
            let was = &self.terms[left + k];
            let below = (here >> 1) | (1u64 << (rows - 1));
            m.holes = m.holes - u32::from(was.holes) + column_holes(here, full).count_ones();
            m.column_transitions = m.column_transitions - u32::from(was.column_transitions)
                + ((here ^ below) & full).count_ones();
            m.top = m.top.min(here.trailing_zeros());
        }
        (m, near)
    }

    /// The wells and row transitions of `m` (from
    /// [`ColumnBase::lean_touched`], with its `near` columns) after the
    /// lock, as [`ColumnBase::with_piece_body`] counts them.
    #[inline(always)]
    pub(super) fn lean_neighbours<const W: usize>(
        &self,
        near: &[u64; 8],
        left: usize,
        m: &mut LeanShape,
    ) {
        let (width, full) = (self.width, self.full);
        // Wells of the touched columns and their neighbours inside the
        // board (x = left - 1 ..= left + W).
        for j in 1..=W + 2 {
            let x = (left + j).wrapping_sub(2);
            if x < width {
                let now = wells(near[j], near[j - 1], near[j + 1], full);
                m.well_sums = m.well_sums - u32::from(self.wells[x]) + now;
            }
        }
        // Row transitions of every pair with a touched column (the right
        // wall is `x = width`): x = left ..= left + W.
        for j in 2..=W + 2 {
            let x = left + j - 2;
            let now = row_transitions(near[j - 1], near[j], full);
            m.row_transitions = m.row_transitions - u32::from(self.row_transitions[x]) + now;
        }
    }
}
