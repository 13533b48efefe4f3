//! The straight-line disassembly check (the seed's "assembly physics
//! mode"): can a packed box be taken apart by sliding one piece at a time
//! in a straight line (along an axis) until it is clear of the box?
//!
//! Greedy removal is complete here: taking a piece out only frees space,
//! so any piece that can leave now can still leave later.

use std::fmt;

use super::geometry::{Cell, DIRECTIONS};

/// One of the six slide directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Direction(pub usize);

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = ["+x", "-x", "+y", "-y", "+z", "-z"]
            .get(self.0)
            .copied()
            .unwrap_or("?");
        write!(f, "{name}")
    }
}

/// One step: a piece slides out along a direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removal {
    /// Index of the piece.
    pub piece: usize,
    /// Where it slides.
    pub direction: Direction,
}

/// The verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disassembly {
    /// Removals in order (all pieces when the box comes apart).
    pub order: Vec<Removal>,
    /// Pieces that cannot leave once no further removal is possible
    /// (empty when the box comes apart).
    pub locked: Vec<usize>,
}

impl Disassembly {
    /// Whether every piece comes out.
    pub fn comes_apart(&self) -> bool {
        self.locked.is_empty()
    }
}

/// Tries to take a packing apart. `pieces[i]` are piece `i`'s 0-based
/// cells; an empty list is a piece not in the box (ignored).
pub fn disassemble(size: [usize; 3], pieces: &[Vec<Cell>]) -> Disassembly {
    let index = |c: Cell| -> Option<usize> {
        let inside = (0..3).all(|a| c[a] >= 0 && (c[a] as usize) < size[a]);
        inside.then(|| c[0] as usize + size[0] * (c[1] as usize + size[1] * c[2] as usize))
    };
    let mut owner: Vec<Option<usize>> = vec![None; size[0] * size[1] * size[2]];
    for (p, cells) in pieces.iter().enumerate() {
        for &c in cells {
            if let Some(i) = index(c) {
                owner[i] = Some(p);
            }
        }
    }
    let mut remaining: Vec<usize> = (0..pieces.len())
        .filter(|&p| !pieces[p].is_empty())
        .collect();
    let longest = size.iter().copied().max().unwrap_or(1) as i32;
    let mut order = Vec::new();
    'outer: loop {
        for (slot, &p) in remaining.iter().enumerate() {
            for (d, step) in DIRECTIONS.iter().enumerate() {
                let free = (1..=longest).all(|k| {
                    pieces[p].iter().all(|c| {
                        let moved = [c[0] + k * step[0], c[1] + k * step[1], c[2] + k * step[2]];
                        index(moved).is_none_or(|i| owner[i].is_none_or(|o| o == p))
                    })
                });
                if free {
                    for &c in &pieces[p] {
                        if let Some(i) = index(c) {
                            owner[i] = None;
                        }
                    }
                    order.push(Removal {
                        piece: p,
                        direction: Direction(d),
                    });
                    remaining.remove(slot);
                    continue 'outer;
                }
            }
        }
        break;
    }
    Disassembly {
        order,
        locked: remaining,
    }
}
