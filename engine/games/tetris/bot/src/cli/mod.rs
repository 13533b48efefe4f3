//! Tetris-only tools: `tessera tetris explain LOG` replays an AI log (the
//! editor's S panel, copied) and says whether the same decision comes out;
//! `tessera tetris hatetris` times one game against the `hatetris` feeder
//! (`--offline`: searches the whole game, sharded with `--shard I/N`, its
//! partials merged by `tessera merge`);
//! `tessera tetris campaign` is the Balance window's campaign sweep, timed.
//! (`tessera sim tetris` is the host's simulation, like every game's.)
//! Also the `tessera bench tetris` group (`bench.rs`). Registered beside
//! the game in `engine/builtin/games.rs`.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args as _, FromArgMatches as _};
use tessera_host::Game;
use tessera_host::command::{
    BenchGroup, CommandContext, GameCommands, LongRun, NamedPartials, Status,
};

use crate::ai::log;
use tessera_tetris::Tetris;

mod bench;
mod bench_campaign;
mod campaign;
mod hatetris;
mod hatetris_offline;

/// Tetris's command-line capability: `tessera tetris` and `tessera bench
/// tetris`.
pub const COMMANDS: &dyn GameCommands = &TetrisCommands;

struct TetrisCommands;

impl GameCommands for TetrisCommands {
    fn commands(&self) -> Vec<clap::Command> {
        vec![Args::augment_args(clap::Command::new("tetris")).about(
            "Tetris tools: `tessera tetris explain LOG` replays an AI log; \
             `tessera tetris hatetris` times one game against HATETRIS; \
             `tessera tetris campaign` plays every feed level, timed",
        )]
    }

    fn run(
        &self,
        _name: &str,
        matches: &clap::ArgMatches,
        context: &CommandContext,
    ) -> anyhow::Result<Status> {
        run(&Args::from_arg_matches(matches)?, context)
    }

    fn long_runs(&self) -> Vec<LongRun> {
        // A generated puzzle grown by hand to the generator's largest
        // (16 columns, 6 pieces): `check` counts its placement sequences
        // until the census's budget says the level is too large.
        let wide = |row: &str| format!("\"{row:G<16}\"");
        let garbage: Vec<String> = [
            "...G......",
            "G.GG......",
            "G.....G..G",
            "GGG...G..G",
            "GGGG.GGGGG",
        ]
        .iter()
        .map(|row| wide(row))
        .collect();
        let grown = format!(
            "{}(\n  version: 1,\n  title: \"Grown\",\n  rows: 20,\n  columns: 16,\n  hidden_rows: 2,\n  \
             goal: Lines(2),\n  garbage: [{}],\n  sequence: \"IOTLJS\",\n  rotation: Some(\"srs\"),\n)\n",
            tessera_host::generate::claim_block(
                "generate tetris --lines 2 --pieces 3 --seed 1",
                "1 winning sequence, 1 final board",
                "12.5 (medium): a player placing each piece at random wins 1 time in 5,985; 311 positions searched",
            ),
            garbage.join(", "),
        );
        vec![
            LongRun::new(&["check", "levels/tetris/grown.ron"])
                .with_file("levels/tetris/grown.ron", grown),
            LongRun::new(&["tetris", "hatetris"]),
            LongRun::new(&["tetris", "explain", "planner.log"])
                .with_file("planner.log", heavy_planner_log()),
            LongRun::new(&["tetris", "hatetris", "--offline", "--minutes", "1"]),
            LongRun::new(&["tetris", "campaign", "--games", "200"]),
            LongRun::new(&["sim", "tetris", "--ai", "easy", "--games", "100000"]),
            LongRun::new(&[
                "generate",
                "tetris",
                "--lines",
                "3",
                "--pieces",
                "6",
                "--tspin",
                "--unique",
                "--count",
                "40",
                "--out-dir",
                "pack",
            ]),
        ]
    }

    fn bench_groups(&self) -> &'static [BenchGroup] {
        &[BenchGroup {
            name: "tetris",
            order: 3,
            figures: bench::figures,
        }]
    }

    fn owns_partial(&self, command: &str) -> bool {
        hatetris_offline::owns(command)
    }

    fn merge(
        &self,
        partials: &NamedPartials,
        json: bool,
        context: &CommandContext,
    ) -> anyhow::Result<Status> {
        hatetris_offline::merge(partials, json, context)
    }
}

