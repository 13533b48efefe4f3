//! Skewed cuts of a large box for a unique design: a few large pieces
//! twisted through all three axes, each fitting the box in at most two
//! positions per turn, and many small pieces filling the pockets they
//! leave. The large pieces force the search from its first levels, so a
//! whole search of a 4x4x4 of 13 pieces is thousands of nodes, not the tens
//! of millions of an even cut (docs/perf/polycube-generate.md, round 4),
//! and the walk can afford a proof at every step.
//!
//! A box over 64 cells has many more small pieces than small shapes, so
//! its [`Plan`] has more large pieces and copies, and tests each small
//! piece for re-tiling as it is placed (docs/perf/polycube-generate.md,
//! "Larger boxes").

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::Rng;
use tessera_host::ThinkControl;
use tessera_host::rng::GameRng;

use super::cut::{loose, loose_around, placements, weighted};
use super::design::{Design, FREE, neighbours};
use crate::geometry::{Cell, normalize, orientations, signature};

/// How many of a skewed cut's pieces are large in a box of up to
/// [`SMALL_VOLUME`] cells ([`Plan`]).
pub const LARGE_PIECES: usize = 3;
/// The largest small piece.
const SMALL_MAX: usize = 4;
/// The boxes whose skewed cuts keep round 4's plan (a 4x4x4 and smaller):
/// three large pieces, at most two small pieces of one shape.
const SMALL_VOLUME: usize = 64;
/// The large pieces' sizes run from the spec's largest down by this much.
const LARGE_SPREAD: usize = 2;
/// Positions per turn a large piece may fit in.
const POSITIONS_PER_TURN: usize = 2;
/// Random growths of one large piece before the cut starts over.
const GROWTHS: usize = 2_000;
/// Fresh starts (large pieces grown again) per cut.
const STARTS: usize = 200;
/// Fillings of the small pieces tried per set of large pieces.
const FILLINGS: usize = 20;
/// Search nodes one filling may spend.
const FILL_BUDGET: usize = 20_000;
/// Pieces tried at each level of a filling.
const FILL_TRIES: usize = 12;
/// Small pieces of one shape a cut of a box of up to [`SMALL_VOLUME`]
/// cells may have (identical pieces are one kind to the solver, so
/// swapping two is never a second packing; fewer copies make a livelier
/// set).
const MAX_COPIES: usize = 2;
/// Distinct shapes of each small size under rotation (1 to 4 cubes: the
/// monocube, the domino, two trominoes, eight tetracubes).
const SHAPES_OF_SIZE: [usize; 5] = [0, 1, 1, 2, 8];
/// The average piece size up to which a large box's default sizes are a
/// skewed cut's ([`default_sizes`]).
const DENSE_AVERAGE: usize = 6;
/// Cells per large piece in a box larger than [`SMALL_VOLUME`] (four in a
/// 5x5x5, three in a 4x4x6).
const LARGE_SHARE: usize = 32;
/// Small pieces of one shape in a box larger than [`SMALL_VOLUME`]: a
/// 5x5x5 of 25 pieces has 21 small ones, and the eleven shapes of 2 to 4
/// cubes, four of each at most, hold them in 68 cells or more.
const LARGE_BOX_COPIES: usize = 4;
/// How strongly a large piece grows away from its first cell.
const STRETCH: f64 = 3.0;

/// How a box's skewed cut is made: how many of its pieces are large, and
/// how many small pieces may share a shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Large pieces.
    pub large: usize,
    /// Small pieces of one shape at most.
    pub copies: usize,
    /// Positions per turn a large piece may fit in.
    pub positions: usize,
    /// Whether the sizes drawn are checked against [`Plan::lightest`]
    /// before any piece grows (larger boxes; a 4x4x4 draws as round 4 did,
    /// so its seeds keep their designs).
    strict: bool,
}

impl Plan {
    /// The plan of a box of `volume` cells. Up to a 4x4x4: three large
    /// pieces and at most two small pieces of a shape. A larger box has
    /// many more small pieces than a small size has shapes (a 5x5x5 of 25
    /// pieces with three large ones needs 22 small pieces of about three
    /// cubes, where two copies of each shape of 2 to 4 cubes hold 80
    /// cells: round 4's plan could never fill it and sat at its first
    /// cut), so it gets a large piece per 32 cells and up to four copies.
    pub fn for_volume(volume: usize) -> Self {
        if volume <= SMALL_VOLUME {
            return Self {
                large: LARGE_PIECES,
                positions: POSITIONS_PER_TURN,
                copies: MAX_COPIES,
                strict: false,
            };
        }
        Self {
            large: volume.div_ceil(LARGE_SHARE),
            positions: POSITIONS_PER_TURN,
            copies: LARGE_BOX_COPIES,
            strict: true,
        }
    }

