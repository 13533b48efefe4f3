//! Where a slot's piece may go (the placement rule, RULINGS 6.3), every
//! legal placement, and placing one.

use tessera_host::plugin::GameError;

use crate::grid;
use crate::{Sand, SandAction};

impl Sand {
    /// The logical cells the piece of `slot` would cover at (x, y), or why
    /// it cannot go there. Does not change the game.
    pub fn check_placement(
        &self,
        slot: usize,
        x: i32,
        y: i32,
        rotation: u8,
    ) -> Result<[(usize, usize); 4], GameError> {
        let Some(piece) = self.slots.get(slot) else {
            return Err(GameError::Invalid(format!(
                "slot {slot} does not exist; slots are 0 to {}",
                self.slots.len() - 1
            )));
        };
        if !rotation.is_multiple_of(4) && !self.settings.rotation {
            return Err(GameError::Illegal(
                "rotation is switched off in the script (`rotation = false`)".into(),
            ));
        }
        let mut cells = [(0usize, 0usize); 4];
        for (out, (dx, dy)) in cells.iter_mut().zip(piece.shape.rotated_cells(rotation)) {
            let cx = i64::from(x) + i64::from(dx);
            let cy = i64::from(y) + i64::from(dy);
            // Positions in messages count from 1, as the editor shows them.
            // The side the cell is past: a column or row of 0 or -1 would
            // read like a cell on the board.
            let past = if cx < 0 {
                Some("the left wall")
            } else if cx >= self.columns as i64 {
                Some("the right wall")
            } else if cy < 0 {
                Some("the top")
            } else if cy >= self.rows as i64 {
                Some("the bottom")
            } else {
                None
            };
            if let Some(past) = past {
                return Err(GameError::Illegal(format!(
                    "the {} piece at column {}, row {} would leave the {}x{} board: one of its cells is past {past}",
                    piece.shape,
                    i64::from(x) + 1,
                    i64::from(y) + 1,
                    self.columns,
                    self.rows,
                )));
            }
            *out = (cx as usize, cy as usize);
        }
        for &(cx, cy) in &cells {
            if !self.logical_cell_is_free(cx as i64, cy as i64) {
                return Err(GameError::Illegal(format!(
                    "the {} piece at column {}, row {} overlaps grains in cell {},{}",
                    piece.shape,
                    i64::from(x) + 1,
                    i64::from(y) + 1,
                    cx + 1,
                    cy + 1
                )));
            }
        }
        Ok(cells)
    }

    /// Whether logical cell (cx, cy) is on the board and its whole grain
    /// area is empty: the placement rule for one cell (RULINGS 6.3), shared
    /// by [`Sand::check_placement`] and the editor's ghost.
    pub fn logical_cell_is_free(&self, cx: i64, cy: i64) -> bool {
        let inside = cx >= 0 && cy >= 0 && cx < self.columns as i64 && cy < self.rows as i64;
        inside
            && self.grid.area_is_empty(
                cx as usize * self.cell,
                cy as usize * self.cell,
                self.cell,
                self.cell,
            )
    }

    /// Whether the piece of `slot` fits somewhere on the board now.
    pub fn fits_anywhere(&self, slot: usize) -> bool {
        let Some(piece) = self.slots.get(slot) else {
            return false;
        };
        let free = self.free_cells();
        let turns: &[u8] = if self.settings.rotation {
            &[0, 1, 2, 3]
        } else {
            &[0]
        };
        turns.iter().any(|&turn| {
            let shape = piece.shape.rotated_cells(turn);
            (0..self.rows).any(|y| {
                (0..self.columns).any(|x| {
                    shape.iter().all(|&(dx, dy)| {
                        let (cx, cy) = (x + usize::from(dx), y + usize::from(dy));
                        cx < self.columns && cy < self.rows && free[cy * self.columns + cx]
                    })
                })
            })
        })
    }

    /// Which logical cells hold no grain, row-major.
    fn free_cells(&self) -> Vec<bool> {
        let mut free = vec![false; self.columns * self.rows];
        for cy in 0..self.rows {
            let union = (cy * self.cell..(cy + 1) * self.cell)
                .fold(0u128, |acc, y| acc | self.grid.occupied_row(y));
            for cx in 0..self.columns {
                free[cy * self.columns + cx] =
                    union & grid::span_mask(cx * self.cell, self.cell) == 0;
            }
        }
        free
    }

    /// Every legal placement now (unrotated unless the script allows it).
    pub fn legal_placements(&self) -> Vec<SandAction> {
        let mut out = Vec::new();
        if self.outcome.is_over() {
            return out;
        }
        let turns = if self.settings.rotation { 4 } else { 1 };
        for slot in 0..self.slots.len() {
            for rotation in 0..turns {
                for y in 0..self.rows as i32 {
                    for x in 0..self.columns as i32 {
                        if self.check_placement(slot, x, y, rotation).is_ok() {
                            out.push(SandAction::Place {
                                slot,
                                x,
                                y,
                                rotation,
                            });
                        }
                    }
                }
            }
        }
        out
    }

    /// Places the piece of `slot` (the `Place` action); a refused attempt
    /// checks game over.
    pub(crate) fn place(
        &mut self,
        slot: usize,
        x: i32,
        y: i32,
        rotation: u8,
    ) -> Result<(), GameError> {
        if self.outcome.is_over() {
            return Err(GameError::Illegal("the game is over".into()));
        }
        let cells = match self.check_placement(slot, x, y, rotation) {
            Ok(cells) => cells,
            Err(error @ GameError::Illegal(_)) => {
                // A failed attempt checks game over (seed 11.3).
                self.check_game_over();
                return Err(error);
            }
            Err(error) => return Err(error),
        };
        let piece = self.slots[slot];
        // A free tag lets the game see when this piece has settled; with
        // every tag in use the piece is checked when the board settles.
        let tag = (1..=grid::MAX_TAG).find(|t| !self.in_flight.contains(t));
        match tag {
            Some(tag) => self.in_flight.push(tag),
            None => self.check_due = true,
        }
        for (cx, cy) in cells {
            self.grid.fill_area_tagged(
                cx * self.cell,
                cy * self.cell,
                self.cell,
                self.cell,
                piece.colour,
                tag.unwrap_or(0),
            );
        }
        self.placed += 1;
        if self.has_tray() {
            // A fixed tray: the piece leaves it. With the tray empty, the
            // game ends once the whole board has settled (a check then).
            self.slots.remove(slot);
            self.check_due |= self.slots.is_empty();
        } else {
            let colours = self.settings.palette.len() as u8;
            self.slots[slot] = self.bag.draw(&mut self.pieces_rng, colours);
        }
        Ok(())
    }
}
