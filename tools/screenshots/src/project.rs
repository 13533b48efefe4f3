//! The project the pictures show: a copy of this repository's project
//! files in `~/my-puzzles`, with the home folder a fresh temporary one, so
//! the editor's status line reads `~/my-puzzles` and no picture shows a
//! temporary path or a machine's own folders.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// The project folder's name, as the pictures show it.
const PROJECT: &str = "my-puzzles";

/// What a project holds: scripts, levels, replays and their snapshots.
const COPIED: &[&str] = &["scripts", "levels", "snapshots", "tests/replays"];

/// This repository's root (the tool lives in `tools/screenshots/`).
pub fn repo_root() -> anyhow::Result<PathBuf> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    here.canonicalize()
        .with_context(|| format!("cannot find the repository at {}", here.display()))
}

/// A temporary home folder, set as `HOME` for this process.
pub struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    /// Makes the folder and points `HOME` at it.
    pub fn new() -> anyhow::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("tessera-screenshots")
            .tempdir()
            .context("cannot make a temporary home folder")?;
        let home = dir
            .path()
            .canonicalize()
            .context("cannot read the temporary home folder")?;
        // SAFETY: set before any thread of this process starts (the first
        // walk starts the editor's watchers and workers after this).
        unsafe { std::env::set_var("HOME", &home) };
        Ok(Self { dir })
    }

    /// `~/my-puzzles` afresh: the repository's project files copied in
    /// over whatever an earlier walk left there.
    pub fn fresh_project(&self, repo: &Path) -> anyhow::Result<PathBuf> {
        let root = self
            .dir
            .path()
            .canonicalize()
            .context("cannot read the temporary home folder")?
            .join(PROJECT);
        if root.exists() {
            std::fs::remove_dir_all(&root)
                .with_context(|| format!("cannot clear {}", root.display()))?;
        }
        for part in COPIED {
            copy_tree(&repo.join(part), &root.join(part))?;
        }
        Ok(root)
    }
}

fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot make {}", to.display()))?;
    let entries =
        std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", from.display()))?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type()?.is_dir() {
            copy_tree(&source, &target)?;
        } else {
            std::fs::copy(&source, &target)
                .with_context(|| format!("cannot copy {}", source.display()))?;
        }
    }
    Ok(())
}
