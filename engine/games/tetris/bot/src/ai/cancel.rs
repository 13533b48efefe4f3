//! A decision's cancel (Ctrl+C, the editor's Cancel): the error a
//! cancelled decision returns, the flag's read, and the brain's decisions
//! that take the flag (`Thinking::cancel_flag`).

use std::sync::atomic::{AtomicBool, Ordering};

use super::{Brain, Choice, Difficulty, Position};

/// A decision stopped by its cancel flag (Ctrl+C, the editor's Cancel)
/// before its search was over: it has no move, not a half-searched one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the decision was cancelled")
    }
}

impl std::error::Error for Cancelled {}

/// Whether a decision's cancel flag is set. The searches read it every
/// batch of boards (a relaxed load: nothing else is ordered by it), so a
/// search stops within milliseconds of work and a node pays nothing.
#[inline]
pub(crate) fn cancelled(flag: &AtomicBool) -> bool {
    flag.load(Ordering::Relaxed)
}

impl Brain {
    /// [`Brain::choose`], stopped by `cancel`: `Err(Cancelled)` when the
    /// flag was set before the search was over. A decision that is not
    /// cancelled is the same, bit for bit, as [`Brain::choose`]'s.
    pub fn choose_until(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        noise_seed: u64,
        cancel: &AtomicBool,
    ) -> Result<Choice, Cancelled> {
        self.choose_top_until(position, difficulty, noise_seed, usize::MAX, cancel)
            .cloned()
    }

    /// [`Brain::choose_top`], stopped by `cancel` (the decision's
    /// `Thinking::cancel_flag`): the agents' decision. A cancelled decision
    /// leaves the brain empty, as a new one, so no half-built tree or plan
    /// is kept for the next decision.
    pub fn choose_top_until(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        noise_seed: u64,
        keep: usize,
        cancel: &AtomicBool,
    ) -> Result<&Choice, Cancelled> {
        self.decide(position, difficulty, noise_seed, keep, cancel)?;
        Ok(&self.choice)
    }
}
