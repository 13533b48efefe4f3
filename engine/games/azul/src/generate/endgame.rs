//! The proof behind a generated Azul endgame: the rest of the last round
//! searched exhaustively. No tile is drawn once the factories are dealt,
//! so the round is a game of perfect information; the player to move (the
//! hero) wins a line of play when the final scores name them among the
//! winners (a shared win counts, as a scenario's `Win` goal counts it).
//! Best defence: every other seat plays against the hero (with three or
//! four seats, the others together), so a move "wins" when for every
//! reply there is a hero move that wins, to the end of the round.
//!
//! An AND/OR search with a table of positions already answered: the
//! position's key packs what decides the rest of the game (walls, pattern
//! lines, floor slots used, scores, the table, whose turn), with the
//! factories sorted, since a factory's number decides nothing.

use std::collections::HashMap;

use tessera_host::agent::ThinkControl;

use crate::ai::MediumWeights;
use crate::ai::medium::evaluate_move;
use crate::rules::{COLOURS, LINES, MAX_FACTORIES, MAX_MOVES, Move, MoveList, State, wall_column};
use crate::scenario::MAX_SCORE;

/// The root of a proven round: every move of the hero and which win.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundProof {
    /// The hero's legal moves at the root.
    pub moves: usize,
    /// The moves that win against best defence (the search stops at the
    /// second, so at most two).
    pub winning: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// Why a round has no proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchStop {
    /// Stopped by the caller.
    Cancelled,
    /// More positions than the budget.
    TooLarge(u64),
    /// The game does not surely end this round (no pattern line is full
    /// on a wall row that it completes), so the round is not the last.
    NotLastRound,
    /// The position is not in its taking phase on the printed wall.
    NotATakingPosition,
}

/// Whether the game surely ends at this round's tiling: some player's
/// full pattern line completes its wall row (lines only fill during a
/// round, so nothing a player does can stop it).
pub fn ends_this_round(state: &State) -> bool {
    state.boards[..state.players as usize].iter().any(|board| {
        (0..LINES).any(|row| {
            let line = board.lines[row];
            let full = line.count as usize == row + 1;
            let row_tiles = (board.wall >> (row * 5)) & 0b11111;
            let cell = 1 << wall_column(row, line.colour as usize);
            full && row_tiles | cell == 0b11111 && row_tiles & cell == 0
        })
    })
}

/// The hero's moves in the order the medium AI ranks them (its one-move
/// evaluation, best first; ties keep the game's order).
pub fn ranked_moves(state: &State) -> Vec<Move> {
    let mut list = MoveList::default();
    state.legal_moves(&mut list);
    let weights = MediumWeights::default();
    let mut scored: Vec<(Move, f64)> = list
        .as_slice()
        .iter()
        .map(|&m| (m, evaluate_move(state, m, &weights).0))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored.into_iter().map(|(m, _)| m).collect()
}

/// Searches the rest of the round from `state` (the hero to move), within
/// `budget` positions.
pub fn prove_round(
    state: &State,
    budget: u64,
    control: &ThinkControl,
) -> Result<RoundProof, SearchStop> {
    if state.over || state.tiling || state.rules.grey_wall || state.on_table == 0 {
        return Err(SearchStop::NotATakingPosition);
    }
    if !ends_this_round(state) {
        return Err(SearchStop::NotLastRound);
    }
    let mut search = Search {
        hero: state.to_move,
        table: HashMap::new(),
        nodes: 0,
        budget,
        control,
        stop: None,
    };
    let moves = ranked_moves(state);
    let mut winning = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        control.set_progress(i as f64 / moves.len() as f64);
        if search.after(state, m) {
            winning.push(m);
            if winning.len() == 2 {
                break;
            }
        }
        if let Some(stop) = search.stop.take() {
            return Err(stop);
        }
    }
    Ok(RoundProof {
        moves: moves.len(),
        winning,
        nodes: search.nodes,
    })
}

struct Search<'a> {
    hero: u8,
    table: HashMap<Key, bool>,
    nodes: u64,
    budget: u64,
    control: &'a ThinkControl,
    stop: Option<SearchStop>,
}

