//! Counting on every core, and in shards.
//!
//! The search is cut into independent subtrees by a fixed enumeration:
//! the symmetry-breaking piece's placements (one per orbit; a plain count,
//! [`CountOptions::symmetry`] off, starts from the empty box instead),
//! then the search's own first choices (the most constrained cell or
//! piece), level by level until there are at least [`MIN_SUBTREES`]. The enumeration
//! depends only on the level, so subtree `i` is the same on every machine
//! and thread count: a shard `I/N` takes the subtrees `i` with
//! `i mod N = I - 1`, and shards' counts add up to the whole count.
//! Subtrees run on a rayon pool, one task each, so a core that finishes
//! its subtrees steals from the others and one big subtree never leaves a
//! core idle for long.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rayon::prelude::*;

use super::depth::PLAIN_CHOOSE_DEPTH;
use super::disassembly::Rays;
use super::mask::Mask;
use super::search::{Canonical, DistinctUpTo, Leaves, Search};
use super::solver::{Counts, NONE, Progress, SolveError, Tables};
use super::validate::Within;

/// The enumeration deepens until there are at least this many subtrees
/// (enough for hundreds of shards-times-threads to balance), or until
/// [`MAX_SPLIT_DEPTH`]. Each subtree costs a search set-up: at 2048 the
/// 2x5x6 box was cut one level deeper (7426 subtrees, not 1262) for 9%
/// more CPU, while Bedlam and the 3x4x5 box cost the same either way.
pub const MIN_SUBTREES: usize = 1024;

/// How far above the least fraction of its tree a breaking kind may keep
/// and still be chosen for its fewer placements: 11/10
/// ([`Tables::breaking_kind`]).
const BREAKING_SLACK: (u64, u64) = (11, 10);

/// The deepest level subtrees are cut at.
const MAX_SPLIT_DEPTH: usize = 8;

/// How often the caller hears of progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// One part of `N`: subtrees `i` with `i mod count == index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 0-based part.
    pub index: usize,
    /// Parts in all (at least 1).
    pub count: usize,
}

impl Shard {
    /// The whole search.
    pub const WHOLE: Self = Self { index: 0, count: 1 };

    /// Parses `I/N` (1-based `I`, `1 <= I <= N`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let shard = tessera_host::partial::ShardId::parse(text)?;
        Ok(Self {
            index: shard.index - 1,
            count: shard.of,
        })
    }

    /// Whether subtree `i` belongs to this shard.
    pub fn owns(&self, i: usize) -> bool {
        i % self.count == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// How to run a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountOptions {
    /// Worker threads (0: every core).
    pub threads: usize,
    /// Which part of the subtrees to count.
    pub shard: Shard,
    /// Count only the solutions that come apart by straight slides (the
    /// seed's assembly mode; see [`crate::disassembly`]).
    pub assembly: bool,
    /// Break the box's symmetry (one placement per orbit of one piece) and
    /// count distinct solutions too; `false`: the plain search, every
    /// solution found as such (the search DLX runs; a cross-check, and the
    /// like-for-like figure against other solvers), with no distinct count.
    pub symmetry: bool,
}

impl Default for CountOptions {
    fn default() -> Self {
        Self {
            threads: 0,
            shard: Shard::WHOLE,
            assembly: false,
            symmetry: true,
        }
    }
}

/// A finished or stopped count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountReport {
    /// Counts over the subtrees that finished (`distinct` is 0 in a count
    /// without symmetry breaking: it folds nothing).
    pub counts: Counts,
    /// Subtrees of this shard that finished.
    pub done: usize,
    /// Subtrees of this shard.
    pub total: usize,
    /// Subtrees of the whole enumeration (every shard).
    pub subtrees: usize,
    /// Whether every subtree of the shard finished (`false`: stopped, the
    /// counts are a partial sum).
    pub complete: bool,
    /// Search nodes visited (a measure of the work independent of the
    /// machine).
    pub nodes: u64,
    /// Threads used.
    pub threads: usize,
}

/// One subtree: the start state, the placements already chosen, the orbit
/// size of its symmetry-breaking placement, and the symmetries
/// (non-identity) that still fix its start.
#[derive(Clone)]
pub(crate) struct Subtree<M> {
    pub(crate) filled: M,
    pub(crate) avail: Vec<u16>,
    pub(crate) chosen: Vec<u32>,
    pub(crate) multiplier: u64,
    pub(crate) stabiliser: Vec<usize>,
}

