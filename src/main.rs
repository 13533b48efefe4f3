//! `tessera`: the headless command line for the Tessera engine.
//!
//! Exit codes: 0 ok; 1 a check or rule failure, or an input file that
//! cannot be read or is refused; 2 bad usage (clap's own code for a bad
//! command line, and ours, [`Usage`], for a bad argument value). A closed
//! output pipe (`tessera games --details | head -1`) ends the process
//! quietly, killed by `SIGPIPE` as other Unix tools are (a shell reports
//! 141): see [`end_quietly_on_closed_pipes`].

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;

/// Tessera: design, check and play grid puzzle games from the shell.
#[derive(Parser)]
#[command(name = "tessera", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the game plugins: one line per plugin, its id and title.
    Games(commands::games::Args),
    /// Validate level files and scripts (folders are searched).
    Check(commands::check::Args),
    /// Watch scripts and levels and report every reload until interrupted.
    Watch(commands::watch::Args),
    /// Solve a polycube level: one solution, `--first`, `--unique`, `--disassemble`, or `--count [--assembly] [--no-symmetry] [--json] [--threads N] [--shard I/N]`.
    Solve(commands::solve::Args),
    /// Combine the JSON partials of a sharded `solve --count` or `sim`.
    Merge(commands::merge::Args),
    /// Play a game headless from an action file or with random moves.
    Play(commands::play::Args),
    /// Re-run a recorded session (`.replay.ron`) and print its trajectory.
    Replay(commands::replay::Args),
    /// Measure the headline speed figures (use a release build).
    Bench(commands::bench::Args),
    /// AI-against-AI games on every core: win rates and scores.
    Sim(commands::sim::Args),
    /// Azul tools: `tessera azul check RECORD` replays a game record.
    Azul(commands::azul::Args),
    /// Tetris tools: `tessera tetris explain LOG` replays an AI log;
    /// `tessera tetris hatetris` times one game against HATETRIS.
    Tetris(commands::tetris::Args),
}

/// A bad command line (an unknown game, a missing option, a bad value):
/// exit 2. Every other error is about an input file or a rule and exits 1.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// Returns early with a [`Usage`] error (exit 2).
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::Usage(format!($($arg)*))))
    };
}

/// How a command ended, mapped onto the exit-code policy.
pub enum Status {
    /// Everything passed.
    Ok,
    /// A check or rule failed (exit 1).
    Failed,
}

/// Restores the default action of `SIGPIPE` (end the process), which
/// Rust's runtime sets to "ignore" before `main`. Ignored, a write to a
/// closed pipe returns an error and `println!` panics (exit 101) in
/// whichever command was printing; with the default, every command ends at
/// its first write after the reader went away, silently, as `cat` or
/// `grep` do. The one place that handles closed pipes for every command.
fn end_quietly_on_closed_pipes() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread
    // exists; `signal` with `SIG_DFL` installs no handler code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    end_quietly_on_closed_pipes();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Games(args) => commands::games::run(&args),
        Command::Check(args) => commands::check::run(&args),
        Command::Watch(args) => commands::watch::run(&args),
        Command::Play(args) => commands::play::run(&args),
        Command::Replay(args) => commands::replay::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Solve(args) => commands::solve::run(&args),
        Command::Merge(args) => commands::merge::run(&args),
        Command::Sim(args) => commands::sim::run(&args),
        Command::Azul(args) => commands::azul::run(&args),
        Command::Tetris(args) => commands::tetris::run(&args),
    };
    match result {
        Ok(Status::Ok) => ExitCode::SUCCESS,
        Ok(Status::Failed) => ExitCode::from(1),
        Err(error) => {
            eprintln!("tessera: {error:#}");
            if error.downcast_ref::<Usage>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
