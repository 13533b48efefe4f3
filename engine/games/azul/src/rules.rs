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

use rand::Rng;

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
    fn place(&mut self, row: usize, column: usize, colour: usize) -> i32 {
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

/// Colour names, in the script's order (used in texts and records).
pub const COLOUR_NAMES: [&str; COLOURS] = ["blue", "yellow", "red", "green", "orange"];

/// One move: take `colour` from `source` (a factory, or [`CENTRE`]) and
/// put it on pattern line `target` (0-based) or the [`FLOOR`]. On the
/// grey wall, while tiling, a wall move ([`Move::wall`]): `source` is
/// [`WALL`] + row, `target` the column, `colour` 0 (the line's colour is
/// known).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// Factory index, or [`CENTRE`]; [`WALL`] + row for a wall move.
    pub source: u8,
    /// Colour 0..5 (0 in a wall move).
    pub colour: u8,
    /// Pattern line 0..5, or [`FLOOR`]; the column 0..5 of a wall move.
    pub target: u8,
}

impl Move {
    /// The wall move putting row `row`'s tile in column `column`.
    pub fn wall(row: usize, column: usize) -> Self {
        Self {
            source: WALL + row as u8,
            colour: 0,
            target: column as u8,
        }
    }

    /// The row of a wall move (`None` for a take).
    #[inline]
    pub fn wall_row(self) -> Option<usize> {
        let row = self.source.wrapping_sub(WALL);
        ((row as usize) < LINES).then_some(row as usize)
    }
}

/// One thing the (grey) tiling did, for events and animations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// The player, from 0.
    pub player: u8,
    /// The wall row (and pattern line), from 0.
    pub row: u8,
    /// The colour.
    pub colour: u8,
    /// The column, or `None` when the line's tiles fell to the floor.
    pub column: Option<u8>,
    /// Points scored (0 for the floor).
    pub points: i32,
    /// Whether a player chose the column (else it was the only one).
    pub chosen: bool,
}

/// A fixed-capacity list of moves (no allocation in searches).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self {
            moves: [Move::default(); MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    /// The moves.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, mutable (for ordering).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Keeps the first `len` moves.
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    #[inline]
    fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }
}

/// What the tiling phase of one round did, for events and records.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TilingReport {
    /// Per player: points from wall tiles placed this phase.
    pub gained: [i32; MAX_PLAYERS],
    /// Per player: floor points lost (after clamping at 0).
    pub lost: [i32; MAX_PLAYERS],
    /// Per player: end bonuses (only when the game ended).
    pub bonus: [i32; MAX_PLAYERS],
    /// Whether the game ended.
    pub game_over: bool,
    /// Grey wall: the game ended because no wall could complete a row any
    /// more (each row lacks a colour every free column of it already
    /// holds), so the usual end could never come.
    pub stalled: bool,
}

/// The whole table, `Copy`, with no random generator (dealing takes one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// The numbers in force.
    pub rules: Rules,
    /// Players (2..=4).
    pub players: u8,
    /// Factories in play.
    pub factory_count: u8,
    /// Boards, one per player.
    pub boards: [Board; MAX_PLAYERS],
    /// Factory contents, per colour.
    pub factories: [[u8; COLOURS]; MAX_FACTORIES],
    /// Centre contents, per colour.
    pub centre: [u8; COLOURS],
    /// Whether the first-player marker is still in the centre.
    pub marker_in_centre: bool,
    /// The bag, per colour.
    pub bag: [u8; COLOURS],
    /// The box lid (discards that refill the bag), per colour.
    pub lid: [u8; COLOURS],
    /// Tiles on factories and centre (0 ends the taking phase).
    pub on_table: u8,
    /// The player to move.
    pub to_move: u8,
    /// Who starts the next round (the marker's taker).
    pub next_first: u8,
    /// Round number, from 1.
    pub round: u16,
    /// Whether the game is over.
    pub over: bool,
    /// Grey wall: the tiling waits for `to_move`'s column choice for its
    /// first full line ([`State::pending_choice`]).
    pub tiling: bool,
}

/// One deal: per factory, its tiles in the order drawn (255 = empty slot).
pub type Deal = [[u8; MAX_FACTORY_TILES]; MAX_FACTORIES];

