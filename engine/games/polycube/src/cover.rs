//! The placements that still fit, as bit sets over the placements, for the
//! search's most constrained levels (`search.rs`).
//!
//! A list of fitting placements costs each child a pass over its parent's
//! whole list (about 30 instructions a placement: 657M placements for the
//! 3x4x5 box, two thirds of its time). As a bit set, a child's set is its
//! parent's less the placements that meet the one just placed: an AND-NOT
//! of the sets of its five cells, a few dozen words. The counts per cell
//! and per kind are the parent's, less those of the placements that drop
//! out (about a third of them a level): no pass over the ones that stay.
//!
//! The bit sets are in placement order, the order the lists kept, so the
//! children come in the same order and the search tree is the same.

use super::mask::Mask;
use super::search::{COUNTER_BITS, Choice, Counters, Search, Visitor};

/// Bits per cell of the exact counts of the bit-set levels: up to 2047
/// placements on a cell.
pub(crate) const PLANES: usize = 11;

/// Boxes with more placements than this keep the lists (a set of more
/// than 128 words costs a child more than its list does).
pub(crate) const MAX_PLACEMENTS: usize = 128 * 64;

/// Boxes with more kinds keep the lists: a level's counts per kind are
/// an array of this many (a fixed size, so that indexing it by a byte
/// needs no bounds check in the child set's loop).
pub(crate) const MAX_KINDS: usize = 64;

/// The bit sets of one box's placements.
pub(crate) struct CoverBits {
    /// Words in a set of placements.
    pub(crate) words: usize,
    /// Per cell, the placements that cover it (`words` each), and an
    /// empty set after the last cell (the padding's).
    pub(crate) cell: Vec<u64>,
    /// Per cell, the words where its set has bits: `[lo, hi)`.
    pub(crate) range: Vec<(u32, u32)>,
    /// Per kind, its placements (`words` each).
    pub(crate) kind: Vec<u64>,
    /// Each placement's kind in a byte (a quarter of the cache lines of
    /// the `u32` table), 64 to a word of the sets (the last padded).
    pub(crate) kind8: Vec<[u8; 64]>,
    /// Cells per placement in `cells` (the largest piece's).
    pub(crate) stride: usize,
    /// Each placement's cells, `stride` each; a smaller piece is padded
    /// with the box's volume (a spare counter).
    pub(crate) cells: Vec<u16>,
}

impl CoverBits {
    /// The sets of `placement_bits` (each placement's cells) of kinds
    /// `placement_kind`, or `None` for a box with more than
    /// [`MAX_PLACEMENTS`].
    pub(crate) fn build(
        volume: usize,
        kinds: usize,
        placement_bits: &[Vec<u16>],
        placement_kind: &[u32],
    ) -> Option<Self> {
        let placements = placement_bits.len();
        if placements > MAX_PLACEMENTS || volume >= usize::from(u16::MAX) || kinds > MAX_KINDS {
            return None;
        }
        let words = placements.div_ceil(64).max(1);
        let stride = placement_bits.iter().map(Vec::len).max().unwrap_or(1);
        let mut cell = vec![0u64; (volume + 1) * words];
        let mut kind = vec![0u64; kinds * words];
        let mut cells = vec![volume as u16; placements * stride];
        for (p, (bits, &k)) in placement_bits.iter().zip(placement_kind).enumerate() {
            let (w, bit) = (p / 64, 1u64 << (p % 64));
            *kind.get_mut(k as usize * words + w)? |= bit;
            for (j, &b) in bits.iter().enumerate() {
                *cell.get_mut(usize::from(b) * words + w)? |= bit;
                cells[p * stride + j] = b;
            }
        }
        // Counts per cell are kept in `PLANES` bits.
        let most = cell
            .chunks(words)
            .take(volume)
            .map(|set| set.iter().map(|w| w.count_ones()).sum::<u32>())
            .max()
            .unwrap_or(0);
        if most >= 1 << PLANES {
            return None;
        }
        let range = cell
            .chunks(words)
            .take(volume)
            .map(|set| {
                let lo = set.iter().position(|&x| x != 0).unwrap_or(0);
                let hi = set.iter().rposition(|&x| x != 0).map_or(lo, |i| i + 1);
                (lo as u32, hi as u32)
            })
            .collect();
        Some(Self {
            words,
            cell,
            range,
            kind,
            kind8: (0..words)
                .map(|w| {
                    std::array::from_fn(|i| placement_kind.get(w * 64 + i).map_or(0, |&k| k as u8))
                })
                .collect(),
            stride,
            cells,
        })
    }

    /// The set of the placements covering cell `c`, word `w`.
    #[inline(always)]
    pub(crate) fn cell_word(&self, c: usize, w: usize) -> u64 {
        self.cell[c * self.words + w]
    }

