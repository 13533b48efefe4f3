//! What the AI measures on a board after a piece locks and full rows
//! clear: the seed's metrics (section 2) plus Dellacherie's row and column
//! transitions, all as operations on the board's bit rows.
//!
//! Definitions where the seed leaves room (our choices):
//! - A column's height counts from the floor to its highest filled cell.
//! - `holes`: empty cells with a filled cell somewhere above them.
//! - `holesCreated`: holes after the move that were not holes before it,
//!   comparing cell by cell once the cleared rows are removed from the
//!   "before" picture too (so rows moving down are not new holes).
//! - `blockades`: filled cells with an empty cell somewhere below them.
//! - `wellSums`: open cells (no block above) whose left and right are
//!   filled or a wall; each such run down a column adds 1 + 2 + ... + depth.
//! - `edgeDistance`: columns between the placed piece and the nearer wall.
//! - `gameOverAfterMove`: a filled cell at or above the danger row (the
//!   top row in classic play, the row under the ceiling in feed mode), or
//!   a tetromino that could no longer spawn (classic play then ends at the
//!   next such piece; in feed mode the player would give it).
//! - `rowTransitions`: filled/empty changes along each row, walls counted
//!   as filled; `columnTransitions`: changes down each column, the floor
//!   counted as filled.
//! - `landingHeight` (Dellacherie): how high the piece came to rest, in
//!   rows above the floor, measured at the middle of its cells' rows
//!   (before any clear).
//! - `erodedCells` (Dellacherie's "eroded piece cells"): rows cleared times
//!   the piece's own cells in those rows; it rewards clears the piece
//!   itself takes part in.

use serde::{Deserialize, Serialize};

use super::column_base::ColumnBase;
use tessera_tetris::board::{Board, MAX_SIZE, spawn_position};
use tessera_tetris::movegen::Placement;
use tessera_tetris::piece::PieceKind;

/// One measurable property of a position; the names are the seed's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Metric {
    /// Whether the move tops out (1) or not (0).
    GameOverAfterMove,
    /// 3 x lines cleared - holes created (GOD's trade-off).
    NetBenefit,
    /// Rows cleared by the move.
    LinesCleared,
    /// Covered empty cells.
    Holes,
    /// Holes the move made.
    HolesCreated,
    /// Filled cells above a hole.
    Blockades,
    /// Depth-weighted well cells.
    WellSums,
    /// Highest column.
    MaxHeight,
    /// Sum of column heights.
    AggregateHeight,
    /// Sum of height differences of neighbouring columns.
    Bumpiness,
    /// Columns between the piece and the nearer wall.
    EdgeDistance,
    /// Filled/empty changes along rows.
    RowTransitions,
    /// Filled/empty changes down columns.
    ColumnTransitions,
    /// How high the piece landed (middle of its rows, above the floor).
    LandingHeight,
    /// Rows cleared x the piece's cells in them.
    ErodedCells,
    /// Rows of the stack above half the rows a piece may fill (GOD's
    /// height guard: a tower is refused before it nears the ceiling).
    HighRows,
    /// The lookahead's guard: 0 when every next piece the feeder may give
    /// still has a landing that does not top out, 1 when one has none,
    /// 0.5 when the lookahead did not examine the move (outside its beam).
    NextTopOut,
    /// The lookahead's value: this move's score plus the best score of the
    /// next piece (the known one, the average, or the worst the feeder may
    /// give); unexamined moves rank below every examined one.
    Lookahead,
    /// The expected-line search's guard (feed mode, `adversary = "own"`
    /// or `"height"`): how many pieces of the line the player is expected
    /// to feed this move's boards survived, at most the search's depth,
    /// before every one of them topped out or met the lowering ceiling. A
    /// move whose boards were still alive when the search dropped them
    /// for better ones counts as long as the search's deepest boards
    /// lasted (nothing showed it dies sooner).
    /// Higher is better; 0 for a move the search did not follow.
    LinePlies,
    /// The weighted score (GOD's last tie-break).
    Score,
}

// The hot paths index `Metric::ALL`-sized arrays by `metric as usize` and
// leave out the last, `Score`: both rely on this order.
const _: () = {
    let mut i = 0;
    while i < Metric::ALL.len() {
        assert!(Metric::ALL[i] as usize == i);
        i += 1;
    }
    assert!(Metric::ALL[Metric::ALL.len() - 1] as usize == Metric::Score as usize);
};

