//! The actions a player (or an AI) sends to an Azul game, in RON:
//! `Take(from: Factory(3), colour: Blue, to: Line(2))`, or on the grey
//! wall while tiling `Wall(row: 2, column: 4)`; and their engine moves.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::{CENTRE, COLOUR_NAMES, COLOURS, FLOOR, Move};

/// A tile colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// Colour 1.
    Blue,
    /// Colour 2.
    Yellow,
    /// Colour 3.
    Red,
    /// Colour 4.
    Green,
    /// Colour 5.
    Orange,
}

impl Colour {
    /// Every colour in the script's order.
    pub const ALL: [Colour; COLOURS] = [
        Colour::Blue,
        Colour::Yellow,
        Colour::Red,
        Colour::Green,
        Colour::Orange,
    ];

    /// Index 0..5.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Where tiles are taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Source {
    /// Factory number (1-based, as the table shows them).
    Factory(u8),
    /// The centre of the table.
    Centre,
}

/// Where taken tiles go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    /// Pattern line 1 (1 tile) to 5 (5 tiles).
    Line(u8),
    /// Straight to the floor.
    Floor,
}

/// One Azul move, e.g. `Take(from: Factory(3), colour: Blue, to: Line(2))`,
/// or on the grey wall while tiling `Wall(row: 2, column: 4)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AzulAction {
    /// Take every tile of `colour` from `from` and put them on `to`.
    Take {
        /// Factory or centre.
        from: Source,
        /// The colour taken.
        colour: Colour,
        /// Pattern line or floor.
        to: Target,
    },
    /// Grey wall: put the tile of full pattern line `row` (1-5, the
    /// player's top full line) in wall column `column` (1-5).
    Wall {
        /// Pattern line and wall row, 1 to 5.
        row: u8,
        /// Wall column, 1 to 5.
        column: u8,
    },
}

impl fmt::Display for AzulAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, colour, to) = match *self {
            AzulAction::Take { from, colour, to } => (from, colour, to),
            AzulAction::Wall { row, column } => {
                return write!(f, "line {row} to wall column {column}");
            }
        };
        let from = match from {
            Source::Factory(n) => format!("factory {n}"),
            Source::Centre => "centre".into(),
        };
        let to = match to {
            Target::Line(n) => format!("line {n}"),
            Target::Floor => "floor".into(),
        };
        write!(f, "{} from {from} to {to}", COLOUR_NAMES[colour.index()])
    }
}

/// The engine move for an action (`None` when a number is out of range).
pub fn action_to_move(action: &AzulAction) -> Option<Move> {
    let (from, colour, to) = match *action {
        AzulAction::Take { from, colour, to } => (from, colour, to),
        AzulAction::Wall { row, column } => {
            return ((1..=5).contains(&row) && (1..=5).contains(&column))
                .then(|| Move::wall(usize::from(row - 1), usize::from(column - 1)));
        }
    };
    let source = match from {
        Source::Factory(n) if (1..=9).contains(&n) => n - 1,
        Source::Factory(_) => return None,
        Source::Centre => CENTRE,
    };
    let target = match to {
        Target::Line(n) if (1..=5).contains(&n) => n - 1,
        Target::Line(_) => return None,
        Target::Floor => FLOOR,
    };
    Some(Move {
        source,
        colour: colour.index() as u8,
        target,
    })
}

/// The action for an engine move.
pub fn move_to_action(m: Move) -> AzulAction {
    if let Some(row) = m.wall_row() {
        return AzulAction::Wall {
            row: row as u8 + 1,
            column: m.target + 1,
        };
    }
    AzulAction::Take {
        from: if m.source == CENTRE {
            Source::Centre
        } else {
            Source::Factory(m.source + 1)
        },
        colour: Colour::ALL[m.colour as usize % COLOURS],
        to: if m.target == FLOOR {
            Target::Floor
        } else {
            Target::Line(m.target + 1)
        },
    }
}
