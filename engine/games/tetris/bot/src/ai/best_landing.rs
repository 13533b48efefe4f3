//! The best score among one piece's landings on a prepared board: the
//! classic lookahead's last ply, which weighs every landing of each of
//! the seven pieces after each of the best few moves (about 500 landings
//! a decision). One loop, compiled with the bit instructions where the
//! CPU has them, measures and scores them all, so the per-landing work
//! inlines into it and the CPU is checked once per piece, not per landing.

use super::Weights;
use super::column_base::{ColumnBase, PaddedColumns};
use super::metrics::{BeforeMove, Metric, PieceColumns, column_mask, column_metrics_body};
use tessera_tetris::board::{Board, MAX_SIZE};
use tessera_tetris::movegen::Placement;
use tessera_tetris::piece::{PieceKind, orientation};

/// A board of the lookahead's last ply, prepared once for every piece
/// that may come to it (seven in classic play): the weights read into
/// the lean path's form and, when they read only what it measures, the
/// board padded with walls and its rows a piece could fill.
pub(super) struct PreparedBoard<'a, 'b> {
    before: &'a BeforeMove<'b>,
    weights: &'a Weights,
    lean_weights: LeanWeights,
    /// `None` where every landing takes the full path.
    lean: Option<LeanBoard<'a, 'b>>,
    /// The position's height and danger rows.
    height: usize,
    danger_rows: usize,
}

impl<'a, 'b> PreparedBoard<'a, 'b> {
    /// `before` prepared for landings weighed by `weights`, on a
    /// position `height` rows tall whose top `danger_rows` top out.
    pub(super) fn new(
        before: &'a BeforeMove<'b>,
        weights: &'a Weights,
        height: usize,
        danger_rows: usize,
    ) -> Self {
        let lean = match &before.base {
            Some(base) if reads_only_lean(weights) => Some(LeanBoard::new(before, base)),
            _ => None,
        };
        Self {
            before,
            weights,
            lean_weights: LeanWeights::new(weights),
            lean,
            height,
            danger_rows,
        }
    }

    /// The highest score of `landings` on this board (`None` without
    /// landings; the same values, bit for bit, as measuring each with
    /// [`super::Position::measure`] and scoring it with
    /// [`Weights::score`]), and whether some landing does not top out.
    pub(super) fn best_score(&self, landings: &[Placement]) -> (Option<f64>, bool) {
        #[cfg(target_arch = "x86_64")]
        if super::metrics::has_bit_instructions() {
            // SAFETY: the CPU was just checked to support these instructions.
            return unsafe { best_score_bmi(self, landings) };
        }
        best_score_body(self, landings)
    }

    /// Every landing's score and whether it tops out, in `landings`'
    /// order, into `out` (cleared first): the same values, bit for bit, as
    /// [`super::Position::measure`] and [`Weights::score`]. The line
    /// search weighs each piece of the offer on a board this way, where
    /// the reader's choice and the expected piece's children need only
    /// these two values of each landing.
    pub(super) fn score_each(&self, landings: &[Placement], out: &mut Vec<(f64, bool)>) {
        out.clear();
        #[cfg(target_arch = "x86_64")]
        if super::metrics::has_bit_instructions() {
            // SAFETY: the CPU was just checked to support these instructions.
            return unsafe { score_each_bmi(self, landings, out) };
        }
        score_each_body(self, landings, out)
    }
}

/// [`best_score_body`] compiled with `popcnt`, `bmi1` and `lzcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,lzcnt")]
fn best_score_bmi(board: &PreparedBoard, landings: &[Placement]) -> (Option<f64>, bool) {
    best_score_body(board, landings)
}

#[inline(always)]
fn best_score_body(board: &PreparedBoard, landings: &[Placement]) -> (Option<f64>, bool) {
    let mut best: Option<f64> = None;
    let mut survives = false;
    // (No closures in these functions: a closure is compiled without its
    // instruction set.)
    // The landings come state by state: the piece's shape is looked up
    // once per state.
    let mut shape: Option<PieceShape> = None;
    for p in landings {
        let (s, game_over) = landing_score(board, &mut shape, p);
        survives |= !game_over;
        best = Some(match best {
            Some(b) => b.max(s),
            None => s,
        });
    }
    (best, survives)
}