impl<M: Mask> Tables<M> {
    /// How many placements deep a count takes the most constrained choice:
    /// the symmetry-broken count's depth for this box, or the plain
    /// search's (the same as [`Tables::count_plain`], so a plain count on
    /// any number of threads searches the same tree).
    pub(crate) fn count_choose_depth(&self, symmetry: bool) -> usize {
        if symmetry {
            self.choose_depth
        } else {
            PLAIN_CHOOSE_DEPTH
        }
    }

    /// The fixed enumeration of subtrees: the roots (one per orbit of the
    /// breaking piece, or the empty box for a plain count), then each
    /// level's subtrees cut one placement deeper, in order, until there
    /// are enough. Each level's subtrees are cut in parallel on the current
    /// rayon pool (a deep cut is a search of its own: 20 ms for 2x5x6).
    pub(crate) fn subtrees(
        &self,
        symmetry: bool,
        cancel: &AtomicBool,
    ) -> Result<Vec<Subtree<M>>, SolveError> {
        let mut subtrees = if symmetry {
            self.symmetry_roots()
        } else {
            vec![self.empty_root()]
        };
        let choose_depth = self.count_choose_depth(symmetry);
        let mut depth = subtrees.first().map_or(0, |r| r.chosen.len());
        while subtrees.len() < MIN_SUBTREES && depth < MAX_SPLIT_DEPTH {
            depth += 1;
            let cut: Vec<Vec<Subtree<M>>> = subtrees
                .par_iter()
                .with_max_len(1)
                .map(|subtree| self.cut(subtree, depth, choose_depth, cancel))
                .collect::<Result<_, _>>()?;
            let deeper: Vec<Subtree<M>> = cut.into_iter().flatten().collect();
            let exhausted =
                deeper.len() == subtrees.len() && deeper.iter().all(|s| s.filled == M::ONES);
            subtrees = deeper;
            if exhausted {
                break;
            }
        }
        Ok(subtrees)
    }

    /// The subtrees of `root` cut at `depth` placements: its solutions
    /// found above the cut (each a subtree of its own: a full box), then
    /// the states at the cut, in search order. A full box stays itself.
    fn cut(
        &self,
        root: &Subtree<M>,
        depth: usize,
        choose_depth: usize,
        cancel: &AtomicBool,
    ) -> Result<Vec<Subtree<M>>, SolveError> {
        let leaves = Leaves { found: Vec::new() };
        let mut search = Search::new(self, root.avail.clone(), cancel, leaves);
        search.choose_depth = choose_depth;
        search.chosen = root.chosen.clone();
        search.split_at = depth;
        search.go(root.filled);
        if search.cancelled {
            return Err(SolveError::Cancelled);
        }
        let solved = search.visitor.found.drain(..).map(|chosen| Subtree {
            filled: M::ONES,
            avail: vec![0; self.kinds],
            chosen,
            multiplier: root.multiplier,
            stabiliser: root.stabiliser.clone(),
        });
        let cut = search
            .frontier
            .drain(..)
            .map(|(filled, avail, chosen)| Subtree {
                filled,
                avail,
                chosen,
                multiplier: root.multiplier,
                stabiliser: root.stabiliser.clone(),
            });
        Ok(solved.chain(cut).collect())
    }

    /// The start of a plain count: the empty box, every piece left, each
    /// solution counted once and none folded.
    fn empty_root(&self) -> Subtree<M> {
        Subtree {
            filled: self.outside,
            avail: self.counts.clone(),
            chosen: Vec::new(),
            multiplier: 1,
            stabiliser: Vec::new(),
        }
    }

    /// The piece kind to break symmetry with: it occurs once and every
    /// symmetry maps it to itself. Placed first, one placement per orbit,
    /// it leaves the search the fraction `orbits / placements` of the
    /// kind-first tree, so the kind should keep the least of it; among
    /// those within [`BREAKING_SLACK`] of the least (most placements sit
    /// in full orbits there, a few fixed ones aside), the kind with the
    /// fewest placements (the most constrained first piece), then the
    /// fewest orbits.
    ///
    /// On the 3x4x5 box the X pentacube has 12 placements, every one fixed
    /// by a reflection or a half turn: 4 orbits keep a third of its tree,
    /// and that tree is no smaller, so the count took 24.1M nodes. A
    /// pentacube of 160 placements in 24 orbits keeps 15% and takes
    /// 12.6M.
    pub(crate) fn breaking_kind(&self) -> Option<usize> {
        let candidates: Vec<(usize, u64, u64)> = (0..self.kinds)
            .filter(|&k| self.counts[k] == 1)
            .filter(|&k| self.group.iter().all(|g| g.kind_map[k] == k))
            .filter_map(|k| {
                let orbits = self.orbits(k)?;
                let placements = orbits.iter().map(|&(_, size)| size).sum();
                (placements > 0).then_some((k, orbits.len() as u64, placements))
            })
            .collect();
        // The least fraction orbits / placements, as a pair.
        let (least_orbits, least_placements) = candidates
            .iter()
            .map(|&(_, orbits, placements)| (orbits, placements))
            .min_by(|a, b| (a.0 * b.1).cmp(&(b.0 * a.1)))?;
        let (slack_num, slack_den) = BREAKING_SLACK;
        candidates
            .into_iter()
            .filter(|&(_, orbits, placements)| {
                orbits * least_placements * slack_den <= least_orbits * placements * slack_num
            })
            .min_by_key(|&(k, orbits, placements)| (placements, orbits, k))
            .map(|(k, _, _)| k)
    }

