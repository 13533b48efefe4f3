//! `check_record`: replays a game record and refuses the first line that
//! a legal, complete game would not have written. One checker per event
//! kind; the record's order is a small state machine ([`Expect`]): start,
//! then per round a deal, moves (and grey-wall column choices, and script
//! reloads), the tiling; at the end the bonuses and the end line.

use tessera_host::Outcome;
use tessera_host::rng::{GameRng, game_rng};
use tessera_host::text::count;

use super::{LineField, RecordLine, SourceField};
use crate::rules::{
    CENTRE, COLOUR_NAMES, COLOURS, FLOOR, MAX_FACTORIES, MAX_PLAYERS, Move, Rules, State,
    TilingReport,
};
use crate::rules::{Deal, MAX_FACTORY_TILES};
use crate::scenario::{Goal, check_position};
use crate::{deal_lists, text::letter};

/// The result of checking a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// Events checked and found consistent.
    pub events: usize,
    /// The first difference: 1-based line number and what differs.
    pub first_difference: Option<(usize, String)>,
    /// For a consistent record: the game in a few lines (rules in force,
    /// each player's score with the end bonus split into rows, columns and
    /// colours, and the outcome with its tie-break).
    pub summary: Vec<String>,
}

/// What the next line must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The `start` line.
    Start,
    /// The deal of the round.
    Deal,
    /// A move, a wall column choice or a script reload.
    Play,
    /// The tiling that follows the round's last move.
    Tiling,
    /// The end bonuses.
    Bonus,
    /// The `end` line.
    End,
    /// Nothing: the game (or the scenario's goal) is decided.
    Nothing,
}

impl Expect {
    fn describe(self, s: Option<&State>) -> String {
        let round = s.map_or(1, |s| s.round);
        match self {
            Expect::Start => "a `start` line".into(),
            Expect::Deal => format!("the deal of round {round}"),
            Expect::Play => format!("a move of round {round}"),
            Expect::Tiling => "the tiling of the round just played".into(),
            Expect::Bonus => "the end bonuses (`bonus`)".into(),
            Expect::End => "the `end` line".into(),
            Expect::Nothing => "nothing: the game was over".into(),
        }
    }
}

struct Checker {
    /// Rules for records that carry none (written before records did).
    fallback: Rules,
    state: Option<State>,
    expect: Expect,
    /// The tiling the round's last move caused, waiting for its line.
    tiling: Option<TilingReport>,
    goal: Goal,
    goal_round: u16,
    start_scores: [i32; MAX_PLAYERS],
    /// The line of the round's deal and of the last tiling (messages).
    dealt_at: usize,
    tiled_at: usize,
    script_changes: usize,
    rules_from: &'static str,
    /// The game's own stream, seeded from the start line: every deal is
    /// drawn from it, so a deal the seed would not give is refused at its
    /// line (a swapped tile the bag still held would otherwise show only
    /// later, as a score the rules do not give).
    deals: Option<(u64, GameRng)>,
}

/// Replays `text` (a record) and reports the first line that differs from
/// what a legal, complete game writes: a line that does not parse, an
/// event out of order or missing (a truncated record, a lost tiling, a
/// duplicated line), an illegal move, a deal the bag could not give, a
/// score, bonus or outcome the rules do not give. `rules` serve records
/// written before records carried their rules.
pub fn check_record(text: &str, rules: Rules) -> CheckReport {
    let mut checker = Checker {
        fallback: rules,
        state: None,
        expect: Expect::Start,
        tiling: None,
        goal: Goal::None,
        goal_round: 1,
        start_scores: [0; MAX_PLAYERS],
        dealt_at: 0,
        tiled_at: 0,
        script_changes: 0,
        rules_from: "the record",
        deals: None,
    };
    let mut events = 0;
    let mut last: Option<(usize, &str)> = None;
    let mut lines = 0;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        lines = line_no;
        if raw.trim().is_empty() {
            continue;
        }
        let result = serde_json::from_str::<RecordLine>(raw)
            .map_err(|e| unreadable(&e))
            .and_then(|event| checker.event(&event, line_no));
        if let Err(why) = result {
            let why = match last {
                Some((at, previous)) if previous == raw => {
                    format!("this line repeats line {at}: {why}")
                }
                _ => why,
            };
            return CheckReport {
                events,
                first_difference: Some((line_no, why)),
                summary: Vec::new(),
            };
        }
        last = Some((line_no, raw));
        events += 1;
    }
    if checker.expect != Expect::Nothing {
        let why = if events == 0 {
            "the record is empty: a record begins with a `start` line".to_string()
        } else {
            format!(
                "the record ends here, before the game's end: expected {}",
                checker.expect.describe(checker.state.as_ref())
            )
        };
        return CheckReport {
            events,
            first_difference: Some((lines + 1, why)),
            summary: Vec::new(),
        };
    }
    CheckReport {
        events,
        first_difference: None,
        summary: checker.summary(),
    }
}