/// [`score_each_body`] compiled with `popcnt`, `bmi1` and `lzcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,lzcnt")]
fn score_each_bmi(board: &PreparedBoard, landings: &[Placement], out: &mut Vec<(f64, bool)>) {
    score_each_body(board, landings, out)
}

#[inline(always)]
fn score_each_body(board: &PreparedBoard, landings: &[Placement], out: &mut Vec<(f64, bool)>) {
    let mut shape: Option<PieceShape> = None;
    for p in landings {
        out.push(landing_score(board, &mut shape, p));
    }
}

/// One landing's score and whether it tops out: the lean path where it
/// measures the landing exactly, else the full path. `shape` is the last
/// landing's piece shape, looked up again only when the state changes.
#[inline(always)]
fn landing_score(
    board: &PreparedBoard,
    shape: &mut Option<PieceShape>,
    p: &Placement,
) -> (f64, bool) {
    let PreparedBoard {
        before,
        weights,
        ref lean_weights,
        ref lean,
        height,
        danger_rows,
    } = *board;
    let mut lean_result = Lean::Full;
    if let Some(board) = lean {
        // Borrowed, not copied (about a hundred bytes) per landing.
        let piece: &PieceShape = match shape {
            Some(s) if s.kind == p.kind && s.state == p.state => s,
            _ => shape.insert(PieceShape::new(p.kind, p.state)),
        };
        lean_result = lean_score_any(board, piece, p, lean_weights, (height, danger_rows));
    }
    match lean_result {
        Lean::Scored(s, game_over) => (s, game_over),
        Lean::Full => {
            let metrics = before
                .metrics_body(p, danger_rows)
                .with_high_rows(height, danger_rows);
            (weights.score(&metrics), metrics.game_over)
        }
    }
}

/// The rows a piece of up to four cells could fill (bit y = row y): the
/// only rows a lean landing checks for a clear.
#[inline(always)]
fn fillable_rows(board: &Board) -> u64 {
    let full = board.full_row();
    let mut fillable = 0u64;
    for (y, &row) in board.rows().iter().enumerate() {
        if (full & !row).count_ones() <= 4 {
            fillable |= 1 << y;
        }
    }
    fillable
}

/// Whether every metric `weights` weighs (other than 0) is one the lean
/// path measures ([`lean_score`]).
fn reads_only_lean(weights: &Weights) -> bool {
    weights.nonzero[..usize::from(weights.weighed)]
        .iter()
        .all(|&i| LEAN.iter().any(|&m| m as u8 == i))
}

/// The metrics [`lean_score`] gives exactly.
const LEAN: [Metric; 11] = [
    Metric::GameOverAfterMove,
    Metric::LinesCleared,
    Metric::Holes,
    Metric::WellSums,
    Metric::MaxHeight,
    Metric::EdgeDistance,
    Metric::RowTransitions,
    Metric::ColumnTransitions,
    Metric::LandingHeight,
    Metric::ErodedCells,
    Metric::HighRows,
];

/// One orientation's cells as the lean path reads them.
#[derive(Clone, Copy)]
struct PieceShape {
    kind: PieceKind,
    state: u8,
    /// The cells' bounding box inside the rotation box.
    left: i32,
    top: i32,
    width: usize,
    height: usize,
    /// The box's rows (bit 0 = its left column), top first.
    rows: [u64; 4],
    /// The box's columns (bit 0 = its top row), left first.
    columns: [u64; 4],
    /// Whether it fits the lean path (at most 4 x 4: the tetrominoes).
    small: bool,
}

impl PieceShape {
    fn new(kind: PieceKind, state: u8) -> Self {
        let o = orientation(kind, state);
        let (width, height) = (o.width as usize, o.height as usize);
        let small = width <= 4 && height <= 4;
        let mut rows = [0u64; 4];
        let mut columns = [0u64; 4];
        if small {
            rows.copy_from_slice(&o.rows[..4]);
            for (i, &row) in o.rows[..height].iter().enumerate() {
                for (k, column) in columns.iter_mut().enumerate() {
                    *column |= (row >> k & 1) << i;
                }
            }
        }
        Self {
            kind,
            state,
            left: i32::from(o.left),
            top: i32::from(o.top),
            width,
            height,
            rows,
            columns,
            small,
        }
    }
}

