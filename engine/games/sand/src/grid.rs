//! The grain grid: one bit per grain per row, so physics and flood fills work
//! on whole rows at once.
//!
//! Layout (why): a row of at most 128 grains is one `u128`. Occupancy, the
//! awake flag, the colour (three bit planes holding the palette index) and a
//! piece tag (four planes: which falling piece a grain belongs to, so the
//! game knows when a placed piece has fully settled) are each a `Vec<u128>` with one word per row, top row first. A tick then moves
//! every awake grain of a row with a handful of word operations instead of a
//! branch per grain, and a colour's mask for a row is three ANDs.
//!
//! Invariants:
//! - `awake[y]` and every colour plane are subsets of `occupied[y]`; plane
//!   bits of empty cells are zero.
//! - An asleep (settled) grain has all three cells below it occupied or
//!   outside the grid. Cells only empty when a grain leaves or is removed,
//!   and both wake the three grains above the emptied cell, so when no grain
//!   is awake no grain can move.

use std::fmt;

/// Widest row a grid supports: one `u128` per row.
pub const MAX_WIDTH: usize = 128;
/// Bit planes that hold a grain's colour index.
pub const COLOUR_PLANES: usize = 3;
/// Colours the planes can tell apart.
pub const MAX_COLOURS: usize = 1 << COLOUR_PLANES;
/// Bit planes that hold a grain's piece tag (0 = not a falling piece).
pub const TAG_PLANES: usize = 4;
/// Largest piece tag.
pub const MAX_TAG: u8 = (1 << TAG_PLANES) - 1;
/// All bit planes moved with a grain: colour, then piece tag.
pub const PLANES: usize = COLOUR_PLANES + TAG_PLANES;

/// Why a grid cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// Width outside 1..=128 or height below 2.
    #[error("a grain grid must be 1 to {MAX_WIDTH} grains wide and at least 2 high, not {0}x{1}")]
    Size(usize, usize),
}

/// The grains of a sand board.
#[derive(Clone, PartialEq, Eq)]
pub struct GrainGrid {
    width: usize,
    height: usize,
    /// Bits `0..width` set.
    full: u128,
    occupied: Vec<u128>,
    awake: Vec<u128>,
    planes: [Vec<u128>; PLANES],
    /// Rows that may hold awake grains: `awake_top..=awake_bottom`; empty
    /// when `awake_top > awake_bottom`. Lets an idle tick return at once.
    awake_top: usize,
    awake_bottom: usize,
}

impl GrainGrid {
    /// An empty grid of `width` x `height` grains.
    pub fn new(width: usize, height: usize) -> Result<Self, GridError> {
        if width == 0 || width > MAX_WIDTH || height < 2 {
            return Err(GridError::Size(width, height));
        }
        let full = if width == MAX_WIDTH {
            u128::MAX
        } else {
            (1u128 << width) - 1
        };
        Ok(Self {
            width,
            height,
            full,
            occupied: vec![0; height],
            awake: vec![0; height],
            planes: std::array::from_fn(|_| vec![0; height]),
            awake_top: usize::MAX,
            awake_bottom: 0,
        })
    }

    /// Grains per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows of grains.
    pub fn height(&self) -> usize {
        self.height
    }

    /// A row mask with every column set.
    pub fn full_mask(&self) -> u128 {
        self.full
    }

    /// Occupied cells of row `y` (bit x = column x).
    pub fn occupied_row(&self, y: usize) -> u128 {
        self.occupied[y]
    }

    /// Awake grains of row `y`.
    pub fn awake_row(&self, y: usize) -> u128 {
        self.awake[y]
    }

    /// Grains of row `y` whose colour index is `colour`.
    pub fn colour_row(&self, y: usize, colour: u8) -> u128 {
        let mut mask = self.occupied[y];
        for (plane, rows) in self.planes[..COLOUR_PLANES].iter().enumerate() {
            if colour >> plane & 1 == 1 {
                mask &= rows[y];
            } else {
                mask &= !rows[y];
            }
        }
        mask
    }

