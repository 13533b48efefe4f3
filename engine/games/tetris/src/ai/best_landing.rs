//! The best score among one piece's landings on a prepared board: the
//! classic lookahead's last ply, which weighs every landing of each of
//! the seven pieces after each of the best few moves (about 500 landings
//! a decision). One loop, compiled with the bit instructions where the
//! CPU has them, measures and scores them all, so the per-landing work
//! inlines into it and the CPU is checked once per piece, not per landing.

use super::Weights;
use super::metrics::BeforeMove;
use crate::movegen::Placement;

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
    for p in landings {
        let metrics = before
            .metrics_body(p, danger_rows)
            .with_high_rows(height, danger_rows);
        survives |= !metrics.game_over;
        let s = weights.score(&metrics);
        best = Some(best.map_or(s, |b: f64| b.max(s)));
    }
    (best, survives)
}
