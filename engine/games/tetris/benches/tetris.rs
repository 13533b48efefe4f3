//! Move generation over 1000 fixed mid-game positions (target: <= 2 us per
//! piece on average with SRS, tucks and spins included) and hard-drop-only
//! for scale. The AI's decisions are benched in the bot's crate.

use criterion::{Criterion, criterion_group, criterion_main};

use tessera_tetris::board::spawn_position;
use tessera_tetris::movegen::MoveGen;
use tessera_tetris::piece::RotationSystem;
use tessera_tetris::scenarios;

fn movegen(c: &mut Criterion) {
    let positions = scenarios::mid_game(1000, 1);
    let mut generator = MoveGen::new();
    c.bench_function("movegen srs: 1000 mid-game positions", |b| {
        b.iter(|| {
            let mut total = 0usize;
            for p in &positions {
                let spawn = spawn_position(p.piece, 10);
                total += generator
                    .generate(&p.board, p.piece, RotationSystem::Srs, spawn)
                    .len();
            }
            std::hint::black_box(total)
        })
    });
    c.bench_function("movegen cycle: 1000 mid-game positions", |b| {
        b.iter(|| {
            let mut total = 0usize;
            for p in &positions {
                let spawn = spawn_position(p.piece, 10);
                total += generator
                    .generate(&p.board, p.piece, RotationSystem::Cycle, spawn)
                    .len();
            }
            std::hint::black_box(total)
        })
    });
}

criterion_group!(benches, movegen);
criterion_main!(benches);
