//! The depth-first search over one [`Tables`]: what happens at a full box
//! ([`Visitor`]) and how a branch is chosen.
//!
//! Near the root the search branches on the most constrained choice, as
//! DLX does: the empty cell, or the last piece of a kind, with the fewest
//! fitting placements. It finds that choice without scanning every cell:
//! each level keeps the list of placements that still fit (its parent's,
//! filtered), and adds their masks into bit-sliced counters (six bits
//! per cell, saturating at 64), so the least covered cell is a dozen ANDs;
//! filtering and counting take no branch per placement (whether one fits
//! is a coin toss to the branch predictor). A cell covered by none, or a
//! kind with fewer fitting placements than pieces left, ends the branch.
//! Where the box has at most 8192 placements those lists are bit sets
//! over the placements instead ([`crate::cover`]): a child's set is its
//! parent's less the placements that meet the one just placed, and its
//! counts its parent's less theirs; the choices, and so the tree and its
//! node counts, are the lists'.
//! Deeper, the lists cost more than they save, and the search fills the
//! lowest empty cell from the per-cell tables.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::disassembly::Rays;

use super::mask::Mask;
use super::near::CellFits;
use super::solver::Tables;

/// What the search does at a full box.
pub(crate) trait Visitor<M: Mask> {
    /// Whether the search reports its dead ends ([`Visitor::dead_end`]);
    /// off, the test is compiled away.
    const DEAD_ENDS: bool = false;

    /// Called with the placements of a solution; `false` stops the search.
    fn leaf(&mut self, tables: &Tables<M>, chosen: &[u32]) -> bool;

    /// Called at a node where nothing fits (only when [`Visitor::DEAD_ENDS`]).
    fn dead_end(&mut self) {}
}

/// Stops at the first solution, counting the dead ends on the way: the
/// search's effort, a level's difficulty estimate.
#[derive(Default)]
pub(crate) struct FirstWithEffort {
    pub(crate) dead_ends: u64,
    pub(crate) found: bool,
}

impl<M: Mask> Visitor<M> for FirstWithEffort {
    const DEAD_ENDS: bool = true;

    fn leaf(&mut self, _: &Tables<M>, _: &[u32]) -> bool {
        self.found = true;
        false
    }

    fn dead_end(&mut self) {
        self.dead_ends += 1;
    }
}

/// A test of a solution's placements, (kind, 0-based cells) each.
pub(crate) type AcceptSolution<'a> = dyn FnMut(&[(usize, Vec<super::geometry::Cell>)]) -> bool + 'a;

/// The first solution its `accept` test takes (given the solution's
/// placements as (kind, 0-based cells)); the rest are skipped. For
/// searches that need more than an exact cover, such as a hint in assembly
/// mode (the rest of the box must also slide in, in some order).
pub(crate) struct FirstAccepted<'a> {
    pub(crate) accept: &'a mut AcceptSolution<'a>,
    pub(crate) found: Option<Vec<u32>>,
}

impl<M: Mask> Visitor<M> for FirstAccepted<'_> {
    fn leaf(&mut self, t: &Tables<M>, chosen: &[u32]) -> bool {
        let placed: Vec<_> = chosen
            .iter()
            .map(|&p| {
                (
                    t.placement_kind[p as usize] as usize,
                    t.cells_of(p as usize),
                )
            })
            .collect();
        if (self.accept)(&placed) {
            self.found = Some(chosen.to_vec());
            return false;
        }
        true
    }
}

pub(crate) struct Tally {
    pub(crate) count: u64,
}

impl<M: Mask> Visitor<M> for Tally {
    #[inline(always)]
    fn leaf(&mut self, _: &Tables<M>, _: &[u32]) -> bool {
        self.count += 1;
        true
    }
}

/// Counts all leaves, and those that are the smallest image of themselves
/// under the stabiliser (all of them when the stabiliser is trivial). With
/// `assembly`, only leaves that come apart by straight slides count (a
/// property every symmetry keeps, so the folding stays right).
pub(crate) struct Canonical {
    pub(crate) stabiliser: Vec<usize>,
    pub(crate) raw: u64,
    pub(crate) canonical: u64,
    pub(crate) labels: Vec<u32>,
    pub(crate) image: Vec<u32>,
    pub(crate) assembly: Option<Arc<Rays>>,
    /// Scratch for the assembly check: the piece on each bit.
    pub(crate) owner: Vec<u32>,
}

