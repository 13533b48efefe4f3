//! `tessera generate tetris`: a garbage board and a fixed sequence of K
//! pieces (no hold) with the goal `Lines(N)`, proven by the move generator
//! over every placement sequence ([`census`]): how many sequences win, on
//! how many distinct boards they end, whether every win needs a T-spin
//! ([`spin`]), and the chance a random player wins (the difficulty).
//! Candidates are carved backwards from full rows ([`build`]) and kept
//! when the census proves the spec.
//!
//! The claim is the census in words (`3 winning sequences, 1 final board,
//! every win needs a T-spin`); `tessera check` re-counts and compares.

use std::path::Path;

use tessera_host::agent::ThinkControl;
use tessera_host::generate::{
    Claim, GenerateError, Generated, LevelGenerator, Proof, Restated, claim_block, claimed_level,
    command_line, spec_arguments, spec_of, try_candidates,
};
use tessera_host::text::{count, thousands};

use crate::level::{Goal, TetrisLevel, colour_letter};
use crate::piece::RotationSystem;

pub mod build;
pub mod census;
pub mod spin;

use build::{Spec, candidate};
use census::{Census, CensusStop, Puzzle};

/// Tetris's level generator, registered in `engine/builtin/games.rs`.
pub static GENERATOR: &dyn LevelGenerator = &TetrisGenerator;

/// Candidates tried per seed before giving up (deterministic: a count,
/// not a time).
pub const MAX_ATTEMPTS: u32 = 4000;

/// Positions a census may visit while generating (a candidate past it is
/// dropped) and while `check` re-proves a claim.
pub const CENSUS_BUDGET: u64 = 400_000;

/// The longest sequence a generated puzzle has (`--pieces`) and its widest
/// board (`--columns`): a census counts every placement sequence, so a
/// claim on a puzzle past either is refused at once rather than counted
/// to the budget (a puzzle grown by hand to 900 pieces in a 62-wide well
/// took 12 s and 260 MB before the budget said so).
const MAX_PIECES: u8 = 6;
const MAX_COLUMNS: u8 = 16;

struct TetrisGenerator;

/// The spec's options of `tessera generate tetris`.
#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// Lines to clear (the goal `Lines(N)`), 1 to 6.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=6))]
    lines: u8,
    /// Pieces in the fixed sequence (no hold), 1 to 6.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=i64::from(MAX_PIECES)))]
    pieces: u8,
    /// Board width, 6 to 16 columns.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(6..=i64::from(MAX_COLUMNS)))]
    columns: u8,
    /// Every win needs a T-spin (a T landing reached only by turning once
    /// the piece is down in the stack).
    #[arg(long)]
    tspin: bool,
    /// Every winning sequence ends on the same board.
    #[arg(long)]
    unique: bool,
}

impl GenerateArgs {
    fn spec(&self) -> Result<Spec, GenerateError> {
        let spec = Spec {
            lines: usize::from(self.lines),
            pieces: usize::from(self.pieces),
            columns: usize::from(self.columns),
            tspin: self.tspin,
            unique: self.unique,
        };
        if 4 * spec.pieces < spec.lines {
            return Err(GenerateError::Spec(format!(
                "--lines {} needs at least {} (each line to clear needs a piece's cell)",
                spec.lines,
                count(spec.lines.div_ceil(4), "piece")
            )));
        }
        if 4 * spec.pieces > spec.lines * spec.columns {
            return Err(GenerateError::Spec(format!(
                "--pieces {}: {} cells do not fit in {} of {} (use fewer pieces or more lines)",
                spec.pieces,
                4 * spec.pieces,
                count(spec.lines, "line"),
                count(spec.columns, "column")
            )));
        }
        Ok(spec)
    }
}

impl LevelGenerator for TetrisGenerator {
    fn arguments(&self) -> Vec<clap::Arg> {
        spec_arguments::<GenerateArgs>()
    }

    fn generate(
        &self,
        matches: &clap::ArgMatches,
        seed: u64,
        control: &ThinkControl,
    ) -> Result<Generated, GenerateError> {
        let args: GenerateArgs = spec_of(matches)?;
        let spec = args.spec()?;
        let found = try_candidates(seed, MAX_ATTEMPTS, control, |attempt, rng| {
            let Some(built) = candidate(&spec, rng) else {
                return Ok(None);
            };
            let puzzle = Puzzle {
                board: built.board,
                pieces: built.pieces,
                lines: spec.lines as u64,
                rotation: build::ROTATION,
            };
            let proven = match census::census(&puzzle, CENSUS_BUDGET, control) {
                Ok(proven) => proven,
                Err(CensusStop::Cancelled) => return Err(GenerateError::Cancelled),
                Err(CensusStop::TooLarge(_)) => return Ok(None),
            };
            control.set_note(format!("attempt {}: {}", attempt + 1, claim_text(&proven)));
            let meets = proven.wins > 0
                && (!spec.unique || proven.unique())
                && (!spec.tspin || proven.every_win_spins());
            Ok(meets.then(|| {
                let command = command_line("tetris", &self.arguments(), matches, seed);
                generated(&command, &spec, &puzzle, &proven)
            }))
        })?;
        if let Some(level) = found {
            return Ok(level);
        }
        Err(GenerateError::NotFound(format!(
            "{} built and proven, none met the spec; try another seed, more pieces or fewer constraints",
            count(MAX_ATTEMPTS, "candidate")
        )))
    }

