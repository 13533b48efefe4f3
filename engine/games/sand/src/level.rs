//! The sand level file: board size, starting grains, an optional palette of
//! its own, and its diagnosis (what `tessera check` and a game start report).

use serde::{Deserialize, Serialize};

use tessera_host::level::{Diagnostic, LevelFile};
use tessera_host::text::count;

use crate::grid::{self, MAX_WIDTH};
use crate::piece::{Piece, Shape};
use crate::settings::PaletteColour;

/// A sand level: the board size and, optionally, grains already on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandLevel {
    /// Format version (1).
    pub version: u32,
    /// Logical columns (12).
    #[serde(default = "default_columns")]
    pub columns: u32,
    /// Logical rows (22).
    #[serde(default = "default_rows")]
    pub rows: u32,
    /// Grains per logical cell side (10).
    #[serde(default = "default_cell")]
    pub cell: u32,
    /// Logical cells already filled at the start, top row first: `.` empty,
    /// a palette letter for a cell of that colour. Fewer rows than `rows`
    /// are aligned to the bottom.
    #[serde(default)]
    pub board: Vec<String>,
    /// The level's own colours, replacing the script's palette for this
    /// level: its pieces come in these colours and its board letters name
    /// them. Absent: the script's palette.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub palette: Option<Vec<LevelColour>>,
    /// A fixed tray: every piece this level is played with, all in the
    /// slots from the start, each a shape letter (I O T L J S Z) and a
    /// palette letter (`"T R"`). A placed piece leaves the tray and none
    /// is drawn. Empty: the script's slots, refilled from the 7-bag.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tray: Vec<String>,
    /// The goal: won at this many spanning clears (clusters cleared). With
    /// a tray, lost when the tray is empty and the board has settled short
    /// of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clears: Option<u32>,
    /// The seed of the grains' physics on this level (a sliding grain picks
    /// its side from it), so a placement sequence always plays the same
    /// whatever the session's seed; absent: the session's seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physics_seed: Option<u64>,
}

/// Most pieces a tray holds.
pub const MAX_TRAY: usize = 16;
/// Most spanning clears a level may ask for.
pub const MAX_CLEARS: u32 = 1000;

/// One colour of a level's own palette.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelColour {
    /// Name for people ("red").
    pub name: String,
    /// The letter used in the board and text pictures ('R').
    pub letter: char,
    /// sRGB colour.
    pub rgb: (u8, u8, u8),
}

impl LevelColour {
    /// As a palette entry.
    pub fn to_palette(&self) -> PaletteColour {
        PaletteColour {
            name: self.name.clone(),
            letter: self.letter,
            rgb: [self.rgb.0, self.rgb.1, self.rgb.2],
        }
    }
}

impl SandLevel {
    /// The palette this level plays with: its own when it has one, else
    /// `script`'s.
    pub fn palette_over(&self, script: &[PaletteColour]) -> Vec<PaletteColour> {
        match &self.palette {
            Some(own) => own.iter().map(LevelColour::to_palette).collect(),
            None => script.to_vec(),
        }
    }

    /// The first board letter that `palette` has no colour for, as a
    /// finding at its row (the check a game start makes).
    pub fn check_letters(&self, palette: &[PaletteColour]) -> Option<Diagnostic> {
        let whose = if self.palette.is_some() {
            "the level's"
        } else {
            "the script's"
        };
        for (i, row) in self.board.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if c == '.' || palette.iter().any(|p| p.letter == c) {
                    continue;
                }
                let letters: String = palette.iter().map(|p| p.letter).collect();
                let message = format!(
                    "field `board`, row {}, column {}: {c:?} is not a palette letter ({whose} palette: {letters})",
                    i + 1,
                    x + 1,
                );
                return Some(
                    Diagnostic::error(std::path::Path::new(""), message)
                        .at("board")
                        .at_index(i),
                );
            }
        }
        None
    }

    /// Findings about the level's own palette: its size, its letters.
    fn diagnose_palette(&self, found: &mut Vec<Diagnostic>) {
        let Some(own) = &self.palette else {
            return;
        };
        let path = std::path::Path::new("");
        if own.is_empty() || own.len() > grid::MAX_COLOURS {
            found.push(
                Diagnostic::error(
                    path,
                    format!(
                        "field `palette`: a level's palette holds 1 to {} colours, this one {}",
                        grid::MAX_COLOURS,
                        own.len()
                    ),
                )
                .at("palette"),
            );
        }
        for (i, colour) in own.iter().enumerate() {
            let at = |message: String| {
                Diagnostic::error(
                    path,
                    format!("field `palette`, colour {}: {message}", i + 1),
                )
                .at("palette")
                .at_index(i)
            };
            if colour.letter == '.' || colour.letter.is_whitespace() || colour.letter.is_control() {
                found.push(at(format!(
                    "{:?} cannot be a colour's letter (`.` is an empty cell)",
                    colour.letter
                )));
            } else if let Some(first) = own[..i].iter().position(|c| c.letter == colour.letter) {
                found.push(at(format!(
                    "letter {:?} is already colour {}",
                    colour.letter,
                    first + 1
                )));
            }
            if colour.name.trim().is_empty() {
                found.push(at("the colour needs a name".into()));
            }
        }
        let palette: Vec<PaletteColour> = own.iter().map(LevelColour::to_palette).collect();
        found.extend(self.check_letters(&palette));
    }
}

