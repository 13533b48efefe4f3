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

use anyhow::anyhow;
use tessera_host::sim::{GameResult, PlayerSummary, SimConfig, run_sim, summarise};
use tessera_host::{Budget, Seat, ThinkControl};

use super::partial::{FORMAT, Partial, ShardId, sha256_hex};
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
    /// Play shard I of N (1-based): a fixed range of the games (and so of
    /// their seeds), printed as a JSON partial for `tessera merge`.
    #[arg(long, value_name = "I/N", value_parser = ShardId::parse)]
    shard: Option<ShardId>,
    /// Level to play (default: the game's standard setup; tetris: the
    /// 10 x 20 self-play board, or a 10 x 20 feed board with no ceiling).
    #[arg(long)]
    level: Option<PathBuf>,
}

/// Runs `tessera sim`.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    // Where the rows go is checked before the simulation, not after.
    if let Some(path) = &args.csv {
        tessera_host::level::check_writable(path)?;
    }
    // Tetris's figures are the AI's own (lines, pieces, time per
    // decision), not seat against seat.
    if args.game == "tetris" {
        if args.shard.is_some() {
            crate::usage!(
                "--shard: `sim tetris` does not shard yet (its own simulation prints per-level figures, not a partial)"
            );
        }
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
    let shard = args.shard.unwrap_or(ShardId { index: 1, of: 1 });
    let (first, last) = shard.range(args.games);
    let players = args.seats.len();
    // Game g seats player (g + s) mod n in seat s: a shard starting at game
    // `first` plays its game i as game first + i by rotating the list.
    let seats: Vec<Seat> = (0..players)
        .map(|p| args.seats[(p + first) % players].clone())
        .collect();
    let config = SimConfig {
        game: args.game.clone(),
        seats,
        games: last - first,
        seed: args.seed.wrapping_add(first as u64),
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
    let report = if config.games == 0 {
        None
    } else {
        Some(
            run_sim(
                &root,
                tessera_builtin::registry,
                &config,
                &ThinkControl::new(),
                &|done, total| progress(done, total, started.elapsed()),
            )
            .map_err(anyhow::Error::msg)?,
        )
    };
    eprintln!();
    // Each result back in the order of the players as listed.
    let results: Vec<GameResult> = report
        .as_ref()
        .map(|r| r.results.clone())
        .unwrap_or_default()
        .into_iter()
        .map(|r| {
            let mut back = r.clone();
            for k in 0..players {
                back.win_share[(k + first) % players] = r.win_share[k];
                back.score[(k + first) % players] = r.score[k];
            }
            back
        })
        .collect();
    let threads = report.as_ref().map_or(0, |r| r.threads);
    let elapsed = started.elapsed();
    let complete = report.as_ref().is_none_or(|r| !r.cancelled);
    if args.shard.is_some() {
        let partial = Partial {
            tessera_partial: FORMAT,
            command: "sim".into(),
            input: args.level.as_ref().map_or_else(
                || format!("{} (default level)", args.game),
                |l| l.display().to_string(),
            ),
            input_sha256: input_hash(&root, &args.game, args.level.as_deref())?,
            options: serde_json::json!({
                "tessera": env!("CARGO_PKG_VERSION"),
                "game": args.game,
                "seats": args.seats.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "games": args.games,
                "seed": args.seed,
                "move_ms": args.move_ms,
                "nodes": args.nodes,
                "max_moves": args.max_moves,
            }),
            shard,
            complete,
            seconds: elapsed.as_secs_f64(),
            result: serde_json::json!({
                "first_game": first,
                "games": results.iter().map(|r| serde_json::json!({
                    "win_share": r.win_share,
                    "score": r.score,
                })).collect::<Vec<_>>(),
            }),
        };
        println!("{}", serde_json::to_string(&partial)?);
        return Ok(if complete { Status::Ok } else { Status::Failed });
    }
    let summary = summarise(&args.seats, &results);
    print_summary(
        &args.game,
        args.seed,
        &summary,
        results.len(),
        &format!("on {threads} thread{}", if threads == 1 { "" } else { "s" }),
        elapsed,
        args.json,
    )?;
    Ok(Status::Ok)
}

/// The hash that names a simulation's input: the game's script and the
/// level played (the default level is part of the game's code).
fn input_hash(
    root: &std::path::Path,
    game: &str,
    level: Option<&std::path::Path>,
) -> anyhow::Result<String> {
    let script_path = root.join("scripts").join(format!("{game}.lua"));
    let script = if script_path.is_file() {
        tessera_host::level::read_text(&script_path).map_err(anyhow::Error::from)?
    } else {
        String::new()
    };
    let level = match level {
        Some(path) => tessera_host::level::read_text(path).map_err(anyhow::Error::from)?,
        None => String::new(),
    };
    Ok(sha256_hex(&[
        game.as_bytes(),
        script.as_bytes(),
        level.as_bytes(),
    ]))
}

/// Combines the partials of a sharded `sim` (already checked to belong
/// together) and prints what the unsharded run prints.
pub fn merge(partials: &[(PathBuf, Partial)], json: bool) -> anyhow::Result<Status> {
    let first = &partials[0].1;
    let seats: Vec<Seat> = first.options["seats"]
        .as_array()
        .map(|a| a.iter().filter_map(|s| s.as_str()?.parse().ok()).collect())
        .unwrap_or_default();
    let game = first.options["game"].as_str().unwrap_or("?").to_string();
    let seed = first.options["seed"].as_u64().unwrap_or(0);
    let mut ordered: Vec<(u64, Vec<GameResult>, f64)> = Vec::new();
    for (path, p) in partials {
        let bad = || anyhow!("{}: its result is not a sim partial's", path.display());
        let first_game = p.result["first_game"].as_u64().ok_or_else(bad)?;
        let games = p.result["games"].as_array().ok_or_else(bad)?;
        let mut results = Vec::with_capacity(games.len());
        for g in games {
            let win_share: Vec<f64> =
                serde_json::from_value(g["win_share"].clone()).map_err(|_| bad())?;
            let score: Vec<i64> = serde_json::from_value(g["score"].clone()).map_err(|_| bad())?;
            if win_share.len() != seats.len() || score.len() != seats.len() {
                return Err(bad());
            }
            results.push(GameResult { win_share, score });
        }
        ordered.push((first_game, results, p.seconds));
    }
    ordered.sort_by_key(|(first_game, _, _)| *first_game);
    let seconds: f64 = ordered.iter().map(|(_, _, s)| s).sum();
    let results: Vec<GameResult> = ordered.into_iter().flat_map(|(_, r, _)| r).collect();
    let summary = summarise(&seats, &results);
    print_summary(
        &game,
        seed,
        &summary,
        results.len(),
        &format!("over {} shards", partials.len()),
        Duration::from_secs_f64(seconds),
        json,
    )?;
    Ok(Status::Ok)
}

/// Prints a simulation's summary as a table or JSON.
fn print_summary(
    game: &str,
    seed: u64,
    summary: &[PlayerSummary],
    games: usize,
    ran_on: &str,
    elapsed: Duration,
    json: bool,
) -> anyhow::Result<()> {
    if json {
        let json = serde_json::json!({
            "game": game,
            "games": games,
            "seed": seed,
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
            "{games} games of {game} {ran_on} in {:.1} s (seats rotate each game)",
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
    Ok(())
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
