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

/// Median of `runs` timings of `f` (after one warm-up call).
pub fn median_time(runs: usize, f: impl FnMut()) -> Duration {
    min_median_time(runs, true, f).1
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
