//! `tessera solve PATH [--first | --unique | --disassemble | --count
//! [--assembly] [--no-symmetry] [--json] [--threads N] [--shard I/N]]`:
//! solve a polycube level (RON or either JSON format).
//!
//! `--first` and `--unique` are the puzzle validator's questions: each
//! search stops at its answer (the first solution; the second distinct
//! one), so they answer in well under a second where a count takes
//! minutes. `--disassemble` finds a packing that comes apart in straight
//! lines and prints the removal order.
//!
//! A count runs on every core (`--threads`), shows a progress line on
//! stderr once it has taken a second, and stops at Ctrl+C with the partial
//! sum clearly marked partial (exit 1). `--shard I/N` counts a fixed 1/N of
//! the subtrees and prints a JSON partial for `tessera merge`.
//! `--no-symmetry` counts by the plain search (every solution found as
//! such, no distinct count) on the same subtrees, threads and shards.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tessera_host::command::Status;
use tessera_host::partial::{FORMAT, Partial, ShardId, file_sha256};

use crate::import::load_any;
use crate::rules::Rules;
use crate::solver::{Progress, Solution};
use crate::{
    CountOptions, CountReport, PolycubeLevel, Shard, Solver, UserCell, disassembly, user_cell,
};

/// Arguments of `tessera solve`.
#[derive(clap::Args)]
pub(super) struct Args {
    /// The level: `.ron`, or `.json` in the seed's or the generator's format.
    path: PathBuf,
    /// Print one solution, or `no solution` (exit 0 either way: the
    /// question was answered).
    #[arg(long, conflicts_with_all = ["count", "unique", "disassemble"])]
    first: bool,
    /// Whether the level has exactly one solution up to the box's
    /// symmetries: prints `unique`, `not unique` or `no solution` (exit 0);
    /// stops at the second distinct solution.
    #[arg(long, conflicts_with_all = ["count", "disassemble"])]
    unique: bool,
    /// Find a packing that comes apart piece by piece, each sliding out in
    /// a straight line, and print that removal order (exit 1 when every
    /// packing interlocks or there is none).
    #[arg(long, conflicts_with = "count")]
    disassemble: bool,
    /// Count every solution and the distinct ones instead of printing one.
    #[arg(long)]
    count: bool,
    /// With `--count`: count only the solutions that can be assembled in
    /// straight lines (the assembly mode's packings).
    #[arg(long, requires = "count")]
    assembly: bool,
    /// With `--count`: no symmetry breaking. The plain search finds every
    /// solution as itself, rotations and reflections each once (the search
    /// Knuth's DLX runs: a cross-check, and the like-for-like figure against
    /// other solvers); it prints no distinct count and takes longer (about
    /// 10x on the 2x5x6 box).
    #[arg(long, requires = "count")]
    no_symmetry: bool,
    /// With `--count`: print one JSON object `{"solutions", "distinct",
    /// "seconds", "complete", "threads", "nodes", "symmetry"}` (symmetry:
    /// whether the count broke the box's symmetry, false with
    /// `--no-symmetry`, whose distinct is null; nodes: search nodes
    /// visited, a measure of the work that no machine changes).
    #[arg(long, requires = "count")]
    json: bool,
    /// With `--count`: worker threads, 1 to 256 (default: every core).
    #[arg(long, requires = "count", value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=tessera_host::worker::MAX_THREADS))]
    threads: Option<usize>,
    /// With `--count`: count shard I of N (1-based) and print a JSON
    /// partial for `tessera merge`.
    #[arg(long, requires = "count", value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
}

/// Raised by Ctrl+C (the process's job token): the search in progress
/// stops and reports what it has.
fn stop() -> &'static AtomicBool {
    tessera_host::job::interrupt().cancel_flag()
}

/// A count shows its progress line only after this long.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// Prints one solution (layers, z = 1 first, a letter per piece) or
/// `no solution`; with `--count`, the counts. Exit 0 when solvable.
pub(super) fn run(args: &Args) -> anyhow::Result<Status> {
    let (level, warnings) = load_any(&args.path).map_err(anyhow::Error::from)?;
    for warning in &warnings {
        eprintln!("{warning}");
    }
    let started = Instant::now();
    let solver = Solver::new(level.extents(), &level.shapes())?;
    if args.count {
        return count(args, &solver, started);
    }
    // Each search is a job: a progress line after a quiet second, and
    // Ctrl+C stops it.
    let _listening = tessera_host::job::listen();
    if args.unique {
        let verdict = tessera_host::job::run("solve --unique", |_| solver.verdict(stop()))
            .map_err(stopped)?;
        println!("{}", verdict.word());
        return Ok(Status::Ok);
    }
    if args.disassemble {
        return disassemble(&level, &solver);
    }
    let first = tessera_host::job::run("solve --first", |_| solver.first(stop()));
    let Some(solution) = first.map_err(stopped)? else {
        println!("no solution");
        // `--first` answers a question; plain `solve` fails on no solution.
        return Ok(if args.first {
            Status::Ok
        } else {
            Status::Failed
        });
    };
    print!("{}", picture(&level, &solution)?);
    Ok(Status::Ok)
}

