//! `tessera replay PATH`: re-runs a recorded session and prints which
//! script and level it used, then its trajectory (per step: the step, the
//! scores, the game's events; at the end the outcome and the board).

use std::path::PathBuf;

use clap::ValueEnum;
use tessera_host::registry::ReplaySetup;
use tessera_host::replay::{LevelChoice, ScriptChoice};

use tessera_host::command::CommandContext;

use crate::Status;

/// Which version of a file the replay runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Version {
    /// The copy stored in the replay.
    Recorded,
    /// The project's file as it is now.
    Current,
}

/// Arguments of `tessera replay`.
#[derive(clap::Args)]
pub struct Args {
    /// The replay file (`.replay.ron`).
    path: PathBuf,
    /// The script to run with: the recorded text (reloads applied as
    /// recorded) or the project's current file.
    #[arg(long, value_enum, default_value_t = Version::Recorded)]
    script: Version,
    /// The level to run on: the recorded copy or the project's current file.
    #[arg(long, value_enum, default_value_t = Version::Recorded)]
    level: Version,
    /// Play only the first N steps.
    #[arg(long, value_name = "N")]
    steps: Option<usize>,
}

/// Runs `tessera replay`.
pub fn run(args: &Args, context: &CommandContext) -> anyhow::Result<Status> {
    let mut project = super::current_project(context.registry().clone())?;
    let path = std::env::current_dir()?.join(&args.path);
    let setup = ReplaySetup {
        script: match args.script {
            Version::Recorded => ScriptChoice::Recorded,
            Version::Current => ScriptChoice::Current,
        },
        level: match args.level {
            Version::Recorded => LevelChoice::Recorded,
            Version::Current => LevelChoice::Current,
        },
        stop_after: args.steps,
    };
    let run = match project.replay(&path, &setup) {
        Ok(run) => run,
        Err(e) => {
            eprintln!("tessera: {e}");
            return Ok(Status::Failed);
        }
    };
    for note in &run.notes {
        println!("{note}");
    }
    print!("{}", run.session.trajectory().render());
    Ok(Status::Ok)
}
