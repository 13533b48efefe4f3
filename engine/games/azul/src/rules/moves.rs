//! Moves: the take (source, colour, target) and the grey wall's column
//! choice, the fixed-capacity move list, legal move generation, refusals
//! in words, and playing a move.

use rand::Rng;

use super::{CENTRE, COLOURS, FLOOR, FLOOR_SLOTS, LINES, MAX_MOVES, SPREAD, State, WALL};

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

impl State {
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
                board.marker_slot = board.floor_len;
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
}
