//! Exact cover of the box's cells by piece placements.
//!
//! Design (why it is fast):
//! - Every placement of every distinct piece shape ("kind") is one bit mask
//!   over the box ([`Mask`]: `u64`, `u128` or [`Wide`]). Collision is one
//!   AND.
//! - The search always fills the lowest empty cell. Any placement covering
//!   it has that cell as its lowest cell, so placements are listed per
//!   lowest cell and grouped by kind; a kind with no piece left is skipped
//!   as a whole; where cells have at most 256 placements, table lookups
//!   give those of the kinds left that the next 48 cells leave room for,
//!   and only those are tested (`near.rs`). Cells are numbered with the box's shortest axis varying
//!   fastest, which keeps the frontier short.
//! - Near the root both counts branch on the most constrained choice, as
//!   DLX does: the empty cell, or the last piece of a kind, with the
//!   fewest fitting placements (zero ends the branch); see
//!   `search.rs` for how that choice is found cheaply. Deeper it
//!   costs more than it saves, and the search returns to the lowest empty
//!   cell.
//! - Identical pieces form one kind with a count, so their permutations are
//!   never generated: identical pieces are interchangeable by construction.
//! - After each placement, an empty cell with no empty neighbour (when no
//!   piece is a single cube) ends the branch: three shifts per axis. In a
//!   box two cells thick, so does a layer whose empty cells no sum of what
//!   the pieces left can put into it matches (a table lookup); see
//!   `prune.rs`.
//! - Distinct solutions are orbits under the box's symmetry group (its
//!   rotations, plus reflections when the mirrored piece set is the set).
//!   They are counted by symmetry breaking: one piece that occurs once and
//!   is its own mirror image is restricted to one placement per orbit of
//!   the group (the piece whose orbits keep the least of its placements,
//!   `count.rs`). A representative with a trivial stabiliser contributes each
//!   of its solutions once; only the rare representatives that some
//!   symmetry fixes (a piece on a mid-plane) test their solutions for being
//!   the smallest image under that stabiliser. The raw count comes from
//!   the same search: each representative's count times its orbit size.
//! - Counts run on every core, and in shards: [`crate::count`].

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::count::{CountOptions, CountReport};
use super::cover::CoverBits;
use super::depth::{PLAIN_CHOOSE_DEPTH, count_choose_depth};
use super::geometry::{Cell, mirror_signature, orientations, signature, symmetries};
use super::level::MAX_VOLUME;
use super::mask::{Mask, Wide};
use super::near::CellFits;
use super::prune::{SlabTests, layers_of_two};
use super::search::{FirstAccepted, Search, Tally};
pub use super::validate::{Effort, Verdict, Within};

/// Why the solver could not run or finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The cancel flag was raised.
    #[error("the solve was cancelled")]
    Cancelled,
    /// The box exceeds what the solver handles.
    #[error("a box of {0} cells is larger than the solver's {MAX_VOLUME}-cell limit")]
    TooLarge(usize),
    /// The worker threads could not start.
    #[error("cannot start the solver's threads: {0}")]
    Threads(String),
    /// A piece has no cells.
    #[error("piece {0} has no cells")]
    EmptyPiece(usize),
    /// The tables would not fit the memory budget
    /// ([`crate::budget::over_budget`]).
    #[error("{0}")]
    OverBudget(String),
}

/// Solution counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Every filling of the box (identical pieces interchangeable).
    pub solutions: u64,
    /// Fillings up to the box's symmetries.
    pub distinct: u64,
}

/// How far a long solve has come, reported between sub-searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Sub-searches finished.
    pub done: usize,
    /// Sub-searches in all.
    pub total: usize,
    /// Counts so far.
    pub counts: Counts,
}

impl Progress {
    /// Fraction done, 0 to 1.
    pub fn fraction(&self) -> f32 {
        if self.total == 0 {
            1.0
        } else {
            self.done as f32 / self.total as f32
        }
    }
}

/// A full packing: for each piece (level order), its 0-based box cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Cells of piece `i`, sorted.
    pub pieces: Vec<Vec<Cell>>,
}

/// A piece already fixed in the box before a search (hints).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    /// Index of the piece in the level.
    pub piece: usize,
    /// Its 0-based box cells.
    pub cells: Vec<Cell>,
}

