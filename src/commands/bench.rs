//! `tessera bench`: the headline speed figures in one run (release build
//! recommended: `cargo run --release -- bench`). Criterion benches in
//! the criterion benches in each crate's `benches/` give the detailed, statistically sound numbers.

use std::time::{Duration, Instant};

use crate::Status;

mod azul;
mod polycube;
mod sand;
mod script;
mod tetris;

/// Arguments of `tessera bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Only the figures whose group starts with this (e.g. `script`).
    filter: Option<String>,
}

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

/// A named group of figures and the function that measures them.
type FigureGroup = (&'static str, fn() -> anyhow::Result<Vec<Figure>>);

/// Every group, in the order printed.
const GROUPS: &[FigureGroup] = &[
    ("script", script::figures),
    ("polycube", polycube::figures),
    ("sand", sand::figures),
    ("tetris", tetris::figures),
    ("azul", azul::figures),
];

/// Runs every group and prints one line per figure; fails when a target is
/// missed.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    if let Some(filter) = &args.filter
        && !GROUPS
            .iter()
            .any(|(group, _)| group.starts_with(filter.as_str()))
    {
        let names: Vec<&str> = GROUPS.iter().map(|(group, _)| *group).collect();
        crate::usage!(
            "no bench group starts with `{filter}` (groups: {})",
            names.join(", ")
        );
    }
    let mut missed = false;
    for (group, figures) in GROUPS {
        if args
            .filter
            .as_deref()
            .is_some_and(|f| !group.starts_with(f))
        {
            continue;
        }
        for figure in figures()? {
            let verdict = match figure.target {
                Some(target) if figure.measured <= target => {
                    format!("ok (target {})", show(target))
                }
                Some(target) => {
                    missed = true;
                    format!("MISSED (target {})", show(target))
                }
                None => String::new(),
            };
            let measured = match figure.min {
                Some(min) => format!("min {} / median {}", show(min), show(figure.measured)),
                None => show(figure.measured),
            };
            println!(
                "{:<10} {:<50} {:>12}  {verdict}",
                figure.group, figure.name, measured
            );
        }
    }
    Ok(if missed { Status::Failed } else { Status::Ok })
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

fn show(d: Duration) -> String {
    let ns = d.as_nanos();
    if ns < 10_000 {
        format!("{ns} ns")
    } else if ns < 10_000_000 {
        format!("{:.1} us", ns as f64 / 1e3)
    } else {
        format!("{:.1} ms", ns as f64 / 1e6)
    }
}
