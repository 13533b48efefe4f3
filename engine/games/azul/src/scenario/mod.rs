//! Scenario levels: a starting position (walls, pattern lines, floors,
//! factories, centre, bag, lid, scores, whose turn), the seats and a goal
//! for one seat ("score at least 12 this round", "win from here").
//!
//! [`check_position`] is the one check of a position: the level's
//! diagnosis runs it without the script (shape, letters, the wall
//! pattern), a game start and the editor's scenario editor run it with the
//! script's rules (factory counts, tiles per factory, and never more tiles
//! of a colour in play than the script's `tiles_per_colour`). Findings name
//! the field, so `check` and the editor show the file's line.
//!
//! Tiles are written as letters: `B` blue, `Y` yellow, `R` red, `G` green,
//! `O` orange, `.` an empty wall cell.

use serde::{Deserialize, Serialize};
use tessera_host::text::count;

mod check;

pub use check::{PositionCheck, check_position};

use crate::rules::{COLOURS, LINES, State};

/// The letters of the five colours, in the script's order.
pub const LETTERS: [char; COLOURS] = ['B', 'Y', 'R', 'G', 'O'];

/// Highest score a scenario may start a board with or set as a goal: far
/// above any game (a full wall with every bonus is under 250 points even
/// with generous script values), far below where a score could wrap.
pub const MAX_SCORE: i32 = 100_000;
/// Highest round a scenario may start in: a game ends after a handful of
/// rounds, and the counter must not wrap.
pub const MAX_ROUND: u16 = 100;

/// The colour a letter names (either case).
pub fn colour_of(letter: char) -> Option<usize> {
    LETTERS
        .iter()
        .position(|&l| l == letter.to_ascii_uppercase())
}

/// What a scenario asks of one seat.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Goal {
    /// No goal: an ordinary game, won or lost on the scores.
    #[default]
    None,
    /// Gain at least `points` in the current round's wall tiling (floor
    /// penalties included, and the end bonuses when the game ends then).
    /// The scenario ends after that tiling.
    RoundScore {
        /// The seat, from 1.
        #[serde(default = "first_seat")]
        seat: u8,
        /// Points to gain.
        points: i32,
    },
    /// Win the game from this position (a shared win counts).
    Win {
        /// The seat, from 1.
        #[serde(default = "first_seat")]
        seat: u8,
    },
    /// End the game with at least `points`.
    FinalScore {
        /// The seat, from 1.
        #[serde(default = "first_seat")]
        seat: u8,
        /// Final score to reach.
        points: i32,
    },
}

fn first_seat() -> u8 {
    1
}

impl Goal {
    /// Whether there is no goal (an ordinary game).
    pub fn is_none(&self) -> bool {
        *self == Goal::None
    }

    /// The seat the goal is about (0-based), when there is a goal.
    pub fn seat(&self) -> Option<usize> {
        match self {
            Goal::None => None,
            Goal::RoundScore { seat, .. } | Goal::Win { seat } | Goal::FinalScore { seat, .. } => {
                Some(usize::from(*seat).saturating_sub(1))
            }
        }
    }

    /// The seat as written (from 1), when the goal has one: 0 is no seat
    /// and is refused by the level's diagnosis ([`Goal::seat`] would read
    /// it as the first).
    pub fn written_seat(&self) -> Option<u8> {
        match self {
            Goal::None => None,
            Goal::RoundScore { seat, .. } | Goal::Win { seat } | Goal::FinalScore { seat, .. } => {
                Some(*seat)
            }
        }
    }

    /// The goal in words.
    pub fn describe(&self) -> String {
        match self {
            Goal::None => "no goal (an ordinary game)".into(),
            Goal::RoundScore { seat, points } => {
                format!("player {seat}: score at least {points} this round")
            }
            Goal::Win { seat } => format!("player {seat}: win from here"),
            Goal::FinalScore { seat, points } => {
                format!(
                    "player {seat}: end the game with at least {}",
                    count(*points, "point")
                )
            }
        }
    }
}

/// Tiles per colour (a bag or a lid).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tiles {
    /// Blue tiles.
    #[serde(default)]
    pub blue: u8,
    /// Yellow tiles.
    #[serde(default)]
    pub yellow: u8,
    /// Red tiles.
    #[serde(default)]
    pub red: u8,
    /// Green tiles.
    #[serde(default)]
    pub green: u8,
    /// Orange tiles.
    #[serde(default)]
    pub orange: u8,
}

