//! One player's board: the wall as bit masks, pattern lines, floor, score;
//! what a line accepts and what a placement scores.

use super::{
    COLOUR_NAMES, COLOURS, COLUMN_MASK, LINES, ROW_MASK, Rules, bit, wall_colour, wall_column,
};

/// One pattern line: its colour (when it holds tiles) and how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Line {
    /// Colour of the tiles in it (meaningless when `count` is 0).
    pub colour: u8,
    /// Tiles in it (line `i` holds at most `i + 1`).
    pub count: u8,
}

/// One player's board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// Wall tiles, bit `row * 5 + column`.
    pub wall: u32,
    /// Per colour, the wall cells holding it (their union is `wall`). The
    /// engine keeps them with either wall; only the grey wall reads them
    /// (the printed wall's cell colour is fixed by its place).
    pub colours: [u32; COLOURS],
    /// Whether this board's wall is grey (copied from the rules).
    pub grey: bool,
    /// Pattern lines, top (1 tile) to bottom (5 tiles).
    pub lines: [Line; LINES],
    /// Tiles on the floor, per colour.
    pub floor: [u8; COLOURS],
    /// Occupied floor slots (tiles plus the marker), at most 7.
    pub floor_len: u8,
    /// Whether the first-player marker is on this floor.
    pub marker: bool,
    /// The floor slot the marker took (0-based): the leftmost free slot
    /// when it was taken, [`FLOOR_SLOTS`] when the floor was already full
    /// (it then costs nothing). Texts draw the floor in slot order.
    pub marker_slot: u8,
    /// Score so far.
    pub score: i32,
}

impl Board {
    /// Whether the wall holds a tile at `row`, `column`.
    pub fn has(&self, row: usize, column: usize) -> bool {
        self.wall & bit(row, column) != 0
    }

    /// The colour of the tile at `row`, `column`, if any.
    pub fn colour_at(&self, row: usize, column: usize) -> Option<usize> {
        if !self.has(row, column) {
            None
        } else if self.grey {
            (0..COLOURS).find(|&k| self.colours[k] & bit(row, column) != 0)
        } else {
            Some(wall_colour(row, column))
        }
    }

    /// Whether wall row `row` holds `colour`.
    #[inline]
    pub fn row_has(&self, row: usize, colour: usize) -> bool {
        if self.grey {
            (self.colours[colour] >> (row * 5)) & ROW_MASK != 0
        } else {
            self.wall & bit(row, wall_column(row, colour)) != 0
        }
    }

    /// The columns (bit per column) of row `row` where a `colour` tile
    /// may go: the printed wall's one cell if free; on the grey wall every
    /// free cell of a column without that colour, none if the row holds it.
    #[inline]
    pub fn free_columns(&self, row: usize, colour: usize) -> u8 {
        if !self.grey {
            let column = wall_column(row, colour);
            return if self.wall & bit(row, column) == 0 {
                1 << column
            } else {
                0
            };
        }
        let mine = self.colours[colour];
        if (mine >> (row * 5)) & ROW_MASK != 0 {
            return 0;
        }
        let used = (mine | mine >> 5 | mine >> 10 | mine >> 15 | mine >> 20) & ROW_MASK;
        let free = !(self.wall >> (row * 5)) & ROW_MASK;
        (free & !used) as u8
    }

    /// The column a tile of `colour` in row `row` goes to when nobody
    /// chooses: the printed cell, or on the grey wall the legal column
    /// scoring most, then the one with most tiles (column bonus), then the
    /// leftmost. `None` when no column takes it.
    #[inline]
    pub fn target_column(&self, row: usize, colour: usize) -> Option<usize> {
        let mut mask = self.free_columns(row, colour);
        if mask == 0 {
            return None;
        }
        if !self.grey || mask.count_ones() == 1 {
            return Some(mask.trailing_zeros() as usize);
        }
        let mut best = 0;
        let mut best_key = i32::MIN;
        while mask != 0 {
            let column = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let filled = ((self.wall >> column) & COLUMN_MASK).count_ones() as i32;
            let key = self.placement_score(row, column) * 8 + filled;
            if key > best_key {
                best_key = key;
                best = column;
            }
        }
        Some(best)
    }

    /// Whether `colour` may go to pattern line `line` (0-based): an empty
    /// line, or one of that colour with room, and a wall column in its
    /// row that can still take the colour.
    #[inline]
    pub fn accepts(&self, line: usize, colour: usize) -> bool {
        let l = self.lines[line];
        if l.count == 0 {
            self.free_columns(line, colour) != 0
        } else {
            l.colour as usize == colour
                && (l.count as usize) < line + 1
                && (!self.grey || self.free_columns(line, colour) != 0)
        }
    }

