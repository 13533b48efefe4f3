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

use std::path::Path;

use serde::{Deserialize, Serialize};
use tessera_host::level::Diagnostic;

use crate::rules::{
    COLOUR_NAMES, COLOURS, FLOOR_SLOTS, LINES, Line, MAX_FACTORIES, MAX_FACTORY_TILES, MAX_PLAYERS,
    Rules, State, wall_colour,
};

/// The letters of the five colours, in the script's order.
pub const LETTERS: [char; COLOURS] = ['B', 'Y', 'R', 'G', 'O'];

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

    /// The goal in words.
    pub fn describe(&self) -> String {
        match self {
            Goal::None => "no goal (an ordinary game)".into(),
            Goal::RoundScore { seat, points } => {
                format!("player {seat}: score at least {points} this round")
            }
            Goal::Win { seat } => format!("player {seat}: win from here"),
            Goal::FinalScore { seat, points } => {
                format!("player {seat}: end the game with at least {points} points")
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

/// What [`check_position`] found.
#[derive(Debug, Clone)]
pub struct PositionCheck {
    /// Every finding (errors stop the position from being played).
    pub findings: Vec<Diagnostic>,
    /// The table, when there was no error and rules were given.
    pub state: Option<State>,
    /// Tiles of each colour on walls, lines, floors, factories and centre.
    pub placed: [u32; COLOURS],
    /// Tiles of each colour in the game (placed, bag and lid): at most the
    /// script's `tiles_per_colour` (known when rules were given).
    pub in_play: [u32; COLOURS],
}

impl PositionCheck {
    /// The first error.
    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.findings.iter().find(|d| d.is_error())
    }
}

/// The cells of column 0 (shift right by the column for another).
const COLUMN_CELLS: u32 = 1 | 1 << 5 | 1 << 10 | 1 << 15 | 1 << 20;

fn finding(message: String) -> Diagnostic {
    Diagnostic::error(Path::new(""), message).at("position")
}

/// Checks a position and builds its table. Without `rules` (a level's
/// diagnosis, which has no script) only what needs no script is checked;
/// with them (a game start, the scenario editor) every count is, and the
/// table is built. The wall is grey when the rules say so, else when
/// `grey` says so; when neither is known (a level that leaves the variant
/// to the script, checked without it) walls are held only to what both
/// walls require: each colour at most once per row and once per column.
pub fn check_position(pos: &Position, rules: Option<&Rules>, grey: Option<bool>) -> PositionCheck {
    let grey = rules.map(|r| r.grey_wall).or(grey);
    let mut out = Vec::new();
    let mut placed = [0u32; COLOURS];
    let players = pos.boards.len();
    if !(2..=MAX_PLAYERS).contains(&players) {
        out.push(
            finding(format!(
                "a scenario has 2 to 4 boards (one per player); this one has {players}"
            ))
            .at("boards"),
        );
    }
    if !(1..=players.max(1)).contains(&usize::from(pos.to_move)) {
        out.push(
            finding(format!(
                "`to_move` is player {}, but there are players 1 to {players}",
                pos.to_move
            ))
            .at("to_move"),
        );
    }
    if pos.round == 0 {
        out.push(finding("`round` counts from 1".into()).at("round"));
    }
    let n = players.min(MAX_PLAYERS);
    let mut base = rules.copied().unwrap_or_default();
    base.grey_wall = grey.unwrap_or(false);
    let mut state = State::new(base, n.max(2));
    let mut markers = 0;
    for (p, board) in pos.boards.iter().enumerate().take(MAX_PLAYERS) {
        let at = |d: Diagnostic| d.at("boards").at_index(p);
        let b = &mut state.boards[p];
        b.score = board.score;
        if board.score < 0 {
            out.push(
                at(finding(format!(
                    "player {}: a score is never below 0 (it is {})",
                    p + 1,
                    board.score
                )))
                .at("score"),
            );
        }
        if board.wall.len() > LINES {
            out.push(
                at(finding(format!(
                    "player {}: the wall has 5 rows, this one lists {}",
                    p + 1,
                    board.wall.len()
                )))
                .at("wall"),
            );
        }
        for (r, row) in board.wall.iter().enumerate().take(LINES) {
            let here = |d: Diagnostic| at(d).at("wall").at_index(r);
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != LINES {
                out.push(here(finding(format!(
                    "player {} wall row {}: 5 cells (letters or `.`), found {} in `{row}`",
                    p + 1,
                    r + 1,
                    cells.len()
                ))));
                continue;
            }
            for (c, &ch) in cells.iter().enumerate() {
                if ch == '.' {
                    continue;
                }
                let Some(k) = colour_of(ch) else {
                    out.push(here(finding(format!(
                        "player {} wall row {}: `{ch}` is no colour (B Y R G O, or `.`)",
                        p + 1,
                        r + 1
                    ))));
                    continue;
                };
                if grey == Some(false) && k != wall_colour(r, c) {
                    out.push(here(finding(format!(
                        "player {} wall row {} column {}: that cell holds {}, not {}",
                        p + 1,
                        r + 1,
                        c + 1,
                        COLOUR_NAMES[wall_colour(r, c)],
                        COLOUR_NAMES[k]
                    ))));
                    continue;
                }
                let in_row = (b.colours[k] >> (r * 5)) & 0b11111 != 0;
                let in_column = (b.colours[k] >> c) & COLUMN_CELLS != 0;
                if in_row || in_column {
                    out.push(here(finding(format!(
                        "player {} wall row {} column {}: {} is already in this {} (each \
                         colour once per row and once per column)",
                        p + 1,
                        r + 1,
                        c + 1,
                        COLOUR_NAMES[k],
                        if in_row { "row" } else { "column" }
                    ))));
                    continue;
                }
                b.wall |= 1 << (r * 5 + c);
                b.colours[k] |= 1 << (r * 5 + c);
                placed[k] += 1;
            }
        }
        if board.lines.len() > LINES {
            out.push(
                at(finding(format!(
                    "player {}: 5 pattern lines, this one lists {}",
                    p + 1,
                    board.lines.len()
                )))
                .at("lines"),
            );
        }
        for (r, text) in board.lines.iter().enumerate().take(LINES) {
            let here = |d: Diagnostic| at(d).at("lines").at_index(r);
            let mut colour = None;
            let mut count = 0usize;
            let mut bad = false;
            for ch in text.chars() {
                match colour_of(ch) {
                    Some(k) if colour.is_none_or(|c| c == k) => {
                        colour = Some(k);
                        count += 1;
                    }
                    Some(_) => {
                        out.push(here(finding(format!(
                            "player {} pattern line {}: one colour per line (`{text}`)",
                            p + 1,
                            r + 1
                        ))));
                        bad = true;
                        break;
                    }
                    None => {
                        out.push(here(finding(format!(
                            "player {} pattern line {}: `{ch}` is no colour (B Y R G O)",
                            p + 1,
                            r + 1
                        ))));
                        bad = true;
                        break;
                    }
                }
            }
            if bad {
                continue;
            }
            if count > r + 1 {
                out.push(here(finding(format!(
                    "player {} pattern line {} holds {} tiles at most, `{text}` has {count}",
                    p + 1,
                    r + 1,
                    r + 1
                ))));
                continue;
            }
            if let Some(k) = colour {
                // Counted even when refused, so the tile count stays true.
                placed[k] += count as u32;
                let row_has = (b.colours[k] >> (r * 5)) & 0b11111 != 0;
                if row_has {
                    out.push(here(finding(format!(
                        "player {} pattern line {} holds {}, but wall row {} already has {}",
                        p + 1,
                        r + 1,
                        COLOUR_NAMES[k],
                        r + 1,
                        COLOUR_NAMES[k]
                    ))));
                    continue;
                }
                let mut probe = *b;
                probe.grey = grey.unwrap_or(false);
                if grey.is_some() && probe.free_columns(r, k) == 0 {
                    out.push(here(finding(format!(
                        "player {} pattern line {} holds {}, but no free column of wall row {} \
                         can take it",
                        p + 1,
                        r + 1,
                        COLOUR_NAMES[k],
                        r + 1
                    ))));
                    continue;
                }
                b.lines[r] = Line {
                    colour: k as u8,
                    count: count as u8,
                };
            }
        }
        let mut floor_len = usize::from(board.marker);
        for ch in board.floor.chars() {
            match colour_of(ch) {
                Some(k) => {
                    b.floor[k] += 1;
                    placed[k] += 1;
                    floor_len += 1;
                }
                None => out.push(
                    at(finding(format!(
                        "player {} floor: `{ch}` is no colour (B Y R G O)",
                        p + 1
                    )))
                    .at("floor"),
                ),
            }
        }
        if floor_len > FLOOR_SLOTS {
            out.push(
                at(finding(format!(
                    "player {} floor: 7 slots (tiles and the marker), this one fills {floor_len}",
                    p + 1
                )))
                .at("floor"),
            );
        }
        b.floor_len = floor_len.min(FLOOR_SLOTS) as u8;
        b.marker = board.marker;
        if board.marker {
            markers += 1;
            state.next_first = p as u8;
        }
    }
    if markers > 1 {
        out.push(
            finding(format!(
                "the first-player marker lies on {markers} floors; there is one marker"
            ))
            .at("boards"),
        );
    }
    state.marker_in_centre = markers == 0;
    if markers == 0 {
        state.next_first = pos.to_move.saturating_sub(1).min(n.max(2) as u8 - 1);
    }
    let factory_limit = rules.map_or(MAX_FACTORIES, |r| r.factories_for(n.max(2)));
    if pos.factories.len() > factory_limit {
        out.push(
            finding(format!(
                "{} factories listed; {} players play with {factory_limit}{}",
                pos.factories.len(),
                n,
                if rules.is_some() {
                    " (scripts/azul.lua: factories)"
                } else {
                    ""
                }
            ))
            .at("factories"),
        );
    }
    let per_factory = rules.map_or(MAX_FACTORY_TILES, |r| {
        usize::from(r.tiles_per_factory).min(MAX_FACTORY_TILES)
    });
    for (f, text) in pos.factories.iter().enumerate().take(MAX_FACTORIES) {
        let here = |d: Diagnostic| d.at("factories").at_index(f);
        let mut count = 0;
        for ch in text.chars() {
            match colour_of(ch) {
                Some(k) => {
                    state.factories[f][k] += 1;
                    placed[k] += 1;
                    count += 1;
                }
                None => out.push(here(finding(format!(
                    "factory {}: `{ch}` is no colour (B Y R G O)",
                    f + 1
                )))),
            }
        }
        if count > per_factory {
            out.push(here(finding(format!(
                "factory {} holds {per_factory} tiles at most, `{text}` has {count}",
                f + 1
            ))));
        }
    }
    for ch in pos.centre.chars() {
        match colour_of(ch) {
            Some(k) => {
                state.centre[k] += 1;
                placed[k] += 1;
            }
            None => {
                out.push(finding(format!("centre: `{ch}` is no colour (B Y R G O)")).at("centre"))
            }
        }
    }
    let on_table: u32 = state
        .factories
        .iter()
        .flatten()
        .map(|&n| u32::from(n))
        .sum::<u32>()
        + state.centre.iter().map(|&n| u32::from(n)).sum::<u32>();
    if on_table == 0 {
        out.push(
            finding("no tile on the factories or in the centre: there is nothing to take".into())
                .at("factories"),
        );
    }
    let mut in_play = placed;
    if let Some(rules) = rules {
        let limit = u32::from(rules.tiles_per_colour);
        let bag = pos.bag.map(|t| t.counts());
        let lid = pos.lid.map(|t| t.counts());
        for k in 0..COLOURS {
            let given = bag.map_or(0, |b| u32::from(b[k])) + lid.map_or(0, |l| u32::from(l[k]));
            let total = placed[k] + given;
            if total > limit {
                let field = if bag.is_some() { "bag" } else { "boards" };
                out.push(
                    finding(format!(
                        "{total} {} tiles in play ({} placed{}); scripts/azul.lua allows \
                         {limit} of a colour (tiles_per_colour)",
                        COLOUR_NAMES[k],
                        placed[k],
                        if given > 0 {
                            format!(", {given} in the bag and lid")
                        } else {
                            String::new()
                        }
                    ))
                    .at(field),
                );
                continue;
            }
            let rest = (limit - total) as u8;
            // Every tile of the game is somewhere: the unnamed pile takes
            // the rest, so conservation holds.
            match (bag, lid) {
                (None, None) => {
                    state.bag[k] = rest;
                    state.lid[k] = 0;
                }
                (None, Some(l)) => {
                    state.bag[k] = rest;
                    state.lid[k] = l[k];
                }
                (Some(b), None) => {
                    state.bag[k] = b[k];
                    state.lid[k] = rest;
                }
                (Some(b), Some(l)) => {
                    if rest != 0 {
                        out.push(
                            finding(format!(
                                "{} {} tiles in play with the bag and lid given; the game \
                                 holds {limit} (tiles_per_colour): leave out `bag` or `lid` \
                                 to put the rest there",
                                total, COLOUR_NAMES[k]
                            ))
                            .at("lid"),
                        );
                    }
                    state.bag[k] = b[k];
                    state.lid[k] = l[k];
                }
            }
            in_play[k] = limit;
        }
    }
    let errors = out.iter().any(Diagnostic::is_error);
    let state = (rules.is_some() && !errors).then(|| {
        state.on_table = on_table.min(255) as u8;
        state.to_move = pos.to_move.saturating_sub(1);
        state.round = pos.round;
        state
    });
    PositionCheck {
        findings: out,
        state,
        placed,
        in_play,
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
