//! The rules of Cairns, with no script and no UI: rows of stones, a move
//! takes 1 to `max_take` stones from the end of one row, and whoever takes
//! the last stone of the whole grid wins. The AI's arithmetic (each row's
//! Grundy value) lives here too, so the agent and the tests share it.

use serde::{Deserialize, Serialize};

/// One move: take `stones` from row `row` (rows counted from 1, as the
/// text picture and the editor number them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CairnAction {
    /// Take stones from the end of a row.
    Take {
        /// The row, 1 to the number of rows.
        row: u32,
        /// How many stones, 1 to the script's `max_take`.
        stones: u32,
    },
}

/// Why a move is refused. The host shows it as an illegal action
/// (`GameError::Illegal`), and the state stays as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Every stone is taken.
    #[error("the game is over: every stone is taken")]
    Over,
    /// The row number is outside the grid.
    #[error("there is no row {row}: the rows are 1 to {rows}")]
    NoSuchRow {
        /// The row asked for.
        row: u32,
        /// How many rows the grid has.
        rows: usize,
    },
    /// The row has no stones left.
    #[error("row {row} is empty")]
    EmptyRow {
        /// The row asked for.
        row: u32,
    },
    /// Zero stones, or more than the row holds or a move may take.
    #[error("take {stones} from row {row}: a move takes 1 to {most} stones there")]
    Count {
        /// The row asked for.
        row: u32,
        /// The stones asked for.
        stones: u32,
        /// The most this row allows now.
        most: u32,
    },
}

/// The grid: stones left in each row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rows {
    stones: Vec<u32>,
}

impl Rows {
    /// A grid with these stones per row.
    pub fn new(stones: Vec<u32>) -> Self {
        Self { stones }
    }

    /// Stones left per row, first row first.
    pub fn stones(&self) -> &[u32] {
        &self.stones
    }

    /// Whether every stone is taken.
    pub fn is_empty(&self) -> bool {
        self.stones.iter().all(|&n| n == 0)
    }

    /// Checks a move without making it: the stones left in its row after
    /// it, or why it is refused.
    pub fn check(&self, action: CairnAction, max_take: u32) -> Result<u32, Refusal> {
        let CairnAction::Take { row, stones } = action;
        if self.is_empty() {
            return Err(Refusal::Over);
        }
        let rows = self.stones.len();
        let Some(&left) = (row as usize)
            .checked_sub(1)
            .and_then(|index| self.stones.get(index))
        else {
            return Err(Refusal::NoSuchRow { row, rows });
        };
        if left == 0 {
            return Err(Refusal::EmptyRow { row });
        }
        let most = left.min(max_take);
        if stones == 0 || stones > most {
            return Err(Refusal::Count { row, stones, most });
        }
        Ok(left - stones)
    }

    /// Makes a move [`Rows::check`] accepted; returns the stones left in
    /// its row.
    pub fn take(&mut self, action: CairnAction, max_take: u32) -> Result<u32, Refusal> {
        let left = self.check(action, max_take)?;
        let CairnAction::Take { row, .. } = action;
        // `check` found the row, so the index is in range.
        if let Some(slot) = self.stones.get_mut(row as usize - 1) {
            *slot = left;
        }
        Ok(left)
    }

    /// Every legal move, row by row, fewest stones first.
    pub fn moves(&self, max_take: u32) -> Vec<CairnAction> {
        let mut moves = Vec::new();
        for (index, &left) in self.stones.iter().enumerate() {
            for stones in 1..=left.min(max_take) {
                moves.push(CairnAction::Take {
                    row: index as u32 + 1,
                    stones,
                });
            }
        }
        moves
    }

    /// The position's Grundy value: the XOR of each row's `stones mod
    /// (max_take + 1)`. The player to move loses against perfect play
    /// exactly when it is 0 (the Sprague-Grundy theorem for a sum of
    /// subtraction games).
    pub fn grundy(&self, max_take: u32) -> u32 {
        let period = max_take + 1;
        self.stones.iter().fold(0, |sum, &n| sum ^ (n % period))
    }

    /// A move that leaves a position of Grundy value 0, when there is one
    /// (the winning move; `None` in a lost position).
    pub fn winning_move(&self, max_take: u32) -> Option<CairnAction> {
        let period = max_take + 1;
        let sum = self.grundy(max_take);
        if sum == 0 {
            return None;
        }
        self.stones.iter().enumerate().find_map(|(index, &n)| {
            // This row's value must become `target` for the sum to be 0.
            let target = sum ^ (n % period);
            let stones = (n % period + period - target % period) % period;
            (target < period && stones >= 1 && stones <= n.min(max_take)).then_some(
                CairnAction::Take {
                    row: index as u32 + 1,
                    stones,
                },
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(row: u32, stones: u32) -> CairnAction {
        CairnAction::Take { row, stones }
    }

    #[test]
    fn moves_are_refused_with_their_reason() {
        let rows = Rows::new(vec![3, 0, 5]);
        assert_eq!(
            rows.check(take(4, 1), 3),
            Err(Refusal::NoSuchRow { row: 4, rows: 3 })
        );
        assert_eq!(
            rows.check(take(0, 1), 3),
            Err(Refusal::NoSuchRow { row: 0, rows: 3 })
        );
        assert_eq!(rows.check(take(2, 1), 3), Err(Refusal::EmptyRow { row: 2 }));
        assert_eq!(
            rows.check(take(3, 4), 3),
            Err(Refusal::Count {
                row: 3,
                stones: 4,
                most: 3
            })
        );
        assert_eq!(rows.check(take(1, 3), 3), Ok(0));
        assert_eq!(Rows::new(vec![0]).check(take(1, 1), 3), Err(Refusal::Over));
    }

    #[test]
    fn the_winning_move_leaves_a_zero_position_whenever_one_exists() {
        // Every position of up to three rows of up to 9 stones, for every
        // move cap 1 to 4: a move to Grundy 0 exists exactly when the
        // value is not 0, and `winning_move` finds one.
        for max_take in 1..=4 {
            for a in 0..10 {
                for b in 0..10 {
                    for c in 0..10 {
                        let rows = Rows::new(vec![a, b, c]);
                        let zero_reachable = rows.moves(max_take).into_iter().any(|m| {
                            let mut next = rows.clone();
                            next.take(m, max_take).is_ok() && next.grundy(max_take) == 0
                        });
                        match rows.winning_move(max_take) {
                            Some(m) => {
                                let mut next = rows.clone();
                                assert!(next.take(m, max_take).is_ok(), "{rows:?} {m:?}");
                                assert_eq!(next.grundy(max_take), 0, "{rows:?} {m:?}");
                            }
                            None => assert!(!zero_reachable, "{rows:?} cap {max_take}"),
                        }
                    }
                }
            }
        }
    }
}
