//! `tessera sim GAME ...`: AI-against-AI games on every core, one command
//! for every game. A board game plays seat against seat (`--seats
//! ai:medium,ai:expert`, the order rotating each game, so no AI keeps the
//! advantage of moving first) and prints each player's win rate with a
//! 95% (Wilson) interval and its mean and median score; a ladder game
//! (tetris) plays each AI level of `--ai` on the same seeds and prints the
//! game's own figures per level (lines, pieces, win rates, time per
//! decision). Which one a game plays, and which options of its own it
//! takes (`--pieces`, `--preview`), the game says (`Game::SIM_STYLE`,
//! `Game::SIM_OPTIONS`); an option that does not apply is refused.
//!
//! The simulation is the host's (`tessera_host::sim`), shared with the
//! editor's Balance panels; this file turns the arguments into line-ups,
//! shows one progress bar, stops on Ctrl+C with a partial result, streams
//! the CSV rows and prints (`sim_report.rs`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tessera_host::project::Project;
use tessera_host::sim::{
    GameResult, Lineup, SimConfig, SimLevel, SimOptionKind, SimOptions, SimStyle, run_sim,
};
use tessera_host::{Budget, Capability, GameSpec, Seat, SessionOptions};

use super::sim_report::{Heading, print_report};
use tessera_host::command::CommandContext;

use crate::Status;
use tessera_host::partial::{FORMAT, Partial, ShardId, sha256_hex};

/// Arguments of `tessera sim`.
#[derive(clap::Args)]
pub struct Args {
    /// Game id (`tessera games` lists them).
    game: String,
    /// Seat against seat: the players, comma-separated, each `ai:LEVEL`
    /// (e.g. `ai:medium,ai:expert`); the order rotates from game to game.
    #[arg(long, value_delimiter = ',')]
    seats: Vec<Seat>,
    /// Ladder games (tetris): the AI levels to compare, comma-separated
    /// (e.g. `easy,normal,hard,god,master`), each on the same seeds.
    #[arg(long, value_delimiter = ',')]
    ai: Vec<String>,
    /// The mode (default: the level's, else the game's first; tetris:
    /// `classic`, or `feed`, where a feeder gives the AI its pieces).
    #[arg(long)]
    mode: Option<String>,
    /// Ladder games: the AI of the first seat (tetris feed mode's feeder:
    /// `random`, `hate`, `hate:0.5`, `hatetris`; default: the game's first
    /// AI level).
    #[arg(long)]
    feeder: Option<String>,
    /// Tetris: most pieces per game (a classic game that reaches it
    /// survived; default 100000).
    #[arg(long)]
    pieces: Option<u64>,
    /// Tetris: let the AI see the next piece (default: no preview).
    #[arg(long)]
    preview: bool,
    /// Tetris feed mode: no target, the AI plays until it tops out or the
    /// piece cap (how long it survives on the level's board and ceiling).
    #[arg(long)]
    endless: bool,
    /// Write every game as a CSV row to this file, as the games finish.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Games to play (per AI level in a ladder).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Seed of the first game (game i plays seed + i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Seat against seat: most thinking time per AI move, in milliseconds
    /// (the AIs' own limits from the script apply too).
    #[arg(long, value_name = "MS")]
    move_ms: Option<u64>,
    /// Seat against seat: most search nodes (or playouts) per AI move.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Worker threads, 1 to 256 (default: every core).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=tessera_host::worker::MAX_THREADS))]
    threads: Option<usize>,
    /// Seat against seat: most moves in one game, at least 1 (default 10000).
    #[arg(long)]
    max_moves: Option<usize>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Play shard I of N (1-based): a fixed range of the games (and so of
    /// their seeds), printed as a JSON partial for `tessera merge`.
    #[arg(long, value_name = "I/N", value_parser = ShardId::parse)]
    shard: Option<ShardId>,
    /// Level to play (default: the game's simulation board; tetris: the
    /// 10 x 20 self-play board, or a 10 x 20 feed board with no ceiling).
    #[arg(long)]
    level: Option<PathBuf>,
}

impl Args {
    /// `--move-ms` as given.
    pub fn move_ms(&self) -> Option<u64> {
        self.move_ms
    }

