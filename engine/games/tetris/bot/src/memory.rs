//! The bot's working memory of each game, kept outside the game: the
//! rules' game state holds no brain (issue #48), only an [`Instance`]
//! token the bot keys its memory by. A game's memory is its brain shelf
//! (a search's buffers, and against HATETRIS the tree or plan one decision
//! leaves for the next) and its reader's-streak memo; it lives as long
//! as the game, and is dropped at the first look-up after the game is.

use std::sync::{Arc, Mutex, PoisonError, Weak};

use crate::agents::BrainShelf;
use crate::feed::SharedStreak;
use tessera_tetris::Instance;

/// One game's memory.
#[derive(Clone, Default)]
pub struct GameMemory {
    /// Brains kept between the game's decisions.
    pub brains: BrainShelf,
    /// The reader's streak, counted once per piece given.
    pub streak: SharedStreak,
}

/// Every live game's memory, by its instance (a game is not kept alive by
/// its entry: the entry holds its token weakly).
static MEMORY: Mutex<Vec<(Weak<Instance>, GameMemory)>> = Mutex::new(Vec::new());

/// The memory of the game whose token is `instance` (new for a new game).
/// Entries of ended games go first. (A weak reference keeps its token's
/// allocation, so a new game's token never takes an ended one's address
/// while the ended one's entry is here.)
pub fn of(instance: &Arc<Instance>) -> GameMemory {
    // The list is whole between look-ups (each step below leaves it
    // valid), so a look-up that panicked leaves nothing to repair.
    let mut games = MEMORY.lock().unwrap_or_else(PoisonError::into_inner);
    games.retain(|(token, _)| token.strong_count() > 0);
    if let Some((_, memory)) = games
        .iter()
        .find(|(token, _)| std::ptr::eq(token.as_ptr(), Arc::as_ptr(instance)))
    {
        return memory.clone();
    }
    let memory = GameMemory::default();
    games.push((Arc::downgrade(instance), memory.clone()));
    memory
}