    /// Why `colour` may not go to line `line`, in words (for refusals).
    pub fn refusal(&self, line: usize, colour: usize) -> Option<String> {
        let l = self.lines[line];
        if l.count as usize == line + 1 {
            Some(format!("pattern line {} is full", line + 1))
        } else if l.count > 0 && l.colour as usize != colour {
            Some(format!(
                "pattern line {} already holds {}",
                line + 1,
                COLOUR_NAMES[l.colour as usize]
            ))
        } else if self.row_has(line, colour) {
            Some(format!(
                "wall row {} already holds {}",
                line + 1,
                COLOUR_NAMES[colour]
            ))
        } else if self.free_columns(line, colour) == 0 {
            Some(format!(
                "no free column of wall row {} can take {}: each column holds it already or \
                 is full (each colour once per column)",
                line + 1,
                COLOUR_NAMES[colour]
            ))
        } else {
            None
        }
    }

    /// Grey wall: whether row `row` can still be completed: its missing
    /// colours can fill its free cells with no colour twice in a column (a
    /// matching, tried by brute force: at most 5! orders). The printed
    /// wall's rows always can.
    pub fn row_completable(&self, row: usize) -> bool {
        if !self.grey {
            return true;
        }
        let free = !(self.wall >> (row * 5)) & ROW_MASK;
        let missing: u32 = (0..COLOURS)
            .filter(|&k| !self.row_has(row, k))
            .fold(0, |m, k| m | 1 << k);
        // Per colour, the columns it may still take in this row.
        let allowed: [u32; COLOURS] = std::array::from_fn(|k| {
            let m = self.colours[k];
            let used = (m | m >> 5 | m >> 10 | m >> 15 | m >> 20) & ROW_MASK;
            free & !used
        });
        fn fill(colours: u32, free: u32, allowed: &[u32; COLOURS]) -> bool {
            if colours == 0 {
                return true;
            }
            let k = colours.trailing_zeros() as usize;
            let mut options = allowed[k] & free;
            while options != 0 {
                let c = options & options.wrapping_neg();
                options &= options - 1;
                if fill(colours & (colours - 1), free & !c, allowed) {
                    return true;
                }
            }
            false
        }
        fill(missing, free, &allowed)
    }

    /// Tiles of `colour` on the wall.
    #[inline]
    pub fn colour_tiles(&self, colour: usize) -> u32 {
        if self.grey {
            self.colours[colour].count_ones()
        } else {
            (0..LINES)
                .filter(|&r| self.has(r, wall_column(r, colour)))
                .count() as u32
        }
    }

    /// Puts a `colour` tile on the wall at `row`, `column` and scores it;
    /// returns the points.
    #[inline]
    pub(super) fn place(&mut self, row: usize, column: usize, colour: usize) -> i32 {
        let points = self.placement_score(row, column);
        self.wall |= bit(row, column);
        self.colours[colour] |= bit(row, column);
        self.score += points;
        points
    }

    /// Points a tile placed at `row`, `column` scores on this wall (the
    /// tile itself not yet on it): 1 alone, else the horizontal run (if at
    /// least 2) plus the vertical run (if at least 2).
    #[inline]
    pub fn placement_score(&self, row: usize, column: usize) -> i32 {
        let wall = self.wall | bit(row, column);
        let mut h = 1;
        let mut c = column;
        while c > 0 && wall & bit(row, c - 1) != 0 {
            h += 1;
            c -= 1;
        }
        c = column;
        while c < 4 && wall & bit(row, c + 1) != 0 {
            h += 1;
            c += 1;
        }
        let mut v = 1;
        let mut r = row;
        while r > 0 && wall & bit(r - 1, column) != 0 {
            v += 1;
            r -= 1;
        }
        r = row;
        while r < 4 && wall & bit(r + 1, column) != 0 {
            v += 1;
            r += 1;
        }
        if h == 1 && v == 1 {
            1
        } else {
            (if h > 1 { h } else { 0 }) + (if v > 1 { v } else { 0 })
        }
    }

    /// Complete horizontal rows.
    pub fn complete_rows(&self) -> u32 {
        (0..LINES)
            .filter(|r| (self.wall >> (r * 5)) & ROW_MASK == ROW_MASK)
            .count() as u32
    }

    /// Complete vertical columns.
    pub fn complete_columns(&self) -> u32 {
        (0..LINES)
            .filter(|c| (self.wall >> c) & COLUMN_MASK == COLUMN_MASK)
            .count() as u32
    }

    /// Colours with all five tiles on the wall.
    pub fn complete_colours(&self) -> u32 {
        (0..COLOURS)
            .filter(|&k| self.colour_tiles(k) == LINES as u32)
            .count() as u32
    }

    /// The penalty of the current floor (positive).
    pub fn floor_penalty(&self, rules: &Rules) -> i32 {
        rules.floor_penalties[..self.floor_len as usize]
            .iter()
            .sum()
    }

    /// Tiles held by this board (wall, lines, floor).
    pub fn tiles(&self) -> u32 {
        self.wall.count_ones()
            + self.lines.iter().map(|l| u32::from(l.count)).sum::<u32>()
            + self.floor.iter().map(|&n| u32::from(n)).sum::<u32>()
    }
}
