//! The RON level format: board size, hidden rows, goal, starting garbage,
//! an optional fixed piece sequence and overrides of the script's rotation
//! system and randomizer.

use std::path::Path;

use serde::{Deserialize, Serialize};

use tessera_host::level::{Diagnostic, LevelFile};
use tessera_host::text::count;

use crate::board::{Board, MAX_SIZE, spawn_position};
use crate::piece::{PieceKind, RotationSystem};
use crate::settings::Randomizer;

/// What a level asks of the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Goal {
    /// The seed's game: levels by score, won when the script's `won` says
    /// so (level 9 passed), lost on top-out.
    #[default]
    Marathon,
    /// Reach this score.
    Score(u64),
    /// Clear this many lines.
    Lines(u64),
    /// Clear every garbage cell the level starts with.
    ClearGarbage,
    /// Lock this many pieces without topping out.
    Survive(u64),
}

impl std::fmt::Display for Goal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Goal::Marathon => write!(f, "marathon (pass level 9)"),
            Goal::Score(n) => write!(f, "reach {}", count(*n, "point")),
            Goal::Lines(n) => write!(f, "clear {}", count(*n, "line")),
            Goal::ClearGarbage => write!(f, "clear all garbage"),
            Goal::Survive(n) => write!(f, "survive {}", count(*n, "piece")),
        }
    }
}

/// A tetris level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TetrisLevel {
    /// Format version (1).
    pub version: u32,
    /// Title shown in the editor.
    #[serde(default)]
    pub title: String,
    /// Visible rows (the seed's example: 18).
    #[serde(default = "default_rows")]
    pub rows: u32,
    /// Columns (the seed's example: 12).
    #[serde(default = "default_columns")]
    pub columns: u32,
    /// Rows above the visible field where pieces spawn (0 in the seed: the
    /// spawn box is the field's top three rows).
    #[serde(default)]
    pub hidden_rows: u32,
    /// What wins the level.
    #[serde(default)]
    pub goal: Goal,
    /// Cells filled at the start, top row first, bottom-aligned: `.` empty,
    /// a piece letter (I O T S Z J L) for a cell of that piece's colour,
    /// `G` for grey garbage.
    #[serde(default)]
    pub garbage: Vec<String>,
    /// A fixed piece sequence (letters, e.g. "TIOL"); when it runs out the
    /// game ends. Empty: the randomizer draws.
    #[serde(default)]
    pub sequence: String,
    /// Overrides the script's rotation system ("cycle" or "srs").
    #[serde(default)]
    pub rotation: Option<String>,
    /// Overrides the script's randomizer ("bag" or "uniform").
    #[serde(default)]
    pub randomizer: Option<String>,
    /// Makes this a feed-the-AI level (seed 004): the player chooses each
    /// piece the AI gets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feed: Option<FeedLevel>,
}

/// A feed level's settings: which AI it is played against and the lines
/// that make the AI win.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeedLevel {
    /// The difficulty (a name from the script's `ai.difficulties`).
    pub difficulty: String,
    /// The AI wins on clearing this many lines (the seed's `targetLines`).
    pub target_lines: u32,
    /// Whether the ceiling comes down (the seed's rule; `false` leaves the
    /// whole board to the AI, as balance benchmarks against a feeder do).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub lowering_ceiling: bool,
    /// The ceiling drops a row every this many AI pieces on this level
    /// (the difficulty's `ceiling_every` when left out), so a campaign can
    /// tune each level's pressure without a difficulty per level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ceiling_every: Option<u32>,
}

fn yes() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

fn default_rows() -> u32 {
    18
}
fn default_columns() -> u32 {
    12
}

impl Default for TetrisLevel {
    fn default() -> Self {
        Self {
            version: 1,
            title: String::new(),
            rows: default_rows(),
            columns: default_columns(),
            hidden_rows: 0,
            goal: Goal::Marathon,
            garbage: Vec::new(),
            sequence: String::new(),
            rotation: None,
            randomizer: None,
            feed: None,
        }
    }
}

