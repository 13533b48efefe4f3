//! `tessera solve PATH [--count] [--json] [--threads N] [--shard I/N]`:
//! solve a polycube level (RON or either JSON format).
//!
//! A count runs on every core (`--threads`), shows a progress line on
//! stderr once it has taken a second, and stops at Ctrl+C with the partial
//! sum clearly marked partial (exit 1). `--shard I/N` counts a fixed 1/N of
//! the subtrees and prints a JSON partial for `tessera merge`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tessera_polycube::import::load_any;
use tessera_polycube::rules::Rules;
use tessera_polycube::solver::Progress;
use tessera_polycube::{CountOptions, CountReport, Shard, Solver};

use super::partial::{FORMAT, Partial, ShardId, file_sha256};
use crate::Status;

/// Arguments of `tessera solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The level: `.ron`, or `.json` in the seed's or the generator's format.
    path: PathBuf,
    /// Count every solution and the distinct ones instead of printing one.
    #[arg(long)]
    count: bool,
    /// With `--count`: print one JSON object `{"solutions", "distinct",
    /// "seconds", "complete", "threads", "nodes"}` (nodes: search nodes
    /// visited, a measure of the work that no machine changes).
    #[arg(long, requires = "count")]
    json: bool,
    /// With `--count`: worker threads (default: every core).
    #[arg(long, requires = "count", value_name = "N")]
    threads: Option<usize>,
    /// With `--count`: count shard I of N (1-based) and print a JSON
    /// partial for `tessera merge`.
    #[arg(long, requires = "count", value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
}

/// Raised by Ctrl+C; the count in progress stops and reports what it has.
static STOP: AtomicBool = AtomicBool::new(false);

/// A count shows its progress line only after this long.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// Prints one solution (layers, z = 1 first, a letter per piece) or
/// `no solution`; with `--count`, the counts. Exit 0 when solvable.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    if args.threads == Some(0) {
        crate::usage!("--threads must be at least 1");
    }
    let (level, warnings) = load_any(&args.path).map_err(anyhow::Error::from)?;
    for warning in &warnings {
        eprintln!("{warning}");
    }
    let started = Instant::now();
    let solver = Solver::new(level.extents(), &level.shapes())?;
    if args.count {
        return count(args, &solver, started);
    }
    let cancel = AtomicBool::new(false);
    let Some(solution) = solver.first(&cancel)? else {
        println!("no solution");
        return Ok(Status::Failed);
    };
    let mut rules = Rules::new(&level, false);
    for (piece, cells) in solution.pieces.iter().enumerate() {
        let targets: Vec<tessera_polycube::UserCell> = cells
            .iter()
            .map(|&c| tessera_polycube::user_cell(c))
            .collect();
        rules
            .place_cells(piece, &targets)
            .map_err(|e| anyhow::anyhow!("the solver's solution does not replay: {e}"))?;
    }
    print!("{}", rules.render_text());
    Ok(Status::Ok)
}

/// `--count`: every core, a progress line, Ctrl+C, shards.
fn count(args: &Args, solver: &Solver, started: Instant) -> anyhow::Result<Status> {
    // A second handler cannot be installed (only in tests calling twice);
    // the count then simply cannot be interrupted early.
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let options = CountOptions {
        threads: args.threads.unwrap_or(0),
        shard: args.shard.unwrap_or(Shard::WHOLE),
    };
    let mut line = ProgressLine::new(started);
    let report = solver.count_with(&options, &STOP, &mut |p| line.update(p))?;
    line.finish();
    let seconds = started.elapsed().as_secs_f64();
    if let Some(shard) = args.shard {
        print_partial(args, &report, shard, seconds)?;
    } else if args.json {
        // A struct keeps the documented key order.
        #[derive(serde::Serialize)]
        struct Report {
            solutions: u64,
            distinct: u64,
            seconds: f64,
            complete: bool,
            threads: usize,
            nodes: u64,
        }
        let json = Report {
            solutions: report.counts.solutions,
            distinct: report.counts.distinct,
            seconds,
            complete: report.complete,
            threads: report.threads,
            nodes: report.nodes,
        };
        println!("{}", serde_json::to_string(&json)?);
    } else if report.complete {
        println!(
            "{} solutions, {} distinct ({seconds:.3} s)",
            report.counts.solutions, report.counts.distinct
        );
    } else {
        println!(
            "PARTIAL (stopped): at least {} solutions, {} distinct, from {} of {} subtrees ({seconds:.3} s)",
            report.counts.solutions, report.counts.distinct, report.done, report.total
        );
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

/// The JSON partial of one shard.
fn print_partial(
    args: &Args,
    report: &CountReport,
    shard: Shard,
    seconds: f64,
) -> anyhow::Result<()> {
    let partial = Partial {
        tessera_partial: FORMAT,
        command: "solve --count".into(),
        input: args.path.display().to_string(),
        input_sha256: file_sha256(&args.path)?,
        options: serde_json::json!({
            "tessera": env!("CARGO_PKG_VERSION"),
            "subtrees": report.subtrees,
        }),
        shard: ShardId {
            index: shard.index + 1,
            of: shard.count,
        },
        complete: report.complete,
        seconds,
        result: serde_json::json!({
            "solutions": report.counts.solutions,
            "distinct": report.counts.distinct,
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
            let bar = ProgressBar::with_draw_target(
                Some(p.total as u64),
                ProgressDrawTarget::stderr_with_hz(4),
            );
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:30} {pos}/{len} subtrees · {msg} · {per_sec} · ETA {eta}",
            ) {
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
