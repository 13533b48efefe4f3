//! The game record: one JSON object per line, per event. `start` (players,
//! factories, seed; `grey_wall` when the variant is on; `position`, the
//! scenario's starting position, when the game started from one), `deal`
//! (each factory's tiles in the order drawn), `move` (player, source
//! factory or `"centre"`, colour, pattern line 1-5 or `"floor"`), `wall`
//! (grey wall: a player's column choice for a full line), `tiling` (every
//! score after a wall-tiling phase), `bonus` (end bonuses) and `end`
//! (final scores and outcome).
//!
//! A record is self-contained: `start` carries the rules in force
//! (`rules`: floor penalties, bonuses, tile counts) and the script's
//! content hash, and a `script` event (the new scoring numbers and hash)
//! precedes the first move played after each script reload, so a game
//! played across script changes checks stretch by stretch. A scenario's
//! record carries its goal, so the check decides it too.
//!
//! [`check_record`] replays a record against the rules and refuses the
//! first line that is not what a legal, complete game would write.

mod check;

use serde::{Deserialize, Serialize};

pub use check::{CheckReport, check_record, deal_fixed};

use crate::rules::{CENTRE, FLOOR, FLOOR_SLOTS, Move, Rules};
use crate::scenario::{Goal, Position};

/// The scoring numbers (and, at the start, the tile counts) in force,
/// as a record carries them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedRules {
    /// Points lost per floor slot, left to right (7 numbers, positive).
    pub floor: Vec<i32>,
    /// Bonus per complete row.
    pub row_bonus: i32,
    /// Bonus per complete column.
    pub column_bonus: i32,
    /// Bonus per complete colour.
    pub colour_bonus: i32,
    /// Tiles of each colour (at the start only: fixed for a game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles_per_colour: Option<u8>,
    /// Tiles a factory is filled with (at the start only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles_per_factory: Option<u8>,
}

impl RecordedRules {
    /// The numbers of `rules`; with the tile counts for a `start` line.
    pub fn of(rules: &Rules, with_tiles: bool) -> Self {
        Self {
            floor: rules.floor_penalties.to_vec(),
            row_bonus: rules.row_bonus,
            column_bonus: rules.column_bonus,
            colour_bonus: rules.colour_bonus,
            tiles_per_colour: with_tiles.then_some(rules.tiles_per_colour),
            tiles_per_factory: with_tiles.then_some(rules.tiles_per_factory),
        }
    }

    /// Puts these numbers into `rules` after checking them against the
    /// ranges the script reader allows; the error says what is wrong.
    pub fn apply_to(&self, rules: &mut Rules) -> Result<(), String> {
        if self.floor.len() != FLOOR_SLOTS {
            return Err(format!(
                "`floor` lists {} penalties; a floor has {FLOOR_SLOTS} slots",
                self.floor.len()
            ));
        }
        if let Some(bad) = self.floor.iter().find(|p| !(0..=100).contains(*p)) {
            return Err(format!("floor penalty {bad}: each is 0 to 100"));
        }
        for (name, value) in [
            ("row_bonus", self.row_bonus),
            ("column_bonus", self.column_bonus),
            ("colour_bonus", self.colour_bonus),
        ] {
            if !(0..=1000).contains(&value) {
                return Err(format!("`{name}` {value}: 0 to 1000"));
            }
        }
        if let Some(n) = self.tiles_per_colour {
            if !(1..=40).contains(&n) {
                return Err(format!("`tiles_per_colour` {n}: 1 to 40"));
            }
            rules.tiles_per_colour = n;
        }
        if let Some(n) = self.tiles_per_factory {
            if !(1..=4).contains(&n) {
                return Err(format!("`tiles_per_factory` {n}: 1 to 4"));
            }
            rules.tiles_per_factory = n;
        }
        for (slot, &p) in rules.floor_penalties.iter_mut().zip(&self.floor) {
            *slot = p;
        }
        rules.row_bonus = self.row_bonus;
        rules.column_bonus = self.column_bonus;
        rules.colour_bonus = self.colour_bonus;
        Ok(())
    }
}

/// Where a recorded move took from: a factory number (1-based) or `"centre"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SourceField {
    /// Factory number, from 1.
    Factory(u8),
    /// `"centre"`.
    Named(String),
}

impl SourceField {
    /// The field for a move.
    pub fn from_move(m: Move) -> Self {
        if m.source == CENTRE {
            SourceField::Named("centre".into())
        } else {
            SourceField::Factory(m.source + 1)
        }
    }
}

/// Where a recorded move put its tiles: a pattern line (1-5) or `"floor"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LineField {
    /// Pattern line, 1 to 5.
    Line(u8),
    /// `"floor"`.
    Named(String),
}

impl LineField {
    /// The field for a move.
    pub fn from_move(m: Move) -> Self {
        if m.target == FLOOR {
            LineField::Named("floor".into())
        } else {
            LineField::Line(m.target + 1)
        }
    }
}

/// One line of a game record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum RecordLine {
    /// The game's setup.
    Start {
        /// Players.
        players: u8,
        /// Factories.
        factories: u8,
        /// The rules' seed.
        seed: u64,
        /// Written by older versions for a game started from a scenario
        /// without its position (such a record cannot be checked).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        scenario: bool,
        /// Whether the grey-wall variant was on.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        grey_wall: bool,
        /// The scenario's starting position (the level's `position`, in
        /// JSON), when the game started from one: no `deal` precedes its
        /// first move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<Position>,
        /// The scenario's goal, when it has one (the check decides it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        goal: Option<Goal>,
        /// The rules in force at the start (records written before this
        /// field are checked against the project's script).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rules: Option<RecordedRules>,
        /// The content hash of the script the game started with.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        script: Option<String>,
    },
    /// The script was reloaded: the scoring numbers in force from the
    /// next line on.
    Script {
        /// The new numbers (no tile counts: those stay the start's).
        rules: RecordedRules,
        /// The new script's content hash.
        hash: String,
    },
    /// A round's deal: per factory, colour indices in the order drawn
    /// (0 blue, 1 yellow, 2 red, 3 green, 4 orange).
    Deal {
        /// Round number, from 1.
        round: u16,
        /// Per factory, its tiles.
        factories: Vec<Vec<u8>>,
    },
    /// A move.
    Move {
        /// Player number, from 1.
        player: u8,
        /// Factory number or `"centre"`.
        source: SourceField,
        /// Colour name.
        colour: String,
        /// Pattern line 1-5 or `"floor"`.
        line: LineField,
    },
    /// Grey wall: a player put the tile of full line `row` in `column`.
    Wall {
        /// Player number, from 1.
        player: u8,
        /// Pattern line and wall row, 1 to 5.
        row: u8,
        /// Wall column, 1 to 5.
        column: u8,
        /// The line's colour.
        colour: String,
    },
    /// Scores after a wall-tiling phase.
    Tiling {
        /// Round number.
        round: u16,
        /// Each player's score.
        scores: Vec<i32>,
    },
    /// End bonuses, per player.
    Bonus {
        /// Each player's bonus.
        bonuses: Vec<i32>,
    },
    /// The end.
    End {
        /// Final scores.
        scores: Vec<i64>,
        /// The outcome in words.
        outcome: String,
    },
}

impl RecordLine {
    /// The line as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}