impl Metric {
    /// Every metric, in the order logs list them.
    pub const ALL: [Metric; 20] = [
        Metric::GameOverAfterMove,
        Metric::NetBenefit,
        Metric::LinesCleared,
        Metric::Holes,
        Metric::HolesCreated,
        Metric::Blockades,
        Metric::WellSums,
        Metric::MaxHeight,
        Metric::AggregateHeight,
        Metric::Bumpiness,
        Metric::EdgeDistance,
        Metric::RowTransitions,
        Metric::ColumnTransitions,
        Metric::LandingHeight,
        Metric::ErodedCells,
        Metric::HighRows,
        Metric::NextTopOut,
        Metric::Lookahead,
        Metric::LinePlies,
        Metric::Score,
    ];

    /// The seed's camelCase name, used in the script and in logs.
    pub fn name(self) -> &'static str {
        match self {
            Metric::GameOverAfterMove => "gameOverAfterMove",
            Metric::NetBenefit => "netBenefit",
            Metric::LinesCleared => "linesCleared",
            Metric::Holes => "holes",
            Metric::HolesCreated => "holesCreated",
            Metric::Blockades => "blockades",
            Metric::WellSums => "wellSums",
            Metric::MaxHeight => "maxHeight",
            Metric::AggregateHeight => "aggregateHeight",
            Metric::Bumpiness => "bumpiness",
            Metric::EdgeDistance => "edgeDistance",
            Metric::RowTransitions => "rowTransitions",
            Metric::ColumnTransitions => "columnTransitions",
            Metric::LandingHeight => "landingHeight",
            Metric::ErodedCells => "erodedCells",
            Metric::HighRows => "highRows",
            Metric::NextTopOut => "nextTopOut",
            Metric::Lookahead => "lookahead",
            Metric::LinePlies => "linePlies",
            Metric::Score => "score",
        }
    }

    /// The metric a name stands for.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Whether more of it is better (lines, net benefit, score); for every
    /// other metric less is better.
    pub fn higher_is_better(self) -> bool {
        matches!(
            self,
            Metric::NetBenefit
                | Metric::LinesCleared
                | Metric::ErodedCells
                | Metric::Lookahead
                | Metric::LinePlies
                | Metric::Score
        )
    }
}

/// The metrics of one candidate move (everything but the weighted score,
/// which depends on the difficulty).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metrics {
    /// Whether the move tops out.
    pub game_over: bool,
    /// Rows cleared.
    pub lines_cleared: u32,
    /// Covered empty cells.
    pub holes: u32,
    /// Holes the move made.
    pub holes_created: u32,
    /// Filled cells above a hole.
    pub blockades: u32,
    /// Depth-weighted wells.
    pub well_sums: u32,
    /// Highest column.
    pub max_height: u32,
    /// Sum of heights.
    pub aggregate_height: u32,
    /// Height differences of neighbours.
    pub bumpiness: u32,
    /// Columns to the nearer wall.
    pub edge_distance: u32,
    /// Row transitions.
    pub row_transitions: u32,
    /// Column transitions.
    pub column_transitions: u32,
    /// Twice the landing height (kept whole; [`Metrics::get`] halves it).
    pub landing_height_x2: u32,
    /// Rows cleared x the piece's cells in them.
    pub eroded_cells: u32,
    /// Rows of the stack above half the fillable rows (set by the AI,
    /// which knows the danger rows: [`Metrics::with_high_rows`]).
    pub high_rows: u32,
}

impl Metrics {
    /// GOD's trade-off: 3 x lines - holes created.
    pub fn net_benefit(&self) -> i64 {
        3 * i64::from(self.lines_cleared) - i64::from(self.holes_created)
    }

    /// These metrics with `high_rows` set for a board of `height` rows whose
    /// top `danger_rows` top out.
    #[inline]
    pub fn with_high_rows(mut self, height: usize, danger_rows: usize) -> Self {
        let half = (height.saturating_sub(danger_rows) / 2) as u32;
        self.high_rows = self.max_height.saturating_sub(half);
        self
    }

