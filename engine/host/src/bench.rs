//! What `tessera bench` figures are made of: a [`Figure`] with its
//! target, and the timing helpers every group measures with (games' groups
//! live with the games, [`crate::command::BenchGroup`]). Speed figures come
//! from `tessera bench`, never from timed unit tests.

use std::time::{Duration, Instant};

/// One measured figure with its target.
pub struct Figure {
    /// Group, e.g. `script`.
    pub group: &'static str,
    /// What was measured.
    pub name: String,
    /// The measured time (the median of its runs).
    pub measured: Duration,
    /// The fastest run, when the figure reports it.
    pub min: Option<Duration>,
    /// The target, when the issue sets one.
    pub target: Option<Duration>,
}

impl Figure {
    /// A figure measured by [`sample_time`] (or alike): its median, with
    /// its fastest sample beside it.
    pub fn timed(
        group: &'static str,
        name: impl Into<String>,
        timing: Timing,
        target: Option<Duration>,
    ) -> Self {
        Figure {
            group,
            name: name.into(),
            measured: timing.median,
            min: Some(timing.min),
            target,
        }
    }
}

/// The fastest and the median of a figure's samples.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// The fastest sample.
    pub min: Duration,
    /// The median sample.
    pub median: Duration,
}

impl std::ops::Div<u32> for Timing {
    type Output = Timing;
    fn div(self, per: u32) -> Timing {
        Timing {
            min: self.min / per,
            median: self.median / per,
        }
    }
}

/// How long a figure is measured at least: shorter figures wobble with
/// whatever else the machine runs.
pub const MEASURE_AT_LEAST: Duration = Duration::from_millis(500);

/// Times `f` (one batch of work) after a warm-up call: at least `runs`
/// samples and at least [`MEASURE_AT_LEAST`] in all, each sample repeating
/// `f` enough times to last about 25 ms. Returns the time of one call.
pub fn sample_time(runs: usize, mut f: impl FnMut()) -> Timing {
    let start = Instant::now();
    f();
    let once = start.elapsed().max(Duration::from_nanos(1));
    let repeat =
        (Duration::from_millis(25).as_nanos() / once.as_nanos()).clamp(1, 1_000_000) as u32;
    let mut samples = Vec::new();
    let mut total = Duration::ZERO;
    while samples.len() < runs.max(1) || (total < MEASURE_AT_LEAST && samples.len() < 10_000) {
        let start = Instant::now();
        for _ in 0..repeat {
            f();
        }
        let took = start.elapsed();
        total += took;
        samples.push(took / repeat);
    }
    samples.sort();
    Timing {
        min: samples[0],
        median: samples[samples.len() / 2],
    }
}

/// Fastest and median of `runs` timings of `f`, after one warm-up call
/// when `warm_up` (a run of many seconds needs none).
pub fn min_median_time(runs: usize, warm_up: bool, mut f: impl FnMut()) -> (Duration, Duration) {
    if warm_up {
        f();
    }
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[0], times[times.len() / 2])
}

/// `generate GAME ARGS` for each seed, each timed once: the median and the
/// slowest as two figures of `group` against `target`, when the issue sets
/// one (its "at most X s each" targets are about every seed, so the
/// slowest is shown).
pub fn generation_figures(
    group: &'static str,
    generator: &dyn crate::generate::LevelGenerator,
    args: &[&str],
    seeds: std::ops::RangeInclusive<u64>,
    target: Option<Duration>,
) -> Result<[Figure; 2], String> {
    let matches = clap::Command::new(group)
        .args(generator.arguments())
        .try_get_matches_from(std::iter::once(group).chain(args.iter().copied()))
        .map_err(|error| error.to_string())?;
    let (first, last) = (*seeds.start(), *seeds.end());
    let mut times = Vec::new();
    for seed in seeds {
        let start = Instant::now();
        generator
            .generate(&matches, seed, &crate::agent::ThinkControl::new())
            .map_err(|error| format!("seed {seed}: {error}"))?;
        times.push(start.elapsed());
    }
    times.sort();
    let spec = format!("generate {group} {}", args.join(" "));
    let slowest = times.last().copied().unwrap_or_default();
    Ok([
        Figure {
            group,
            name: format!("{spec}: median of seeds {first}-{last}"),
            measured: times.get(times.len() / 2).copied().unwrap_or_default(),
            min: times.first().copied(),
            target,
        },
        Figure {
            group,
            name: format!("{spec}: slowest of seeds {first}-{last}"),
            measured: slowest,
            min: None,
            target,
        },
    ])
}
