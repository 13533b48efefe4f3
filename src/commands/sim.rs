//! `tessera sim GAME --seats ai:medium,ai:expert --games N --seed S`:
//! AI-against-AI games on every core, for balance and the AI ladder. Seats
//! rotate each game (the player listed first starts game 1, the second
//! starts game 2, ...), so no AI keeps the advantage of moving first.
//! Prints each player's win rate with a 95% (Wilson) interval and its mean
//! and median score.
//!
//! The simulation itself is the host's (`tessera_host::sim`), shared with
//! the editor's Balance panel; this file parses the arguments and prints.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use tessera_host::sim::{SimConfig, run_sim};
use tessera_host::{Budget, Seat, ThinkControl};

use crate::Status;

/// Arguments of `tessera sim`.
#[derive(clap::Args)]
pub struct Args {
    /// Game id (`tessera games` lists them).
    game: String,
    /// The players, comma-separated, each `ai:LEVEL` (e.g.
    /// `ai:medium,ai:expert`); the order rotates from game to game. (Not
    /// for tetris: see --ai.)
    #[arg(long, value_delimiter = ',')]
    seats: Vec<Seat>,
    /// Tetris: the AI levels to compare, comma-separated (e.g.
    /// `easy,normal,hard,god,master`).
    #[arg(long, value_delimiter = ',')]
    ai: Vec<String>,
    /// Tetris: `classic` (the AI alone) or `feed` (a feeder gives it pieces).
    #[arg(long, default_value = "classic")]
    mode: String,
    /// Tetris feed mode: `random` or `hate`.
    #[arg(long, default_value = "random")]
    feeder: String,
    /// Tetris: most pieces per game (a classic game that reaches it survived).
    #[arg(long, default_value_t = 100_000)]
    pieces: u64,
    /// Tetris: let the AI see the next piece (default: no preview).
    #[arg(long)]
    preview: bool,
    /// Tetris: write every game as a CSV row to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<std::path::PathBuf>,
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
    /// Level to play (default: the game's standard setup; tetris: the
    /// 10 x 20 self-play board, or a 10 x 20 feed board with no ceiling).
    #[arg(long)]
    level: Option<PathBuf>,
}

/// Runs `tessera sim`.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    // Tetris's figures are the AI's own (lines, pieces, time per
    // decision), not seat against seat.
    if args.game == "tetris" {
        return super::tetris::sim(&super::tetris::SimArgs {
            mode: &args.mode,
            levels: &args.ai,
            feeder: &args.feeder,
            games: args.games,
            seed: args.seed,
            pieces: args.pieces,
            level: args.level.as_ref(),
            preview: args.preview,
            threads: args.threads,
            csv: args.csv.as_ref(),
            json: args.json,
        });
    }
    if args.seats.is_empty() {
        crate::usage!("--seats: name the players, e.g. --seats ai:medium,ai:expert");
    }
    let registry = tessera_builtin::registry();
    if registry.get(&args.game).is_none() {
        let known: Vec<&str> = registry.iter().map(|e| e.id).collect();
        crate::usage!("unknown game `{}` (known: {})", args.game, known.join(", "));
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
        let mut project = super::current_project(tessera_builtin::registry())?;
        // A seat count or AI level the game does not offer is bad usage
        // (exit 2), as in `play`.
        let seats = tessera_host::SessionOptions {
            mode: None,
            seats: args.seats.clone(),
        };
        if let Err(e) = project.spec(&args.game)?.resolve(&seats) {
            crate::usage!("--seats: {e}");
        }
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
    .map_err(anyhow::Error::msg)?;
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
            "{} games of {} on {threads} thread{} in {:.1} s (seats rotate each game)",
            results.len(),
            args.game,
            if threads == 1 { "" } else { "s" },
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
    progress_bar(
        done as f64 / total.max(1) as f64,
        elapsed,
        &format!("{done}/{total} games"),
    );
}

/// Draws `[####----] note, N s left` on standard error, in place. Only on
/// a terminal: redirected to a file, the redraws would fill it.
pub fn progress_bar(fraction: f64, elapsed: Duration, note: &str) {
    if !std::io::stderr().is_terminal() {
        return;
    }
    let width = 30;
    let fraction = fraction.clamp(0.0, 1.0);
    let filled = (fraction * width as f64) as usize;
    let eta = if fraction > 0.0 {
        elapsed.as_secs_f64() / fraction * (1.0 - fraction)
    } else {
        0.0
    };
    let mut err = std::io::stderr().lock();
    let _ = write!(
        err,
        "\r[{}{}] {note}, {:.0} s left ",
        "#".repeat(filled),
        "-".repeat(width - filled),
        eta
    );
    let _ = err.flush();
}
