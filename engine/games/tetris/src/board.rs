//! The board as bit rows: one `u64` per row, bit x = column x, row 0 at the
//! top. Up to 64 x 64 cells; copying a board is a 520-byte memcpy, which
//! is what the move generator and the puzzle search rely on.

use crate::piece::{PieceKind, orientation};

/// Most rows and columns a board may have.
pub const MAX_SIZE: usize = 64;

/// Occupancy of the board (colours live with the game, not here, so the
/// search copies only bits).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    width: u8,
    height: u8,
    rows: [u64; MAX_SIZE],
}

impl Board {
    /// An empty board; sizes are clamped to 1..=64 (levels are checked
    /// before they get here).
    pub fn new(width: usize, height: usize) -> Self {
        Self {
            width: width.clamp(1, MAX_SIZE) as u8,
            height: height.clamp(1, MAX_SIZE) as u8,
            rows: [0; MAX_SIZE],
        }
    }

    /// Columns.
    #[inline]
    pub fn width(&self) -> usize {
        usize::from(self.width)
    }

    /// Rows.
    #[inline]
    pub fn height(&self) -> usize {
        usize::from(self.height)
    }

    /// The mask of a full row.
    #[inline]
    pub fn full_row(&self) -> u64 {
        if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        }
    }

    /// The occupancy mask of row `y`.
    #[inline]
    pub fn row(&self, y: usize) -> u64 {
        self.rows[y]
    }

    /// All rows, top first.
    #[inline]
    pub fn rows(&self) -> &[u64] {
        &self.rows[..self.height()]
    }

    /// Whether (x, y) is filled; outside the board counts as filled.
    #[inline]
    pub fn filled(&self, x: i32, y: i32) -> bool {
        if x < 0 || y < 0 || x >= i32::from(self.width) || y >= i32::from(self.height) {
            return true;
        }
        self.rows[y as usize] >> x & 1 == 1
    }

    /// Fills or empties one cell (inside the board; outside is ignored).
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, on: bool) {
        if x < self.width() && y < self.height() {
            if on {
                self.rows[y] |= 1 << x;
            } else {
                self.rows[y] &= !(1 << x);
            }
        }
    }

    /// Whether `kind` in `state` with its box at (x, y) lies inside the
    /// board on empty cells.
    #[inline]
    pub fn fits(&self, kind: PieceKind, state: u8, x: i32, y: i32) -> bool {
        let o = orientation(kind, state);
        let p = x + i32::from(o.left);
        let q = y + i32::from(o.top);
        if p < 0
            || q < 0
            || p + i32::from(o.width) > i32::from(self.width)
            || q + i32::from(o.height) > i32::from(self.height)
        {
            return false;
        }
        let (p, q) = (p as u32, q as usize);
        (0..o.height as usize).all(|i| self.rows[q + i] & (o.rows[i] << p) == 0)
    }

    /// Fills the cells of `kind` in `state` at (x, y) (which must fit).
    #[inline]
    pub fn place(&mut self, kind: PieceKind, state: u8, x: i32, y: i32) {
        let o = orientation(kind, state);
        for &(dx, dy) in o.cells() {
            let (cx, cy) = (x + i32::from(dx), y + i32::from(dy));
            if cx >= 0 && cy >= 0 {
                self.set(cx as usize, cy as usize, true);
            }
        }
    }

    /// Removes full rows, moving the rows above down; returns the mask of
    /// cleared rows (bit y = row y before the clear). Allocation-free.
    #[inline]
    pub fn clear_full_rows(&mut self) -> u64 {
        let full = self.full_row();
        let height = self.height();
        // Most locks clear nothing: find that out before moving any row.
        if !self.rows[..height].contains(&full) {
            return 0;
        }
        let mut cleared = 0u64;
        let mut write = height;
        for read in (0..height).rev() {
            if self.rows[read] == full {
                cleared |= 1 << read;
                continue;
            }
            write -= 1;
            self.rows[write] = self.rows[read];
        }
        for row in &mut self.rows[..write] {
            *row = 0;
        }
        cleared
    }

    /// Filled cells.
    #[inline]
    pub fn count(&self) -> u32 {
        self.rows().iter().map(|r| r.count_ones()).sum()
    }

    /// Whether no cell is filled.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rows().iter().all(|&r| r == 0)
    }

    /// The board as text: `#` filled, `.` empty, top row first.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for y in 0..self.height() {
            for x in 0..self.width() {
                out.push(if self.rows[y] >> x & 1 == 1 { '#' } else { '.' });
            }
            out.push('\n');
        }
        out
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Board {}x{}\n{}",
            self.width,
            self.height,
            self.to_text()
        )
    }
}

/// Spawn position (box top-left) of `kind` on a board `width` wide: the box
/// centred, left of centre on even widths, its top on row 0 (RULINGS).
#[inline]
pub fn spawn_position(kind: PieceKind, width: usize) -> (i32, i32) {
    ((width as i32 - kind.box_size()).div_euclid(2), 0)
}

impl Board {
    /// Removes the rows in `mask` (bit y = row y), moving the rows above
    /// down: what a clear does to a layer that is not itself full (the
    /// garbage cells).
    #[inline]
    pub fn clear_rows(&mut self, mask: u64) {
        let height = self.height();
        let mut write = height;
        for read in (0..height).rev() {
            if mask >> read & 1 == 1 {
                continue;
            }
            write -= 1;
            self.rows[write] = self.rows[read];
        }
        for row in &mut self.rows[..write] {
            *row = 0;
        }
    }
}