/// Colour code of grey garbage cells.
pub const GARBAGE_COLOUR: u8 = 8;

/// The colour code of a garbage letter.
pub fn garbage_colour(letter: char) -> Option<u8> {
    match letter {
        '.' => Some(0),
        'G' | 'g' | '#' => Some(GARBAGE_COLOUR),
        other => PieceKind::from_letter(other).map(PieceKind::colour),
    }
}

/// The letter of a colour code (`.` empty).
pub fn colour_letter(colour: u8) -> char {
    match colour {
        0 => '.',
        GARBAGE_COLOUR => 'G',
        c => PieceKind::of_colour(c).map_or('?', PieceKind::letter),
    }
}

impl TetrisLevel {
    /// Rows including the hidden ones.
    pub fn total_rows(&self) -> usize {
        (self.rows + self.hidden_rows) as usize
    }

    /// The fixed sequence as pieces (unknown letters skipped; `diagnose`
    /// reports them).
    pub fn sequence_pieces(&self) -> Vec<PieceKind> {
        self.sequence
            .chars()
            .filter(|c| !c.is_whitespace())
            .filter_map(PieceKind::from_letter)
            .collect()
    }

    /// The starting board and its colour codes (row-major, total rows).
    pub fn starting_cells(&self) -> (Board, Vec<u8>) {
        let width = self.columns as usize;
        let height = self.total_rows();
        let mut board = Board::new(width, height);
        let mut colours = vec![0u8; width * height];
        let offset = height.saturating_sub(self.garbage.len());
        for (i, row) in self.garbage.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let colour = garbage_colour(c).unwrap_or(0);
                let y = offset + i;
                if colour != 0 && x < width && y < height {
                    board.set(x, y, true);
                    colours[y * width + x] = colour;
                }
            }
        }
        (board, colours)
    }

    /// The rotation override, if it names a known system.
    pub fn rotation_override(&self) -> Option<RotationSystem> {
        self.rotation.as_deref().and_then(RotationSystem::from_name)
    }

    /// The randomizer override, if it names a known one.
    pub fn randomizer_override(&self) -> Option<Randomizer> {
        self.randomizer.as_deref().and_then(Randomizer::from_name)
    }
}

impl LevelFile for TetrisLevel {
    const VERSION: u32 = 1;
    const NAME_FIELD: Option<&'static str> = Some("title");

    fn version(&self) -> u32 {
        self.version
    }