/// The weights of the metrics a lean landing may have other than 0, in
/// `Metric::ALL`'s order (the others are not lean: [`LEAN`]).
#[derive(Clone, Copy)]
struct LeanWeights {
    game_over: f64,
    lines_cleared: f64,
    holes: f64,
    well_sums: f64,
    max_height: f64,
    edge_distance: f64,
    row_transitions: f64,
    column_transitions: f64,
    landing_height: f64,
    eroded_cells: f64,
    high_rows: f64,
}

/// A lean landing's values of those metrics.
#[derive(Clone, Copy)]
struct LeanValues {
    game_over: f64,
    lines_cleared: f64,
    holes: f64,
    well_sums: f64,
    max_height: f64,
    edge_distance: f64,
    row_transitions: f64,
    column_transitions: f64,
    landing_height: f64,
    eroded_cells: f64,
    high_rows: f64,
}

impl LeanWeights {
    fn new(weights: &Weights) -> Self {
        Self {
            game_over: weights.get(Metric::GameOverAfterMove),
            lines_cleared: weights.get(Metric::LinesCleared),
            holes: weights.get(Metric::Holes),
            well_sums: weights.get(Metric::WellSums),
            max_height: weights.get(Metric::MaxHeight),
            edge_distance: weights.get(Metric::EdgeDistance),
            row_transitions: weights.get(Metric::RowTransitions),
            column_transitions: weights.get(Metric::ColumnTransitions),
            landing_height: weights.get(Metric::LandingHeight),
            eroded_cells: weights.get(Metric::ErodedCells),
            high_rows: weights.get(Metric::HighRows),
        }
    }

    /// [`Weights::score`] of a lean landing, when it is not 0: the same
    /// sum in the same order (from -0.0, `Metric::ALL`'s order), but for
    /// terms that are 0 (a weight of 0, or a metric that is 0 here), which
    /// may only change the sign of a sum that is 0 (adding a zero to a
    /// number that is not leaves it as it was, and a zero plus a number
    /// is that number). Straight-line code, no table lookups.
    #[inline(always)]
    fn score(&self, v: &LeanValues) -> f64 {
        let mut sum = -0.0;
        sum += self.game_over * v.game_over;
        sum += self.lines_cleared * v.lines_cleared;
        sum += self.holes * v.holes;
        sum += self.well_sums * v.well_sums;
        sum += self.max_height * v.max_height;
        sum += self.edge_distance * v.edge_distance;
        sum += self.row_transitions * v.row_transitions;
        sum += self.column_transitions * v.column_transitions;
        sum += self.landing_height * v.landing_height;
        sum += self.eroded_cells * v.eroded_cells;
        sum += self.high_rows * v.high_rows;
        sum
    }
}

/// What the lean path made of one landing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Lean {
    /// Its score and whether it tops out.
    Scored(f64, bool),
    /// The full path must measure it.
    Full,
}

/// [`lean_score`] for `piece`'s width (a constant there, so its loops
/// unroll); [`Lean::Full`] for a piece wider than 4.
#[inline(always)]
fn lean_score_any(
    board: &LeanBoard,
    piece: &PieceShape,
    p: &Placement,
    weights: &LeanWeights,
    rows: (usize, usize),
) -> Lean {
    match piece.width {
        1 => lean_score::<1>(board, piece, p, weights, rows),
        2 => lean_score::<2>(board, piece, p, weights, rows),
        3 => lean_score::<3>(board, piece, p, weights, rows),
        4 => lean_score::<4>(board, piece, p, weights, rows),
        _ => Lean::Full,
    }
}

/// A board as the lean path reads it, prepared once per piece.
struct LeanBoard<'a, 'b> {
    before: &'a BeforeMove<'b>,
    base: &'a ColumnBase,
    padded: PaddedColumns,
    /// The rows a piece could fill ([`fillable_rows`]).
    fillable: u64,
}

impl<'a, 'b> LeanBoard<'a, 'b> {
    #[inline(always)]
    fn new(before: &'a BeforeMove<'b>, base: &'a ColumnBase) -> Self {
        let board = before.board();
        Self {
            before,
            base,
            padded: PaddedColumns::new(&before.columns, board.width(), column_mask(board.height())),
            fillable: fillable_rows(board),
        }
    }
}

