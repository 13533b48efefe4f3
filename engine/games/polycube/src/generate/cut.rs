//! Cuts of a large box for a unique design. What decides how many packings
//! a set of pieces has (and how long the search for them takes) is how
//! many places each piece fits: a compact blob of five cubes fits a 4x4x4
//! box in hundreds of ways, a long snaky one in a few dozen. So a large
//! box is cut with stretched pieces (each grown away from where it started)
//! and, of many such cuts, the ones whose pieces fit the fewest places are
//! walked.

use rand::Rng;
use tessera_host::rng::GameRng;

use super::design::{Design, FREE, index, neighbours};
use crate::geometry::{Cell, max_corner, orientations};

/// How many places a piece fits in a box of `size`: over its distinct
/// orientations, the positions its bounding box takes. The solver's
/// placement table before any pruning.
pub fn placements(size: [usize; 3], cells: &[Cell]) -> usize {
    orientations(cells)
        .iter()
        .map(|o| {
            let Some(far) = max_corner(&o.cells) else {
                return 0;
            };
            (0..3)
                .map(|axis| (size[axis] as i64 - i64::from(far[axis])).max(0) as usize)
                .product::<usize>()
        })
        .sum()
}

/// A cut's score, lower is better: the sum over its pieces of the
/// logarithm of their placements, the logarithm of the number of ways to
/// put every piece somewhere (the search's raw space).
pub fn score(design: &Design) -> f64 {
    design
        .shapes()
        .iter()
        .map(|cells| (placements(design.size, cells).max(1) as f64).ln())
        .sum()
}

/// A random cut of the box into pieces of `sizes` (which sum to the
/// volume), each piece grown from the lowest free cell and stretched: a
/// free neighbour is taken with a weight growing with the square of its
/// distance from the piece's first cell, times `stretch`. `None` when a
/// piece was walled in short of its size.
pub fn stretched(
    size: [usize; 3],
    sizes: &[usize],
    stretch: f64,
    rng: &mut GameRng,
) -> Option<Design> {
    let volume = size[0] * size[1] * size[2];
    let mut owner = vec![FREE; volume];
    let mut frontier: Vec<usize> = Vec::new();
    let mut weights: Vec<f64> = Vec::new();
    let at = |i: usize| {
        [
            i % size[0],
            (i / size[0]) % size[1],
            i / (size[0] * size[1]),
        ]
    };
    for (piece, &target) in sizes.iter().enumerate() {
        let start = owner.iter().position(|&o| o == FREE)?;
        let origin = at(start);
        owner[start] = piece;
        frontier.clear();
        frontier.extend(neighbours(size, start).filter(|&n| owner[n] == FREE));
        for _ in 1..target {
            frontier.retain(|&n| owner[n] == FREE);
            frontier.sort_unstable();
            frontier.dedup();
            if frontier.is_empty() {
                return None;
            }
            weights.clear();
            weights.extend(frontier.iter().map(|&n| {
                let c = at(n);
                let d: usize = (0..3).map(|k| c[k].abs_diff(origin[k])).sum();
                1.0 + stretch * (d * d) as f64
            }));
            let next = frontier.swap_remove(weighted(&weights, rng));
            owner[next] = piece;
            frontier.extend(neighbours(size, next).filter(|&n| owner[n] == FREE));
        }
    }
    (!owner.contains(&FREE)).then_some(Design {
        size,
        owner,
        pieces: sizes.len(),
    })
}

/// An index into `weights` drawn with the chance of its weight (the
/// weights positive).
pub(super) fn weighted(weights: &[f64], rng: &mut GameRng) -> usize {
    let mut pick = rng.random_range(0.0..weights.iter().sum::<f64>());
    for (k, w) in weights.iter().enumerate() {
        if pick < *w {
            return k;
        }
        pick -= w;
    }
    weights.len() - 1
}

/// Whether some two or three neighbouring pieces of the cut fill the cells
/// they hold together in a second way: then the cut has a second packing
/// (the rest kept), however few places its pieces fit.
pub fn loose(design: &Design) -> bool {
    let shapes = design.shapes();
    let touching = |a: usize, b: usize| {
        (0..design.owner.len()).any(|i| {
            design.owner[i] == a && neighbours(design.size, i).any(|n| design.owner[n] == b)
        })
    };
    let n = design.pieces;
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .filter(|&(a, b)| touching(a, b))
        .collect();
    let adjacent = |a: usize, b: usize| pairs.contains(&(a.min(b), a.max(b)));
    pairs.iter().any(|&(a, b)| {
        retiles(design, &shapes, &[a, b])
            || (b + 1..n)
                .any(|c| (adjacent(a, c) || adjacent(b, c)) && retiles(design, &shapes, &[a, b, c]))
    })
}

