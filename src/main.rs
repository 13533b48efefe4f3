//! `tessera`: the headless command line for the Tessera engine.
//!
//! Exit codes: 0 ok; 1 a check or rule failure; 2 bad usage (clap's own
//! code for a bad command line, and ours for a bad argument value).

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
    Games,
    /// Validate level files and scripts (folders are searched).
    Check(commands::check::Args),
    /// Watch scripts and levels and report every reload until interrupted.
    Watch(commands::watch::Args),
    /// Solve a polycube level: one solution, or `--count [--json]`.
    Solve(commands::solve::Args),
    /// Play a game headless from an action file or with random moves.
    Play(commands::play::Args),
    /// Measure the headline speed figures (use a release build).
    Bench(commands::bench::Args),
    /// AI-against-AI games on every core: win rates and scores.
    Sim(commands::sim::Args),
    /// Azul tools: `tessera azul check RECORD` replays a game record.
    Azul(commands::azul::Args),
}

/// How a command ended, mapped onto the exit-code policy.
pub enum Status {
    /// Everything passed.
    Ok,
    /// A check or rule failed (exit 1).
    Failed,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Games => commands::games::run(),
        Command::Check(args) => commands::check::run(&args),
        Command::Watch(args) => commands::watch::run(&args),
        Command::Play(args) => commands::play::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Solve(args) => commands::solve::run(&args),
        Command::Sim(args) => commands::sim::run(&args),
        Command::Azul(args) => commands::azul::run(&args),
    };
    match result {
        Ok(Status::Ok) => ExitCode::SUCCESS,
        Ok(Status::Failed) => ExitCode::from(1),
        Err(error) => {
            eprintln!("tessera: {error:#}");
            ExitCode::from(2)
        }
    }
}
