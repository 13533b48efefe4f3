//! Candidate endgames from play: a game of the medium AI's one-move
//! evaluation (now and then a random move instead, so seeds differ) is
//! played from a fresh deal until, during a round, some pattern line is
//! full on a wall row it completes: from then on the game surely ends at
//! this round's tiling. A position of that round with a handful of tiles
//! left on the table, two factories still full and a real choice (at
//! least [`MIN_MOVES`] legal moves) is a candidate; the proof ([`super::endgame`]) keeps
//! it when the player to move has exactly one winning move.

use rand::Rng;
use tessera_host::rng::GameRng;

use super::endgame::{ends_this_round, ranked_moves};
use crate::rules::{Rules, State};

/// Fewest tiles left on the table in a candidate (fewer is no puzzle).
pub const MIN_TILES: u8 = 5;
/// Fewest legal moves the player to move has in a candidate.
pub const MIN_MOVES: usize = 12;
/// Fewest factories still holding tiles in a candidate.
pub const MIN_FACTORIES: usize = 2;

/// Most tiles left on the table in a candidate for `players` seats: the
/// search grows with the tiles and the seats.
pub fn max_tiles(players: usize) -> u8 {
    match players {
        2 => 20,
        3 => 18,
        _ => 16,
    }
}

/// Plays one game from `rng` and returns the candidates it passed
/// through (positions of its last round, the player to move the hero).
pub fn candidates(players: usize, rng: &mut GameRng) -> Vec<State> {
    let mut state = State::new(Rules::default(), players);
    state.deal(rng, None);
    let mut found = Vec::new();
    // A game ends within a few dozen rounds; the bound only guards
    // against a stalled loop.
    for _ in 0..2000 {
        if state.over {
            break;
        }
        let tiles = state.on_table;
        let ranked = ranked_moves(&state);
        let factories = state.factories[..state.factory_count as usize]
            .iter()
            .filter(|f| f.iter().any(|&n| n > 0))
            .count();
        if ends_this_round(&state)
            && (MIN_TILES..=max_tiles(players)).contains(&tiles)
            && ranked.len() >= MIN_MOVES
            && factories >= MIN_FACTORIES
        {
            found.push(state);
        }
        let Some(&best) = ranked.first() else {
            break;
        };
        let m = if rng.random_bool(0.2) {
            ranked[rng.random_range(0..ranked.len())]
        } else {
            best
        };
        state.step(m, rng);
    }
    found
}
