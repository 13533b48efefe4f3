//! [`check_position`], the one check of a scenario's position: one
//! checker per section of the position (the header, each board's wall,
//! pattern lines and floor, the marker, factories, centre, bag and lid),
//! each adding its findings and building its part of the table.

use std::path::Path;

use tessera_host::level::Diagnostic;
use tessera_host::text;

use super::{BoardSetup, MAX_ROUND, MAX_SCORE, Position, colour_of};
use crate::rules::{
    COLOUR_NAMES, COLOURS, FLOOR_SLOTS, LINES, Line, MAX_FACTORIES, MAX_FACTORY_TILES, MAX_PLAYERS,
    Rules, State, wall_colour,
};

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

/// The findings so far and the table being built.
struct Checker<'r> {
    rules: Option<&'r Rules>,
    /// The wall variant when known (`None`: held to what both require).
    grey: Option<bool>,
    out: Vec<Diagnostic>,
    placed: [u32; COLOURS],
    state: State,
    /// Players the table is built for (the boards listed, at most 4).
    players: usize,
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
    let players = pos.boards.len().min(MAX_PLAYERS);
    let mut base = rules.copied().unwrap_or_default();
    base.grey_wall = grey.unwrap_or(false);
    let mut checker = Checker {
        rules,
        grey,
        out: Vec::new(),
        placed: [0; COLOURS],
        state: State::new(base, players.max(2)),
        players,
    };
    checker.header(pos);
    for (p, board) in pos.boards.iter().enumerate().take(MAX_PLAYERS) {
        checker.board(p, board);
    }
    checker.marker(pos);
    checker.factories(pos);
    let on_table = checker.centre(pos);
    let in_play = checker.bag_and_lid(pos);
    let Checker {
        out,
        placed,
        mut state,
        ..
    } = checker;
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