    /// Whether placement `p`'s mask agrees with its cells here (a check
    /// for tests).
    #[cfg(test)]
    pub(crate) fn agrees<M: Mask>(&self, p: usize, mask: M, volume: usize) -> bool {
        let from_cells = self.cells[p * self.stride..(p + 1) * self.stride]
            .iter()
            .filter(|&&b| usize::from(b) < volume)
            .fold(M::ZERO, |m, &b| m.or(M::bit(usize::from(b))));
        from_cells == mask
            && (0..volume).all(|c| mask.test(c) == (self.cell_word(c, p / 64) >> (p % 64) & 1 == 1))
    }
}

impl<'t, M: Mask, V: Visitor<M>> Search<'t, M, V> {
    /// [`Search::go_constrained`] with bit sets ([`crate::cover`]): the
    /// same choices, children and order as with lists.
    pub(crate) fn go_constrained_sets(&mut self, filled: M, cover: &'t CoverBits) -> bool {
        let t = self.t;
        let level = self.set_parent.map_or(0, |l| l + 1);
        let (words, cells) = (cover.words, PLANES);
        if self.set.len() < (level + 1) * words {
            self.set.resize((level + 1) * words, 0);
            self.per_cell.resize((level + 1) * cells, M::ZERO);
            self.per_kind.resize((level + 1) * MAX_KINDS, 0);
        }
        match (self.set_parent, self.chosen.last()) {
            (Some(parent), Some(&p)) => self.child_set(parent, p as usize, cover),
            _ => self.first_set(level, filled, cover),
        }
        let Some(choice) = self.choose_from_set(level, filled) else {
            return true;
        };
        let mut keep = true;
        let parent = self.set_parent.replace(level);
        let (lo, hi) = match choice {
            Choice::Cell(c) => {
                let (lo, hi) = cover.range[c];
                (lo as usize, hi as usize)
            }
            Choice::Piece(_) => (0, words),
        };
        'words: for w in lo..hi {
            let mut wanted = self.set[level * words + w]
                & match choice {
                    Choice::Cell(c) => cover.cell_word(c, w),
                    Choice::Piece(k) => cover.kind[k as usize * words + w],
                };
            while wanted != 0 {
                let p = w * 64 + wanted.trailing_zeros() as usize;
                wanted &= wanted - 1;
                let m = t.masks[p];
                let kind = t.placement_kind[p] as usize;
                let next = filled.or(m);
                let left = self.state - t.slabs.radix[kind];
                if !t.slabs.possible(next, left) || t.has_isolated(next) {
                    continue;
                }
                self.take(kind);
                self.chosen.push(p as u32);
                keep = self.go(next);
                self.chosen.pop();
                self.put_back(kind);
                if !keep {
                    break 'words;
                }
            }
        }
        self.set_parent = parent;
        keep
    }

    /// The first most-constrained level's set: every placement of a kind
    /// left that fits `filled`, counted per cell and per kind.
    fn first_set(&mut self, level: usize, filled: M, cover: &CoverBits) {
        let t = self.t;
        let words = cover.words;
        let set = &mut self.set[level * words..(level + 1) * words];
        let per_kind = &mut self.per_kind[level * MAX_KINDS..(level + 1) * MAX_KINDS];
        set.fill(0);
        per_kind.fill(0);
        let mut planes = [M::ZERO; PLANES];
        for (p, (&m, &kind)) in t.masks.iter().zip(&t.placement_kind).enumerate() {
            let kind = kind as usize;
            if self.avail[kind] == 0 || !m.and(filled).is_zero() {
                continue;
            }
            set[p / 64] |= 1 << (p % 64);
            per_kind[kind] += 1;
            let mut carry = m;
            for plane in &mut planes {
                let next = plane.and(carry);
                *plane = plane.xor(carry);
                carry = next;
            }
        }
        for (out, plane) in self.per_cell[level * PLANES..(level + 1) * PLANES]
            .iter_mut()
            .zip(planes)
        {
            *out = plane.not();
        }
    }

    /// The level after `parent` once placement `p` is in: the parent's
    /// set less the placements that meet `p` (and those of its kind, when
    /// it was the last piece of it), its counts less theirs.
    fn child_set(&mut self, parent: usize, p: usize, cover: &CoverBits) {
        let t = self.t;
        let (words, cells, kinds) = (cover.words, PLANES, MAX_KINDS);
        let level = parent + 1;
        let kind = t.placement_kind[p] as usize;
        let last = self.avail[kind] == 0;
        self.set
            .copy_within(parent * words..level * words, level * words);
        self.per_cell
            .copy_within(parent * cells..level * cells, level * cells);
        self.per_kind
            .copy_within(parent * kinds..level * kinds, level * kinds);
        let own = &cover.cells[p * cover.stride..(p + 1) * cover.stride];
        // The placements that meet `p`: each of its cells' sets over that
        // cell's own words, streamed into one scratch set (a pass per
        // cell, not five scattered loads per word).
        self.meets.resize(words, 0);
        let meets = &mut self.meets[..];
        let (mut lo, mut hi) = if last {
            meets.copy_from_slice(&cover.kind[kind * words..(kind + 1) * words]);
            (0, words)
        } else {
            meets.fill(0);
            (words, 0)
        };
        for &b in own {
            if let Some(&(l, h)) = cover.range.get(usize::from(b)) {
                let (l, h) = (l as usize, h as usize);
                let row = &cover.cell[usize::from(b) * words..][l..h];
                for (m, &c) in meets[l..h].iter_mut().zip(row) {
                    *m |= c;
                }
                lo = lo.min(l);
                hi = hi.max(h);
            }
        }
        let gone = Gone {
            set: &mut self.set[level * words..(level + 1) * words],
            meets: &self.meets[lo..hi.max(lo)],
            lo,
            masks: t.set_masks.as_chunks().0,
            kinds: &cover.kind8,
            per_kind: self.per_kind[level * kinds..(level + 1) * kinds]
                .as_mut_array()
                .expect("a level's counts per kind are MAX_KINDS long"),
        };
        let mut planes = [M::ZERO; PLANES];
        planes.copy_from_slice(&self.per_cell[level * PLANES..(level + 1) * PLANES]);
        // While every count is under `2^N` the planes from the `N`th up
        // stay all ones (complemented), so only the low `N` take the
        // borrows. Six fit in registers; eleven spilled to the stack. The
        // counts a few placements deep are mostly under 128 on the 3x4x5
        // box (7 planes took 221M of its 322M placements taken off, 8
        // planes 59M, 6 planes 41M) and under 256 or 512 on Bedlam (287M
        // and 111M of 436M), so each width has its own loop.
        let used = planes
            .iter()
            .rposition(|&plane| plane != M::ONES)
            .map_or(0, |i| i + 1);
        match used {
            0..=COUNTER_BITS => gone.take_off::<COUNTER_BITS>(&mut planes),
            7 => gone.take_off::<7>(&mut planes),
            8 => gone.take_off::<8>(&mut planes),
            9 => gone.take_off::<9>(&mut planes),
            _ => gone.take_off::<PLANES>(&mut planes),
        }
        self.per_cell[level * PLANES..(level + 1) * PLANES].copy_from_slice(&planes);
    }

    /// The most constrained choice of a level (see
    /// [`Search::most_constrained`]: the same choice).
    fn choose_from_set(&self, level: usize, filled: M) -> Option<Choice> {
        let t = self.t;
        let per_kind = &self.per_kind[level * MAX_KINDS..level * MAX_KINDS + t.kinds];
        // The lowest empty cell with the fewest placements, counts
        // saturating at 64 as the lists' counters do.
        let planes = &self.per_cell[level * PLANES..(level + 1) * PLANES];
        let mut counters = Counters::ZERO;
        for (out, plane) in counters.planes.iter_mut().zip(planes) {
            *out = plane.not();
        }
        counters.sat = planes[COUNTER_BITS..]
            .iter()
            .fold(M::ZERO, |sat, &plane| sat.or(plane.not()));
        let (cell, best) = counters.smallest(filled.not());
        Choice::most_constrained(cell, best, per_kind, &self.avail)
    }
}