    /// The grain at (x, y): its colour index, or `None` when empty.
    pub fn colour_at(&self, x: usize, y: usize) -> Option<u8> {
        if x >= self.width || y >= self.height || self.occupied[y] >> x & 1 == 0 {
            return None;
        }
        let mut colour = 0u8;
        for (plane, rows) in self.planes[..COLOUR_PLANES].iter().enumerate() {
            colour |= ((rows[y] >> x & 1) as u8) << plane;
        }
        Some(colour)
    }

    /// Whether the grain at (x, y) is awake (false for an empty cell).
    pub fn is_awake(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height && self.awake[y] >> x & 1 == 1
    }

    /// Number of grains on the board.
    pub fn grain_count(&self) -> usize {
        self.occupied.iter().map(|r| r.count_ones() as usize).sum()
    }

    /// Number of awake grains.
    pub fn awake_count(&self) -> usize {
        self.awake_rows()
            .map(|y| self.awake[y].count_ones() as usize)
            .sum()
    }

    /// Whether no grain is awake, so none can move.
    pub fn is_settled(&self) -> bool {
        self.awake_rows().all(|y| self.awake[y] == 0)
    }

    /// The rows that may hold awake grains.
    fn awake_rows(&self) -> std::ops::Range<usize> {
        if self.awake_top > self.awake_bottom {
            0..0
        } else {
            self.awake_top..self.awake_bottom + 1
        }
    }

    /// Whether the rectangle of grains `x..x+w`, `y..y+h` is inside the grid
    /// and holds no grain.
    pub fn area_is_empty(&self, x: usize, y: usize, w: usize, h: usize) -> bool {
        if x + w > self.width || y + h > self.height {
            return false;
        }
        let mask = span_mask(x, w);
        self.occupied[y..y + h].iter().all(|row| row & mask == 0)
    }

    /// Fills the rectangle `x..x+w`, `y..y+h` with awake grains of `colour`,
    /// overwriting what was there. The caller checks the area first.
    pub fn fill_area(&mut self, x: usize, y: usize, w: usize, h: usize, colour: u8) {
        self.fill_area_tagged(x, y, w, h, colour, 0);
    }

    /// [`GrainGrid::fill_area`] with grains that carry piece tag `tag`.
    pub fn fill_area_tagged(
        &mut self,
        x: usize,
        y: usize,
        w: usize,
        h: usize,
        colour: u8,
        tag: u8,
    ) {
        let mask = span_mask(x, w) & self.full;
        for row in y..(y + h).min(self.height) {
            self.set_row_bits(row, mask, colour);
            self.set_tag_bits(row, mask, tag);
            self.awake[row] |= mask;
        }
        if h > 0 && y < self.height {
            self.note_awake(y);
            self.note_awake((y + h - 1).min(self.height - 1));
        }
    }

    /// Puts one awake grain of `colour` at (x, y) (overwriting).
    pub fn insert(&mut self, x: usize, y: usize, colour: u8) {
        if x >= self.width || y >= self.height {
            return;
        }
        let bit = 1u128 << x;
        self.set_row_bits(y, bit, colour);
        self.set_tag_bits(y, bit, 0);
        self.awake[y] |= bit;
        self.note_awake(y);
    }

    fn set_tag_bits(&mut self, y: usize, mask: u128, tag: u8) {
        for (plane, rows) in self.planes[COLOUR_PLANES..].iter_mut().enumerate() {
            if tag >> plane & 1 == 1 {
                rows[y] |= mask;
            } else {
                rows[y] &= !mask;
            }
        }
    }