/// The solver for one box and piece list; build once, query many times.
pub struct Solver {
    size: [usize; 3],
    /// Kind of each piece.
    piece_kind: Vec<usize>,
    /// Pieces of each kind, level order.
    kind_pieces: Vec<Vec<usize>>,
    /// Cells in the box minus cells in the pieces.
    volume_balance: i64,
    inner: Inner,
}

enum Inner {
    Small(Tables<u64>),
    Medium(Tables<u128>),
    Large(Box<Tables<Wide>>),
}

macro_rules! dispatch {
    ($self:expr, $t:ident => $body:expr) => {
        match &$self.inner {
            Inner::Small($t) => $body,
            Inner::Medium($t) => $body,
            Inner::Large($t) => {
                let $t: &Tables<Wide> = $t;
                $body
            }
        }
    };
}

impl Solver {
    /// Prepares every placement of every piece. `shapes` are 0-based cells.
    pub fn new(size: [usize; 3], shapes: &[Vec<Cell>]) -> Result<Self, SolveError> {
        let volume = size[0] * size[1] * size[2];
        if volume > MAX_VOLUME as usize || size.contains(&0) {
            return Err(SolveError::TooLarge(volume));
        }
        if let Some(i) = shapes.iter().position(Vec::is_empty) {
            return Err(SolveError::EmptyPiece(i));
        }
        if let Some(why) = crate::budget::over_budget(size, shapes) {
            return Err(SolveError::OverBudget(why));
        }
        let mut signatures: Vec<Vec<Cell>> = Vec::new();
        let mut kind_pieces: Vec<Vec<usize>> = Vec::new();
        let mut piece_kind = Vec::with_capacity(shapes.len());
        for (i, shape) in shapes.iter().enumerate() {
            let sig = signature(shape);
            let kind = match signatures.iter().position(|s| *s == sig) {
                Some(k) => k,
                None => {
                    signatures.push(sig);
                    kind_pieces.push(Vec::new());
                    signatures.len() - 1
                }
            };
            kind_pieces[kind].push(i);
            piece_kind.push(kind);
        }
        let cells: usize = shapes.iter().map(Vec::len).sum();
        let layout = Layout::new(size);
        let inner = if volume <= 64 {
            Inner::Small(Tables::build(&layout, &signatures, &kind_pieces))
        } else if volume <= 128 {
            Inner::Medium(Tables::build(&layout, &signatures, &kind_pieces))
        } else {
            Inner::Large(Box::new(Tables::build(&layout, &signatures, &kind_pieces)))
        };
        Ok(Self {
            size,
            piece_kind,
            kind_pieces,
            volume_balance: volume as i64 - cells as i64,
            inner,
        })
    }

    /// The box extents.
    pub fn size(&self) -> [usize; 3] {
        self.size
    }

    /// How many distinct piece shapes the level has.
    pub fn kinds(&self) -> usize {
        self.kind_pieces.len()
    }

    /// How many placements (kind, position, orientation) exist in all.
    pub fn placements(&self) -> usize {
        dispatch!(self, t => t.masks.len())
    }

    /// The number of symmetries of the box that distinct counts fold by.
    pub fn symmetry_order(&self) -> usize {
        dispatch!(self, t => t.group.len())
    }

    /// The first solution found, or `None` when there is none.
    pub fn first(&self, cancel: &AtomicBool) -> Result<Option<Solution>, SolveError> {
        self.first_from(&[], cancel)
    }

    /// The first solution that keeps the `fixed` pieces where they are, or
    /// `None` when the box can no longer be completed.
    pub fn first_from(
        &self,
        fixed: &[Fixed],
        cancel: &AtomicBool,
    ) -> Result<Option<Solution>, SolveError> {
        self.first_from_where(fixed, cancel, |_| true)
    }

    /// The first solution that keeps the `fixed` pieces where they are and
    /// that `accept` takes (the search goes on past the ones it refuses),
    /// or `None` when there is none.
    pub fn first_from_where(
        &self,
        fixed: &[Fixed],
        cancel: &AtomicBool,
        mut accept: impl FnMut(&Solution) -> bool,
    ) -> Result<Option<Solution>, SolveError> {
        if self.volume_balance != 0 {
            return Ok(None);
        }
        let mut accept_placed =
            |placed: &[(usize, Vec<Cell>)]| accept(&self.assign(placed.to_vec(), fixed.to_vec()));
        let found = dispatch!(self, t => t.first_from(self, fixed, cancel, &mut accept_placed))?;
        Ok(found.map(|(kinds_cells, fixed)| self.assign(kinds_cells, fixed)))
    }

