//! The bot's test helpers: the rules' (`rules_support`, the rules
//! crate's own `tests/tetris_support`) and the AI's difficulties and
//! decision positions.
#![allow(dead_code)]

pub use super::rules_support::*;

use tessera_tetris::piece::{PieceKind, RotationSystem};
use tessera_tetris_bot::ai::settings::default_difficulties;
use tessera_tetris_bot::ai::{Difficulty, Position, UnknownNext};

/// The seed's GOD difficulty (the script-free defaults).
pub fn god() -> Difficulty {
    default_difficulties()
        .into_iter()
        .find(|d| d.name == "GOD")
        .expect("GOD")
}

/// A decision position on a text board, no next piece known.
pub fn position(rows: &[&str], piece: PieceKind, rotation: RotationSystem) -> Position {
    Position {
        board: board(rows),
        piece,
        next: None,
        rotation,
        spawn_row: 0,
        danger_rows: 1,
        ceiling: Default::default(),
        reader_streak: 0,
        unknown_next: UnknownNext::Average(PieceKind::ALL.to_vec()),
    }
}