    /// Search nodes one filling may spend: a larger box's filling tests
    /// every piece it places, so a stuck filling is cheaper to start again
    /// than to search on.
    fn fill_budget(&self) -> usize {
        if self.strict {
            FILL_BUDGET / 10
        } else {
            FILL_BUDGET
        }
    }

    /// Fillings tried per set of large pieces.
    fn fillings(&self) -> usize {
        if self.strict { 3 * FILLINGS } else { FILLINGS }
    }

    /// Whether a cut's looseness is tested around each piece placed or
    /// moved ([`super::cut::loose_around`]) rather than over the whole cut.
    pub fn tests_locally(&self) -> bool {
        self.strict
    }

    /// The fewest cells `small` small pieces of `min..=max` cubes hold
    /// with at most [`Plan::copies`] of a shape (the smallest shapes
    /// first); `None` when there are not so many shapes. Round 4's plan
    /// counts `min` cubes a piece.
    pub fn lightest(&self, small: usize, (min, max): (usize, usize)) -> Option<usize> {
        if !self.strict {
            return Some(small * min);
        }
        let mut left = small;
        let mut cells = 0;
        let sizes = SHAPES_OF_SIZE.iter().enumerate();
        for (size, shapes) in sizes.take(max.min(SMALL_MAX) + 1).skip(min) {
            let take = left.min(shapes * self.copies);
            cells += take * size;
            left -= take;
        }
        (left == 0).then_some(cells)
    }
}

/// Whether a skewed cut of `pieces` pieces in `volume` cells fits the
/// spec's sizes `(min, max)`: [`Plan::large`] large pieces of `max -
/// LARGE_SPREAD..=max` cubes, at least twice the small ones' largest, and
/// small ones of `min..=SMALL_MAX`, in counts that can fill the box.
pub fn fits(volume: usize, pieces: usize, (min, max): (usize, usize)) -> bool {
    let plan = Plan::for_volume(volume);
    let small = pieces.saturating_sub(plan.large);
    let large_low = max.saturating_sub(LARGE_SPREAD).max(min);
    let Some(lightest) = plan.lightest(small, (min, SMALL_MAX)) else {
        return false;
    };
    small > 0
        && min <= SMALL_MAX
        && large_low >= 2 * SMALL_MAX
        && plan.large * large_low + lightest <= volume
        && plan.large * max + small * SMALL_MAX.min(max) >= volume
}

/// The sizes a unique design of a large box takes when the user names
/// none and its pieces are many (at most [`DENSE_AVERAGE`] cubes each on
/// average, as Bedlam's thirteen in a 4x4x4): small pieces of 2 cubes and
/// up, large ones sized so that they hold what the small pieces leave at
/// about 3 cubes each (2..12 for a 4x4x4 of 13 pieces, 2..13 of 12), or
/// at their lightest when the copies allowed make that more (2..15 for a
/// 5x5x5 of 25). `None` when a skewed cut does not fit ([`fits`]).
pub fn default_sizes(volume: usize, pieces: usize) -> Option<(usize, usize)> {
    if pieces == 0 || volume / pieces > DENSE_AVERAGE {
        return None;
    }
    let plan = Plan::for_volume(volume);
    let small = pieces.checked_sub(plan.large)?;
    let lightest = plan.lightest(small, (2, SMALL_MAX))?.max(3 * small);
    let max = volume.checked_sub(lightest)? / plan.large + 1;
    let sizes = (2, max);
    fits(volume, pieces, sizes).then_some(sizes)
}

