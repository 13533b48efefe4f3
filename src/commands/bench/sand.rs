//! Sand drop figures: physics ticks and the spanning-cluster search on the
//! default 120x220 grain board (criterion: `cargo bench -p tessera-sand
//! --bench sand`).

use std::time::{Duration, Instant};

use tessera_host::rng::game_rng;
use tessera_sand::clear::ClusterSearch;
use tessera_sand::grid::GrainGrid;
use tessera_sand::physics::RandomBits;
use tessera_sand::scenarios;

use super::{Figure, median_time};

const RUNS: usize = 301;

/// Median time of one tick on a fresh copy of `board` (the copy is made
/// outside the timing).
fn tick_time(board: &GrainGrid) -> Duration {
    let mut rng = game_rng(1);
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let mut grid = board.clone();
            let start = Instant::now();
            grid.step(&mut RandomBits::new(&mut rng));
            let elapsed = start.elapsed();
            std::hint::black_box(&grid);
            elapsed
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// The tick and search figures with the targets.
pub fn figures() -> anyhow::Result<Vec<Figure>> {
    let mut figures = vec![
        Figure {
            group: "sand",
            min: None,
            name: "tick: full board, every grain awake".into(),
            measured: tick_time(&scenarios::full_board_awake(4)),
            target: Some(Duration::from_micros(20)),
        },
        Figure {
            group: "sand",
            min: None,
            name: "tick: half board falling (13200 moves)".into(),
            measured: tick_time(&scenarios::half_board_falling()),
            target: Some(Duration::from_micros(20)),
        },
    ];
    let mut idle = scenarios::one_colour_settled();
    let mut rng = game_rng(1);
    const IDLE_TICKS: u32 = 10_000;
    let batch = median_time(15, || {
        for _ in 0..IDLE_TICKS {
            idle.step(&mut RandomBits::new(&mut rng));
        }
        std::hint::black_box(&idle);
    });
    figures.push(Figure {
        group: "sand",
        min: None,
        name: "tick: idle (nothing awake)".into(),
        measured: batch / IDLE_TICKS,
        target: Some(Duration::from_micros(1)),
    });
    for (name, grid, expected) in [
        (
            "one colour fills the board",
            scenarios::one_colour_settled(),
            1,
        ),
        ("four colour bands", scenarios::four_bands_settled(), 4),
        ("four colour columns", scenarios::four_columns_settled(), 0),
    ] {
        let mut search = ClusterSearch::new(grid.height());
        let mut found = vec![0u128; grid.height()];
        let mut clusters = Vec::with_capacity(16);
        let measured = median_time(RUNS, || {
            found.fill(0);
            search.find_spanning(&grid, 4, None, &mut found, &mut clusters);
            std::hint::black_box(&found);
        });
        anyhow::ensure!(
            clusters.len() == expected,
            "{name}: found {} spanning clusters, expected {expected}",
            clusters.len()
        );
        figures.push(Figure {
            group: "sand",
            min: None,
            name: format!("spanning search: {name}"),
            measured,
            target: Some(Duration::from_micros(40)),
        });
    }
    Ok(figures)
}