impl Canonical {
    pub(crate) fn new(volume: usize, stabiliser: Vec<usize>, assembly: Option<Arc<Rays>>) -> Self {
        Self {
            stabiliser,
            raw: 0,
            canonical: 0,
            labels: vec![0; volume],
            image: vec![0; volume],
            owner: vec![u32::MAX; if assembly.is_some() { volume } else { 0 }],
            assembly,
        }
    }
}

impl<M: Mask> Visitor<M> for Canonical {
    #[inline(always)]
    fn leaf(&mut self, t: &Tables<M>, chosen: &[u32]) -> bool {
        if let Some(rays) = &self.assembly {
            let pieces: Vec<&[u16]> = chosen
                .iter()
                .map(|&p| t.placement_bits[p as usize].as_slice())
                .collect();
            if !rays.comes_apart(&pieces, &mut self.owner) {
                return true;
            }
        }
        self.raw += 1;
        if is_canonical(
            t,
            chosen,
            &self.stabiliser,
            &mut self.labels,
            &mut self.image,
        ) {
            self.canonical += 1;
        }
        true
    }
}

/// Whether a solution is the smallest of its images under `stabiliser`
/// (always, when it is empty). `labels` and `image` are scratch of one
/// entry per bit.
fn is_canonical<M: Mask>(
    t: &Tables<M>,
    chosen: &[u32],
    stabiliser: &[usize],
    labels: &mut [u32],
    image: &mut [u32],
) -> bool {
    if stabiliser.is_empty() {
        return true;
    }
    // Label each cell by (kind, lowest cell of its piece): this names
    // the solution exactly, identical pieces included.
    let label = |p: usize| (t.placement_kind[p] << 16) | u32::from(t.placement_bits[p][0]);
    for &p in chosen {
        let l = label(p as usize);
        for &b in &t.placement_bits[p as usize] {
            labels[b as usize] = l;
        }
    }
    for &g in stabiliser {
        for &p in chosen {
            let q = t.images[g][p as usize] as usize;
            let l = label(q);
            for &b in &t.placement_bits[q] {
                image[b as usize] = l;
            }
        }
        if image < labels {
            return false;
        }
    }
    true
}

/// Collects distinct solutions (smallest images under the stabiliser)
/// until it holds `limit` of them, then stops the search.
pub(crate) struct DistinctUpTo {
    pub(crate) stabiliser: Vec<usize>,
    pub(crate) limit: usize,
    pub(crate) found: Vec<Vec<u32>>,
    labels: Vec<u32>,
    image: Vec<u32>,
}

impl DistinctUpTo {
    pub(crate) fn new(volume: usize, stabiliser: Vec<usize>, limit: usize) -> Self {
        Self {
            stabiliser,
            limit,
            found: Vec::new(),
            labels: vec![0; volume],
            image: vec![0; volume],
        }
    }
}

impl<M: Mask> Visitor<M> for DistinctUpTo {
    fn leaf(&mut self, t: &Tables<M>, chosen: &[u32]) -> bool {
        if is_canonical(
            t,
            chosen,
            &self.stabiliser,
            &mut self.labels,
            &mut self.image,
        ) {
            self.found.push(chosen.to_vec());
        }
        self.found.len() < self.limit
    }
}

/// Stops at the first solution that comes apart by straight slides.
pub(crate) struct FirstAssemblable {
    pub(crate) rays: Rays,
    pub(crate) owner: Vec<u32>,
    pub(crate) found: Option<Vec<u32>>,
}

impl<M: Mask> Visitor<M> for FirstAssemblable {
    fn leaf(&mut self, t: &Tables<M>, chosen: &[u32]) -> bool {
        let pieces: Vec<&[u16]> = chosen
            .iter()
            .map(|&p| t.placement_bits[p as usize].as_slice())
            .collect();
        if self.rays.comes_apart(&pieces, &mut self.owner) {
            self.found = Some(chosen.to_vec());
            return false;
        }
        true
    }
}

/// Bits per cell of [`Counters`]: counts saturate at 64.
pub(crate) const COUNTER_BITS: usize = 6;

