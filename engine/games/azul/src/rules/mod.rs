//! Azul's rules on a compact, `Copy` state: walls are 25-bit masks, every
//! other pile is a count per colour. Nothing here allocates, so AI searches
//! and random playouts copy states freely.
//!
//! Colours are 0..5 in the script's order (blue, yellow, red, green,
//! orange); the wall at row `r`, column `c` holds colour `(c - r) mod 5`
//! (the published shifted pattern, per the rulings).
//!
//! The grey-wall variant ([`Rules::grey_wall`], the published game's
//! variant side) prints no pattern: a full line's tile goes to a column
//! of its row that the player chooses, where that colour is not yet in
//! that column (each colour once per row and once per column); with no
//! such column the line's tiles go to the floor. The tiling phase then
//! becomes a phase of decisions ([`State::tiling`]): players in seat
//! order, each line top first; a line with one legal column is placed at
//! once, one with none falls to the floor, one with two or more waits for
//! a wall move ([`Move::wall`]). Searches and playouts that need no
//! decision call [`State::tile_walls`], which picks columns by
//! [`Board::target_column`] (a heuristic: most adjacency points, then the
//! fullest column).

mod board;
mod deal;
mod moves;
mod table;
mod tiling;

pub use board::{Board, Line};
pub use deal::Deal;
pub use moves::{COLOUR_NAMES, Move, MoveList, Placed};
pub use table::State;
pub use tiling::{STALL_ROUNDS, TilingReport};

/// Number of tile colours.
pub const COLOURS: usize = 5;
/// Most players at one table.
pub const MAX_PLAYERS: usize = 4;
/// Most factories (4 players).
pub const MAX_FACTORIES: usize = 9;
/// Slots on a floor line.
pub const FLOOR_SLOTS: usize = 7;
/// Pattern lines (and wall rows, and wall columns).
pub const LINES: usize = 5;
/// Most tiles a factory holds.
pub const MAX_FACTORY_TILES: usize = 4;
/// Source index of the centre in a [`Move`].
pub const CENTRE: u8 = 255;
/// Target index of the floor in a [`Move`].
pub const FLOOR: u8 = 5;
/// Most legal moves in any position: 10 sources x 5 colours x 6 targets.
pub const MAX_MOVES: usize = (MAX_FACTORIES + 1) * COLOURS * (LINES + 1);
/// Source index of a wall move for row 0; row `r` is `WALL + r` (grey
/// wall only, see [`Move::wall`]).
pub const WALL: u8 = 200;

/// Every tunable number of the rules, read from the script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Points lost for each floor slot, left to right (positive numbers).
    pub floor_penalties: [i32; FLOOR_SLOTS],
    /// Bonus per complete horizontal row at the end.
    pub row_bonus: i32,
    /// Bonus per complete vertical column at the end.
    pub column_bonus: i32,
    /// Bonus per colour with all five tiles on the wall at the end.
    pub colour_bonus: i32,
    /// Tiles of each colour in the game.
    pub tiles_per_colour: u8,
    /// Tiles a factory is filled with.
    pub tiles_per_factory: u8,
    /// Factories for 2, 3 and 4 players.
    pub factories: [u8; 3],
    /// The grey-wall variant: no printed pattern, the player picks each
    /// tile's column (fixed for a whole game).
    pub grey_wall: bool,
}

impl Default for Rules {
    /// The published numbers (also the defaults in `scripts/azul.lua`).
    fn default() -> Self {
        Self {
            floor_penalties: [1, 1, 2, 2, 2, 3, 3],
            row_bonus: 2,
            column_bonus: 7,
            colour_bonus: 10,
            tiles_per_colour: 20,
            tiles_per_factory: 4,
            factories: [5, 7, 9],
            grey_wall: false,
        }
    }
}

impl Rules {
    /// Factories for `players` players.
    pub fn factories_for(&self, players: usize) -> usize {
        self.factories[players.clamp(2, 4) - 2] as usize
    }

    /// Total tiles in the game (the conservation invariant's number).
    pub fn total_tiles(&self) -> u32 {
        u32::from(self.tiles_per_colour) * COLOURS as u32
    }
}

/// The wall column colour `colour` takes in row `row`.
#[inline]
pub fn wall_column(row: usize, colour: usize) -> usize {
    (colour + row) % COLOURS
}

/// The colour of the wall cell at `row`, `column`.
#[inline]
pub fn wall_colour(row: usize, column: usize) -> usize {
    (column + COLOURS - row) % COLOURS
}

#[inline]
fn bit(row: usize, column: usize) -> u32 {
    1 << (row * 5 + column)
}

const ROW_MASK: u32 = 0b11111;

/// Bit k of the index moved to bit 5k (a colour set spread over the
/// per-colour 5-bit fields of a packed line mask).
const SPREAD: [u32; 32] = {
    let mut table = [0u32; 32];
    let mut i = 0;
    while i < 32 {
        let mut k = 0;
        while k < 5 {
            if i & (1 << k) != 0 {
                table[i] |= 1 << (5 * k);
            }
            k += 1;
        }
        i += 1;
    }
    table
};
const COLUMN_MASK: u32 = 1 | 1 << 5 | 1 << 10 | 1 << 15 | 1 << 20;