    /// Up to `limit` distinct solutions (no two the same up to the box's
    /// symmetries), stopping as soon as it has them: the validator's
    /// questions, [`Verdict`] for "is there one?" and "is it unique?".
    /// On the calling thread; `cancel` stops it.
    pub fn distinct(&self, limit: usize, cancel: &AtomicBool) -> Result<Vec<Solution>, SolveError> {
        Ok(self.distinct_within(limit, u64::MAX, cancel)?.found)
    }

    /// [`Solver::distinct`] stopped after about `budget` search nodes too:
    /// the generator's cheap first question about a candidate design.
    pub fn distinct_within(
        &self,
        limit: usize,
        budget: u64,
        cancel: &AtomicBool,
    ) -> Result<Within<Solution>, SolveError> {
        if self.volume_balance != 0 || limit == 0 {
            let complete = true;
            return Ok(Within {
                found: Vec::new(),
                nodes: 0,
                complete,
            });
        }
        dispatch!(self, t => t.distinct_up_to(limit, budget, cancel)
            .map(|w| w.map(|c| self.assign(t.placed(&c), Vec::new()))))
    }

    /// [`Solver::distinct`] on `threads` threads (0: every core), the same
    /// answer on any number ([`crate::count`]): the proof of a large box.
    pub fn distinct_parallel(
        &self,
        limit: usize,
        threads: usize,
        cancel: &AtomicBool,
    ) -> Result<Within<Solution>, SolveError> {
        if self.volume_balance != 0 || limit == 0 {
            return self.distinct_within(limit, 0, cancel);
        }
        dispatch!(self, t => t.distinct_parallel(limit, threads, cancel)
            .map(|w| w.map(|c| self.assign(t.placed(&c), Vec::new()))))
    }

    /// Whether the level has no solution, exactly one up to the box's
    /// symmetries, or more (it stops at the second).
    pub fn verdict(&self, cancel: &AtomicBool) -> Result<Verdict, SolveError> {
        Ok(Verdict::of(self.distinct(2, cancel)?))
    }

    /// The effort of a plain depth-first search to the first packing
    /// ([`Effort`]: nodes, dead ends), the difficulty estimate of a
    /// generated level. On the calling thread; `cancel` stops it.
    pub fn effort(&self, cancel: &AtomicBool) -> Result<Effort, SolveError> {
        if self.volume_balance != 0 {
            return Ok(Effort::default());
        }
        dispatch!(self, t => t.effort(cancel))
    }

    /// The first solution that comes apart by straight slides (see
    /// [`crate::disassembly`]), or `None` when every packing interlocks
    /// (or there is none). On the calling thread; `cancel` stops it.
    pub fn first_assemblable(&self, cancel: &AtomicBool) -> Result<Option<Solution>, SolveError> {
        if self.volume_balance != 0 {
            return Ok(None);
        }
        let found = dispatch!(self, t => t.first_assemblable(cancel))?;
        Ok(found.map(|placed| self.assign(placed, Vec::new())))
    }

