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

#[cfg(test)]
use super::mask::Mask;

/// Boxes with more placements than this keep the lists (a set of more
/// than 128 words costs a child more than its list does).
pub(crate) const MAX_PLACEMENTS: usize = 128 * 64;

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
        if placements > MAX_PLACEMENTS || volume >= usize::from(u16::MAX) {
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
        if most >= 1 << super::search::PLANES {
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
