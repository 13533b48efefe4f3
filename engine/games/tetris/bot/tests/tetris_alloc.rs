//! A full game step allocates nothing: inputs, gravity ticks, a lock with
//! a line clear and the next spawn, on the script-free rules core; the
//! move generator after its first run; and an AI decision after the
//! brain's first (its candidate list is the brain's, reused). (A dedicated
//! test binary, so no other test's allocations are counted.)

use super::tetris_support;

use tessera_testkit::alloc::{CountingAlloc, allocations_during};
use tessera_tetris_bot::ai::{Brain, Position, UnknownNext};

use tessera_host::rng::game_rng;
use tessera_tetris::board::{Board, spawn_position};
use tessera_tetris::movegen::MoveGen;
use tessera_tetris::piece::{PieceKind, RotationSystem};
use tessera_tetris::rules::{Config, Field, Key, PieceSource};
use tessera_tetris::scenarios;
use tessera_tetris::settings::Randomizer;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

#[test]
fn game_steps_and_move_generation_allocate_nothing() {
    // Four rows with a well in column 9 and I pieces: the fourth lock
    // below clears four lines.
    let mut board = Board::new(10, 22);
    let mut colours = vec![0u8; 220];
    for y in 18..22 {
        for x in 0..9 {
            board.set(x, y, true);
            colours[y * 10 + x] = 8;
        }
    }
    let config = Config {
        rotation: RotationSystem::Srs,
        fall_ticks: 3,
        soft_drop_ticks: 1,
        lock_delay_ticks: 5,
        lock_resets: 15,
        das_ticks: 4,
        arr_ticks: 1,
        preview: 5,
        hold: true,
    };
    let source = PieceSource::new(vec![PieceKind::I; 40], Randomizer::Bag, game_rng(1));
    let mut field = Field::new(board, colours, source, config);
    let mut locks = 0;
    let n = allocations_during(|| {
        // Turn the I upright and send it to the right wall, then let it fall.
        field.rotate(true);
        field.press(Key::Right);
        for _ in 0..200 {
            if let Some(lock) = field.tick() {
                locks += 1;
                assert_eq!(lock.lines, 4);
                break;
            }
        }
        field.release(Key::Right);
        field.hold();
        field.press(Key::Down);
        for _ in 0..100 {
            if field.tick().is_some() {
                locks += 1;
            }
        }
        field.release(Key::Down);
        field.hard_drop();
    });
    assert!(locks >= 2, "{locks} locks");
    assert_eq!(n, 0, "input, gravity, lock, clear and spawn");

    let positions = scenarios::mid_game(50, 2);
    let mut generator = MoveGen::new();
    let warm = positions[0];
    generator.generate(&warm.board, warm.piece, RotationSystem::Srs, (3, 0));
    let mut total = 0;
    let n = allocations_during(|| {
        for p in &positions {
            total += generator
                .generate(
                    &p.board,
                    p.piece,
                    RotationSystem::Srs,
                    spawn_position(p.piece, 10),
                )
                .len();
        }
    });
    assert!(total > 50 * 5);
    assert_eq!(n, 0, "move generation");
}

#[test]
fn ai_decisions_after_the_first_allocate_nothing() {
    let script = tetris_support::shipped();
    let table =
        tessera_tetris_bot::ai::settings::difficulties(&script.current()).expect("the table");
    let positions: Vec<Position> = scenarios::mid_game(60, 3)
        .iter()
        .enumerate()
        .map(|(i, p)| Position {
            board: p.board,
            piece: p.piece,
            next: (i % 3 == 0).then(|| PieceKind::ALL[i % 7]),
            rotation: if i % 2 == 0 {
                RotationSystem::Srs
            } else {
                RotationSystem::Cycle
            },
            spawn_row: 0,
            danger_rows: 2,
            ceiling: Default::default(),
            reader_streak: 0,
            unknown_next: if i % 4 == 0 {
                UnknownNext::Worst(PieceKind::ALL.to_vec())
            } else {
                UnknownNext::Average(PieceKind::ALL.to_vec())
            },
        })
        .collect();
    // Every difficulty of the shipped table but the expected-line search
    // (its board map grows with the widest ply it has seen).
    for difficulty in table
        .iter()
        .filter(|d| d.adversary == tessera_tetris_bot::ai::Adversary::Score)
    {
        let mut brain = Brain::new();
        // The first pass sizes the buffers (the longest candidate list,
        // the lookahead's plies).
        for p in &positions {
            brain.choose_top(p, difficulty, 1, 2);
        }
        let mut decided = 0;
        let n = allocations_during(|| {
            for (i, p) in positions.iter().enumerate() {
                let choice = brain.choose_top(p, difficulty, i as u64, 2);
                decided += usize::from(choice.best().is_some());
            }
        });
        assert!(decided > 50, "{}: {decided} decisions", difficulty.name);
        assert_eq!(n, 0, "{}: {n} allocations in 60 decisions", difficulty.name);
    }
}
