//! AI-against-AI simulations, for balance and AI ladders: the one
//! simulation of `tessera sim GAME` (every game) and the editor's Balance
//! panels. Games run on worker threads, each with a project of its own,
//! each game started through the project's one start path
//! ([`Project::start_sim_session`]) and its AI seats driven by the host's
//! driver ([`play_ai_turns_timed`]).
//!
//! A simulation plays one or more line-ups ([`Lineup`]), each `games`
//! games on seeds `seed .. seed + games`: a seat-against-seat run is one
//! line-up whose seats rotate each game (the player listed first starts
//! game 1, the second game 2, ...), so no AI keeps the advantage of moving
//! first; a ladder (tetris: `--ai easy,god`) is one line-up per AI level,
//! all on the same seeds. Games are numbered line-up-major, so a shard is
//! a range of numbers ([`SimConfig::only`]).
//!
//! Results are streamed: each finished game is folded, in the order of
//! its number (a small reorder buffer holds games that finished ahead of
//! a slower one), into its line-up's running [`LineupTally`] and handed to
//! the caller (a CSV row), so memory does not grow with the number of
//! games. The game adds its own figures per game ([`Simulated::sim_figures`]).
//!
//! Nothing here names a game.
//!
//! [`Simulated::sim_figures`]: crate::plugin::Simulated::sim_figures

pub(crate) mod figures;
mod tally;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub use figures::{
    SimFigure, SimLevel, SimOptionKind, SimOptionSpec, SimOptions, SimPlay, SimStyle, SimValue,
};
pub use tally::{
    FigureKind, FigureStat, FigureSummary, FigureTally, GameResult, Histogram, LineupTally,
    PlayerSummary, PlayerTally, TallyOverflow, wilson,
};

use crate::agent::{Budget, ThinkControl};
use crate::driver::{AiTurnsEnd, play_ai_turns_timed};
use crate::options::{Seat, SessionOptions};
use crate::plugin::{Outcome, Turn};
use crate::project::Project;
use crate::registry::Registry;
use crate::session::Session;

/// One set of players a simulation puts to the test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lineup {
    /// Its name in tables (`medium vs hard`, or a ladder's AI level).
    pub label: String,
    /// The players, each an AI seat, in seat order for the first game.
    pub seats: Vec<Seat>,
    /// Whether the seats rotate from game to game.
    pub rotate: bool,
}

/// What to simulate.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// Game id.
    pub game: String,
    /// The mode (`None`: the level's, else the game's first).
    pub mode: Option<String>,
    /// The line-ups, each playing `games` games.
    pub lineups: Vec<Lineup>,
    /// Games per line-up.
    pub games: u64,
    /// Seed of each line-up's first game (its game g plays seed + g).
    pub seed: u64,
    /// Only the games with these numbers (a shard); `None`: all of them.
    pub only: Option<Range<u64>>,
    /// Per AI move (the AIs' own limits from the script apply too).
    pub budget: Budget,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Most moves in one game (guards against endless games).
    pub max_moves: usize,
    /// The level to play.
    pub level: SimLevel,
    /// The game's own options ([`crate::plugin::Simulated::SIM_OPTIONS`]).
    pub options: SimOptions,
}

impl SimConfig {
    /// Games in the whole run (every line-up), refused when they cannot
    /// be numbered.
    pub fn total(&self) -> Result<u64, String> {
        (self.lineups.len() as u64)
            .checked_mul(self.games)
            .ok_or_else(|| format!("{} games per line-up: too many to number", self.games))
    }

    /// The numbers of the games this run plays.
    pub fn range(&self) -> Result<Range<u64>, String> {
        let total = self.total()?;
        Ok(match &self.only {
            Some(r) => r.start.min(total)..r.end.min(total),
            None => 0..total,
        })
    }

    /// The seats of game `index` and its line-up and game number within
    /// the line-up: game g of a rotating line-up seats player (g + s) mod n
    /// in seat s.
    fn seating(&self, index: u64) -> (usize, u64, Vec<Seat>) {
        let lineup = (index / self.games.max(1)) as usize;
        let game = index % self.games.max(1);
        let players = &self.lineups[lineup].seats;
        let n = players.len().max(1);
        let shift = if self.lineups[lineup].rotate {
            (game % n as u64) as usize
        } else {
            0
        };
        let seats = (0..players.len())
            .map(|s| players[(s + shift) % n].clone())
            .collect();
        (lineup, game, seats)
    }

