//! The wall-tiling phase: the printed wall's automatic tiling, the grey
//! wall's phase of column choices, floor penalties, the game's end and
//! its bonuses.

use super::{COLOURS, FLOOR_SLOTS, LINES, Line, MAX_PLAYERS, Move, Placed, State, wall_column};

/// The round at which a game that keeps completing no row ends, stalled.
/// A real game ends within a dozen rounds; random play on a grey wall can
/// keep a row completable in principle while never completing it (a
/// property test found one that ran past the round counter's 65,535).
pub const STALL_ROUNDS: u16 = 1000;

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

impl State {
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
            board.marker_slot = 0;
            row_done |= board.complete_rows() > 0;
        }
        self.marker_in_centre = true;
        self.to_move = self.next_first;
        let endless = self.round >= STALL_ROUNDS;
        if !row_done && (endless || rules.grey_wall && !self.any_row_completable()) {
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

    pub(super) fn finish_game(&mut self, report: &mut TilingReport) {
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
}