impl State {
    /// A fresh table: every tile in the bag, nothing dealt yet (call
    /// [`State::deal`]).
    pub fn new(rules: Rules, players: usize) -> Self {
        let players = players.clamp(2, MAX_PLAYERS);
        let board = Board {
            grey: rules.grey_wall,
            ..Board::default()
        };
        Self {
            rules,
            players: players as u8,
            factory_count: rules.factories_for(players).min(MAX_FACTORIES) as u8,
            boards: [board; MAX_PLAYERS],
            factories: [[0; COLOURS]; MAX_FACTORIES],
            centre: [0; COLOURS],
            marker_in_centre: true,
            bag: [rules.tiles_per_colour; COLOURS],
            lid: [0; COLOURS],
            on_table: 0,
            to_move: 0,
            next_first: 0,
            round: 1,
            over: false,
            tiling: false,
        }
    }

    /// Fills the factories from the bag (refilling the bag from the lid
    /// when it runs out; both empty: the round starts with what was
    /// dealt). Writes the draw order into `deal` when given. Ends the game
    /// when nothing at all could be dealt (no move would exist).
    pub fn deal<R: Rng + ?Sized>(&mut self, rng: &mut R, mut deal: Option<&mut Deal>) {
        let mut bag_total: u32 = self.bag.iter().map(|&n| u32::from(n)).sum();
        let per_factory = (self.rules.tiles_per_factory as usize).min(MAX_FACTORY_TILES);
        if let Some(d) = deal.as_deref_mut() {
            *d = [[255; MAX_FACTORY_TILES]; MAX_FACTORIES];
        }
        'factories: for f in 0..self.factory_count as usize {
            for slot in 0..per_factory {
                if bag_total == 0 {
                    self.bag = self.lid;
                    self.lid = [0; COLOURS];
                    bag_total = self.bag.iter().map(|&n| u32::from(n)).sum();
                    if bag_total == 0 {
                        break 'factories;
                    }
                }
                let pick = rng.random_range(0..bag_total);
                // The colour whose run of the bag's tiles holds `pick`
                // (branch-free: draws are unpredictable by design).
                let mut edge = 0u32;
                let mut colour = 0usize;
                for k in 0..COLOURS - 1 {
                    edge += u32::from(self.bag[k]);
                    colour += usize::from(pick >= edge);
                }
                self.bag[colour] -= 1;
                bag_total -= 1;
                self.factories[f][colour] += 1;
                self.on_table += 1;
                if let Some(d) = deal.as_deref_mut() {
                    d[f][slot] = colour as u8;
                }
            }
        }
        if self.on_table == 0 {
            // Every tile sits on walls and pattern lines: no move exists,
            // so the game cannot go on.
            self.finish_game(&mut TilingReport::default());
        }
        self.debug_check();
    }

    /// Tiles of `colour` at `source`.
    #[inline]
    pub fn source_count(&self, source: u8, colour: usize) -> u8 {
        if source == CENTRE {
            self.centre[colour]
        } else {
            self.factories[source as usize][colour]
        }
    }

    /// Per colour, the pattern lines (bit per line) the player to move
    /// may put it on.
    #[inline]
    pub fn accept_masks(&self) -> [u8; COLOURS] {
        let board = &self.boards[self.to_move as usize];
        if board.grey {
            let mut masks = [0u8; COLOURS];
            for line in 0..LINES {
                for (k, mask) in masks.iter_mut().enumerate() {
                    *mask |= u8::from(board.accepts(line, k)) << line;
                }
            }
            return masks;
        }
        // Bit 5k + line: colour k may go to `line`. Built branch-free.
        let mut packed = 0u32;
        for (line, l) in board.lines.iter().enumerate() {
            // Free wall cells of this row, as colours: colour k sits in
            // column (k + line) mod 5, so rotate right by `line`.
            let free = !(board.wall >> (line * 5)) & 0b11111;
            let rotated = ((free >> line) | (free << (5 - line))) & 0b11111;
            let empty = u32::from(l.count == 0).wrapping_neg();
            let partial = u32::from(l.count != 0 && (l.count as usize) < line + 1).wrapping_neg();
            let colours = (rotated & empty) | ((1u32 << (l.colour & 7)) & 0b11111 & partial);
            packed |= SPREAD[colours as usize] << line;
        }
        let mut masks = [0u8; COLOURS];
        for (k, mask) in masks.iter_mut().enumerate() {
            *mask = ((packed >> (5 * k)) & 0b11111) as u8;
        }
        masks
    }

    /// Every legal move of the player to move, in a fixed order (sources
    /// in order, centre last; colours; lines top down, floor last).
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.len = 0;
        if self.over {
            return;
        }
        if self.tiling {
            if let Some((row, _, mut mask)) = self.pending_choice() {
                while mask != 0 {
                    out.push(Move::wall(row, mask.trailing_zeros() as usize));
                    mask &= mask - 1;
                }
            }
            return;
        }
        let masks = self.accept_masks();
        let push_source = |source: u8, counts: &[u8; COLOURS], out: &mut MoveList| {
            for (colour, &n) in counts.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let mut mask = masks[colour];
                while mask != 0 {
                    let line = mask.trailing_zeros() as u8;
                    mask &= mask - 1;
                    out.push(Move {
                        source,
                        colour: colour as u8,
                        target: line,
                    });
                }
                out.push(Move {
                    source,
                    colour: colour as u8,
                    target: FLOOR,
                });
            }
        };
        for f in 0..self.factory_count as usize {
            push_source(f as u8, &self.factories[f], out);
        }
        push_source(CENTRE, &self.centre, out);
    }

    /// A uniformly random legal move, without listing them all (random
    /// playouts): picks among (colour, source, target) by counting, with
    /// no branch per source. `None` when the game is over or the table is
    /// empty. Draws with a multiply-shift (bias below 1e-7, irrelevant for
    /// playouts; the rules' deal uses exact draws).
    // Parallel per-colour arrays read clearer indexed than zipped.
    #[allow(clippy::needless_range_loop)]
    #[inline]
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        if self.over {
            return None;
        }
        if self.tiling {
            let (row, _, mut mask) = self.pending_choice()?;
            for _ in 0..rng.random_range(0..mask.count_ones()) {
                mask &= mask - 1;
            }
            return Some(Move::wall(row, mask.trailing_zeros() as usize));
        }
        let masks = self.accept_masks();
        let factories = &self.factories[..self.factory_count as usize];
        // Per colour: sources holding it, and targets it may go to.
        let mut holders = [0u32; COLOURS];
        for f in factories {
            for k in 0..COLOURS {
                holders[k] += u32::from(f[k] != 0);
            }
        }
        for k in 0..COLOURS {
            holders[k] += u32::from(self.centre[k] != 0);
        }
        let mut targets = [0u32; COLOURS];
        let mut total = 0;
        for k in 0..COLOURS {
            targets[k] = masks[k].count_ones() + 1;
            total += holders[k] * targets[k];
        }
        if total == 0 {
            return None;
        }
        let mut pick = ((u64::from(rng.next_u32()) * u64::from(total)) >> 32) as u32;
        let mut colour = 0;
        while pick >= holders[colour] * targets[colour] {
            pick -= holders[colour] * targets[colour];
            colour += 1;
        }
        let mut nth_holder = pick / targets[colour];
        let nth_target = pick % targets[colour];
        let mut source = CENTRE;
        for (f, counts) in factories.iter().enumerate() {
            if counts[colour] != 0 {
                if nth_holder == 0 {
                    source = f as u8;
                    break;
                }
                nth_holder -= 1;
            }
        }
        let mut mask = masks[colour];
        for _ in 0..nth_target {
            mask &= mask - 1;
        }
        let target = if mask == 0 {
            FLOOR
        } else {
            mask.trailing_zeros() as u8
        };
        Some(Move {
            source,
            colour: colour as u8,
            target,
        })
    }

    /// Why `m` is illegal now, or `None` when it is legal.
    pub fn refusal(&self, m: Move) -> Option<String> {
        if self.over {
            return Some("the game is over".into());
        }
        if let Some(row) = m.wall_row() {
            return self.wall_refusal(row, m);
        }
        if self.tiling {
            let who = self.to_move + 1;
            return Some(match self.pending_choice() {
                Some((row, colour, _)) => format!(
                    "the walls are being tiled: player {who} chooses the wall column of \
                     line {} ({})",
                    row + 1,
                    COLOUR_NAMES[colour]
                ),
                None => "the walls are being tiled".into(),
            });
        }
        let colour = m.colour as usize;
        if colour >= COLOURS {
            return Some(format!("there is no colour {}", m.colour));
        }
        if m.source != CENTRE && m.source >= self.factory_count {
            return Some(format!(
                "there is no factory {} (factories 1 to {})",
                u32::from(m.source) + 1,
                self.factory_count
            ));
        }
        if self.source_count(m.source, colour) == 0 {
            let place = if m.source == CENTRE {
                "the centre".to_string()
            } else {
                format!("factory {}", u32::from(m.source) + 1)
            };
            return Some(format!("{place} holds no {}", COLOUR_NAMES[colour]));
        }
        if m.target == FLOOR {
            return None;
        }
        if m.target as usize >= LINES {
            return Some(format!(
                "there is no pattern line {}",
                u32::from(m.target) + 1
            ));
        }
        self.boards[self.to_move as usize].refusal(m.target as usize, colour)
    }

    /// Why the wall move `m` (for row `row`) is illegal now.
    fn wall_refusal(&self, row: usize, m: Move) -> Option<String> {
        if !self.tiling {
            return Some(if self.rules.grey_wall {
                "no wall column is being chosen now: the walls are tiled when the \
                 factories and the centre are empty"
                    .into()
            } else {
                "this wall has a printed pattern: each tile's column is fixed".into()
            });
        }
        let Some((pending, colour, mask)) = self.pending_choice() else {
            return Some("no wall column is being chosen now".into());
        };
        if m.colour != 0 {
            return Some("a wall move names no colour (the line's colour is known)".into());
        }
        if row != pending {
            return Some(format!(
                "player {} places line {} first (top line first), not line {}",
                self.to_move + 1,
                pending + 1,
                row + 1
            ));
        }
        let column = m.target as usize;
        if column >= LINES {
            return Some(format!("there is no wall column {}", column + 1));
        }
        if mask & (1 << column) != 0 {
            return None;
        }
        let board = &self.boards[self.to_move as usize];
        Some(if board.has(row, column) {
            format!("wall row {}, column {} is taken", row + 1, column + 1)
        } else {
            format!(
                "wall column {} already holds {}",
                column + 1,
                COLOUR_NAMES[colour]
            )
        })
    }

    /// Grey wall, while tiling: the choice waiting for the player to move:
    /// its first full line's row, colour and legal columns (bit per
    /// column, at least two).
    pub fn pending_choice(&self) -> Option<(usize, usize, u8)> {
        if !self.tiling {
            return None;
        }
        let board = &self.boards[self.to_move as usize];
        (0..LINES).find_map(|row| {
            let line = board.lines[row];
            (line.count as usize == row + 1).then(|| {
                let colour = line.colour as usize;
                (row, colour, board.free_columns(row, colour))
            })
        })
    }

    /// Starts the tiling phase as a phase of decisions (the taking phase
    /// just ended): places every tile with one legal column, drops lines
    /// with none to the floor, and stops at the first choice of two or
    /// more columns (then `to_move` chooses; see [`State::pending_choice`]).
    /// Returns true when no choice is left: call [`State::tile_walls`] to
    /// score the floors and end the round. With the printed wall nothing
    /// is decided: returns true at once.
    pub fn begin_tiling(&mut self, log: Option<&mut Vec<Placed>>) -> bool {
        if !self.rules.grey_wall {
            return true;
        }
        self.tiling = true;
        self.to_move = 0;
        self.resolve_tiling(false, log)
    }

    /// Plays a legal wall move (check with [`State::refusal`]) and goes on
    /// with the tiling as [`State::begin_tiling`] does. Returns true when
    /// no choice is left.
    pub fn choose_column(&mut self, m: Move, mut log: Option<&mut Vec<Placed>>) -> bool {
        let p = self.to_move as usize;
        if let (Some(row), Some((_, colour, _))) = (m.wall_row(), self.pending_choice()) {
            let column = m.target as usize;
            let points = self.place_line(p, row, colour, column);
            if let Some(log) = log.as_deref_mut() {
                log.push(Placed {
                    player: p as u8,
                    row: row as u8,
                    colour: colour as u8,
                    column: Some(column as u8),
                    points,
                    chosen: true,
                });
            }
        }
        let done = self.resolve_tiling(false, log);
        self.debug_check();
        done
    }

    /// Moves a full line's tile to the wall (the rest to the lid).
    #[inline]
    fn place_line(&mut self, p: usize, row: usize, colour: usize, column: usize) -> i32 {
        let board = &mut self.boards[p];
        let count = board.lines[row].count;
        let points = board.place(row, column, colour);
        board.lines[row] = Line::default();
        self.lid[colour] += count - 1;
        points
    }

    /// Grey tiling from the current player on: places forced tiles, drops
    /// lines without a column to the floor, and either picks columns
    /// itself (`auto`) or stops at a choice. Returns true when done.
    fn resolve_tiling(&mut self, auto: bool, mut log: Option<&mut Vec<Placed>>) -> bool {
        for p in self.to_move as usize..self.players as usize {
            for row in 0..LINES {
                let line = self.boards[p].lines[row];
                if line.count as usize != row + 1 {
                    continue;
                }
                let colour = line.colour as usize;
                let mask = self.boards[p].free_columns(row, colour);
                let placed = if mask == 0 {
                    // Published rule: every tile of the line to the floor.
                    let board = &mut self.boards[p];
                    let room = FLOOR_SLOTS as u8 - board.floor_len;
                    let on_floor = line.count.min(room);
                    board.floor[colour] += on_floor;
                    board.floor_len += on_floor;
                    self.lid[colour] += line.count - on_floor;
                    board.lines[row] = Line::default();
                    Placed {
                        player: p as u8,
                        row: row as u8,
                        colour: colour as u8,
                        column: None,
                        points: 0,
                        chosen: false,
                    }
                } else if mask.count_ones() == 1 || auto {
                    let column = self.boards[p]
                        .target_column(row, colour)
                        .unwrap_or(mask.trailing_zeros() as usize);
                    let points = self.place_line(p, row, colour, column);
                    Placed {
                        player: p as u8,
                        row: row as u8,
                        colour: colour as u8,
                        column: Some(column as u8),
                        points,
                        chosen: false,
                    }
                } else {
                    self.to_move = p as u8;
                    self.tiling = true;
                    return false;
                };
                if let Some(log) = log.as_deref_mut() {
                    log.push(placed);
                }
            }
        }
        self.tiling = false;
        true
    }

    /// Plays a legal move (check with [`State::refusal`] first). Returns
    /// true when it ended the taking phase: call [`State::tile_walls`]
    /// next (or, to let players choose grey-wall columns,
    /// [`State::begin_tiling`]), then [`State::deal`] unless the game is
    /// over. A wall move returns true when the tiling has no choice left.
    #[inline]
    pub fn play(&mut self, m: Move) -> bool {
        if m.wall_row().is_some() {
            return self.choose_column(m, None);
        }
        let player = self.to_move as usize;
        let colour = m.colour as usize;
        let taken;
        if m.source == CENTRE {
            taken = self.centre[colour];
            self.centre[colour] = 0;
            if self.marker_in_centre {
                self.marker_in_centre = false;
                self.next_first = player as u8;
                let board = &mut self.boards[player];
                board.marker = true;
                if (board.floor_len as usize) < FLOOR_SLOTS {
                    board.floor_len += 1;
                }
            }
            self.on_table -= taken;
        } else {
            let f = m.source as usize;
            taken = self.factories[f][colour];
            let mut rest = 0;
            for k in 0..COLOURS {
                if k != colour {
                    self.centre[k] += self.factories[f][k];
                    rest += self.factories[f][k];
                }
            }
            self.factories[f] = [0; COLOURS];
            self.on_table -= taken;
            let _ = rest;
        }
        let board = &mut self.boards[player];
        let mut overflow = taken;
        if m.target != FLOOR {
            let line = &mut board.lines[m.target as usize];
            let room = m.target + 1 - line.count;
            let put = taken.min(room);
            line.colour = m.colour;
            line.count += put;
            overflow = taken - put;
        }
        if overflow > 0 {
            let room = FLOOR_SLOTS as u8 - board.floor_len;
            let on_floor = overflow.min(room);
            board.floor[colour] += on_floor;
            board.floor_len += on_floor;
            self.lid[colour] += overflow - on_floor;
        }
        self.to_move = ((player + 1) % self.players as usize) as u8;
        self.debug_check();
        self.on_table == 0
    }

    /// The wall-tiling phase: every player, top line first, moves the tile
    /// of each full line to the wall and scores it, the rest of the line to
    /// the lid; then loses floor points (never below 0). Ends the game when
    /// a row is complete (adding the bonuses); otherwise prepares the next
    /// round (marker back in the centre, its taker to move).
    ///
    /// On the grey wall the columns nobody chose yet are picked by
    /// [`Board::target_column`]; a tiling begun with
    /// [`State::begin_tiling`] goes on from its current player (and
    /// `gained` counts only what this call placed).
    pub fn tile_walls(&mut self) -> TilingReport {
        let mut report = TilingReport::default();
        if self.rules.grey_wall {
            if !self.tiling {
                self.to_move = 0;
            }
            let before: [i32; MAX_PLAYERS] = std::array::from_fn(|p| self.boards[p].score);
            self.resolve_tiling(true, None);
            for (p, gained) in report.gained.iter_mut().enumerate() {
                *gained = self.boards[p].score - before[p];
            }
        }
        let rules = self.rules;
        let mut row_done = false;
        for p in 0..self.players as usize {
            let board = &mut self.boards[p];
            for row in 0..LINES {
                let line = board.lines[row];
                if line.count as usize == row + 1 {
                    let colour = line.colour as usize;
                    let column = wall_column(row, colour);
                    let points = board.place(row, column, colour);
                    report.gained[p] += points;
                    self.lid[colour] += line.count - 1;
                    board.lines[row] = Line::default();
                }
            }
            let penalty = board.floor_penalty(&rules);
            let before = board.score;
            board.score = (board.score - penalty).max(0);
            report.lost[p] = before - board.score;
            for k in 0..COLOURS {
                self.lid[k] += board.floor[k];
            }
            board.floor = [0; COLOURS];
            board.floor_len = 0;
            board.marker = false;
            row_done |= board.complete_rows() > 0;
        }
        self.marker_in_centre = true;
        self.to_move = self.next_first;
        if !row_done && rules.grey_wall && !self.any_row_completable() {
            report.stalled = true;
            self.finish_game(&mut report);
        } else if row_done {
            self.finish_game(&mut report);
        } else {
            self.round += 1;
        }
        self.debug_check();
        report
    }

    /// Grey wall: whether some player can still complete some row.
    fn any_row_completable(&self) -> bool {
        self.boards[..self.players as usize]
            .iter()
            .any(|b| (0..LINES).any(|r| b.row_completable(r)))
    }

    fn finish_game(&mut self, report: &mut TilingReport) {
        let rules = self.rules;
        for p in 0..self.players as usize {
            let board = &mut self.boards[p];
            let bonus = board.complete_rows() as i32 * rules.row_bonus
                + board.complete_columns() as i32 * rules.column_bonus
                + board.complete_colours() as i32 * rules.colour_bonus;
            board.score += bonus;
            report.bonus[p] = bonus;
        }
        report.game_over = true;
        self.over = true;
    }

    /// Plays `m` and, when the round ends, tiles the walls and deals the
    /// next round from `rng` (the whole cycle, for playouts and tests).
    #[inline]
    pub fn step<R: Rng + ?Sized>(&mut self, m: Move, rng: &mut R) {
        if self.play(m) {
            self.tile_walls();
            if !self.over {
                self.deal(rng, None);
            }
        }
    }

    /// The winners: highest score, ties broken by complete rows; several
    /// seats when still tied.
    pub fn winners(&self) -> ([bool; MAX_PLAYERS], usize) {
        let n = self.players as usize;
        let key = |p: usize| (self.boards[p].score, self.boards[p].complete_rows());
        let best = (0..n).map(key).max().unwrap_or((0, 0));
        let mut out = [false; MAX_PLAYERS];
        let mut count = 0;
        for (p, slot) in out.iter_mut().enumerate().take(n) {
            if key(p) == best {
                *slot = true;
                count += 1;
            }
        }
        (out, count)
    }

    /// Every tile counted: bag, lid, factories, centre, and each board.
    pub fn tile_count(&self) -> u32 {
        let sum = |a: &[u8; COLOURS]| a.iter().map(|&n| u32::from(n)).sum::<u32>();
        sum(&self.bag)
            + sum(&self.lid)
            + sum(&self.centre)
            + self.factories.iter().map(sum).sum::<u32>()
            + self.boards[..self.players as usize]
                .iter()
                .map(Board::tiles)
                .sum::<u32>()
    }

    /// Tiles of each colour in play everywhere.
    pub fn colour_counts(&self) -> [u32; COLOURS] {
        let mut out = [0u32; COLOURS];
        for (k, slot) in out.iter_mut().enumerate() {
            *slot = u32::from(self.bag[k]) + u32::from(self.lid[k]) + u32::from(self.centre[k]);
            for f in &self.factories {
                *slot += u32::from(f[k]);
            }
            for b in &self.boards[..self.players as usize] {
                *slot += u32::from(b.floor[k]);
                *slot += b
                    .lines
                    .iter()
                    .filter(|l| l.count > 0 && l.colour as usize == k)
                    .map(|l| u32::from(l.count))
                    .sum::<u32>();
                *slot += b.colour_tiles(k);
            }
        }
        out
    }

    #[inline]
    fn debug_check(&self) {
        debug_assert_eq!(
            self.tile_count(),
            self.rules.total_tiles(),
            "tile conservation broken: {self:?}"
        );
    }
}
