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

/// Why a piece cannot slide straight in (or out): for the direction with
/// the fewest obstacles, the cells of other pieces in its way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    /// The least blocked direction the piece would travel *out* along.
    pub direction: Direction,
    /// Other pieces' 0-based cells on that path, sorted.
    pub cells: Vec<Cell>,
}

/// Whether `cells` can travel in a straight line along one of the six axes
/// from outside a box of `size` into place (equivalently: out of it) with
/// every cell it sweeps free. `taken` says whether a 0-based cell inside the
/// box holds another piece (the piece's own cells must answer `false`).
/// `Ok` names the way out; `Err` the least blocked way and what blocks it.
pub fn slide_path(
    size: [usize; 3],
    cells: &[Cell],
    taken: impl Fn(Cell) -> bool,
) -> Result<Direction, Blocked> {
    let inside = |c: Cell| (0..3).all(|a| c[a] >= 0 && (c[a] as usize) < size[a]);
    let longest = size.iter().copied().max().unwrap_or(1) as i32;
    let mut best: Option<Blocked> = None;
    for (d, step) in DIRECTIONS.iter().enumerate() {
        let mut blockers: Vec<Cell> = Vec::new();
        for k in 1..=longest {
            for c in cells {
                let moved = [c[0] + k * step[0], c[1] + k * step[1], c[2] + k * step[2]];
                if inside(moved) && taken(moved) {
                    blockers.push(moved);
                }
            }
        }
        if blockers.is_empty() {
            return Ok(Direction(d));
        }
        blockers.sort_unstable();
        blockers.dedup();
        if best.as_ref().is_none_or(|b| blockers.len() < b.cells.len()) {
            best = Some(Blocked {
                direction: Direction(d),
                cells: blockers,
            });
        }
    }
    Err(best.unwrap_or(Blocked {
        direction: Direction(0),
        cells: Vec::new(),
    }))
}

/// One step of an assembly: a piece slides in, travelling against
/// `direction` (it would leave along `direction`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Insertion {
    /// Index of the piece.
    pub piece: usize,
    /// The way it would come back out.
    pub out: Direction,
}

/// An order in which a packing can be built in assembly mode: every piece
/// slides straight in through free cells and, with `support`, touches the
/// floor (z = 0) or a piece already in when it arrives. `None` when no order
/// exists. `pieces[i]` are piece `i`'s 0-based cells; empty lists are
/// ignored.
///
/// Without `support`, the reverse of [`disassemble`]'s greedy order is one
/// (greedy removal is complete). With it, greedy removal is not (taking a
/// piece out can leave another one floating), so this searches removal
/// orders depth first and remembers the sets of pieces already shown not
/// to come apart: at most 2^n sets, in practice a handful.
pub fn assembly_order(
    size: [usize; 3],
    pieces: &[Vec<Cell>],
    support: bool,
) -> Option<Vec<Insertion>> {
    assembly_order_from(size, pieces, &[], support)
}

/// [`assembly_order`] from a position part-way: the pieces marked in
/// `already_in` are in the box and stay (they are obstacles and supports,
/// never moved); the order says how the others slide in after them. An
/// unmarked piece whose index is past `already_in`'s end is not in yet.
pub fn assembly_order_from(
    size: [usize; 3],
    pieces: &[Vec<Cell>],
    already_in: &[bool],
    support: bool,
) -> Option<Vec<Insertion>> {
    let mut state = Assembly::new(size, pieces);
    state.stays = (0..pieces.len())
        .map(|p| already_in.get(p).copied().unwrap_or(false))
        .collect();
    let mut removed = Vec::new();
    let mut dead = std::collections::HashSet::new();
    state
        .take_apart(support, &mut removed, &mut dead)
        .then(|| removed.into_iter().rev().collect())
}

/// The board while [`assembly_order`] takes a packing apart.
struct Assembly<'p> {
    size: [usize; 3],
    pieces: &'p [Vec<Cell>],
    owner: Vec<Option<usize>>,
    /// Whether each piece is still in the box.
    present: Vec<bool>,
    /// Pieces that are never taken out (already placed before the order).
    stays: Vec<bool>,
}

impl<'p> Assembly<'p> {
    fn new(size: [usize; 3], pieces: &'p [Vec<Cell>]) -> Self {
        let mut state = Self {
            size,
            pieces,
            owner: vec![None; size[0] * size[1] * size[2]],
            present: pieces.iter().map(|p| !p.is_empty()).collect(),
            stays: vec![false; pieces.len()],
        };
        for (p, cells) in pieces.iter().enumerate() {
            for &c in cells {
                if let Some(i) = state.index(c) {
                    state.owner[i] = Some(p);
                }
            }
        }
        state
    }

