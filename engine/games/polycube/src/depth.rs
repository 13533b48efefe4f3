//! How deep the searches take the most constrained cell or piece before
//! they fill the lowest empty cell: near the root the choice prunes most,
//! deeper its bookkeeping costs more than it saves, except where a few
//! large pieces sit among many small ones.

use crate::geometry::Cell;

/// How many placements deep the plain count picks the most constrained
/// cell or piece before it switches to lowest-cell order: 2x5x6, CPU,
/// 1.16 s at 6, 1.25 s at 7, 1.56 s at 8, 1.80 s at 9 (deep in the tree
/// the lists cost more than they save; 3.1 s at 0).
pub(crate) const PLAIN_CHOOSE_DEPTH: usize = 6;

/// The same for the symmetry-broken count (its first placement is the
/// symmetry-breaking piece) in a box two cells thick. 2x5x6, one thread,
/// nodes and CPU: 9.2M / 0.41 s at 0, 3.7M / 0.31 s at 5, 2.3M / 0.28 s at
/// 6, 1.4M / 0.31 s at 7, 0.54M / 0.40 s at 9. One cell thick (6x10),
/// lowest-cell order from the root is fastest (0.074 s; 0.104 s at 5).
const SLAB_CHOOSE_DEPTH: usize = 6;

/// The same in boxes whose every side is 3 or more. One thread, nodes
/// and CPU: the 3x4x5 box 489M / 31.8 s at 0, 80M / 7.0 s at 6, 47M /
/// 5.24 s at 7, 24M / 5.01 s at 8; Bedlam 315M / 26.5 s at 0, 164M /
/// 15.5 s at 7, 103M / 13.4 s at 8 (27M / 27.7 s at 10 before the nodes
/// were branch-free).
const COUNT_CHOOSE_DEPTH: usize = 8;

/// A set of pieces whose largest has this many times the smallest's cubes
/// is searched most constrained first at every depth: there the choice is
/// between a large piece's few places and a small one's many, and the
/// lowest cell deep in the tree tries every small piece in every corner
/// the large ones leave. A generated 5x5x5 of 25 pieces (four of 15 to 22
/// cubes, 21 of 2 or 3 in their pockets) is proven unique in 43 nodes this
/// way and not within 16 million at depth 8; a skewed 4x4x4 of 13 (2 to
/// 12 cubes) in 18,800 nodes against 203,000. Pentacube sets (one size)
/// and Bedlam (4 and 5 cubes) keep depth 8.
const MIXED_RATIO: usize = 4;

/// How many placements deep the symmetry-broken count of these pieces in
/// a box of `size` takes the most constrained choice.
pub(crate) fn count_choose_depth(size: [usize; 3], signatures: &[Vec<Cell>]) -> usize {
    match size.iter().min() {
        Some(1) => 0,
        Some(2) => SLAB_CHOOSE_DEPTH,
        _ if mixed_sizes(signatures) => usize::MAX,
        _ => COUNT_CHOOSE_DEPTH,
    }
}

/// Whether a set of pieces is a few large ones among many small ones (the
/// largest at least [`MIXED_RATIO`] times the smallest), whose count takes
/// the most constrained choice all the way down (see [`COUNT_CHOOSE_DEPTH`]).
fn mixed_sizes(signatures: &[Vec<Cell>]) -> bool {
    let sizes = signatures.iter().map(Vec::len);
    let (Some(least), Some(most)) = (sizes.clone().min(), sizes.max()) else {
        return false;
    };
    most >= MIXED_RATIO * least
}
