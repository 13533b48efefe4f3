//! The best score among one piece's landings on a prepared board: the
//! classic lookahead's last ply, which weighs every landing of each of
//! the seven pieces after each of the best few moves (about 500 landings
//! a decision). One loop, compiled with the bit instructions where the
//! CPU has them, measures and scores them all, so the per-landing work
//! inlines into it and the CPU is checked once per piece, not per landing.

use super::Weights;
use super::column_base::ColumnBase;
use super::metrics::{BeforeMove, Metric, PieceColumns};
use crate::movegen::Placement;
use crate::piece::orientation;

/// The highest score of `landings` on `before` under `weights` (`None`
/// without landings; the same values, bit for bit, as measuring each with
/// [`super::Position::measure`] and scoring it with [`Weights::score`]),
/// and whether some landing does not top out. `height` and `danger_rows`
/// are the position's.
pub(super) fn best_score(
    before: &BeforeMove,
    landings: &[Placement],
    weights: &Weights,
    height: usize,
    danger_rows: usize,
) -> (Option<f64>, bool) {
    #[cfg(target_arch = "x86_64")]
    if super::metrics::has_bit_instructions() {
        // SAFETY: the CPU was just checked to support these instructions.
        return unsafe { best_score_bmi(before, landings, weights, height, danger_rows) };
    }
    best_score_body(before, landings, weights, height, danger_rows)
}

/// [`best_score_body`] compiled with `popcnt`, `bmi1` and `lzcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,lzcnt")]
fn best_score_bmi(
    before: &BeforeMove,
    landings: &[Placement],
    weights: &Weights,
    height: usize,
    danger_rows: usize,
) -> (Option<f64>, bool) {
    best_score_body(before, landings, weights, height, danger_rows)
}

#[inline(always)]
fn best_score_body(
    before: &BeforeMove,
    landings: &[Placement],
    weights: &Weights,
    height: usize,
    danger_rows: usize,
) -> (Option<f64>, bool) {
    let mut best: Option<f64> = None;
    let mut survives = false;
    let lean = before.base.as_ref().filter(|_| reads_only_lean(weights));
    for p in landings {
        let quick = lean.and_then(|base| lean_score(before, base, p, weights, height, danger_rows));
        let (s, game_over) = match quick {
            Some(scored) => scored,
            None => {
                let metrics = before
                    .metrics_body(p, danger_rows)
                    .with_high_rows(height, danger_rows);
                (weights.score(&metrics), metrics.game_over)
            }
        };
        survives |= !game_over;
        best = Some(best.map_or(s, |b: f64| b.max(s)));
    }
    (best, survives)
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

/// The score of landing `p` and whether it tops out, by the lean path:
/// `None` (take the full path) when it clears a row, when the stack comes
/// near enough to the spawn rows that a spawn check is needed, or when
/// the score comes to 0 (where [`Weights::score`] sums every metric, for
/// the sign of the zero). Otherwise the same values, bit for bit, as
/// measuring it in full and scoring it with [`Weights::score`]: the same
/// integers ([`ColumnBase::lean_with_piece`]), added in the same order.
#[inline(always)]
fn lean_score(
    before: &BeforeMove,
    base: &ColumnBase,
    p: &Placement,
    weights: &Weights,
    height: usize,
    danger_rows: usize,
) -> Option<(f64, bool)> {
    let board = before.board();
    let o = orientation(p.kind, p.state);
    let left = p.x + i32::from(o.left);
    let top = p.y + i32::from(o.top);
    let (piece_width, piece_height) = (o.width as usize, o.height as usize);
    if left < 0
        || top < 0
        || left as usize + piece_width > board.width()
        || top as usize + piece_height > board.height()
    {
        return None;
    }
    let (left, top) = (left as usize, top as usize);
    let full = board.full_row();
    let mut piece = PieceColumns {
        left,
        columns: [0; 8],
    };
    for (i, &row) in o.rows[..piece_height].iter().enumerate() {
        if board.row(top + i) | row << left == full {
            return None;
        }
        let mut bits = row;
        while bits != 0 {
            let column = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            piece.columns[column] |= 1 << (top + i);
        }
    }
    let shape = base.lean_with_piece(&before.columns, &piece, piece_width);
    let stack_top = shape.top as usize;
    let game_over = stack_top < danger_rows.min(board.height());
    // A stack reaching the spawn boxes needs the full path's spawn check.
    if !game_over && stack_top < danger_rows.saturating_sub(1) + 4 {
        return None;
    }
    let rows = board.height() as u32;
    let max_height = rows - shape.top;
    let floor = board.height();
    let bottom = top + piece_height - 1;
    let value = |metric: u8| -> f64 {
        let whole = match metric {
            m if m == Metric::GameOverAfterMove as u8 => u32::from(game_over),
            m if m == Metric::Holes as u8 => shape.holes,
            m if m == Metric::WellSums as u8 => shape.well_sums,
            m if m == Metric::MaxHeight as u8 => max_height,
            m if m == Metric::EdgeDistance as u8 => {
                left.min(board.width() - (left + piece_width)) as u32
            }
            m if m == Metric::RowTransitions as u8 => shape.row_transitions,
            m if m == Metric::ColumnTransitions as u8 => shape.column_transitions,
            m if m == Metric::LandingHeight as u8 => {
                // Twice the landing height, halved as `Metrics::values` does.
                return ((floor - 1 - bottom) + (floor - 1 - top)) as f64 / 2.0;
            }
            m if m == Metric::HighRows as u8 => {
                max_height.saturating_sub((height.saturating_sub(danger_rows) / 2) as u32)
            }
            // Lines cleared and eroded cells: no row clears here.
            _ => 0,
        };
        f64::from(whole)
    };
    // `Weights::score`'s sum: from -0.0, the weighed metrics in order.
    let mut sum = -0.0;
    for &i in &weights.nonzero[..usize::from(weights.weighed)] {
        sum += weights.values[usize::from(i)] * value(i);
    }
    (sum != 0.0).then_some((sum, game_over))
}
