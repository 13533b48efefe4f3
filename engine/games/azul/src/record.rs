//! The game record: one JSON object per line, per event. `start` (players,
//! factories, seed; `grey_wall` when the variant is on; `position`, the
//! scenario's starting position, when the game started from one), `deal`
//! (each factory's tiles in the order drawn), `move` (player, source
//! factory or `"centre"`, colour, pattern line 1-5 or `"floor"`), `wall`
//! (grey wall: a player's column choice for a full line), `tiling` (every
//! score after a wall-tiling phase), `bonus` (end bonuses) and `end`
//! (final scores and outcome).
//!
//! [`check_record`] replays a record against the rules and reports the
//! first event whose outcome differs.

use serde::{Deserialize, Serialize};

use crate::rules::{CENTRE, COLOUR_NAMES, COLOURS, FLOOR, Move, Rules, State};
use crate::scenario::{Position, check_position};

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

/// The result of checking a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// Events checked and found consistent.
    pub events: usize,
    /// The first difference: 1-based line number and what differs.
    pub first_difference: Option<(usize, String)>,
}

/// Replays `text` (a record) under `rules` (the record's own `grey_wall`
/// in force) and reports the first event whose outcome differs. Lines
/// that do not parse are differences too.
pub fn check_record(text: &str, mut rules: Rules) -> CheckReport {
    let mut state: Option<State> = None;
    let mut checked = 0;
    let mut pending_tiling: Option<crate::rules::TilingReport> = None;
    let fail = |line: usize, checked: usize, why: String| CheckReport {
        events: checked,
        first_difference: Some((line, why)),
    };
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let event: RecordLine = match serde_json::from_str(raw) {
            Ok(e) => e,
            Err(e) => return fail(line_no, checked, format!("cannot read: {e}")),
        };
        match (&event, state.as_mut()) {
            (
                RecordLine::Start {
                    players,
                    factories,
                    scenario,
                    grey_wall,
                    position,
                    ..
                },
                None,
            ) => {
                if *scenario && position.is_none() {
                    return fail(
                        line_no,
                        checked,
                        "this record starts from a scenario's position but does not carry it \
                         (written by an older version); it cannot be checked"
                            .into(),
                    );
                }
                if !(2..=4).contains(players) {
                    return fail(line_no, checked, format!("{players} players (2 to 4)"));
                }
                rules.grey_wall = *grey_wall;
                let s = match position {
                    Some(position) => {
                        let check = check_position(position, Some(&rules), None);
                        if let Some(error) = check.first_error() {
                            return fail(
                                line_no,
                                checked,
                                format!("the recorded position: {}", error.message),
                            );
                        }
                        let Some(s) = check.state else {
                            return fail(line_no, checked, "the recorded position".into());
                        };
                        if usize::from(s.players) != usize::from(*players) {
                            return fail(
                                line_no,
                                checked,
                                format!(
                                    "{players} players recorded, the position has {} boards",
                                    s.players
                                ),
                            );
                        }
                        s
                    }
                    None => State::new(rules, *players as usize),
                };
                if s.factory_count != *factories {
                    return fail(
                        line_no,
                        checked,
                        format!(
                            "{factories} factories recorded; the rules give {} for {players} players",
                            s.factory_count
                        ),
                    );
                }
                state = Some(s);
            }
            (_, None) => {
                return fail(
                    line_no,
                    checked,
                    "the record must begin with a `start` event".into(),
                );
            }
            (RecordLine::Start { .. }, Some(_)) => {
                return fail(line_no, checked, "a second `start` event".into());
            }
            (RecordLine::Deal { round, factories }, Some(s)) => {
                if *round != s.round {
                    return fail(
                        line_no,
                        checked,
                        format!("deal of round {round}, but round {} is due", s.round),
                    );
                }
                if s.on_table != 0 {
                    return fail(
                        line_no,
                        checked,
                        "a deal while tiles are still on the table".into(),
                    );
                }
                if let Err(why) = deal_fixed(s, factories) {
                    return fail(line_no, checked, why);
                }
            }
            (
                RecordLine::Move {
                    player,
                    source,
                    colour,
                    line,
                },
                Some(s),
            ) => {
                if u32::from(*player) != u32::from(s.to_move) + 1 {
                    return fail(
                        line_no,
                        checked,
                        format!(
                            "player {player} moves, but it is player {}'s turn",
                            s.to_move + 1
                        ),
                    );
                }
                let m = match parse_move(source, colour, line) {
                    Ok(m) => m,
                    Err(why) => return fail(line_no, checked, why),
                };
                if let Some(why) = s.refusal(m) {
                    return fail(line_no, checked, format!("illegal move: {why}"));
                }
                if s.play(m) && s.begin_tiling(None) {
                    pending_tiling = Some(s.tile_walls());
                }
            }
            (
                RecordLine::Wall {
                    player,
                    row,
                    column,
                    colour,
                },
                Some(s),
            ) => {
                let Some((pending, line_colour, _)) = s.pending_choice() else {
                    return fail(
                        line_no,
                        checked,
                        "a wall column choice while no wall column is being chosen".into(),
                    );
                };
                if u32::from(*player) != u32::from(s.to_move) + 1 {
                    return fail(
                        line_no,
                        checked,
                        format!(
                            "player {player} chooses a wall column, but player {} is choosing",
                            s.to_move + 1
                        ),
                    );
                }
                if COLOUR_NAMES[line_colour] != colour {
                    return fail(
                        line_no,
                        checked,
                        format!(
                            "colour {colour} recorded; line {} holds {}",
                            pending + 1,
                            COLOUR_NAMES[line_colour]
                        ),
                    );
                }
                if !(1..=5).contains(row) || !(1..=5).contains(column) {
                    return fail(
                        line_no,
                        checked,
                        format!("row {row}, column {column}: both 1 to 5"),
                    );
                }
                let m = Move::wall(usize::from(*row) - 1, usize::from(*column) - 1);
                if let Some(why) = s.refusal(m) {
                    return fail(line_no, checked, format!("illegal wall choice: {why}"));
                }
                if s.choose_column(m, None) {
                    pending_tiling = Some(s.tile_walls());
                }
            }
            (RecordLine::Tiling { round, scores }, Some(s)) => {
                if pending_tiling.take().is_none() {
                    return fail(
                        line_no,
                        checked,
                        "a tiling while tiles are still on the table".into(),
                    );
                }
                let expected_round = if s.over { s.round } else { s.round - 1 };
                let actual: Vec<i32> = (0..s.players as usize).map(|p| s.boards[p].score).collect();
                if *round != expected_round {
                    return fail(
                        line_no,
                        checked,
                        format!("tiling of round {round}, expected round {expected_round}"),
                    );
                }
                // At the game's end the scores hold the bonuses already;
                // the recorded tiling scores are before them.
                let before_bonus: Vec<i32> = if s.over {
                    let bonus = end_bonuses(s);
                    actual.iter().zip(&bonus).map(|(a, b)| a - b).collect()
                } else {
                    actual
                };
                if &before_bonus != scores {
                    return fail(
                        line_no,
                        checked,
                        format!("scores {scores:?} recorded, the rules give {before_bonus:?}"),
                    );
                }
            }
            (RecordLine::Bonus { bonuses }, Some(s)) => {
                let actual = end_bonuses(s);
                if !s.over {
                    return fail(line_no, checked, "bonuses before the game ended".into());
                }
                if &actual != bonuses {
                    return fail(
                        line_no,
                        checked,
                        format!("bonuses {bonuses:?} recorded, the rules give {actual:?}"),
                    );
                }
            }
            (RecordLine::End { scores, .. }, Some(s)) => {
                let actual: Vec<i64> = (0..s.players as usize)
                    .map(|p| i64::from(s.boards[p].score))
                    .collect();
                if !s.over {
                    return fail(line_no, checked, "the game has not ended here".into());
                }
                if &actual != scores {
                    return fail(
                        line_no,
                        checked,
                        format!("final scores {scores:?} recorded, the rules give {actual:?}"),
                    );
                }
            }
        }
        checked += 1;
    }
    CheckReport {
        events: checked,
        first_difference: None,
    }
}

