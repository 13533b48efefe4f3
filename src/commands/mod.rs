//! One module per subcommand. Each `run` returns [`crate::Status`] for a
//! finished command and `Err` for a failure: a [`crate::Usage`] error for a
//! bad command line (exit 2), any other for an input file (exit 1).

pub mod azul;
pub mod bench;
pub mod check;
pub mod games;
pub mod merge;
pub mod partial;
pub mod play;
pub mod replay;
pub mod sim;
pub mod sim_report;
pub mod solve;
pub mod tetris;
pub mod tetris_hatetris;
pub mod watch;

use tessera_host::Registry;
use tessera_host::project::Project;

/// The project the current folder belongs to.
pub fn current_project(registry: Registry) -> anyhow::Result<Project> {
    let cwd = std::env::current_dir()?;
    open_project(&Project::discover(&cwd), registry)
}

/// Opens the project at `root`.
pub fn open_project(root: &std::path::Path, registry: Registry) -> anyhow::Result<Project> {
    Project::open(root, registry)
        .map_err(|e| anyhow::anyhow!("cannot open project {}: {e}", root.display()))
}