    /// Empty tallies, one per line-up.
    pub fn tallies(&self) -> Vec<LineupTally> {
        self.lineups
            .iter()
            .map(|l| LineupTally::new(&l.label, &l.seats))
            .collect()
    }
}

/// A finished (or cancelled) simulation.
#[derive(Debug, Clone)]
pub struct SimReport {
    /// Per line-up, the running summary of its games.
    pub tallies: Vec<LineupTally>,
    /// Games played.
    pub games: u64,
    /// Threads used.
    pub threads: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Whether it was cancelled before every game finished.
    pub cancelled: bool,
}

/// Checks a config before any thread starts: AI seats only, at least one
/// game, games that can be numbered, and a first game of each line-up
/// that starts (a bad level or seat fails here).
pub fn check_config(root: &Path, registry: &Registry, config: &SimConfig) -> Result<(), String> {
    let seats = config.lineups.iter().flat_map(|l| &l.seats);
    if let Some(seat) = seats.clone().find(|s| s.ai_level().is_none()) {
        return Err(format!(
            "`{seat}` is not an AI; a simulation needs `ai:LEVEL` in every seat"
        ));
    }
    if config.lineups.is_empty() || config.games == 0 {
        return Err("at least 1 game".into());
    }
    config.total()?;
    let mut project = open(root, registry)?;
    for lineup in &config.lineups {
        let options = SessionOptions {
            mode: config.mode.clone(),
            seats: lineup.seats.clone(),
        };
        project
            .start_sim_session(
                &config.game,
                &config.level,
                config.seed,
                &options,
                &config.options,
            )
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn open(root: &Path, registry: &Registry) -> Result<Project, String> {
    Project::open(root, registry.clone())
        .map_err(|e| format!("cannot open project {}: {e}", root.display()))
}

/// What a worker sends the collector.
enum Finished {
    Game(GameResult),
    Failed(String),
}

/// Runs the games of `config` on `config.threads` threads, each opening
/// the project at `root` with its own copy of `registry`. `control` cancels (games under
/// way stop after their current move and do not count) and receives the
/// progress; `on_game` hears of each finished game on the caller's
/// thread, in the order of the games' numbers, with the count done and
/// the total.
pub fn run_sim(
    root: &Path,
    registry: &Registry,
    config: &SimConfig,
    control: &ThinkControl,
    on_game: &mut dyn FnMut(&GameResult, u64, u64),
) -> Result<SimReport, String> {
    check_config(root, registry, config)?;
    let range = config.range()?;
    let total = range.end - range.start;
    let threads = config
        .threads
        .max(1)
        .min(total.max(1).try_into().unwrap_or(usize::MAX));
    let next = AtomicU64::new(range.start);
    let failed = AtomicBool::new(false);
    let started = Instant::now();
    let mut tallies = config.tallies();
    let mut done = 0u64;
    let (sender, receiver) = mpsc::channel::<Finished>();
    let mut error = None;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, failed, end) = (&next, &failed, range.end);
            scope.spawn(move || {
                worker(root, registry, config, control, next, end, failed, &sender);
            });
        }
        // Only the workers hold senders now: the loop ends with them.
        drop(sender);
        let mut ahead: BTreeMap<u64, GameResult> = BTreeMap::new();
        let mut expected = range.start;
        let mut fold = |result: GameResult, done: &mut u64| {
            *done += 1;
            tallies[result.lineup].add(&result);
            control.set_progress(*done as f64 / total.max(1) as f64);
            control.set_note(format!("{done}/{total} games"));
            on_game(&result, *done, total);
        };
        for finished in receiver {
            match finished {
                Finished::Game(result) => {
                    ahead.insert(result.index, result);
                    while let Some(result) = ahead.remove(&expected) {
                        expected += 1;
                        fold(result, &mut done);
                    }
                }
                Finished::Failed(e) => {
                    error.get_or_insert(e);
                }
            }
        }
        // After a cancel, games past a game that did not finish.
        for (_, result) in std::mem::take(&mut ahead) {
            fold(result, &mut done);
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    Ok(SimReport {
        tallies,
        games: done,
        threads,
        elapsed: started.elapsed(),
        cancelled: done < total,
    })
}

/// One worker: takes the next game number until none is left, the run
/// failed or it is cancelled.
#[allow(clippy::too_many_arguments)]
fn worker(
    root: &Path,
    registry: &Registry,
    config: &SimConfig,
    control: &ThinkControl,
    next: &AtomicU64,
    end: u64,
    failed: &AtomicBool,
    sender: &mpsc::Sender<Finished>,
) {
    let fail = |e: String| {
        failed.store(true, Ordering::Relaxed);
        let _ = sender.send(Finished::Failed(e));
    };
    let mut project = match open(root, registry) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    loop {
        if failed.load(Ordering::Relaxed) || control.is_cancelled() {
            return;
        }
        // Never past `end`, even at u64::MAX games.
        let Ok(index) = next.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
            (n < end).then_some(n + 1)
        }) else {
            return;
        };
        match play_game(&mut project, config, control, index) {
            Ok(Some(result)) => {
                if sender.send(Finished::Game(result)).is_err() {
                    return;
                }
            }
            // Cancelled mid-game: not a result.
            Ok(None) => return,
            Err(e) => return fail(e),
        }
    }
}