impl Checker<'_> {
    /// Board count, the player to move, the round.
    fn header(&mut self, pos: &Position) {
        let players = pos.boards.len();
        if !(2..=MAX_PLAYERS).contains(&players) {
            self.out.push(
                finding(format!(
                    "a scenario has 2 to 4 boards (one per player); this one has {players}"
                ))
                .at("boards"),
            );
        }
        if !(1..=players.max(1)).contains(&usize::from(pos.to_move)) {
            self.out.push(
                finding(format!(
                    "`to_move` is player {}, but there are players 1 to {players}",
                    pos.to_move
                ))
                .at("to_move"),
            );
        }
        if pos.round == 0 || pos.round > MAX_ROUND {
            self.out.push(
                finding(format!(
                    "`round` counts from 1 and is at most {MAX_ROUND} (a game ends long before), not {}",
                    pos.round
                ))
                .at("round"),
            );
        }
    }

    /// One board: score, wall, pattern lines, floor.
    fn board(&mut self, p: usize, board: &BoardSetup) {
        self.state.boards[p].score = board.score;
        if !(0..=MAX_SCORE).contains(&board.score) {
            self.out.push(
                finding(format!(
                    "player {}: a score is 0 to {MAX_SCORE} (it is {})",
                    p + 1,
                    board.score
                ))
                .at("boards")
                .at_index(p)
                .at("score"),
            );
        }
        self.wall(p, board);
        self.lines(p, board);
        self.floor(p, board);
    }

    fn wall(&mut self, p: usize, board: &BoardSetup) {
        let at = |d: Diagnostic| d.at("boards").at_index(p).at("wall");
        if board.wall.len() > LINES {
            self.out.push(at(finding(format!(
                "player {}: the wall has 5 rows, this one lists {}",
                p + 1,
                board.wall.len()
            ))));
        }
        for (r, row) in board.wall.iter().enumerate().take(LINES) {
            let here = |d: Diagnostic| at(d).at_index(r);
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != LINES {
                self.out.push(here(finding(format!(
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
                if let Err(why) = self.wall_cell(p, r, c, ch) {
                    self.out.push(here(finding(why)));
                }
            }
        }
    }

    /// One wall cell's letter: a colour, in its printed cell on the
    /// printed wall, once per row and column.
    fn wall_cell(&mut self, p: usize, r: usize, c: usize, ch: char) -> Result<(), String> {
        let Some(k) = colour_of(ch) else {
            return Err(format!(
                "player {} wall row {}: `{ch}` is no colour (B Y R G O, or `.`)",
                p + 1,
                r + 1
            ));
        };
        if self.grey == Some(false) && k != wall_colour(r, c) {
            return Err(format!(
                "player {} wall row {} column {}: that cell holds {}, not {}",
                p + 1,
                r + 1,
                c + 1,
                COLOUR_NAMES[wall_colour(r, c)],
                COLOUR_NAMES[k]
            ));
        }
        let b = &mut self.state.boards[p];
        let in_row = (b.colours[k] >> (r * 5)) & 0b11111 != 0;
        let in_column = (b.colours[k] >> c) & COLUMN_CELLS != 0;
        if in_row || in_column {
            return Err(format!(
                "player {} wall row {} column {}: {} is already in this {} (each colour once \
                 per row and once per column)",
                p + 1,
                r + 1,
                c + 1,
                COLOUR_NAMES[k],
                if in_row { "row" } else { "column" }
            ));
        }
        b.wall |= 1 << (r * 5 + c);
        b.colours[k] |= 1 << (r * 5 + c);
        self.placed[k] += 1;
        Ok(())
    }

    fn lines(&mut self, p: usize, board: &BoardSetup) {
        let at = |d: Diagnostic| d.at("boards").at_index(p).at("lines");
        if board.lines.len() > LINES {
            self.out.push(at(finding(format!(
                "player {}: 5 pattern lines, this one lists {}",
                p + 1,
                board.lines.len()
            ))));
        }
        for (r, text) in board.lines.iter().enumerate().take(LINES) {
            if let Err(why) = self.line(p, r, text) {
                self.out.push(at(finding(why)).at_index(r));
            }
        }
    }

    /// One pattern line: one colour, at most `r + 1` tiles, a colour its
    /// wall row lacks and some column of the row can take.
    fn line(&mut self, p: usize, r: usize, text: &str) -> Result<(), String> {
        let mut colour = None;
        let mut count = 0usize;
        for ch in text.chars() {
            match colour_of(ch) {
                Some(k) if colour.is_none_or(|c| c == k) => {
                    colour = Some(k);
                    count += 1;
                }
                Some(_) => {
                    return Err(format!(
                        "player {} pattern line {}: one colour per line (`{text}`)",
                        p + 1,
                        r + 1
                    ));
                }
                None => {
                    return Err(format!(
                        "player {} pattern line {}: `{ch}` is no colour (B Y R G O)",
                        p + 1,
                        r + 1
                    ));
                }
            }
        }
        if count > r + 1 {
            return Err(format!(
                "player {} pattern line {} holds {} at most, `{text}` has {count}",
                p + 1,
                r + 1,
                text::count(r + 1, "tile")
            ));
        }
        let Some(k) = colour else {
            return Ok(());
        };
        // Counted even when refused, so the tile count stays true.
        self.placed[k] += count as u32;
        let b = &mut self.state.boards[p];
        if (b.colours[k] >> (r * 5)) & 0b11111 != 0 {
            return Err(format!(
                "player {} pattern line {} holds {}, but wall row {} already has {}",
                p + 1,
                r + 1,
                COLOUR_NAMES[k],
                r + 1,
                COLOUR_NAMES[k]
            ));
        }
        let mut probe = *b;
        probe.grey = self.grey.unwrap_or(false);
        if self.grey.is_some() && probe.free_columns(r, k) == 0 {
            return Err(format!(
                "player {} pattern line {} holds {}, but no free column of wall row {} can \
                 take it",
                p + 1,
                r + 1,
                COLOUR_NAMES[k],
                r + 1
            ));
        }
        b.lines[r] = Line {
            colour: k as u8,
            count: count as u8,
        };
        Ok(())
    }

    /// The floor: tiles and the marker in 7 slots.
    fn floor(&mut self, p: usize, board: &BoardSetup) {
        let at = |d: Diagnostic| d.at("boards").at_index(p).at("floor");
        let mut floor_len = usize::from(board.marker);
        for ch in board.floor.chars() {
            match colour_of(ch) {
                Some(k) => {
                    self.state.boards[p].floor[k] += 1;
                    self.placed[k] += 1;
                    floor_len += 1;
                }
                None => self.out.push(at(finding(format!(
                    "player {} floor: `{ch}` is no colour (B Y R G O)",
                    p + 1
                )))),
            }
        }
        if floor_len > FLOOR_SLOTS {
            self.out.push(at(finding(format!(
                "player {} floor: 7 slots (tiles and the marker), this one fills {floor_len}",
                p + 1
            ))));
        }
        let b = &mut self.state.boards[p];
        b.floor_len = floor_len.min(FLOOR_SLOTS) as u8;
        b.marker = board.marker;
    }

    /// One first-player marker at most: on a floor, or in the centre.
    fn marker(&mut self, pos: &Position) {
        let holders: Vec<usize> = pos
            .boards
            .iter()
            .take(MAX_PLAYERS)
            .enumerate()
            .filter(|(_, b)| b.marker)
            .map(|(p, _)| p)
            .collect();
        if holders.len() > 1 {
            self.out.push(
                finding(format!(
                    "the first-player marker lies on {} floors; there is one marker",
                    holders.len()
                ))
                .at("boards"),
            );
        }
        self.state.marker_in_centre = holders.is_empty();
        self.state.next_first = match holders.last() {
            Some(&p) => p as u8,
            None => pos
                .to_move
                .saturating_sub(1)
                .min(self.players.max(2) as u8 - 1),
        };
    }

    /// The factories: as many as the players have, each within its size.
    fn factories(&mut self, pos: &Position) {
        let players = self.players.max(2);
        let factory_limit = self
            .rules
            .map_or(MAX_FACTORIES, |r| r.factories_for(players));
        if pos.factories.len() > factory_limit {
            self.out.push(
                finding(format!(
                    "{} factories listed; {} players play with {factory_limit}{}",
                    pos.factories.len(),
                    self.players,
                    if self.rules.is_some() {
                        " (scripts/azul.lua: factories)"
                    } else {
                        ""
                    }
                ))
                .at("factories"),
            );
        }
        let per_factory = self.rules.map_or(MAX_FACTORY_TILES, |r| {
            usize::from(r.tiles_per_factory).min(MAX_FACTORY_TILES)
        });
        for (f, text) in pos.factories.iter().enumerate().take(MAX_FACTORIES) {
            let here = |d: Diagnostic| d.at("factories").at_index(f);
            let mut count = 0;
            for ch in text.chars() {
                match colour_of(ch) {
                    Some(k) => {
                        self.state.factories[f][k] += 1;
                        self.placed[k] += 1;
                        count += 1;
                    }
                    None => self.out.push(here(finding(format!(
                        "factory {}: `{ch}` is no colour (B Y R G O)",
                        f + 1
                    )))),
                }
            }
            if count > per_factory {
                self.out.push(here(finding(format!(
                    "factory {} holds {per_factory} tiles at most, `{text}` has {count}",
                    f + 1
                ))));
            }
        }
    }

    /// The centre; returns the tiles on the table (factories and centre),
    /// which must not be none.
    fn centre(&mut self, pos: &Position) -> u32 {
        for ch in pos.centre.chars() {
            match colour_of(ch) {
                Some(k) => {
                    self.state.centre[k] += 1;
                    self.placed[k] += 1;
                }
                None => self
                    .out
                    .push(finding(format!("centre: `{ch}` is no colour (B Y R G O)")).at("centre")),
            }
        }
        let s = &self.state;
        let on_table: u32 = s
            .factories
            .iter()
            .flatten()
            .map(|&n| u32::from(n))
            .sum::<u32>()
            + s.centre.iter().map(|&n| u32::from(n)).sum::<u32>();
        if on_table == 0 {
            self.out.push(
                finding(
                    "no tile on the factories or in the centre: there is nothing to take".into(),
                )
                .at("factories"),
            );
        }
        on_table
    }

    /// Bag and lid against the script's tiles per colour (with rules
    /// only): every tile of the game is somewhere, the unnamed pile takes
    /// the rest. Returns the tiles in play per colour.
    fn bag_and_lid(&mut self, pos: &Position) -> [u32; COLOURS] {
        let mut in_play = self.placed;
        let Some(rules) = self.rules else {
            return in_play;
        };
        let limit = u32::from(rules.tiles_per_colour);
        let bag = pos.bag.map(|t| t.counts());
        let lid = pos.lid.map(|t| t.counts());
        for k in 0..COLOURS {
            let given = bag.map_or(0, |b| u32::from(b[k])) + lid.map_or(0, |l| u32::from(l[k]));
            let total = self.placed[k] + given;
            if total > limit {
                let field = if bag.is_some() { "bag" } else { "boards" };
                self.out.push(
                    finding(format!(
                        "{total} {} tiles in play ({} placed{}); scripts/azul.lua allows \
                         {limit} of a colour (tiles_per_colour)",
                        COLOUR_NAMES[k],
                        self.placed[k],
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
            let s = &mut self.state;
            match (bag, lid) {
                (None, None) => {
                    s.bag[k] = rest;
                    s.lid[k] = 0;
                }
                (None, Some(l)) => {
                    s.bag[k] = rest;
                    s.lid[k] = l[k];
                }
                (Some(b), None) => {
                    s.bag[k] = b[k];
                    s.lid[k] = rest;
                }
                (Some(b), Some(l)) => {
                    if rest != 0 {
                        self.out.push(
                            finding(format!(
                                "{} {} tiles in play with the bag and lid given; the game \
                                 holds {limit} (tiles_per_colour): leave out `bag` or `lid` \
                                 to put the rest there",
                                total, COLOUR_NAMES[k]
                            ))
                            .at("lid"),
                        );
                    }
                    s.bag[k] = b[k];
                    s.lid[k] = l[k];
                }
            }
            in_play[k] = limit;
        }
        in_play
    }
}
