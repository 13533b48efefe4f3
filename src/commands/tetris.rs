//! Tetris-only tools: `tessera tetris explain LOG` replays an AI log (the
//! editor's S panel, copied) and says whether the same decision comes out,
//! and `tessera sim tetris ...` (reached through `tessera sim`), whose
//! figures are the AI's (lines, pieces survived, time per decision) rather
//! than the seat-against-seat win rates of the generic simulation.

use std::path::PathBuf;

use anyhow::Context;
use tessera_host::{Game, ThinkControl};
use tessera_tetris::Tetris;
use tessera_tetris::ai::feeder::Feeder;
use tessera_tetris::ai::log;
use tessera_tetris::sim::{self, SimConfig, SimMode};

use crate::Status;

/// Arguments of `tessera tetris`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: TetrisCommand,
}

#[derive(clap::Subcommand)]
enum TetrisCommand {
    /// Replay an AI log (as the editor's AI log panel copies it) and
    /// report whether the same decision comes out, or what differs.
    Explain {
        /// The log file (`-` reads standard input).
        log: PathBuf,
        /// Decide with the project's current `scripts/tetris.lua` values
        /// for the logged difficulty instead of the values in the log.
        #[arg(long)]
        current_script: bool,
    },
}

/// Runs `tessera tetris ...`.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    match &args.command {
        TetrisCommand::Explain {
            log: path,
            current_script,
        } => explain(path, *current_script),
    }
}

fn explain(path: &std::path::Path, current_script: bool) -> anyhow::Result<Status> {
    let text = if path.as_os_str() == "-" {
        read_stdin()?
    } else {
        tessera_host::level::read_text(path).map_err(anyhow::Error::from)?
    };
    let parsed = log::parse(&text).map_err(|e| anyhow::anyhow!("{}", e.in_file(path)))?;
    let difficulty = if current_script {
        let mut project = super::current_project(tessera_builtin::registry())?;
        let script_path = project.game_script_path(Tetris::ID);
        let script = project.script(&script_path).map_err(anyhow::Error::from)?;
        let name = &parsed.input.difficulty.name;
        tessera_tetris::settings::difficulty(&script.current(), name)
            .map_err(anyhow::Error::from)?
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{}: no difficulty `{name}` in the script's `ai.difficulties`",
                    script_path.display()
                )
            })?
    } else {
        parsed.input.difficulty.clone()
    };
    let (choice, differences) = log::explain(&parsed, &difficulty);
    let best = choice.best().map(log::landing_text);
    println!(
        "{}: {} with {} candidates: best {}, decided by {}",
        path.display(),
        difficulty.name,
        choice.candidates.len(),
        best.as_deref().unwrap_or("-"),
        choice.decided_by.as_deref().unwrap_or("-")
    );
    if differences.is_empty() {
        println!("same decision as the log");
        Ok(Status::Ok)
    } else {
        for d in &differences {
            println!("differs: {d}");
        }
        Ok(Status::Failed)
    }
}

