//! `tessera sim GAME --seats ai:medium,ai:expert --games N --seed S`:
//! AI-against-AI games on every core, for balance and the AI ladder. Seats
//! rotate each game (the player listed first starts game 1, the second
//! starts game 2, ...), so no AI keeps the advantage of moving first.
//! Prints each player's win rate with a 95% (Wilson) interval and its mean
//! and median score.
//!
//! Nothing here names a game: it drives any game with AI levels through
//! the recorded [`Session`] every other command uses.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::bail;
use tessera_host::{Budget, Outcome, Seat, Session, SessionOptions, ThinkControl, Turn};

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
    /// Tetris: the level played (default: the 10 x 20 self-play board, or a
    /// 22 x 10 feed board).
    #[arg(long)]
    level: Option<std::path::PathBuf>,
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
}

/// One finished game, seen from the players of `--seats` (not the seats).
struct GameResult {
    /// Per player: its share of the win (1, 1/k when k share, or 0).
    win_share: Vec<f64>,
    /// Per player: its score.
    score: Vec<i64>,
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
    let budget = Budget {
        nodes: args.nodes,
        time: args.move_ms.map(Duration::from_millis),
    };
    let root = {
        let project = super::current_project(tessera_builtin::registry())?;
        project.root().to_path_buf()
    };
    // Check the seats once up front, so a bad level fails before threads.
    {
        let mut project = super::open_project(&root, tessera_builtin::registry())?;
        let options = SessionOptions {
            mode: None,
            seats: args.seats.clone(),
        };
        project
            .start_session(&args.game, None, args.seed, &options)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, args.games);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<GameResult>>> =
        Mutex::new((0..args.games).map(|_| None).collect());
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let started = Instant::now();
    let players = args.seats.len();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut project = match super::open_project(&root, tessera_builtin::registry()) {
                    Ok(p) => p,
                    Err(e) => {
                        push(&errors, format!("{e:#}"));
                        failed.store(true, Ordering::Relaxed);
                        return;
                    }
                };
                loop {
                    if failed.load(Ordering::Relaxed) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        return;
                    }
                    // Game i seats player (i + s) mod n in seat s.
                    let seats: Vec<Seat> = (0..players)
                        .map(|s| args.seats[(i + s) % players].clone())
                        .collect();
                    let options = SessionOptions { mode: None, seats };
                    let seed = args.seed.wrapping_add(i as u64);
                    let result = project
                        .start_session(&args.game, None, seed, &options)
                        .map_err(|e| format!("game {} (seed {seed}): {e}", i + 1))
                        .and_then(|mut session| {
                            play_out(session.as_mut(), budget, args.max_moves)
                                .map_err(|e| format!("game {} (seed {seed}): {e}", i + 1))?;
                            Ok(result_of(session.as_ref(), i, players))
                        });
                    match result {
                        Ok(r) => {
                            if let Ok(mut all) = results.lock() {
                                all[i] = Some(r);
                            }
                        }
                        Err(e) => {
                            push(&errors, e);
                            failed.store(true, Ordering::Relaxed);
                        }
                    }
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(finished, args.games, started.elapsed());
                }
            });
        }
    });
    eprintln!();
    let errors = errors.into_inner().unwrap_or_default();
    if let Some(first) = errors.first() {
        bail!("{first}");
    }
    let results: Vec<GameResult> = results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    let summary = summarise(&args.seats, &results);
    let elapsed = started.elapsed();
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

fn push(errors: &Mutex<Vec<String>>, e: String) {
    if let Ok(mut all) = errors.lock() {
        all.push(e);
    }
}

/// Plays AI moves until the game ends.
fn play_out(session: &mut dyn Session, budget: Budget, max_moves: usize) -> Result<(), String> {
    for _ in 0..max_moves {
        if session.turn() == Turn::Over {
            return Ok(());
        }
        let Some(seat) = session.ai_to_move() else {
            return Err("a seat to move is not an AI".into());
        };
        let task = session.ai_task(seat, budget).map_err(|e| e.to_string())?;
        let decision = task
            .run(&ThinkControl::new())
            .map_err(|e| format!("the AI of seat {} found no move: {e}", seat + 1))?;
        session.apply_ai(decision).map_err(|e| e.to_string())?;
        session.take_new_events();
    }
    Err(format!("no result after {max_moves} moves"))
}

/// The game's result per player of `--seats` (undoing the rotation).
fn result_of(session: &dyn Session, game: usize, players: usize) -> GameResult {
    let scores = session.scores();
    let mut win_share = vec![0.0; players];
    let mut score = vec![0; players];
    let winners: Vec<usize> = match session.outcome() {
        Outcome::Winner(seat) => vec![seat],
        Outcome::Shared(seats) => seats,
        _ => Vec::new(),
    };
    for seat in 0..players {
        let player = (game + seat) % players;
        score[player] = scores.get(seat).copied().unwrap_or(0);
        if winners.contains(&seat) {
            win_share[player] = 1.0 / winners.len() as f64;
        }
    }
    GameResult { win_share, score }
}

/// One player's figures.
struct PlayerSummary {
    seat: String,
    wins: f64,
    rate: f64,
    low: f64,
    high: f64,
    mean: f64,
    median: f64,
}

fn summarise(seats: &[Seat], results: &[GameResult]) -> Vec<PlayerSummary> {
    let n = results.len().max(1) as f64;
    seats
        .iter()
        .enumerate()
        .map(|(p, seat)| {
            let wins: f64 = results.iter().map(|r| r.win_share[p]).sum();
            let rate = wins / n;
            let (low, high) = wilson(rate, n);
            let mut scores: Vec<i64> = results.iter().map(|r| r.score[p]).collect();
            scores.sort_unstable();
            let mean = scores.iter().sum::<i64>() as f64 / n;
            let median = match scores.len() {
                0 => 0.0,
                len if len % 2 == 1 => scores[len / 2] as f64,
                len => (scores[len / 2 - 1] + scores[len / 2]) as f64 / 2.0,
            };
            PlayerSummary {
                seat: seat.to_string(),
                wins,
                rate,
                low,
                high,
                mean,
                median,
            }
        })
        .collect()
}

/// The Wilson score interval at 95% for a rate observed over `n` games.
pub fn wilson(rate: f64, n: f64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let z2 = z * z;
    let centre = (rate + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (rate * (1.0 - rate) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A one-line progress bar on stderr.
fn progress(done: usize, total: usize, elapsed: Duration) {
    progress_bar(
        done as f64 / total.max(1) as f64,
        elapsed,
        &format!("{done}/{total} games"),
    );
}

/// Draws `[####----] note, N s left` on standard error, in place.
pub fn progress_bar(fraction: f64, elapsed: Duration, note: &str) {
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

#[cfg(test)]
mod tests {
    use super::wilson;

    #[test]
    fn wilson_interval_matches_known_values() {
        // 50 wins in 100 games: about 40.4% to 59.6%.
        let (low, high) = wilson(0.5, 100.0);
        assert!((low - 0.4038).abs() < 1e-3, "{low}");
        assert!((high - 0.5962).abs() < 1e-3, "{high}");
        let (low, high) = wilson(1.0, 10.0);
        assert!(
            low > 0.69 && low < 0.73 && (high - 1.0).abs() < 1e-9,
            "{low} {high}"
        );
    }
}