    /// Grains of row `y` carrying piece tag `tag` among `candidates`.
    fn tag_row(&self, y: usize, tag: u8, candidates: u128) -> u128 {
        let mut mask = candidates;
        for (plane, rows) in self.planes[COLOUR_PLANES..].iter().enumerate() {
            if tag >> plane & 1 == 1 {
                mask &= rows[y];
            } else {
                mask &= !rows[y];
            }
        }
        mask
    }

    /// Whether any awake grain carries piece tag `tag`.
    pub fn any_awake_with_tag(&self, tag: u8) -> bool {
        self.awake_rows()
            .any(|y| self.awake[y] != 0 && self.tag_row(y, tag, self.awake[y]) != 0)
    }

    /// Resets tag `tag` to 0 on every grain carrying it (its piece settled,
    /// so the tag can be reused).
    pub fn clear_tag(&mut self, tag: u8) {
        for y in 0..self.height {
            let mask = self.tag_row(y, tag, self.occupied[y]);
            if mask != 0 {
                self.set_tag_bits(y, mask, 0);
            }
        }
    }

    fn set_row_bits(&mut self, y: usize, mask: u128, colour: u8) {
        self.occupied[y] |= mask;
        for (plane, rows) in self.planes[..COLOUR_PLANES].iter_mut().enumerate() {
            if colour >> plane & 1 == 1 {
                rows[y] |= mask;
            } else {
                rows[y] &= !mask;
            }
        }
    }

    /// Removes the grains in `rows` (one mask per grid row) and wakes the
    /// grains that could now move into the emptied cells. Returns how many
    /// grains were removed.
    pub fn remove(&mut self, rows: &[u128]) -> usize {
        let mut removed = 0;
        for (y, &mask) in rows.iter().enumerate().take(self.height) {
            let mask = mask & self.occupied[y];
            if mask == 0 {
                continue;
            }
            removed += mask.count_ones() as usize;
            self.occupied[y] &= !mask;
            self.awake[y] &= !mask;
            for plane in &mut self.planes {
                plane[y] &= !mask;
            }
        }
        // Wake after every removal so a grain above a removed one that is
        // itself removed is not woken.
        for (y, &mask) in rows.iter().enumerate().take(self.height).skip(1) {
            if mask != 0 {
                self.wake_above(y, mask);
            }
        }
        removed
    }

    /// Writes the truly settled grains of each row into `out`: asleep, with
    /// all three cells below holding settled grains or lying outside the
    /// grid (seed 8.4.2: a falling grain is no support). While some grains
    /// fall, an asleep grain can rest on one that is about to move away;
    /// this excludes it.
    pub fn settled_rows(&self, out: &mut [u128]) {
        let last_column = 1u128 << (self.width - 1);
        let mut below = self.full;
        for y in (0..self.height).rev() {
            let supported = below & (below << 1 | 1) & (below >> 1 | last_column);
            let row = self.occupied[y] & !self.awake[y] & supported;
            if let Some(slot) = out.get_mut(y) {
                *slot = row;
            }
            below = row;
        }
    }

    /// Marks every grain awake (used by benchmarks and tools).
    pub fn wake_all(&mut self) {
        self.awake.copy_from_slice(&self.occupied);
        self.awake_top = 0;
        self.awake_bottom = self.height - 1;
    }

    /// Wakes the grains of row `y - 1` that could move into the cells of
    /// `vacated` in row `y`: the ones straight above and diagonally above.
    fn wake_above(&mut self, y: usize, vacated: u128) {
        let above = y - 1;
        let reach = (vacated | vacated << 1 | vacated >> 1) & self.occupied[above];
        if reach != 0 {
            self.awake[above] |= reach;
            self.note_awake(above);
        }
    }

    fn note_awake(&mut self, y: usize) {
        if self.awake_top > self.awake_bottom {
            self.awake_top = y;
            self.awake_bottom = y;
        } else {
            self.awake_top = self.awake_top.min(y);
            self.awake_bottom = self.awake_bottom.max(y);
        }
    }

