//! AI-against-AI simulations, for balance and AI ladders: the core of
//! `tessera sim` and the editor's Balance panel. Games run on worker
//! threads, each with a project of its own; seats rotate each game (the
//! player listed first starts game 1, the second starts game 2, ...), so no
//! AI keeps the advantage of moving first. The summary gives each player's
//! win rate with a 95% (Wilson) interval and its mean and median score.
//!
//! Nothing here names a game: it drives any game with AI levels through
//! the recorded [`Session`] every other tool uses.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::agent::{Budget, ThinkControl};
use crate::driver::{AiTurnsEnd, play_ai_turns};
use crate::options::{Seat, SessionOptions};
use crate::plugin::{Outcome, Turn};
use crate::project::Project;
use crate::registry::Registry;
use crate::session::Session;

/// What to simulate.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// Game id.
    pub game: String,
    /// The players, each an AI seat; the order rotates from game to game.
    pub seats: Vec<Seat>,
    /// Games to play.
    pub games: usize,
    /// Seed of the first game (game i plays seed + i).
    pub seed: u64,
    /// Per AI move (the AIs' own limits from the script apply too).
    pub budget: Budget,
    /// Worker threads (at least 1, at most `games`).
    pub threads: usize,
    /// Most moves in one game (guards against endless games).
    pub max_moves: usize,
    /// The level to play (`None`: the game's default).
    pub level: Option<PathBuf>,
}

/// One finished game, seen from the players of the config (not the seats).
#[derive(Debug, Clone, PartialEq)]
pub struct GameResult {
    /// Per player: its share of the win (1, 1/k when k share, or 0).
    pub win_share: Vec<f64>,
    /// Per player: its score.
    pub score: Vec<i64>,
}

/// One player's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerSummary {
    /// The player as written (`ai:hard`).
    pub seat: String,
    /// Games won (shared wins count their share).
    pub wins: f64,
    /// Win rate, 0 to 1.
    pub rate: f64,
    /// Low end of the 95% interval.
    pub low: f64,
    /// High end of the 95% interval.
    pub high: f64,
    /// Mean score.
    pub mean: f64,
    /// Median score.
    pub median: f64,
}

/// A finished (or cancelled) simulation.
#[derive(Debug, Clone)]
pub struct SimReport {
    /// The games that finished, in order of their number.
    pub results: Vec<GameResult>,
    /// Per player of the config.
    pub summary: Vec<PlayerSummary>,
    /// Threads used.
    pub threads: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Whether it was cancelled before every game finished.
    pub cancelled: bool,
}