/// Records every solution's placements (for the subtree enumeration).
pub(crate) struct Leaves {
    pub(crate) found: Vec<Vec<u32>>,
}

impl<M: Mask> Visitor<M> for Leaves {
    fn leaf(&mut self, _: &Tables<M>, chosen: &[u32]) -> bool {
        self.found.push(chosen.to_vec());
        true
    }
}

/// Per-cell counts of fitting placements, bit-sliced: `planes[i]` holds
/// bit `i` of every cell's count; `sat` marks counts of 64 or more.
#[derive(Clone, Copy)]
pub(crate) struct Counters<M> {
    pub(crate) planes: [M; COUNTER_BITS],
    pub(crate) sat: M,
}

impl<M: Mask> Counters<M> {
    pub(crate) const ZERO: Self = Self {
        planes: [M::ZERO; COUNTER_BITS],
        sat: M::ZERO,
    };

    /// Adds one to every cell of `m` (a ripple-carry add, bit-parallel).
    /// It always runs through every plane: stopping once the carry is
    /// empty saves a few operations but costs a mispredicted branch on
    /// most adds (2x5x6 counted 30% faster without it).
    #[inline(always)]
    fn add(&mut self, m: M) {
        let mut carry = m;
        for plane in &mut self.planes {
            let next = plane.and(carry);
            *plane = plane.xor(carry);
            carry = next;
        }
        self.sat = self.sat.or(carry);
    }

    /// The lowest of `cells` with the smallest count, and that count
    /// (64 when every count is saturated). `cells` must not be empty.
    #[inline(always)]
    pub(crate) fn smallest(&self, cells: M) -> (usize, u32) {
        let unsaturated = cells.and(self.sat.not());
        if unsaturated.is_zero() {
            return (cells.not().lowest_clear(), 1 << COUNTER_BITS);
        }
        let mut fewest = unsaturated;
        for plane in self.planes.iter().rev() {
            let without = fewest.and(plane.not());
            if !without.is_zero() {
                fewest = without;
            }
        }
        let cell = fewest.not().lowest_clear();
        let count = self
            .planes
            .iter()
            .enumerate()
            .map(|(i, plane)| u32::from(plane.test(cell)) << i)
            .sum();
        (cell, count)
    }
}

/// A branch of the most constrained choice.
pub(crate) enum Choice {
    /// Every fitting placement covering this cell.
    Cell(usize),
    /// Every fitting placement of the last piece of this kind.
    Piece(u32),
}

impl Choice {
    /// The most constrained branch: `cell`, the empty cell with the fewest
    /// fitting placements (`best` of them), or the last piece of a kind
    /// that fits in fewer places; `None` for a dead end (a cell nothing
    /// covers, or a kind with fewer fitting placements than pieces left).
    /// `kind_fits` and `avail` are each kind's fitting placements and
    /// pieces left. Both searches (lists and bit sets) choose here.
    #[inline]
    pub(crate) fn most_constrained(
        cell: usize,
        mut best: u32,
        kind_fits: &[u32],
        avail: &[u16],
    ) -> Option<Self> {
        if best == 0 {
            return None;
        }
        let mut piece = None;
        for (kind, (&fits, &left)) in kind_fits.iter().zip(avail).enumerate() {
            if left == 0 {
                continue;
            }
            if fits < u32::from(left) {
                return None;
            }
            if left == 1 && fits < best {
                (best, piece) = (fits, Some(kind as u32));
            }
        }
        Some(match piece {
            Some(kind) => Self::Piece(kind),
            None => Self::Cell(cell),
        })
    }
}