    /// Advances the physics one tick; see [`crate::physics`].
    pub fn step(&mut self, bits: &mut super::physics::RandomBits<'_>) {
        if self.awake_top > self.awake_bottom {
            return;
        }
        let bottom = self.height - 1;
        // Grains on the floor can never move: they settle.
        if self.awake_bottom == bottom {
            self.awake[bottom] = 0;
        }
        let top = self.awake_top;
        let mut y = self.awake_bottom.min(bottom - 1);
        let mut landed_top = usize::MAX;
        let mut landed_bottom = 0;
        loop {
            let awake = self.awake[y];
            if awake != 0 && super::physics::step_row(self, y, awake, bits) {
                landed_top = landed_top.min(y + 1);
                landed_bottom = landed_bottom.max(y + 1);
            }
            if y == 0 {
                break;
            }
            y -= 1;
            // Rows above the awake range only matter when a move below
            // woke them.
            if y < top && self.awake[y] == 0 {
                break;
            }
        }
        // Every grain processed has moved (and stays awake where it landed)
        // or settled, so the awake grains are exactly the landed ones.
        self.awake_top = landed_top;
        self.awake_bottom = landed_bottom;
    }

    /// Raw row access for the physics step.
    pub(super) fn rows_mut(&mut self) -> RowsMut<'_> {
        RowsMut {
            full: self.full,
            occupied: &mut self.occupied,
            awake: &mut self.awake,
            planes: &mut self.planes,
        }
    }

    /// The grid as text: one character per grain, top row first, `.` for
    /// empty and `letters[colour]` for a grain.
    pub fn to_text(&self, letters: &[char]) -> String {
        let mut text = String::with_capacity((self.width + 1) * self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                text.push(match self.colour_at(x, y) {
                    None => '.',
                    Some(c) => letters.get(usize::from(c)).copied().unwrap_or('?'),
                });
            }
            text.push('\n');
        }
        text
    }
}

impl fmt::Debug for GrainGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GrainGrid")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("grains", &self.grain_count())
            .field("awake", &self.awake_count())
            .finish()
    }
}

/// Mutable views of a grid's rows, borrowed together for the physics step.
pub(super) struct RowsMut<'a> {
    pub full: u128,
    pub occupied: &'a mut [u128],
    pub awake: &'a mut [u128],
    pub planes: &'a mut [Vec<u128>; PLANES],
}

/// Bits `x..x+w` of a row.
pub fn span_mask(x: usize, w: usize) -> u128 {
    if w == 0 || x >= MAX_WIDTH {
        return 0;
    }
    let ones = if w >= MAX_WIDTH {
        u128::MAX
    } else {
        (1u128 << w) - 1
    };
    ones << x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_round_trip_through_planes() {
        let mut grid = GrainGrid::new(10, 4).unwrap();
        for c in 0..MAX_COLOURS as u8 {
            grid.insert(usize::from(c), 3, c);
        }
        for c in 0..MAX_COLOURS as u8 {
            assert_eq!(grid.colour_at(usize::from(c), 3), Some(c));
            assert_eq!(grid.colour_row(3, c), 1 << c);
        }
        assert_eq!(grid.colour_at(9, 3), None);
        assert_eq!(grid.grain_count(), 8);
    }

    #[test]
    fn area_checks_bounds_and_grains() {
        let mut grid = GrainGrid::new(20, 20).unwrap();
        assert!(grid.area_is_empty(10, 10, 10, 10));
        assert!(!grid.area_is_empty(11, 10, 10, 10));
        grid.insert(15, 19, 1);
        assert!(!grid.area_is_empty(10, 10, 10, 10));
        assert!(grid.area_is_empty(0, 10, 10, 10));
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(GrainGrid::new(129, 10).is_err());
        assert!(GrainGrid::new(0, 10).is_err());
        assert!(GrainGrid::new(128, 2).is_ok());
    }
}
