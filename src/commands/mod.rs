//! One module per subcommand. Each `run` returns [`crate::Status`] for a
//! finished command and `Err` for a failure: a [`crate::Usage`] error for a
//! bad command line (exit 2), any other for an input file (exit 1).
//! These are the shell's commands, which drive any game through the host;
//! a game's own commands live with the game
//! (`tessera_host::command::GameCommands`, listed in `engine/builtin`).

pub mod bench;
pub mod check;
pub mod games;
pub mod generate;
pub mod merge;
pub mod play;
pub mod replay;
pub mod sim;
pub mod sim_report;
pub mod watch;

use tessera_host::Registry;
use tessera_host::command::CommandContext;
use tessera_host::project::Project;

/// The project the current folder belongs to.
pub fn current_project(registry: Registry) -> anyhow::Result<Project> {
    CommandContext::new(registry).current_project()
}

/// Opens the project at `root`.
pub fn open_project(root: &std::path::Path, registry: Registry) -> anyhow::Result<Project> {
    CommandContext::new(registry).open_project(root)
}
