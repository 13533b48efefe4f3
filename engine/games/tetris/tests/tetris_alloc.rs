//! A full game step allocates nothing: inputs, gravity ticks, a lock with
//! a line clear and the next spawn, on the script-free rules core; and the
//! move generator after its first run. (A dedicated test binary, so no
//! other test's allocations are counted.)

use tessera_testkit::alloc::{CountingAlloc, allocations_during};

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