impl Checker {
    fn event(&mut self, event: &RecordLine, line: usize) -> Result<(), String> {
        let kind = match event {
            RecordLine::Start { .. } => Expect::Start,
            RecordLine::Deal { .. } => Expect::Deal,
            RecordLine::Move { .. } | RecordLine::Wall { .. } | RecordLine::Script { .. } => {
                Expect::Play
            }
            RecordLine::Tiling { .. } => Expect::Tiling,
            RecordLine::Bonus { .. } => Expect::Bonus,
            RecordLine::End { .. } => Expect::End,
        };
        if kind != self.expect {
            return Err(self.out_of_order(event, kind));
        }
        let state = self.state.as_mut();
        match (event, state) {
            (RecordLine::Start { .. }, _) => self.start(event),
            (RecordLine::Deal { round, factories }, Some(s)) => {
                if *round != s.round {
                    return Err(format!(
                        "deal of round {round}, but round {} is due",
                        s.round
                    ));
                }
                let seeded = self.deals.as_mut().map(|(seed, rng)| {
                    let mut table = *s;
                    let mut drawn: Deal = [[255; MAX_FACTORY_TILES]; MAX_FACTORIES];
                    table.deal(rng, Some(&mut drawn));
                    (*seed, deal_lists(&drawn, usize::from(s.factory_count)))
                });
                deal_fixed(s, factories)?;
                if let Some((seed, expected)) = seeded {
                    deal_from_seed(*round, seed, factories, &expected)?;
                }
                self.dealt_at = line;
                self.expect = Expect::Play;
                Ok(())
            }
            (RecordLine::Script { rules, hash }, Some(s)) => {
                if rules.tiles_per_colour.is_some() || rules.tiles_per_factory.is_some() {
                    return Err(format!(
                        "script {hash}: tile counts cannot change mid-game (they stay the start's)"
                    ));
                }
                rules
                    .apply_to(&mut s.rules)
                    .map_err(|why| format!("script {hash}: {why}"))?;
                self.script_changes += 1;
                Ok(())
            }
            (
                RecordLine::Move {
                    player,
                    source,
                    colour,
                    line: target,
                },
                Some(s),
            ) => {
                turn(s, *player, "moves")?;
                let m = parse_move(source, colour, target)?;
                if let Some(why) = s.refusal(m) {
                    return Err(format!("illegal move: {why}"));
                }
                if s.play(m) && s.begin_tiling(None) {
                    self.tiling = Some(s.tile_walls());
                    self.expect = Expect::Tiling;
                }
                Ok(())
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
                wall_choice(s, *player, *row, *column, colour)?;
                let m = Move::wall(usize::from(*row) - 1, usize::from(*column) - 1);
                if s.choose_column(m, None) {
                    self.tiling = Some(s.tile_walls());
                    self.expect = Expect::Tiling;
                }
                Ok(())
            }
            (RecordLine::Tiling { round, scores }, Some(_)) => self.tiled(*round, scores, line),
            (RecordLine::Bonus { bonuses }, Some(s)) => {
                let actual = end_bonuses(s);
                if &actual != bonuses {
                    return Err(format!(
                        "bonuses {bonuses:?} recorded, the rules give {actual:?}"
                    ));
                }
                self.expect = Expect::End;
                Ok(())
            }
            (RecordLine::End { scores, outcome }, Some(s)) => {
                let actual: Vec<i64> = (0..s.players as usize)
                    .map(|p| i64::from(s.boards[p].score))
                    .collect();
                if &actual != scores {
                    return Err(format!(
                        "final scores {scores:?} recorded, the rules give {actual:?}"
                    ));
                }
                let expected = self.outcome().to_string();
                if *outcome != expected {
                    return Err(format!(
                        "outcome \"{outcome}\" recorded, the scores give \"{expected}\""
                    ));
                }
                self.expect = Expect::Nothing;
                Ok(())
            }
            (_, None) => Err("the record must begin with a `start` line".into()),
        }
    }

