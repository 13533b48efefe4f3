//! The proof behind a generated Tetris level: every placement sequence of
//! the fixed pieces (every landing the move generator finds, piece after
//! piece, no hold), played by the game's rules (a lock in the top row or a
//! next piece that cannot spawn loses; the goal is checked after each lock
//! and ends the game), counted: winning sequences, the distinct boards
//! they end on, the wins without a T-spin, and the chance that a player
//! placing each piece at a landing picked uniformly at random wins.
//!
//! Exhaustive and exact: a subtree is cut only when it cannot win (the
//! rows still to clear need more empty cells than the pieces left have),
//! and positions met again (same piece, board and lines) are answered from
//! a table. The table and the search are bounded by a node budget.

use std::collections::HashMap;

use tessera_host::agent::ThinkControl;

use super::spin::turning_first;
use crate::board::{Board, spawn_position};
use crate::movegen::MoveGen;
use crate::piece::{PieceKind, RotationSystem};

/// The most distinct final boards a census tells apart; past it, it says
/// "more than".
pub const MAX_FINALS: usize = 64;

/// Search nodes between two looks at the job's cancel (and two reports of
/// the node count).
const CANCEL_EVERY: u64 = 64;

/// What every placement sequence of a puzzle comes to.
#[derive(Debug, Clone, PartialEq)]
pub struct Census {
    /// Placement sequences that meet the goal (each ends at the lock that
    /// meets it).
    pub wins: u64,
    /// Of those, the ones without a T-spin.
    pub wins_without_spin: u64,
    /// The distinct boards the wins end on (at most [`MAX_FINALS`]).
    pub final_boards: usize,
    /// Whether there were more final boards than [`MAX_FINALS`].
    pub more_finals: bool,
    /// The chance a player placing each piece at a uniformly random
    /// landing wins.
    pub chance: f64,
    /// Positions searched.
    pub nodes: u64,
}

impl Census {
    /// Whether every win needs a T-spin (and there is a win).
    pub fn every_win_spins(&self) -> bool {
        self.wins > 0 && self.wins_without_spin == 0
    }

    /// Whether every win ends on one board (and there is a win).
    pub fn unique(&self) -> bool {
        self.wins > 0 && self.final_boards == 1 && !self.more_finals
    }
}

/// Why a census has no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CensusStop {
    /// Stopped by the caller.
    Cancelled,
    /// The search met more positions than its budget.
    TooLarge(u64),
}

/// The puzzle a census searches: a starting board, the pieces in order,
/// the lines to clear, the rotation system.
#[derive(Debug, Clone)]
pub struct Puzzle {
    /// The starting board.
    pub board: Board,
    /// The fixed sequence.
    pub pieces: Vec<PieceKind>,
    /// Lines to clear (`Lines(N)`).
    pub lines: u64,
    /// The rotation system in force.
    pub rotation: RotationSystem,
}

/// One position's answer, kept in the table.
#[derive(Debug, Clone, Default)]
struct Node {
    wins: u64,
    wins_without_spin: u64,
    /// Indices into the census's table of final boards, sorted.
    finals: Vec<u32>,
    more_finals: bool,
    chance: f64,
}

struct Search<'a> {
    puzzle: &'a Puzzle,
    control: &'a ThinkControl,
    budget: u64,
    nodes: u64,
    /// Positions answered, by piece, lines and the board's rows (the rows
    /// alone: a whole `Board` is 520 bytes).
    table: HashMap<(usize, u64, Box<[u64]>), Node>,
    finals: HashMap<Board, u32>,
    movegen: MoveGen,
    stop: Option<CensusStop>,
}

/// Counts every placement sequence of `puzzle`, within `budget` positions.
pub fn census(puzzle: &Puzzle, budget: u64, control: &ThinkControl) -> Result<Census, CensusStop> {
    let mut search = Search {
        puzzle,
        control,
        budget,
        nodes: 0,
        table: HashMap::new(),
        finals: HashMap::new(),
        movegen: MoveGen::new(),
        stop: None,
    };
    let root = search.position(puzzle.board, 0, 0);
    if let Some(stop) = search.stop {
        return Err(stop);
    }
    Ok(Census {
        wins: root.wins,
        wins_without_spin: root.wins_without_spin,
        final_boards: root.finals.len(),
        more_finals: root.more_finals,
        chance: root.chance,
        nodes: search.nodes,
    })
}