/// Checks a config before any thread starts: AI seats only, at least one
/// game, and a first game that starts (a bad level or seat fails here).
pub fn check_config(
    root: &Path,
    registry: fn() -> Registry,
    config: &SimConfig,
) -> Result<(), String> {
    if let Some(seat) = config.seats.iter().find(|s| s.ai_level().is_none()) {
        return Err(format!(
            "`{seat}` is not an AI; a simulation needs `ai:LEVEL` in every seat"
        ));
    }
    if config.games == 0 {
        return Err("at least 1 game".into());
    }
    let mut project = open(root, registry)?;
    let options = SessionOptions {
        mode: None,
        seats: config.seats.clone(),
    };
    project
        .start_session(&config.game, config.level.as_deref(), config.seed, &options)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn open(root: &Path, registry: fn() -> Registry) -> Result<Project, String> {
    Project::open(root, registry())
        .map_err(|e| format!("cannot open project {}: {e}", root.display()))
}

/// Runs the games of `config` on `config.threads` threads, each opening
/// the project at `root` with `registry()`. `control` cancels (games under
/// way finish their current move and stop) and receives the progress;
/// `on_game` hears of each finished game (done, total).
pub fn run_sim(
    root: &Path,
    registry: fn() -> Registry,
    config: &SimConfig,
    control: &ThinkControl,
    on_game: &(dyn Fn(usize, usize) + Sync),
) -> Result<SimReport, String> {
    check_config(root, registry, config)?;
    let threads = config.threads.clamp(1, config.games);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<GameResult>>> =
        Mutex::new((0..config.games).map(|_| None).collect());
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let started = Instant::now();
    let players = config.seats.len();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut project = match open(root, registry) {
                    Ok(p) => p,
                    Err(e) => {
                        push(&errors, e);
                        failed.store(true, Ordering::Relaxed);
                        return;
                    }
                };
                loop {
                    if failed.load(Ordering::Relaxed) || control.is_cancelled() {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= config.games {
                        return;
                    }
                    // Game i seats player (i + s) mod n in seat s.
                    let seats: Vec<Seat> = (0..players)
                        .map(|s| config.seats[(i + s) % players].clone())
                        .collect();
                    let options = SessionOptions { mode: None, seats };
                    let seed = config.seed.wrapping_add(i as u64);
                    let result = project
                        .start_session(&config.game, config.level.as_deref(), seed, &options)
                        .map_err(|e| format!("game {} (seed {seed}): {e}", i + 1))
                        .and_then(|mut session| {
                            play_out(session.as_mut(), config.budget, config.max_moves, control)
                                .map_err(|e| format!("game {} (seed {seed}): {e}", i + 1))?;
                            Ok(result_of(session.as_ref(), i, players))
                        });
                    match result {
                        Ok(Some(r)) => {
                            if let Ok(mut all) = results.lock() {
                                all[i] = Some(r);
                            }
                        }
                        // Cancelled mid-game: not a result.
                        Ok(None) => return,
                        Err(e) => {
                            push(&errors, e);
                            failed.store(true, Ordering::Relaxed);
                        }
                    }
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    control.set_progress(finished as f64 / config.games as f64);
                    control.set_note(format!("{finished}/{} games", config.games));
                    on_game(finished, config.games);
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap_or_default();
    if let Some(first) = errors.first() {
        return Err(first.clone());
    }
    let results: Vec<GameResult> = results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    let summary = summarise(&config.seats, &results);
    Ok(SimReport {
        cancelled: results.len() < config.games,
        results,
        summary,
        threads,
        elapsed: started.elapsed(),
    })
}

fn push(errors: &Mutex<Vec<String>>, e: String) {
    if let Ok(mut all) = errors.lock() {
        all.push(e);
    }
}

/// Plays AI moves until the game ends (the host's one driver of AI seats);
/// `Ok(false)` when cancelled.
fn play_out(
    session: &mut dyn Session,
    budget: Budget,
    max_moves: usize,
    control: &ThinkControl,
) -> Result<bool, String> {
    let end = play_ai_turns(session, budget, max_moves, control, &mut |session, _| {
        session.take_new_events();
    })
    .map_err(|e| e.to_string())?;
    match end {
        AiTurnsEnd::GameOver => Ok(true),
        AiTurnsEnd::Cancelled => Ok(false),
        AiTurnsEnd::PlayerToMove => Err("a seat to move is not an AI".into()),
        AiTurnsEnd::MoveLimit => Err(format!("no result after {max_moves} moves")),
    }
}

/// The game's result per player of the config (undoing the rotation);
/// `None` when it did not end (cancelled).
fn result_of(session: &dyn Session, game: usize, players: usize) -> Option<GameResult> {
    if session.turn() != Turn::Over {
        return None;
    }
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
    Some(GameResult { win_share, score })
}

/// Each player's figures over `results`.
pub fn summarise(seats: &[Seat], results: &[GameResult]) -> Vec<PlayerSummary> {
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn summary_counts_shared_wins_and_medians() {
        let seats = vec![
            Seat::Ai { level: "a".into() },
            Seat::Ai { level: "b".into() },
        ];
        let results = vec![
            GameResult {
                win_share: vec![1.0, 0.0],
                score: vec![10, 4],
            },
            GameResult {
                win_share: vec![0.5, 0.5],
                score: vec![6, 6],
            },
            GameResult {
                win_share: vec![0.0, 1.0],
                score: vec![2, 9],
            },
        ];
        let s = summarise(&seats, &results);
        assert!((s[0].wins - 1.5).abs() < 1e-9);
        assert!((s[0].rate - 0.5).abs() < 1e-9);
        assert!((s[0].median - 6.0).abs() < 1e-9);
        assert!((s[1].mean - 19.0 / 3.0).abs() < 1e-9);
    }
}