/// One depth-first search; the caller sets its start and reads its visitor.
pub(crate) struct Search<'t, M: Mask, V: Visitor<M>> {
    pub(crate) t: &'t Tables<M>,
    pub(crate) avail: Vec<u16>,
    pub(crate) chosen: Vec<u32>,
    pub(crate) visitor: V,
    /// Nodes visited (a deterministic measure of the work).
    pub(crate) nodes: u64,
    cancel: &'t AtomicBool,
    pub(crate) cancelled: bool,
    /// The search stops (as `cancelled`, with `over_budget` set) after
    /// about this many nodes, a multiple of 4096: a deterministic budget.
    pub(crate) node_limit: u64,
    /// Whether the stop was `node_limit`'s, not a cancel.
    pub(crate) over_budget: bool,
    /// Below this many placements the search takes the most constrained
    /// choice; deeper it fills the lowest empty cell, whose candidates are
    /// cheaper to find.
    pub(crate) choose_depth: usize,
    /// At this many placements the search records its state in
    /// `frontier` instead of going deeper (`usize::MAX`: never).
    pub(crate) split_at: usize,
    /// The states recorded at `split_at`: filled, pieces left, chosen.
    pub(crate) frontier: Vec<(M, Vec<u16>, Vec<u32>)>,
    /// The fitting placements of every most-constrained level on the
    /// path, one level after the other.
    live: Vec<u32>,
    /// Where the lists in `live` end (`live` itself only grows, so that
    /// writing a list never clears memory first).
    live_end: usize,
    /// The parent level's range in `live` (`None`: every placement).
    parent: Option<(usize, usize)>,
    /// Fitting placements per kind at the current node (scratch).
    kind_fits: Vec<u32>,
    /// The masks of the placements that fit at the current node (scratch).
    fit: Vec<M>,
    /// Whether the most constrained levels keep bit sets
    /// ([`crate::cover`]) rather than lists (when the box has them).
    pub(crate) bit_sets: bool,
    /// The fitting placements of each most-constrained level on the path
    /// as a bit set ([`CoverBits::words`] words a level).
    pub(crate) set: Vec<u64>,
    /// Each such level's count of fitting placements per cell, bit-sliced
    /// and complemented ([`crate::cover::PLANES`] masks a level, exact:
    /// plane `i` holds bit `i` of `2^PLANES - 1 - count`, so that taking
    /// placements off is an add, with no NOT).
    pub(crate) per_cell: Vec<M>,
    /// Each such level's count of fitting placements per kind
    /// ([`crate::cover::MAX_KINDS`] a level, the kinds first).
    pub(crate) per_kind: Vec<u32>,
    /// The placements that meet the one just placed, a word each
    /// (scratch of the child set, `cover.rs`).
    pub(crate) meets: Vec<u64>,
    /// The parent's level in `set` while its children run (`None`: the
    /// node is the first of the most constrained levels).
    pub(crate) set_parent: Option<usize>,
    /// The pieces left as the slab test's state index.
    pub(crate) state: usize,
    /// Bit `k` set while a piece of kind `k` is left (kinds 0 to 63).
    kinds_left: u64,
}

impl<'t, M: Mask, V: Visitor<M>> Search<'t, M, V> {
    pub(crate) fn new(
        t: &'t Tables<M>,
        avail: Vec<u16>,
        cancel: &'t AtomicBool,
        visitor: V,
    ) -> Self {
        Self {
            t,
            state: t.slabs.state(&avail),
            kinds_left: kinds_left(&avail),
            avail,
            chosen: Vec::with_capacity(64),
            visitor,
            nodes: 0,
            cancel,
            cancelled: false,
            node_limit: u64::MAX,
            over_budget: false,
            choose_depth: 0,
            split_at: usize::MAX,
            frontier: Vec::new(),
            live: Vec::new(),
            live_end: 0,
            parent: None,
            kind_fits: vec![0; t.kinds],
            fit: Vec::new(),
            bit_sets: true,
            set: Vec::new(),
            per_cell: Vec::new(),
            per_kind: Vec::new(),
            meets: Vec::new(),
            set_parent: None,
        }
    }

