//! Grain physics through the game: the O-piece pile, left/right fairness,
//! and the conservation / settled-board properties.

use super::sand_support;
use tessera_testkit as common;

use proptest::prelude::*;
use sand_support::*;
use tessera_host::Game;
use tessera_sand::SandAction;
use tessera_sand::piece::{Piece, Shape};

#[test]
fn an_o_piece_on_the_empty_floor_slumps_into_a_45_degree_pile() {
    // 60x40 grains: the O (20x20 grains) dropped in the middle.
    let mut game = start(level(6, 4, 10, &[]), 11);
    drop_piece(&mut game, Shape::O, RED, 2, 0);
    game.settle().unwrap();
    let grid = game.grid();
    assert_eq!(grid.grain_count(), 400);
    assert!(grid.is_settled());
    assert_eq!(
        movable_grains(grid),
        vec![],
        "every grain has all three cells below blocked"
    );
    // A pile, not a block: it is lower and wider than the 20x20 piece, and
    // no row is wider than the row under it (slopes, no overhangs).
    let widths: Vec<u32> = (0..grid.height())
        .map(|y| grid.occupied_row(y).count_ones())
        .collect();
    let height = widths.iter().filter(|&&w| w > 0).count();
    assert!(height < 20, "height {height}");
    assert!(
        widths[grid.height() - 1] > 20,
        "base {}",
        widths[grid.height() - 1]
    );
    for y in 0..grid.height() - 1 {
        assert!(
            widths[y] <= widths[y + 1],
            "row {y} is wider than the row below"
        );
    }
    common::snapshots().bind(|| insta::assert_snapshot!("o_pile", game.grid_text()));
}

#[test]
fn piles_have_no_left_or_right_bias_over_200_seeds() {
    // 120 grains wide; the O covers grains 50..70, centred on 59.5.
    let mut sum = 0.0;
    for seed in 0..200 {
        let mut game = start(level(12, 5, 10, &[]), seed);
        drop_piece(&mut game, Shape::O, BLUE, 5, 0);
        game.settle().unwrap();
        let grid = game.grid();
        let mut total = 0.0;
        let mut count = 0.0;
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                if grid.colour_at(x, y).is_some() {
                    total += x as f64;
                    count += 1.0;
                }
            }
        }
        assert_eq!(count, 400.0);
        sum += total / count;
    }
    let mean = sum / 200.0;
    assert!((mean - 59.5).abs() <= 0.5, "mean centre of mass {mean}");
}

#[derive(Debug, Clone)]
enum Step {
    Place { slot: usize, x: i32, y: i32 },
    Tick(u32),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0usize..3, -1i32..7, -1i32..7).prop_map(|(slot, x, y)| Step::Place { slot, x, y }),
        (1u32..40).prop_map(Step::Tick),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn grains_are_conserved_except_cleared_and_settled_boards_cannot_move(
        seed in 0u64..1000,
        steps in prop::collection::vec(step(), 1..25),
    ) {
        // 6x6 cells of 4x4 grains: a piece is 64 grains.
        let mut game = start(level(6, 6, 4, &[]), seed);
        for step in steps {
            match step {
                Step::Place { slot, x, y } => {
                    let legal = game.check_placement(slot, x, y, 0).is_ok() && !game.outcome().is_over();
                    let result = game.apply(&SandAction::Place { slot, x, y, rotation: 0 });
                    prop_assert_eq!(result.is_ok(), legal);
                }
                Step::Tick(n) => game.advance(n).unwrap(),
            }
            let expected = game.placed() * 64 - game.cleared_grains();
            prop_assert_eq!(game.grid().grain_count() as u64, expected);
        }
        game.settle().unwrap();
        prop_assert_eq!(game.grid().grain_count() as u64, game.placed() * 64 - game.cleared_grains());
        prop_assert_eq!(movable_grains(game.grid()), vec![]);
        // Cleared grains come in whole clusters the log accounts for.
        let logged: u64 = game.chain_log().iter().flat_map(|r| &r.clusters).map(|c| u64::from(c.grains)).sum();
        prop_assert_eq!(logged, game.cleared_grains());
    }
}

#[test]
fn a_piece_dropped_in_mid_air_falls_one_grain_row_per_tick() {
    let mut game = start(level(6, 6, 4, &[]), 1);
    game.set_slot(
        0,
        Piece {
            shape: Shape::I,
            colour: GREEN,
        },
    )
    .unwrap();
    game.apply(&SandAction::Place {
        slot: 0,
        x: 1,
        y: 0,
        rotation: 0,
    })
    .unwrap();
    // The I covers grain rows 0..4; after 5 ticks it covers rows 5..9.
    game.advance(5).unwrap();
    let grid = game.grid();
    for y in 0..24 {
        let expected = if (5..9).contains(&y) { 16 } else { 0 };
        assert_eq!(grid.occupied_row(y).count_ones(), expected, "row {y}");
    }
}
