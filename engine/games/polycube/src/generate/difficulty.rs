//! A level's difficulty: how long a plain exact-cover search takes to its
//! first packing. The search is Knuth's Algorithm X as a textbook solver
//! runs it: a column per box cell and one per piece (identical pieces are
//! separate pieces), a row per placement (each distinct turn, each
//! position), and at every node the column with the fewest rows left
//! (ties: the lowest cell, cells before pieces), its rows tried in turn.
//! No symmetry breaking, no pruning. It runs once for each of [`ORDERS`]
//! seeded orders of the rows, each to its first packing without a cap,
//! and the work is the mean of their nodes (partial packings visited, the
//! root included); the difficulty is `10 · log10(mean)`, so ten points are
//! ten times the search and one point a search about a quarter larger
//! (10^0.1 = 1.26 times the nodes).
//!
//! The search is its own, not the solver's: the solver's symmetry
//! breaking and pruning make its node counts say how well the solver
//! copes, not how hard the packing is to find, and its tree over twenty
//! generated 4x4x4 designs disagreed with a plain solver's order
//! (docs/perf/polycube-generate.md, "The difficulty"). Round 4's estimate,
//! the dead ends of a lowest-empty-cell search, stopped at 2^25 nodes and
//! read as a lower bound on nearly every skewed 4x4x4 (`Solver::effort`,
//! kept as that plain search); the fewest-rows column finds the few
//! places of the large pieces first, and every run ends.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::seq::SliceRandom;
use tessera_host::rng::game_rng;

use crate::geometry::{Cell, max_corner, orientations};
use crate::solver::SolveError;

/// Seeded row orders the mean is taken over (seeds 1 to 4).
pub const ORDERS: u64 = 4;

/// The work behind a difficulty, the same on every machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    /// Nodes of the [`ORDERS`] searches to their first packing, summed.
    pub nodes: u64,
    /// Whether the pieces have a packing at all (every search then ended
    /// with the whole tree tried).
    pub solved: bool,
}

impl Work {
    /// Mean nodes per order.
    pub fn mean(&self) -> f64 {
        self.nodes as f64 / ORDERS as f64
    }
}

/// One placement: its piece and its cells.
struct Row {
    piece: usize,
    cells: Vec<usize>,
}

/// The [`ORDERS`] searches for the pieces `shapes` (0-based cells) in a
/// box of `size`; `cancel` stops them.
pub fn work(
    size: [usize; 3],
    shapes: &[Vec<Cell>],
    cancel: &AtomicBool,
) -> Result<Work, SolveError> {
    work_limited(size, shapes, u64::MAX, cancel)
}

/// [`work`] when its searches take at most `limit` nodes in all; `None`
/// when they would take more. A generator drops such a design rather than
/// write a difficulty that `check` would take as long to repeat (a
/// pocketed 5x5x5's plain search is usually some 30 nodes an order, but
/// one row order in ten or so wanders off for minutes).
pub fn work_within(
    size: [usize; 3],
    shapes: &[Vec<Cell>],
    limit: u64,
    cancel: &AtomicBool,
) -> Result<Option<Work>, SolveError> {
    match work_limited(size, shapes, limit, cancel) {
        Err(SolveError::OverBudget(_)) => Ok(None),
        other => other.map(Some),
    }
}

/// [`work`] stopping with [`SolveError::OverBudget`] past `limit` nodes.
fn work_limited(
    size: [usize; 3],
    shapes: &[Vec<Cell>],
    limit: u64,
    cancel: &AtomicBool,
) -> Result<Work, SolveError> {
    let volume: usize = size.iter().product();
    let cells: usize = shapes.iter().map(Vec::len).sum();
    if cells != volume {
        return Ok(Work {
            nodes: 0,
            solved: false,
        });
    }
    let rows = rows(size, shapes);
    let mut work = Work {
        nodes: 0,
        solved: true,
    };
    for seed in 1..=ORDERS {
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.shuffle(&mut game_rng(seed));
        let count = order.len();
        let mut search = Search {
            rows: &rows,
            filled: vec![false; volume],
            used: vec![false; shapes.len()],
            covers: vec![0; volume + shapes.len()],
            live: order,
            nodes: 0,
            limit: limit.saturating_sub(work.nodes),
            cancel,
        };
        let found = search.go(0, count)?;
        work.nodes += search.nodes;
        work.solved &= found;
    }
    Ok(work)
}

