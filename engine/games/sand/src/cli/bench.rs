//! Sand drop figures: physics ticks and the spanning-cluster search on the
//! default 120x220 grain board (criterion: `cargo bench -p tessera-sand
//! --bench sand`); then `generate sand` (2 and 3 pieces), the median and
//! the slowest of seeds 1 to 10 (no target in the issue).

use std::time::{Duration, Instant};

use tessera_host::bench::{Figure, MEASURE_AT_LEAST, Timing, generation_figures, sample_time};
use tessera_host::command::CommandContext;
use tessera_host::rng::game_rng;

use crate::clear::ClusterSearch;
use crate::grid::GrainGrid;
use crate::physics::RandomBits;
use crate::scenarios;

const RUNS: usize = 301;

/// Time of one tick on a fresh copy of `board` (the copy is made outside
/// the timing): at least `RUNS` ticks and half a second of ticking.
fn tick_time(board: &GrainGrid) -> Timing {
    let mut rng = game_rng(1);
    let mut times: Vec<Duration> = Vec::new();
    let mut total = Duration::ZERO;
    while times.len() < RUNS || (total < MEASURE_AT_LEAST && times.len() < 1_000_000) {
        let mut grid = board.clone();
        let start = Instant::now();
        grid.step(&mut RandomBits::new(&mut rng));
        let elapsed = start.elapsed();
        std::hint::black_box(&grid);
        total += elapsed;
        times.push(elapsed);
    }
    times.sort();
    Timing {
        min: times[0],
        median: times[times.len() / 2],
    }
}

/// The tick and search figures with the targets.
pub fn figures(_: &CommandContext) -> anyhow::Result<Vec<Figure>> {
    let mut figures = vec![
        Figure::timed(
            "sand",
            "tick: full board, every grain awake",
            tick_time(&scenarios::full_board_awake(4)),
            Some(Duration::from_micros(20)),
        ),
        Figure::timed(
            "sand",
            "tick: half board falling (13200 moves)",
            tick_time(&scenarios::half_board_falling()),
            Some(Duration::from_micros(20)),
        ),
    ];
    let mut idle = scenarios::one_colour_settled();
    let mut rng = game_rng(1);
    const IDLE_TICKS: u32 = 10_000;
    let batch = sample_time(15, || {
        for _ in 0..IDLE_TICKS {
            idle.step(&mut RandomBits::new(&mut rng));
        }
        std::hint::black_box(&idle);
    });
    figures.push(Figure {
        group: "sand",
        min: Some((batch / IDLE_TICKS).min),
        name: "tick: idle (nothing awake)".into(),
        measured: (batch / IDLE_TICKS).median,
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
        let measured = sample_time(RUNS, || {
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
            min: Some(measured.min),
            name: format!("spanning search: {name}"),
            measured: measured.median,
            target: Some(Duration::from_micros(40)),
        });
    }
    for pieces in ["2", "3"] {
        figures.extend(
            generation_figures(
                "sand",
                crate::generate::GENERATOR,
                &["--clears", "1", "--pieces", pieces],
                1..=10,
                None,
            )
            .map_err(anyhow::Error::msg)?,
        );
    }
    Ok(figures)
}
