//! Polycube solver figures: Soma count, 6x10 pentominoes raw and distinct,
//! the twelve pentominoes in 2x5x6 and in 3x4x5, and the Bedlam cube, the
//! two hard counts on one thread and on every core. Each run also checks
//! its count.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tessera_host::bench::{Figure, min_median_time};
use tessera_host::command::CommandContext;

use crate::import::load_any;
use crate::{CountOptions, PolycubeLevel, Shard, Solver};

/// The repository's `levels/polycube/`, where the bench's boxes are (found
/// from this crate's folder, so `tessera bench` runs from any folder).
fn level(name: &str) -> anyhow::Result<PolycubeLevel> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../levels/polycube")
        .join(name);
    let (level, _) = load_any(&path).map_err(anyhow::Error::from)?;
    Ok(level)
}

fn solver(level: &PolycubeLevel) -> anyhow::Result<Solver> {
    Ok(Solver::new(level.extents(), &level.shapes())?)
}

/// How a figure counts.
#[derive(Clone, Copy)]
enum Count {
    /// Plain search, one thread (checks the raw count): `count_plain`, the
    /// like-for-like figure against DLX1.
    Plain,
    /// Plain search cut into subtrees on this many threads (0: every core;
    /// checks the raw count): `solve --count --no-symmetry`.
    PlainThreads(usize),
    /// Symmetry broken on this many threads (0: every core; checks the
    /// distinct count).
    Broken(usize),
}

/// A whole count on `threads` threads, with or without symmetry breaking.
fn options(threads: usize, symmetry: bool) -> CountOptions {
    CountOptions {
        threads,
        shard: Shard::WHOLE,
        assembly: false,
        symmetry,
    }
}

/// Times a count and checks the result against the published figure.
fn figure(
    name: String,
    solver: &Solver,
    how: Count,
    expected: u64,
    runs: usize,
    target: Option<Duration>,
) -> anyhow::Result<Figure> {
    let cancel = AtomicBool::new(false);
    let mut wrong = None;
    // A count of seconds is its own warm-up.
    let (min, measured) = min_median_time(runs, runs <= 3, || {
        let got = match how {
            Count::Plain => solver.count_plain(&cancel).unwrap_or(0),
            Count::PlainThreads(threads) => solver
                .count_with(&options(threads, false), &cancel, &mut |_| {})
                .map(|r| r.counts.solutions)
                .unwrap_or(0),
            Count::Broken(threads) => solver
                .count_with(&options(threads, true), &cancel, &mut |_| {})
                .map(|r| r.counts.distinct)
                .unwrap_or(0),
        };
        if got != expected {
            wrong = Some(got);
        }
    });
    if let Some(got) = wrong {
        anyhow::bail!("{name}: counted {got}, expected {expected}");
    }
    Ok(Figure {
        group: "polycube",
        name,
        measured,
        min: Some(min),
        target,
    })
}

/// A hard count on one thread and on every core: the every-core figure
/// must meet `target` and be at least 1.8 times faster than one thread
/// (on two cores or more).
fn scaling(
    label: &str,
    solver: &Solver,
    distinct: u64,
    runs: usize,
    target: Duration,
) -> anyhow::Result<Vec<Figure>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let one = figure(
        format!("{label}, 1 thread"),
        solver,
        Count::Broken(1),
        distinct,
        runs,
        None,
    )?;
    let speedup_target = if cores >= 2 {
        one.measured.div_f64(1.8)
    } else {
        target
    };
    let all = figure(
        format!("{label}, {cores} threads"),
        solver,
        Count::Broken(0),
        distinct,
        runs,
        Some(target.min(speedup_target)),
    )?;
    Ok(vec![one, all])
}

/// The headline solver figures.
pub fn figures(_: &CommandContext) -> anyhow::Result<Vec<Figure>> {
    let soma = solver(&level("soma.ron")?)?;
    let six_ten = solver(&level("pentominoes_6x10.ron")?)?;
    // The level `tessera solve --count` and the DLX1 comparison read.
    let box_2x5x6 = solver(&level("pentacubes_2x5x6.ron")?)?;
    let box_3x4x5 = solver(&level("pentacubes_3x4x5.ron")?)?;
    let bedlam = solver(&level("bedlam.ron")?)?;
    let ms = Duration::from_millis;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut figures = vec![
        figure(
            "Soma cube: count 11520 solutions (240 distinct)".into(),
            &soma,
            Count::Broken(0),
            240,
            11,
            Some(ms(100)),
        )?,
        figure(
            "pentominoes 6x10: all 9356 solutions, plain search".into(),
            &six_ten,
            Count::Plain,
            9356,
            3,
            Some(ms(3000)),
        )?,
        figure(
            "pentominoes 6x10: 2339 distinct (symmetry broken)".into(),
            &six_ten,
            Count::Broken(0),
            2339,
            3,
            Some(ms(1000)),
        )?,
        // Target: a tenth of Knuth's DLX1 on the same box, every solution
        // (6.59-6.70 s on the idle 2-core machine of the README).
        figure(
            "pentominoes in 2x5x6: all 2112 solutions, plain search, 1 thread".into(),
            &box_2x5x6,
            Count::Plain,
            2112,
            5,
            Some(ms(660)),
        )?,
        figure(
            format!("pentominoes in 2x5x6: all 2112 solutions, plain search, {cores} threads"),
            &box_2x5x6,
            Count::PlainThreads(0),
            2112,
            5,
            Some(ms(660)),
        )?,
        figure(
            "pentominoes in 2x5x6: 2112 / 264 distinct, symmetry broken".into(),
            &box_2x5x6,
            Count::Broken(0),
            264,
            11,
            Some(ms(3000)),
        )?,
    ];
    figures.extend(scaling(
        "3x4x5 pentacube box: 31520 / 3940 distinct",
        &box_3x4x5,
        3940,
        3,
        Duration::from_secs(10),
    )?);
    figures.extend(scaling(
        "Bedlam cube: 460464 / 19186 distinct",
        &bedlam,
        19186,
        3,
        Duration::from_secs(10),
    )?);
    Ok(figures)
}