/// A Ctrl+C during a validator search, in words.
fn stopped(error: crate::solver::SolveError) -> anyhow::Error {
    match error {
        crate::solver::SolveError::Cancelled => {
            anyhow::anyhow!(
                "{}cancelled (Ctrl+C) before an answer",
                tessera_host::job::PARTIAL_STOPPED
            )
        }
        other => other.into(),
    }
}

/// A solution as layers of letters, by replaying it through the rules (so
/// a solver bug shows as an error, not a wrong picture).
fn picture(level: &PolycubeLevel, solution: &Solution) -> anyhow::Result<String> {
    let mut rules = Rules::new(level, false);
    for (piece, cells) in solution.pieces.iter().enumerate() {
        let targets: Vec<UserCell> = cells.iter().map(|&c| user_cell(c)).collect();
        rules
            .place_cells(piece, &targets)
            .map_err(|e| anyhow::anyhow!("the solver's solution does not replay: {e}"))?;
    }
    Ok(rules.render_text())
}

/// `--disassemble`: a packing that comes apart in straight lines, its
/// picture and removal order; or why there is none.
fn disassemble(level: &PolycubeLevel, solver: &Solver) -> anyhow::Result<Status> {
    let assemblable =
        tessera_host::job::run("solve --disassemble", |_| solver.first_assemblable(stop()));
    let Some(solution) = assemblable.map_err(stopped)? else {
        let locked =
            tessera_host::job::run("solve --disassemble: any packing", |_| solver.first(stop()));
        let Some(locked) = locked.map_err(stopped)? else {
            println!("no solution");
            return Ok(Status::Failed);
        };
        let stuck = disassembly::disassemble(level.extents(), &locked.pieces);
        let ids: Vec<&str> = stuck
            .locked
            .iter()
            .map(|&p| level.pieces[p].id.as_str())
            .collect();
        println!(
            "no straight-line disassembly: every packing interlocks (in the first one found, pieces {} lock each other)",
            ids.join(", ")
        );
        print!("{}", picture(level, &locked)?);
        return Ok(Status::Failed);
    };
    print!("{}", picture(level, &solution)?);
    let id = |p: usize| level.pieces[p].id.as_str();
    // With support, the reverse is an order the assembly mode accepts as
    // played (every piece lands touching the floor or a piece).
    match disassembly::assembly_order(level.extents(), &solution.pieces, true) {
        Some(order) => {
            println!(
                "removal order (each piece slides out in a straight line; reversed, it builds the box in assembly mode):"
            );
            for (step, insertion) in order.iter().rev().enumerate() {
                println!(
                    "{:>3}. {} out along {}",
                    step + 1,
                    id(insertion.piece),
                    insertion.out
                );
            }
        }
        None => {
            let order = disassembly::disassemble(level.extents(), &solution.pieces).order;
            println!(
                "removal order (each piece slides out in a straight line; building it back needs a piece to hang in the air, which the assembly mode refuses as Floating):"
            );
            for (step, removal) in order.iter().enumerate() {
                println!(
                    "{:>3}. {} out along {}",
                    step + 1,
                    id(removal.piece),
                    removal.direction
                );
            }
        }
    }
    Ok(Status::Ok)
}