/// Every placement of every piece, pieces in order, turns in
/// [`orientations`]' order, positions x fastest.
fn rows(size: [usize; 3], shapes: &[Vec<Cell>]) -> Vec<Row> {
    let mut out = Vec::new();
    for (piece, shape) in shapes.iter().enumerate() {
        for turn in orientations(shape) {
            let Some(far) = max_corner(&turn.cells) else {
                continue;
            };
            let room = |k: usize| (size[k] as i64 - i64::from(far[k])).max(0) as usize;
            for dz in 0..room(2) {
                for dy in 0..room(1) {
                    for dx in 0..room(0) {
                        let cells = turn
                            .cells
                            .iter()
                            .map(|c| {
                                let [x, y, z] = c.map(|v| v as usize);
                                (x + dx) + size[0] * ((y + dy) + size[1] * (z + dz))
                            })
                            .collect();
                        out.push(Row { piece, cells });
                    }
                }
            }
        }
    }
    out
}

/// One search: Algorithm X on the rows still live, in a fixed order.
struct Search<'a> {
    rows: &'a [Row],
    filled: Vec<bool>,
    used: Vec<bool>,
    /// Scratch: live rows per column (cells, then pieces).
    covers: Vec<u32>,
    /// The live rows of every node on the path, one list after the other
    /// (it only grows: a node's children write after its own list).
    live: Vec<usize>,
    nodes: u64,
    /// Nodes this search may take ([`work_within`]).
    limit: u64,
    cancel: &'a AtomicBool,
}

impl Search<'_> {
    /// Searches below the node whose live rows are `live[from..to]` (in
    /// the order's sequence); whether it reached a packing.
    fn go(&mut self, from: usize, to: usize) -> Result<bool, SolveError> {
        self.nodes += 1;
        if self.nodes & 0xFFF == 0 && self.cancel.load(Ordering::Relaxed) {
            return Err(SolveError::Cancelled);
        }
        if self.nodes > self.limit {
            return Err(SolveError::OverBudget(format!(
                "the plain search took over {} nodes",
                self.limit
            )));
        }
        let volume = self.filled.len();
        let Some(column) = self.narrowest(from, to) else {
            return Ok(true);
        };
        if self.covers[column] == 0 {
            return Ok(false);
        }
        for i in from..to {
            let r = self.live[i];
            let row = &self.rows[r];
            let covering = if column < volume {
                row.cells.contains(&column)
            } else {
                row.piece == column - volume
            };
            if !covering {
                continue;
            }
            for &c in &row.cells {
                self.filled[c] = true;
            }
            self.used[row.piece] = true;
            let start = self.live.len();
            for k in from..to {
                let q = self.live[k];
                if self.fits(q) {
                    self.live.push(q);
                }
            }
            let end = self.live.len();
            let found = self.go(start, end)?;
            self.live.truncate(start);
            let row = &self.rows[r];
            for &c in &row.cells {
                self.filled[c] = false;
            }
            self.used[row.piece] = false;
            if found {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether row `q` still fits: its piece unused, its cells empty.
    fn fits(&self, q: usize) -> bool {
        let row = &self.rows[q];
        !self.used[row.piece] && row.cells.iter().all(|&c| !self.filled[c])
    }

    /// The open column with the fewest live rows among `live[from..to]`
    /// (the lowest on a tie), its count left in `covers`; `None` when
    /// every column is covered.
    fn narrowest(&mut self, from: usize, to: usize) -> Option<usize> {
        let volume = self.filled.len();
        self.covers.iter_mut().for_each(|n| *n = 0);
        for &r in &self.live[from..to] {
            let row = &self.rows[r];
            for &c in &row.cells {
                self.covers[c] += 1;
            }
            self.covers[volume + row.piece] += 1;
        }
        let open = |k: usize| {
            if k < volume {
                !self.filled[k]
            } else {
                !self.used[k - volume]
            }
        };
        (0..self.covers.len())
            .filter(|&k| open(k))
            .min_by_key(|&k| (self.covers[k], k))
    }
}

/// `10 · log10(mean nodes)` and its word: easy under 15 (about 30 nodes),
/// medium under 25 (300), hard under 35 (3,000), expert from 35.
pub fn difficulty(work: &Work) -> (f64, &'static str) {
    let d = 10.0 * work.mean().max(1.0).log10();
    let word = match d {
        d if d < 15.0 => "easy",
        d if d < 25.0 => "medium",
        d if d < 35.0 => "hard",
        _ => "expert",
    };
    (d, word)
}

/// The work in words, as the difficulty line and the summary give it.
pub fn words(work: &Work) -> String {
    format!(
        "{:.1} nodes to the first packing, the mean of {ORDERS} row orders of a plain exact-cover search{}",
        work.mean(),
        if work.solved { "" } else { " (no packing)" }
    )
}

/// The difficulty line: the figure, its word and the work behind it.
pub fn line(work: &Work) -> String {
    let (d, word) = difficulty(work);
    format!("{d:.1} ({word}): {}", words(work))
}