    /// The orbits of `kind`'s placements under the group, in placement
    /// order: each one's first placement and its size. `None` when a
    /// symmetry takes one of them out of the kind's placements.
    pub(crate) fn orbits(&self, kind: usize) -> Option<Vec<(usize, u64)>> {
        let mut seen = vec![false; self.masks.len()];
        let mut orbits = Vec::new();
        for p in 0..self.masks.len() {
            if self.placement_kind[p] as usize != kind || seen[p] {
                continue;
            }
            let mut size = 0;
            for img in &self.images {
                let q = *img.get(p).filter(|&&q| q != NONE)? as usize;
                if !seen[q] {
                    seen[q] = true;
                    size += 1;
                }
            }
            orbits.push((p, size));
        }
        Some(orbits)
    }

    /// The starts of the symmetry-broken search: one per orbit of the
    /// breaking piece's placements, or the empty box.
    pub(crate) fn symmetry_roots(&self) -> Vec<Subtree<M>> {
        let everything: Vec<usize> = (1..self.group.len()).collect();
        let Some(kind) = (self.group.len() > 1)
            .then(|| self.breaking_kind())
            .flatten()
        else {
            return vec![Subtree {
                filled: self.outside,
                avail: self.counts.clone(),
                chosen: Vec::new(),
                multiplier: 1,
                stabiliser: everything,
            }];
        };
        let mut roots = Vec::new();
        for (p, orbit) in self.orbits(kind).unwrap_or_default() {
            let filled = self.outside.or(self.masks[p]);
            if self.has_isolated(filled) {
                continue;
            }
            let stabiliser: Vec<usize> = (1..self.group.len())
                .filter(|&g| self.images[g][p] as usize == p)
                .collect();
            let mut avail = self.counts.clone();
            avail[kind] -= 1;
            roots.push(Subtree {
                filled,
                avail,
                chosen: vec![p as u32],
                multiplier: orbit,
                stabiliser,
            });
        }
        roots
    }

    /// Counts one subtree: (raw solutions times the orbit size, distinct
    /// solutions, nodes), or `None` when cancelled.
    fn count_subtree(
        &self,
        job: &Subtree<M>,
        choose_depth: usize,
        rays: Option<&Arc<Rays>>,
        cancel: &AtomicBool,
    ) -> Option<(u64, u64, u64)> {
        let visitor = Canonical::new(self.volume, job.stabiliser.clone(), rays.cloned());
        let mut search = Search::new(self, job.avail.clone(), cancel, visitor);
        search.choose_depth = choose_depth;
        search.chosen = job.chosen.clone();
        search.go(job.filled);
        if search.cancelled {
            return None;
        }
        Some((
            search.visitor.raw * job.multiplier,
            search.visitor.canonical,
            search.nodes,
        ))
    }

    /// A solution's placements as (kind, 0-based cells) each.
    pub(crate) fn placed(&self, chosen: &[u32]) -> Vec<(usize, Vec<super::geometry::Cell>)> {
        chosen
            .iter()
            .map(|&p| {
                (
                    self.placement_kind[p as usize] as usize,
                    self.cells_of(p as usize),
                )
            })
            .collect()
    }

