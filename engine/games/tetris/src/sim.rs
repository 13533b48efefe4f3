//! Balance simulations, shared by `tessera sim tetris` and the editor's
//! Balance panel: many headless games per difficulty on every core, each
//! played through the real game (rules, script, ceiling) with the AI
//! seats' agents, and the figures a designer tunes by: lines, pieces
//! survived, the AI's win rate, time per decision.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use tessera_host::agent::{Agent, ThinkControl, Thinking, agent_rng};
use tessera_host::options::{Seat, SessionOptions};
use tessera_host::plugin::{Game, GameError, Outcome, Setup, Turn};
use tessera_host::script::{LiveScript, Script, ScriptLimits};

use crate::Tetris;
use crate::ai::feeder::Feeder;
use crate::level::TetrisLevel;

/// Which game the simulation plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimMode {
    /// The AI plays alone until it tops out or reaches the piece cap.
    Classic,
    /// A feeder gives the AI its pieces; ceiling and target as in play.
    Feed(Feeder),
}

/// What to simulate.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// The mode (and feeder).
    pub mode: SimMode,
    /// AI levels (difficulty names), each playing `games` games.
    pub levels: Vec<String>,
    /// Games per level.
    pub games: usize,
    /// Seed of game 0; game i plays `seed + i` (the same seeds for every
    /// level, so levels meet the same pieces).
    pub seed: u64,
    /// Most pieces per game (a classic game that reaches it survived).
    pub piece_cap: u64,
    /// The level played (board, target lines, randomizer override).
    pub level: TetrisLevel,
    /// The script's path (for messages) and text; each worker loads its
    /// own copy.
    pub script_path: PathBuf,
    /// The script's text.
    pub script_source: String,
    /// Whether the AI sees the next piece (classic preview).
    pub preview: bool,
    /// Worker threads (at least 1).
    pub threads: usize,
}

/// One finished game.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GameRow {
    /// The AI level.
    pub level: String,
    /// The game's seed.
    pub seed: u64,
    /// Lines the AI cleared.
    pub lines: u64,
    /// Pieces the AI placed.
    pub pieces: u64,
    /// Feed: the AI reached its target; classic: it survived the cap.
    pub ai_won: bool,
    /// The game stopped at the piece cap.
    pub capped: bool,
    /// Mean time per AI decision, microseconds.
    pub decision_us: f64,
}

/// The figures of one AI level.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LevelSummary {
    /// The AI level.
    pub level: String,
    /// Games played.
    pub games: usize,
    /// Mean lines.
    pub mean_lines: f64,
    /// Median lines.
    pub median_lines: f64,
    /// Mean pieces survived.
    pub mean_pieces: f64,
    /// Median pieces.
    pub median_pieces: f64,
    /// Share of games the AI won (feed: target reached; classic: cap).
    pub ai_win_rate: f64,
    /// Share of games the player (the feeder) won: feed mode's ceiling
    /// reached or a piece that cannot spawn (0 in classic play).
    pub player_win_rate: f64,
    /// The 95% (Wilson) interval of `player_win_rate`.
    pub player_win_rate_95: (f64, f64),
    /// Mean time per decision, microseconds.
    pub decision_us: f64,
}

/// Runs every game of `config`, on `config.threads` threads, reporting
/// progress (fraction of games done) and stopping early on cancel (the
/// rows so far are returned).
pub fn run(config: &SimConfig, control: &ThinkControl) -> Result<Vec<GameRow>, GameError> {
    // Games are numbered, not listed: level = i / games, game = i % games,
    // so a huge --games costs nothing before the first game, and rows are
    // kept as they finish (memory grows with the games played).
    let total = config
        .levels
        .len()
        .checked_mul(config.games)
        .ok_or_else(|| GameError::Invalid("too many games to number".into()))?;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let rows: Mutex<Vec<(usize, GameRow)>> = Mutex::new(Vec::new());
    let error: Mutex<Option<GameError>> = Mutex::new(None);
    let threads = config.threads.clamp(1, total.max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let script = match Script::load(
                    &config.script_path,
                    &config.script_source,
                    Some(&Tetris::script_schema()),
                    ScriptLimits::default(),
                ) {
                    Ok(s) => LiveScript::new(s),
                    Err(e) => {
                        if let Ok(mut slot) = error.lock() {
                            *slot = Some(e.into());
                        }
                        control.cancel();
                        return;
                    }
                };
                loop {
                    if control.is_cancelled() {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        return;
                    }
                    let (level, game) = (i / config.games, i % config.games);
                    let seed = config.seed.wrapping_add(game as u64);
                    match play_one(config, &script, &config.levels[level], seed, control) {
                        Ok(Some(row)) => {
                            if let Ok(mut all) = rows.lock() {
                                all.push((i, row));
                            }
                        }
                        Ok(None) => return,
                        Err(e) => {
                            if let Ok(mut slot) = error.lock() {
                                slot.get_or_insert(e);
                            }
                            control.cancel();
                            return;
                        }
                    }
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    control.set_progress(finished as f64 / total as f64);
                    control.set_note(format!("{finished} of {total} games"));
                }
            });
        }
    });
    if let Some(e) = error.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut rows = rows.into_inner().unwrap_or_default();
    rows.sort_by_key(|(i, _)| *i);
    Ok(rows.into_iter().map(|(_, row)| row).collect())
}

