//! Which placements at the lowest empty cell can fit, from the cells just
//! after it and the kinds left: a table per cell ([`CellFits`]), so the
//! search tests only those.
//!
//! Measured on the 2x5x6 box's plain search: of 184M placements tested at
//! the lowest empty cell, 161M did not fit, and in 85% of those the first
//! filled cell they hit was at most 10 cells after the lowest empty cell
//! (88% within 12). With the kinds left folded in, the lowest cell needs
//! no loop over kinds and their mispredicted "none left" branches either:
//! the 2x5x6 plain search went from 0.87 to 0.64 s of CPU, the 3x4x5 box's
//! count from 5.09 to 4.52 s, Bedlam's (two words a cell) from 13.7 to
//! 11.9 s.
//!
//! The window was the next 12 cells; it is now the next 48. In a 3x4x5
//! box a layer is 20 cells (Bedlam's 16), so a placement standing up
//! through the layers reaches 20 or 40 cells past its lowest cell, out
//! of sight of 12: its mask was loaded and tested only to fail, on a
//! branch that depends on the data. 12 chunks cost nine more
//! lookups a node. One thread, CPU s, each pair the two builds side by
//! side (the same tree): 3x4x5 3.78 / 4.16 at 24 cells against 3.97 /
//! 4.38 at 12; 4.26 / 3.87 at 32 against 4.29 / 3.94 at 24; 3.43 / 3.49
//! at 48 against 3.61 / 3.71 at 32. Bedlam 11.68 / 11.67 at 24 against
//! 13.48 / 13.16 at 12; 9.11 / 9.62 at 32 against 9.44 / 9.92 at 24;
//! 9.45 / 9.86 at 48 against 9.41 / 9.50 at 32 (within the noise).

use super::solver::Group;

/// Cells after the lowest empty cell that the table looks at, in chunks
/// of [`CHUNK_BITS`]: 48 cells, two layers of the usual boxes.
const NEAR_CHUNKS: usize = 12;

/// Cells after the lowest empty cell that the table looks at.
#[cfg(test)]
const NEAR_CELLS: u16 = (NEAR_CHUNKS * CHUNK_BITS) as u16;

/// Cells per chunk: a chunk's filled state indexes 16 entries.
const CHUNK_BITS: usize = 4;

/// The chunk states of the cells just after `c` in `window` (the filled
/// cells shifted so that cell `c + 1` is bit 0).
#[inline(always)]
fn chunk_states(window: u64) -> [usize; NEAR_CHUNKS] {
    std::array::from_fn(|k| (window >> (k * CHUNK_BITS)) as usize & ((1 << CHUNK_BITS) - 1))
}

/// Kinds per chunk of the kinds-left bitmask in [`CellFits::allowed`].
const KIND_CHUNK_BITS: usize = 6;

/// Chunks of the kinds-left bitmask: up to 18 kinds.
const KIND_CHUNKS: usize = 3;

/// Placements per word of [`CellFits`] (one bit each).
const WORD: usize = 128;

/// The most words a cell's placements may take: Bedlam's cells have up to
/// 209 placements.
const MAX_WORDS: usize = 2;

/// For each cell, which of its placements (one bit each) the filled cells
/// just after it leave room for, and which are of the kinds left, in words
/// of 128 placements. Built for boxes of at most 128 cells whose every
/// cell has at most 256 placements, with at most 18 kinds (the 2x5x6 and
/// 3x4x5 boxes, Bedlam); otherwise the search loops over the groups.
pub(crate) struct CellFits {
    /// Per cell, its first placement (placements at a cell are
    /// consecutive, ordered by kind).
    pub(crate) first: Vec<u32>,
    /// Words per cell (1 or 2): cell `c`'s word `w` is entry
    /// `c * words + w` of the tables, its bit `i` placement
    /// `first[c] + 128 * w + i`.
    pub(crate) words: usize,
    /// Per cell and word, `near[_][k][state]`: bit `i` set when the
    /// placement covers none of the filled cells among
    /// `c + 1 + 4k .. c + 4 + 4k` (`state`: those cells' filled bits,
    /// lowest first). Only a placement in every chunk's entry can fit (a
    /// test is still needed for the cells further on).
    pub(crate) near: Vec<[[u128; 1 << CHUNK_BITS]; NEAR_CHUNKS]>,
    /// Per cell and word, and chunk of kinds, for each subset of that chunk's kinds
    /// with a piece left, the cell's placements of those kinds.
    pub(crate) allowed: Vec<[[u128; 1 << KIND_CHUNK_BITS]; KIND_CHUNKS]>,
}

