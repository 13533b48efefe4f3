//! `tessera tetris hatetris`: one game of a difficulty against the
//! `hatetris` feeder on the simulation's feed board (10 x 20, no ceiling),
//! as `tessera sim tetris --mode feed --feeder hatetris` plays it, with
//! every decision timed: lines, pieces, and the mean, median and longest
//! time a decision (the sim's table gives only the mean, and the target is
//! the longest), then the game's report and its last board; with
//! `--json`, the AI's moves too.

use std::time::Duration;

use tessera_host::Game;
use tessera_host::command::{CommandContext, Status};
use tessera_host::driver::{AiTurnsEnd, play_ai_turns_timed};
use tessera_host::options::{Seat, SessionOptions};
use tessera_host::session::Session;
use tessera_host::sim::{SimLevel, SimOptions, SimPlay, SimValue};

use tessera_tetris::{Tetris, TetrisAction};

/// The options of `tessera tetris hatetris`.
#[derive(clap::Args)]
pub(super) struct HatetrisArgs {
    /// The difficulty that plays (a row of the script's `ai.difficulties`).
    #[arg(long, default_value = "vs_hatetris")]
    ai: String,
    /// Stop after this many pieces, at least 1 (the game is over before,
    /// usually).
    #[arg(long, default_value_t = 2000)]
    pieces: u64,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    offline: super::hatetris_offline::OfflineArgs,
}

/// Plays the game and prints its figures.
pub(super) fn run(args: &HatetrisArgs, context: &CommandContext) -> anyhow::Result<Status> {
    if args.pieces == 0 {
        tessera_host::usage!(
            "--pieces must be at least 1: a game of no pieces has no decisions to time"
        );
    }
    if args.offline.offline {
        return super::hatetris_offline::run(&args.offline, &args.ai, args.json, context);
    }
    let mut session = start_game(context, &args.ai, args.pieces)?;
    let mut decisions: Vec<Duration> = Vec::new();
    // The AI's moves, `[x, rotation, y]` of each `Drop` (as the offline
    // line prints them), so a game can be replayed and compared.
    let mut moves: Vec<[i32; 3]> = Vec::new();
    let mut play = SimPlay::new(2);
    // The game is the job: Ctrl+C stops the decision in progress, and the
    // figures so far are printed, marked PARTIAL.
    let _listening = tessera_host::job::listen();
    let end = play_ai_turns_timed(
        session.as_mut(),
        tessera_host::Budget::unbounded(),
        usize::MAX,
        tessera_host::job::interrupt(),
        &mut |session, ai_move| {
            play.note(ai_move.seat, ai_move.thinking);
            if ai_move.seat == 1 {
                decisions.push(ai_move.thinking);
                if let Ok(TetrisAction::Drop { x, rotation, y }) =
                    ron::from_str(&ai_move.action_ron)
                {
                    moves.push([x, i32::from(rotation), y.unwrap_or(-1)]);
                }
            }
            !session.sim_stopped()
        },
    )
    .or_else(|e| match e {
        // Ctrl+C inside a decision: the game so far is the result.
        tessera_host::GameError::Cancelled => Ok(AiTurnsEnd::Cancelled),
        other => Err(anyhow::Error::from(other)),
    })?;
    let stopped = end == AiTurnsEnd::Cancelled;
    if !matches!(
        end,
        AiTurnsEnd::GameOver | AiTurnsEnd::Stopped | AiTurnsEnd::Cancelled
    ) {
        anyhow::bail!("the game stopped before its end ({end:?})");
    }
    let (lines, pieces) = (
        count(session.as_ref(), &play, "lines"),
        count(session.as_ref(), &play, "pieces"),
    );
    let seconds: Vec<f64> = decisions.iter().map(Duration::as_secs_f64).collect();
    let mut sorted = seconds.clone();
    sorted.sort_by(f64::total_cmp);
    let mean = seconds.iter().sum::<f64>() / seconds.len().max(1) as f64;
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
    let longest = sorted.last().copied().unwrap_or(0.0);
    let over_one = seconds.iter().filter(|&&s| s > 1.0).count();
    if args.json {
        let report = serde_json::json!({
            "ai": args.ai.to_lowercase(),
            "lines": lines,
            "pieces": pieces,
            "decisions": seconds.len(),
            "mean_s": mean,
            "median_s": median,
            "max_s": longest,
            "over_1s": over_one,
            "moves": moves,
            "stopped": stopped,
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "{} against hatetris (10 x 20, no ceiling): {}, {}; {}, \
             s a decision: mean {mean:.3}, median {median:.3}, max {longest:.3} ({over_one} over 1 s)",
            args.ai.to_lowercase(),
            tessera_host::text::count(lines, "line"),
            tessera_host::text::count(pieces, "piece"),
            tessera_host::text::count(seconds.len() as u64, "decision"),
        );
        let report = session.report_text(true);
        println!("{}", report.trim_end());
    }
    if stopped {
        eprintln!(
            "{}the game above is as far as it got before Ctrl+C",
            tessera_host::job::PARTIAL_STOPPED
        );
        return Ok(Status::Failed);
    }
    Ok(Status::Ok)
}

/// The game `tessera tetris hatetris` plays: the simulation's feed board
/// (10 x 20, no ceiling), the `hatetris` feeder in seat 0 and the
/// difficulty `ai` in seat 1, stopped after `pieces` of its pieces. The
/// feeder is deterministic: the seed changes nothing.
pub(super) fn start_game(
    context: &CommandContext,
    ai: &str,
    pieces: u64,
) -> anyhow::Result<Box<dyn Session>> {
    let mut project = context.current_project()?;
    let options = SessionOptions {
        mode: Some("feed".into()),
        seats: vec![
            Seat::Ai {
                level: "hatetris".into(),
            },
            Seat::Ai {
                level: ai.to_lowercase(),
            },
        ],
    };
    let spec = project.spec(Tetris::ID).map_err(anyhow::Error::from)?;
    if let Err(e) = spec.resolve(&options) {
        tessera_host::usage!("--ai: {e}");
    }
    let mut sim = SimOptions::default();
    sim.set("pieces", pieces);
    match project.start_sim_session(Tetris::ID, &SimLevel::Default, 0, &options, &sim) {
        Ok(session) => Ok(session),
        // `--ai` naming no difficulty (a feeder, a typo) is bad usage.
        Err(tessera_host::GameError::Invalid(why)) => tessera_host::usage!("--ai: {why}"),
        Err(other) => Err(other.into()),
    }
}

/// A count the game's simulation figures give (`lines`, `pieces`).
pub(super) fn count(session: &dyn Session, play: &SimPlay, key: &str) -> u64 {
    session
        .sim_figures(play)
        .iter()
        .find(|f| f.key == key)
        .and_then(|f| match f.value {
            SimValue::Count(n) => Some(n),
            _ => None,
        })
        .unwrap_or(0)
}
