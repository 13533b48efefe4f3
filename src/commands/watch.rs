//! `tessera watch [DIR]`

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tessera_host::check::expand_paths;
use tessera_host::level::{MAX_FILE_BYTES, read_bytes_capped};
use tessera_host::project::{LEVELS_DIR, Project, SCRIPTS_DIR};
use tessera_host::script::versions::DiskVersions;
use tessera_host::script::watcher::{DEBOUNCE, FolderWatcher};

use tessera_host::command::CommandContext;

use crate::Status;

/// Arguments of `tessera watch`.
#[derive(clap::Args)]
pub struct Args {
    /// Project folder (default: the project around the current folder).
    dir: Option<PathBuf>,
}

/// How often the watch looks whether its folders were removed or replaced
/// (a watch on a deleted folder sees nothing, even once it is recreated).
const REARM_EVERY: Duration = Duration::from_millis(500);

/// Loads every script (so later errors can keep a last good version), then
/// prints one line per change until interrupted. When the watched folders
/// are deleted and recreated, the watch is re-armed; a project with neither
/// `scripts/` nor `levels/` is refused (exit 1), since nothing would be
/// watched.
pub fn run(args: &Args, context: &CommandContext) -> anyhow::Result<Status> {
    let mut project = match &args.dir {
        Some(dir) if !dir.is_dir() => crate::usage!("not a folder: {}", dir.display()),
        Some(dir) => super::open_project(dir, context.registry().clone())?,
        None => super::current_project(context.registry().clone())?,
    };
    let root = project.root().to_path_buf();
    let mut stdout = std::io::stdout();
    let mut armed = Armed::new(&project);
    if armed.folders.is_empty() {
        anyhow::bail!(
            "nothing to watch: {} has no {SCRIPTS_DIR}/ or {LEVELS_DIR}/ folder",
            root.display()
        );
    }
    let mut versions = DiskVersions::default();
    preload_scripts(&mut project, &mut versions);
    let mut watcher = FolderWatcher::new(&armed.folders, DEBOUNCE)?;
    let _ = writeln!(stdout, "{}", armed.describe(&root));
    loop {
        let Some(changed) = watcher.wait(REARM_EVERY) else {
            anyhow::bail!("the file watcher stopped");
        };
        let changed: Vec<PathBuf> = changed
            .into_iter()
            .filter(|path| is_new_version(path, &mut versions))
            .collect();
        let mut lines: Vec<String> = project
            .handle_changes(&changed)
            .iter()
            .map(ToString::to_string)
            .collect();
        let now = Armed::new(&project);
        if now.identity != armed.identity {
            // Folders were removed, created or replaced: watch what exists now.
            watcher = FolderWatcher::new(&now.folders, DEBOUNCE)?;
            lines.push(if now.folders.is_empty() {
                format!(
                    "nothing to watch now: {} has no {SCRIPTS_DIR}/ or {LEVELS_DIR}/; waiting for them to come back",
                    root.display()
                )
            } else {
                format!("re-armed: {}", now.describe(&root))
            });
            armed = now;
        }
        for line in lines {
            // A closed pipe ends the watch quietly, like other Unix tools.
            if writeln!(stdout, "{line}")
                .and_then(|()| stdout.flush())
                .is_err()
            {
                return Ok(Status::Ok);
            }
        }
    }
}

/// The folders being watched and their identity on disk.
struct Armed {
    folders: Vec<PathBuf>,
    identity: Vec<Option<(u64, u64)>>,
}

impl Armed {
    fn new(project: &Project) -> Self {
        let all = project.watched_folders();
        let identity = all.iter().map(|f| folder_identity(f)).collect();
        let folders = all.into_iter().filter(|f| f.is_dir()).collect();
        Self { folders, identity }
    }

    fn describe(&self, root: &Path) -> String {
        let names: Vec<String> = self
            .folders
            .iter()
            .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        format!(
            "watching {} ({}); Ctrl+C stops",
            root.display(),
            names.join(", ")
        )
    }
}

/// Device and inode of a folder (`None` when it is missing), so a folder
/// deleted and recreated under the same name is seen as new.
fn folder_identity(folder: &Path) -> Option<(u64, u64)> {
    let meta = std::fs::metadata(folder).ok().filter(|m| m.is_dir())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        Some((0, 0))
    }
}

/// Whether a reported change brings content not handled yet: a watcher can
/// report one save twice, and the second report must not print a second
/// `reloaded` line. A file that cannot be read (gone, too big) is always
/// handled, so its refusal is said.
fn is_new_version(path: &Path, versions: &mut DiskVersions) -> bool {
    match read_bytes_capped(path, MAX_FILE_BYTES) {
        Ok(bytes) => versions.record(path, &bytes),
        Err(_) => {
            versions.forget(path);
            true
        }
    }
}

fn preload_scripts(project: &mut Project, versions: &mut DiskVersions) {
    let scripts = expand_paths(&[project.root().join(SCRIPTS_DIR)]);
    for path in scripts {
        if let Ok(bytes) = read_bytes_capped(&path, MAX_FILE_BYTES) {
            versions.record(&path, &bytes);
        }
        if let Err(error) = project.script(&path) {
            println!("error {error}");
        }
    }
}
