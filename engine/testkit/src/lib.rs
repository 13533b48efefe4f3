//! Helpers shared by the tests of every Tessera crate: where snapshots live,
//! repository paths, and [`nim`], the tiny game that proves the host alone.

pub mod alloc;
pub mod nim;

use std::path::{Path, PathBuf};

/// The repository root (two folders above this crate).
pub fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().nth(2).unwrap_or(here).to_path_buf()
}

/// insta settings that store snapshots in the top-level `snapshots/`,
/// whichever crate the test lives in. Use as
/// `tessera_testkit::snapshots().bind(|| insta::assert_snapshot!(...))`.
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