    fn diagnose(&self) -> Vec<Diagnostic> {
        let path = Path::new("");
        let mut found = Vec::new();
        let total = self.rows as u64 + self.hidden_rows as u64;
        if self.columns < 4 || self.columns as usize > MAX_SIZE {
            found.push(Diagnostic::error(
                path,
                format!(
                    "field `columns`: the board must be 4 to {MAX_SIZE} columns wide (an I piece lies flat), not {}",
                    self.columns
                ),
            ));
        }
        if self.rows < 4 || total > MAX_SIZE as u64 {
            found.push(Diagnostic::error(
                path,
                format!(
                    "field `rows`: the board must be 4 to {MAX_SIZE} rows tall, hidden rows included, not {} + {}",
                    self.rows, self.hidden_rows
                ),
            ));
        }
        if !found.is_empty() {
            return found;
        }
        if self.garbage.len() > self.rows as usize {
            found.push(Diagnostic::error(
                path,
                format!(
                    "field `garbage`: {} given, the visible board has {}",
                    count(self.garbage.len(), "row"),
                    self.rows
                ),
            ));
        }
        let full: String = "x".repeat(self.columns as usize);
        for (i, row) in self.garbage.iter().enumerate() {
            let n = row.chars().count();
            if n != self.columns as usize {
                found.push(Diagnostic::error(
                    path,
                    format!(
                        "field `garbage`, row {}: {}, the board has {}",
                        i + 1,
                        count(n, "cell"),
                        count(self.columns, "column")
                    ),
                ));
            }
            if let Some((x, c)) = row
                .chars()
                .enumerate()
                .find(|(_, c)| garbage_colour(*c).is_none())
            {
                found.push(Diagnostic::error(
                    path,
                    format!(
                        "field `garbage`, row {}, column {}: {c:?} is not a cell (`.`, G or a piece letter I O T S Z J L)",
                        i + 1,
                        x + 1
                    ),
                ));
            }
            if n == full.len() && row.chars().all(|c| c != '.') {
                found.push(Diagnostic::error(
                    path,
                    format!(
                        "field `garbage`, row {}: the row is already full (it would never be cleared by a piece); leave a hole",
                        i + 1
                    ),
                ));
            }
        }
        if let Some((i, c)) = self
            .sequence
            .chars()
            .filter(|c| !c.is_whitespace())
            .enumerate()
            .find(|(_, c)| PieceKind::from_letter(*c).is_none())
        {
            found.push(Diagnostic::error(
                path,
                format!(
                    "field `sequence`, piece {}: {c:?} is not a piece letter (I O T S Z J L)",
                    i + 1
                ),
            ));
        }
        if let Some(name) = &self.rotation
            && RotationSystem::from_name(name).is_none()
        {
            found.push(Diagnostic::error(
                path,
                format!(
                    "field `rotation`: {name:?} is not a rotation system (\"cycle\" or \"srs\")"
                ),
            ));
        }
        if let Some(name) = &self.randomizer
            && Randomizer::from_name(name).is_none()
        {
            found.push(Diagnostic::error(
                path,
                format!(
                    "field `randomizer`: {name:?} is not a randomizer (\"bag\" or \"uniform\")"
                ),
            ));
        }
        if let Some(feed) = &self.feed {
            if feed.target_lines == 0 || feed.target_lines > 100_000 {
                found.push(Diagnostic::error(
                    path,
                    format!(
                        "field `target_lines`: the AI's target must be 1 to 100000 lines, not {}",
                        feed.target_lines
                    ),
                ));
            }
            if let Some(every) = feed.ceiling_every
                && !(1..=10_000).contains(&every)
            {
                found.push(Diagnostic::error(
                    path,
                    format!(
                        "field `ceiling_every`: the ceiling drops every 1 to 10000 AI pieces, not {every}"
                    ),
                ));
            }
            if feed.difficulty.trim().is_empty() {
                found.push(Diagnostic::error(
                    path,
                    "field `difficulty`: name a difficulty of the script's `ai.difficulties` (e.g. \"EASY\")",
                ));
            }
        }
        if found.iter().any(Diagnostic::is_error) {
            return found;
        }
        // Every piece of the sequence must at least fit its spawn box on
        // the starting board (the first one decides the game otherwise).
        let (board, _) = self.starting_cells();
        for (i, kind) in self.sequence_pieces().into_iter().enumerate() {
            let (x, y) = spawn_position(kind, self.columns as usize);
            if !board.fits(kind, 0, x, y) {
                found.push(Diagnostic::error(
                    path,
                    format!(
                        "field `sequence`, piece {} ({kind}): it cannot spawn, the garbage covers its spawn box",
                        i + 1
                    ),
                ));
                break;
            }
        }
        if self.goal == Goal::ClearGarbage && board.is_empty() {
            found.push(Diagnostic::warning(
                path,
                "field `goal`: ClearGarbage on a level without garbage is won at the first lock",
            ));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::Goal;

    #[test]
    fn goals_read_with_their_nouns_in_agreement() {
        assert_eq!(Goal::Lines(1).to_string(), "clear 1 line");
        assert_eq!(Goal::Lines(40).to_string(), "clear 40 lines");
        assert_eq!(Goal::Score(1).to_string(), "reach 1 point");
        assert_eq!(Goal::Score(12_000).to_string(), "reach 12,000 points");
        assert_eq!(Goal::Survive(1).to_string(), "survive 1 piece");
        assert_eq!(Goal::Survive(100).to_string(), "survive 100 pieces");
    }
}
