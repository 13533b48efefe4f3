//! `tessera play GAME`: plays any game headless, through the same recorded
//! session the editor uses, from an action file, with random legal moves,
//! or with AI players in every seat; then prints the game's own summary.
//!
//! Nothing here names a game: modes, seats and AI levels come from the
//! game's spec, the summary from the game's report.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::Rng;
use tessera_host::driver::ThinkingStatus;
use tessera_host::level::read_text;
use tessera_host::rng::game_rng;
use tessera_host::text::count;
use tessera_host::{Budget, GameError, Seat, Session, SessionOptions, ThinkControl};

use tessera_host::command::CommandContext;

use crate::Status;

/// Arguments of `tessera play`.
#[derive(clap::Args)]
pub struct Args {
    /// Game id (`tessera games` lists them).
    game: String,
    /// The session's seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Level file (default: the game's default level).
    #[arg(long)]
    level: Option<PathBuf>,
    /// Game mode (`tessera games` lists each game's modes).
    #[arg(long)]
    mode: Option<String>,
    /// Who plays each seat, in turn order: `human` or `ai:LEVEL`; repeat
    /// per seat (default: the game's default seats).
    #[arg(long = "seat", value_name = "SEAT")]
    seats: Vec<Seat>,
    /// A RON list of actions, e.g. `[Place(slot: 0, x: 4, y: 0), Tick(30), Settle]`.
    #[arg(long, conflicts_with_all = ["random_play", "ai_only"])]
    actions: Option<PathBuf>,
    /// With --actions: report a refused action and go on with the next
    /// (the default stops at the first refusal). Refusals are recorded
    /// steps too, so this writes replays that show them.
    #[arg(long)]
    keep_going: bool,
    /// Play this many turns of random legal moves instead.
    #[arg(long, value_name = "TURNS", conflicts_with = "ai_only")]
    random_play: Option<u32>,
    /// Let the AI play every seat (seats given with --seat keep their AI
    /// level; the others get the game's strongest).
    #[arg(long)]
    ai_only: bool,
    /// The AI level for every seat not given otherwise (implies
    /// --ai-only), e.g. `--ai god`.
    #[arg(long, value_name = "LEVEL")]
    ai: Option<String>,
    /// The first seat's AI (implies --ai-only): tetris feed mode's feeder,
    /// `random` or `hate`.
    #[arg(long, value_name = "NAME")]
    feeder: Option<String>,
    /// Most AI moves with --ai-only (guards against endless games).
    #[arg(long, default_value_t = 10_000, value_name = "MOVES")]
    max_moves: u32,
    /// Save the session as a replay file (`.replay.ron`).
    #[arg(long, value_name = "FILE")]
    save_replay: Option<PathBuf>,
    /// Write the game's own record (JSON lines) here, for games that keep
    /// one (Azul).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Also print the board as text.
    #[arg(long)]
    render: bool,
    /// Print the final state as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Seats for an AI-only game: the seats given (or the level's, or the
/// mode's defaults), with `--feeder` in the first seat, `--ai LEVEL` in
/// every other seat not given with `--seat`, and the strongest AI in any
/// human seat left.
fn fill_ai_seats(
    project: &mut tessera_host::project::Project,
    args: &Args,
    level: Option<&std::path::Path>,
    options: &mut SessionOptions,
) -> anyhow::Result<()> {
    let spec = project.spec(&args.game).map_err(anyhow::Error::from)?;
    let Some(strongest) = args.ai.as_deref().or(spec.strongest_ai()) else {
        crate::usage!("`{}` has no AI: --ai-only cannot play it", args.game);
    };
    let wanted = project.level_options(&args.game, level);
    if options.mode.is_none() {
        options.mode = wanted.mode.clone();
    }
    // The level's seats apply when the game is played in the level's mode,
    // a level that names no mode included (Azul's four-player table), as
    // at every game start (`with_level_defaults`).
    let level_seats = options.mode == wanted.mode && !wanted.seats.is_empty();
    let mode = options
        .mode
        .clone()
        .unwrap_or_else(|| spec.modes[0].id.clone());
    let given = options.seats.len();
    if given == 0 {
        options.seats = if level_seats {
            wanted.seats
        } else {
            spec.default_seats_for(&mode).to_vec()
        };
    }
    if let Some(feeder) = &args.feeder {
        if options.seats.is_empty() {
            options.seats.push(Seat::Human);
        }
        options.seats[0] = Seat::Ai {
            level: feeder.clone(),
        };
    }
    for (i, seat) in options.seats.iter_mut().enumerate() {
        let fixed = i < given || (i == 0 && args.feeder.is_some());
        let replace = match seat {
            Seat::Human => true,
            Seat::Ai { .. } => !fixed && args.ai.is_some(),
        };
        if replace && !(fixed && matches!(seat, Seat::Ai { .. })) {
            *seat = Seat::Ai {
                level: strongest.to_string(),
            };
        }
    }
    Ok(())
}

/// Whether the command line names the mode or any seat.
fn options_given(args: &Args) -> bool {
    args.mode.is_some() || !args.seats.is_empty() || args.ai.is_some() || args.feeder.is_some()
}

/// Raised by Ctrl+C (the process's job token): an AI's decision in
/// progress stops at once, no further move is played, and the game so far
/// is reported (and saved with `--save-replay`/`--record`) before exit 1.
fn stop() -> &'static ThinkControl {
    tessera_host::job::interrupt()
}

