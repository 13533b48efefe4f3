//! The seven tetrominoes, their orientations inside a rotation box, the two
//! rotation systems (the seed's cycle and SRS with its wall kicks), and the
//! per-orientation row masks the bitboard code shifts around.
//!
//! Coordinates: x grows to the right, y grows downwards (row 0 is the top),
//! as in the seed's `ALL[X,Y]` with X = row. A piece's position is the
//! top-left corner of its rotation box (3x3 for J L S T Z, 4x4 for I, O in
//! the middle of a 4-wide box), so SRS kick offsets apply to it directly.

use std::fmt;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// One of the seven tetrominoes, or one of the eight "special" pentominoes
/// feed mode may offer (RULINGS: shapes beyond the tetrominoes, listed in
/// the script). Pentominoes keep their usual letters; the five whose letter
/// a tetromino already uses (I, L, T, Z and the S-like N is free) are left
/// out, so every piece has one letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PieceKind {
    /// Four in a row.
    I,
    /// The 2x2 square.
    O,
    /// The T.
    T,
    /// S (rises to the right).
    S,
    /// Z (falls to the right).
    Z,
    /// J (hook at the top left when flat).
    J,
    /// L (hook at the top right when flat).
    L,
    /// Pentomino F.
    F,
    /// Pentomino N (four in a row, kinked).
    N,
    /// Pentomino P (a square with a tail).
    P,
    /// Pentomino U.
    U,
    /// Pentomino V (a big corner).
    V,
    /// Pentomino W (stairs).
    W,
    /// Pentomino X (the plus).
    X,
    /// Pentomino Y (four in a row with a bump).
    Y,
}

impl PieceKind {
    /// All seven, in bag order before shuffling.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::I,
        PieceKind::O,
        PieceKind::T,
        PieceKind::S,
        PieceKind::Z,
        PieceKind::J,
        PieceKind::L,
    ];

    /// The special pieces feed mode may offer (the script picks which).
    pub const SPECIALS: [PieceKind; 8] = [
        PieceKind::F,
        PieceKind::N,
        PieceKind::P,
        PieceKind::U,
        PieceKind::V,
        PieceKind::W,
        PieceKind::X,
        PieceKind::Y,
    ];

    /// Every piece: the tetrominoes, then the specials.
    pub const EVERY: [PieceKind; 15] = [
        PieceKind::I,
        PieceKind::O,
        PieceKind::T,
        PieceKind::S,
        PieceKind::Z,
        PieceKind::J,
        PieceKind::L,
        PieceKind::F,
        PieceKind::N,
        PieceKind::P,
        PieceKind::U,
        PieceKind::V,
        PieceKind::W,
        PieceKind::X,
        PieceKind::Y,
    ];

    /// 0..15, the index into [`PieceKind::EVERY`] (0..7 for tetrominoes,
    /// the index into [`PieceKind::ALL`]).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether this is one of the seven tetrominoes.
    #[inline]
    pub fn is_tetromino(self) -> bool {
        self.index() < 7
    }

    /// The letter used in levels, sequences and text pictures.
    pub fn letter(self) -> char {
        match self {
            PieceKind::I => 'I',
            PieceKind::O => 'O',
            PieceKind::T => 'T',
            PieceKind::S => 'S',
            PieceKind::Z => 'Z',
            PieceKind::J => 'J',
            PieceKind::L => 'L',
            PieceKind::F => 'F',
            PieceKind::N => 'N',
            PieceKind::P => 'P',
            PieceKind::U => 'U',
            PieceKind::V => 'V',
            PieceKind::W => 'W',
            PieceKind::X => 'X',
            PieceKind::Y => 'Y',
        }
    }

    /// The piece for a letter (either case).
    pub fn from_letter(letter: char) -> Option<Self> {
        Self::EVERY
            .into_iter()
            .find(|p| p.letter() == letter.to_ascii_uppercase())
    }

    /// Side of the rotation box.
    #[inline]
    pub fn box_size(self) -> i32 {
        match self {
            PieceKind::I | PieceKind::O | PieceKind::N | PieceKind::Y => 4,
            _ => 3,
        }
    }

    /// Colour code of locked cells of this piece: 1..=7 for the
    /// tetrominoes, 9..=16 for the specials (8 is grey garbage, 0 empty).
    pub fn colour(self) -> u8 {
        if self.is_tetromino() {
            self as u8 + 1
        } else {
            self as u8 + 2
        }
    }

    /// The piece whose colour code this is.
    pub fn of_colour(colour: u8) -> Option<Self> {
        Self::EVERY.into_iter().find(|p| p.colour() == colour)
    }

    /// How many cells the piece has (4, or 5 for a special).
    #[inline]
    pub fn cell_count(self) -> usize {
        orientation(self, 0).cells().len()
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// How a piece turns: the script's `rotation` switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RotationSystem {
    /// The seed's rule: step to the next of the piece's distinct
    /// orientations (I, S, Z have 2, O 1, the others 4); a turn that would
    /// collide is refused.
    Cycle,
    /// The Super Rotation System: four states per piece, five kick tests
    /// per turn, both directions.
    Srs,
}