    /// Appends the placements that fit `filled` (from the parent level's
    /// list, or all of them at the first level) to `live`, counts them per
    /// cell and per kind, and picks the narrowest branch. `None`: a dead
    /// end (a cell nothing covers, or a kind short of placements).
    fn most_constrained(&mut self, filled: M) -> Option<Choice> {
        let t = self.t;
        self.kind_fits.iter_mut().for_each(|n| *n = 0);
        let start = self.live_end;
        let (from, to) = match self.parent {
            Some(range) => range,
            None => (start, start + self.gather_candidates(filled)),
        };
        // Without a branch per placement (whether one fits is a coin toss
        // to the branch predictor): each is written to the end of `live`
        // (and its mask to `fit`) and kept by moving the end only when it
        // fits. (Candidates gathered in place are read at or after where
        // they are written.)
        if self.live.len() < start + (to - from) {
            self.live.resize(start + (to - from), 0);
        }
        if self.fit.len() < to - from {
            self.fit.resize(to - from, M::ZERO);
        }
        let mut kept = 0;
        {
            let (live, fit, kind_fits) = (
                &mut self.live[..],
                &mut self.fit[..],
                &mut self.kind_fits[..],
            );
            let (masks, kinds, avail) = (&t.masks[..], &t.placement_kind[..], &self.avail[..]);
            for i in from..to {
                let p = live[i];
                let kind = kinds[p as usize] as usize;
                let m = masks[p as usize];
                let fits = m.and(filled).is_zero() & (avail[kind] != 0);
                live[start + kept] = p;
                fit[kept] = m;
                kept += usize::from(fits);
                kind_fits[kind] += u32::from(fits);
            }
        }
        self.live_end = start + kept;
        // The masks kept, counted per cell in a loop of their own: the
        // counters stay in registers.
        let mut counters = Counters::ZERO;
        for &m in &self.fit[..kept] {
            counters.add(m);
        }
        let (cell, best) = counters.smallest(filled.not());
        Choice::most_constrained(cell, best, &self.kind_fits, &self.avail)
    }

    /// Writes the placements that may fit at the start of a search (those
    /// of a kind with a piece left whose lowest cell is empty, in index
    /// order) at the end of `live`, and returns how many. A subtree of a
    /// count starts part-filled, so this skips most of the placements.
    fn gather_candidates(&mut self, filled: M) -> usize {
        let t = self.t;
        let start = self.live_end;
        let mut end = start;
        let mut seen = filled;
        loop {
            let c = seen.lowest_clear();
            if c >= t.volume {
                break;
            }
            seen = seen.or(M::bit(c));
            for g in &t.groups[t.cell_groups[c] as usize..t.cell_groups[c + 1] as usize] {
                if self.avail[g.kind as usize] == 0 {
                    continue;
                }
                let len = (g.end - g.start) as usize;
                if self.live.len() < end + len {
                    self.live.resize(end + len, 0);
                }
                for (slot, p) in self.live[end..end + len].iter_mut().zip(g.start..g.end) {
                    *slot = p;
                }
                end += len;
            }
        }
        end - start
    }

    /// Branches on the most constrained choice at `filled`. The fitting
    /// placements are appended to `live` for the children to filter, and
    /// removed on return.
    fn go_constrained(&mut self, filled: M) -> bool {
        let t = self.t;
        if let Some(cover) = t.cover.as_ref().filter(|_| self.bit_sets) {
            return self.go_constrained_sets(filled, cover);
        }
        let start = self.live_end;
        let choice = self.most_constrained(filled);
        let end = self.live_end;
        let mut keep = true;
        if let Some(choice) = choice {
            let parent = self.parent.replace((start, end));
            for i in start..end {
                let p = self.live[i];
                let m = t.masks[p as usize];
                let kind = t.placement_kind[p as usize];
                let wanted = match choice {
                    Choice::Cell(c) => m.test(c),
                    Choice::Piece(k) => kind == k,
                };
                if !wanted {
                    continue;
                }
                let next = filled.or(m);
                let left = self.state - t.slabs.radix[kind as usize];
                if !t.slabs.possible(next, left) || t.has_isolated(next) {
                    continue;
                }
                self.take(kind as usize);
                self.chosen.push(p);
                keep = self.go(next);
                self.chosen.pop();
                self.put_back(kind as usize);
                if !keep {
                    break;
                }
            }
            self.parent = parent;
        }
        self.live_end = start;
        keep
    }

    /// Depth-first search from `filled`; `false` when it should stop.
    pub(crate) fn go(&mut self, filled: M) -> bool {
        if filled == M::ONES {
            return self.visitor.leaf(self.t, &self.chosen);
        }
        if self.chosen.len() == self.split_at {
            self.frontier
                .push((filled, self.avail.clone(), self.chosen.clone()));
            return true;
        }
        self.nodes += 1;
        // The budget and the cancel are checked every 4096 nodes, and the
        // cancel at a search's first node too: a loop of many small
        // searches (a generator's candidates) stops at the next one.
        let poll = self.nodes & 0xFFF;
        let over_budget = poll == 0 && self.nodes >= self.node_limit;
        if over_budget || (poll <= 1 && self.cancel.load(Ordering::Relaxed)) {
            self.over_budget = over_budget;
            self.cancelled = true;
            return false;
        }
        if V::DEAD_ENDS {
            // Every child either goes one node deeper or is a solution,
            // which stops a first-solution search: no new node, no child.
            let before = self.nodes;
            let keep = self.expand(filled);
            if keep && self.nodes == before {
                self.visitor.dead_end();
            }
            return keep;
        }
        self.expand(filled)
    }

