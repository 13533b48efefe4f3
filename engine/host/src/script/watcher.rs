//! Debounced watching of whole folders.
//!
//! Editors save by writing a temporary file and renaming it over the old
//! one, which replaces the inode a per-file watch would follow; so we watch
//! folders recursively and filter by extension afterwards.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

/// How long the file system must be quiet before a batch is reported. Short
/// enough that save-to-reload stays well under the 500 ms target.
pub const DEBOUNCE: Duration = Duration::from_millis(120);

/// Error starting a watch.
#[derive(Debug, thiserror::Error)]
#[error("cannot watch {path}: {source}")]
pub struct WatchError {
    /// The folder that could not be watched.
    pub path: PathBuf,
    /// What the OS said.
    #[source]
    pub source: notify::Error,
}

/// Watches folders and delivers batches of changed file paths.
pub struct FolderWatcher {
    // Dropping the debouncer stops the watch; keep it alive with us.
    _debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    events: Receiver<DebounceEventResult>,
}

impl FolderWatcher {
    /// Watches each existing folder in `folders` recursively.
    pub fn new(folders: &[PathBuf], debounce: Duration) -> Result<Self, WatchError> {
        let (sender, events) = mpsc::channel();
        let mut debouncer = new_debouncer(debounce, None, sender).map_err(|source| WatchError {
            path: folders.first().cloned().unwrap_or_default(),
            source,
        })?;
        for folder in folders.iter().filter(|f| f.is_dir()) {
            debouncer
                .watch(folder, RecursiveMode::Recursive)
                .map_err(|source| WatchError {
                    path: folder.clone(),
                    source,
                })?;
        }
        Ok(Self {
            _debouncer: debouncer,
            events,
        })
    }

    /// Changed files reported since the last call, without waiting.
    pub fn poll(&self) -> Vec<PathBuf> {
        let mut changed = BTreeSet::new();
        while let Ok(batch) = self.events.try_recv() {
            collect(batch, &mut changed);
        }
        changed.into_iter().collect()
    }

    /// Waits up to `timeout` for the next batch of changed files; empty when
    /// nothing changed in time. `None` when the watcher has shut down.
    pub fn wait(&self, timeout: Duration) -> Option<Vec<PathBuf>> {
        let mut changed = BTreeSet::new();
        match self.events.recv_timeout(timeout) {
            Ok(batch) => collect(batch, &mut changed),
            Err(RecvTimeoutError::Timeout) => return Some(Vec::new()),
            Err(RecvTimeoutError::Disconnected) => return None,
        }
        while let Ok(batch) = self.events.try_recv() {
            collect(batch, &mut changed);
        }
        Some(changed.into_iter().collect())
    }
}

fn collect(batch: DebounceEventResult, changed: &mut BTreeSet<PathBuf>) {
    // Watch errors (a folder removed, say) are not file changes; the next
    // successful batch still reports what changed.
    let Ok(events) = batch else { return };
    for event in events {
        if !changes_content(&event.kind) {
            continue;
        }
        for path in &event.paths {
            if is_interesting(path) {
                changed.insert(path.clone());
            }
        }
    }
}

/// Whether an event can mean new content. Reads must not count: reloading
/// a file reads it, and a read reported as a change would reload forever.
fn changes_content(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Modify(_) => true,
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) | EventKind::Remove(_) | EventKind::Any | EventKind::Other => false,
    }
}

/// Scripts and levels only; editor swap and backup files are noise.
fn is_interesting(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if name.starts_with('.') || name.ends_with('~') {
        return false;
    }
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("lua" | "luau" | "ron" | "json")
    )
}
