//! Properties of the AI's evaluation over random boards: column metrics
//! agree with row metrics, a partial ranking with the full one, and the
//! score is the full weighted sum bit for bit.

use proptest::prelude::*;

/// A random board: each column filled to a random height, with random
/// cells knocked out below the top (holes, overhangs, cavities) and a
/// few full rows (so some landings clear).
fn ragged_board() -> impl Strategy<Value = tessera_tetris::board::Board> {
    (4usize..=12, 6usize..=24, any::<u64>()).prop_map(|(width, height, seed)| {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut board = tessera_tetris::board::Board::new(width, height);
        let ceiling = rng.random_range(0..height);
        for x in 0..width {
            let top = rng.random_range(ceiling..=height);
            for y in top..height {
                if rng.random_range(0..5) != 0 {
                    board.set(x, y, true);
                }
            }
        }
        for y in 0..height {
            if rng.random_range(0..6) == 0 {
                let hole = rng.random_range(0..width);
                for x in 0..width {
                    board.set(x, y, x != hole || rng.random_range(0..3) == 0);
                }
            }
        }
        board.clear_full_rows();
        board
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The AI's column-by-column metrics agree with the row-by-row ones
    /// on every metric, for every landing of every piece (specials too).
    #[test]
    fn column_metrics_agree_with_row_metrics(
        board in ragged_board(),
        danger_rows in 0usize..4,
        special in any::<bool>(),
    ) {
        use tessera_tetris_bot::ai::metrics::{BeforeMove, move_metrics};
        use tessera_tetris::movegen::MoveGen;
        use tessera_tetris::piece::{PieceKind, RotationSystem};
        let before = BeforeMove::new(&board);
        let mut movegen = MoveGen::new();
        let kinds: &[PieceKind] = if special { &PieceKind::SPECIALS } else { &PieceKind::ALL };
        for &kind in kinds {
            // Spawn low enough to reach a ragged stack from several rows.
            for spawn_y in [0, board.height() as i32 / 3] {
                let (x, _) = tessera_tetris::board::spawn_position(kind, board.width());
                let landings = movegen
                    .generate(&board, kind, RotationSystem::Srs, (x, spawn_y))
                    .to_vec();
                for landing in landings {
                    let fast = before.metrics(&landing, danger_rows);
                    let (_, slow) = move_metrics(&board, &landing, danger_rows);
                    prop_assert_eq!(fast, slow, "{:?} on\n{}", landing, board.to_text());
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// A decision ranks only the best few; they are the same, in the same
    /// order, as a full ranking's first few, for every shipped difficulty.
    #[test]
    fn partial_ranking_agrees_with_full_ranking(
        board in ragged_board(),
        piece in 0usize..7,
        keep in 1usize..12,
        noise_seed in any::<u64>(),
    ) {
        use tessera_tetris_bot::ai::{Brain, Position, UnknownNext};
        use tessera_tetris::piece::{PieceKind, RotationSystem};
        let position = Position {
            board,
            piece: PieceKind::ALL[piece],
            next: None,
            rotation: RotationSystem::Srs,
            spawn_row: 0,
            danger_rows: 1,
            ceiling: Default::default(),
            reader_streak: 0,
            unknown_next: UnknownNext::Average(PieceKind::ALL.to_vec()),
        };
        let mut brain = Brain::new();
        for difficulty in tessera_tetris_bot::ai::settings::default_difficulties() {
            let full = brain.choose(&position, &difficulty, noise_seed);
            let top = brain.choose_top(&position, &difficulty, noise_seed, keep);
            let n = keep.max(2).min(full.candidates.len());
            prop_assert_eq!(&top.candidates[..n], &full.candidates[..n], "{}", difficulty.name);
            prop_assert_eq!(top.decided_by, full.decided_by);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The score adds only the weights that are not 0, and comes out the
    /// same, bit for bit, as the plain sum over every metric.
    #[test]
    fn the_score_is_the_full_weighted_sum_bit_for_bit(
        weights in prop::collection::vec(prop_oneof![Just(0.0), Just(-0.0), -10.0f64..10.0, -1e6f64..1e6], 18),
        values in prop::collection::vec(0u32..40, 15),
        game_over in any::<bool>(),
    ) {
        use tessera_tetris_bot::ai::Weights;
        use tessera_tetris_bot::ai::metrics::{Metric, Metrics};
        let mut w = Weights::default();
        for (metric, &weight) in Metric::ALL.iter().zip(&weights) {
            w.set(*metric, weight);
        }
        let m = Metrics {
            game_over,
            lines_cleared: values[0] % 5,
            holes: values[1],
            holes_created: values[2] % 8,
            blockades: values[3],
            well_sums: values[4],
            max_height: values[5],
            aggregate_height: values[6],
            bumpiness: values[7],
            edge_distance: values[8] % 10,
            row_transitions: values[9],
            column_transitions: values[10],
            landing_height_x2: values[11],
            eroded_cells: values[12],
            high_rows: values[13],
        };
        let full: f64 = Metric::ALL[..18].iter().map(|&metric| w.get(metric) * m.get(metric)).sum();
        prop_assert_eq!(w.score(&m).to_bits(), full.to_bits());
    }
}