/// Plays one game; `None` when cancelled midway.
fn play_one(
    config: &SimConfig,
    script: &LiveScript,
    level_name: &str,
    seed: u64,
    control: &ThinkControl,
) -> Result<Option<GameRow>, GameError> {
    let ai = Seat::Ai {
        level: level_name.to_string(),
    };
    let options = match config.mode {
        SimMode::Classic => SessionOptions {
            mode: Some("classic".into()),
            seats: vec![ai],
        },
        SimMode::Feed(feeder) => SessionOptions {
            mode: Some("feed".into()),
            seats: vec![
                Seat::Ai {
                    level: feeder.name(),
                },
                ai,
            ],
        },
    };
    let mut game = Tetris::start(Setup {
        level: config.level.clone(),
        script: script.clone(),
        seed,
        options: options.clone(),
    })?;
    let mut agents: Vec<Box<dyn Agent<Tetris>>> = Vec::new();
    for (seat, s) in options.seats.iter().enumerate() {
        let Some(level) = s.ai_level() else {
            return Err(GameError::Invalid("every simulated seat is an AI".into()));
        };
        agents.push(game.make_agent(seat, level, false)?);
    }
    let ai_seat = options.seats.len() - 1;
    let mut decisions = 0u64;
    let mut thinking_ns = 0u128;
    let mut step = 0u64;
    let inner = ThinkControl::new();
    loop {
        let seat = match game.turn() {
            Turn::Seat(seat) => seat,
            Turn::Over => break,
            Turn::RealTime => {
                return Err(GameError::Invalid(
                    "a simulated game waits for real time; no AI seat is to move".into(),
                ));
            }
        };
        if game.field().locked() >= config.piece_cap {
            break;
        }
        if step.is_multiple_of(256) && control.is_cancelled() {
            return Ok(None);
        }
        let mut view = game.snapshot();
        if !config.preview {
            view.queue.clear();
        }
        let mut rng = agent_rng(seed, seat, step);
        let mut thinking =
            Thinking::new(&mut rng, tessera_host::agent::Budget::unbounded(), &inner);
        let started = Instant::now();
        let decision = agents[seat].decide(&view, &mut thinking)?;
        if seat == ai_seat {
            thinking_ns += started.elapsed().as_nanos();
            decisions += 1;
        }
        game.apply(&decision.action)?;
        step += 1;
        // Keep the event buffer from growing over a long game.
        if step.is_multiple_of(64) {
            game.take_events();
        }
    }
    let decision_us = if decisions == 0 {
        0.0
    } else {
        thinking_ns as f64 / decisions as f64 / 1000.0
    };
    Ok(Some(game_row(
        &game,
        config.mode,
        level_name,
        seed,
        decision_us,
    )))
}

