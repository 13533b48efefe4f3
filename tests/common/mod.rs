//! Helpers shared by the workspace-level tests.
#![allow(dead_code)]

pub mod nim;

use std::path::{Path, PathBuf};

/// The repository root (the root package's folder).
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// insta settings that store snapshots in the top-level `snapshots/`.
/// Use as `common::snapshots().bind(|| insta::assert_snapshot!(...))`.
pub fn snapshots() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(repo_root().join("snapshots"));
    settings.set_prepend_module_to_snapshot(true);
    settings
}

/// Path of a file in the repository.
pub fn repo_path(relative: &str) -> PathBuf {
    repo_root().join(relative)
}
