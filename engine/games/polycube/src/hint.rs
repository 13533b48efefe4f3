//! Hints: one piece from a solution that agrees with the pieces already
//! placed, or the news that the box can no longer be completed.

use std::sync::atomic::AtomicBool;

use super::disassembly::assembly_order_from;
use super::geometry::Cell;
use super::rules::{PlacedPiece, Rules, UserCell, user_cell};
use super::solver::{Fixed, Solution, SolveError, Solver};

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
    /// No solution keeps the placed pieces where they are; `pick_up` is
    /// the most recently placed piece whose removal leaves a solvable
    /// board, when one piece is enough.
    Stuck {
        /// The piece to pick up.
        pick_up: Option<usize>,
    },
    /// Every piece is already placed.
    Done,
}

/// Finds a hint for the current board. Among the solution's pieces still
/// in the tray it picks one that passes the pipeline now (support
/// included), lowest first. In assembly mode the solution must also be
/// buildable from here (the rest of the pieces slide in one by one, each
/// supported), and the hint is the first piece of that order.
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
    let Some(solution) = completion(rules, solver, &fixed, cancel)? else {
        return Ok(Hint::Stuck {
            pick_up: piece_to_pick_up(rules, solver, &fixed, cancel)?,
        });
    };
    if rules.assembly() {
        let order = assembly_order_from(rules.size(), &solution.pieces, &placed_mask(&fixed), true);
        let next = order.and_then(|order| order.first().map(|step| step.piece));
        let pose = next.and_then(|piece| {
            let targets: Vec<UserCell> = solution.pieces[piece]
                .iter()
                .map(|&c| user_cell(c))
                .collect();
            rules
                .try_cells(piece, &targets)
                .ok()
                .map(|pose| (piece, pose))
        });
        return Ok(match pose {
            Some((piece, pose)) => Hint::Place { piece, pose },
            None => Hint::Stuck { pick_up: None },
        });
    }
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
        None => Hint::Stuck { pick_up: None },
    })
}

/// The most recently placed piece without which the board can be
/// completed (one solve per placed piece at most).
fn piece_to_pick_up(
    rules: &Rules,
    solver: &Solver,
    fixed: &[Fixed],
    cancel: &AtomicBool,
) -> Result<Option<usize>, SolveError> {
    let mut recent: Vec<usize> = Vec::new();
    for change in rules.history().iter().rev() {
        if rules.placement(change.piece).is_some() && !recent.contains(&change.piece) {
            recent.push(change.piece);
        }
    }
    for piece in recent {
        let without: Vec<Fixed> = fixed.iter().filter(|f| f.piece != piece).cloned().collect();
        if completion(rules, solver, &without, cancel)?.is_some() {
            return Ok(Some(piece));
        }
    }
    Ok(None)
}

/// A solution keeping the `fixed` pieces where they are; in assembly mode
/// only one whose other pieces can then slide in, one by one and each
/// supported, around the fixed ones (the pipeline's Blocked and Floating
/// checks, in some order).
fn completion(
    rules: &Rules,
    solver: &Solver,
    fixed: &[Fixed],
    cancel: &AtomicBool,
) -> Result<Option<Solution>, SolveError> {
    if !rules.assembly() {
        return solver.first_from(fixed, cancel);
    }
    let already_in = placed_mask(fixed);
    solver.first_from_where(fixed, cancel, |solution| {
        assembly_order_from(rules.size(), &solution.pieces, &already_in, true).is_some()
    })
}

/// Which pieces the `fixed` list holds, by piece index.
fn placed_mask(fixed: &[Fixed]) -> Vec<bool> {
    let mut mask = Vec::new();
    for f in fixed {
        if mask.len() <= f.piece {
            mask.resize(f.piece + 1, false);
        }
        mask[f.piece] = true;
    }
    mask
}

/// The seed's helper hint: of every legal pose of `piece` now (any of its
/// rotations, anywhere in the box, passing the whole pipeline), the one
/// closest to the player's ghost `aim` (0-based cells, legal or not):
/// fewest ghost cells it does not cover, then the shortest move of the
/// ghost's centre, then the same rotation as `rotation`. `None` when the
/// piece has no legal pose at all. Tries every pose (at most 24 times the
/// box's cells), so it answers a click, not every frame.
pub fn nearest_legal(
    rules: &Rules,
    piece: usize,
    aim: &[Cell],
    rotation: u8,
) -> Option<PlacedPiece> {
    let info = rules.pieces().get(piece)?;
    let size = rules.size();
    let centre = |cells: &[Cell]| -> [i64; 3] {
        std::array::from_fn(|a| cells.iter().map(|c| i64::from(c[a])).sum::<i64>())
    };
    let n = aim.len().max(1) as i64;
    let aim_centre = centre(aim);
    let mut best: Option<((usize, i64, bool), PlacedPiece)> = None;
    for orientation in &info.orientations {
        let extent: [i32; 3] =
            std::array::from_fn(|a| orientation.cells.iter().map(|c| c[a]).max().unwrap_or(0));
        for z in 0..size[2] as i32 - extent[2] {
            for y in 0..size[1] as i32 - extent[1] {
                for x in 0..size[0] as i32 - extent[0] {
                    let Ok(pose) = rules.pose_at(piece, orientation.rotation, user_cell([x, y, z]))
                    else {
                        continue;
                    };
                    if rules.check_pose(piece, &pose).is_err() {
                        continue;
                    }
                    let missed = aim.iter().filter(|c| !pose.cells.contains(c)).count();
                    // Centres compared at the aim's scale, in whole cells.
                    let here = centre(&pose.cells);
                    let m = pose.cells.len().max(1) as i64;
                    let distance: i64 = (0..3)
                        .map(|a| (here[a] * n - aim_centre[a] * m).pow(2))
                        .sum();
                    let key = (missed, distance, pose.rotation != rotation);
                    if best.as_ref().is_none_or(|(k, _)| key < *k) {
                        best = Some((key, pose));
                    }
                }
            }
        }
    }
    best.map(|(_, pose)| pose)
}