impl Search<'_> {
    /// Whether the hero wins after `m` is played in `state`.
    fn after(&mut self, state: &State, m: Move) -> bool {
        let mut next = *state;
        if next.play(m) {
            next.tile_walls();
            if !next.over {
                self.stop = Some(SearchStop::NotLastRound);
                return false;
            }
            return next.winners().0[self.hero as usize];
        }
        self.wins(&next)
    }

    /// Whether the hero wins from `state` against best defence.
    fn wins(&mut self, state: &State) -> bool {
        if self.stop.is_some() {
            return false;
        }
        let key = key(state);
        if let Some(&known) = self.table.get(&key) {
            return known;
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            self.stop = Some(SearchStop::TooLarge(self.budget));
            return false;
        }
        if self.nodes.is_multiple_of(4096) {
            self.control.add_nodes(4096);
            if self.control.is_cancelled() {
                self.stop = Some(SearchStop::Cancelled);
                return false;
            }
        }
        let mut list = MoveList::default();
        state.legal_moves(&mut list);
        let mut order = [0usize; MAX_MOVES];
        let moves = ordered(state, &list, &mut order);
        let hero_moves = state.to_move == self.hero;
        // The hero needs one winning move; the defence one refutation.
        let mut result = !hero_moves;
        for &i in moves {
            if self.after(state, list.as_slice()[i]) == hero_moves {
                result = hero_moves;
                break;
            }
            if self.stop.is_some() {
                return false;
            }
        }
        if self.stop.is_none() {
            self.table.insert(key, result);
        }
        result
    }
}

/// The indices of `list` with the moves that fill a pattern line first,
/// then by how many tiles they take (cheap, and where wins and refutations
/// are found soonest), floors last.
fn ordered<'o>(state: &State, list: &MoveList, order: &'o mut [usize; MAX_MOVES]) -> &'o [usize] {
    let n = list.len();
    let board = &state.boards[state.to_move as usize];
    let rank = |m: &Move| -> i32 {
        let taken = i32::from(state.source_count(m.source, m.colour as usize));
        match board.lines.get(m.target as usize) {
            Some(line) => {
                let room = i32::from(m.target) + 1 - i32::from(line.count);
                if taken >= room {
                    100 - (taken - room)
                } else {
                    50 + taken
                }
            }
            None => -taken,
        }
    };
    for (slot, i) in order.iter_mut().zip(0..n) {
        *slot = i;
    }
    let moves = list.as_slice();
    order[..n].sort_by_key(|&i| std::cmp::Reverse(rank(&moves[i])));
    &order[..n]
}

/// What decides the rest of the game, packed into 512 bits: per player
/// the wall (25 bits), the pattern lines (6 bits each: colour and count),
/// the floor slots used (3) and the score (17: a scenario's scores are at
/// most 100,000); the factories (15 bits each, sorted), the centre (6 bits
/// a colour), the marker, whose turn.
fn key(state: &State) -> Key {
    let mut key = Packer::default();
    for board in &state.boards[..state.players as usize] {
        key.push(u64::from(board.wall), 25);
        for line in &board.lines {
            let code = if line.count == 0 {
                0
            } else {
                u64::from(line.colour) << 3 | u64::from(line.count)
            };
            key.push(code, 6);
        }
        key.push(u64::from(board.floor_len), 3);
        key.push(u64::from(board.score.clamp(0, MAX_SCORE) as u32), 17);
    }
    let mut factories = [0u64; MAX_FACTORIES];
    for (code, factory) in factories
        .iter_mut()
        .zip(&state.factories[..state.factory_count as usize])
    {
        *code = factory
            .iter()
            .enumerate()
            .map(|(k, &n)| u64::from(n.min(7)) << (3 * k))
            .sum();
    }
    factories.sort_unstable();
    for code in factories {
        key.push(code, 15);
    }
    for &n in &state.centre[..COLOURS] {
        key.push(u64::from(n.min(63)), 6);
    }
    key.push(u64::from(state.marker_in_centre), 1);
    key.push(u64::from(state.to_move), 2);
    key.words
}

/// A position's key: 4 x 75 + 9 x 15 + 30 + 3 = 468 bits.
type Key = [u64; 8];

/// Writes fields of given widths one after the other into a [`Key`].
#[derive(Default)]
struct Packer {
    words: Key,
    at: usize,
}

impl Packer {
    fn push(&mut self, value: u64, bits: usize) {
        let value = value & ((1u64 << bits) - 1);
        let (word, offset) = (self.at / 64, self.at % 64);
        self.words[word] |= value << offset;
        if offset + bits > 64 {
            self.words[word + 1] |= value >> (64 - offset);
        }
        self.at += bits;
    }
}
