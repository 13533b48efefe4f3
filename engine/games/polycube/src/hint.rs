//! Hints: one piece from a solution that agrees with the pieces already
//! placed, or the news that the box can no longer be completed.

use std::sync::atomic::AtomicBool;

use super::rules::{PlacedPiece, Rules, UserCell, user_cell};
use super::solver::{Fixed, SolveError, Solver};

/// What a hint says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// Place this piece in this pose (it passes every check now).
    Place {
        /// Index of the piece.
        piece: usize,
        /// Where it goes.
        pose: PlacedPiece,
    },
    /// No solution keeps the placed pieces where they are.
    Stuck,
    /// Every piece is already placed.
    Done,
}

/// Finds a hint for the current board. Among the solution's pieces still
/// in the tray it picks one that passes the pipeline now (support
/// included), lowest first.
pub fn hint(rules: &Rules, solver: &Solver, cancel: &AtomicBool) -> Result<Hint, SolveError> {
    if rules.placed_count() == rules.pieces().len() {
        return Ok(Hint::Done);
    }
    let fixed: Vec<Fixed> = (0..rules.pieces().len())
        .filter_map(|i| {
            rules.placement(i).map(|pose| Fixed {
                piece: i,
                cells: pose.cells.clone(),
            })
        })
        .collect();
    let Some(solution) = solver.first_from(&fixed, cancel)? else {
        return Ok(Hint::Stuck);
    };
    let mut best: Option<(i32, usize, PlacedPiece)> = None;
    for (piece, cells) in solution.pieces.iter().enumerate() {
        if rules.placement(piece).is_some() || cells.is_empty() {
            continue;
        }
        let targets: Vec<UserCell> = cells.iter().map(|&c| user_cell(c)).collect();
        let Ok(pose) = rules.try_cells(piece, &targets) else {
            continue;
        };
        let low = cells.iter().map(|c| c[2]).min().unwrap_or(0);
        if best.as_ref().is_none_or(|(z, _, _)| low < *z) {
            best = Some((low, piece, pose));
        }
    }
    Ok(match best {
        Some((_, piece, pose)) => Hint::Place { piece, pose },
        None => Hint::Stuck,
    })
}
