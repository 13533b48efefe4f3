//! `tessera tetris hatetris --offline`: the game against the `hatetris`
//! feeder searched as a whole, without a time limit a decision
//! ([`crate::ai::hatetris_offline`]: rounds of ever wider beams over the
//! whole game, the difficulty's evaluation ranking the boards), until
//! `--minutes` pass, the widest round ends, or Ctrl+C. The best line is
//! then played through the real game (the same start as the online
//! `tetris hatetris`, the feeder deciding every piece) and its figure is
//! the one the game counted. `--shard I/N` searches the landings of the
//! first piece dealt to shard I (every N-th) and prints a JSON partial;
//! `tessera merge` replays each shard's line through the game (a partial
//! is an editable file) and keeps the best.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tessera_host::command::{CommandContext, NamedPartials, Status};
use tessera_host::partial::{FORMAT, Partial, ShardId, file_sha256, refusal};
use tessera_host::session::{Session, downcast};
use tessera_host::sim::SimPlay;
use tessera_host::{AgentGame, Budget, Game, ThinkControl};

use crate::ai::hatetris_offline::{self, OfflineLine, OfflineProgress, RootShare};
use tessera_tetris::movegen::Placement;
use tessera_tetris::{Tetris, TetrisAction};

/// The options of the offline mode (with `--offline`).
#[derive(clap::Args)]
pub(super) struct OfflineArgs {
    /// Search the whole game without a time limit a decision (rounds of
    /// ever wider beams) and print the best line found, replayed through
    /// the game.
    #[arg(long)]
    pub(super) offline: bool,
    /// Stop the offline search after this many minutes (it also stops
    /// after its widest round, or at Ctrl+C, with the best line so far).
    #[arg(long, default_value_t = 60.0, requires = "offline")]
    minutes: f64,
    /// The first round's beam: boards kept a ply (each round doubles it).
    #[arg(long, default_value_t = 1024, requires = "offline")]
    width: usize,
    /// The widest round's beam (memory: about 10 KiB a board).
    #[arg(long, default_value_t = 131_072, requires = "offline")]
    max_width: usize,
    /// Search only the first piece's landings dealt to shard I of N (every
    /// N-th) and print a JSON partial for `tessera merge`.
    #[arg(long, value_name = "I/N", requires = "offline", value_parser = ShardId::parse)]
    shard: Option<ShardId>,
}

/// The widest beam `--max-width` may ask for: 2^20 boards a ply, some
/// GiB of memory already.
const MAX_WIDTH: usize = 1 << 20;

/// The partial's command.
const COMMAND: &str = "tetris hatetris --offline";

/// Whether a partial's command is the offline search's.
pub(super) fn owns(command: &str) -> bool {
    command == COMMAND
}

