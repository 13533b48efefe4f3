//! `tessera`: the headless command line for the Tessera engine, as a
//! library: [`run`] takes the games it offers (a [`CommandContext`]), so
//! the `tessera` binary passes the built-in list
//! (`tessera_builtin::command_context`) and a crate outside this
//! repository builds its own `tessera` with its games added (see
//! `examples/` and docs/guide/new-game.md).
//!
//! Exit codes: 0 ok; 1 a check or rule failure, or an input file that
//! cannot be read or is refused; 2 bad usage (clap's own code for a bad
//! command line, and ours, [`Usage`], for a bad argument value). A closed
//! output pipe (`tessera games --details | head -1`) ends the process
//! quietly, killed by `SIGPIPE` as other Unix tools are (a shell reports
//! 141): see [`end_quietly_on_closed_pipes`]. Ctrl+C stops a long run
//! within half a second, its partial figures printed and marked
//! `PARTIAL`, exit 1 (`tessera_host::job`).

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use tessera_host::command::CommandContext;
pub use tessera_host::command::{Status, Usage};
pub(crate) use tessera_host::usage;

mod commands;

// The commands below are the shell's, which drive any game through the
// host; each plugin adds its own (`command_line`; the capability is
// `tessera_host::command::GameCommands`).
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

/// The command line: the shell's commands, then every plugin's, in the
/// registry's order.
fn command_line(context: &CommandContext) -> clap::Command {
    context
        .commands()
        .flat_map(|commands| commands.commands())
        .fold(
            Cli::command().subcommand(commands::generate::command(context)),
            clap::Command::subcommand,
        )
}

/// Runs the command the matches name: a plugin's when one brought it,
/// else the shell's.
fn dispatch(matches: &clap::ArgMatches, context: &CommandContext) -> anyhow::Result<Status> {
    if let Some((name, sub)) = matches.subcommand()
        && let Some(owner) = context
            .commands()
            .find(|commands| commands.commands().iter().any(|c| c.get_name() == name))
    {
        return owner.run(name, sub, context);
    }
    if let Some(("generate", sub)) = matches.subcommand() {
        return commands::generate::run(sub, context);
    }
    let cli = Cli::from_arg_matches(matches).unwrap_or_else(|e| e.exit());
    match cli.command {
        Command::Games(args) => commands::games::run(&args, context),
        Command::Check(args) => commands::check::run(&args, context),
        Command::Watch(args) => commands::watch::run(&args, context),
        Command::Play(args) => commands::play::run(&args, context),
        Command::Replay(args) => commands::replay::run(&args, context),
        Command::Bench(args) => commands::bench::run(&args, context),
        Command::Merge(args) => commands::merge::run(&args, context),
        Command::Sim(args) => commands::sim::run(&args, context),
    }
}

/// Runs the command line of `std::env::args` over the games of `context`
/// and returns the process's exit code: the whole `tessera` program, for
/// any list of games.
pub fn run(context: CommandContext) -> ExitCode {
    end_quietly_on_closed_pipes();
    // Ctrl+C cancels the one job token every long command polls
    // (`tessera_host::job`); a command with no job running ends at once.
    tessera_host::job::install_ctrl_c();
    let matches = command_line(&context).get_matches();
    match dispatch(&matches, &context) {
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
