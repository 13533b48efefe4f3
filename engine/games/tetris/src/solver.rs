//! "Solvable?": a depth-first search over the landings of a fixed piece
//! sequence (the same move generator the game and the AI use), with a
//! table of dead positions, progress reports and cancellation. Hold is not
//! used by the search (puzzle levels switch it off).

use std::collections::HashSet;

use crate::board::{Board, spawn_position};
use crate::level::{Goal, TetrisLevel};
use crate::movegen::{MoveGen, Placement};
use crate::piece::RotationSystem;

/// What the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Solved by these placements, one per piece used.
    Solvable(Vec<Placement>),
    /// No order of landings meets the goal.
    Unsolvable,
    /// The goal is not one a fixed sequence can be searched for (marathon
    /// or score goals depend on the script), or there is no sequence.
    NotAPuzzle(String),
    /// Stopped by the caller.
    Cancelled,
}

/// The search's result and its effort.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The verdict.
    pub verdict: Verdict,
    /// Positions visited.
    pub nodes: u64,
}

struct Search<'a> {
    pieces: &'a [crate::piece::PieceKind],
    goal: Goal,
    rotation: RotationSystem,
    dead: HashSet<(usize, Board, Board, u64)>,
    nodes: u64,
    path: Vec<Placement>,
    keep_going: &'a mut dyn FnMut(u64) -> bool,
    cancelled: bool,
}

impl Search<'_> {
    fn met(&self, garbage: &Board, lines: u64, depth: usize) -> bool {
        match self.goal {
            Goal::ClearGarbage => garbage.is_empty(),
            Goal::Lines(n) => lines >= n,
            Goal::Survive(n) => depth as u64 >= n,
            Goal::Marathon | Goal::Score(_) => false,
        }
    }

    fn run(&mut self, board: Board, garbage: Board, lines: u64, depth: usize) -> bool {
        if self.met(&garbage, lines, depth) && depth > 0 {
            return true;
        }
        let Some(&kind) = self.pieces.get(depth) else {
            return false;
        };
        let key = (depth, board, garbage, lines);
        if self.dead.contains(&key) {
            return false;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(256) && !(self.keep_going)(self.nodes) {
            self.cancelled = true;
            return false;
        }
        let spawn = spawn_position(kind, board.width());
        let mut generator = MoveGen::new();
        let landings = generator
            .generate(&board, kind, self.rotation, spawn)
            .to_vec();
        for placement in landings {
            let mut next = board;
            next.place(kind, placement.state, placement.x, placement.y);
            let cleared = next.clear_full_rows();
            if next.row(0) != 0 {
                continue;
            }
            let mut next_garbage = garbage;
            next_garbage.clear_rows(cleared);
            self.path.push(placement);
            if self.run(
                next,
                next_garbage,
                lines + u64::from(cleared.count_ones()),
                depth + 1,
            ) {
                return true;
            }
            self.path.pop();
            if self.cancelled {
                return false;
            }
        }
        self.dead.insert(key);
        false
    }
}

/// Searches `level`'s fixed sequence for a way to meet its goal under
/// `rotation`. `keep_going(nodes)` is asked every 256 positions; returning
/// false cancels.
pub fn solve(
    level: &TetrisLevel,
    rotation: RotationSystem,
    keep_going: &mut dyn FnMut(u64) -> bool,
) -> Report {
    let pieces = level.sequence_pieces();
    if pieces.is_empty() {
        return Report {
            verdict: Verdict::NotAPuzzle("the level has no fixed piece sequence".into()),
            nodes: 0,
        };
    }
    if matches!(level.goal, Goal::Marathon | Goal::Score(_)) {
        return Report {
            verdict: Verdict::NotAPuzzle(format!(
                "the goal `{}` depends on the script's scoring; search needs ClearGarbage, Lines or Survive",
                level.goal
            )),
            nodes: 0,
        };
    }
    let (board, _) = level.starting_cells();
    let mut search = Search {
        pieces: &pieces,
        goal: level.goal,
        rotation,
        dead: HashSet::new(),
        nodes: 0,
        path: Vec::new(),
        keep_going,
        cancelled: false,
    };
    let solved = search.run(board, board, 0, 0);
    let verdict = if solved {
        Verdict::Solvable(search.path.clone())
    } else if search.cancelled {
        Verdict::Cancelled
    } else {
        Verdict::Unsolvable
    };
    Report {
        verdict,
        nodes: search.nodes,
    }
}