/// Runs the offline search for difficulty `ai` and prints its line.
pub(super) fn run(
    args: &OfflineArgs,
    ai: &str,
    json: bool,
    context: &CommandContext,
) -> anyhow::Result<Status> {
    if !(args.minutes.is_finite() && args.minutes > 0.0) {
        tessera_host::usage!("--minutes must be a number of minutes above 0");
    }
    if args.width == 0 || args.max_width < args.width || args.max_width > MAX_WIDTH {
        tessera_host::usage!(
            "--width must be at least 1 and --max-width from --width to {MAX_WIDTH}"
        );
    }
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(args.minutes.min(1e7) * 60.0);
    // The search is the job: Ctrl+C stops it with the best line so far.
    let _listening = tessera_host::job::listen();
    let interrupt = tessera_host::job::interrupt();
    let mut project = context.current_project()?;
    let script_path = project.game_script_path(Tetris::ID);
    let script = project.script(&script_path).map_err(anyhow::Error::from)?;
    let difficulty =
        crate::ai::settings::difficulty(&script.current(), ai).map_err(anyhow::Error::from)?;
    let Some(difficulty) = difficulty else {
        tessera_host::usage!("--ai: no difficulty `{ai}` in the script's `ai.difficulties`");
    };
    let mut session = super::hatetris::start_game(context, ai, u64::MAX)?;
    feed(session.as_mut())?;
    let position = downcast::<Tetris>(session.as_ref())
        .and_then(|s| {
            crate::feed::position(&s.game().snapshot(), crate::agents::reader_streak(s.game()))
        })
        .ok_or_else(|| anyhow::anyhow!("the game against hatetris has no piece to place"))?;
    let share = args.shard.map_or(RootShare::WHOLE, |s| RootShare {
        index: s.index,
        of: s.of,
    });
    let mut bar = Bar::new();
    let stop = || interrupt.is_cancelled() || Instant::now() >= deadline;
    let found = hatetris_offline::search(
        &position,
        &difficulty,
        (args.width, args.max_width),
        share,
        &stop,
        &mut |p| bar.update(p),
    );
    bar.finish();
    let interrupted = interrupt.is_cancelled();
    let seconds = started.elapsed().as_secs_f64();
    let Some(line) = found else {
        println!("no line: every landing of the first piece tops out");
        return Ok(Status::Failed);
    };
    let verified = replay_line(context, ai, &line.moves)?;
    if verified != u64::from(line.lines) {
        anyhow::bail!(
            "the line found claims {} rows but clears {verified} when played through the game",
            line.lines
        );
    }
    let result = result_json(&line);
    if let Some(shard) = args.shard {
        let partial = Partial {
            tessera_partial: FORMAT,
            command: COMMAND.into(),
            input: script_path.display().to_string(),
            input_sha256: file_sha256(&script_path)?,
            options: serde_json::json!({
                "tessera": env!("CARGO_PKG_VERSION"),
                "ai": ai.to_lowercase(),
                "minutes": args.minutes,
                "width": args.width,
                "max_width": args.max_width,
            }),
            shard,
            complete: !interrupted,
            seconds,
            result,
        };
        println!("{}", serde_json::to_string(&partial)?);
    } else if json {
        let mut report = result;
        report["ai"] = ai.to_lowercase().into();
        report["seconds"] = seconds.into();
        report["stopped"] = interrupted.into();
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_line(ai, &line, seconds);
    }
    if interrupted {
        eprintln!(
            "{}the line above is the best found before Ctrl+C",
            tessera_host::job::PARTIAL_STOPPED
        );
        return Ok(Status::Failed);
    }
    Ok(Status::Ok)
}

/// Plays the feeder's turns until the player is to move.
fn feed(session: &mut dyn Session) -> anyhow::Result<()> {
    while session.ai_to_move() == Some(0) {
        let task = session
            .ai_task(0, Budget::unbounded())
            .map_err(anyhow::Error::from)?;
        let decision = task
            .run(&ThinkControl::new())
            .map_err(anyhow::Error::from)?;
        session.apply_ai(decision).map_err(anyhow::Error::from)?;
    }
    Ok(())
}

/// The action that locks the piece in play at `placement`, as the AI's
/// own decisions give it.
fn drop_action(p: &Placement) -> TetrisAction {
    TetrisAction::Drop {
        x: p.left_column(),
        rotation: p.state,
        y: Some(p.top_row()),
    }
}

/// Plays `moves` through a new game against the feeder (the rules, not
/// the search, deciding what each move does and which piece comes): the
/// rows the game counted. A move the game refuses is an error.
fn replay_line(context: &CommandContext, ai: &str, moves: &[Placement]) -> anyhow::Result<u64> {
    let actions: Vec<TetrisAction> = moves.iter().map(drop_action).collect();
    replay_actions(context, ai, &actions).map_err(|stop| {
        let action = actions
            .get(stop.index)
            .and_then(|a| ron::to_string(a).ok())
            .unwrap_or_default();
        anyhow::anyhow!(
            "the line's move {} ({action}): {}",
            stop.index + 1,
            stop.why
        )
    })
}

