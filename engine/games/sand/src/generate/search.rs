//! The proof behind a generated sand level: every placement sequence of
//! its tray played out. Each legal placement of each piece left in the
//! tray (rotation as the default script has it: off) is played on a copy
//! of the game and the board left to settle; a sequence ends when the game
//! does (the goal's clears reached, or the tray empty). The physics draws
//! from the level's own seed, so a sequence always plays the same, and
//! the count is exact.

use tessera_host::agent::ThinkControl;
use tessera_host::plugin::{Game, Outcome};

use crate::Sand;

/// What every placement sequence of a tray comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Sequences that reach the goal.
    pub wins: u64,
    /// Every sequence, to the end of the game.
    pub sequences: u64,
    /// Placements played (settles).
    pub placements: u64,
}

/// Why a tally has no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TallyStop {
    /// Stopped by the caller.
    Cancelled,
    /// More placements than the budget.
    TooLarge(u64),
    /// A placement the game listed was refused or the board did not
    /// settle (the words say which).
    Game(String),
}

/// Plays every placement sequence from `game` (a game just started),
/// within `budget` placements.
pub fn tally(game: &Sand, budget: u64, control: &ThinkControl) -> Result<Tally, TallyStop> {
    let mut tally = Tally {
        wins: 0,
        sequences: 0,
        placements: 0,
    };
    let mut start = game.clone();
    start.settle().map_err(|e| TallyStop::Game(e.to_string()))?;
    walk(&start, budget, control, &mut tally)?;
    Ok(tally)
}

fn walk(
    game: &Sand,
    budget: u64,
    control: &ThinkControl,
    tally: &mut Tally,
) -> Result<(), TallyStop> {
    if game.outcome().is_over() {
        tally.sequences += 1;
        tally.wins += u64::from(game.outcome() == Outcome::Won);
        return Ok(());
    }
    let placements = game.legal_placements();
    if placements.is_empty() {
        // Nothing fits: the game ends at the next attempt, lost.
        tally.sequences += 1;
        return Ok(());
    }
    for action in placements {
        tally.placements += 1;
        if tally.placements > budget {
            return Err(TallyStop::TooLarge(budget));
        }
        if tally.placements.is_multiple_of(256) {
            control.add_nodes(256);
            if control.is_cancelled() {
                return Err(TallyStop::Cancelled);
            }
        }
        let mut next = game.clone();
        next.apply(&action)
            .and_then(|()| next.settle().map(|_| ()))
            .map_err(|e| TallyStop::Game(e.to_string()))?;
        walk(&next, budget, control, tally)?;
    }
    Ok(())
}