    /// Why `event` (of `kind`) cannot come now, naming what was due.
    fn out_of_order(&self, event: &RecordLine, kind: Expect) -> String {
        let s = self.state.as_ref();
        let due = self.expect.describe(s);
        match (event, self.expect) {
            (RecordLine::Start { .. }, _) => "a second `start` line".into(),
            (_, Expect::Start) => "the record must begin with a `start` line".into(),
            (RecordLine::Tiling { round, .. }, Expect::Deal | Expect::Bonus | Expect::Nothing)
                if self.tiled_at > 0 =>
            {
                format!(
                    "a second tiling (round {round}): line {} already recorded the round's tiling",
                    self.tiled_at
                )
            }
            (RecordLine::Tiling { .. }, Expect::Play) => {
                "a tiling while tiles are still on the table (the round is not over)".into()
            }
            (RecordLine::Deal { round, .. }, Expect::Play) => format!(
                "a second deal of round {round}: line {} already dealt it, and tiles are \
                 still on the table",
                self.dealt_at
            ),
            (_, Expect::Nothing) => "a line after the game's end".into(),
            _ if kind == Expect::Play && self.expect == Expect::Deal => {
                format!("expected {due} before any move")
            }
            _ => format!("expected {due}, found the event `{}`", event_name(event)),
        }
    }

    fn start(&mut self, event: &RecordLine) -> Result<(), String> {
        let RecordLine::Start {
            players,
            factories,
            seed,
            scenario,
            grey_wall,
            position,
            goal,
            rules: recorded,
            ..
        } = event
        else {
            return Err("the record must begin with a `start` line".into());
        };
        if *scenario && position.is_none() {
            return Err(
                "this record starts from a scenario's position but does not carry it \
                 (written by an older version); it cannot be checked"
                    .into(),
            );
        }
        if !(2..=4).contains(players) {
            return Err(format!("{} (2 to 4)", count(*players, "player")));
        }
        let mut rules = self.fallback;
        match recorded {
            Some(recorded) => {
                recorded.apply_to(&mut rules)?;
                if !(1..=MAX_FACTORIES as u8).contains(factories) {
                    return Err(format!("{factories} factories (1 to {MAX_FACTORIES})"));
                }
                rules.factories[usize::from(*players) - 2] = *factories;
            }
            None => self.rules_from = "the project's script (the record carries no rules)",
        }
        rules.grey_wall = *grey_wall;
        let state = match position {
            Some(position) => {
                let check = check_position(position, Some(&rules), None);
                if let Some(error) = check.first_error() {
                    return Err(format!("the recorded position: {}", error.message));
                }
                let s = check.state.ok_or("the recorded position")?;
                if s.players != *players {
                    return Err(format!(
                        "{players} players recorded, the position has {} boards",
                        s.players
                    ));
                }
                s
            }
            None => State::new(rules, usize::from(*players)),
        };
        if state.factory_count != *factories {
            return Err(format!(
                "{factories} factories recorded; the rules give {} for {players} players",
                state.factory_count
            ));
        }
        self.goal = goal.clone().unwrap_or_default();
        if self.goal.written_seat() == Some(0) {
            return Err("the goal's seat counts from 1 (player 1), not 0".into());
        }
        if let Some(seat) = self.goal.seat()
            && seat >= usize::from(*players)
        {
            return Err(format!(
                "the goal is about player {}, but the game has {players} players",
                seat + 1
            ));
        }
        self.goal_round = state.round;
        self.deals = Some((*seed, game_rng(*seed)));
        self.start_scores = std::array::from_fn(|p| state.boards[p].score);
        // A scenario's first move needs no deal: its factories are set.
        self.expect = if position.is_some() {
            Expect::Play
        } else {
            Expect::Deal
        };
        self.state = Some(state);
        Ok(())
    }

    /// The tiling line: its round and the scores before any end bonus.
    fn tiled(&mut self, round: u16, scores: &[i32], line: usize) -> Result<(), String> {
        let s = self.state.as_ref().ok_or("no game")?;
        self.tiling = None;
        let expected_round = if s.over { s.round } else { s.round - 1 };
        if round != expected_round {
            return Err(format!(
                "tiling of round {round}, expected round {expected_round}"
            ));
        }
        // At the game's end the scores hold the bonuses already; the
        // recorded tiling scores are before them.
        let bonus = end_bonuses(s);
        let before_bonus: Vec<i32> = (0..s.players as usize)
            .map(|p| s.boards[p].score - if s.over { bonus[p] } else { 0 })
            .collect();
        if before_bonus != scores {
            return Err(format!(
                "scores {scores:?} recorded, the rules give {before_bonus:?}"
            ));
        }
        self.tiled_at = line;
        let round_goal_decided =
            matches!(self.goal, Goal::RoundScore { .. }) && round == self.goal_round;
        self.expect = if s.over {
            Expect::Bonus
        } else if round_goal_decided {
            // The scenario stops once its round goal is decided.
            Expect::Nothing
        } else {
            Expect::Deal
        };
        Ok(())
    }