/// Landing `p` (of `piece`'s shape, `W` columns wide) by the lean path: [`Lean::Full`] for a
/// piece wider or taller than 4, when the stack comes near enough to the
/// spawn rows that a spawn check is needed, or when the score comes to 0
/// (where [`Weights::score`] sums every metric, for the sign of the zero).
/// Otherwise the same score, bit for bit, as measuring it in full and
/// scoring it with [`Weights::score`]: the same integers
/// ([`ColumnBase::lean_touched`] and [`ColumnBase::lean_neighbours`], or
/// [`lean_clear`] when rows clear), summed as [`LeanWeights::score`] says.
#[inline(always)]
fn lean_score<const W: usize>(
    lean: &LeanBoard,
    piece: &PieceShape,
    p: &Placement,
    weights: &LeanWeights,
    (height, danger_rows): (usize, usize),
) -> Lean {
    let (before, base, fillable) = (lean.before, lean.base, lean.fillable);
    let board = before.board();
    let left = p.x + piece.left;
    let top = p.y + piece.top;
    let (piece_width, piece_height) = (W, piece.height);
    debug_assert_eq!(piece.width, W);
    if !piece.small
        || left < 0
        || top < 0
        || left as usize + piece_width > board.width()
        || top as usize + piece_height > board.height()
    {
        return Lean::Full;
    }
    let (left, top) = (left as usize, top as usize);
    let full = board.full_row();
    let mut cleared = 0u64;
    if (fillable >> top) & ((1 << piece_height) - 1) != 0 {
        for (i, &row) in piece.rows[..piece_height].iter().enumerate() {
            if board.row(top + i) | row << left == full {
                cleared |= 1 << (top + i);
            }
        }
    }
    let mut cells = [0u64; 4];
    for (cell, &column) in cells.iter_mut().zip(&piece.columns) {
        *cell = column << top;
    }
    let floor = board.height();
    let bottom = top + piece_height - 1;
    // Twice the landing height (before any clear), halved as
    // `Metrics::values` does.
    let landing_height = ((floor - 1 - bottom) + (floor - 1 - top)) as f64 / 2.0;
    let edge_distance = left.min(board.width() - (left + piece_width)) as f64;
    if cleared != 0 {
        return lean_clear(
            before,
            piece,
            (left, top),
            &cells,
            cleared,
            weights,
            (landing_height, edge_distance),
            (height, danger_rows),
        );
    }
    let (mut shape, near) = base.lean_touched::<W>(&lean.padded, left, &cells);
    let stack_top = shape.top as usize;
    let game_over = stack_top < danger_rows.min(board.height());
    // A stack reaching the spawn boxes needs the full path's spawn check.
    if !game_over && stack_top < danger_rows.saturating_sub(1) + 4 {
        return Lean::Full;
    }
    let rows = board.height() as u32;
    let max_height = rows - shape.top;
    // The values `Metrics::values` gives, for the metrics the lean path
    // measures (lines cleared and eroded cells are 0: no row clears).
    let values = LeanValues {
        game_over: f64::from(u32::from(game_over)),
        lines_cleared: 0.0,
        holes: f64::from(shape.holes),
        well_sums: 0.0,
        max_height: f64::from(max_height),
        edge_distance,
        row_transitions: 0.0,
        column_transitions: f64::from(shape.column_transitions),
        landing_height,
        eroded_cells: 0.0,
        high_rows: f64::from(
            max_height.saturating_sub((height.saturating_sub(danger_rows) / 2) as u32),
        ),
    };
    base.lean_neighbours::<W>(&near, left, &mut shape);
    let sum = weights.score(&LeanValues {
        well_sums: f64::from(shape.well_sums),
        row_transitions: f64::from(shape.row_transitions),
        ..values
    });
    if sum == 0.0 {
        return Lean::Full;
    }
    Lean::Scored(sum, game_over)
}