/// An AI's decision shows its progress line (on a terminal) only after
/// this long, so quick moves print nothing extra.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// Runs `tessera play`.
pub fn run(args: &Args, context: &CommandContext) -> anyhow::Result<Status> {
    // The whole game is the job: Ctrl+C stops it and the game so far is
    // reported.
    let _listening = tessera_host::job::listen();
    // Where the results go is checked before the game is played, not after.
    for path in [&args.save_replay, &args.record].into_iter().flatten() {
        tessera_host::level::check_writable(path)?;
    }
    // One file for both would keep only the second write.
    if let (Some(replay), Some(record)) = (&args.save_replay, &args.record)
        && tessera_host::level::same_file(replay, record)
    {
        crate::usage!(
            "--save-replay and --record name the same file {}: give each its own",
            record.display()
        );
    }
    let registry = context.registry().clone();
    if registry.get(&args.game).is_none() {
        let known: Vec<&str> = registry.iter().map(|e| e.id).collect();
        crate::usage!(
            "unknown game `{}` (known: {}; see `tessera games`)",
            args.game,
            known.join(", ")
        );
    }
    let ai_only = args.ai_only || args.ai.is_some() || args.feeder.is_some();
    if args.actions.is_none() && args.random_play.is_none() && !ai_only {
        crate::usage!("give --actions FILE, --random-play TURNS or --ai-only");
    }
    let mut project = super::current_project(registry)?;
    let mut options = SessionOptions {
        mode: args.mode.clone(),
        seats: args.seats.clone(),
    };
    let level = args
        .level
        .as_ref()
        .map(|l| std::env::current_dir().map(|cwd| cwd.join(l)))
        .transpose()?;
    if ai_only {
        fill_ai_seats(&mut project, args, level.as_deref(), &mut options)?;
        if options.seats.len() > args.seats.len() {
            let chosen: Vec<String> = options
                .seats
                .iter()
                .enumerate()
                .map(|(i, seat)| format!("{} {seat}", i + 1))
                .collect();
            eprintln!(
                "seats: {} (seats not given with --seat: the level's or the game's defaults, \
                 the strongest AI in human seats)",
                chosen.join(", ")
            );
        }
    }
    // A bad mode, seat count or AI level is bad usage (exit 2), caught
    // before the game starts.
    let spec = project.spec(&args.game)?;
    // Seats a level file asked for are left to the start, which names the
    // file and line.
    if let Err(e) = spec.resolve(&options)
        && options_given(args)
    {
        crate::usage!("{e}");
    }
    let mut session = match project.start_session(&args.game, level.as_deref(), args.seed, &options)
    {
        Ok(session) => session,
        // What a game refuses of the options beyond its spec (feed mode's
        // first seat must be a feeder, classic tetris has one seat) is bad
        // usage too when the command line chose them; options a level file
        // asked for are that file's fault (exit 1).
        Err(GameError::Invalid(why)) if options_given(args) => crate::usage!("{why}"),
        Err(other) => return Err(other.into()),
    };

    let mut failure = None;
    let mut refused = 0;
    let mut console = Console::default();
    if let Some(path) = &args.actions {
        let text = read_text(path)?;
        let entry = project.registry().get(&args.game).cloned();
        let actions = match entry {
            Some(entry) => entry.parse_actions(&text, path)?,
            None => Vec::new(),
        };
        for (index, action) in actions.iter().enumerate() {
            if stop().is_cancelled() {
                break;
            }
            let result = session.apply_ron(action);
            console.print(session.as_mut());
            if let Err(error) = result {
                let message = format!(
                    "{}: action {} `{action}`: {error}",
                    path.display(),
                    index + 1
                );
                if args.keep_going {
                    eprintln!("refused: {message}");
                    refused += 1;
                    continue;
                }
                failure = Some(message);
                break;
            }
            play_ai_turns(session.as_mut(), args.max_moves, &mut console)?;
        }
    }
    if let Some(turns) = args.random_play {
        random_play(session.as_mut(), args.seed, turns, &mut console)?;
    }
    if ai_only {
        play_ai_turns(session.as_mut(), args.max_moves, &mut console)?;
    }
    if let Some(path) = &args.save_replay {
        let text = session.replay_ron().map_err(anyhow::Error::from)?;
        tessera_host::level::write_atomic(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("saved replay {}", path.display());
    }
    if let Some(path) = &args.record {
        let Some(record) = session.game_record() else {
            crate::usage!("`{}` keeps no game record (--record)", args.game);
        };
        tessera_host::level::write_atomic(path, record.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("saved game record {}", path.display());
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&session.report_json())?);
    } else {
        print!("{}", session.report_text(args.render));
    }
    if let Some(failure) = failure {
        eprintln!("tessera: {failure}");
        return Ok(Status::Failed);
    }
    if stop().is_cancelled() {
        eprintln!(
            "{}after {}; the game above is as far as it got",
            tessera_host::job::PARTIAL_STOPPED,
            count(session.step_count(), "step")
        );
        return Ok(Status::Failed);
    }
    if console.errors > 0 {
        // A script that fails during the game is a failed run, not a
        // finished one: each distinct error was printed once above.
        eprintln!(
            "tessera: the script failed {} during the game ({} distinct, each shown once)",
            count(console.errors, "time"),
            console.seen.len()
        );
        return Ok(Status::Failed);
    }
    if refused > 0 {
        // Each refusal was reported where it happened; only count them.
        eprintln!(
            "tessera: {} refused (--keep-going)",
            count(refused, "action")
        );
        return Ok(Status::Failed);
    }
    Ok(Status::Ok)
}