    /// Every metric's value, indexed by `Metric as usize` (`Score`,
    /// `nextTopOut` and `lookahead`, which are the ranking's: 0):
    /// straight-line code for the hot paths that weigh or compare many
    /// metrics at once.
    #[inline]
    pub fn values(&self) -> [f64; Metric::ALL.len()] {
        [
            f64::from(u8::from(self.game_over)),
            self.net_benefit() as f64,
            f64::from(self.lines_cleared),
            f64::from(self.holes),
            f64::from(self.holes_created),
            f64::from(self.blockades),
            f64::from(self.well_sums),
            f64::from(self.max_height),
            f64::from(self.aggregate_height),
            f64::from(self.bumpiness),
            f64::from(self.edge_distance),
            f64::from(self.row_transitions),
            f64::from(self.column_transitions),
            f64::from(self.landing_height_x2) / 2.0,
            f64::from(self.eroded_cells),
            f64::from(self.high_rows),
            0.0,
            0.0,
            0.0,
            0.0,
        ]
    }

    /// One metric's value (`Score` is not stored here: 0).
    pub fn get(&self, metric: Metric) -> f64 {
        match metric {
            Metric::GameOverAfterMove => f64::from(u8::from(self.game_over)),
            Metric::NetBenefit => self.net_benefit() as f64,
            Metric::LinesCleared => f64::from(self.lines_cleared),
            Metric::Holes => f64::from(self.holes),
            Metric::HolesCreated => f64::from(self.holes_created),
            Metric::Blockades => f64::from(self.blockades),
            Metric::WellSums => f64::from(self.well_sums),
            Metric::MaxHeight => f64::from(self.max_height),
            Metric::AggregateHeight => f64::from(self.aggregate_height),
            Metric::Bumpiness => f64::from(self.bumpiness),
            Metric::EdgeDistance => f64::from(self.edge_distance),
            Metric::RowTransitions => f64::from(self.row_transitions),
            Metric::ColumnTransitions => f64::from(self.column_transitions),
            Metric::LandingHeight => f64::from(self.landing_height_x2) / 2.0,
            Metric::ErodedCells => f64::from(self.eroded_cells),
            Metric::HighRows => f64::from(self.high_rows),
            Metric::NextTopOut | Metric::Lookahead | Metric::LinePlies | Metric::Score => 0.0,
        }
    }
}

/// Removes the rows in `mask` (bit y = row y) from `rows`, moving the
/// rows above down and leaving empty rows at the top, as a clear does.
fn remove_rows(rows: &mut [u64], mask: u64) {
    if mask == 0 {
        return;
    }
    let mut write = rows.len();
    for read in (0..rows.len()).rev() {
        if mask >> read & 1 == 1 {
            continue;
        }
        write -= 1;
        rows[write] = rows[read];
    }
    rows[..write].fill(0);
}

/// Holes of `board` as bit rows (bit x of row y set = a hole at (x, y)).
pub fn hole_map(board: &Board) -> [u64; MAX_SIZE] {
    let mut map = [0u64; MAX_SIZE];
    let full = board.full_row();
    let mut above = 0u64;
    for (y, &row) in board.rows().iter().enumerate() {
        map[y] = above & !row & full;
        above |= row;
    }
    map
}

/// The shape metrics of `board` (no move involved): holes, blockades,
/// wells, heights, bumpiness, transitions. `danger_rows` rows from the top
/// count as topped out when filled. Branch-light and allocation-free: the
/// AI runs it once per candidate.
pub fn board_metrics(board: &Board, danger_rows: usize) -> Metrics {
    shape_metrics(board, danger_rows, None)
}

/// [`board_metrics`], counting as `holes_created` the holes that are not
/// in `old_holes` (bit rows of the holes before, in this board's rows).
///
/// The metrics are mostly bit counts. The portable x86-64 baseline has no
/// `popcnt` instruction, so each count would be a dozen instructions: on a
/// CPU that has it (every x86-64 CPU since 2008), the same code runs
/// compiled with it, about a third faster per decision.
fn shape_metrics(board: &Board, danger_rows: usize, old_holes: Option<&[u64]>) -> Metrics {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU was just checked to support `popcnt`.
        return unsafe { shape_metrics_popcnt(board, danger_rows, old_holes) };
    }
    shape_metrics_body(board, danger_rows, old_holes)
}

/// [`shape_metrics_body`] compiled with the `popcnt` instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn shape_metrics_popcnt(board: &Board, danger_rows: usize, old_holes: Option<&[u64]>) -> Metrics {
    shape_metrics_body(board, danger_rows, old_holes)
}

