//! The slot a running game holds its script in; a hot reload swaps what the
//! slot holds, so game state (which lives in Rust) is never touched.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use super::Script;

/// A shared, swappable handle to the current good version of a script.
///
/// Cloning shares the slot: the game and the reloader hold the same one.
#[derive(Clone)]
pub struct LiveScript {
    slot: Arc<RwLock<Arc<Script>>>,
    /// Bumped by every swap, so holders can tell that a reload happened
    /// (a recorded session notes it as a `Reload` step).
    generation: Arc<AtomicU64>,
}

impl LiveScript {
    /// Wraps a loaded script.
    pub fn new(script: Script) -> Self {
        Self {
            slot: Arc::new(RwLock::new(Arc::new(script))),
            generation: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The version to call now. Callers keep it for the length of one event
    /// so a reload mid-event cannot mix two versions.
    pub fn current(&self) -> Arc<Script> {
        // A poisoned lock only means a reader panicked; the Arc inside is
        // still a complete, valid script.
        match self.slot.read() {
            Ok(guard) => Arc::clone(&guard),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// Swaps in a new version (already loaded and validated).
    pub fn replace(&self, script: Script) {
        let script = Arc::new(script);
        match self.slot.write() {
            Ok(mut guard) => *guard = script,
            Err(poisoned) => *poisoned.into_inner() = script,
        }
        self.generation.fetch_add(1, Ordering::Release);
    }

    /// Puts back a version this slot held before (an undo replays old
    /// versions through the slot, then restores the current one).
    pub fn restore(&self, script: Arc<Script>) {
        match self.slot.write() {
            Ok(mut guard) => *guard = script,
            Err(poisoned) => *poisoned.into_inner() = script,
        }
        self.generation.fetch_add(1, Ordering::Release);
    }

    /// How many swaps this slot has seen.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }
}

impl std::fmt::Debug for LiveScript {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveScript")
            .field("path", &self.current().path())
            .finish()
    }
}