fn default_columns() -> u32 {
    12
}
fn default_rows() -> u32 {
    22
}
fn default_cell() -> u32 {
    10
}

impl Default for SandLevel {
    fn default() -> Self {
        Self {
            version: 1,
            columns: default_columns(),
            rows: default_rows(),
            cell: default_cell(),
            board: Vec::new(),
            palette: None,
            tray: Vec::new(),
            clears: None,
            physics_seed: None,
        }
    }
}

impl LevelFile for SandLevel {
    const VERSION: u32 = 1;

    fn version(&self) -> u32 {
        self.version
    }

    fn diagnose(&self) -> Vec<Diagnostic> {
        let mut found = Vec::new();
        let path = std::path::Path::new("");
        let width = self.columns as usize * self.cell as usize;
        if self.columns < 4 || self.rows < 2 || self.cell == 0 {
            found.push(Diagnostic::error(
                path,
                format!(
                    "fields `columns`, `rows`, `cell`: need at least 4 columns (an I piece), 2 rows and 1 grain per cell, not {}x{} cells of {}",
                    self.columns, self.rows, self.cell
                ),
            ).at(if self.columns < 4 {
                "columns"
            } else if self.rows < 2 {
                "rows"
            } else {
                "cell"
            }));
        }
        if width > MAX_WIDTH {
            found.push(Diagnostic::error(
                path,
                format!(
                    "fields `columns` x `cell`: the board is {width} grains wide; at most {MAX_WIDTH} are supported"
                ),
            ).at("columns"));
        }
        if self.rows as usize * self.cell as usize > 4096 {
            found.push(
                Diagnostic::error(path, "fields `rows` x `cell`: at most 4096 grains high")
                    .at("rows"),
            );
        }
        if self.board.len() > self.rows as usize {
            found.push(
                Diagnostic::error(
                    path,
                    format!(
                        "field `board`: {} given, the board has {}",
                        count(self.board.len(), "row"),
                        self.rows
                    ),
                )
                .at("board")
                .at_index(self.rows as usize),
            );
        }
        for (i, row) in self.board.iter().enumerate() {
            if row.chars().count() != self.columns as usize {
                found.push(
                    Diagnostic::error(
                        path,
                        format!(
                            "field `board`, row {}: {}, the board has {}",
                            i + 1,
                            count(row.chars().count(), "cell"),
                            count(self.columns, "column")
                        ),
                    )
                    .at("board")
                    .at_index(i),
                );
            }
        }
        self.diagnose_palette(&mut found);
        self.diagnose_tray(&mut found);
        found.extend(self.spanning_at_start());
        found
    }
}

impl SandLevel {
    /// The tray's pieces with the palette index of their letter, or the
    /// first entry that does not read (shape or letter), at its index.
    /// Without a palette (a diagnosis without the script) any one letter
    /// reads, as colour 0.
    pub fn tray_pieces(&self, palette: Option<&[PaletteColour]>) -> Result<Vec<Piece>, Diagnostic> {
        self.tray
            .iter()
            .enumerate()
            .map(|(i, entry)| {
                let at = |message: String| {
                    Diagnostic::error(
                        std::path::Path::new(""),
                        format!("field `tray`, piece {}: {message}", i + 1),
                    )
                    .at("tray")
                    .at_index(i)
                };
                let mut words = entry.split_whitespace();
                let (Some(shape), Some(colour), None) = (words.next(), words.next(), words.next())
                else {
                    return Err(at(format!(
                        "{entry:?} is not a shape and a colour letter (\"T R\")"
                    )));
                };
                let Some(shape) = Shape::ALL.into_iter().find(|s| s.to_string() == shape) else {
                    return Err(at(format!("{shape:?} is not a shape (I O T L J S Z)")));
                };
                let one_letter = colour.chars().count() == 1;
                let found = match palette {
                    Some(palette) => palette
                        .iter()
                        .position(|p| colour.chars().eq(std::iter::once(p.letter))),
                    None => one_letter.then_some(0),
                };
                let Some(colour) = found else {
                    let letters: String = palette
                        .unwrap_or_default()
                        .iter()
                        .map(|p| p.letter)
                        .collect();
                    return Err(at(format!(
                        "{colour:?} is not a palette letter (the palette: {letters})"
                    )));
                };
                Ok(Piece {
                    shape,
                    colour: colour as u8,
                })
            })
            .collect()
    }