/// A lean landing that clears the rows `cleared` (bit y = row y): the
/// board after the lock and the clears, column by column (each column
/// loses the cleared rows, the cells above moving down), measured whole
/// by the column path ([`column_metrics_body`], which agrees with the row
/// path the full path takes); lines and eroded cells from the piece's
/// rows. [`Lean::Full`] where the full path would check the spawn, or the
/// score comes to 0.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn lean_clear(
    before: &BeforeMove,
    piece: &PieceShape,
    (left, top): (usize, usize),
    cells: &[u64; 4],
    cleared: u64,
    weights: &LeanWeights,
    (landing_height, edge_distance): (f64, f64),
    (height, danger_rows): (usize, usize),
) -> Lean {
    let board = before.board();
    let width = board.width();
    let mut columns = [0u64; MAX_SIZE + 1];
    for (x, column) in columns[..width].iter_mut().enumerate() {
        let k = x.wrapping_sub(left);
        let mut c = before.columns[x] | if k < 4 { cells[k] } else { 0 };
        // Top row first: removing row y moves only the rows above it, so
        // the cleared rows below keep their places.
        let mut rows = cleared;
        while rows != 0 {
            let y = rows.trailing_zeros();
            rows &= rows - 1;
            let below = u64::MAX.checked_shl(y + 1).unwrap_or(0);
            let above = (1u64 << y) - 1;
            c = (c & below) | ((c & above) << 1);
        }
        *column = c;
    }
    columns[width] = before.columns[width];
    let no_piece = PieceColumns {
        left: 0,
        columns: [0; 8],
    };
    let m = column_metrics_body(
        &columns,
        &no_piece,
        width,
        board.height(),
        &[0; MAX_SIZE],
        danger_rows,
    );
    let stack_top = board.height() - m.max_height as usize;
    // A stack reaching the spawn boxes needs the full path's spawn check.
    if !m.game_over && stack_top < danger_rows.saturating_sub(1) + 4 {
        return Lean::Full;
    }
    let lines = cleared.count_ones();
    let mut own_cells = 0;
    for (i, &row) in piece.rows[..piece.height].iter().enumerate() {
        if cleared >> (top + i) & 1 == 1 {
            own_cells += row.count_ones();
        }
    }
    let sum = weights.score(&LeanValues {
        game_over: f64::from(u32::from(m.game_over)),
        lines_cleared: f64::from(lines),
        holes: f64::from(m.holes),
        well_sums: f64::from(m.well_sums),
        max_height: f64::from(m.max_height),
        edge_distance,
        row_transitions: f64::from(m.row_transitions),
        column_transitions: f64::from(m.column_transitions),
        landing_height,
        eroded_cells: f64::from(lines * own_cells),
        high_rows: f64::from(
            m.max_height
                .saturating_sub((height.saturating_sub(danger_rows) / 2) as u32),
        ),
    });
    if sum == 0.0 {
        return Lean::Full;
    }
    Lean::Scored(sum, m.game_over)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};

    use super::{Lean, LeanBoard, LeanWeights, PieceShape, PreparedBoard, lean_score_any};
    use crate::ai::Weights;
    use crate::ai::metrics::{BeforeMove, Metric};
    use tessera_tetris::board::{Board, spawn_position};
    use tessera_tetris::movegen::MoveGen;
    use tessera_tetris::piece::{PieceKind, RotationSystem};

    /// The best score of `landings` on `before` and whether one survives,
    /// by a board prepared for them alone.
    fn best_score(
        before: &BeforeMove,
        landings: &[tessera_tetris::movegen::Placement],
        weights: &Weights,
        height: usize,
        danger_rows: usize,
    ) -> (Option<f64>, bool) {
        PreparedBoard::new(before, weights, height, danger_rows).best_score(landings)
    }

    /// A random board: columns of random heights, hole-free (the hard-drop
    /// boards) or with cells knocked out and rows one to four cells short
    /// of full (so landings tuck, clear and top out).
    fn random_board(seed: u64, width: usize, height: usize, holes: bool) -> Board {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut board = Board::new(width, height);
        let ceiling = rng.random_range(0..height);
        for x in 0..width {
            let top = rng.random_range(ceiling..=height);
            for y in top..height {
                board.set(x, y, !holes || rng.random_range(0..5) != 0);
            }
        }
        if holes {
            for y in 0..height {
                if rng.random_range(0..5) == 0 {
                    let gap = rng.random_range(0..width);
                    let short = rng.random_range(1..=4);
                    for x in 0..width {
                        board.set(x, y, !(gap..gap + short).contains(&x));
                    }
                }
            }
        }
        board.clear_full_rows();
        board
    }

    /// MASTER's weights (El-Tetris's and the top-out guard), or random
    /// weights on the metrics the lean path reads (zeros of both signs
    /// among them).
    fn weights(seed: u64) -> Weights {
        let mut w = Weights::default();
        if seed.is_multiple_of(3) {
            for (metric, value) in [
                (Metric::LandingHeight, -4.500158825082766),
                (Metric::ErodedCells, 3.4181268101392694),
                (Metric::RowTransitions, -3.2178882868487753),
                (Metric::ColumnTransitions, -9.348695305445199),
                (Metric::Holes, -7.899265427351652),
                (Metric::WellSums, -3.3855972247263626),
                (Metric::GameOverAfterMove, -1000000.0),
            ] {
                w.set(metric, value);
            }
            return w;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for metric in super::LEAN {
            let value = match rng.random_range(0..4) {
                0 => 0.0,
                1 => -0.0,
                2 => f64::from(rng.random_range(-3..=3)),
                _ => rng.random_range(-10.0..10.0),
            };
            w.set(metric, value);
        }
        w
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Every landing the lean path scores has the full path's score,
        /// bit for bit, and its top-out; the best of a piece's landings is
        /// the full path's best, on boards with and without holes, 2 to 64
        /// columns and 4 to 64 rows, under both rotation systems, for the
        /// tetrominoes and the specials (which take the full path).
        #[test]
        fn the_lean_path_scores_as_the_full_path_bit_for_bit(
            seed in any::<u64>(),
            (width, height) in prop_oneof![
                4 => (4usize..=12, 6usize..=24),
                1 => (2usize..=64, 4usize..=64),
            ],
            holes in any::<bool>(),
            srs in any::<bool>(),
            danger_rows in 0usize..4,
        ) {
            let board = random_board(seed, width, height, holes);
            let weights = weights(seed);
            let system = if srs { RotationSystem::Srs } else { RotationSystem::Cycle };
            let before = BeforeMove::new(&board);
            let base = before.base.as_ref().expect("boards of 2 columns or more have one");
            let lean_board = LeanBoard::new(&before, base);
            let mut movegen = MoveGen::new();
            for kind in PieceKind::ALL.into_iter().chain(PieceKind::SPECIALS) {
                let spawn = spawn_position(kind, width);
                let landings = movegen.generate(&board, kind, system, spawn).to_vec();
                let mut best: Option<f64> = None;
                let mut survives = false;
                for p in &landings {
                    let full = before
                        .metrics(p, danger_rows)
                        .with_high_rows(height, danger_rows);
                    let score = weights.score(&full);
                    let piece = PieceShape::new(p.kind, p.state);
                    let lean = lean_score_any(&lean_board, &piece, p, &LeanWeights::new(&weights), (height, danger_rows));
                    if let Lean::Scored(s, game_over) = lean {
                        prop_assert_eq!(s.to_bits(), score.to_bits(), "{:?} on\n{}", p, board.to_text());
                        prop_assert_eq!(game_over, full.game_over);
                    }
                    survives |= !full.game_over;
                    best = Some(best.map_or(score, |b: f64| b.max(score)));
                }
                let (fast, fast_survives) = best_score(&before, &landings, &weights, height, danger_rows);
                prop_assert_eq!(fast.map(f64::to_bits), best.map(f64::to_bits));
                prop_assert_eq!(fast_survives, survives);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The lookahead's last ply weighs the hard drops in
        /// [`MoveGen::hard_drops_unordered`]'s order, not the search's: the
        /// best score and the top-out flag are the same, bit for bit, but
        /// for a best of zero or NaN (which the lookahead sends to the
        /// search's order). Hole-free boards, where the shortcut applies.
        #[test]
        fn the_best_of_the_unordered_hard_drops_is_the_searchs_best(
            seed in any::<u64>(),
            width in 4usize..=12,
            height in 8usize..=24,
            srs in any::<bool>(),
            danger_rows in 0usize..4,
        ) {
            let mut board = random_board(seed, width, height, false);
            // Keep the spawn rows open air.
            for y in 0..4 {
                for x in 0..width {
                    board.set(x, y, false);
                }
            }
            let weights = weights(seed);
            let system = if srs { RotationSystem::Srs } else { RotationSystem::Cycle };
            let before = BeforeMove::new(&board);
            let surface = tessera_tetris::movegen::Surface::of(&board);
            let (mut ordered, mut unordered) = (MoveGen::new(), MoveGen::new());
            for kind in PieceKind::ALL {
                let spawn = spawn_position(kind, width);
                let landings = ordered.generate(&board, kind, system, spawn);
                let Some(shuffled) = unordered.hard_drops_unordered(&surface, kind, system, spawn) else {
                    continue;
                };
                let (best, survives) = best_score(&before, landings, &weights, height, danger_rows);
                let (fast, fast_survives) = best_score(&before, shuffled, &weights, height, danger_rows);
                prop_assert_eq!(fast_survives, survives);
                if fast.is_some_and(|b| b.abs() > 0.0) {
                    prop_assert_eq!(fast.map(f64::to_bits), best.map(f64::to_bits));
                }
            }
        }
    }

    /// A random 10 x 20 board (with holes when `holes`) with its top 8
    /// rows emptied, so the stack stays below the spawn rows and every
    /// piece spawns in open air.
    fn low_stack_board(seed: u64, holes: bool) -> Board {
        let mut board = random_board(seed, 10, 20, holes);
        for y in 0..8 {
            for x in 0..10 {
                board.set(x, y, false);
            }
        }
        board
    }

    /// The comparison above is not empty: on boards without holes, low
    /// stacks and MASTER's weights, the lean path scores most landings.
    #[test]
    fn the_lean_path_takes_most_landings_of_a_low_stack() {
        let weights = weights(0);
        let (mut lean, mut all) = (0, 0);
        let mut movegen = MoveGen::new();
        for seed in 0..50 {
            let board = low_stack_board(seed, false);
            let before = BeforeMove::new(&board);
            let base = before.base.as_ref().expect("10 columns");
            let lean_board = LeanBoard::new(&before, base);
            for kind in PieceKind::ALL {
                for p in movegen.generate(
                    &board,
                    kind,
                    RotationSystem::Cycle,
                    spawn_position(kind, 10),
                ) {
                    let piece = PieceShape::new(p.kind, p.state);
                    all += 1;
                    let scored = lean_score_any(
                        &lean_board,
                        &piece,
                        p,
                        &LeanWeights::new(&weights),
                        (20, 1),
                    );
                    if matches!(scored, Lean::Scored(..)) {
                        lean += 1;
                    }
                }
            }
        }
        assert!(all > 1000 && lean * 10 > all * 9, "{lean} of {all}");
    }

    /// Landings that clear rows take the lean path too (the property test
    /// above holds their scores to the full path's).
    #[test]
    fn clearing_landings_take_the_lean_path() {
        let weights = weights(0);
        let mut movegen = MoveGen::new();
        let (mut clearing, mut lean) = (0, 0);
        for seed in 0..50 {
            let board = low_stack_board(seed, true);
            let before = BeforeMove::new(&board);
            let base = before.base.as_ref().expect("10 columns");
            let lean_board = LeanBoard::new(&before, base);
            for kind in PieceKind::ALL {
                let spawn = spawn_position(kind, 10);
                for p in movegen.generate(&board, kind, RotationSystem::Srs, spawn) {
                    let full = before.metrics(p, 1).with_high_rows(20, 1);
                    if full.lines_cleared == 0 {
                        continue;
                    }
                    clearing += 1;
                    let piece = PieceShape::new(p.kind, p.state);
                    let scored = lean_score_any(
                        &lean_board,
                        &piece,
                        p,
                        &LeanWeights::new(&weights),
                        (20, 1),
                    );
                    if let Lean::Scored(s, _) = scored {
                        assert_eq!(s.to_bits(), weights.score(&full).to_bits());
                        lean += 1;
                    }
                }
            }
        }
        assert!(
            clearing > 50 && lean * 10 > clearing * 9,
            "{lean} of {clearing}"
        );
    }
}
