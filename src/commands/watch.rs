//! `tessera watch [DIR]`

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use tessera_host::check::expand_paths;
use tessera_host::project::{Project, SCRIPTS_DIR};
use tessera_host::script::watcher::{DEBOUNCE, FolderWatcher};

use crate::Status;

/// Arguments of `tessera watch`.
#[derive(clap::Args)]
pub struct Args {
    /// Project folder (default: the project around the current folder).
    dir: Option<PathBuf>,
}

/// Loads every script (so later errors can keep a last good version), then
/// prints one line per change until interrupted.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let mut project = match &args.dir {
        Some(dir) if !dir.is_dir() => anyhow::bail!("not a folder: {}", dir.display()),
        Some(dir) => super::open_project(dir, tessera_builtin::registry())?,
        None => super::current_project(tessera_builtin::registry())?,
    };
    let watcher = FolderWatcher::new(&project.watched_folders(), DEBOUNCE)?;
    preload_scripts(&mut project);
    println!(
        "watching {} (scripts, levels); Ctrl+C stops",
        project.root().display()
    );
    let mut stdout = std::io::stdout();
    loop {
        let Some(changed) = watcher.wait(Duration::from_secs(3600)) else {
            anyhow::bail!("the file watcher stopped");
        };
        for report in project.handle_changes(&changed) {
            // A closed pipe ends the watch quietly, like other Unix tools.
            if writeln!(stdout, "{report}")
                .and_then(|()| stdout.flush())
                .is_err()
            {
                return Ok(Status::Ok);
            }
        }
    }
}

fn preload_scripts(project: &mut Project) {
    let scripts = expand_paths(&[project.root().join(SCRIPTS_DIR)]);
    for path in scripts {
        if let Err(error) = project.script(&path) {
            println!("error {error}");
        }
    }
}
