//! A design: the box cut into face-connected pieces (each cell's piece),
//! the packing the generator starts from and edits. The level it becomes
//! lists the pieces only, each in its canonical orientation and sorted, so
//! one set of pieces always reads as one text whatever seed made it.

use rand::Rng;
use rand::seq::SliceRandom;
use tessera_host::level::LevelFile;
use tessera_host::rng::GameRng;

use crate::geometry::{Cell, is_connected, signature};
use crate::level::{PieceSpec, PolycubeLevel};
use crate::solver::Solution;

/// A cell no piece holds yet.
pub(super) const FREE: usize = usize::MAX;

/// The box cut into pieces: `owner[cell]` is the piece holding the cell
/// (cells numbered x fastest, then y, then z).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Design {
    /// Box extents.
    pub size: [usize; 3],
    /// The piece of each cell.
    pub owner: Vec<usize>,
    /// How many pieces.
    pub pieces: usize,
}

/// One cube handed from a piece to a neighbouring one: Make unique's edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    /// The cell (index into [`Design::owner`]).
    pub cell: usize,
    /// The piece that gives it up.
    pub from: usize,
    /// The neighbouring piece that takes it.
    pub to: usize,
}

impl Design {
    /// The design of a packing: each piece where `solution` puts it.
    pub fn from_solution(size: [usize; 3], solution: &Solution) -> Option<Self> {
        let mut owner = vec![FREE; size[0] * size[1] * size[2]];
        for (piece, cells) in solution.pieces.iter().enumerate() {
            for &c in cells {
                let i = index(size, c)?;
                owner[i] = piece;
            }
        }
        (!owner.contains(&FREE)).then_some(Self {
            size,
            owner,
            pieces: solution.pieces.len(),
        })
    }

    /// A random cut of the box into pieces of the given sizes (which sum to
    /// the volume): each piece grows from the lowest free cell into random
    /// free neighbours. `None` when a piece was walled in short of its size.
    pub fn random(size: [usize; 3], sizes: &[usize], rng: &mut GameRng) -> Option<Self> {
        let volume = size[0] * size[1] * size[2];
        let mut owner = vec![FREE; volume];
        let mut frontier = Vec::new();
        for (piece, &target) in sizes.iter().enumerate() {
            let start = owner.iter().position(|&o| o == FREE)?;
            owner[start] = piece;
            frontier.clear();
            frontier.extend(neighbours(size, start).filter(|&n| owner[n] == FREE));
            for _ in 1..target {
                frontier.retain(|&n| owner[n] == FREE);
                if frontier.is_empty() {
                    return None;
                }
                let next = frontier.swap_remove(rng.random_range(0..frontier.len()));
                owner[next] = piece;
                frontier.extend(neighbours(size, next).filter(|&n| owner[n] == FREE));
            }
        }
        (!owner.contains(&FREE)).then_some(Self {
            size,
            owner,
            pieces: sizes.len(),
        })
    }

    /// The cells of piece `p` in the box, 0-based.
    pub fn cells_of(&self, p: usize) -> Vec<Cell> {
        (0..self.owner.len())
            .filter(|&i| self.owner[i] == p)
            .map(|i| self.cell(i))
            .collect()
    }

    /// Every piece's cells in the box.
    pub fn shapes(&self) -> Vec<Vec<Cell>> {
        (0..self.pieces).map(|p| self.cells_of(p)).collect()
    }

    /// The pieces' canonical forms (rotation signatures), sorted: two
    /// designs with the same pieces up to rotation have the same.
    pub fn canonical(&self) -> Vec<Vec<Cell>> {
        let mut forms: Vec<Vec<Cell>> = self.shapes().iter().map(|s| signature(s)).collect();
        forms.sort();
        forms
    }

    /// The level: the canonical pieces, named A, B, ... in their sorted
    /// order.
    pub fn to_level(&self, name: String, assembly: bool) -> PolycubeLevel {
        let pieces = self
            .canonical()
            .into_iter()
            .enumerate()
            .map(|(i, cells)| PieceSpec {
                id: piece_id(i),
                cells: cells
                    .iter()
                    .map(|c| {
                        (
                            i64::from(c[0]) + 1,
                            i64::from(c[1]) + 1,
                            i64::from(c[2]) + 1,
                        )
                    })
                    .collect(),
                colour: None,
            })
            .collect();
        let [a, b, c] = self.size;
        PolycubeLevel {
            version: PolycubeLevel::VERSION,
            name,
            size: (a as i64, b as i64, c as i64),
            pieces,
            assembly,
        }
    }