/// The metrics themselves; inlined into both callers above so each copy is
/// compiled with its caller's instruction set.
#[inline(always)]
fn shape_metrics_body(board: &Board, danger_rows: usize, old_holes: Option<&[u64]>) -> Metrics {
    let width = board.width();
    let full = board.full_row();
    let rows = board.rows();
    let mut m = Metrics::default();
    // Rows above the stack are empty: two row transitions each (the
    // walls), nothing else.
    let top = rows.iter().position(|&r| r != 0).unwrap_or(rows.len());
    m.row_transitions = 2 * top as u32;
    if let Some(&first) = rows.get(top) {
        // The empty row above the stack against its first row.
        if top > 0 {
            m.column_transitions += first.count_ones();
        }
    }
    let height = rows.len();
    let mut heights = [0u32; MAX_SIZE];
    let mut above = 0u64;
    // Each column's current well depth; wells are few per row, so only
    // their columns are visited.
    let mut depth = [0u32; MAX_SIZE];
    let mut wells_above = 0u64;
    let wall_left = 1u64;
    let wall_right = 1u64 << (width - 1);
    let span = (1u128 << (width + 1)) - 1;
    for (y, &row) in rows.iter().enumerate().skip(top) {
        let holes = above & !row & full;
        m.holes += holes.count_ones();
        if let Some(old) = old_holes {
            m.holes_created += (holes & !old[y]).count_ones();
        }
        let mut fresh = row & !above;
        while fresh != 0 {
            let x = fresh.trailing_zeros() as usize;
            fresh &= fresh - 1;
            heights[x] = (height - y) as u32;
        }
        // Open cells whose both sides are filled (a wall counts) deepen
        // their column's well; any other cell ends it.
        let sides = ((row << 1) | wall_left) & ((row >> 1) | wall_right);
        let wells = !row & !above & sides & full;
        let mut open = wells;
        while open != 0 {
            let x = open.trailing_zeros() as usize;
            open &= open - 1;
            let d = if wells_above >> x & 1 == 1 {
                depth[x] + 1
            } else {
                1
            };
            depth[x] = d;
            m.well_sums += d;
        }
        wells_above = wells;
        // Along the row with walls on both sides: each cell against its
        // left neighbour, and the last cell against the right wall.
        // (u128: a 64-wide row plus its right wall is 65 bits.)
        let cells = u128::from(row);
        let with_right_wall = cells | (1u128 << width);
        let shifted_with_left_wall = (cells << 1) | 1;
        m.row_transitions += ((with_right_wall ^ shifted_with_left_wall) & span).count_ones();
        let below = if y + 1 < height { rows[y + 1] } else { full };
        m.column_transitions += ((row ^ below) & full).count_ones();
        above |= row;
    }
    let mut open_below = 0u64;
    for &row in rows[top..].iter().rev() {
        m.blockades += (row & open_below).count_ones();
        open_below |= !row & full;
    }
    for x in 0..width {
        m.max_height = m.max_height.max(heights[x]);
        m.aggregate_height += heights[x];
        if x + 1 < width {
            m.bumpiness += heights[x].abs_diff(heights[x + 1]);
        }
    }
    m.game_over = top < danger_rows.min(height);
    m
}

/// The metrics of locking `placement` on `before`: the board after the
/// lock and its clears, holes created, lines, edge distance.
pub fn move_metrics(before: &Board, placement: &Placement, danger_rows: usize) -> (Board, Metrics) {
    move_metrics_with(before, &hole_map(before), placement, danger_rows)
}

/// [`move_metrics`] with the holes of `before` already mapped (the AI maps
/// them once per decision, not once per candidate).
pub fn move_metrics_with(
    before: &Board,
    before_holes: &[u64; MAX_SIZE],
    placement: &Placement,
    danger_rows: usize,
) -> (Board, Metrics) {
    let mut after = *before;
    after.place(placement.kind, placement.state, placement.x, placement.y);
    let cleared = after.clear_full_rows();
    // Holes before, with the cleared rows removed the same way, so only
    // cells that became holes count.
    let m = if cleared == 0 {
        shape_metrics(&after, danger_rows, Some(&before_holes[..]))
    } else {
        let mut old = *before_holes;
        remove_rows(&mut old[..before.height()], cleared);
        shape_metrics(&after, danger_rows, Some(&old[..]))
    };
    let m = finish_move_metrics(before, || after, cleared, placement, danger_rows, m);
    (after, m)
}