    /// Counts all solutions and the distinct ones, in one symmetry-broken
    /// search. `progress` is called between sub-searches (never per node).
    pub fn count(
        &self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Counts, SolveError> {
        if self.volume_balance != 0 {
            return Ok(Counts::default());
        }
        let report = self.count_with(&CountOptions::default(), cancel, progress)?;
        if !report.complete {
            return Err(SolveError::Cancelled);
        }
        Ok(report.counts)
    }

    /// How many subtrees the fixed enumeration of a count cuts the search
    /// into (shards take them in turn).
    pub fn subtrees(&self, cancel: &AtomicBool) -> Result<usize, SolveError> {
        if self.volume_balance != 0 {
            return Ok(0);
        }
        dispatch!(self, t => t.subtrees(true, cancel).map(|s| s.len()))
    }

    /// Counts on `options.threads` cores, the subtrees of `options.shard`
    /// only (see [`crate::count`]). A cancel returns what finished, marked
    /// incomplete. `progress` is called on the calling thread, about ten
    /// times a second.
    pub fn count_with(
        &self,
        options: &CountOptions,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<CountReport, SolveError> {
        if self.volume_balance != 0 {
            return Ok(CountReport {
                counts: Counts::default(),
                done: 0,
                total: 0,
                subtrees: 0,
                complete: true,
                nodes: 0,
                threads: 0,
            });
        }
        dispatch!(self, t => t.count_parallel(options, cancel, progress))
    }

    /// Counts every solution by plain search with no symmetry breaking (a
    /// cross-check of [`Solver::count`], and the raw benchmark figure).
    pub fn count_plain(&self, cancel: &AtomicBool) -> Result<u64, SolveError> {
        if self.volume_balance != 0 {
            return Ok(0);
        }
        dispatch!(self, t => t.count_plain(cancel))
    }

    /// Turns (kind, cells) placements into per-piece cells.
    fn assign(&self, placed: Vec<(usize, Vec<Cell>)>, fixed: Vec<Fixed>) -> Solution {
        let mut pieces: Vec<Vec<Cell>> = vec![Vec::new(); self.piece_kind.len()];
        let mut taken = vec![false; self.piece_kind.len()];
        for f in fixed {
            if let Some(slot) = pieces.get_mut(f.piece) {
                let mut cells = f.cells;
                cells.sort_unstable();
                *slot = cells;
                taken[f.piece] = true;
            }
        }
        for (kind, cells) in placed {
            let Some(&piece) = self.kind_pieces[kind].iter().find(|&&p| !taken[p]) else {
                continue;
            };
            taken[piece] = true;
            pieces[piece] = cells;
        }
        Solution { pieces }
    }
}

/// How box cells map to solver bits: the shortest axis varies fastest.
struct Layout {
    size: [usize; 3],
    stride: [usize; 3],
    volume: usize,
}

impl Layout {
    fn new(size: [usize; 3]) -> Self {
        // Thinnest axis slowest (fill one slab, then the next); of the two
        // others the shorter varies fastest. Measured on 2x5x6 this is 3x
        // faster than shortest-fastest; on flat boxes they coincide.
        let mut by_size = [0, 1, 2];
        by_size.sort_by_key(|&a| size[a]);
        // Of the six axis orders this is the fastest on 2x5x6 and on
        // 6x10 (measured).
        let axes = [by_size[1], by_size[2], by_size[0]];

        let mut stride = [0; 3];
        stride[axes[0]] = 1;
        stride[axes[1]] = size[axes[0]];
        stride[axes[2]] = size[axes[0]] * size[axes[1]];
        Self {
            size,
            stride,
            volume: size[0] * size[1] * size[2],
        }
    }

    fn contains(&self, c: Cell) -> bool {
        (0..3).all(|a| c[a] >= 0 && (c[a] as usize) < self.size[a])
    }

    fn bit(&self, c: Cell) -> usize {
        (0..3).map(|a| c[a] as usize * self.stride[a]).sum()
    }

    fn cell(&self, bit: usize) -> Cell {
        std::array::from_fn(|a| ((bit / self.stride[a]) % self.size[a]) as i32)
    }
}

/// One symmetry of the box acting on bits and on kinds.
pub(crate) struct Symmetry {
    /// Where each bit goes.
    perm: Vec<u16>,
    /// Which kind each kind becomes (reflections swap mirror pairs).
    pub(crate) kind_map: Vec<usize>,
}

/// A run of placements of one kind in `Tables::masks`.
#[derive(Clone, Copy)]
pub(crate) struct Group {
    pub(crate) kind: u32,
    pub(crate) start: u32,
    pub(crate) end: u32,
}

/// Everything the search reads, for one mask width.
pub(crate) struct Tables<M: Mask> {
    pub(crate) volume: usize,
    /// Bits outside the box, set from the start.
    pub(crate) outside: M,
    pub(crate) kinds: usize,
    pub(crate) counts: Vec<u16>,
    /// Per cell, a range into `groups`.
    pub(crate) cell_groups: Vec<u32>,
    pub(crate) groups: Vec<Group>,
    /// Per cell, which of its placements the cells just after it leave
    /// room for, kinds left included, when cells have few enough
    /// placements ([`crate::near`]).
    pub(crate) cell_fits: Option<CellFits>,
    pub(crate) masks: Vec<M>,
    /// The counting test on slabs ([`crate::prune`]).
    pub(crate) slabs: SlabTests<M>,
    pub(crate) placement_kind: Vec<u32>,
    pub(crate) placement_bits: Vec<Vec<u16>>,
    pub(crate) by_mask: HashMap<(usize, M), u32>,
    /// (stride, cells with a + neighbour, cells with a - neighbour) per
    /// axis longer than 1.
    pub(crate) neighbours: Vec<(u32, M, M)>,
    /// Cells in the smallest piece (decides which pockets are dead).
    pub(crate) smallest: usize,
    pub(crate) layout_cells: Vec<Cell>,
    pub(crate) bit_of: HashMap<Cell, usize>,
    /// The box's symmetry group (identity first), as it acts on solutions.
    pub(crate) group: Vec<Symmetry>,
    /// How many placements deep the count takes the most constrained
    /// choice (see `depth.rs`).
    pub(crate) choose_depth: usize,
    /// `images[g][p]`: the placement `p` becomes under symmetry `g`.
    pub(crate) images: Vec<Vec<u32>>,
    /// The placements as bit sets, for the most constrained levels
    /// ([`crate::cover`]); `None`: too many placements, the levels keep
    /// lists.
    pub(crate) cover: Option<CoverBits>,
    /// `masks` padded with empty masks to the words of `cover`'s sets
    /// (empty without them): the child set's loop reads 64 to a word.
    pub(crate) set_masks: Vec<M>,
}

pub(crate) const NONE: u32 = u32::MAX;

/// Nodes the first-solution search spends in lowest-cell order before it
/// starts again most constrained first (`Tables::first_from`).
const PLAIN_FIRST_NODES: u64 = 1 << 20;

impl<M: Mask> Tables<M> {
    fn build(layout: &Layout, signatures: &[Vec<Cell>], kind_pieces: &[Vec<usize>]) -> Self {
        let volume = layout.volume;
        let mut outside = M::ZERO;
        for b in volume..M::BITS {
            outside = outside.or(M::bit(b));
        }
        let layout_cells: Vec<Cell> = (0..volume).map(|b| layout.cell(b)).collect();
        let bit_of: HashMap<Cell, usize> = layout_cells
            .iter()
            .enumerate()
            .map(|(b, &c)| (c, b))
            .collect();

        // Every placement: (lowest bit, kind, mask, bits).
        let mut all: Vec<(usize, usize, M, Vec<u16>)> = Vec::new();
        for (kind, shape) in signatures.iter().enumerate() {
            for orientation in orientations(shape) {
                let extent = orientation.cells.iter().fold([0; 3], |m, c| {
                    [m[0].max(c[0]), m[1].max(c[1]), m[2].max(c[2])]
                });
                for dz in 0..layout.size[2] as i32 - extent[2] {
                    for dy in 0..layout.size[1] as i32 - extent[1] {
                        for dx in 0..layout.size[0] as i32 - extent[0] {
                            let mut mask = M::ZERO;
                            let mut bits = Vec::with_capacity(orientation.cells.len());
                            for c in &orientation.cells {
                                let b = layout.bit([c[0] + dx, c[1] + dy, c[2] + dz]);
                                mask = mask.or(M::bit(b));
                                bits.push(b as u16);
                            }
                            bits.sort_unstable();
                            all.push((bits[0] as usize, kind, mask, bits));
                        }
                    }
                }
            }
        }
        all.sort_by_key(|(low, kind, _, bits)| (*low, *kind, bits.clone()));

        let mut cell_groups = vec![0u32; volume + 1];
        let mut groups: Vec<Group> = Vec::new();
        let mut masks = Vec::with_capacity(all.len());
        let mut placement_kind = Vec::with_capacity(all.len());
        let mut placement_bits = Vec::with_capacity(all.len());
        let mut by_mask = HashMap::with_capacity(all.len());
        let mut cell = 0;
        for (i, (low, kind, mask, bits)) in all.into_iter().enumerate() {
            while cell < low {
                cell += 1;
                cell_groups[cell] = groups.len() as u32;
            }
            let in_cell = groups.len() as u32 > cell_groups[low];
            match groups.last_mut() {
                Some(g) if g.kind == kind as u32 && in_cell => {
                    g.end = i as u32 + 1;
                }
                _ => groups.push(Group {
                    kind: kind as u32,
                    start: i as u32,
                    end: i as u32 + 1,
                }),
            }
            masks.push(mask);
            placement_kind.push(kind as u32);
            placement_bits.push(bits);
            by_mask.insert((kind, mask), i as u32);
        }
        while cell < volume {
            cell += 1;
            cell_groups[cell] = groups.len() as u32;
        }

        let mut neighbours = Vec::new();
        for axis in 0..3 {
            if layout.size[axis] < 2 {
                continue;
            }
            let (mut plus, mut minus) = (M::ZERO, M::ZERO);
            for (b, c) in layout_cells.iter().enumerate() {
                if (c[axis] as usize) + 1 < layout.size[axis] {
                    plus = plus.or(M::bit(b));
                }
                if c[axis] > 0 {
                    minus = minus.or(M::bit(b));
                }
            }
            neighbours.push((layout.stride[axis] as u32, plus, minus));
        }
        let smallest = signatures.iter().map(Vec::len).min().unwrap_or(1);
        let counts: Vec<u16> = kind_pieces.iter().map(|p| p.len() as u16).collect();

        // 6 KB a cell and word: up to 1.5 MB for 128 cells; bigger boxes
        // (rare, and slow for other reasons) keep the loop over kinds.
        let cell_fits = (volume <= 128)
            .then(|| {
                CellFits::build(
                    &groups,
                    &cell_groups,
                    &placement_bits,
                    &placement_kind,
                    signatures.len(),
                )
            })
            .flatten();
        let slabs = SlabTests::build(
            &layers_of_two(layout.size, &layout_cells),
            &counts,
            &placement_kind,
            &masks,
        );
        let cover = CoverBits::build(volume, signatures.len(), &placement_bits, &placement_kind);
        let mut set_masks = Vec::new();
        if let Some(cover) = &cover {
            set_masks = masks.clone();
            set_masks.resize(cover.words * 64, M::ZERO);
        }
        let mut tables = Self {
            cover,
            set_masks,
            volume,
            outside,
            kinds: signatures.len(),
            counts,
            cell_groups,
            groups,
            cell_fits,
            masks,
            slabs,
            placement_kind,
            placement_bits,
            by_mask,
            neighbours,
            smallest,
            layout_cells,
            bit_of,
            group: Vec::new(),
            images: Vec::new(),
            choose_depth: count_choose_depth(layout.size, signatures),
        };
        tables.group = tables.symmetry_group(layout, signatures, kind_pieces);
        tables.images = tables
            .group
            .iter()
            .map(|g| {
                (0..tables.masks.len())
                    .map(|p| tables.image(g, p))
                    .collect()
            })
            .collect();
        tables
    }

    /// The box's rotations, plus its reflections when the mirror image of
    /// the piece set is the same set; as distinct actions on solutions.
    fn symmetry_group(
        &self,
        layout: &Layout,
        signatures: &[Vec<Cell>],
        kind_pieces: &[Vec<usize>],
    ) -> Vec<Symmetry> {
        let mirror: Option<Vec<usize>> = signatures
            .iter()
            .enumerate()
            .map(|(k, shape)| {
                let ms = mirror_signature(shape);
                let m = signatures.iter().position(|s| *s == ms)?;
                (kind_pieces[m].len() == kind_pieces[k].len()).then_some(m)
            })
            .collect();
        let identity_kinds: Vec<usize> = (0..signatures.len()).collect();
        let mut group: Vec<Symmetry> = Vec::new();
        for r in symmetries() {
            let kind_map = if r.determinant() > 0 {
                identity_kinds.clone()
            } else {
                match &mirror {
                    Some(m) => m.clone(),
                    None => continue,
                }
            };
            let mut perm = Vec::with_capacity(self.volume);
            let mut fits = true;
            for c in &self.layout_cells {
                // Rotate about the box centre, in doubled coordinates.
                let centred: Cell = std::array::from_fn(|a| 2 * c[a] - (layout.size[a] as i32 - 1));
                let turned = r.apply(centred);
                let back: Cell =
                    std::array::from_fn(|a| (turned[a] + layout.size[a] as i32 - 1) / 2);
                let exact = (0..3).all(|a| (turned[a] + layout.size[a] as i32 - 1) % 2 == 0);
                if !exact || !layout.contains(back) {
                    fits = false;
                    break;
                }
                perm.push(layout.bit(back) as u16);
            }
            if !fits {
                continue;
            }
            if group
                .iter()
                .any(|g| g.perm == perm && g.kind_map == kind_map)
            {
                continue;
            }
            group.push(Symmetry { perm, kind_map });
        }
        group
    }

    /// Placement `p` under symmetry `g` (`NONE` if it has no image, which a
    /// true symmetry never produces).
    fn image(&self, g: &Symmetry, p: usize) -> u32 {
        let mut mask = M::ZERO;
        for &b in &self.placement_bits[p] {
            mask = mask.or(M::bit(g.perm[b as usize] as usize));
        }
        let kind = g.kind_map[self.placement_kind[p] as usize];
        self.by_mask.get(&(kind, mask)).copied().unwrap_or(NONE)
    }

    pub(crate) fn cells_of(&self, p: usize) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self.placement_bits[p]
            .iter()
            .map(|&b| self.layout_cells[b as usize])
            .collect();
        cells.sort_unstable();
        cells
    }

    /// The start state with `fixed` pieces in: filled mask and pieces left.
    fn start_from(&self, solver: &Solver, fixed: &[Fixed]) -> Option<(M, Vec<u16>)> {
        let mut filled = self.outside;
        let mut avail = self.counts.clone();
        for f in fixed {
            let kind = *solver.piece_kind.get(f.piece)?;
            if avail[kind] == 0 {
                return None;
            }
            avail[kind] -= 1;
            for c in &f.cells {
                let b = *self.bit_of.get(c)?;
                if filled.test(b) {
                    return None;
                }
                filled = filled.or(M::bit(b));
            }
        }
        Some((filled, avail))
    }

    #[allow(clippy::type_complexity)]
    fn first_from(
        &self,
        solver: &Solver,
        fixed: &[Fixed],
        cancel: &AtomicBool,
        accept: &mut dyn FnMut(&[(usize, Vec<Cell>)]) -> bool,
    ) -> Result<Option<(Vec<(usize, Vec<Cell>)>, Vec<Fixed>)>, SolveError> {
        let Some((filled, avail)) = self.start_from(solver, fixed) else {
            return Ok(None);
        };
        // Lowest cell first, whose answers the replays and snapshots hold;
        // past a budget (a design made for the most constrained choice,
        // such as a skewed 4x4x4, sends it through billions of nodes) the
        // search starts again taking the most constrained choice first.
        let visitor = FirstAccepted {
            accept,
            found: None,
        };
        let mut search = Search::new(self, avail.clone(), cancel, visitor);
        search.node_limit = PLAIN_FIRST_NODES;
        search.go(filled);
        if search.over_budget {
            let visitor = FirstAccepted {
                accept: search.visitor.accept,
                found: None,
            };
            search = Search::new(self, avail, cancel, visitor);
            search.choose_depth = self.choose_depth.max(PLAIN_CHOOSE_DEPTH);
            search.go(filled);
        }
        if search.cancelled {
            return Err(SolveError::Cancelled);
        }
        Ok(search.visitor.found.map(|chosen| {
            let placed = chosen
                .iter()
                .map(|&p| {
                    (
                        self.placement_kind[p as usize] as usize,
                        self.cells_of(p as usize),
                    )
                })
                .collect();
            (placed, fixed.to_vec())
        }))
    }

    fn count_plain(&self, cancel: &AtomicBool) -> Result<u64, SolveError> {
        let mut search = Search::new(self, self.counts.clone(), cancel, Tally { count: 0 });
        search.choose_depth = PLAIN_CHOOSE_DEPTH;
        search.go(self.outside);
        if search.cancelled {
            return Err(SolveError::Cancelled);
        }
        Ok(search.visitor.count)
    }
}

/// The solver of a level in `levels/polycube/` (for tests).
#[cfg(test)]
fn bundled_solver(name: &str) -> Solver {
    let levels = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../levels/polycube/");
    let path = std::path::PathBuf::from(levels).join(name);
    let Ok((level, _)) = crate::import::load_any(&path) else {
        panic!("{name} does not load");
    };
    let Ok(solver) = Solver::new(level.extents(), &level.shapes()) else {
        panic!("{name} has no solver");
    };
    solver
}

#[cfg(test)]
mod bit_set_tests {
    use super::*;
    use crate::search::Canonical;