/// Standard input under the host's input cap: redirected from a file it
/// is read by the host's reader itself; a pipe or terminal is read up to
/// the same cap and refused beyond it, so `/dev/zero` cannot fill memory.
fn read_stdin() -> anyhow::Result<String> {
    use std::io::Read;
    let stdin = std::path::Path::new("/dev/stdin");
    if std::fs::metadata(stdin).is_ok_and(|m| m.is_file()) {
        return tessera_host::level::read_text(stdin).map_err(anyhow::Error::from);
    }
    let cap = tessera_host::level::MAX_FILE_BYTES;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .context("-: cannot read standard input")?;
    if bytes.len() as u64 > cap {
        anyhow::bail!(
            "-: standard input is over the {} MiB limit",
            cap / (1024 * 1024)
        );
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "-: not UTF-8 text (an invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The flags of `tessera sim tetris`.
pub struct SimArgs<'a> {
    /// `classic` or `feed`.
    pub mode: &'a str,
    /// AI levels.
    pub levels: &'a [String],
    /// Feed mode's feeder.
    pub feeder: &'a str,
    /// Games per level.
    pub games: usize,
    /// First seed.
    pub seed: u64,
    /// Piece cap per game.
    pub pieces: u64,
    /// The level file (default: the classic benchmark board, or the
    /// first feed level for feed mode).
    pub level: Option<&'a PathBuf>,
    /// Whether the AI sees the next piece.
    pub preview: bool,
    /// Worker threads.
    pub threads: Option<usize>,
    /// Raw rows to this CSV file.
    pub csv: Option<&'a PathBuf>,
    /// JSON summary.
    pub json: bool,
}

/// Runs `tessera sim tetris`.
pub fn sim(args: &SimArgs<'_>) -> anyhow::Result<Status> {
    let mode = match args.mode {
        "classic" => SimMode::Classic,
        "feed" => SimMode::Feed(Feeder::from_name(args.feeder).ok_or_else(|| {
            crate::Usage(format!("--feeder `{}`: {}", args.feeder, Feeder::NAMES))
        })?),
        other => {
            crate::usage!("--mode `{other}`: `classic` or `feed`");
        }
    };
    if args.games == 0 || args.pieces == 0 {
        crate::usage!("--games and --pieces must be at least 1");
    }
    let mut project = super::current_project(tessera_builtin::registry())?;
    let script_path = project.game_script_path(Tetris::ID);
    let live = project.script(&script_path).map_err(anyhow::Error::from)?;
    let script = live.current();
    let known = tessera_tetris::settings::difficulties(&script).map_err(anyhow::Error::from)?;
    let level = match (args.level, mode) {
        (Some(path), _) => {
            let text = tessera_host::level::read_text(path).map_err(anyhow::Error::from)?;
            Tetris::read_level(&text, path).map_err(anyhow::Error::from)?
        }
        (None, SimMode::Classic) => sim::classic_benchmark_level(),
        (None, SimMode::Feed(_)) => sim::feeder_benchmark_level(),
    };
    // Without --ai, a feed level is played against its own difficulty.
    let levels: Vec<String> = match (args.levels.is_empty(), &level.feed, args.level) {
        (false, _, _) => args.levels.to_vec(),
        (true, Some(feed), Some(_)) if matches!(mode, SimMode::Feed(_)) => {
            vec![feed.difficulty.clone()]
        }
        _ => crate::usage!(
            "--ai: name at least one difficulty (e.g. --ai easy,god); only a feed level in feed mode brings its own"
        ),
    };
    for level in &levels {
        if !known.iter().any(|d| d.name.eq_ignore_ascii_case(level)) {
            crate::usage!(
                "--ai `{level}`: no such difficulty in {} (difficulties: {})",
                script_path.display(),
                known
                    .iter()
                    .map(|d| d.name.to_lowercase())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = SimConfig {
        mode,
        levels: levels.iter().map(|l| l.to_lowercase()).collect(),
        games: args.games,
        seed: args.seed,
        piece_cap: args.pieces,
        level,
        script_path: script_path.clone(),
        script_source: script.source().to_string(),
        preview: args.preview,
        threads,
    };
    let control = ThinkControl::new();
    let started = std::time::Instant::now();
    let rows = std::thread::scope(|scope| {
        let worker = scope.spawn(|| sim::run(&config, &control));
        while !worker.is_finished() {
            std::thread::sleep(std::time::Duration::from_millis(200));
            super::sim::progress_bar(control.progress(), started.elapsed(), &control.note());
        }
        worker.join()
    })
    .map_err(|_| anyhow::anyhow!("the simulation stopped unexpectedly"))?
    .map_err(anyhow::Error::from)?;
    eprintln!();
    if let Some(path) = args.csv {
        let mut text = String::from("level,seed,lines,pieces,ai_won,capped,decision_us\n");
        for r in &rows {
            text.push_str(&format!(
                "{},{},{},{},{},{},{:.3}\n",
                r.level, r.seed, r.lines, r.pieces, r.ai_won, r.capped, r.decision_us
            ));
        }
        tessera_host::level::write_atomic(path, text.as_bytes())
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    }
    let summary = sim::summarise(&config.levels, &rows);
    if args.json {
        let json = serde_json::json!({
            "game": "tetris",
            "mode": args.mode,
            "feeder": match mode {
                SimMode::Feed(f) => Some(f.name()),
                SimMode::Classic => None,
            },
            "level": config.level.title,
            "games_per_level": args.games,
            "seed": args.seed,
            "piece_cap": args.pieces,
            "seconds": started.elapsed().as_secs_f64(),
            "levels": summary,
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!(
            "{} games per level of tetris {}{} on {} ({} x {}), cap {} pieces, {threads} threads, {:.1} s",
            args.games,
            args.mode,
            match mode {
                SimMode::Feed(f) => format!(" fed by `{}`", f.name()),
                SimMode::Classic => String::new(),
            },
            config.level.title,
            config.level.columns,
            config.level.rows,
            args.pieces,
            started.elapsed().as_secs_f64()
        );
        print!("{}", sim::table(&summary, mode));
    }
    Ok(Status::Ok)
}
