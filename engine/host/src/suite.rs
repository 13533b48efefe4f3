//! The replay suite: the designer's safety net for rule changes.
//!
//! Every `tests/replays/<game>/<name>.replay.ron` is re-run against the
//! project's *current* scripts and levels, and its trajectory is compared
//! with the snapshot insta keeps in `snapshots/replays__<game>__<name>.snap`.
//! `cargo test` (the top-level `tests/replays.rs`), `tessera replay` and
//! the editor's Tests panel all go through this module, so they agree on
//! what "changed" means and write the same files.

use std::path::{Path, PathBuf};

use crate::level::write_atomic;
use crate::plugin::GameError;
use crate::project::Project;
use crate::registry::ReplaySetup;

/// Where replays live, relative to the project root.
pub const REPLAYS_DIR: &str = "tests/replays";
/// Where insta keeps snapshots, relative to the project root.
pub const SNAPSHOTS_DIR: &str = "snapshots";
/// The replay file suffix.
pub const REPLAY_SUFFIX: &str = ".replay.ron";
/// The prefix of the suite's snapshot names: the test module that runs the
/// suite under `cargo test` (`tests/replays.rs`) turns insta's own module
/// prefix off and names each snapshot in full, so its file is the same
/// whichever test binary holds that module.
const SUITE_MODULE: &str = "replays";
/// The `source:` insta records for the suite's snapshots.
const SUITE_SOURCE: &str = "tests/replays.rs";

/// One replay of the suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The game folder it sits in.
    pub game: String,
    /// The file name without `.replay.ron`.
    pub name: String,
    /// The file, absolute.
    pub path: PathBuf,
}

impl Case {
    /// The snapshot name the test passes to insta, also its file's stem:
    /// `replays__<game>__<name>`.
    pub fn snapshot_name(&self) -> String {
        format!("{SUITE_MODULE}__{}__{}", self.game, self.name)
    }

    /// The `.snap` file insta reads and writes for this case.
    pub fn snapshot_file(&self, root: &Path) -> PathBuf {
        root.join(SNAPSHOTS_DIR)
            .join(format!("{}.snap", self.snapshot_name()))
    }

    /// The replay file relative to `root`, for messages.
    pub fn display(&self, root: &Path) -> String {
        self.path
            .strip_prefix(root)
            .unwrap_or(&self.path)
            .display()
            .to_string()
    }
}

/// Where to save a new replay of `game` called `name` (the name is made
/// file-safe: letters, digits, `-` and `_`).
pub fn replay_path(root: &Path, game: &str, name: &str) -> PathBuf {
    root.join(REPLAYS_DIR)
        .join(game)
        .join(format!("{}{REPLAY_SUFFIX}", file_safe(name)))
}

/// `name` with every character other than ASCII letters, digits, `-` and
/// `_` turned into `_` (never empty).
pub fn file_safe(name: &str) -> String {
    let safe: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() {
        "playtest".into()
    } else {
        safe
    }
}

/// Every replay under `root/tests/replays/<game>/`, sorted by game and name.
pub fn cases(root: &Path) -> Vec<Case> {
    let mut found = Vec::new();
    let Ok(games) = std::fs::read_dir(root.join(REPLAYS_DIR)) else {
        return found;
    };
    for game in games.flatten() {
        let folder = game.path();
        if !folder.is_dir() {
            continue;
        }
        let Some(game_id) = folder.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Ok(files) = std::fs::read_dir(&folder) else {
            continue;
        };
        for file in files.flatten() {
            let path = file.path();
            let Some(name) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(REPLAY_SUFFIX))
            else {
                continue;
            };
            if path.is_file() {
                found.push(Case {
                    game: game_id.to_string(),
                    name: name.to_string(),
                    path: path.clone(),
                });
            }
        }
    }
    found.sort_by(|a, b| (&a.game, &a.name).cmp(&(&b.game, &b.name)));
    found
}

/// Runs a case against the project's current scripts and levels and
/// returns the rendered trajectory (what the snapshot holds).
pub fn run(project: &mut Project, case: &Case) -> Result<String, GameError> {
    let run = project.replay(&case.path, &ReplaySetup::default())?;
    Ok(run.session.trajectory().render())
}

/// The contents of a `.snap` file (after insta's header), or `None` when
/// there is no snapshot yet.
pub fn read_snapshot(path: &Path) -> Option<String> {
    let text = crate::level::read_text(path).ok()?;
    Some(snapshot_contents(&text).to_string())
}

/// The part of a `.snap` file's text after its `---` header.
pub fn snapshot_contents(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("---\n") else {
        return text;
    };
    match rest.find("\n---\n") {
        Some(end) => &rest[end + "\n---\n".len()..],
        None => rest,
    }
}

/// Whether two snapshot contents are the same the way insta compares them
/// (trailing whitespace and line endings aside).
pub fn same_contents(a: &str, b: &str) -> bool {
    a.trim_end().replace("\r\n", "\n") == b.trim_end().replace("\r\n", "\n")
}

/// Writes `contents` as the case's snapshot, in the form `cargo insta
/// accept` writes, atomically.
pub fn write_snapshot(root: &Path, case: &Case, contents: &str) -> std::io::Result<()> {
    let path = case.snapshot_file(root);
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder)?;
    }
    let text = format!(
        "---\nsource: {SUITE_SOURCE}\nexpression: trajectory\n---\n{}\n",
        contents.trim_end()
    );
    write_atomic(&path, text.as_bytes())
}

/// How one case compares with its snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Same trajectory as the snapshot.
    Unchanged,
    /// The trajectory differs from the snapshot.
    Changed {
        /// The snapshot's contents.
        old: String,
        /// The trajectory now.
        new: String,
    },
    /// No snapshot yet.
    New {
        /// The trajectory now.
        new: String,
    },
    /// The replay could not run (a broken file, a level that no longer
    /// loads).
    Failed(String),
}

/// Runs a case and compares it with its snapshot.
pub fn check(project: &mut Project, case: &Case) -> Verdict {
    let new = match run(project, case) {
        Ok(text) => text,
        Err(e) => return Verdict::Failed(e.to_string()),
    };
    match read_snapshot(&case.snapshot_file(project.root())) {
        None => Verdict::New { new },
        Some(old) if same_contents(&old, &new) => Verdict::Unchanged,
        Some(old) => Verdict::Changed { old, new },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_files_round_trip_in_insta_form() {
        let dir = tempfile::tempdir().unwrap();
        let case = Case {
            game: "sand".into(),
            name: "chain".into(),
            path: dir.path().join("tests/replays/sand/chain.replay.ron"),
        };
        write_snapshot(dir.path(), &case, "game: sand\nsteps: 0\n\n").unwrap();
        let file = case.snapshot_file(dir.path());
        assert!(file.ends_with("snapshots/replays__sand__chain.snap"));
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(
            text,
            "---\nsource: tests/replays.rs\nexpression: trajectory\n---\ngame: sand\nsteps: 0\n"
        );
        let read = read_snapshot(&file).unwrap();
        assert!(same_contents(&read, "game: sand\nsteps: 0"));
        assert!(!same_contents(&read, "game: sand\nsteps: 1"));
    }

    #[test]
    fn names_are_made_file_safe() {
        assert_eq!(file_safe("My chain #2"), "my_chain__2");
        assert_eq!(file_safe("  "), "playtest");
        let path = replay_path(Path::new("/p"), "sand", "Big Chain");
        assert_eq!(
            path,
            Path::new("/p/tests/replays/sand/big_chain.replay.ron")
        );
    }
}