    fn index(&self, c: Cell) -> Option<usize> {
        let s = self.size;
        let inside = (0..3).all(|a| c[a] >= 0 && (c[a] as usize) < s[a]);
        inside.then(|| c[0] as usize + s[0] * (c[1] as usize + s[1] * c[2] as usize))
    }

    fn owner_of(&self, c: Cell) -> Option<usize> {
        self.index(c).and_then(|i| self.owner[i])
    }

    fn set(&mut self, piece: usize, present: bool) {
        self.present[piece] = present;
        for &c in &self.pieces[piece] {
            if let Some(i) = self.index(c) {
                self.owner[i] = present.then_some(piece);
            }
        }
    }

    /// Whether piece `p` rests on the floor or on another present piece.
    fn supported(&self, p: usize) -> bool {
        self.pieces[p].iter().any(|c| {
            c[2] == 0
                || DIRECTIONS.iter().any(|d| {
                    self.owner_of([c[0] + d[0], c[1] + d[1], c[2] + d[2]])
                        .is_some_and(|o| o != p)
                })
        })
    }

    /// Removes pieces until none is left (`true`), pushing each removal.
    fn take_apart(
        &mut self,
        support: bool,
        removed: &mut Vec<Insertion>,
        dead: &mut std::collections::HashSet<Vec<bool>>,
    ) -> bool {
        if (0..self.pieces.len()).all(|p| !self.present[p] || self.stays[p]) {
            return true;
        }
        if dead.contains(&self.present) {
            return false;
        }
        for p in 0..self.pieces.len() {
            if !self.present[p] || self.stays[p] || (support && !self.supported(p)) {
                continue;
            }
            let path = slide_path(self.size, &self.pieces[p], |c| {
                self.owner_of(c).is_some_and(|o| o != p)
            });
            let Ok(out) = path else { continue };
            self.set(p, false);
            removed.push(Insertion { piece: p, out });
            if !support {
                // Greedy is complete without support: no backtracking.
                return self.take_apart(support, removed, dead);
            }
            if self.take_apart(support, removed, dead) {
                return true;
            }
            removed.pop();
            self.set(p, true);
        }
        dead.insert(self.present.clone());
        false
    }
}

/// For each solver bit and each of the six directions, the bits further
/// along that direction inside the box: what a piece sweeps when it slides
/// out. Built once per count with `--assembly`.
pub(crate) struct Rays {
    rays: Vec<[Vec<u16>; 6]>,
}

impl Rays {
    /// Rays over the solver's cell numbering (`cells[bit]`, `bit_of`).
    pub(crate) fn new(cells: &[Cell], bit_of: &std::collections::HashMap<Cell, usize>) -> Self {
        let rays = cells
            .iter()
            .map(|&c| {
                std::array::from_fn(|d| {
                    let step = DIRECTIONS[d];
                    let mut out = Vec::new();
                    let mut at = c;
                    loop {
                        at = [at[0] + step[0], at[1] + step[1], at[2] + step[2]];
                        match bit_of.get(&at) {
                            Some(&b) => out.push(b as u16),
                            None => break,
                        }
                    }
                    out
                })
            })
            .collect();
        Self { rays }
    }

    /// Whether the pieces (`pieces[i]`: their solver bits) come apart by
    /// straight slides, greedily (complete: see the module comment).
    /// `owner` is scratch of one entry per bit.
    pub(crate) fn comes_apart(&self, pieces: &[&[u16]], owner: &mut [u32]) -> bool {
        const FREE: u32 = u32::MAX;
        for (p, bits) in pieces.iter().enumerate() {
            for &b in *bits {
                owner[b as usize] = p as u32;
            }
        }
        let mut left: Vec<usize> = (0..pieces.len()).collect();
        while !left.is_empty() {
            let before = left.len();
            left.retain(|&p| {
                let free = (0..6).any(|d| {
                    pieces[p].iter().all(|&b| {
                        self.rays[b as usize][d]
                            .iter()
                            .all(|&r| owner[r as usize] == FREE || owner[r as usize] == p as u32)
                    })
                });
                if free {
                    for &b in pieces[p] {
                        owner[b as usize] = FREE;
                    }
                }
                !free
            });
            if left.len() == before {
                break;
            }
        }
        let apart = left.is_empty();
        for bits in pieces {
            for &b in *bits {
                owner[b as usize] = FREE;
            }
        }
        apart
    }
}
