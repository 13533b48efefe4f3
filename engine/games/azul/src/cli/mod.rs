//! `tessera azul check RECORD`: replays an Azul game record (JSON lines,
//! as `tessera play azul --record FILE` writes it) against the rules it
//! carries and refuses the first line a legal, complete game would not
//! have written. A record is self-contained, so the check runs anywhere;
//! only records written before records carried their rules need the
//! project's `scripts/azul.lua`.

use std::path::{Path, PathBuf};

use anyhow::Context;

use tessera_azul::record::{RecordLine, check_record};
use tessera_azul::rules::Rules;
use tessera_host::Game;
use tessera_host::level::read_text;

use crate::Status;

/// Arguments of `tessera azul`.
#[derive(clap::Args)]
pub struct Args {
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
pub fn run(args: &Args) -> anyhow::Result<Status> {
    match &args.command {
        AzulCommand::Check { record } => check(record),
    }
}

fn check(record: &Path) -> anyhow::Result<Status> {
    // The host's one capped reader: a FIFO, a device or a file over
    // 16 MiB is refused before it is read.
    let text = read_text(record)?;
    let rules = fallback_rules(&text)?;
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
fn fallback_rules(text: &str) -> anyhow::Result<Rules> {
    let first = text.lines().find(|l| !l.trim().is_empty());
    let carries_rules = match first.map(serde_json::from_str::<RecordLine>) {
        Some(Ok(RecordLine::Start { rules, .. })) => rules.is_some(),
        // Not a start line: the check refuses it, with any rules.
        _ => true,
    };
    if carries_rules {
        return Ok(Rules::default());
    }
    let mut project = super::current_project(tessera_builtin::registry())?;
    let script_path = project.game_script_path(tessera_azul::Azul::ID);
    let script = project.script(&script_path).context(
        "this record carries no rules (written before records did), so it is checked \
         against the project's scripts/azul.lua",
    )?;
    Ok(tessera_azul::settings::rules(&script.current())?)
}