impl Tiles {
    /// The counts in colour order.
    pub fn counts(&self) -> [u8; COLOURS] {
        [self.blue, self.yellow, self.red, self.green, self.orange]
    }

    /// Tiles from counts in colour order.
    pub fn from_counts(c: [u8; COLOURS]) -> Self {
        Self {
            blue: c[0],
            yellow: c[1],
            red: c[2],
            green: c[3],
            orange: c[4],
        }
    }
}

/// One player's board in a scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSetup {
    /// Score so far.
    #[serde(default)]
    pub score: i32,
    /// Five rows of five letters, top row first; `.` is an empty cell. A
    /// tile's letter must be its cell's colour (row r, column c holds
    /// colour c - r mod 5); on the grey wall any colour, at most once per
    /// row and once per column. Fewer rows: the rest are empty.
    #[serde(default)]
    pub wall: Vec<String>,
    /// Pattern lines 1 to 5: the tiles on each, one letter per tile
    /// (`"RR"`: two red on line 2). Fewer entries: the rest are empty.
    #[serde(default)]
    pub lines: Vec<String>,
    /// Tiles on the floor, one letter each.
    #[serde(default)]
    pub floor: String,
    /// Whether the first-player marker lies on this floor (then it is not
    /// in the centre, and this player starts the next round).
    #[serde(default)]
    pub marker: bool,
}

impl Default for BoardSetup {
    fn default() -> Self {
        Self {
            score: 0,
            wall: vec![".....".into(); LINES],
            lines: vec![String::new(); LINES],
            floor: String::new(),
            marker: false,
        }
    }
}

/// A scenario's starting position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Round number, from 1.
    #[serde(default = "first_round")]
    pub round: u16,
    /// The player to move, from 1.
    #[serde(default = "first_seat")]
    pub to_move: u8,
    /// One board per player (2 to 4).
    pub boards: Vec<BoardSetup>,
    /// The factories' tiles, one string of letters each (`""` empty).
    /// Fewer than the script's factory count: the rest are empty.
    #[serde(default)]
    pub factories: Vec<String>,
    /// The centre's tiles.
    #[serde(default)]
    pub centre: String,
    /// The bag; `None`: every tile not placed elsewhere.
    #[serde(default)]
    pub bag: Option<Tiles>,
    /// The box lid (discards); `None`: empty, or every tile left over when
    /// the bag is given.
    #[serde(default)]
    pub lid: Option<Tiles>,
}

fn first_round() -> u16 {
    1
}

impl Default for Position {
    /// Two empty boards, empty factories: a blank canvas for the editor.
    fn default() -> Self {
        Self {
            round: 1,
            to_move: 1,
            boards: vec![BoardSetup::default(), BoardSetup::default()],
            factories: vec![String::new(); 5],
            centre: String::new(),
            bag: None,
            lid: None,
        }
    }
}

/// The scenario text of a table (the editor's "take the current table").
pub fn position_of(state: &State) -> Position {
    let letters = |counts: &[u8; COLOURS]| -> String {
        let mut t = String::new();
        for (k, &n) in counts.iter().enumerate() {
            for _ in 0..n {
                t.push(LETTERS[k]);
            }
        }
        t
    };
    let boards = state.boards[..state.players as usize]
        .iter()
        .map(|b| BoardSetup {
            score: b.score,
            wall: (0..LINES)
                .map(|r| {
                    (0..LINES)
                        .map(|c| b.colour_at(r, c).map_or('.', |k| LETTERS[k]))
                        .collect()
                })
                .collect(),
            lines: b
                .lines
                .iter()
                .map(|l| {
                    std::iter::repeat_n(LETTERS[l.colour as usize % COLOURS], l.count as usize)
                        .collect()
                })
                .collect(),
            floor: letters(&b.floor),
            marker: b.marker,
        })
        .collect();
    Position {
        round: state.round,
        to_move: state.to_move + 1,
        boards,
        factories: state.factories[..state.factory_count as usize]
            .iter()
            .map(letters)
            .collect(),
        centre: letters(&state.centre),
        bag: Some(Tiles::from_counts(state.bag)),
        lid: None,
    }
}