/// A board before a move, prepared once per decision so that each
/// candidate's metrics cost one pass over the columns (ten on a standard
/// board) instead of one over the rows of the stack. A candidate that
/// clears a row takes the row path ([`move_metrics_with`]); the two paths
/// agree on every metric (a property test holds them to it).
pub struct BeforeMove<'a> {
    board: &'a Board,
    /// Holes as bit rows, for the row path.
    hole_rows: [u64; MAX_SIZE],
    /// Each column's cells (bit y = row y), then the right wall as a full
    /// column (so every column has a right neighbour).
    pub(super) columns: [u64; MAX_SIZE + 1],
    /// Each column's holes (bit y = row y).
    hole_columns: [u64; MAX_SIZE],
    /// The board's metrics by column, for the landings that touch a few
    /// (`None` on a board too narrow for them).
    pub(super) base: Option<ColumnBase>,
}

impl<'a> BeforeMove<'a> {
    /// Prepares `board`: its holes by row, its cells and holes by column.
    ///
    /// Mostly bit counts (the column sums): compiled with `popcnt` and the
    /// bit-manipulation instructions where the CPU has them; the
    /// lookahead prepares four boards a decision.
    pub fn new(board: &'a Board) -> Self {
        #[cfg(target_arch = "x86_64")]
        if has_bit_instructions() {
            // SAFETY: the CPU was just checked to support these instructions.
            return unsafe { Self::new_bmi(board) };
        }
        Self::new_body(board)
    }

    /// [`BeforeMove::new_body`] compiled with `popcnt`, `bmi1` and `lzcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,lzcnt")]
    fn new_bmi(board: &'a Board) -> Self {
        Self::new_body(board)
    }

    /// [`BeforeMove::new`], inlined into both callers above.
    #[inline(always)]
    fn new_body(board: &'a Board) -> Self {
        let mut columns = [0u64; MAX_SIZE + 1];
        for (y, &row) in board.rows().iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                columns[x] |= 1 << y;
            }
        }
        let full = column_mask(board.height());
        columns[board.width()] = full;
        let mut hole_columns = [0u64; MAX_SIZE];
        for x in 0..board.width() {
            hole_columns[x] = column_holes(columns[x], full);
        }
        Self {
            board,
            hole_rows: hole_map(board),
            base: ColumnBase::new(&columns, board.width(), board.height()),
            columns,
            hole_columns,
        }
    }

    /// The board it prepared.
    pub fn board(&self) -> &'a Board {
        self.board
    }

    /// The metrics of locking `placement` (a landing that fits) on this
    /// board: the same values as [`move_metrics`], without building the
    /// board after the move unless a row clears.
    ///
    /// Mostly bit counts: compiled with `popcnt` and the bit-manipulation
    /// instructions where the CPU has them, as the whole-board paths are.
    pub fn metrics(&self, placement: &Placement, danger_rows: usize) -> Metrics {
        #[cfg(target_arch = "x86_64")]
        if has_bit_instructions() {
            // SAFETY: the CPU was just checked to support these instructions.
            return unsafe { self.metrics_bmi(placement, danger_rows) };
        }
        self.metrics_body(placement, danger_rows)
    }

    /// [`BeforeMove::metrics_body`] compiled with `popcnt`, `bmi1` and
    /// `lzcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,lzcnt")]
    fn metrics_bmi(&self, placement: &Placement, danger_rows: usize) -> Metrics {
        self.metrics_body(placement, danger_rows)
    }

    /// [`BeforeMove::metrics`], inlined into callers compiled with the bit
    /// instructions (a caller that measures many landings checks the CPU
    /// once, not once per landing).
    #[inline(always)]
    pub(super) fn metrics_body(&self, placement: &Placement, danger_rows: usize) -> Metrics {
        let board = self.board;
        let o = tessera_tetris::piece::orientation(placement.kind, placement.state);
        let p = placement.x + i32::from(o.left);
        let q = placement.y + i32::from(o.top);
        let inside = p >= 0
            && q >= 0
            && p + i32::from(o.width) <= board.width() as i32
            && q + i32::from(o.height) <= board.height() as i32;
        let full = board.full_row();
        let clears = inside
            && (0..o.height as usize).any(|i| board.row(q as usize + i) | o.rows[i] << p == full);
        if !inside || clears {
            return move_metrics_with(board, &self.hole_rows, placement, danger_rows).1;
        }
        // The piece's cells by column, from its leftmost column on.
        let mut piece = PieceColumns {
            left: p as usize,
            columns: [0; 8],
        };
        for (i, &row) in o.rows[..o.height as usize].iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                let column = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                piece.columns[column] |= 1 << (q as usize + i);
            }
        }
        let m = match &self.base {
            Some(base) => base.with_piece_body(
                &self.columns,
                &piece,
                o.width as usize,
                &self.hole_columns,
                danger_rows,
            ),
            None => column_metrics(
                &self.columns,
                &piece,
                board.width(),
                board.height(),
                &self.hole_columns,
                danger_rows,
            ),
        };
        let after = || {
            let mut after = *board;
            after.place(placement.kind, placement.state, placement.x, placement.y);
            after
        };
        finish_move_metrics(board, after, 0, placement, danger_rows, m)
    }
}

