//! The hot paths allocate nothing: a counting global allocator watches a
//! physics tick, a game tick while grains fall, and a spanning search.
//! (A dedicated test binary, so no other test's allocations are counted;
//! the single test runs the cases one after another.)

use super::sand_support;

use tessera_testkit::alloc::{CountingAlloc, allocations_during};

use sand_support::*;
use tessera_host::Game;
use tessera_host::rng::game_rng;
use tessera_sand::clear::ClusterSearch;
use tessera_sand::physics::RandomBits;
use tessera_sand::piece::Shape;
use tessera_sand::scenarios;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

#[test]
fn ticks_and_searches_allocate_nothing() {
    let mut rng = game_rng(1);

    let mut full = scenarios::full_board_awake(4);
    let n = allocations_during(|| full.step(&mut RandomBits::new(&mut rng)));
    assert_eq!(n, 0, "full-board tick");

    let mut falling = scenarios::half_board_falling();
    let n = allocations_during(|| {
        for _ in 0..50 {
            falling.step(&mut RandomBits::new(&mut rng));
        }
    });
    assert_eq!(n, 0, "falling ticks");
    assert_eq!(
        falling.grain_count(),
        120 * 110,
        "and the grains are all there"
    );

    for grid in [
        scenarios::one_colour_settled(),
        scenarios::four_bands_settled(),
    ] {
        let mut search = ClusterSearch::new(grid.height());
        let mut found = vec![0u128; grid.height()];
        let mut clusters = Vec::with_capacity(16);
        let n =
            allocations_during(|| search.find_spanning(&grid, 4, None, &mut found, &mut clusters));
        assert_eq!(n, 0, "spanning search");
        assert!(!clusters.is_empty());
    }

    // A whole game tick while a piece falls (no check is due mid-fall).
    let mut game = start(level(12, 22, 10, &[]), 3);
    drop_piece(&mut game, Shape::T, RED, 4, 0);
    let n = allocations_during(|| game.advance(100).unwrap());
    assert_eq!(n, 0, "game ticks");
    assert!(!game.grid().is_settled(), "still falling after 100 ticks");
}

#[test]
fn the_counter_sees_an_allocation() {
    // Without this, a broken counter would make every "allocates nothing"
    // assertion above pass.
    let n = allocations_during(|| drop(std::hint::black_box(vec![1u8; 64])));
    assert!(n >= 1, "{n}");
}
