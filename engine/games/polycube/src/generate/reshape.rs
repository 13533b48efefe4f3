//! Make unique on a design with no packing: there is no packing to hand a
//! cube across in, so the edit works on the pieces' shapes. One cube
//! leaves a piece (which stays connected and keeps at least two cubes)
//! and joins a piece, the same or another, on a free face of it; every
//! such edit is tried, and the ones whose pieces then have exactly one
//! distinct packing are proposed, that packing shown as their design.

use std::collections::HashSet;

use tessera_host::ThinkControl;
use tessera_host::generate::GenerateError;

use super::design::{Design, Move};
use super::repair::{PROPOSALS, Proposal, SMALLEST};
use super::unique::solve_error;
use crate::geometry::{Cell, DIRECTIONS, is_connected, signature};
use crate::level::PolycubeLevel;
use crate::solver::Solver;

/// One cube taken from a piece and given to a piece (cells as the level
/// writes them).
struct Edit {
    from: usize,
    removed: Cell,
    to: usize,
    added: Cell,
}

/// The edits of one cube that leave exactly one distinct packing (at most
/// [`PROPOSALS`]), in the level's piece order; none when no such edit
/// exists. The pieces must hold as many cells as the box.
pub(super) fn reshape(
    level: &PolycubeLevel,
    control: &ThinkControl,
) -> Result<Vec<Proposal>, GenerateError> {
    let size = level.extents();
    let volume: usize = size.iter().product();
    let written: Vec<Vec<Cell>> = level
        .pieces
        .iter()
        .map(|p| {
            p.cells
                .iter()
                .map(|&(x, y, z)| [x as i32, y as i32, z as i32])
                .collect()
        })
        .collect();
    let cells: usize = written.iter().map(Vec::len).sum();
    if cells != volume {
        return Err(GenerateError::NotFound(format!(
            "the pieces hold {cells} cells and the box has {volume}; Make unique moves cubes between pieces and keeps their total"
        )));
    }
    let ids: Vec<&str> = level.pieces.iter().map(|p| p.id.as_str()).collect();
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    for from in 0..written.len() {
        control.set_note(format!("a cube of piece `{}` moved", ids[from]));
        control.set_progress(from as f64 / written.len() as f64);
        for edit in edits_from(&written, from) {
            if control.is_cancelled() {
                return Err(GenerateError::Cancelled);
            }
            let shapes = edited(&written, &edit);
            let mut key: Vec<Vec<Cell>> = shapes.iter().map(|s| signature(s)).collect();
            key.sort();
            if !seen.insert(key) {
                continue;
            }
            let solver = Solver::new(size, &shapes).map_err(solve_error)?;
            let packings = solver
                .distinct(2, control.cancel_flag())
                .map_err(solve_error)?;
            let [packing] = packings.as_slice() else {
                continue;
            };
            let Some(design) = Design::from_solution(size, packing) else {
                continue;
            };
            found.push(proposal(design, &edit, &shapes[edit.to], &ids));
            if found.len() >= PROPOSALS {
                return Ok(found);
            }
        }
    }
    Ok(found)
}

/// Every edit that takes a cube from piece `from`.
fn edits_from(written: &[Vec<Cell>], from: usize) -> Vec<Edit> {
    let mut out = Vec::new();
    let piece = &written[from];
    if piece.len() <= SMALLEST {
        return out;
    }
    for &removed in piece {
        let rest: Vec<Cell> = piece.iter().copied().filter(|&c| c != removed).collect();
        if !is_connected(&rest) {
            continue;
        }
        for (to, other) in written.iter().enumerate() {
            let base = if to == from { &rest } else { other };
            let mut free: Vec<Cell> = base
                .iter()
                .flat_map(|c| DIRECTIONS.map(|s| [c[0] + s[0], c[1] + s[1], c[2] + s[2]]))
                .filter(|n| !base.contains(n) && (to != from || *n != removed))
                .collect();
            free.sort_unstable();
            free.dedup();
            out.extend(free.into_iter().map(|added| Edit {
                from,
                removed,
                to,
                added,
            }));
        }
    }
    out
}

/// The pieces' cells after `edit`.
fn edited(written: &[Vec<Cell>], edit: &Edit) -> Vec<Vec<Cell>> {
    let mut shapes = written.to_vec();
    shapes[edit.from].retain(|&c| c != edit.removed);
    shapes[edit.to].push(edit.added);
    shapes
}

/// The proposal of `edit`, shown in its one packing `design`: the cube the
/// taker gained is the one of its placed cells without which it is the
/// taker's old shape.
fn proposal(design: Design, edit: &Edit, taker: &[Cell], ids: &[&str]) -> Proposal {
    let old: Vec<Cell> = taker.iter().copied().filter(|&c| c != edit.added).collect();
    let old = signature(&old);
    let placed: Vec<usize> = (0..design.owner.len())
        .filter(|&i| design.owner[i] == edit.to)
        .collect();
    let cell = placed
        .iter()
        .copied()
        .find(|&i| {
            let rest: Vec<Cell> = placed
                .iter()
                .filter(|&&j| j != i)
                .map(|&j| design.cell(j))
                .collect();
            signature(&rest) == old
        })
        .or(placed.first().copied())
        .unwrap_or_default();
    let at = |c: Cell| format!("({}, {}, {})", c[0], c[1], c[2]);
    let words = if edit.from == edit.to {
        format!(
            "piece `{}` moves its cube at {} to {} (as the level writes it)",
            ids[edit.from],
            at(edit.removed),
            at(edit.added)
        )
    } else {
        format!(
            "piece `{}` gives its cube at {} to piece `{}`, at {} (as the level writes them)",
            ids[edit.from],
            at(edit.removed),
            ids[edit.to],
            at(edit.added)
        )
    };
    Proposal {
        moves: vec![Move {
            cell,
            from: edit.from,
            to: edit.to,
        }],
        design,
        words,
    }
}
