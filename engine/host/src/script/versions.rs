//! Which version of each file a watcher's reader has already handled.
//!
//! A watcher can report one save more than once: a busy machine splits the
//! temporary file's rename and the events around it across two debounce
//! batches, and the editor reloads its own saves at once (so Ctrl+S feels
//! instant) before the watcher reports the same write. Rather than a time
//! window (which a slow disk or a busy machine can outlast), we remember a
//! hash of the content last handled per path and skip any report whose
//! content is identical: the project already runs exactly that version, so
//! reloading it again could only repeat the same line. A real change by
//! another program has different content and is always handled. `tessera
//! watch` and the editor both use this.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// Content hashes of the versions already handled, by absolute path.
#[derive(Debug, Default)]
pub struct DiskVersions {
    handled: HashMap<PathBuf, u64>,
}

impl DiskVersions {
    /// Records that `content` of `path` was handled; returns `false` when
    /// that exact content was already the handled version.
    pub fn record(&mut self, path: &Path, content: &[u8]) -> bool {
        let hash = content_hash(content);
        self.handled.insert(path.to_path_buf(), hash) != Some(hash)
    }

    /// Forgets `path` (it was removed), so whatever appears there next is
    /// handled.
    pub fn forget(&mut self, path: &Path) {
        self.handled.remove(path);
    }
}

fn content_hash(content: &[u8]) -> u64 {
    // SipHash with fixed keys: stable for the life of the process, which is
    // all a comparison between two reads needs.
    let mut hasher = std::hash::DefaultHasher::new();
    content.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_content_is_handled_once() {
        let mut versions = DiskVersions::default();
        let path = Path::new("/p/scripts/a.lua");
        assert!(versions.record(path, b"return {}"));
        assert!(!versions.record(path, b"return {}"), "echo of our own save");
        assert!(versions.record(path, b"return { x = 1 }"));
        versions.forget(path);
        assert!(versions.record(path, b"return { x = 1 }"));
    }
}