/// Starts and plays game `index`; `None` when cancelled before its end.
fn play_game(
    project: &mut Project,
    config: &SimConfig,
    control: &ThinkControl,
    index: u64,
) -> Result<Option<GameResult>, String> {
    let (lineup, game, seats) = config.seating(index);
    let seed = config.seed.wrapping_add(game);
    let name = |e: String| format!("game {} (seed {seed}): {e}", game + 1);
    let options = SessionOptions {
        mode: config.mode.clone(),
        seats,
    };
    let mut session = project
        .start_sim_session(&config.game, &config.level, seed, &options, &config.options)
        .map_err(|e| name(e.to_string()))?;
    let Some(play) = play_out(session.as_mut(), config, control).map_err(name)? else {
        return Ok(None);
    };
    let rotation = if config.lineups[lineup].rotate {
        game as usize
    } else {
        0
    };
    Ok(Some(result_of(
        session.as_ref(),
        index,
        lineup,
        seed,
        rotation,
        &play,
    )))
}

/// Plays AI moves until the game ends or the game stops it (the host's
/// one driver of AI seats, timing each decision); `None` when cancelled.
fn play_out(
    session: &mut dyn Session,
    config: &SimConfig,
    control: &ThinkControl,
) -> Result<Option<SimPlay>, String> {
    let mut play = SimPlay::new(session.options().seats.len());
    if session.sim_stopped() {
        return Ok(Some(play));
    }
    let end = play_ai_turns_timed(
        session,
        config.budget,
        config.max_moves,
        control,
        &mut |session, ai_move| {
            play.note(ai_move.seat, ai_move.thinking);
            !session.sim_stopped()
        },
    )
    .map_err(|e| e.to_string())?;
    match end {
        AiTurnsEnd::GameOver | AiTurnsEnd::Stopped => Ok(Some(play)),
        AiTurnsEnd::Cancelled => Ok(None),
        AiTurnsEnd::PlayerToMove => Err(if session.turn() == Turn::RealTime {
            "the game waits for real time: no AI seat is to move".into()
        } else {
            "a seat to move is not an AI".into()
        }),
        AiTurnsEnd::MoveLimit => Err(format!("no result after {} moves", config.max_moves)),
    }
}

/// The game's result per player of its line-up (undoing the rotation).
fn result_of(
    session: &dyn Session,
    index: u64,
    lineup: usize,
    seed: u64,
    rotation: usize,
    play: &SimPlay,
) -> GameResult {
    let scores = session.scores();
    let players = session.options().seats.len();
    let mut win_share = vec![0.0; players];
    let mut score = vec![0; players];
    let winners: Vec<usize> = match session.outcome() {
        Outcome::Winner(seat) => vec![seat],
        Outcome::Shared(seats) => seats,
        _ => Vec::new(),
    };
    for seat in 0..players {
        let player = (rotation + seat) % players;
        score[player] = scores.get(seat).copied().unwrap_or(0);
        if winners.contains(&seat) {
            win_share[player] = 1.0 / winners.len() as f64;
        }
    }
    GameResult {
        index,
        lineup,
        seed,
        win_share,
        winners: winners.len() as u32,
        score,
        figures: session.sim_figures(play),
    }
}