impl CellFits {
    /// The tables, or `None` when a cell has too many placements or there
    /// are too many kinds.
    pub(crate) fn build(
        groups: &[Group],
        cell_groups: &[u32],
        placement_bits: &[Vec<u16>],
        placement_kind: &[u32],
        kinds: usize,
    ) -> Option<Self> {
        if kinds > KIND_CHUNK_BITS * KIND_CHUNKS {
            return None;
        }
        let cells = cell_groups.len().saturating_sub(1);
        let mut first = Vec::with_capacity(cells + 1);
        let mut end_of_last = 0;
        for c in 0..cells {
            let (g0, g1) = (cell_groups[c] as usize, cell_groups[c + 1] as usize);
            let start = groups.get(g0).map_or(end_of_last, |g| g.start);
            end_of_last = if g1 > g0 { groups[g1 - 1].end } else { start };
            first.push(start);
        }
        first.push(end_of_last);
        let most = first.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0) as usize;
        let words = most.div_ceil(WORD).max(1);
        if words > MAX_WORDS {
            return None;
        }
        let mut near = Vec::with_capacity(cells * words);
        let mut allowed = Vec::with_capacity(cells * words);
        for c in 0..cells {
            for w in 0..words {
                let start = (first[c] as usize + w * WORD).min(first[c + 1] as usize);
                let end = (start + WORD).min(first[c + 1] as usize);
                let (word_near, word_allowed) =
                    word_tables(c, start..end, placement_bits, placement_kind);
                near.push(word_near);
                allowed.push(word_allowed);
            }
        }
        Some(Self {
            first,
            words,
            near,
            allowed,
        })
    }

    /// The placements in word `w` of cell `c` (bit `i`: placement
    /// `first[c] + 128 * w + i`) that are of a kind in `kinds_left` and
    /// that the filled cells just after `c` (`window`, cell `c + 1` as bit
    /// 0) leave room for.
    #[inline(always)]
    pub(crate) fn room(&self, c: usize, w: usize, window: u64, kinds_left: u64) -> u128 {
        let states = chunk_states(window);
        let near = &self.near[c * self.words + w];
        let allowed = &self.allowed[c * self.words + w];
        let kinds = |k: usize| {
            allowed[k]
                [(kinds_left >> (k * KIND_CHUNK_BITS)) as usize & ((1 << KIND_CHUNK_BITS) - 1)]
        };
        near.iter()
            .zip(states)
            .fold(kinds(0) | kinds(1) | kinds(2), |room, (chunk, state)| {
                room & chunk[state]
            })
    }
}