    /// Every legal [`Move`]: a cell on the border of two pieces handed
    /// across, the giver keeping at least `min` cells and staying
    /// connected, the taker growing to at most `max`. In cell order.
    pub fn moves(&self, min: usize, max: usize) -> Vec<Move> {
        let mut sizes = vec![0usize; self.pieces];
        for &o in &self.owner {
            sizes[o] += 1;
        }
        let mut out = Vec::new();
        for cell in 0..self.owner.len() {
            let from = self.owner[cell];
            if sizes[from] <= min {
                continue;
            }
            let mut takers: Vec<usize> = neighbours(self.size, cell)
                .map(|n| self.owner[n])
                .filter(|&to| to != from && sizes[to] < max)
                .collect();
            takers.sort_unstable();
            takers.dedup();
            if takers.is_empty() {
                continue;
            }
            let rest: Vec<Cell> = (0..self.owner.len())
                .filter(|&i| i != cell && self.owner[i] == from)
                .map(|i| self.cell(i))
                .collect();
            if !is_connected(&rest) {
                continue;
            }
            out.extend(takers.into_iter().map(|to| Move { cell, from, to }));
        }
        out
    }

    /// The design with `m` made.
    pub fn with(&self, m: Move) -> Self {
        let mut next = self.clone();
        next.owner[m.cell] = m.to;
        next
    }

    /// The 0-based cell of index `i`.
    pub fn cell(&self, i: usize) -> Cell {
        let [a, b, _] = self.size;
        [(i % a) as i32, ((i / a) % b) as i32, (i / (a * b)) as i32]
    }

    /// A move in words, the box cell 1-based as level files write cells,
    /// the pieces by their ids (`ids` in the level's order).
    pub fn describe(&self, m: Move, ids: &[&str]) -> String {
        let c = self.cell(m.cell);
        let id = |p: usize| {
            ids.get(p)
                .map_or_else(|| format!("{}", p + 1), |id| format!("`{id}`"))
        };
        format!(
            "the cube at ({}, {}, {}) of the packing moves from piece {} to piece {}",
            c[0] + 1,
            c[1] + 1,
            c[2] + 1,
            id(m.from),
            id(m.to)
        )
    }

    /// `level` with each piece's cells replaced by this design's (pieces
    /// in the level's order: ids, colours and the rest kept).
    pub fn apply_to(&self, level: &PolycubeLevel) -> PolycubeLevel {
        let mut out = level.clone();
        for (p, piece) in out.pieces.iter_mut().enumerate() {
            let cells = crate::geometry::normalize(&self.cells_of(p));
            piece.cells = cells
                .iter()
                .map(|c| {
                    (
                        i64::from(c[0]) + 1,
                        i64::from(c[1]) + 1,
                        i64::from(c[2]) + 1,
                    )
                })
                .collect();
        }
        out
    }
}

/// Random piece sizes from `min..=max` summing to `volume` (`None` when
/// no such sizes exist).
pub fn random_sizes(
    volume: usize,
    pieces: usize,
    (min, max): (usize, usize),
    rng: &mut GameRng,
) -> Option<Vec<usize>> {
    if pieces == 0 || pieces * min > volume || pieces * max < volume {
        return None;
    }
    let mut sizes = vec![min; pieces];
    for _ in 0..volume - pieces * min {
        let open: Vec<usize> = (0..pieces).filter(|&p| sizes[p] < max).collect();
        let p = open[rng.random_range(0..open.len())];
        sizes[p] += 1;
    }
    sizes.shuffle(rng);
    Some(sizes)
}

/// The index of a 0-based cell, `None` outside the box.
pub(super) fn index(size: [usize; 3], c: Cell) -> Option<usize> {
    let [x, y, z] = c.map(|v| usize::try_from(v).ok());
    let (x, y, z) = (x?, y?, z?);
    (x < size[0] && y < size[1] && z < size[2]).then_some(x + size[0] * (y + size[1] * z))
}

/// The face neighbours of cell `i` inside the box.
pub(super) fn neighbours(size: [usize; 3], i: usize) -> impl Iterator<Item = usize> {
    let [a, b, c] = size;
    let (x, y, z) = (i % a, (i / a) % b, i / (a * b));
    let steps = [
        (x > 0).then(|| i - 1),
        (x + 1 < a).then(|| i + 1),
        (y > 0).then(|| i - a),
        (y + 1 < b).then(|| i + a),
        (z > 0).then(|| i - a * b),
        (z + 1 < c).then(|| i + a * b),
    ];
    steps.into_iter().flatten()
}

/// `A` to `Z`, then `P27`, `P28`, ...
fn piece_id(i: usize) -> String {
    match u8::try_from(i) {
        Ok(n) if n < 26 => char::from(b'A' + n).to_string(),
        _ => format!("P{}", i + 1),
    }
}