/// Why a line's moves do not replay: the move (0-based) and what the
/// game said.
struct ReplayStop {
    index: usize,
    why: String,
}

/// Plays `actions` (each a `Drop`) through a new game against the feeder:
/// the rows the game counted, or the first move the game refuses (or
/// that has no turn: the game ended before it).
fn replay_actions(
    context: &CommandContext,
    ai: &str,
    actions: &[TetrisAction],
) -> Result<u64, ReplayStop> {
    let stop = |index: usize, why: String| ReplayStop { index, why };
    let mut session = super::hatetris::start_game(context, ai, u64::MAX)
        .map_err(|e| stop(0, format!("the game does not start: {e}")))?;
    for (i, action) in actions.iter().enumerate() {
        feed(session.as_mut()).map_err(|e| stop(i, format!("the feeder failed: {e}")))?;
        if session.ai_to_move() != Some(1) {
            return Err(stop(i, "no turn: the game ended before it".into()));
        }
        let text = ron::to_string(action).map_err(|e| stop(i, e.to_string()))?;
        session
            .apply_ron(&text)
            .map_err(|e| stop(i, e.to_string()))?;
    }
    Ok(super::hatetris::count(
        session.as_ref(),
        &SimPlay::new(2),
        "lines",
    ))
}

/// A partial's `result.moves` as `Drop` actions (each `[x, rotation,
/// y]`), or the refusal of the first entry that is not one, at its line.
fn partial_moves(path: &std::path::Path, p: &Partial) -> anyhow::Result<Vec<TetrisAction>> {
    let Some(moves) = p.result["moves"].as_array() else {
        return Err(refusal(path, &["result", "moves"], "result.moves is not a list").into());
    };
    let mut actions = Vec::with_capacity(moves.len());
    for (i, entry) in moves.iter().enumerate() {
        let number = |k: usize| entry.get(k).and_then(serde_json::Value::as_i64);
        let parsed = match entry.as_array().map(Vec::len) {
            Some(3) => (|| {
                Some(TetrisAction::Drop {
                    x: i32::try_from(number(0)?).ok()?,
                    rotation: u8::try_from(number(1)?).ok()?,
                    y: Some(i32::try_from(number(2)?).ok()?),
                })
            })(),
            _ => None,
        };
        let Some(action) = parsed else {
            let index = i.to_string();
            return Err(refusal(
                path,
                &["result", "moves", &index],
                format!(
                    "result.moves[{i}] ({}) is not a move [x, rotation, y]",
                    tessera_host::text::excerpt(&entry.to_string())
                ),
            )
            .into());
        };
        actions.push(action);
    }
    Ok(actions)
}

/// The line as JSON: rows, pieces, the round's width and the moves (each
/// `[x, rotation, y]`: the `Drop` action's leftmost column, rotation state
/// and top row).
fn result_json(line: &OfflineLine) -> serde_json::Value {
    let moves: Vec<[i32; 3]> = line
        .moves
        .iter()
        .map(|p| [p.left_column(), i32::from(p.state), p.top_row()])
        .collect();
    serde_json::json!({
        "lines": line.lines,
        "pieces": line.moves.len(),
        "width": line.width,
        "moves": moves,
    })
}

fn print_line(ai: &str, line: &OfflineLine, seconds: f64) {
    println!(
        "{} against hatetris, offline (10 x 20, no ceiling): {}, {} \
         (replayed through the game), found at beam width {} in {seconds:.1} s",
        ai.to_lowercase(),
        tessera_host::text::count(u64::from(line.lines), "line"),
        tessera_host::text::count(line.moves.len() as u64, "piece"),
        line.width,
    );
    let moves: Vec<String> = line
        .moves
        .iter()
        .map(|p| ron::to_string(&drop_action(p)).unwrap_or_else(|_| format!("{p:?}")))
        .collect();
    println!("moves: {}", moves.join(" "));
}