/// [`loose`] around one piece of a cut being drawn: whether `piece` and one
/// neighbour, or two pieces touching it or each other, fill the cells they
/// hold together in a second way. Cells no piece holds yet are left out. A
/// skewed cut's filling tests each small piece as it places it, where a
/// test of the whole cut afterwards threw away nearly every filling of a
/// 5x5x5 (21 small pieces: some two or three of them almost always
/// re-tile).
pub(super) fn loose_around(design: &Design, piece: usize) -> bool {
    // Only the pieces within two steps of `piece` take part: their cells
    // and neighbours are gathered in one pass each (the whole cut's
    // shapes cost most of a filling's time).
    let mut cells: Vec<Vec<Cell>> = vec![Vec::new(); design.pieces];
    let mut near: Vec<Vec<usize>> = vec![Vec::new(); design.pieces];
    for (i, &o) in design.owner.iter().enumerate() {
        if o >= design.pieces {
            continue;
        }
        cells[o].push(design.cell(i));
        for n in neighbours(design.size, i) {
            let other = design.owner[n];
            if other < design.pieces && other != o && !near[o].contains(&other) {
                near[o].push(other);
            }
        }
    }
    let around = &near[piece];
    if around.iter().any(|&b| retiles(design, &cells, &[piece, b])) {
        return true;
    }
    around.iter().enumerate().any(|(k, &b)| {
        let mut third: Vec<usize> = around[k + 1..].to_vec();
        third.extend(
            near[b]
                .iter()
                .filter(|&&c| c != piece && !around.contains(&c)),
        );
        third
            .into_iter()
            .any(|c| retiles(design, &cells, &[piece, b, c]))
    })
}

/// Whether the cells of `pieces` have more than one tiling by their shapes.
fn retiles(design: &Design, shapes: &[Vec<Cell>], pieces: &[usize]) -> bool {
    let mut open = vec![false; design.owner.len()];
    for (i, o) in design.owner.iter().enumerate() {
        open[i] = pieces.contains(o);
    }
    // Identical shapes are one kind: swapping them is the same packing.
    let mut kinds: Vec<(Vec<Cell>, Vec<Vec<Cell>>, usize)> = Vec::new();
    for &p in pieces {
        let sig = crate::geometry::signature(&shapes[p]);
        match kinds.iter_mut().find(|k| k.0 == sig) {
            Some(kind) => kind.2 += 1,
            None => {
                let turns = orientations(&shapes[p])
                    .into_iter()
                    .map(|o| o.cells)
                    .collect();
                kinds.push((sig, turns, 1));
            }
        }
    }
    let mut left: Vec<usize> = kinds.iter().map(|k| k.2).collect();
    let turns: Vec<Vec<Vec<Cell>>> = kinds.into_iter().map(|k| k.1).collect();
    tilings(design.size, &mut open, &turns, &mut left, 2) >= 2
}

/// Tilings of the open cells by the kinds left (each orientation of each
/// kind anchored at the lowest open cell), counted up to `limit`.
fn tilings(
    size: [usize; 3],
    open: &mut [bool],
    turns: &[Vec<Vec<Cell>>],
    left: &mut [usize],
    limit: usize,
) -> usize {
    let Some(first) = open.iter().position(|&o| o) else {
        return 1;
    };
    let at = [
        (first % size[0]) as i32,
        ((first / size[0]) % size[1]) as i32,
        (first / (size[0] * size[1])) as i32,
    ];
    let mut found = 0;
    let mut cells = Vec::new();
    for kind in 0..turns.len() {
        if left[kind] == 0 {
            continue;
        }
        for turn in &turns[kind] {
            // The lowest open cell is the turn's lowest cell (cells sorted
            // by z, y, x as box indices are).
            let Some(anchor) = turn.iter().min_by_key(|c| (c[2], c[1], c[0])) else {
                continue;
            };
            cells.clear();
            let placed = turn.iter().all(|c| {
                let moved = [0, 1, 2].map(|k| c[k] - anchor[k] + at[k]);
                match index(size, moved) {
                    Some(i) if open[i] => {
                        cells.push(i);
                        true
                    }
                    _ => false,
                }
            });
            if !placed {
                continue;
            }
            for &i in &cells {
                open[i] = false;
            }
            left[kind] -= 1;
            found += tilings(size, open, turns, left, limit - found);
            left[kind] += 1;
            for &i in &cells {
                open[i] = true;
            }
            if found >= limit {
                return found;
            }
        }
    }
    found
}