/// An AI log of the planner against HATETRIS whose logged table asks for
/// a first plan of several seconds (32 plies' worth of 16,384 boards,
/// inside the search's memory budget): `explain` replays it from a fresh
/// brain, so the whole plan is searched again. Its ranking was written by
/// a one-piece row (so the log is cheap to build); the replay then says
/// the decision differs, which the sweep does not read.
fn heavy_planner_log() -> String {
    use crate::ai::metrics::Metric;
    use crate::ai::{Adversary, Brain, Position, log, settings};
    use tessera_tetris::board::Board;
    use tessera_tetris::piece::PieceKind;
    let Some(mut planner) = settings::default_difficulties().pop() else {
        return String::new();
    };
    planner.name = "VS_HATETRIS".into();
    planner.order.clear();
    planner.weights.set(Metric::LinesCleared, 100.0);
    planner.lookahead = 1;
    planner.beam = 3;
    planner.adversary = Adversary::Height;
    planner.line_beam = 16_384;
    planner.line_step = 32;
    planner.line_lead = 12;
    // The shipped position: no preview, the worst of the seven next, as
    // the planner decides in feed mode.
    let position = Position::shipped(Board::new(10, 20), PieceKind::T);
    let one_piece = crate::ai::Difficulty {
        lookahead: 0,
        ..planner.clone()
    };
    let choice = Brain::new().choose(&position, &one_piece, 0);
    let input = log::DecisionInput {
        position,
        difficulty: planner,
        noise_seed: 0,
        turn: 1,
    };
    log::write(&input, &choice, 5)
}

/// Arguments of `tessera tetris`.
#[derive(clap::Args)]
struct Args {
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
    /// Play one game of a difficulty against the `hatetris` feeder on the
    /// 10 x 20 feed board without a ceiling, timing every decision: lines,
    /// pieces, and the mean, median and longest time a decision.
    Hatetris(hatetris::HatetrisArgs),
    /// Play the feed campaign (every `levels/tetris/feed_N_*.ron` against
    /// its own AI) against each feeder strength, as the Balance window
    /// does: the player's win rate per level and the sweep's wall time.
    Campaign(campaign::CampaignArgs),
}

/// Runs `tessera tetris ...`.
fn run(args: &Args, context: &CommandContext) -> anyhow::Result<Status> {
    match &args.command {
        TetrisCommand::Explain {
            log: path,
            current_script,
        } => explain(path, *current_script, context),
        TetrisCommand::Hatetris(args) => hatetris::run(args, context),
        TetrisCommand::Campaign(args) => campaign::run(args, context),
    }
}

fn explain(
    path: &std::path::Path,
    current_script: bool,
    context: &CommandContext,
) -> anyhow::Result<Status> {
    let text = if path.as_os_str() == "-" {
        read_stdin()?
    } else {
        tessera_host::level::read_text(path).map_err(anyhow::Error::from)?
    };
    let parsed = log::parse(&text).map_err(|e| anyhow::anyhow!("{}", e.in_file(path)))?;
    let difficulty = if current_script {
        let mut project = context.current_project()?;
        let script_path = project.game_script_path(Tetris::ID);
        let script = project.script(&script_path).map_err(anyhow::Error::from)?;
        let name = &parsed.input.difficulty.name;
        crate::ai::settings::difficulty(&script.current(), name)
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
    // A logged table may ask for a search of seconds (a planner's first
    // plan): the replay is a job, stopped by Ctrl+C.
    let replayed = tessera_host::job::run("explain", |control| {
        control.set_note("replaying the decision");
        log::explain_until(&parsed, &difficulty, control.cancel_flag())
    });
    let Ok((choice, differences)) = replayed else {
        eprintln!(
            "{}cancelled before the decision was replayed",
            tessera_host::job::PARTIAL_STOPPED
        );
        return Ok(Status::Failed);
    };
    let best = choice.best().map(log::landing_text);
    println!(
        "{}: {} with {} candidates: best {}, decided by {}",
        path.display(),
        difficulty.name,
        choice.candidates.len(),
        best.as_deref().unwrap_or("-"),
        choice.decided_by.unwrap_or("-")
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