/// Whether the CPU has `popcnt`, `bmi1` and `lzcnt` (every x86-64 CPU
/// since about 2013): the metrics' bit counts and zero counts are then
/// one instruction each.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn has_bit_instructions() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

/// The mask of a column `height` cells tall (bit y = row y).
pub(super) fn column_mask(height: usize) -> u64 {
    if height >= 64 {
        u64::MAX
    } else {
        (1u64 << height) - 1
    }
}

/// The empty cells of a column below its highest filled cell (`full` is
/// the column's mask).
#[inline(always)]
pub(super) fn column_holes(column: u64, full: u64) -> u64 {
    // `column ^ (column - 1)`: the cells down to the highest filled one
    // (all of them for an empty column).
    !column & !(column ^ column.wrapping_sub(1)) & full
}

/// A piece's cells by column (bit y = row y), from column `left` on.
pub(crate) struct PieceColumns {
    pub(super) left: usize,
    pub(super) columns: [u64; 8],
}

impl PieceColumns {
    /// The piece's cells in column `x` (none outside its columns).
    #[inline(always)]
    pub(super) fn at(&self, x: usize) -> u64 {
        let k = x.wrapping_sub(self.left);
        if k < self.columns.len() {
            self.columns[k]
        } else {
            0
        }
    }
}

/// The shape metrics (as [`board_metrics`] counts them, `holes_created`
/// against `old_holes`) of the board whose columns are `columns` (bit y =
/// row y; `columns[width]` is the right wall, full) plus `piece`, `height`
/// rows tall.
fn column_metrics(
    columns: &[u64; MAX_SIZE + 1],
    piece: &PieceColumns,
    width: usize,
    height: usize,
    old_holes: &[u64; MAX_SIZE],
    danger_rows: usize,
) -> Metrics {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("lzcnt")
    {
        // SAFETY: the CPU was just checked to support these instructions.
        return unsafe {
            column_metrics_bmi(columns, piece, width, height, old_holes, danger_rows)
        };
    }
    column_metrics_body(columns, piece, width, height, old_holes, danger_rows)
}

/// [`column_metrics_body`] compiled with `popcnt` and the bit-manipulation
/// instructions (one-instruction trailing and leading zero counts and
/// lowest-bit masks; every x86-64 CPU since about 2013 has them).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,lzcnt")]
fn column_metrics_bmi(
    columns: &[u64; MAX_SIZE + 1],
    piece: &PieceColumns,
    width: usize,
    height: usize,
    old_holes: &[u64; MAX_SIZE],
    danger_rows: usize,
) -> Metrics {
    column_metrics_body(columns, piece, width, height, old_holes, danger_rows)
}