impl RotationSystem {
    /// Reads the script's name for it.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "cycle" => Some(RotationSystem::Cycle),
            "srs" => Some(RotationSystem::Srs),
            _ => None,
        }
    }

    /// The script's name for it.
    pub fn name(self) -> &'static str {
        match self {
            RotationSystem::Cycle => "cycle",
            RotationSystem::Srs => "srs",
        }
    }

    /// Rotation states of `kind` under this system.
    #[inline]
    pub fn states(self, kind: PieceKind) -> u8 {
        match self {
            RotationSystem::Srs => 4,
            RotationSystem::Cycle => TABLE.distinct[kind.index()],
        }
    }

    /// The state after one turn (`clockwise` or not) from `state`.
    #[inline]
    pub fn turned(self, kind: PieceKind, state: u8, clockwise: bool) -> u8 {
        let n = self.states(kind);
        if clockwise {
            (state + 1) % n
        } else {
            (state + n - 1) % n
        }
    }

    /// The offsets to try, in order, for a turn from `from` (box x, y;
    /// y down). The first that fits is taken; none fitting refuses the turn.
    #[inline]
    pub fn kicks(self, kind: PieceKind, from: u8, clockwise: bool) -> &'static [(i8, i8)] {
        match (self, kind) {
            (RotationSystem::Cycle, _) | (RotationSystem::Srs, PieceKind::O | PieceKind::X) => {
                &[(0, 0)]
            }
            // Specials kick like the tetrominoes of their box size.
            (RotationSystem::Srs, PieceKind::I | PieceKind::N | PieceKind::Y) => {
                &I_KICKS[usize::from(from)][usize::from(!clockwise)]
            }
            (RotationSystem::Srs, _) => &JLSTZ_KICKS[usize::from(from)][usize::from(!clockwise)],
        }
    }
}