    fn restate(
        &self,
        path: &Path,
        text: &str,
        _claim: &Claim,
        control: &ThinkControl,
    ) -> Result<Restated, Proof> {
        let (claim, level): (_, TetrisLevel) = claimed_level(path, text)?;
        let Goal::Lines(lines) = level.goal else {
            return Err(claim.broken(
                path,
                format!(
                    "it is about a `Lines` goal, the goal is now `{}`",
                    level.goal
                ),
            ));
        };
        let pieces = level.sequence_pieces().len();
        let columns = level.starting_cells().0.width();
        if pieces > usize::from(MAX_PIECES) || columns > usize::from(MAX_COLUMNS) {
            return Err(claim.broken(
                path,
                format!(
                    "not re-proven: the puzzle has {pieces} pieces in {columns} columns, and a generated one at most {MAX_PIECES} in {MAX_COLUMNS} (every placement sequence is counted)"
                ),
            ));
        }
        let puzzle = Puzzle {
            board: level.starting_cells().0,
            pieces: level.sequence_pieces(),
            lines,
            // The default script's system when the level names none.
            rotation: level.rotation_override().unwrap_or(RotationSystem::Cycle),
        };
        match census::census(&puzzle, CENSUS_BUDGET, control) {
            Ok(proven) => Ok(Restated {
                claim: claim_text(&proven),
                difficulty: difficulty_text(&proven),
                proven: format!(
                    "{} (every placement sequence counted: {})",
                    claim_text(&proven),
                    count(proven.nodes, "position")
                ),
            }),
            Err(CensusStop::Cancelled) => Err(claim.broken(path, "not re-proven: cancelled")),
            Err(CensusStop::TooLarge(budget)) => Err(claim.broken(
                path,
                format!(
                    "not re-proven: the level has more than {} to search",
                    count(budget, "position")
                ),
            )),
        }
    }
}

/// The claim in words: what the census counted.
pub fn claim_text(census: &Census) -> String {
    let finals = if census.more_finals {
        format!("more than {} final boards", census::MAX_FINALS)
    } else {
        count(census.final_boards, "final board")
    };
    let mut text = format!("{}, {finals}", count(census.wins, "winning sequence"));
    if census.every_win_spins() {
        text += ", every win needs a T-spin";
    }
    text
}

/// The difficulty: how many halvings the chance of a random player's win
/// is (bits: 10 means one random player in 1,024 wins), and its word.
pub fn difficulty(census: &Census) -> (f64, &'static str) {
    let bits = if census.chance > 0.0 {
        -census.chance.log2()
    } else {
        f64::INFINITY
    };
    let label = match bits {
        b if b < 10.0 => "easy",
        b if b < 15.0 => "medium",
        _ => "hard",
    };
    (bits, label)
}

/// The difficulty line: the figure, its word and the census behind it
/// (an exact count and chance, not time, so a re-proof gives the same
/// line).
fn difficulty_text(proven: &Census) -> String {
    let (bits, label) = difficulty(proven);
    let one_in = (1.0 / proven.chance).round();
    format!(
        "{bits:.1} ({label}): a player placing each piece at random wins 1 time in {}; {} searched",
        thousands(one_in as u64),
        count(proven.nodes, "position"),
    )
}

/// The level file of a proven candidate.
fn generated(command: &str, spec: &Spec, puzzle: &Puzzle, proven: &Census) -> Generated {
    let (bits, label) = difficulty(proven);
    let claim = claim_text(proven);
    let sequence: String = puzzle.pieces.iter().map(|p| p.letter()).collect();
    let rows = puzzle.board.rows();
    let first = rows.iter().position(|&r| r != 0).unwrap_or(rows.len());
    let garbage: Vec<String> = rows[first..]
        .iter()
        .map(|&row| {
            (0..spec.columns)
                .map(|x| colour_letter(if row >> x & 1 == 1 { 8 } else { 0 }))
                .collect()
        })
        .collect();
    let mut text = claim_block(command, &claim, &difficulty_text(proven));
    let title = format!("{} with {sequence}", count(spec.lines, "line"));
    text += &format!(
        "(\n  version: 1,\n  title: {title:?},\n  rows: {},\n  columns: {},\n  hidden_rows: {},\n  \
         goal: Lines({}),\n  garbage: [\n",
        build::ROWS,
        spec.columns,
        build::HIDDEN_ROWS,
        spec.lines
    );
    for row in &garbage {
        text += &format!("    {row:?},\n");
    }
    text += &format!(
        "  ],\n  sequence: {sequence:?},\n  rotation: Some({:?}),\n)\n",
        build::ROTATION.name()
    );
    Generated {
        text,
        extension: "ron",
        name: format!("{}_lines_{}", spec.lines, sequence.to_lowercase()),
        difficulty: bits,
        difficulty_label: label.to_string(),
        summary: claim,
    }
}
