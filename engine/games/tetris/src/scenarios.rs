//! Reproducible mid-game positions for the move-generation benches and
//! tests: 10-wide, 22-row boards with a ragged stack and garbage holes,
//! built by dropping random pieces at random low landings.

use rand::Rng;
use rand::seq::IndexedRandom;

use tessera_host::rng::game_rng;

use crate::board::{Board, spawn_position};
use crate::movegen::MoveGen;
use crate::piece::{PieceKind, RotationSystem};

/// One bench position: a board and the piece to place on it.
#[derive(Debug, Clone, Copy)]
pub struct Position {
    /// The board.
    pub board: Board,
    /// The piece in play.
    pub piece: PieceKind,
}

/// `count` positions from seed `seed` (the benches use 1000 from seed 1).
pub fn mid_game(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = game_rng(seed);
    let mut generator = MoveGen::new();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut board = Board::new(10, 22);
        for row in 0..rng.random_range(0..6usize) {
            let hole = rng.random_range(0..10);
            for x in 0..10 {
                if x != hole {
                    board.set(x, 21 - row, true);
                }
            }
        }
        let drops = rng.random_range(6..24);
        for _ in 0..drops {
            let kind = PieceKind::ALL[rng.random_range(0..7)];
            let spawn = spawn_position(kind, 10);
            let landings = generator.generate(&board, kind, RotationSystem::Srs, spawn);
            // Prefer low landings, so the stack stays ragged but alive.
            let mut low: Vec<_> = landings.to_vec();
            low.sort_by_key(|p| std::cmp::Reverse(p.top_row()));
            low.truncate(10);
            let Some(choice) = low.choose(&mut rng) else {
                break;
            };
            let mut next = board;
            next.place(kind, choice.state, choice.x, choice.y);
            next.clear_full_rows();
            if next.rows()[..6].iter().any(|&r| r != 0) {
                break;
            }
            board = next;
        }
        out.push(Position {
            board,
            piece: PieceKind::ALL[rng.random_range(0..7)],
        });
    }
    out
}