/// The progress line on stderr (indicatif draws only on a terminal); a
/// line per finished round where stderr is not one (a log).
struct Bar {
    bar: ProgressBar,
    round: Option<OfflineProgress>,
    log: bool,
}

impl Bar {
    fn new() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
        if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}") {
            bar.set_style(style);
        }
        Self {
            bar,
            round: None,
            log: !std::io::stderr().is_terminal(),
        }
    }

    fn update(&mut self, p: &OfflineProgress) {
        if let Some(last) = self.round
            && last.width != p.width
        {
            self.finished(&last);
        }
        self.round = Some(*p);
        self.bar.set_message(format!(
            "width {}: ply {}, {} boards, {} rows this round, best {}",
            p.width, p.ply, p.frontier, p.round_best, p.best
        ));
        self.bar.tick();
    }

    fn finished(&self, p: &OfflineProgress) {
        let text = format!(
            "round of width {}: {} plies, {} rows (best so far {})",
            p.width, p.ply, p.round_best, p.best
        );
        if self.log {
            eprintln!("{text}");
        } else {
            self.bar.println(text);
        }
    }

    fn finish(&mut self) {
        if let Some(last) = self.round.take() {
            self.finished(&last);
        }
        self.bar.finish_and_clear();
    }
}

/// The shards' best line: the most rows, then the most pieces, ties to
/// the lowest shard. A partial is a file anyone can edit, so each shard's
/// line is replayed here through the rules against the feeder (as its
/// shard did before printing it): a move the game refuses, or rows the
/// replay does not clear, refuse the partial by name.
pub(super) fn merge(
    partials: &NamedPartials,
    json: bool,
    context: &CommandContext,
) -> anyhow::Result<Status> {
    let mut best: Option<(u64, u64, &Partial)> = None;
    for (path, p) in partials {
        let field = |key: &str| p.result_count(path, key);
        let (lines, pieces) = (field("lines")?, field("pieces")?);
        let actions = partial_moves(path, p)?;
        let moves = actions.len() as u64;
        if moves != pieces {
            return Err(refusal(
                path,
                &["result", "moves"],
                format!("result.moves holds {moves} moves for {pieces} pieces"),
            )
            .into());
        }
        let Some(ai) = p.options["ai"].as_str() else {
            return Err(refusal(
                path,
                &["options", "ai"],
                "options.ai is missing or not a difficulty's name",
            )
            .into());
        };
        let replayed = replay_actions(context, ai, &actions).map_err(|stop| {
            let index = stop.index.to_string();
            let entry = p.result["moves"][stop.index].to_string();
            refusal(
                path,
                &["result", "moves", &index],
                format!(
                    "result.moves does not replay through the game: move {} ({}): {}",
                    stop.index + 1,
                    tessera_host::text::excerpt(&entry),
                    stop.why
                ),
            )
        })?;
        if replayed != lines {
            return Err(refusal(
                path,
                &["result", "lines"],
                format!(
                    "result.lines is {lines}, but its moves clear {} when replayed through the game",
                    tessera_host::text::count(replayed, "line")
                ),
            )
            .into());
        }
        let better = best.is_none_or(|(l, n, b)| {
            (lines, pieces) > (l, n) || ((lines, pieces) == (l, n) && p.shard.index < b.shard.index)
        });
        if better {
            best = Some((lines, pieces, p));
        }
    }
    let Some((lines, pieces, p)) = best else {
        anyhow::bail!("no partials to merge");
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&p.result)?);
    } else {
        println!(
            "best of {} shards: {}, {} (shard {}/{}, found at beam width {})",
            partials.len(),
            tessera_host::text::count(lines, "line"),
            tessera_host::text::count(pieces, "piece"),
            p.shard.index,
            p.shard.of,
            p.result["width"],
        );
        println!(
            "moves ([x, rotation, y] of each Drop): {}",
            p.result["moves"]
        );
    }
    Ok(Status::Ok)
}