    /// Up to `limit` distinct solutions from the whole symmetry-broken
    /// search on `threads` threads (0: every core): the subtrees of the
    /// fixed enumeration taken in turn by each thread, the search stopped
    /// once the subtrees finished in a row from the first hold `limit`.
    /// The answer is the first `limit` of those in subtree order, and the
    /// nodes are those of the subtrees that decided it, so neither depends
    /// on the threads (a thread may have searched further, uncounted).
    pub(crate) fn distinct_parallel(
        &self,
        limit: usize,
        threads: usize,
        cancel: &AtomicBool,
    ) -> Result<Within<Vec<u32>>, SolveError> {
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            threads
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("polycube proof {i}"))
            .build()
            .map_err(|e| SolveError::Threads(e.to_string()))?;
        let subtrees = pool.install(|| self.subtrees(true, cancel))?;
        // Raised by the caller's cancel or once the answer is decided.
        let stop = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        let slots: Mutex<Vec<Option<Decided>>> = Mutex::new(vec![None; subtrees.len()]);
        let work = || {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = subtrees.get(i) else { break };
                let visitor = DistinctUpTo::new(self.volume, job.stabiliser.clone(), limit);
                let mut search = Search::new(self, job.avail.clone(), &stop, visitor);
                search.choose_depth = self.choose_depth;
                search.chosen = job.chosen.clone();
                search.go(job.filled);
                if search.cancelled {
                    break;
                }
                let Ok(mut slots) = slots.lock() else { break };
                slots[i] = Some((search.visitor.found, search.nodes));
                if prefix(&slots, limit).0.len() >= limit {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        };
        let caller = std::thread::current();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        work();
                        caller.unpark();
                    })
                })
                .collect();
            while !workers.iter().all(|w| w.is_finished()) {
                std::thread::park_timeout(PROGRESS_EVERY);
                if cancel.load(Ordering::Relaxed) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
        if cancel.load(Ordering::Relaxed) {
            return Err(SolveError::Cancelled);
        }
        let slots = slots
            .into_inner()
            .map_err(|_| SolveError::Threads("a proof's thread panicked".into()))?;
        let (mut found, nodes) = prefix(&slots, limit);
        found.truncate(limit);
        let complete = true;
        Ok(Within {
            found,
            nodes,
            complete,
        })
    }

    /// Counts the shard's subtrees on `options.threads` threads; `progress`
    /// hears from the calling thread every [`PROGRESS_EVERY`]. A cancel
    /// returns the partial sum (`complete: false`).
    pub(crate) fn count_parallel(
        &self,
        options: &CountOptions,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<CountReport, SolveError> {
        let threads = if options.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            options.threads
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("polycube count {i}"))
            .build()
            .map_err(|e| SolveError::Threads(e.to_string()))?;
        let subtrees = pool.install(|| self.subtrees(options.symmetry, cancel))?;
        let choose_depth = self.count_choose_depth(options.symmetry);
        let mine: Vec<&Subtree<M>> = subtrees
            .iter()
            .enumerate()
            .filter(|(i, _)| options.shard.owns(*i))
            .map(|(_, s)| s)
            .collect();
        let done = AtomicUsize::new(0);
        let raw = AtomicU64::new(0);
        let distinct = AtomicU64::new(0);
        let nodes = AtomicU64::new(0);
        let snapshot = || Progress {
            done: done.load(Ordering::Relaxed),
            total: mine.len(),
            counts: Counts {
                solutions: raw.load(Ordering::Relaxed),
                distinct: distinct.load(Ordering::Relaxed),
            },
        };
        let rays = options
            .assembly
            .then(|| Arc::new(Rays::new(&self.layout_cells, &self.bit_of)));
        let caller = std::thread::current();
        std::thread::scope(|scope| {
            let worker = scope.spawn(|| {
                pool.install(|| {
                    mine.par_iter().with_max_len(1).for_each(|job| {
                        if cancel.load(Ordering::Relaxed) {
                            return;
                        }
                        if let Some((r, d, n)) =
                            self.count_subtree(job, choose_depth, rays.as_ref(), cancel)
                        {
                            raw.fetch_add(r, Ordering::Relaxed);
                            // A plain count folds nothing: its "distinct"
                            // would only repeat the raw count.
                            if options.symmetry {
                                distinct.fetch_add(d, Ordering::Relaxed);
                            }
                            nodes.fetch_add(n, Ordering::Relaxed);
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                    });
                });
                caller.unpark();
            });
            while !worker.is_finished() {
                std::thread::park_timeout(PROGRESS_EVERY);
                progress(snapshot());
            }
        });
        let last = snapshot();
        progress(last);
        Ok(CountReport {
            counts: last.counts,
            done: last.done,
            total: last.total,
            subtrees: subtrees.len(),
            complete: last.done == last.total,
            nodes: nodes.load(Ordering::Relaxed),
            threads,
        })
    }
}

/// What a subtree of a proof found: its distinct solutions and nodes.
type Decided = (Vec<Vec<u32>>, u64);

/// The solutions of the subtrees finished in a row from the first, in
/// subtree order, up to (at least) `limit` of them, and those subtrees'
/// nodes.
fn prefix(slots: &[Option<Decided>], limit: usize) -> Decided {
    let (mut out, mut nodes) = (Vec::new(), 0);
    for (found, n) in slots.iter().map_while(Option::as_ref) {
        if out.len() >= limit {
            break;
        }
        out.extend(found.iter().cloned());
        nodes += n;
    }
    (out, nodes)
}