/// The words of a child's set where placements drop out (those meeting
/// the one just placed), to take out of the set and off its counts.
struct Gone<'a, M> {
    /// The child's set (a copy of its parent's).
    set: &'a mut [u64],
    /// From word `lo` on, the placements to take out.
    meets: &'a [u64],
    lo: usize,
    /// The placements' masks and kinds, 64 to a word of the set: a
    /// word's placement is an index under 64, no bounds check.
    masks: &'a [[M; 64]],
    kinds: &'a [[u8; 64]],
    per_kind: &'a mut [u32; MAX_KINDS],
}

impl<M: Mask> Gone<'_, M> {
    /// Takes the placements out of the set and off the counts per kind
    /// and per cell (the low `N` of the complemented `planes`: while
    /// every count is under `2^N`, taking one off never borrows from a
    /// higher plane).
    #[inline(always)]
    fn take_off<const N: usize>(self, planes: &mut [M; PLANES]) {
        // The counts in registers while the placements that drop out are
        // taken off (bit-sliced, borrows rippling up).
        let mut low: [M; N] = std::array::from_fn(|i| planes[i]);
        let words = self.set.iter_mut().zip(self.masks).zip(self.kinds);
        for (((word, masks), kinds), &meets) in words.skip(self.lo).zip(self.meets) {
            let mut gone = *word & meets;
            *word &= !meets;
            while gone != 0 {
                let q = gone.trailing_zeros() as usize & 63;
                gone &= gone - 1;
                self.per_kind[usize::from(kinds[q]) & (MAX_KINDS - 1)] -= 1;
                // One less in the count is one more in its complement.
                let mut carry = masks[q];
                for plane in &mut low {
                    let next = plane.and(carry);
                    *plane = plane.xor(carry);
                    carry = next;
                }
            }
        }
        planes[..N].copy_from_slice(&low);
    }
}