/// The fewest cells that fill `rows` more rows of `board`: the emptiest
/// rows need the most, so the fullest `rows` ones are summed. Every row a
/// later clear removes is one of today's rows (rows only move down), and
/// its empty cells must all be filled by pieces.
fn cells_to_clear(board: &Board, rows: u64) -> u64 {
    let width = board.width() as u32;
    let mut empty: Vec<u32> = board
        .rows()
        .iter()
        .map(|row| width - row.count_ones())
        .collect();
    if rows as usize > empty.len() {
        return u64::MAX;
    }
    empty.sort_unstable();
    empty
        .iter()
        .take(rows as usize)
        .map(|&e| u64::from(e))
        .sum()
}

impl Search<'_> {
    /// The answer for the position before piece `depth`, `lines` cleared.
    fn position(&mut self, board: Board, depth: usize, lines: u64) -> Node {
        let pieces = &self.puzzle.pieces;
        let Some(&kind) = pieces.get(depth) else {
            return Node::default();
        };
        let need = self.puzzle.lines.saturating_sub(lines);
        let cells_left: u64 = pieces[depth..].iter().map(|p| p.cell_count() as u64).sum();
        if cells_to_clear(&board, need) > cells_left {
            return Node::default();
        }
        let key = (depth, lines, Box::<[u64]>::from(board.rows()));
        if let Some(known) = self.table.get(&key) {
            return known.clone();
        }
        if self.stop.is_some() {
            return Node::default();
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            self.stop = Some(CensusStop::TooLarge(self.budget));
            return Node::default();
        }
        // Every 64 nodes: a node generates every landing on the board, and
        // on a 62-wide well 1024 of them ran past the job's 100 ms.
        if self.nodes.is_multiple_of(CANCEL_EVERY) {
            self.control.add_nodes(CANCEL_EVERY);
            if self.control.is_cancelled() {
                self.stop = Some(CensusStop::Cancelled);
                return Node::default();
            }
        }
        let spawn = spawn_position(kind, board.width());
        let system = self.puzzle.rotation;
        let landings = self.movegen.generate(&board, kind, system, spawn).to_vec();
        let mut node = Node::default();
        // The T landings reached without a turn down in the stack, found
        // once a winning T landing needs to know whether it was a spin.
        let mut plain_t: Option<Vec<crate::movegen::Placement>> = None;
        for landing in &landings {
            // A stopped census is refused whole: unwind at once rather than
            // try every remaining landing at every level of a deep
            // sequence (900 of them took 400 ms to come back up).
            if self.stop.is_some() {
                break;
            }
            let mut next = board;
            next.place(kind, landing.state, landing.x, landing.y);
            let cleared = u64::from(next.clear_full_rows().count_ones());
            // The game's order: a top-out (a cell in the top row, or a next
            // piece that cannot spawn) loses before the goal is looked at.
            if next.row(0) != 0 {
                continue;
            }
            if let Some(&after) = pieces.get(depth + 1) {
                let (x, y) = spawn_position(after, next.width());
                if !next.fits(after, 0, x, y) {
                    continue;
                }
            }
            let child = if lines + cleared >= self.puzzle.lines {
                self.won(next)
            } else {
                self.position(next, depth + 1, lines + cleared)
            };
            node.wins += child.wins;
            let spin = kind == PieceKind::T
                && child.wins_without_spin > 0
                && !plain_t
                    .get_or_insert_with(|| turning_first(&board, system, kind, spawn))
                    .contains(landing);
            if !spin {
                node.wins_without_spin += child.wins_without_spin;
            }
            node.chance += child.chance;
            node.more_finals |= child.more_finals;
            merge_finals(&mut node.finals, &child.finals, &mut node.more_finals);
        }
        if !landings.is_empty() {
            node.chance /= landings.len() as f64;
        }
        if self.stop.is_none() {
            self.table.insert(key, node.clone());
        }
        node
    }

    /// A sequence that just met the goal on `board`.
    fn won(&mut self, board: Board) -> Node {
        let next_id = self.finals.len() as u32;
        let id = *self.finals.entry(board).or_insert(next_id);
        Node {
            wins: 1,
            wins_without_spin: 1,
            finals: vec![id],
            more_finals: false,
            chance: 1.0,
        }
    }
}

/// Adds `more` to the sorted set `into`, keeping at most [`MAX_FINALS`].
fn merge_finals(into: &mut Vec<u32>, more: &[u32], overflow: &mut bool) {
    for &id in more {
        if let Err(at) = into.binary_search(&id) {
            if into.len() >= MAX_FINALS {
                *overflow = true;
                return;
            }
            into.insert(at, id);
        }
    }
}
