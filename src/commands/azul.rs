//! `tessera azul check RECORD`: replays an Azul game record (JSON lines,
//! as `tessera play azul --record FILE` writes it) against the rules and
//! the project's `scripts/azul.lua`, and reports the first event whose
//! outcome differs.

use std::path::PathBuf;

use anyhow::Context;
use tessera_azul::record::check_record;
use tessera_host::Game;

use crate::Status;

/// Arguments of `tessera azul`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: AzulCommand,
}

#[derive(clap::Subcommand)]
enum AzulCommand {
    /// Replay a game record and report the first event that differs.
    Check {
        /// The record (JSON lines).
        record: PathBuf,
    },
}

/// Runs `tessera azul ...`.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    match &args.command {
        AzulCommand::Check { record } => {
            let text = std::fs::read_to_string(record)
                .with_context(|| format!("cannot read {}", record.display()))?;
            let mut project = super::current_project(tessera_builtin::registry())?;
            let script_path = project.game_script_path(tessera_azul::Azul::ID);
            let script = project
                .script(&script_path)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let rules = tessera_azul::settings::rules(&script.current())
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let report = check_record(&text, rules);
            match report.first_difference {
                None => {
                    println!(
                        "{}: {} events, all consistent with the rules",
                        record.display(),
                        report.events
                    );
                    Ok(Status::Ok)
                }
                Some((line, why)) => {
                    println!(
                        "{}:{line}: first difference (after {} consistent events): {why}",
                        record.display(),
                        report.events
                    );
                    Ok(Status::Failed)
                }
            }
        }
    }
}
