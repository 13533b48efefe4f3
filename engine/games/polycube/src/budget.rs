//! The memory the solver's tables may take, checked before they are
//! built: a level's size and pieces pass every range (1,024 cells, 256
//! pieces) yet 128 different 8-cell pieces in the largest box make some
//! 1.5 million placements, over 800 MiB of tables. The level's check
//! refuses such a level at its `pieces` (so `check`, the editor and a
//! start agree), and [`crate::Solver::new`] refuses it too.

use crate::geometry::{Cell, orientations, signature};

/// Most bytes the solver's tables may take: half of the 256 MiB a run may
/// use, as Tetris's line search.
pub const SOLVER_BYTES: u64 = 128 * 1024 * 1024;

/// How many placements (piece kind, orientation, position) the solver of
/// a box `size` holds for `shapes`, counted without building them: the
/// same walk as the tables' build, identical pieces sharing theirs.
pub fn placement_count(size: [usize; 3], shapes: &[Vec<Cell>]) -> u64 {
    let mut kinds: Vec<Vec<Cell>> = Vec::new();
    for shape in shapes {
        let kind = signature(shape);
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
        .iter()
        .flat_map(|kind| orientations(kind))
        .map(|orientation| {
            let extent = orientation.cells.iter().fold([0; 3], |m, c| {
                [m[0].max(c[0]), m[1].max(c[1]), m[2].max(c[2])]
            });
            (0..3)
                .map(|axis| (size[axis] as i64 - i64::from(extent[axis])).max(0) as u64)
                .product::<u64>()
        })
        .sum()
}

/// The worst-case bytes of the tables for `placements` placements of
/// pieces of `cells` cells in a box of `volume` cells: per placement its
/// mask three times (the list, the index by mask, the build's list), its
/// image under each of the box's up to 48 symmetries, and its cells.
pub fn solver_bytes(volume: usize, placements: u64, cells: usize) -> u64 {
    let mask_bytes = match volume {
        0..=64 => 8,
        65..=128 => 16,
        _ => crate::mask::WIDE_WORDS as u64 * 8,
    };
    let per_placement = 3 * mask_bytes + 48 * 4 + 64 + 2 * cells as u64;
    placements.saturating_mul(per_placement)
}

/// Why a solver for these pieces in a box `size` would not fit
/// [`SOLVER_BYTES`] (`None`: it fits), in a designer's words.
pub fn over_budget(size: [usize; 3], shapes: &[Vec<Cell>]) -> Option<String> {
    let placements = placement_count(size, shapes);
    let largest = shapes.iter().map(Vec::len).max().unwrap_or(0);
    let bytes = solver_bytes(size.iter().product(), placements, largest);
    (bytes > SOLVER_BYTES).then(|| {
        format!(
            "the pieces fit this box {} ways; the solver (hints, Solvable?, `tessera solve`) would need about {} MiB for them, over its {} MiB budget: use fewer different pieces or a smaller box",
            tessera_host::text::thousands(placements),
            bytes.div_ceil(1024 * 1024),
            SOLVER_BYTES / (1024 * 1024)
        )
    })
}
