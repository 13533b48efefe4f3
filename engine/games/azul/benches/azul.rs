//! Azul hot paths: whole random 2-player games (the playout speed target:
//! at least 100,000 per second on one core) and move generation.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tessera_azul::ai::random_playout;
use tessera_azul::rules::{MoveList, Rules, State};
use tessera_host::rng::game_rng;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("azul");
    let mut rng = game_rng(1);
    let mut fresh = State::new(Rules::default(), 2);
    fresh.deal(&mut rng, None);
    group.throughput(Throughput::Elements(1));
    group.bench_function("random playout, whole 2-player game", |b| {
        b.iter(|| {
            let mut s = fresh;
            random_playout(&mut s, &mut rng)
        })
    });
    let mut grey = State::new(
        Rules {
            grey_wall: true,
            ..Rules::default()
        },
        2,
    );
    grey.deal(&mut rng, None);
    group.bench_function("random playout, whole 2-player game, grey wall", |b| {
        b.iter(|| {
            let mut s = grey;
            random_playout(&mut s, &mut rng)
        })
    });
    let mut moves = MoveList::default();
    group.bench_function("legal moves, first move of a 2-player game", |b| {
        b.iter(|| {
            fresh.legal_moves(&mut moves);
            moves.len()
        })
    });
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