    /// `--nodes` as given.
    pub fn nodes(&self) -> Option<u64> {
        self.nodes
    }

    /// `--max-moves` as given.
    pub fn max_moves(&self) -> Option<usize> {
        self.max_moves
    }

    /// `--level` as given.
    pub fn level(&self) -> Option<&Path> {
        self.level.as_deref()
    }

    /// The game options given, by name (a flag as 1).
    fn game_options(&self) -> Vec<(&'static str, u64)> {
        let mut given = Vec::new();
        if let Some(pieces) = self.pieces {
            given.push(("pieces", pieces));
        }
        if self.preview {
            given.push(("preview", 1));
        }
        if self.endless {
            given.push(("endless", 1));
        }
        given
    }
}

/// Runs `tessera sim`.
pub fn run(args: &Args, context: &CommandContext) -> anyhow::Result<Status> {
    // Where the rows go is checked before the simulation, not after.
    if let Some(path) = &args.csv {
        tessera_host::level::check_writable(path)?;
    }
    let registry = context.registry().clone();
    let Some(entry) = registry.get(&args.game) else {
        let known: Vec<&str> = registry.iter().map(|e| e.id).collect();
        crate::usage!("unknown game `{}` (known: {})", args.game, known.join(", "));
    };
    // A simulation plays AI against AI: a game without agents has none.
    if let Err(why) = entry.require(Capability::Agents) {
        crate::usage!("{why}");
    }
    let style = entry.sim_style();
    refuse_what_does_not_apply(args, style)?;
    let mut options = SimOptions::default();
    for (name, value) in args.game_options() {
        match entry.sim_options().iter().find(|o| o.name == name) {
            None => crate::usage!("--{name} does not apply to `{}`", args.game),
            Some(o) if o.kind == SimOptionKind::Count && value == 0 => {
                crate::usage!("--{name} must be at least 1")
            }
            Some(_) => options.set(name, value),
        }
    }
    if args.games == 0 {
        crate::usage!("--games must be at least 1");
    }
    if args.max_moves == Some(0) {
        crate::usage!("--max-moves must be at least 1: a game of no moves has no result");
    }
    let mut project = super::current_project(context.registry().clone())?;
    let level = args
        .level
        .as_ref()
        .map(|l| std::env::current_dir().map(|cwd| cwd.join(l)))
        .transpose()?;
    let spec = project.spec(&args.game)?;
    let (mode, lineups) = match style {
        SimStyle::Seats => seat_lineup(args, &spec)?,
        SimStyle::Ladder => ladder_lineups(args, &project, &spec, level.as_deref())?,
    };
    let ladder = style == SimStyle::Ladder;
    let mut config = SimConfig {
        game: args.game.clone(),
        mode,
        lineups,
        games: args.games,
        seed: args.seed,
        only: None,
        budget: if ladder {
            Budget::unbounded()
        } else {
            Budget {
                nodes: args.nodes,
                time: args.move_ms.map(Duration::from_millis),
            }
        },
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        max_moves: args
            .max_moves
            .unwrap_or(if ladder { usize::MAX } else { 10_000 }),
        level: level.clone().map_or(SimLevel::Default, SimLevel::File),
        options,
    };
    let total = config.total().map_err(crate::Usage)?;
    // What a game refuses of the seats beyond its spec (a feeder as a
    // classic AI) is bad usage, as in `play`; a level file's fault stays
    // that file's (exit 1).
    for lineup in &config.lineups {
        let options = SessionOptions {
            mode: config.mode.clone(),
            seats: lineup.seats.clone(),
        };
        let start = project.start_sim_session(
            &config.game,
            &config.level,
            config.seed,
            &options,
            &config.options,
        );
        if let Err(tessera_host::GameError::Invalid(why)) = start {
            crate::usage!("{why}");
        }
    }
    let shard = args.shard.unwrap_or(ShardId { index: 1, of: 1 });
    let (first, last) = shard.range(total);
    config.only = Some(first..last);
    let heading = Heading::of(args, &config, &project, ladder);
    let root = project.root().to_path_buf();
    let outcome = simulate(args, context, &root, &config, last - first)?;
    if args.shard.is_some() {
        let partial = Partial {
            tessera_partial: FORMAT,
            command: "sim".into(),
            input: args.level.as_ref().map_or_else(
                || format!("{} (default level)", args.game),
                |l| l.display().to_string(),
            ),
            input_sha256: input_hash(&root, &args.game, level.as_deref())?,
            options: serde_json::to_value(&heading)?,
            shard,
            complete: !outcome.cancelled,
            seconds: outcome.elapsed.as_secs_f64(),
            result: serde_json::json!({
                "first_game": first,
                "games": outcome.played,
                "tallies": outcome.tallies,
            }),
        };
        println!("{}", serde_json::to_string(&partial)?);
    } else {
        let threads = outcome.threads;
        print_report(
            &heading,
            &outcome.tallies,
            &tessera_host::text::count(threads, "thread"),
            outcome.elapsed,
            args.json,
            outcome.cancelled.then_some((outcome.played, last - first)),
        )?;
    }
    if outcome.cancelled {
        eprintln!("stopped before the end: the figures above are partial");
        return Ok(Status::Failed);
    }
    Ok(Status::Ok)
}

/// Refuses the options that do not apply to a game of `style` (exit 2).
fn refuse_what_does_not_apply(args: &Args, style: SimStyle) -> anyhow::Result<()> {
    let game = &args.game;
    match style {
        SimStyle::Seats => {
            if !args.ai.is_empty() || args.feeder.is_some() {
                let flag = if args.ai.is_empty() {
                    "--feeder"
                } else {
                    "--ai"
                };
                crate::usage!(
                    "{flag} does not apply to `{game}`: it plays seat against seat; name the players with --seats ai:A,ai:B"
                );
            }
            if args.seats.is_empty() {
                crate::usage!("--seats: name the players, e.g. --seats ai:medium,ai:expert");
            }
        }
        SimStyle::Ladder => {
            let given = [
                ("--seats", !args.seats.is_empty()),
                ("--move-ms", args.move_ms.is_some()),
                ("--nodes", args.nodes.is_some()),
                ("--max-moves", args.max_moves.is_some()),
            ];
            if let Some((flag, _)) = given.iter().find(|(_, on)| *on) {
                crate::usage!(
                    "{flag} does not apply to `{game}`: each AI level of --ai plays its own games, within the AI's own limits"
                );
            }
        }
    }
    Ok(())
}

/// Seat against seat: one line-up of the players given, rotating.
fn seat_lineup(args: &Args, spec: &GameSpec) -> anyhow::Result<(Option<String>, Vec<Lineup>)> {
    if let Some(seat) = args.seats.iter().find(|s| s.ai_level().is_none()) {
        crate::usage!(
            "--seats: `{seat}` is not an AI; a simulation needs `ai:LEVEL` in every seat"
        );
    }
    check_mode(args.mode.as_deref(), spec)?;
    // A seat count or AI level the game does not offer is bad usage (exit
    // 2), as in `play`.
    let options = SessionOptions {
        mode: args.mode.clone(),
        seats: args.seats.clone(),
    };
    if let Err(e) = spec.resolve(&options) {
        crate::usage!("--seats: {e}");
    }
    let label: Vec<String> = args.seats.iter().map(ToString::to_string).collect();
    Ok((
        args.mode.clone(),
        vec![Lineup {
            label: label.join(" vs "),
            seats: args.seats.clone(),
            rotate: true,
        }],
    ))
}

fn check_mode(mode: Option<&str>, spec: &GameSpec) -> anyhow::Result<()> {
    if let Some(mode) = mode
        && !spec.modes.iter().any(|m| m.id == mode)
    {
        let modes: Vec<&str> = spec.modes.iter().map(|m| m.id.as_str()).collect();
        crate::usage!(
            "--mode `{mode}` does not exist (modes: {})",
            modes.join(", ")
        );
    }
    Ok(())
}

/// A ladder: one line-up per AI level of `--ai` (or the level's own AI),
/// in the last seat of the mode's seats (the level's, else the mode's
/// defaults), `--feeder` in the first, any other seat left to a person
/// played by the game's first AI level.
fn ladder_lineups(
    args: &Args,
    project: &Project,
    spec: &GameSpec,
    level: Option<&Path>,
) -> anyhow::Result<(Option<String>, Vec<Lineup>)> {
    check_mode(args.mode.as_deref(), spec)?;
    let wanted = project.level_options(&args.game, level);
    let mode = args
        .mode
        .clone()
        .or(wanted.mode.clone())
        .or_else(|| spec.modes.first().map(|m| m.id.clone()))
        .unwrap_or_default();
    let from_level = wanted.mode.as_deref() == Some(mode.as_str()) && !wanted.seats.is_empty();
    let base = if from_level {
        wanted.seats.clone()
    } else {
        spec.default_seats_for(&mode).to_vec()
    };
    let levels: Vec<String> = if !args.ai.is_empty() {
        args.ai.iter().map(|l| l.to_lowercase()).collect()
    } else if let (true, Some(Seat::Ai { level })) = (from_level, base.last()) {
        vec![level.clone()]
    } else {
        crate::usage!(
            "--ai: name at least one AI level (levels: {}); only a level that names its AI brings its own",
            spec.ai_levels.join(", ")
        );
    };
    let mut lineups = Vec::new();
    for level in levels {
        let mut seats = if base.is_empty() {
            vec![Seat::Human]
        } else {
            base.clone()
        };
        if let Some(last) = seats.last_mut() {
            *last = Seat::Ai {
                level: level.clone(),
            };
        }
        if let Some(feeder) = &args.feeder {
            if seats.len() < 2 {
                crate::usage!(
                    "--feeder does not apply to `{}` mode `{mode}`: it has one seat",
                    args.game
                );
            }
            seats[0] = Seat::Ai {
                level: feeder.clone(),
            };
        }
        let filler = spec.ai_levels.first().cloned().unwrap_or_default();
        for seat in seats.iter_mut().filter(|s| **s == Seat::Human) {
            *seat = Seat::Ai {
                level: filler.clone(),
            };
        }
        let options = SessionOptions {
            mode: Some(mode.clone()),
            seats: seats.clone(),
        };
        if let Err(e) = spec.resolve(&options) {
            let flag = if args.feeder.as_deref() == seats[0].ai_level() && seats.len() > 1 {
                "--ai/--feeder"
            } else {
                "--ai"
            };
            crate::usage!("{flag}: {e}");
        }
        lineups.push(Lineup {
            label: level,
            seats,
            rotate: false,
        });
    }
    Ok((Some(mode), lineups))
}

/// What a run brought back.
struct Outcome {
    tallies: Vec<tessera_host::sim::LineupTally>,
    played: u64,
    threads: usize,
    elapsed: Duration,
    cancelled: bool,
}

/// Runs the simulation with one progress bar (on a terminal), Ctrl+C to
/// stop it, and the CSV rows written as games finish.
fn simulate(
    args: &Args,
    context: &CommandContext,
    root: &Path,
    config: &SimConfig,
    total: u64,
) -> anyhow::Result<Outcome> {
    // The whole simulation is the job: Ctrl+C stops every game in play
    // and the figures so far are printed, marked PARTIAL.
    let control = tessera_host::job::interrupt();
    let _listening = tessera_host::job::listen();
    let mut csv = args.csv.as_deref().map(CsvRows::create).transpose()?;
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr_with_hz(4));
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {pos}/{len} games · {elapsed} · ETA {eta}")
    {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(250));
    let started = Instant::now();
    let mut write_error = None;
    let report = if total == 0 {
        None
    } else {
        Some(run_sim(
            root,
            context.registry(),
            config,
            control,
            &mut |result, done, _| {
                bar.set_position(done);
                if let (Some(rows), None) = (csv.as_mut(), &write_error) {
                    write_error = rows.write(config, result).err();
                }
            },
        ))
    };
    bar.finish_and_clear();
    let report = report.transpose().map_err(anyhow::Error::msg)?;
    if let Some(e) = write_error {
        anyhow::bail!("{e}");
    }
    if let Some(rows) = csv {
        rows.finish()?;
    }
    Ok(match report {
        Some(r) => Outcome {
            tallies: r.tallies,
            played: r.games,
            threads: r.threads,
            elapsed: r.elapsed,
            cancelled: r.cancelled,
        },
        None => Outcome {
            tallies: config.tallies(),
            played: 0,
            threads: 0,
            elapsed: started.elapsed(),
            cancelled: false,
        },
    })
}

