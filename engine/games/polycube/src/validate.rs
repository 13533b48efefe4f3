//! The puzzle validator's questions, answered without a full count: is
//! there a solution, is it unique (up to the box's symmetries), and is
//! there one that comes apart in straight lines. Each search stops at the
//! answer, so a level with millions of solutions answers in milliseconds;
//! only a level with no (or one) solution needs the whole search.

use std::sync::atomic::AtomicBool;

use super::disassembly::Rays;
use super::geometry::Cell;
use super::mask::Mask;
use super::search::{DistinctUpTo, FirstAssemblable, FirstWithEffort, Search};
use super::solver::{Solution, SolveError, Tables};

/// The answer to "is it unique?" (up to the box's symmetries).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No packing exists.
    NoSolution,
    /// Exactly one, and here it is.
    Unique(Solution),
    /// At least two; two that no symmetry of the box maps onto each other.
    NotUnique(Solution, Solution),
}

impl Verdict {
    /// `unique`, `not unique` or `no solution`, as `tessera solve --unique`
    /// prints it.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::NoSolution => "no solution",
            Verdict::Unique(_) => "unique",
            Verdict::NotUnique(..) => "not unique",
        }
    }
}

impl Verdict {
    /// The verdict of up to two distinct packings found by a whole search.
    pub fn of(mut found: Vec<Solution>) -> Self {
        match found.len() {
            0 => Verdict::NoSolution,
            1 => Verdict::Unique(found.remove(0)),
            _ => Verdict::NotUnique(found.remove(0), found.remove(0)),
        }
    }
}

/// What a search for distinct packings within a node budget found
/// ([`crate::Solver::distinct_within`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Within<S> {
    /// The distinct packings found, at most the limit asked for.
    pub found: Vec<S>,
    /// Search nodes visited (deterministic for a level and a budget).
    pub nodes: u64,
    /// Whether the search ended by itself (it found the limit, or searched
    /// everything), not at the budget: with fewer than the limit found,
    /// a proof that there are no more.
    pub complete: bool,
}

impl<S> Within<S> {
    /// The same answer with each packing mapped.
    pub fn map<T>(self, f: impl FnMut(S) -> T) -> Within<T> {
        Within {
            found: self.found.into_iter().map(f).collect(),
            nodes: self.nodes,
            complete: self.complete,
        }
    }
}

/// How hard the first packing was to find for a plain depth-first search
/// (the lowest empty cell first, the level's piece order): round 4's
/// difficulty estimate, which stopped at its budget on skewed designs (the
/// difficulty is now `generate::difficulty`'s). Deterministic for a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Effort {
    /// Nodes (partial packings) visited up to the first full one.
    pub nodes: u64,
    /// Of those, the ones where no piece fit (the search backed out).
    pub dead_ends: u64,
    /// Whether a packing was found at all.
    pub solved: bool,
    /// Whether the search stopped at [`EFFORT_BUDGET`] nodes first: then
    /// `nodes` and `dead_ends` are lower bounds.
    pub capped: bool,
}

/// The nodes a plain search spends on a level's difficulty (a second or two
/// of one core): a design made for the solver's most-constrained search,
/// such as a skewed 4x4x4 (`generate/skew.rs`), can send the plain search
/// through hundreds of millions of nodes, and the estimate must not cost
/// more than the proof.
pub const EFFORT_BUDGET: u64 = 1 << 25;

/// A solution as (kind, 0-based cells) per piece, before pieces get ids.
type Placed = Vec<(usize, Vec<Cell>)>;

impl<M: Mask> Tables<M> {
    /// Up to `limit` distinct solutions (one per orbit under the box's
    /// symmetries), from the symmetry-broken search run root after root
    /// on the calling thread; it stops as soon as it has `limit`. This is
    /// the validator's question: `limit` 1 asks "solvable?", 2 "unique?".
    /// With a `budget` of search nodes, the search stops there too
    /// ([`Within::complete`] false).
    pub(crate) fn distinct_up_to(
        &self,
        limit: usize,
        budget: u64,
        cancel: &AtomicBool,
    ) -> Result<Within<Vec<u32>>, SolveError> {
        let mut found = Vec::new();
        let mut nodes = 0;
        for root in self.symmetry_roots() {
            if found.len() >= limit {
                break;
            }
            let visitor = DistinctUpTo::new(self.volume, root.stabiliser, limit - found.len());
            let mut search = Search::new(self, root.avail, cancel, visitor);
            search.choose_depth = self.choose_depth;
            search.chosen = root.chosen;
            search.node_limit = budget.saturating_sub(nodes);
            search.go(root.filled);
            nodes += search.nodes;
            found.append(&mut search.visitor.found);
            if search.over_budget {
                return Ok(Within {
                    found,
                    nodes,
                    complete: false,
                });
            }
            if search.cancelled {
                return Err(SolveError::Cancelled);
            }
        }
        Ok(Within {
            found,
            nodes,
            complete: true,
        })
    }

    pub(crate) fn effort(&self, cancel: &AtomicBool) -> Result<Effort, SolveError> {
        let mut search = Search::new(
            self,
            self.counts.clone(),
            cancel,
            FirstWithEffort::default(),
        );
        search.node_limit = EFFORT_BUDGET;
        search.go(self.outside);
        if search.cancelled && !search.over_budget {
            return Err(SolveError::Cancelled);
        }
        Ok(Effort {
            nodes: search.nodes,
            dead_ends: search.visitor.dead_ends,
            solved: search.visitor.found,
            capped: search.over_budget,
        })
    }

    pub(crate) fn first_assemblable(
        &self,
        cancel: &AtomicBool,
    ) -> Result<Option<Placed>, SolveError> {
        let visitor = FirstAssemblable {
            rays: Rays::new(&self.layout_cells, &self.bit_of),
            owner: vec![u32::MAX; self.volume],
            found: None,
        };
        let mut search = Search::new(self, self.counts.clone(), cancel, visitor);
        search.go(self.outside);
        if search.cancelled {
            return Err(SolveError::Cancelled);
        }
        Ok(search.visitor.found.map(|chosen| self.placed(&chosen)))
    }
}