fn end_bonuses(s: &State) -> Vec<i32> {
    let r = &s.rules;
    (0..s.players as usize)
        .map(|p| {
            let b = &s.boards[p];
            b.complete_rows() as i32 * r.row_bonus
                + b.complete_columns() as i32 * r.column_bonus
                + b.complete_colours() as i32 * r.colour_bonus
        })
        .collect()
}

fn parse_move(source: &SourceField, colour: &str, line: &LineField) -> Result<Move, String> {
    let source = match source {
        SourceField::Factory(n) if *n >= 1 => n - 1,
        SourceField::Named(name) if name == "centre" => CENTRE,
        other => {
            return Err(format!(
                "source {other:?}: a factory number from 1 or \"centre\""
            ));
        }
    };
    let Some(colour) = COLOUR_NAMES.iter().position(|c| *c == colour) else {
        return Err(format!(
            "colour `{colour}`: one of {}",
            COLOUR_NAMES.join(", ")
        ));
    };
    let target = match line {
        LineField::Line(n) if (1..=5).contains(n) => n - 1,
        LineField::Named(name) if name == "floor" => FLOOR,
        other => return Err(format!("line {other:?}: 1 to 5 or \"floor\"")),
    };
    Ok(Move {
        source,
        colour: colour as u8,
        target,
    })
}

/// Deals the recorded tiles, as the rules would draw them: refilling the
/// bag from the lid when it runs out, refusing tiles the bag lacks.
pub fn deal_fixed(s: &mut State, factories: &[Vec<u8>]) -> Result<(), String> {
    if factories.len() != s.factory_count as usize {
        return Err(format!(
            "{} factories dealt, the table has {}",
            factories.len(),
            s.factory_count
        ));
    }
    for (f, tiles) in factories.iter().enumerate() {
        for &c in tiles {
            let c = c as usize;
            if c >= COLOURS {
                return Err(format!("factory {}: no colour {c}", f + 1));
            }
            if s.bag.iter().all(|&n| n == 0) {
                s.bag = s.lid;
                s.lid = [0; COLOURS];
            }
            if s.bag[c] == 0 {
                return Err(format!(
                    "factory {}: no {} tile left in the bag",
                    f + 1,
                    COLOUR_NAMES[c]
                ));
            }
            s.bag[c] -= 1;
            s.factories[f][c] += 1;
            s.on_table += 1;
        }
        let full = s.rules.tiles_per_factory as usize;
        let left: u32 = s
            .bag
            .iter()
            .chain(s.lid.iter())
            .map(|&n| u32::from(n))
            .sum();
        if tiles.len() < full && left > 0 {
            return Err(format!(
                "factory {} holds {} tiles, but {left} tiles were left to deal",
                f + 1,
                tiles.len()
            ));
        }
    }
    Ok(())
}
