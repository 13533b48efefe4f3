//! The AI's decision over 200 fixed mid-game positions: GOD's seed order
//! without lookahead, and a weighted evaluation with a lookahead of one.

use criterion::{Criterion, criterion_group, criterion_main};

use tessera_tetris::piece::{PieceKind, RotationSystem};
use tessera_tetris::scenarios;
use tessera_tetris_bot::ai::settings::default_difficulties;
use tessera_tetris_bot::ai::{Brain, Difficulty, Position, UnknownNext};

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
        order: tessera_tetris_bot::ai::SEED_ORDER.to_vec(),
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

criterion_group!(benches, ai_decision);
criterion_main!(benches);
