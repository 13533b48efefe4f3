//! The per-script cache of typed setting reads, in a leaf module so the
//! sandbox (which owns one per script version) and the settings reader
//! (which fills it) do not import each other.

use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex};

/// What [`super::Script::cached`] keeps: one read per type, per script version.
#[derive(Default)]
pub(crate) struct Cache(Mutex<Vec<(TypeId, Arc<dyn Any + Send + Sync>)>>);

impl Cache {
    /// The cached reads, even after a panic while the lock was held (a
    /// cache of pure reads stays valid).
    pub(super) fn lock_or_recover(
        &self,
    ) -> std::sync::MutexGuard<'_, Vec<(TypeId, Arc<dyn Any + Send + Sync>)>> {
        match self.0.lock() {
            Ok(cache) => cache,
            Err(poisoned) => poisoned.into_inner(),
        }
    }
}