    /// The outcome the game reports: a scenario's goal met or missed, or
    /// the winner(s) by score then complete rows.
    fn outcome(&self) -> Outcome {
        let Some(s) = &self.state else {
            return Outcome::Playing;
        };
        if let Some(seat) = self.goal.seat() {
            let score = s.boards[seat].score;
            let met = match self.goal {
                Goal::RoundScore { points, .. } => score - self.start_scores[seat] >= points,
                Goal::Win { .. } => s.winners().0[seat],
                Goal::FinalScore { points, .. } => score >= points,
                Goal::None => false,
            };
            return if met { Outcome::Won } else { Outcome::Lost };
        }
        let (winners, count) = s.winners();
        let seats: Vec<usize> = (0..s.players as usize).filter(|&p| winners[p]).collect();
        if count == 1 {
            Outcome::Winner(seats[0])
        } else {
            Outcome::Shared(seats)
        }
    }

    /// The checked game in words: rules, scores with the bonus split, and
    /// the outcome with its tie-break.
    fn summary(&self) -> Vec<String> {
        let Some(s) = &self.state else {
            return Vec::new();
        };
        let r = &s.rules;
        let mut out = vec![format!(
            "{} players, {} rounds; rules from {}{}",
            s.players,
            s.round,
            self.rules_from,
            match self.script_changes {
                0 => String::new(),
                1 => ", changed once mid-game by a script reload".into(),
                n => format!(", changed {n} times mid-game by script reloads"),
            }
        )];
        let n = s.players as usize;
        for p in 0..n {
            let b = &s.boards[p];
            let (rows, columns, colours) = (
                b.complete_rows(),
                b.complete_columns(),
                b.complete_colours(),
            );
            let bonus = rows as i32 * r.row_bonus
                + columns as i32 * r.column_bonus
                + colours as i32 * r.colour_bonus;
            out.push(format!(
                "player {}: {} = {} from tiling + {bonus} bonus ({} x {}, {} x {}, {} x {})",
                p + 1,
                count(b.score, "point"),
                b.score - if s.over { bonus } else { 0 },
                count(rows, "row"),
                r.row_bonus,
                count(columns, "column"),
                r.column_bonus,
                count(colours, "colour"),
                r.colour_bonus
            ));
        }
        out.push(self.outcome_in_words(s));
        out
    }

    fn outcome_in_words(&self, s: &State) -> String {
        let outcome = self.outcome();
        if self.goal.seat().is_some() || !s.over {
            return format!("outcome: {outcome} (goal: {})", self.goal.describe());
        }
        let n = s.players as usize;
        let top = (0..n).map(|p| s.boards[p].score).max().unwrap_or(0);
        let tied: Vec<usize> = (0..n).filter(|&p| s.boards[p].score == top).collect();
        if tied.len() == 1 {
            return format!("outcome: {outcome}");
        }
        let names: Vec<String> = tied.iter().map(|p| (p + 1).to_string()).collect();
        let rows: Vec<String> = tied
            .iter()
            .map(|&p| s.boards[p].complete_rows().to_string())
            .collect();
        format!(
            "outcome: {outcome}: players {} tie on {}; the tie-break is complete \
             rows ({})",
            names.join(" and "),
            count(top, "point"),
            rows.join(" to ")
        )
    }
}

/// A line that is not a record event, in words: serde's "untagged enum"
/// becomes what the field may hold, and "line 1" (each record line is
/// parsed alone) becomes just the column.
fn unreadable(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let why = if text.contains("untagged enum SourceField") {
        "`source` must be a factory number from 1 or \"centre\"".to_string()
    } else if text.contains("untagged enum LineField") {
        "`line` must be a pattern line 1 to 5 or \"floor\"".to_string()
    } else {
        match text.rsplit_once(" at line 1 column ") {
            Some((what, column)) => format!("{what} (column {column})"),
            None => text,
        }
    };
    format!("cannot read: {why}")
}

fn event_name(event: &RecordLine) -> &'static str {
    match event {
        RecordLine::Start { .. } => "start",
        RecordLine::Script { .. } => "script",
        RecordLine::Deal { .. } => "deal",
        RecordLine::Move { .. } => "move",
        RecordLine::Wall { .. } => "wall",
        RecordLine::Tiling { .. } => "tiling",
        RecordLine::Bonus { .. } => "bonus",
        RecordLine::End { .. } => "end",
    }
}

