//! Skewed cuts of a large box for a unique design: a few large pieces
//! twisted through all three axes, each fitting the box in at most two
//! positions per turn, and many small pieces filling the pockets they
//! leave. The large pieces force the search from its first levels, so a
//! whole search of a 4x4x4 of 13 pieces is thousands of nodes, not the tens
//! of millions of an even cut (docs/perf/polycube-generate.md, round 4),
//! and the walk can afford a proof at every step.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::Rng;
use tessera_host::rng::GameRng;

use super::cut::{loose, placements, weighted};
use super::design::{Design, FREE, neighbours};
use crate::geometry::{Cell, normalize, orientations, signature};

/// How many of a skewed cut's pieces are large.
pub const LARGE_PIECES: usize = 3;
/// The largest small piece.
const SMALL_MAX: usize = 4;
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
/// Small pieces of one shape a cut may have (identical pieces are one
/// kind to the solver, so swapping two is never a second packing; fewer
/// copies make a livelier set).
const MAX_COPIES: usize = 2;
/// The average piece size up to which a large box's default sizes are a
/// skewed cut's ([`default_sizes`]).
const DENSE_AVERAGE: usize = 6;
/// How strongly a large piece grows away from its first cell.
const STRETCH: f64 = 3.0;

/// Whether a skewed cut of `pieces` pieces in `volume` cells fits the
/// spec's sizes `(min, max)`: large pieces of `max - LARGE_SPREAD..=max`
/// cubes, at least twice the small ones' largest, and small ones of
/// `min..=SMALL_MAX`, in counts that can fill the box.
pub fn fits(volume: usize, pieces: usize, (min, max): (usize, usize)) -> bool {
    let small = pieces.saturating_sub(LARGE_PIECES);
    let large_low = max.saturating_sub(LARGE_SPREAD).max(min);
    small > 0
        && min <= SMALL_MAX
        && large_low >= 2 * SMALL_MAX
        && LARGE_PIECES * large_low + small * min <= volume
        && LARGE_PIECES * max + small * SMALL_MAX.min(max) >= volume
}

/// The sizes a unique design of a large box takes when the user names
/// none and its pieces are many (at most [`DENSE_AVERAGE`] cubes each on
/// average, as Bedlam's thirteen in a 4x4x4): small pieces of 2 cubes and
/// up, large ones sized so that three of them hold what the small pieces
/// of about 3 cubes leave (2..12 for a 4x4x4 of 13 pieces, 2..13 of 12).
/// `None` when a skewed cut does not fit ([`fits`]).
pub fn default_sizes(volume: usize, pieces: usize) -> Option<(usize, usize)> {
    if pieces == 0 || volume / pieces > DENSE_AVERAGE {
        return None;
    }
    let small = pieces.checked_sub(LARGE_PIECES)?;
    let max = volume.checked_sub(3 * small)? / LARGE_PIECES + 1;
    let sizes = (2, max);
    fits(volume, pieces, sizes).then_some(sizes)
}

/// A skewed cut of a box of `size` into `pieces` pieces with sizes in
/// `sizes` ([`fits`]): [`LARGE_PIECES`] large pieces grown from random
/// cells away from where they started, each spanning all three axes with
/// 24 distinct turns and at most [`POSITIONS_PER_TURN`] positions per
/// turn, the rest filled by small pieces; never [`loose`]. `None` when no
/// such cut was found within the tries, or at once when `cancel` is set
/// (polled every growth and every step of the filling).
pub fn skewed(
    size: [usize; 3],
    pieces: usize,
    (min, max): (usize, usize),
    rng: &mut GameRng,
    cancel: &AtomicBool,
) -> Option<Design> {
    let volume: usize = size.iter().product();
    let small = pieces - LARGE_PIECES;
    let small_max = SMALL_MAX.min(max);
    let large_low = max.saturating_sub(LARGE_SPREAD).max(min);
    let mut fill = Fill {
        size,
        min,
        max: small_max,
        budget: FILL_BUDGET,
        shapes: Vec::new(),
        signatures: HashMap::new(),
        cancel,
    };
    for _ in 0..STARTS {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let large: Vec<usize> = (0..LARGE_PIECES)
            .map(|_| rng.random_range(large_low..=max))
            .collect();
        let rest = volume.checked_sub(large.iter().sum())?;
        if rest < small * min || rest > small * small_max {
            continue;
        }
        let mut owner = vec![FREE; volume];
        if !large
            .iter()
            .enumerate()
            .all(|(p, &target)| twisted(size, &mut owner, p, target, rng, cancel))
        {
            continue;
        }
        for _ in 0..FILLINGS {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let mut filled = owner.clone();
            fill.budget = FILL_BUDGET;
            fill.shapes.clear();
            if !fill.pieces(&mut filled, LARGE_PIECES, small, rng) {
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
        if spans_three_axes(&shape)
            && turns == 24
            && placements(size, &shape) <= POSITIONS_PER_TURN * turns
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
                if self.shapes.iter().filter(|s| **s == shape).count() < MAX_COPIES {
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
