//! Tetris figures: move generation (every reachable landing with SRS,
//! soft-drop tucks and spins) over 1000 fixed mid-game positions
//! (criterion: `cargo bench -p tessera-tetris --bench tetris`).

use std::time::Duration;

use tessera_tetris::board::spawn_position;
use tessera_tetris::movegen::MoveGen;
use tessera_tetris::piece::RotationSystem;
use tessera_tetris::scenarios;

use super::{Figure, median_time};

/// Mean time per piece over the positions, median of several runs.
fn per_piece(system: RotationSystem) -> Duration {
    let positions = scenarios::mid_game(1000, 1);
    let mut generator = MoveGen::new();
    let batch = median_time(21, || {
        let mut total = 0usize;
        for p in &positions {
            total += generator
                .generate(&p.board, p.piece, system, spawn_position(p.piece, 10))
                .len();
        }
        std::hint::black_box(total);
    });
    batch / positions.len() as u32
}

/// The move generation figures with the target.
pub fn figures() -> anyhow::Result<Vec<Figure>> {
    Ok(vec![
        Figure {
            group: "tetris",
            name: "movegen srs per piece (1000 mid-game 10-wide positions)".into(),
            measured: per_piece(RotationSystem::Srs),
            target: Some(Duration::from_micros(2)),
        },
        Figure {
            group: "tetris",
            name: "movegen cycle per piece (same positions)".into(),
            measured: per_piece(RotationSystem::Cycle),
            target: None,
        },
    ])
}