    /// Findings about the tray and the goal that need no script (the
    /// colour letters are checked against the palette at a start).
    fn diagnose_tray(&self, found: &mut Vec<Diagnostic>) {
        let path = std::path::Path::new("");
        if self.tray.len() > MAX_TRAY {
            found.push(
                Diagnostic::error(
                    path,
                    format!(
                        "field `tray`: a tray holds at most {MAX_TRAY} pieces, this one {}",
                        self.tray.len()
                    ),
                )
                .at("tray"),
            );
        }
        if let Some(clears) = self.clears
            && !(1..=MAX_CLEARS).contains(&clears)
        {
            found.push(
                Diagnostic::error(
                    path,
                    format!("field `clears`: the goal is 1 to {MAX_CLEARS} clears, not {clears}"),
                )
                .at("clears"),
            );
        }
        if let Err(finding) = self.tray_pieces(None) {
            found.push(finding);
        }
    }
}

impl SandLevel {
    /// A board letter as people say it: its name in the level's own
    /// palette, else in the default one ("red"), else the letter (`X`).
    fn colour_name(&self, letter: char) -> String {
        let own = self
            .palette
            .iter()
            .flatten()
            .map(|c| (c.letter, c.name.clone()));
        let default = crate::settings::default_palette()
            .into_iter()
            .map(|c| (c.letter, c.name));
        own.chain(default)
            .find(|(l, _)| *l == letter)
            .map_or_else(|| format!("`{letter}`"), |(_, name)| name)
    }

    /// Warnings for clusters of the starting board that already span it
    /// from the left wall to the right: the first tick clears and scores
    /// them before the player moves, which a designer rarely means (a
    /// chain-reaction showcase like `cascade.ron` does). One warning per
    /// colour letter, at the cluster's top row.
    ///
    /// Works on logical cells: a cell is a full square of grains, so two
    /// cells' grains touch 4-connected exactly when the cells share a side,
    /// and same letter means same colour, as in the grain search
    /// (`clear.rs`).
    fn spanning_at_start(&self) -> Vec<Diagnostic> {
        let cells: Vec<Vec<char>> = self.board.iter().map(|r| r.chars().collect()).collect();
        let columns = self.columns as usize;
        let (height, mut seen) = (cells.len(), vec![vec![false; columns]; cells.len()]);
        let letter = |x: usize, y: usize| cells.get(y).and_then(|r| r.get(x)).copied();
        let mut found = Vec::new();
        let mut warned: Vec<char> = Vec::new();
        for start in 0..height {
            let Some(colour) = letter(0, start).filter(|c| *c != '.') else {
                continue;
            };
            if seen[start][0] || columns == 0 {
                continue;
            }
            // Flood the cluster from this left-wall cell.
            let (mut stack, mut top, mut spans) = (vec![(0, start)], start, false);
            seen[start][0] = true;
            while let Some((x, y)) = stack.pop() {
                top = top.min(y);
                spans |= x + 1 == columns;
                // `wrapping_sub` off the top/left edge gives usize::MAX,
                // which `letter` and the column bound refuse.
                let neighbours = [
                    (x + 1, y),
                    (x, y + 1),
                    (x.wrapping_sub(1), y),
                    (x, y.wrapping_sub(1)),
                ];
                for (nx, ny) in neighbours {
                    if nx < columns && letter(nx, ny) == Some(colour) && !seen[ny][nx] {
                        seen[ny][nx] = true;
                        stack.push((nx, ny));
                    }
                }
            }
            if spans && !warned.contains(&colour) {
                warned.push(colour);
                found.push(
                    Diagnostic::warning(
                        std::path::Path::new(""),
                        format!(
                            "field `board`, row {}: the starting board already holds a {} cluster spanning wall to wall; it clears and scores before the first move",
                            top + 1,
                            self.colour_name(colour)
                        ),
                    )
                    .at("board")
                    .at_index(top),
                );
            }
        }
        found
    }
}
