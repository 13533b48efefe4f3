//! Sand drop hot paths: a physics tick and the spanning-cluster search on
//! the default 120x220 grain board.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use tessera_host::rng::game_rng;
use tessera_sand::clear::ClusterSearch;
use tessera_sand::physics::RandomBits;
use tessera_sand::scenarios;

fn ticks(c: &mut Criterion) {
    let mut group = c.benchmark_group("sand_tick");
    let mut rng = game_rng(1);
    let full = scenarios::full_board_awake(4);
    group.bench_function("full board, every grain awake", |b| {
        b.iter_batched_ref(
            || full.clone(),
            |grid| grid.step(&mut RandomBits::new(&mut rng)),
            BatchSize::SmallInput,
        )
    });
    let falling = scenarios::half_board_falling();
    group.bench_function("half board falling (every grain moves)", |b| {
        b.iter_batched_ref(
            || falling.clone(),
            |grid| grid.step(&mut RandomBits::new(&mut rng)),
            BatchSize::SmallInput,
        )
    });
    let mut idle = scenarios::one_colour_settled();
    group.bench_function("idle (nothing awake)", |b| {
        b.iter(|| idle.step(&mut RandomBits::new(&mut rng)))
    });
    group.finish();
}

fn spanning(c: &mut Criterion) {
    let mut group = c.benchmark_group("sand_spanning_search");
    for (name, grid) in [
        (
            "one colour fills the board",
            scenarios::one_colour_settled(),
        ),
        ("four colour bands", scenarios::four_bands_settled()),
        ("four colour columns", scenarios::four_columns_settled()),
    ] {
        let mut search = ClusterSearch::new(grid.height());
        let mut found = vec![0u128; grid.height()];
        let mut clusters = Vec::with_capacity(16);
        group.bench_function(name, |b| {
            b.iter(|| {
                found.fill(0);
                search.find_spanning(&grid, 4, None, &mut found, &mut clusters);
                clusters.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, ticks, spanning);
criterion_main!(benches);
