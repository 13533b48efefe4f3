//! Properties over random input sequences: the piece in play never
//! overlaps the stack or leaves the board, and cells are conserved
//! (spawned pieces x 4 minus cleared rows x width, plus the garbage).

use super::tetris_support;

use proptest::prelude::*;

use tessera_host::Game;
use tessera_tetris::TetrisAction;
use tessera_tetris::rules::Key;
use tetris_support::*;

fn action() -> impl Strategy<Value = TetrisAction> {
    prop_oneof![
        Just(TetrisAction::Left),
        Just(TetrisAction::Right),
        Just(TetrisAction::SoftDrop),
        Just(TetrisAction::HardDrop),
        Just(TetrisAction::RotateCw),
        Just(TetrisAction::RotateCcw),
        Just(TetrisAction::Press(Key::Left)),
        Just(TetrisAction::Press(Key::Right)),
        Just(TetrisAction::Press(Key::Down)),
        Just(TetrisAction::Release(Key::Left)),
        Just(TetrisAction::Release(Key::Right)),
        Just(TetrisAction::Release(Key::Down)),
        (1u32..40).prop_map(TetrisAction::Tick),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn pieces_stay_inside_and_cells_are_conserved(
        actions in prop::collection::vec(action(), 1..300),
        seed in 0u64..1000,
        srs in any::<bool>(),
        garbage_rows in 0usize..4,
    ) {
        let rows: Vec<&str> = vec!["GGGG.GGGGG"; garbage_rows];
        let mut game = start(level(12, &rows, "", if srs { "srs" } else { "cycle" }), seed);
        let garbage = 9 * garbage_rows as u64;
        for a in &actions {
            let _ = game.apply(a);
            let field = game.field();
            if let Some(active) = field.active() && !game.outcome().is_over() {
                prop_assert!(
                    field.board().fits(active.kind, active.state, active.x, active.y),
                    "{a:?} left the piece overlapping or outside:\n{}", game.render_text()
                );
            }
            let cells = u64::from(field.board().count());
            let expected = garbage + 4 * field.locked() - 10 * field.rows_cleared();
            prop_assert_eq!(cells, expected, "after {:?}", a);
        }
    }
}
