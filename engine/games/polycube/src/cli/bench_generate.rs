//! The generator's figures (#37's targets): a unique 3x3x3 of 6 pieces
//! (median and worst of seeds 1 to 20), a unique 4x4x4 of 13 pieces
//! (Bedlam's size, the default sizes 2..12 of a skewed cut; median and
//! worst of seeds 1 to 10, each stopped at the target's 60 s: a seed
//! stopped is a seed over the target), a unique 5x5x5 of 25 pieces (the
//! default sizes 2..22 of a pocketed cut; seeds 1 to 10, each stopped at
//! 120 s), and
//! Make unique on the 3x3x3 cuts with 2 to 10 packings among seeds 1 to 40.
//! Each seed runs once (a generation is deterministic); each level made
//! is checked.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tessera_host::ThinkControl;
use tessera_host::bench::Figure;
use tessera_host::command::CommandContext;
use tessera_host::generate::{GenerateError, Generated, Proof};
use tessera_host::level::parse_level;

use crate::PolycubeLevel;
use crate::generate::GENERATOR;
use crate::generate::repair::{Repair, make_unique};
use crate::solver::Solver;

/// Generates `args` from `seed`, stopped after `limit`.
fn generate(
    args: &[&str],
    seed: u64,
    limit: Duration,
) -> anyhow::Result<(Duration, Option<Generated>)> {
    let matches = clap::Command::new("polycube")
        .args(GENERATOR.arguments())
        .try_get_matches_from(std::iter::once("polycube").chain(args.iter().copied()))?;
    let control = ThinkControl::new();
    let started = Instant::now();
    let made = std::thread::scope(|scope| {
        let work = scope.spawn(|| GENERATOR.generate(&matches, seed, &control));
        while !work.is_finished() {
            if started.elapsed() > limit {
                control.cancel();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        work.join()
    });
    let elapsed = started.elapsed();
    match made {
        Ok(Ok(level)) => {
            let proof = tessera_host::generate::prove(
                GENERATOR,
                "polycube",
                std::path::Path::new("bench.ron"),
                &level.text,
                &control,
            );
            anyhow::ensure!(
                matches!(proof, Proof::Holds(_)),
                "seed {seed}: the claim does not hold: {proof:?}"
            );
            Ok((elapsed, Some(level)))
        }
        Ok(Err(GenerateError::Cancelled | GenerateError::NotFound(_))) => Ok((elapsed, None)),
        Ok(Err(e)) => Err(e.into()),
        Err(_) => anyhow::bail!("seed {seed}: the generator panicked"),
    }
}

/// `args` generated from seeds 1 to 10, each stopped after `limit`: the
/// times, and how many made a level.
fn seeds_within(args: &[&str], limit: Duration) -> anyhow::Result<(Vec<Duration>, usize)> {
    let mut times = Vec::new();
    let mut found = 0;
    for seed in 1..=10 {
        let (time, made) = generate(args, seed, limit)?;
        found += usize::from(made.is_some());
        times.push(time);
    }
    Ok((times, found))
}

/// Median and worst of `times` as two figures (the worst without a target
/// when `targets.1` is `None`).
fn median_and_worst(
    name: &str,
    mut times: Vec<Duration>,
    targets: (Duration, Option<Duration>),
) -> Vec<Figure> {
    times.sort();
    let median = times[times.len() / 2];
    let mut out = vec![Figure {
        group: "polycube-generate",
        name: format!("{name}: median"),
        measured: median,
        min: times.first().copied(),
        target: Some(targets.0),
    }];
    out.push(Figure {
        group: "polycube-generate",
        name: format!("{name}: worst"),
        measured: times.last().copied().unwrap_or_default(),
        min: None,
        target: targets.1,
    });
    out
}

/// The generator's figures.
pub fn figures(_: &CommandContext) -> anyhow::Result<Vec<Figure>> {
    let secs = Duration::from_secs;
    let unique_333 = ["--box", "3x3x3", "--pieces", "6", "--unique"];
    let mut times = Vec::new();
    for seed in 1..=20 {
        let (time, made) = generate(&unique_333, seed, secs(60))?;
        anyhow::ensure!(made.is_some(), "3x3x3 seed {seed}: no level");
        times.push(time);
    }
    let mut figures = median_and_worst(
        "generate a unique 3x3x3 of 6 pieces, seeds 1-20",
        times,
        (secs(2), Some(secs(10))),
    );

    let (times, found) = seeds_within(&["--box", "4x4x4", "--pieces", "13", "--unique"], secs(60))?;
    figures.extend(median_and_worst(
        &format!(
            "generate a unique 4x4x4 of 13 pieces (default sizes 2..12: a skewed cut), seeds 1-10 ({found} of 10 found in 60 s)"
        ),
        times,
        (secs(60), None),
    ));

    let (times, found) =
        seeds_within(&["--box", "5x5x5", "--pieces", "25", "--unique"], secs(120))?;
    figures.extend(median_and_worst(
        &format!(
            "generate a unique 5x5x5 of 25 pieces (default sizes 2..22: a pocketed cut), seeds 1-10 ({found} of 10 found in 120 s)"
        ),
        times,
        (secs(120), None),
    ));

    let mut times = Vec::new();
    for seed in 1..=40 {
        if times.len() == 5 {
            break;
        }
        let (_, Some(made)) = generate(&["--box", "3x3x3", "--pieces", "6"], seed, secs(60))?
        else {
            continue;
        };
        let level: PolycubeLevel = parse_level(&made.text, std::path::Path::new("bench.ron"))?;
        let packings = Solver::new(level.extents(), &level.shapes())?
            .distinct(11, &AtomicBool::new(false))?
            .len();
        if !(2..=10).contains(&packings) {
            continue;
        }
        let started = Instant::now();
        let repair = make_unique(&level, &ThinkControl::new());
        times.push(started.elapsed());
        anyhow::ensure!(
            matches!(repair, Ok(Repair::Proposals(_))),
            "Make unique on seed {seed}'s cut ({packings} packings): {repair:?}"
        );
    }
    anyhow::ensure!(
        !times.is_empty(),
        "no 3x3x3 cut with 2 to 10 packings among seeds 1-40"
    );
    figures.extend(median_and_worst(
        &format!(
            "Make unique on {} 3x3x3 designs with 2-10 packings",
            times.len()
        ),
        times,
        (secs(5), Some(secs(5))),
    ));
    Ok(figures)
}
