//! A project's folder layout (`scripts/`, `levels/`) and how its root is
//! found, in a leaf module so the file checks and the live project can both
//! use it without importing each other. `crate::project` re-exports the
//! names.

use std::path::{Path, PathBuf};

/// Folder of scripts inside a project.
pub const SCRIPTS_DIR: &str = "scripts";
/// Folder of levels inside a project.
pub const LEVELS_DIR: &str = "levels";

/// The nearest folder at or above `start` holding `scripts/` or
/// `levels/`; `start` itself when none does.
pub fn project_root(start: &Path) -> PathBuf {
    start
        .ancestors()
        .find(|dir| dir.join(SCRIPTS_DIR).is_dir() || dir.join(LEVELS_DIR).is_dir())
        .unwrap_or(start)
        .to_path_buf()
}