#[inline(always)]
pub(super) fn column_metrics_body(
    columns: &[u64; MAX_SIZE + 1],
    piece: &PieceColumns,
    width: usize,
    height: usize,
    old_holes: &[u64; MAX_SIZE],
    danger_rows: usize,
) -> Metrics {
    let width = width.clamp(1, MAX_SIZE);
    let full = column_mask(height);
    let rows = height as u32;
    let mut m = Metrics::default();
    // The stack's top row (the row path starts there; no well lies above
    // it on a board two or more columns wide, and on a one-column board
    // the row path does not count the open cells above it either).
    let mut top = rows;
    for (x, &column) in columns[..width].iter().enumerate() {
        top = top.min((column | piece.at(x)).trailing_zeros());
    }
    let from_top = full & !column_mask(top as usize);
    let mut left = full; // the left wall counts as filled
    let mut here = columns[0] | piece.at(0);
    let mut previous_height = 0;
    for x in 0..width {
        // The right wall (`columns[width]`) is full and has no piece cells.
        let right = columns[x + 1] | piece.at(x + 1);
        let height_here = rows.saturating_sub(here.trailing_zeros());
        m.max_height = m.max_height.max(height_here);
        m.aggregate_height += height_here;
        m.bumpiness += height_here.abs_diff(previous_height);
        previous_height = height_here;

        let holes = column_holes(here, full);
        m.holes += holes.count_ones();
        m.holes_created += (holes & !old_holes[x]).count_ones();
        // Filled cells above the lowest hole (none without holes).
        let above_lowest_hole = u64::MAX.checked_shr(holes.leading_zeros()).unwrap_or(0) >> 1;
        m.blockades += (here & above_lowest_hole).count_ones();

        // Open cells (above the column's top) between filled sides; each
        // run down the column adds 1 + 2 + ... + its depth.
        let open = !here & here.wrapping_sub(1) & full;
        let mut wells = open & left & right & from_top;
        while wells != 0 {
            let start = wells.trailing_zeros();
            let run = (!(wells >> start)).trailing_zeros();
            m.well_sums += run * (run + 1) / 2;
            wells &= !(column_mask(run as usize) << start);
        }

        // Changes along rows against the left neighbour (or wall); changes
        // down the column, the floor counted as filled.
        m.row_transitions += ((here ^ left) & full).count_ones();
        let below = (here >> 1) | (1u64 << (height - 1));
        m.column_transitions += ((here ^ below) & full).count_ones();
        left = here;
        here = right;
    }
    // The last column against the right wall.
    m.row_transitions += (!left & full).count_ones();
    // Bumpiness counts neighbours only, not the first column against 0.
    m.bumpiness -= rows.saturating_sub((columns[0] | piece.at(0)).trailing_zeros());
    if top == rows {
        // An empty board: the row path counts no column transitions.
        m.column_transitions = 0;
    }
    m.game_over = (top as usize) < danger_rows.min(height);
    m
}

/// The metrics that depend on the move itself (lines, a spawn blocked,
/// edge distance, eroded cells, landing height), added to the shape
/// metrics `m` of the board after the move; `after` builds that board, only
/// when a spawn check needs it. Inlined: its caller per landing
/// ([`BeforeMove::metrics_body`]) is compiled with the bit instructions.
#[inline(always)]
fn finish_move_metrics(
    before: &Board,
    after: impl FnOnce() -> Board,
    cleared: u64,
    placement: &Placement,
    danger_rows: usize,
    mut m: Metrics,
) -> Metrics {
    m.lines_cleared = cleared.count_ones();
    // Spawn boxes reach at most four rows below the spawn row: a lower
    // stack cannot block one.
    let spawn_row = danger_rows.saturating_sub(1);
    let stack_top = before.height() - m.max_height as usize;
    if !m.game_over && stack_top < spawn_row + 4 {
        let after = after();
        m.game_over = PieceKind::ALL.iter().any(|&kind| {
            let (x, _) = spawn_position(kind, after.width());
            !after.fits(kind, 0, x, spawn_row as i32)
        });
    }
    // The cells' bounds, from the orientation's.
    let o = tessera_tetris::piece::orientation(placement.kind, placement.state);
    let left = placement.x + i32::from(o.left);
    let right = left + i32::from(o.width) - 1;
    let top = placement.y + i32::from(o.top);
    let bottom = top + i32::from(o.height) - 1;
    let own_cleared_cells = if cleared == 0 {
        0
    } else {
        placement
            .cells()
            .filter(|&(_, y)| (0..64).contains(&y) && cleared >> y & 1 == 1)
            .count() as u32
    };
    let edge = left.min(before.width() as i32 - 1 - right).max(0);
    m.edge_distance = edge as u32;
    m.eroded_cells = m.lines_cleared * own_cleared_cells;
    // Rows above the floor of the piece's lowest and highest cells; their
    // sum is twice the height of the middle.
    let floor = before.height() as i32;
    m.landing_height_x2 = ((floor - 1 - bottom) + (floor - 1 - top)).max(0) as u32;
    m
}