/// A skewed cut of a box of `size` into `pieces` pieces with sizes in
/// `sizes` ([`fits`]): [`Plan::large`] large pieces grown from random
/// cells away from where they started, each spanning all three axes with
/// 24 distinct turns and at most [`POSITIONS_PER_TURN`] positions per
/// turn, the rest filled by small pieces; never [`loose`]. `None` when no
/// such cut was found within the tries, or at once when the job is
/// cancelled (polled every growth and every step of the filling); each
/// fresh start is noted on `control` after the caller's note.
pub fn skewed(
    size: [usize; 3],
    pieces: usize,
    (min, max): (usize, usize),
    rng: &mut GameRng,
    control: &ThinkControl,
) -> Option<Design> {
    let volume: usize = size.iter().product();
    let plan = Plan::for_volume(volume);
    let cancel = control.cancel_flag();
    let caller = control.note();
    let small = pieces.checked_sub(plan.large)?;
    let small_max = SMALL_MAX.min(max);
    let lightest = plan.lightest(small, (min, small_max))?;
    let large_low = max.saturating_sub(LARGE_SPREAD).max(min);
    let mut fill = Fill {
        size,
        min,
        max: small_max,
        copies: plan.copies,
        tight: plan.strict,
        budget: FILL_BUDGET,
        shapes: Vec::new(),
        signatures: HashMap::new(),
        cancel,
    };
    for start in 0..STARTS {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        control.set_note(format!(
            "{caller}: drawing a skewed cut, start {} of {STARTS}",
            start + 1
        ));
        let large: Vec<usize> = (0..plan.large)
            .map(|_| rng.random_range(large_low..=max))
            .collect();
        let rest = volume.checked_sub(large.iter().sum())?;
        if rest < lightest || rest > small * small_max {
            continue;
        }
        let mut owner = vec![FREE; volume];
        if !large
            .iter()
            .enumerate()
            .all(|(p, &target)| twisted(size, &mut owner, p, target, plan.positions, rng, cancel))
        {
            continue;
        }
        for _ in 0..plan.fillings() {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let mut filled = owner.clone();
            fill.budget = plan.fill_budget();
            fill.shapes.clear();
            if !fill.pieces(&mut filled, plan.large, small, rng) {
                continue;
            }
            let design = Design {
                size,
                owner: filled,
                pieces,
            };
            if !loose(&design) {
                return Some(design);
            }
        }
    }
    None
}

/// Grows piece `p` of `target` cubes from a random free cell, stretched,
/// until it is twisted and fits few places (at most [`GROWTHS`] tries).
fn twisted(
    size: [usize; 3],
    owner: &mut [usize],
    p: usize,
    target: usize,
    positions: usize,
    rng: &mut GameRng,
    cancel: &AtomicBool,
) -> bool {
    for _ in 0..GROWTHS {
        if cancel.load(Ordering::Relaxed) {
            return false;
        }
        let Some(cells) = grow(size, owner, p, target, rng) else {
            continue;
        };
        let shape: Vec<Cell> = cells.iter().map(|&i| cell(size, i)).collect();
        let turns = orientations(&shape).len();
        if spans_three_axes(&shape) && turns == 24 && placements(size, &shape) <= positions * turns
        {
            return true;
        }
        for i in cells {
            owner[i] = FREE;
        }
    }
    false
}

/// Piece `p` grown from a random free cell to `target` cubes, a free
/// neighbour taken with a weight growing with the square of its distance
/// from the first cell; its cells, or `None` (and the box as it was) when
/// it was walled in short.
fn grow(
    size: [usize; 3],
    owner: &mut [usize],
    p: usize,
    target: usize,
    rng: &mut GameRng,
) -> Option<Vec<usize>> {
    let free: Vec<usize> = (0..owner.len()).filter(|&i| owner[i] == FREE).collect();
    if free.is_empty() {
        return None;
    }
    let start = free[rng.random_range(0..free.len())];
    let origin = cell(size, start);
    owner[start] = p;
    let mut cells = vec![start];
    while cells.len() < target {
        let frontier = frontier(size, owner, &cells);
        if frontier.is_empty() {
            for &i in &cells {
                owner[i] = FREE;
            }
            return None;
        }
        let weights: Vec<f64> = frontier
            .iter()
            .map(|&n| {
                let c = cell(size, n);
                let d: i32 = (0..3).map(|k| (c[k] - origin[k]).abs()).sum();
                1.0 + STRETCH * f64::from(d * d)
            })
            .collect();
        let chosen = weighted(&weights, rng);
        owner[frontier[chosen]] = p;
        cells.push(frontier[chosen]);
    }
    Some(cells)
}