/// Whether it is `player`'s (1-based) turn.
fn turn(s: &State, player: u8, verb: &str) -> Result<(), String> {
    if u32::from(player) != u32::from(s.to_move) + 1 {
        return Err(format!(
            "player {player} {verb}, but it is player {}'s turn",
            s.to_move + 1
        ));
    }
    Ok(())
}

/// A grey-wall column choice's fields against the choice waiting.
fn wall_choice(s: &State, player: u8, row: u8, column: u8, colour: &str) -> Result<(), String> {
    let Some((pending, line_colour, _)) = s.pending_choice() else {
        return Err("a wall column choice while no wall column is being chosen".into());
    };
    turn(s, player, "chooses a wall column")?;
    if COLOUR_NAMES[line_colour] != colour {
        return Err(format!(
            "colour {colour} recorded; line {} holds {}",
            pending + 1,
            COLOUR_NAMES[line_colour]
        ));
    }
    if !(1..=5).contains(&row) || !(1..=5).contains(&column) {
        return Err(format!("row {row}, column {column}: both 1 to 5"));
    }
    let m = Move::wall(usize::from(row) - 1, usize::from(column) - 1);
    match s.refusal(m) {
        Some(why) => Err(format!("illegal wall choice: {why}")),
        None => Ok(()),
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
/// bag from the lid when it runs out, refusing tiles the bag lacks, a
/// factory with more tiles than it holds, and a short factory while tiles
/// were left to deal.
pub fn deal_fixed(s: &mut State, factories: &[Vec<u8>]) -> Result<(), String> {
    if factories.len() != s.factory_count as usize {
        return Err(format!(
            "{} factories dealt, the table has {}",
            factories.len(),
            s.factory_count
        ));
    }
    let full = s.rules.tiles_per_factory as usize;
    for (f, tiles) in factories.iter().enumerate() {
        if tiles.len() > full {
            return Err(format!(
                "factory {} holds {}; a factory holds {full}",
                f + 1,
                count(tiles.len(), "tile")
            ));
        }
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
        let left: u32 = s
            .bag
            .iter()
            .chain(s.lid.iter())
            .map(|&n| u32::from(n))
            .sum();
        if tiles.len() < full && left > 0 {
            return Err(format!(
                "factory {} holds {}, but {} were left to deal",
                f + 1,
                count(tiles.len(), "tile"),
                count(left, "tile")
            ));
        }
    }
    Ok(())
}

/// Refuses a deal that is legal for the bag but not the one the record's
/// seed draws, naming the first factory that differs.
fn deal_from_seed(
    round: u16,
    seed: u64,
    recorded: &[Vec<u8>],
    expected: &[Vec<u8>],
) -> Result<(), String> {
    let tiles = |f: &[u8]| f.iter().map(|&c| letter(c)).collect::<String>();
    match recorded.iter().zip(expected).position(|(r, e)| r != e) {
        None => Ok(()),
        Some(f) => Err(format!(
            "round {round}'s deal is not the one seed {seed} draws: factory {} holds {} \
             in the record, the seed deals {}",
            f + 1,
            tiles(&recorded[f]),
            tiles(&expected[f])
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checker(state: State) -> Checker {
        Checker {
            fallback: Rules::default(),
            state: Some(state),
            expect: Expect::Nothing,
            tiling: None,
            goal: Goal::None,
            goal_round: 1,
            start_scores: [0; MAX_PLAYERS],
            dealt_at: 0,
            tiled_at: 0,
            script_changes: 0,
            rules_from: "the record",
            deals: None,
        }
    }

    #[test]
    fn a_tie_on_points_is_explained_by_the_complete_rows() {
        let mut s = State::new(Rules::default(), 3);
        s.over = true;
        for (p, score) in [(0, 40), (1, 40), (2, 12)] {
            s.boards[p].score = score;
        }
        // Player 2 has one complete row, player 1 none.
        s.boards[1].wall = 0b11111;
        let words = checker(s).outcome_in_words(&s);
        assert_eq!(
            words,
            "outcome: player 2 wins: players 1 and 2 tie on 40 points; the tie-break is \
             complete rows (0 to 1)"
        );
        // Still tied on rows: shared.
        s.boards[0].wall = 0b11111 << 5;
        let words = checker(s).outcome_in_words(&s);
        assert!(
            words.starts_with("outcome: players 1 and 2 share the win: players 1 and 2 tie"),
            "{words}"
        );
        // No tie: the winner alone.
        s.boards[1].score = 41;
        assert_eq!(checker(s).outcome_in_words(&s), "outcome: player 2 wins");
    }
}