    /// The children of the node at `filled` (see [`Search::go`]).
    #[inline(always)]
    fn expand(&mut self, filled: M) -> bool {
        if self.chosen.len() < self.choose_depth {
            return self.go_constrained(filled);
        }
        let t = self.t;
        let c = filled.lowest_clear();
        if let Some(fits) = &t.cell_fits {
            return self.go_lowest_cell(filled, c, fits);
        }
        // Boxes whose cells have too many placements for [`CellFits`]
        // (Bedlam's): kind by kind.
        for g in t.cell_groups[c]..t.cell_groups[c + 1] {
            let group = t.groups[g as usize];
            let kind = group.kind as usize;
            if self.avail[kind] == 0 {
                continue;
            }
            self.take(kind);
            for p in group.start..group.end {
                let m = t.masks[p as usize];
                if !m.and(filled).is_zero() {
                    continue;
                }
                let next = filled.or(m);
                if !t.slabs.possible(next, self.state) || t.has_isolated(next) {
                    continue;
                }
                self.chosen.push(p);
                let keep = self.go(next);
                self.chosen.pop();
                if !keep {
                    self.put_back(kind);
                    return false;
                }
            }
            self.put_back(kind);
        }
        true
    }

    /// The lowest-cell node with [`CellFits`]: the placements at `c` that
    /// the near cells leave room for, of kinds left, a mask per word.
    #[inline(always)]
    fn go_lowest_cell(&mut self, filled: M, c: usize, fits: &CellFits) -> bool {
        let window = filled.shr(c as u32 + 1).low_u64();
        for w in 0..fits.words {
            if !self.go_lowest_word(filled, c, w, window, fits) {
                return false;
            }
        }
        true
    }

    /// The placements of word `w` of cell `c` (see [`CellFits`]).
    #[inline(always)]
    fn go_lowest_word(
        &mut self,
        filled: M,
        c: usize,
        w: usize,
        window: u64,
        fits: &CellFits,
    ) -> bool {
        let t = self.t;
        let mut room = fits.room(c, w, window, self.kinds_left);
        let first = fits.first[c] + 128 * w as u32;
        while room != 0 {
            let p = first + room.trailing_zeros();
            room &= room - 1;
            let m = t.masks[p as usize];
            if !m.and(filled).is_zero() {
                continue;
            }
            let next = filled.or(m);
            let kind = t.placement_kind[p as usize] as usize;
            let left = self.state - t.slabs.radix[kind];
            if !t.slabs.possible(next, left) || t.has_isolated(next) {
                continue;
            }
            self.take(kind);
            self.chosen.push(p);
            let keep = self.go(next);
            self.chosen.pop();
            self.put_back(kind);
            if !keep {
                return false;
            }
        }
        true
    }

    /// Takes a piece of `kind` (one must be left).
    #[inline(always)]
    pub(crate) fn take(&mut self, kind: usize) {
        self.avail[kind] -= 1;
        self.state -= self.t.slabs.radix[kind];
        // Without a branch: whether it was the last is a coin toss.
        self.kinds_left &= !(u64::from(self.avail[kind] == 0) << (kind & 63));
    }

    /// Puts a piece of `kind` back.
    #[inline(always)]
    pub(crate) fn put_back(&mut self, kind: usize) {
        self.avail[kind] += 1;
        self.state += self.t.slabs.radix[kind];
        self.kinds_left |= 1u64 << (kind & 63);
    }
}

/// Bit `k` set when a piece of kind `k` is left (kinds past 63 fold onto
/// lower bits: only [`CellFits`], built for at most 18 kinds, reads it).
fn kinds_left(avail: &[u16]) -> u64 {
    avail
        .iter()
        .enumerate()
        .filter(|(_, a)| **a > 0)
        .fold(0, |bits, (k, _)| bits | 1u64 << (k & 63))
}
