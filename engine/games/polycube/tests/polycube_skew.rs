//! Skewed cuts of a large box (a few large twisted pieces, small ones in
//! the pockets) and the unique 4x4x4 of 13 pieces, Bedlam's size, made
//! from them.

use std::sync::atomic::AtomicBool;

use tessera_host::ThinkControl;
use tessera_host::rng::game_rng;
use tessera_polycube::generate::cut::{loose, placements};
use tessera_polycube::generate::skew::{default_sizes, fits, skewed};
use tessera_polycube::geometry::{is_connected, orientations};
use tessera_polycube::solver::Solver;

use super::polycube_pocket::generated;

const BOX: [usize; 3] = [4, 4, 4];

#[test]
fn a_skewed_cut_has_three_large_twisted_pieces_and_small_ones_and_is_not_loose() {
    assert_eq!(default_sizes(64, 13), Some((2, 12)));
    assert_eq!(default_sizes(64, 12), Some((2, 13)));
    // Few pieces, or pieces too even to leave room for large ones: no
    // skewed cut.
    assert_eq!(default_sizes(64, 6), None);
    assert!(!fits(64, 13, (4, 6)));
    for seed in 1..=3 {
        let cut = skewed(BOX, 13, (2, 12), &mut game_rng(seed), &ThinkControl::new())
            .expect("a skewed cut");
        let shapes = cut.shapes();
        assert_eq!(shapes.len(), 13);
        assert_eq!(shapes.iter().map(Vec::len).sum::<usize>(), 64);
        assert!(shapes.iter().all(|s| is_connected(s)), "seed {seed}");
        let large: Vec<_> = shapes.iter().filter(|s| s.len() >= 10).collect();
        assert_eq!(large.len(), 3, "seed {seed}");
        for piece in large {
            let turns = orientations(piece).len();
            assert_eq!(turns, 24, "seed {seed}: a large piece has a symmetry");
            assert!(placements(BOX, piece) <= 2 * turns, "seed {seed}");
        }
        assert!(shapes.iter().filter(|s| s.len() < 10).all(|s| s.len() <= 4));
        assert!(!loose(&cut), "seed {seed}");
        // One seed, one cut.
        assert_eq!(
            skewed(BOX, 13, (2, 12), &mut game_rng(seed), &ThinkControl::new()),
            Some(cut)
        );
    }
}

/// Seed 7 is one of the quick seeds of the bench's ten (about 3 s of a
/// dev build at load 5); the figures over seeds 1-10 are
/// `tessera bench polycube-generate`'s.
#[test]
fn a_unique_4x4x4_of_13_pieces_has_one_distinct_packing_in_the_solvers_whole_count() {
    let (level, text) = generated(&["--box", "4x4x4", "--pieces", "13", "--unique"], 7);
    assert_eq!(level.pieces.len(), 13);
    let solver = Solver::new(level.extents(), &level.shapes()).expect("solver");
    let counted = solver
        .count(&AtomicBool::new(false), &mut |_| {})
        .expect("the whole count");
    assert_eq!(counted.distinct, 1, "{text}");
    // The first packing (Solvable?, `solve`, hints, Show a solution): the
    // lowest-cell order alone ran for minutes on such a design; past its
    // budget the search takes the most constrained choice first.
    let first = solver
        .first(&AtomicBool::new(false))
        .expect("searches")
        .expect("a packing");
    assert_eq!(first.pieces.len(), 13);
    assert_eq!(first.pieces.iter().map(Vec::len).sum::<usize>(), 64);
}