/// Random legal moves (drawn from a stream of their own, derived from the
/// seed), letting time settle after each where the game has a settle
/// action; AI seats answer in between.
fn random_play(
    session: &mut dyn Session,
    seed: u64,
    turns: u32,
    console: &mut Console,
) -> anyhow::Result<()> {
    let mut rng = game_rng(seed ^ 0x5eed_5a4d);
    for _ in 0..turns {
        if session.outcome().is_over() || stop().is_cancelled() {
            break;
        }
        let mut moves = session.legal_actions_ron();
        if moves.is_empty()
            && let Some(settle) = session.settle_action_ron()
        {
            // No move fits: let time settle, so the game can see that it
            // is over (a full board is lost, as a refused placement says).
            session
                .apply_ron(&settle)
                .with_context(|| format!("`{settle}` with no legal move"))?;
            console.print(session);
            moves = session.legal_actions_ron();
        }
        if moves.is_empty() {
            break;
        }
        let action = &moves[rng.random_range(0..moves.len())];
        session
            .apply_ron(action)
            .with_context(|| format!("random move `{action}`"))?;
        if let Some(settle) = session.settle_action_ron() {
            session
                .apply_ron(&settle)
                .with_context(|| format!("`{settle}` after a random move"))?;
        }
        console.print(session);
        play_ai_turns(session, u32::MAX, console)?;
    }
    Ok(())
}

/// Lets AI seats move while it is their turn (at most `max_moves`), through
/// the host's one driver of AI seats: each decision on a worker thread,
/// with a progress line on a terminal once it has taken a second, and
/// stopped at once by Ctrl+C.
fn play_ai_turns(
    session: &mut dyn Session,
    max_moves: u32,
    console: &mut Console,
) -> anyhow::Result<()> {
    if stop().is_cancelled() {
        return Ok(());
    }
    // Hidden until a decision takes long; indicatif draws nothing where
    // stderr is not a terminal.
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    if let Ok(style) = ProgressStyle::with_template("{msg}") {
        bar.set_style(style);
    }
    let end = tessera_host::driver::play_ai_turns_watched(
        session,
        Budget::unbounded(),
        max_moves as usize,
        stop(),
        Duration::from_millis(50),
        &mut |status| {
            if status.elapsed >= QUIET_FOR {
                if bar.is_hidden() {
                    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
                }
                bar.set_message(thinking_line(status));
            }
        },
        &mut |session, _action| bar.suspend(|| console.print(session)),
    );
    bar.finish_and_clear();
    end.map_err(anyhow::Error::from)?;
    Ok(())
}

/// The progress line of a long decision: who thinks, for how long, how
/// far, and the AI's own note (`depth 4, 1200000 nodes`).
fn thinking_line(status: &ThinkingStatus) -> String {
    let mut line = format!(
        "{} thinking {:.1} s",
        status.label,
        status.elapsed.as_secs_f64()
    );
    if status.progress > 0.0 {
        line.push_str(&format!(" · {:.0}%", status.progress * 100.0));
    }
    if !status.note.is_empty() {
        line.push_str(&format!(" · {}", status.note));
    }
    line.push_str(" · Ctrl+C stops");
    line
}

/// Prints a game's script output and errors on stderr as they happen. A
/// script error that repeats (a hook failing at every lock) is printed
/// once; the count decides the exit code.
#[derive(Default)]
struct Console {
    seen: std::collections::HashSet<String>,
    errors: usize,
}

impl Console {
    fn print(&mut self, session: &mut dyn Session) {
        for event in session.take_new_events() {
            if event.text.starts_with("refused: ") {
                // The failed action is reported once, with its file and index.
                continue;
            }
            if event.is_error {
                self.errors += 1;
                if self.seen.len() < 100 && self.seen.insert(event.text.clone()) {
                    eprintln!("script error: {}", event.text);
                }
            } else if let Some(line) = event.text.strip_prefix("script: ") {
                eprintln!("script: {line}");
            }
        }
    }
}
