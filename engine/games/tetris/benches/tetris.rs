//! Move generation over 1000 fixed mid-game positions (target: <= 2 us per
//! piece on average with SRS, tucks and spins included), hard-drop-only
//! for scale, and a full game step.

use criterion::{Criterion, criterion_group, criterion_main};

use tessera_tetris::board::spawn_position;
use tessera_tetris::bot::ai::settings::default_difficulties;
use tessera_tetris::bot::ai::{Brain, Difficulty, Position, UnknownNext};
use tessera_tetris::movegen::MoveGen;
use tessera_tetris::piece::{PieceKind, RotationSystem};
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

fn ai_decision(c: &mut Criterion) {
    let positions: Vec<Position> = scenarios::mid_game(200, 1)
        .iter()
        .map(|p| Position {
            board: p.board,
            piece: p.piece,
            next: Some(PieceKind::T),
            rotation: RotationSystem::Srs,
            spawn_row: 0,
            danger_rows: 2,
            ceiling: Default::default(),
            reader_streak: 0,
            unknown_next: UnknownNext::Average(PieceKind::ALL.to_vec()),
        })
        .collect();
    let god = default_difficulties()
        .into_iter()
        .find(|d| d.name == "GOD")
        .expect("GOD");
    let god = Difficulty {
        order: tessera_tetris::bot::ai::SEED_ORDER.to_vec(),
        lookahead: 0,
        ..god
    };
    let lookahead = Difficulty {
        order: Vec::new(),
        lookahead: 1,
        beam: 6,
        ..god.clone()
    };
    let mut brain = Brain::new();
    for (name, d) in [
        ("GOD, no lookahead", &god),
        ("weighted, lookahead 1", &lookahead),
    ] {
        c.bench_function(
            &format!("ai decision {name}: 200 mid-game positions"),
            |b| {
                b.iter(|| {
                    let mut total = 0usize;
                    for p in &positions {
                        total += brain.choose(p, d, 0).candidates.len();
                    }
                    std::hint::black_box(total)
                })
            },
        );
    }
}

criterion_group!(benches, movegen, ai_decision);
criterion_main!(benches);