    /// Each symmetry root's search (and the plain search from the empty
    /// box) with the levels' bit sets or their lists: raw and distinct
    /// solutions, nodes, and whether the node budget stopped it.
    fn searches<M: Mask>(t: &Tables<M>, bit_sets: bool, budget: u64) -> Vec<(u64, u64, u64, bool)> {
        let cancel = AtomicBool::new(false);
        let mut roots = t.symmetry_roots();
        roots.push(crate::count::Subtree {
            filled: t.outside,
            avail: t.counts.clone(),
            chosen: Vec::new(),
            multiplier: 1,
            stabiliser: Vec::new(),
        });
        let plain = roots.len() - 1;
        roots
            .iter()
            .enumerate()
            .map(|(i, root)| {
                let visitor = Canonical::new(t.volume, root.stabiliser.clone(), None);
                let mut search = Search::new(t, root.avail.clone(), &cancel, visitor);
                search.bit_sets = bit_sets;
                search.choose_depth = if i == plain {
                    PLAIN_CHOOSE_DEPTH
                } else {
                    t.choose_depth
                };
                search.chosen = root.chosen.clone();
                search.node_limit = budget;
                search.go(root.filled);
                let v = &search.visitor;
                (v.raw, v.canonical, search.nodes, search.over_budget)
            })
            .collect()
    }

