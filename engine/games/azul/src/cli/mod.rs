//! `tessera azul check RECORD`: replays an Azul game record (JSON lines,
//! as `tessera play azul --record FILE` writes it) against the rules it
//! carries and refuses the first line a legal, complete game would not
//! have written. A record is self-contained, so the check runs anywhere;
//! only records written before records carried their rules need the
//! project's `scripts/azul.lua`. Also Azul's `tessera bench azul` group
//! (`bench.rs`). Registered beside the game in `engine/builtin/games.rs`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args as _, FromArgMatches as _};
use tessera_host::Game;
use tessera_host::command::{BenchGroup, CommandContext, GameCommands, LongRun, Status};
use tessera_host::level::read_text;

use crate::record::{RecordLine, check_record};
use crate::rules::Rules;

mod bench;

/// Azul's command-line capability: `tessera azul` and `tessera bench azul`.
pub const COMMANDS: &dyn GameCommands = &AzulCommands;

struct AzulCommands;

impl GameCommands for AzulCommands {
    fn commands(&self) -> Vec<clap::Command> {
        vec![
            Args::augment_args(clap::Command::new("azul"))
                .about("Azul tools: `tessera azul check RECORD` replays a game record"),
        ]
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
        let script = <crate::Azul as tessera_host::Scripted>::DEFAULT_SCRIPT.unwrap_or_default();
        // Budgets a script may set, in range, that make one move take a
        // minute or more.
        let deep = script.replace("hard = { nodes = 200000,", "hard = { nodes = 100000000,");
        let slow = script.replace("seconds = 1.0,", "seconds = 60,");
        vec![
            LongRun::new(&["sim", "azul", "--seats", "ai:hard,ai:easy", "--games", "1"])
                .with_file("scripts/azul.lua", deep.clone()),
            LongRun::new(&[
                "sim",
                "azul",
                "--seats",
                "ai:expert,ai:easy",
                "--games",
                "1",
            ])
            .with_file("scripts/azul.lua", slow.clone()),
            LongRun::new(&[
                "play",
                "azul",
                "--seat",
                "ai:hard",
                "--seat",
                "ai:hard",
                "--ai-only",
            ])
            .with_file("scripts/azul.lua", deep),
            LongRun::new(&[
                "generate",
                "azul",
                "--endgame",
                "--seats",
                "2",
                "--seed",
                "5",
            ]),
        ]
    }

    fn bench_groups(&self) -> &'static [BenchGroup] {
        &[BenchGroup {
            name: "azul",
            order: 4,
            figures: bench::figures,
        }]
    }
}

/// Arguments of `tessera azul`.
#[derive(clap::Args)]
struct Args {
    #[command(subcommand)]
    command: AzulCommand,
}

#[derive(clap::Subcommand)]
enum AzulCommand {
    /// Replay a game record; refuse the first line that is not what a
    /// legal, complete game writes.
    Check {
        /// The record (JSON lines; a regular file of at most 16 MiB).
        record: PathBuf,
    },
}

/// Runs `tessera azul ...`.
fn run(args: &Args, context: &CommandContext) -> anyhow::Result<Status> {
    match &args.command {
        AzulCommand::Check { record } => check(record, context),
    }
}

fn check(record: &Path, context: &CommandContext) -> anyhow::Result<Status> {
    // The host's one capped reader: a FIFO, a device or a file over
    // 16 MiB is refused before it is read.
    let text = read_text(record)?;
    let rules = fallback_rules(&text, context)?;
    let report = check_record(&text, rules);
    match report.first_difference {
        None => {
            println!(
                "{}: {} events, a complete and legal game",
                record.display(),
                report.events
            );
            for line in &report.summary {
                println!("  {line}");
            }
            Ok(Status::Ok)
        }
        Some((line, why)) => {
            println!(
                "{}:{line}: {why} (after {})",
                record.display(),
                tessera_host::text::count(report.events, "consistent event")
            );
            Ok(Status::Failed)
        }
    }
}

/// The rules for a record whose `start` line carries none (written before
/// records carried them): the project's script. Any other record brings
/// its own, and needs no project.
fn fallback_rules(text: &str, context: &CommandContext) -> anyhow::Result<Rules> {
    let first = text.lines().find(|l| !l.trim().is_empty());
    let carries_rules = match first.map(serde_json::from_str::<RecordLine>) {
        Some(Ok(RecordLine::Start { rules, .. })) => rules.is_some(),
        // Not a start line: the check refuses it, with any rules.
        _ => true,
    };
    if carries_rules {
        return Ok(Rules::default());
    }
    let mut project = context.current_project()?;
    let script_path = project.game_script_path(crate::Azul::ID);
    let script = project.script(&script_path).context(
        "this record carries no rules (written before records did), so it is checked \
         against the project's scripts/azul.lua",
    )?;
    Ok(crate::settings::rules(&script.current())?)
}