impl fmt::Display for RotationSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// SRS kick offsets, indexed [from state][0 = clockwise, 1 = counter-
// clockwise], written with y down (the published tables use y up, so every
// y here is negated). States: 0 spawn, 1 = R, 2 = 180, 3 = L.
const JLSTZ_KICKS: [[[(i8, i8); 5]; 2]; 4] = [
    // 0 -> R, 0 -> L
    [
        [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
        [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    ],
    // R -> 2, R -> 0
    [
        [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
        [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
    ],
    // 2 -> L, 2 -> R
    [
        [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
        [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    ],
    // L -> 0, L -> 2
    [
        [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
        [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
    ],
];

const I_KICKS: [[[(i8, i8); 5]; 2]; 4] = [
    // 0 -> R, 0 -> L
    [
        [(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)],
        [(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)],
    ],
    // R -> 2, R -> 0
    [
        [(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)],
        [(0, 0), (2, 0), (-1, 0), (2, -1), (-1, 2)],
    ],
    // 2 -> L, 2 -> R
    [
        [(0, 0), (2, 0), (-1, 0), (2, -1), (-1, 2)],
        [(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)],
    ],
    // L -> 0, L -> 2
    [
        [(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)],
        [(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)],
    ],
];

/// Most cells a piece has (the pentomino specials).
pub const MAX_CELLS: usize = 5;

/// One orientation of one piece, with what the bitboard code needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Orientation {
    /// The cells inside the rotation box (x, y); the first `len` count.
    cell_slots: [(i8, i8); MAX_CELLS],
    len: u8,
    /// Leftmost cell column inside the box.
    pub left: i8,
    /// Topmost cell row inside the box.
    pub top: i8,
    /// Width of the cells' bounding box.
    pub width: i8,
    /// Height of the cells' bounding box.
    pub height: i8,
    /// One mask per bounding-box row, top first; bit 0 = column `left`.
    pub rows: [u64; MAX_CELLS],
    /// The lowest state with the same cells up to a shift (I, S, Z states 2
    /// and 3 equal 0 and 1; all O states equal 0): landings are deduped by
    /// cell set through it.
    pub canonical: u8,
}

impl Orientation {
    /// The cells inside the rotation box (x, y).
    #[inline]
    pub fn cells(&self) -> &[(i8, i8)] {
        &self.cell_slots[..usize::from(self.len)]
    }
}

/// Every orientation of every piece (SRS's four states; the cycle system
/// uses the first 1, 2 or 4 of them).
pub struct PieceTable {
    orientations: [[Orientation; 4]; 15],
    /// Distinct orientations per piece (what the cycle system visits).
    distinct: [u8; 15],
}

impl PieceTable {
    /// Orientation `state` (0..4) of `kind`.
    #[inline]
    pub fn get(&self, kind: PieceKind, state: u8) -> &Orientation {
        &self.orientations[kind.index()][usize::from(state & 3)]
    }
}

/// The shared table, built once.
pub static TABLE: LazyLock<PieceTable> = LazyLock::new(build_table);

/// Orientation `state` of `kind`.
#[inline]
pub fn orientation(kind: PieceKind, state: u8) -> &'static Orientation {
    TABLE.get(kind, state)
}

fn spawn_cells(kind: PieceKind) -> &'static [(i8, i8)] {
    match kind {
        PieceKind::I => &[(0, 1), (1, 1), (2, 1), (3, 1)],
        PieceKind::O => &[(1, 0), (2, 0), (1, 1), (2, 1)],
        PieceKind::T => &[(1, 0), (0, 1), (1, 1), (2, 1)],
        PieceKind::S => &[(1, 0), (2, 0), (0, 1), (1, 1)],
        PieceKind::Z => &[(0, 0), (1, 0), (1, 1), (2, 1)],
        PieceKind::J => &[(0, 0), (0, 1), (1, 1), (2, 1)],
        PieceKind::L => &[(2, 0), (0, 1), (1, 1), (2, 1)],
        // The specials, flat side down where they have one, in the top
        // rows of their box like the tetrominoes.
        PieceKind::F => &[(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)],
        PieceKind::N => &[(2, 0), (3, 0), (0, 1), (1, 1), (2, 1)],
        PieceKind::P => &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)],
        PieceKind::U => &[(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)],
        PieceKind::V => &[(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)],
        PieceKind::W => &[(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)],
        PieceKind::X => &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
        PieceKind::Y => &[(1, 0), (0, 1), (1, 1), (2, 1), (3, 1)],
    }
}

fn describe(cells: &[(i8, i8)]) -> Orientation {
    let left = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let top = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let right = cells.iter().map(|c| c.0).max().unwrap_or(0);
    let bottom = cells.iter().map(|c| c.1).max().unwrap_or(0);
    let mut rows = [0u64; MAX_CELLS];
    let mut cell_slots = [(0, 0); MAX_CELLS];
    for (slot, &(x, y)) in cell_slots.iter_mut().zip(cells) {
        rows[(y - top) as usize] |= 1 << (x - left);
        *slot = (x, y);
    }
    Orientation {
        cell_slots,
        len: cells.len() as u8,
        left,
        top,
        width: right - left + 1,
        height: bottom - top + 1,
        rows,
        canonical: 0,
    }
}

fn build_table() -> PieceTable {
    let orientations = PieceKind::EVERY.map(|kind| {
        let size = kind.box_size() as i8;
        let mut states = [describe(spawn_cells(kind)); 4];
        for s in 1..4 {
            let previous = states[s - 1];
            // The O does not move in its box when turned.
            let cells: Vec<(i8, i8)> = if kind == PieceKind::O {
                previous.cells().to_vec()
            } else {
                previous
                    .cells()
                    .iter()
                    .map(|&(x, y)| (size - 1 - y, x))
                    .collect()
            };
            states[s] = describe(&cells);
        }
        for s in 0..4 {
            states[s].canonical = (0..s)
                .find(|&t| states[t].rows == states[s].rows && states[t].height == states[s].height)
                .unwrap_or(s) as u8;
        }
        states
    });
    // A quarter turn repeats after 1, 2 or 4 steps, so the distinct states
    // are the first ones.
    let distinct = orientations.map(|states| {
        (0..4)
            .filter(|&s| usize::from(states[s].canonical) == s)
            .count() as u8
    });
    PieceTable {
        orientations,
        distinct,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nineteen_distinct_orientations() {
        let distinct: usize = PieceKind::ALL
            .iter()
            .map(|&k| (0..4).filter(|&s| orientation(k, s).canonical == s).count())
            .sum();
        assert_eq!(distinct, 19);
        for kind in PieceKind::ALL {
            assert_eq!(
                (0..4)
                    .filter(|&s| orientation(kind, s).canonical == s)
                    .count(),
                usize::from(RotationSystem::Cycle.states(kind)),
                "{kind}: the cycle system visits each distinct orientation once"
            );
        }
    }

    #[test]
    fn specials_have_five_cells_and_their_symmetries() {
        for kind in PieceKind::SPECIALS {
            assert_eq!(kind.cell_count(), 5, "{kind}");
            assert!(!kind.is_tetromino());
            assert_eq!(PieceKind::from_letter(kind.letter()), Some(kind));
            assert_eq!(PieceKind::of_colour(kind.colour()), Some(kind));
        }
        let cycle = |k| RotationSystem::Cycle.states(k);
        assert_eq!(cycle(PieceKind::X), 1, "the plus looks the same every way");
        assert_eq!(cycle(PieceKind::U), 4);
        assert_eq!(cycle(PieceKind::N), 4);
        let colours: std::collections::BTreeSet<u8> =
            PieceKind::EVERY.iter().map(|k| k.colour()).collect();
        assert_eq!(colours.len(), 15, "one colour code per piece");
        assert!(!colours.contains(&8), "8 stays grey garbage");
    }

    #[test]
    fn srs_t_right_state_has_its_stem_right() {
        let r = orientation(PieceKind::T, 1);
        assert_eq!(r.rows[..3], [0b1, 0b11, 0b1]);
        assert_eq!((r.left, r.top), (1, 0));
    }
}
