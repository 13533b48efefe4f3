//! The seven tetrominoes, their colours and the 7-bag they are drawn from.

use std::fmt;

use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use tessera_host::rng::GameRng;

/// A tetromino shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Shape {
    /// Four in a row.
    I,
    /// 2x2 square.
    O,
    /// Three in a row with one above the middle.
    T,
    /// Three in a row with one above the right end.
    L,
    /// Three in a row with one above the left end.
    J,
    /// S skew.
    S,
    /// Z skew.
    Z,
}

impl Shape {
    /// Every shape, in bag order before shuffling.
    pub const ALL: [Shape; 7] = [
        Shape::I,
        Shape::O,
        Shape::T,
        Shape::L,
        Shape::J,
        Shape::S,
        Shape::Z,
    ];

    /// The logical cells (column, row) of the unrotated shape, row 0 on top,
    /// in its usual spawn orientation.
    pub fn cells(self) -> [(u8, u8); 4] {
        match self {
            Shape::I => [(0, 0), (1, 0), (2, 0), (3, 0)],
            Shape::O => [(0, 0), (1, 0), (0, 1), (1, 1)],
            Shape::T => [(1, 0), (0, 1), (1, 1), (2, 1)],
            Shape::L => [(2, 0), (0, 1), (1, 1), (2, 1)],
            Shape::J => [(0, 0), (0, 1), (1, 1), (2, 1)],
            Shape::S => [(1, 0), (2, 0), (0, 1), (1, 1)],
            Shape::Z => [(0, 0), (1, 0), (1, 1), (2, 1)],
        }
    }

    /// The cells after `quarter_turns` clockwise quarter turns, moved back
    /// so the bounding box starts at (0, 0).
    pub fn rotated_cells(self, quarter_turns: u8) -> [(u8, u8); 4] {
        let mut cells = self.cells();
        for _ in 0..quarter_turns % 4 {
            let height = cells.iter().map(|c| c.1).max().unwrap_or(0);
            for cell in &mut cells {
                *cell = (height - cell.1, cell.0);
            }
        }
        cells
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A piece in a preview slot: a shape in one palette colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// Its shape.
    pub shape: Shape,
    /// Palette index of its colour.
    pub colour: u8,
}

/// The 7-bag: each run of seven pieces holds every shape once.
#[derive(Debug, Clone)]
pub struct Bag {
    shapes: Vec<Shape>,
}

impl Bag {
    /// An empty bag; the first draw fills it.
    pub fn new() -> Self {
        Self {
            shapes: Vec::with_capacity(7),
        }
    }

    /// Draws the next piece, its colour uniform over `colours` palette
    /// entries.
    pub fn draw(&mut self, rng: &mut GameRng, colours: u8) -> Piece {
        if self.shapes.is_empty() {
            self.shapes.extend_from_slice(&Shape::ALL);
            self.shapes.shuffle(rng);
        }
        let shape = self.shapes.pop().unwrap_or(Shape::O);
        let colour = rng.random_range(0..colours.max(1));
        Piece { shape, colour }
    }
}

impl Default for Bag {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_host::rng::game_rng;

    #[test]
    fn every_seven_draws_hold_each_shape_once() {
        let mut bag = Bag::new();
        let mut rng = game_rng(3);
        for _ in 0..5 {
            let mut shapes: Vec<Shape> = (0..7).map(|_| bag.draw(&mut rng, 4).shape).collect();
            shapes.sort_by_key(|s| Shape::ALL.iter().position(|t| t == s));
            assert_eq!(shapes, Shape::ALL);
        }
    }

    #[test]
    fn rotation_turns_the_l_clockwise() {
        // L: ..# / ### turned clockwise is #. / #. / ##
        let mut cells = Shape::L.rotated_cells(1);
        cells.sort();
        assert_eq!(cells, [(0, 0), (0, 1), (0, 2), (1, 2)]);
        let mut full_turn = Shape::L.rotated_cells(4);
        full_turn.sort();
        let mut original = Shape::L.cells();
        original.sort();
        assert_eq!(full_turn, original);
    }
}
