//! `tessera sim GAME --seats ai:medium,ai:expert --games N --seed S`:
//! AI-against-AI games on every core, for balance and the AI ladder. Seats
//! rotate each game (the player listed first starts game 1, the second
//! starts game 2, ...), so no AI keeps the advantage of moving first.
//! Prints each player's win rate with a 95% (Wilson) interval and its mean
//! and median score.
//!
//! The simulation itself is the host's (`tessera_host::sim`), shared with
//! the editor's Balance panel; this file parses the arguments and prints.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::bail;
use tessera_host::sim::{SimConfig, run_sim};
use tessera_host::{Budget, Seat, ThinkControl};

use crate::Status;

/// Arguments of `tessera sim`.
#[derive(clap::Args)]
pub struct Args {
    /// Game id (`tessera games` lists them).
    game: String,
    /// The players, comma-separated, each `ai:LEVEL` (e.g.
    /// `ai:medium,ai:expert`); the order rotates from game to game.
    #[arg(long, value_delimiter = ',', required = true)]
    seats: Vec<Seat>,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seed of the first game (game i plays seed + i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Most thinking time per AI move, in milliseconds (the AIs' own
    /// limits from the script apply too).
    #[arg(long, value_name = "MS")]
    move_ms: Option<u64>,
    /// Most search nodes (or playouts) per AI move.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Most moves in one game (guards against endless games).
    #[arg(long, default_value_t = 10_000)]
    max_moves: usize,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Level to play (default: the game's standard setup).
    #[arg(long)]
    level: Option<PathBuf>,
}

/// Runs `tessera sim`.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let registry = tessera_builtin::registry();
    if registry.get(&args.game).is_none() {
        let known: Vec<&str> = registry.iter().map(|e| e.id).collect();
        bail!("unknown game `{}` (known: {})", args.game, known.join(", "));
    }
    if let Some(seat) = args.seats.iter().find(|s| s.ai_level().is_none()) {
        crate::usage!(
            "--seats: `{seat}` is not an AI; a simulation needs `ai:LEVEL` in every seat"
        );
    }
    if args.games == 0 {
        crate::usage!("--games must be at least 1");
    }
    let root = {
        let project = super::current_project(tessera_builtin::registry())?;
        project.root().to_path_buf()
    };
    let config = SimConfig {
        game: args.game.clone(),
        seats: args.seats.clone(),
        games: args.games,
        seed: args.seed,
        budget: Budget {
            nodes: args.nodes,
            time: args.move_ms.map(Duration::from_millis),
        },
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        max_moves: args.max_moves,
        level: args.level.clone(),
    };
    let started = Instant::now();
    let report = run_sim(
        &root,
        tessera_builtin::registry,
        &config,
        &ThinkControl::new(),
        &|done, total| progress(done, total, started.elapsed()),
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    eprintln!();
    let summary = &report.summary;
    let threads = report.threads;
    let elapsed = report.elapsed;
    let results = &report.results;
    if args.json {
        let json = serde_json::json!({
            "game": args.game,
            "games": results.len(),
            "seed": args.seed,
            "seconds": elapsed.as_secs_f64(),
            "players": summary.iter().map(|p| serde_json::json!({
                "seat": p.seat,
                "wins": p.wins,
                "win_rate": p.rate,
                "win_rate_95": [p.low, p.high],
                "mean_score": p.mean,
                "median_score": p.median,
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!(
            "{} games of {} on {threads} threads in {:.1} s (seats rotate each game)",
            results.len(),
            args.game,
            elapsed.as_secs_f64()
        );
        println!(
            "{:<4} {:<16} {:>8} {:>9} {:>17} {:>8} {:>8}",
            "", "player", "wins", "win rate", "95% interval", "mean", "median"
        );
        for (i, p) in summary.iter().enumerate() {
            println!(
                "{:<4} {:<16} {:>8.1} {:>8.1}% {:>7.1}% - {:>5.1}% {:>8.1} {:>8.1}",
                i + 1,
                p.seat,
                p.wins,
                p.rate * 100.0,
                p.low * 100.0,
                p.high * 100.0,
                p.mean,
                p.median
            );
        }
    }
    Ok(Status::Ok)
}

/// A one-line progress bar on stderr.
fn progress(done: usize, total: usize, elapsed: Duration) {
    let width = 30;
    let filled = done * width / total.max(1);
    let eta = if done > 0 {
        elapsed.as_secs_f64() / done as f64 * (total - done) as f64
    } else {
        0.0
    };
    let mut err = std::io::stderr().lock();
    let _ = write!(
        err,
        "\r[{}{}] {done}/{total} games, {:.0} s left ",
        "#".repeat(filled),
        "-".repeat(width - filled),
        eta
    );
    let _ = err.flush();
}