/// One word's tables for cell `c`: its placements `range`, bit `i` for
/// placement `range.start + i`.
#[allow(clippy::type_complexity)]
fn word_tables(
    c: usize,
    range: std::ops::Range<usize>,
    placement_bits: &[Vec<u16>],
    placement_kind: &[u32],
) -> (
    [[u128; 1 << CHUNK_BITS]; NEAR_CHUNKS],
    [[u128; 1 << KIND_CHUNK_BITS]; KIND_CHUNKS],
) {
    let count = range.len();
    let all = if count == WORD {
        u128::MAX
    } else {
        (1u128 << count) - 1
    };
    let mut near = [[all; 1 << CHUNK_BITS]; NEAR_CHUNKS];
    let mut allowed = [[0u128; 1 << KIND_CHUNK_BITS]; KIND_CHUNKS];
    for (i, p) in range.enumerate() {
        for &b in &placement_bits[p] {
            let Some(offset) = (b as usize).checked_sub(c + 1) else {
                continue;
            };
            if offset >= NEAR_CHUNKS * CHUNK_BITS {
                continue;
            }
            let (chunk, bit) = (offset / CHUNK_BITS, offset % CHUNK_BITS);
            for (state, entry) in near[chunk].iter_mut().enumerate() {
                if state >> bit & 1 == 1 {
                    *entry &= !(1 << i);
                }
            }
        }
        let kind = placement_kind[p] as usize;
        let (chunk, bit) = (kind / KIND_CHUNK_BITS, kind % KIND_CHUNK_BITS);
        for (left, entry) in allowed[chunk].iter_mut().enumerate() {
            if left >> bit & 1 == 1 {
                *entry |= 1 << i;
            }
        }
    }
    (near, allowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole cell's room: the kinds left and the near cells, nothing
    /// else, in placement order.
    #[test]
    fn a_cells_room_is_its_placements_of_kinds_left_with_near_room() {
        let placements: Vec<Vec<u16>> = vec![
            vec![0, 1, 2],
            vec![0, 5, 6],
            vec![0, 12, 13],
            vec![0, 3],
            vec![0, 30],
            vec![0, 1, 7],
        ];
        let kinds = [0u32, 0, 1, 1, 2, 2];
        let groups = [
            Group {
                kind: 0,
                start: 0,
                end: 2,
            },
            Group {
                kind: 1,
                start: 2,
                end: 4,
            },
            Group {
                kind: 2,
                start: 4,
                end: 6,
            },
        ];
        let fits = CellFits::build(&groups, &[0, 3, 3], &placements, &kinds, 3).unwrap();
        assert_eq!(fits.first, vec![0, 6, 6]);
        assert_eq!(fits.words, 1);
        for kinds_left in 0u64..8 {
            // Every state of the first 12 cells, each with a different
            // pseudo-random state of the cells after them.
            let mut noise = 0x9E37_79B9_7F4A_7C15u64;
            for low in 0u64..1 << 12 {
                noise = noise.wrapping_mul(6364136223846793005).wrapping_add(1);
                let window = low | (noise >> 16) << 12;
                let room = fits.room(0, 0, window, kinds_left);
                for (i, cells) in placements.iter().enumerate() {
                    let left = kinds_left >> kinds[i] & 1 == 1;
                    let blocked = cells
                        .iter()
                        .any(|&b| (1..=NEAR_CELLS).contains(&b) && window >> (b - 1) & 1 == 1);
                    assert_eq!(room >> i & 1 == 1, left && !blocked, "placement {i}");
                }
            }
        }
        // Too many kinds for the kinds-left chunks: no table.
        assert!(CellFits::build(&groups, &[0, 3, 3], &placements, &kinds, 19).is_none());
    }

    /// A cell with more than 128 placements takes two words; bit `i` of
    /// word `w` is placement `first + 128 * w + i`.
    #[test]
    fn a_cell_with_200_placements_takes_two_words() {
        let placements: Vec<Vec<u16>> = (0..200u16).map(|i| vec![0, 1 + i % 20]).collect();
        let kinds: Vec<u32> = (0..200).map(|i| i % 3).collect();
        // Groups of one kind each, as the solver builds them (any split
        // into groups gives the same table).
        let groups: Vec<Group> = (0..200)
            .map(|i| Group {
                kind: kinds[i as usize],
                start: i,
                end: i + 1,
            })
            .collect();
        let fits = CellFits::build(&groups, &[0, 200], &placements, &kinds, 3).unwrap();
        assert_eq!(fits.words, 2);
        for (window, kinds_left) in [(0u64, 0b111u64), (0b1010_0110_0001, 0b101), (0xFFF, 0b111)] {
            for (i, cells) in placements.iter().enumerate() {
                let room = fits.room(0, i / 128, window, kinds_left);
                let left = kinds_left >> kinds[i] & 1 == 1;
                let b = cells[1];
                let blocked = b <= NEAR_CELLS && window >> (b - 1) & 1 == 1;
                assert_eq!(
                    room >> (i % 128) & 1 == 1,
                    left && !blocked,
                    "placement {i}"
                );
            }
        }
        assert!(
            fits.room(0, 1, 0, 0b111) >> 72 == 0,
            "word 2 holds 72 placements"
        );
    }
}