/// The free cells touching `cells`, sorted.
fn frontier(size: [usize; 3], owner: &[usize], cells: &[usize]) -> Vec<usize> {
    let mut out: Vec<usize> = cells
        .iter()
        .flat_map(|&c| neighbours(size, c))
        .filter(|&n| owner[n] == FREE)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The small pieces' filling: a depth-first search from the lowest free
/// cell, a few random pieces tried at each level, within a node budget.
struct Fill<'c> {
    size: [usize; 3],
    min: usize,
    max: usize,
    /// Pieces of one shape at most ([`Plan::copies`]).
    copies: usize,
    /// Whether each piece is tested for [`loose_around`] as it is placed
    /// (a strict [`Plan`]).
    tight: bool,
    budget: usize,
    /// The small pieces' shapes so far (rotation signatures).
    shapes: Vec<Vec<Cell>>,
    /// The rotation signature of each small piece met, by its cells moved
    /// to the origin: a signature turns the piece 24 ways, which cost most
    /// of a cut's drawing before this cache (a few hundred such pieces in
    /// all).
    signatures: HashMap<Vec<Cell>, Vec<Cell>>,
    /// The job's cancel, polled every step of the budget.
    cancel: &'c AtomicBool,
}

impl Fill<'_> {
    /// Fills every free cell with `count` pieces numbered from `first`.
    fn pieces(
        &mut self,
        owner: &mut [usize],
        first: usize,
        count: usize,
        rng: &mut GameRng,
    ) -> bool {
        let free = owner.iter().filter(|&&o| o == FREE).count();
        if count == 0 {
            return free == 0;
        }
        if free < count * self.min || free > count * self.max || !self.regions_hold(owner) {
            return false;
        }
        let Some(start) = owner.iter().position(|&o| o == FREE) else {
            return false;
        };
        for _ in 0..FILL_TRIES {
            if self.budget == 0 || self.cancel.load(Ordering::Relaxed) {
                return false;
            }
            self.budget -= 1;
            let target = rng.random_range(self.min..=self.max);
            owner[start] = first;
            let mut cells = vec![start];
            while cells.len() < target {
                let frontier = frontier(self.size, owner, &cells);
                if frontier.is_empty() {
                    break;
                }
                let next = frontier[rng.random_range(0..frontier.len())];
                owner[next] = first;
                cells.push(next);
            }
            if cells.len() == target {
                let placed: Vec<Cell> = cells.iter().map(|&i| cell(self.size, i)).collect();
                let shape = self
                    .signatures
                    .entry(normalize(&placed))
                    .or_insert_with(|| signature(&placed))
                    .clone();
                if self.shapes.iter().filter(|s| **s == shape).count() < self.copies
                    && !(self.tight && self.loose_around(owner, first))
                {
                    self.shapes.push(shape);
                    if self.pieces(owner, first + 1, count - 1, rng) {
                        return true;
                    }
                    self.shapes.pop();
                }
            }
            for &i in &cells {
                owner[i] = FREE;
            }
        }
        false
    }

    /// Whether piece `p`, just placed, re-tiles with pieces around it.
    fn loose_around(&self, owner: &[usize], p: usize) -> bool {
        let partial = Design {
            size: self.size,
            owner: owner.to_vec(),
            pieces: p + 1,
        };
        loose_around(&partial, p)
    }

    /// Whether every connected region of free cells holds a small piece.
    fn regions_hold(&self, owner: &[usize]) -> bool {
        let mut seen = vec![false; owner.len()];
        for s in 0..owner.len() {
            if owner[s] != FREE || seen[s] {
                continue;
            }
            seen[s] = true;
            let mut stack = vec![s];
            let mut cells = 0;
            while let Some(c) = stack.pop() {
                cells += 1;
                for n in neighbours(self.size, c) {
                    if owner[n] == FREE && !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
            if cells < self.min {
                return false;
            }
        }
        true
    }
}

/// Whether the piece reaches across all three axes.
fn spans_three_axes(cells: &[Cell]) -> bool {
    (0..3).all(|k| {
        let lo = cells.iter().map(|c| c[k]).min();
        let hi = cells.iter().map(|c| c[k]).max();
        hi > lo
    })
}

/// The 0-based cell of index `i`.
fn cell(size: [usize; 3], i: usize) -> Cell {
    [
        (i % size[0]) as i32,
        ((i / size[0]) % size[1]) as i32,
        (i / (size[0] * size[1])) as i32,
    ]
}