/// The figures of one finished (or capped) game: what a simulation
/// records per game, from the game alone, so the host's simulation can
/// call it as the game's hook.
pub fn game_row(
    game: &Tetris,
    mode: SimMode,
    level_name: &str,
    seed: u64,
    decision_us: f64,
) -> GameRow {
    let capped = !game.outcome().is_over();
    // The AI is the last seat: 0 in classic play, 1 in feed mode.
    let ai_seat = usize::from(matches!(mode, SimMode::Feed(_)));
    let ai_won = match (mode, game.outcome()) {
        (SimMode::Classic, outcome) => capped || outcome == Outcome::Won,
        (SimMode::Feed(_), Outcome::Winner(seat)) => seat == ai_seat,
        (SimMode::Feed(_), _) => false,
    };
    GameRow {
        level: level_name.to_string(),
        seed,
        lines: game.lines(),
        pieces: game.field().locked(),
        ai_won,
        capped,
        decision_us,
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// Games the player won: over, and not by the AI (a capped game is
/// nobody's).
fn player_wins(rows: &[&GameRow]) -> f64 {
    rows.iter().filter(|r| !r.ai_won && !r.capped).count() as f64
}

/// Per-level figures, in the order of `levels`.
pub fn summarise(levels: &[String], rows: &[GameRow]) -> Vec<LevelSummary> {
    levels
        .iter()
        .map(|level| {
            let mine: Vec<&GameRow> = rows.iter().filter(|r| &r.level == level).collect();
            let n = mine.len().max(1) as f64;
            LevelSummary {
                level: level.clone(),
                games: mine.len(),
                mean_lines: mine.iter().map(|r| r.lines as f64).sum::<f64>() / n,
                median_lines: median(mine.iter().map(|r| r.lines as f64).collect()),
                mean_pieces: mine.iter().map(|r| r.pieces as f64).sum::<f64>() / n,
                median_pieces: median(mine.iter().map(|r| r.pieces as f64).collect()),
                ai_win_rate: mine.iter().filter(|r| r.ai_won).count() as f64 / n,
                player_win_rate: player_wins(&mine) / n,
                player_win_rate_95: tessera_host::sim::wilson(player_wins(&mine) / n, n),
                decision_us: mine.iter().map(|r| r.decision_us).sum::<f64>() / n,
            }
        })
        .collect()
}

/// The board of the seed's classic self-play benchmark: 10 x 20, spawn
/// in the top rows, uniform random pieces, no garbage.
pub fn classic_benchmark_level() -> TetrisLevel {
    TetrisLevel {
        title: "self-play 10 x 20".into(),
        rows: 20,
        columns: 10,
        randomizer: Some("uniform".into()),
        // Played until the AI tops out or the simulation's piece cap.
        goal: crate::level::Goal::Survive(u64::MAX),
        ..TetrisLevel::default()
    }
}

/// The board of the benchmark against a feeder: 10 x 20 and no ceiling,
/// so only the pieces decide (`target_lines` is out of reach).
pub fn feeder_benchmark_level() -> TetrisLevel {
    TetrisLevel {
        title: "feeder benchmark 10 x 20, no ceiling".into(),
        rows: 20,
        columns: 10,
        feed: Some(crate::level::FeedLevel {
            difficulty: "GOD".into(),
            target_lines: 100_000,
            lowering_ceiling: false,
            ceiling_every: None,
        }),
        ..TetrisLevel::default()
    }
}

/// The summary as a text table (what `tessera sim tetris` prints).
pub fn table(summary: &[LevelSummary], mode: SimMode) -> String {
    let win = match mode {
        SimMode::Classic => "survived cap",
        SimMode::Feed(_) => "AI win rate",
    };
    let feed = matches!(mode, SimMode::Feed(_));
    let mut out = format!(
        "{:<10} {:>6} {:>11} {:>11} {:>12} {:>12} {:>13} {:>12}",
        "level", "games", "mean lines", "median", "mean pieces", "median", win, "us/decision"
    );
    if feed {
        out.push_str(&format!(" {:>24}", "player win rate (95%)"));
    }
    out.push('\n');
    for s in summary {
        out.push_str(&format!(
            "{:<10} {:>6} {:>11.1} {:>11.1} {:>12.1} {:>12.1} {:>12.1}% {:>12.2}",
            s.level,
            s.games,
            s.mean_lines,
            s.median_lines,
            s.mean_pieces,
            s.median_pieces,
            100.0 * s.ai_win_rate,
            s.decision_us
        ));
        if feed {
            let (low, high) = s.player_win_rate_95;
            out.push_str(&format!(
                " {:>6.1}% ({:>4.1}-{:>5.1}%)",
                100.0 * s.player_win_rate,
                100.0 * low,
                100.0 * high
            ));
        }
        out.push('\n');
    }
    out
}