    #[test]
    fn bit_sets_and_lists_search_the_same_tree() {
        for (name, budget, solutions) in [
            ("pentacubes_2x5x6.ron", u64::MAX, 2112),
            ("soma.ron", u64::MAX, 11520),
            ("pentacubes_3x4x5.ron", 1 << 18, 0),
            ("bedlam.ron", 1 << 18, 0),
        ] {
            let solver = bundled_solver(name);
            let (sets, lists) = dispatch!(solver, t => {
                let Some(cover) = &t.cover else {
                    panic!("{name} has no bit sets");
                };
                for (p, &m) in t.masks.iter().enumerate() {
                    assert!(cover.agrees(p, m, t.volume), "{name}: placement {p}");
                }
                (searches(t, true, budget), searches(t, false, budget))
            });
            assert_eq!(sets, lists, "{name}: bit sets against lists");
            let roots = &sets[..sets.len() - 1];
            assert!(sets.iter().all(|s| s.2 > 0), "{name}: every search ran");
            if solutions > 0 {
                // The plain search finds every solution; the roots, each
                // times its orbit, as many.
                assert_eq!(sets[sets.len() - 1].0, solutions, "{name}: plain count");
                assert!(roots.iter().any(|r| r.0 > 0), "{name}: roots found some");
            } else {
                assert!(roots.iter().any(|r| r.3), "{name}: the budget stops some");
            }
        }
    }
}

#[cfg(test)]
mod breaking_tests {
    use super::*;

    /// The breaking kind's placements and orbits in `name`, and the
    /// symmetry-broken search's roots (one per orbit that isolates no cell).
    fn breaking(name: &str) -> (u64, u64, usize) {
        let solver = bundled_solver(name);
        dispatch!(solver, t => {
            let Some(orbits) = t.breaking_kind().and_then(|k| t.orbits(k)) else {
                panic!("{name} has no breaking kind");
            };
            let placements = orbits.iter().map(|&(_, size)| size).sum();
            (placements, orbits.len() as u64, t.symmetry_roots().len())
        })
    }

    /// The 3x4x5 box's X pentacube has the fewest placements (12), but
    /// every one is fixed by a symmetry: its 4 orbits keep a third of its
    /// tree, and the count took 24.1M nodes. The chosen kind keeps 15%
    /// (24 orbits of 160 placements). Bedlam's pieces have no fixed
    /// placements, so the one of fewest placements stays (48 in 2 orbits).
    #[test]
    fn the_breaking_piece_keeps_the_least_of_its_tree() {
        assert_eq!(breaking("pentacubes_3x4x5.ron"), (160, 24, 24));
        assert_eq!(breaking("bedlam.ron"), (48, 2, 2));
    }
}