/// The CSV file, written row by row: a regular file through a temporary
/// file renamed over it at the end (a crash leaves the old file whole), a
/// device or FIFO (or a link to one) written straight through.
struct CsvRows {
    out: std::io::BufWriter<std::fs::File>,
    /// The temporary file and the target it replaces at the end.
    rename: Option<(PathBuf, PathBuf)>,
    path: PathBuf,
    header: bool,
}

impl CsvRows {
    fn create(path: &Path) -> anyhow::Result<Self> {
        let fail = |e: std::io::Error| anyhow::anyhow!("{}: cannot write: {e}", path.display());
        let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let regular = std::fs::metadata(&target).map_or(true, |m| m.is_file());
        let (file, rename) = if regular {
            let folder = target
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let name = target.file_name().and_then(|n| n.to_str()).unwrap_or("csv");
            let temp = folder.join(format!(".{name}.tessera-tmp"));
            let file = std::fs::File::create(&temp).map_err(fail)?;
            (file, Some((temp, target)))
        } else {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .map_err(fail)?;
            (file, None)
        };
        Ok(Self {
            out: std::io::BufWriter::new(file),
            rename,
            path: path.to_path_buf(),
            header: false,
        })
    }

    /// One game's row: its line-up, seed, then the game's figures (or,
    /// for a game without figures, each player's score and win share).
    fn write(&mut self, config: &SimConfig, result: &GameResult) -> anyhow::Result<()> {
        let fail =
            |e: std::io::Error| anyhow::anyhow!("{}: cannot write: {e}", self.path.display());
        let mut cells = vec![
            config.lineups[result.lineup].label.clone(),
            result.seed.to_string(),
        ];
        let mut names = vec!["level".to_string(), "seed".to_string()];
        if result.figures.is_empty() {
            for (p, (score, share)) in result.score.iter().zip(&result.win_share).enumerate() {
                names.push(format!("score_{}", p + 1));
                names.push(format!("win_{}", p + 1));
                cells.push(score.to_string());
                cells.push(share.to_string());
            }
        } else {
            for figure in &result.figures {
                names.push(figure.key.to_string());
                cells.push(figure.csv_cell());
            }
        }
        if !self.header {
            self.header = true;
            writeln!(self.out, "{}", names.join(",")).map_err(fail)?;
        }
        writeln!(self.out, "{}", cells.join(",")).map_err(fail)
    }

    fn finish(mut self) -> anyhow::Result<()> {
        let path = self.path.clone();
        let fail = |e: std::io::Error| anyhow::anyhow!("{}: cannot write: {e}", path.display());
        self.out.flush().map_err(fail)?;
        if let Some((temp, target)) = self.rename.take() {
            self.out.get_ref().sync_all().map_err(fail)?;
            std::fs::rename(&temp, &target).map_err(|e| {
                let _ = std::fs::remove_file(&temp);
                fail(e)
            })?;
        }
        Ok(())
    }
}

impl Drop for CsvRows {
    /// A run that failed leaves no temporary file behind.
    fn drop(&mut self) {
        if let Some((temp, _)) = &self.rename {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// The hash that names a simulation's input: the game's script and the
/// level played (the default level is part of the game's code).
fn input_hash(root: &Path, game: &str, level: Option<&Path>) -> anyhow::Result<String> {
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