/// `--count`: every core, a progress line, Ctrl+C, shards.
fn count(args: &Args, solver: &Solver, started: Instant) -> anyhow::Result<Status> {
    let _listening = tessera_host::job::listen();
    let options = CountOptions {
        threads: args.threads.unwrap_or(0),
        shard: args.shard.unwrap_or(Shard::WHOLE),
        assembly: args.assembly,
        symmetry: !args.no_symmetry,
    };
    let mut line = ProgressLine::new(started);
    let report = solver.count_with(&options, stop(), &mut |p| line.update(p))?;
    line.finish();
    let seconds = started.elapsed().as_secs_f64();
    if let Some(shard) = args.shard {
        print_partial(args, &report, shard, seconds)?;
    } else if args.json {
        // A struct keeps the documented key order.
        #[derive(serde::Serialize)]
        struct Report {
            solutions: u64,
            distinct: Option<u64>,
            seconds: f64,
            complete: bool,
            threads: usize,
            nodes: u64,
            symmetry: bool,
        }
        let json = Report {
            solutions: report.counts.solutions,
            distinct: (!args.no_symmetry).then_some(report.counts.distinct),
            seconds,
            complete: report.complete,
            threads: report.threads,
            nodes: report.nodes,
            symmetry: !args.no_symmetry,
        };
        println!("{}", serde_json::to_string(&json)?);
    } else {
        let distinct = (!args.no_symmetry).then_some(report.counts.distinct);
        let counted = counted_words(report.counts.solutions, distinct);
        if report.complete {
            println!("{counted} ({seconds:.3} s)");
        } else {
            println!(
                "PARTIAL (stopped): at least {counted}, from {} of {} subtrees ({seconds:.3} s)",
                report.done, report.total
            );
        }
    }
    Ok(if !report.complete {
        eprintln!("stopped before the end: the counts above are partial");
        Status::Failed
    } else if report.counts.solutions > 0 || args.shard.is_some() {
        Status::Ok
    } else {
        Status::Failed
    })
}

/// The counts in words: `N solutions, D distinct`, or for a plain count
/// (no distinct count) `N solutions (plain search, no symmetry breaking)`.
/// `tessera merge` prints merged counts the same way.
pub(super) fn counted_words(solutions: u64, distinct: Option<u64>) -> String {
    match distinct {
        Some(distinct) => format!("{solutions} solutions, {distinct} distinct"),
        None => format!("{solutions} solutions (plain search, no symmetry breaking)"),
    }
}

/// The command a partial names: what was counted and how. Partials of
/// different commands never merge (a plain count's subtrees are not the
/// symmetry-broken count's).
fn partial_command(assembly: bool, symmetry: bool) -> String {
    let mut command = String::from("solve --count");
    if assembly {
        command.push_str(" --assembly");
    }
    if !symmetry {
        command.push_str(" --no-symmetry");
    }
    command
}

/// The JSON partial of one shard.
fn print_partial(
    args: &Args,
    report: &CountReport,
    shard: Shard,
    seconds: f64,
) -> anyhow::Result<()> {
    let partial = Partial {
        tessera_partial: FORMAT,
        command: partial_command(args.assembly, !args.no_symmetry),
        input: args.path.display().to_string(),
        input_sha256: file_sha256(&args.path)?,
        options: serde_json::json!({
            "tessera": env!("CARGO_PKG_VERSION"),
            "subtrees": report.subtrees,
            "symmetry": !args.no_symmetry,
        }),
        shard: ShardId {
            index: shard.index + 1,
            of: shard.count,
        },
        complete: report.complete,
        seconds,
        result: serde_json::json!({
            "solutions": report.counts.solutions,
            "distinct": (!args.no_symmetry).then_some(report.counts.distinct),
            "subtrees_done": report.done,
            "subtrees_total": report.total,
        }),
    };
    println!("{}", serde_json::to_string(&partial)?);
    Ok(())
}

/// The progress line on stderr: hidden for the first second, then
/// subtrees done / total, solutions so far, rate and ETA (indicatif draws
/// only on a terminal).
struct ProgressLine {
    started: Instant,
    bar: Option<ProgressBar>,
}

impl ProgressLine {
    fn new(started: Instant) -> Self {
        Self { started, bar: None }
    }

    fn update(&mut self, p: Progress) {
        let elapsed = self.started.elapsed();
        if self.bar.is_none() && elapsed >= QUIET_FOR && p.done < p.total {
            // Created at the subtrees already done, so the first frame
            // neither shows an empty message nor counts the first second's
            // subtrees as done in no time (the ETA's rate).
            let bar = ProgressBar::with_draw_target(
                Some(p.total as u64),
                ProgressDrawTarget::stderr_with_hz(4),
            )
            .with_position(p.done as u64)
            .with_message(format!("{} solutions so far", p.counts.solutions));
            if let Ok(style) =
                ProgressStyle::with_template("{bar:30} {pos}/{len} subtrees · {msg} · ETA {eta}")
            {
                bar.set_style(style);
            }
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(p.done as u64);
            let rate = p.counts.solutions as f64 / elapsed.as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{} solutions so far ({rate:.0}/s)",
                p.counts.solutions
            ));
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
