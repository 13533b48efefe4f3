//! `tessera generate sand --clears N --pieces K`: a small starting board
//! and a fixed tray of K pieces from which N spanning clears are
//! reachable, proven by playing every placement sequence ([`search`]).
//! The level fixes its physics seed, so a sequence always plays the same;
//! the claim counts the winning sequences out of all, and that fraction is
//! the difficulty.
//!
//! Candidates are random: a floor of one to three rows of coloured cells
//! with gaps at the bottom of a 6 x 6 board of 2 x 2-grain cells, and a
//! tray of pieces in the floor's colours; a candidate is kept when some
//! sequences win and not all do.

use std::path::Path;

use rand::Rng;
use tessera_host::agent::ThinkControl;
use tessera_host::generate::{
    Claim, GenerateError, Generated, LevelGenerator, Proof, Restated, claim_block, claimed_level,
    command_line, spec_arguments, spec_of, try_candidates,
};
use tessera_host::level::LevelFile;
use tessera_host::plugin::{Game, Scripted, Setup};
use tessera_host::rng::GameRng;
use tessera_host::script::{LiveScript, Script, ScriptLimits};
use tessera_host::text::{count, thousands};

use crate::piece::Shape;
use crate::{Sand, SandLevel};

pub mod search;

use search::{Tally, TallyStop, tally};

/// Sand's level generator, registered in `engine/builtin/games.rs`.
pub static GENERATOR: &dyn LevelGenerator = &SandGenerator;

/// Candidates tried per seed before giving up.
pub const MAX_ATTEMPTS: u32 = 300;
/// Placements one proof may play (a candidate past it is dropped; a level
/// past it is reported by `check` as too large to re-prove).
pub const PLACEMENT_BUDGET: u64 = 400_000;
/// The generated board: columns, rows, grains per cell side.
const COLUMNS: usize = 6;
const ROWS: usize = 6;
const CELL: u32 = 2;
/// The default script's palette letters the boards are drawn in.
const LETTERS: [char; 4] = ['R', 'B', 'G', 'Y'];

/// The most pieces a generated tray holds (`--pieces`): every order and
/// place of them is played, so a claim on a larger tray is refused at
/// once rather than played to the budget (a tray grown by hand to 16
/// pieces ran 25 to 50 s before the budget said so).
const MAX_TRAY: u8 = 3;

struct SandGenerator;

/// The spec's options of `tessera generate sand`.
#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// Spanning clears the tray must reach (the level's goal), 1 to 3.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    clears: u8,
    /// Pieces in the tray, 1 to 3 (every order and place is searched).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=i64::from(MAX_TRAY)))]
    pieces: u8,
}

impl LevelGenerator for SandGenerator {
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
        let script = default_script().map_err(GenerateError::NotFound)?;
        let found = try_candidates(seed, MAX_ATTEMPTS, control, |attempt, rng| {
            let level = candidate(&args, seed, rng);
            // A board that already spans (a warning) would clear by itself.
            if !level.diagnose().is_empty() {
                return Ok(None);
            }
            let Ok(game) = Sand::start(Setup::new(level.clone(), script.clone(), seed)) else {
                return Ok(None);
            };
            let counted = match tally(&game, PLACEMENT_BUDGET, control) {
                Ok(counted) => counted,
                Err(TallyStop::Cancelled) => return Err(GenerateError::Cancelled),
                Err(_) => return Ok(None),
            };
            control.set_note(format!(
                "attempt {}: {}",
                attempt + 1,
                claim_text(&counted, &level)
            ));
            Ok(
                (counted.wins > 0 && counted.wins < counted.sequences).then(|| {
                    let command = command_line("sand", &self.arguments(), matches, seed);
                    generated(&command, &level, &counted)
                }),
            )
        })?;
        if let Some(level) = found {
            return Ok(level);
        }
        Err(GenerateError::NotFound(format!(
            "{} tried, none with some but not every sequence reaching the clears; try another seed",
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
        let (claim, level): (_, SandLevel) = claimed_level(path, text)?;
        if level.tray.is_empty() || level.clears.is_none() || level.physics_seed.is_none() {
            return Err(claim.broken(
                path,
                "it is about a fixed tray, a `clears` goal and a `physics_seed`, and the level lacks one",
            ));
        }
        if level.tray.len() > usize::from(MAX_TRAY) {
            return Err(claim.broken(
                path,
                format!(
                    "not re-proven: the tray has {} pieces, and a generated tray at most {MAX_TRAY} (every order and place of them is played)",
                    level.tray.len()
                ),
            ));
        }
        let script =
            default_script().map_err(|why| claim.broken(path, format!("not re-proven: {why}")))?;
        let game = Sand::start(Setup::new(level.clone(), script, 0))
            .map_err(|error| claim.broken(path, format!("the level does not start: {error}")))?;
        match tally(&game, PLACEMENT_BUDGET, control) {
            Ok(counted) => Ok(Restated {
                claim: claim_text(&counted, &level),
                difficulty: difficulty_text(&counted),
                proven: format!(
                    "{} (every sequence played: {})",
                    claim_text(&counted, &level),
                    count(counted.placements, "placement")
                ),
            }),
            Err(TallyStop::Cancelled) => Err(claim.broken(path, "not re-proven: cancelled")),
            Err(TallyStop::TooLarge(budget)) => Err(claim.broken(
                path,
                format!(
                    "not re-proven: more than {} to play",
                    count(budget, "placement")
                ),
            )),
            Err(TallyStop::Game(why)) => Err(claim.broken(path, format!("not re-proven: {why}"))),
        }
    }
}

/// The default script (`scripts/sand.lua` as shipped): generation and the
/// proof play with its palette, timings and rotation (off).
fn default_script() -> Result<LiveScript, String> {
    let source = Sand::DEFAULT_SCRIPT.unwrap_or_default();
    Script::load(
        Path::new("scripts/sand.lua"),
        source,
        Some(&Sand::script_schema()),
        ScriptLimits::default(),
    )
    .map(LiveScript::new)
    .map_err(|error| error.to_string())
}

/// A random candidate: a floor with gaps and a tray in its colours.
fn candidate(args: &GenerateArgs, seed: u64, rng: &mut GameRng) -> SandLevel {
    let colours = rng.random_range(2..=LETTERS.len());
    let letter = |rng: &mut GameRng| LETTERS[rng.random_range(0..colours)];
    let floor_rows = rng.random_range(1..=3);
    let board = (0..floor_rows)
        .map(|_| {
            (0..COLUMNS)
                .map(|_| {
                    if rng.random_bool(0.3) {
                        '.'
                    } else {
                        letter(rng)
                    }
                })
                .collect()
        })
        .collect();
    let tray = (0..args.pieces)
        .map(|_| {
            let shape = Shape::ALL[rng.random_range(0..Shape::ALL.len())];
            format!("{shape} {}", letter(rng))
        })
        .collect();
    SandLevel {
        columns: COLUMNS as u32,
        rows: ROWS as u32,
        cell: CELL,
        board,
        tray,
        clears: Some(u32::from(args.clears)),
        physics_seed: Some(seed),
        ..SandLevel::default()
    }
}

/// The claim in words: the winning sequences out of all.
pub fn claim_text(counted: &Tally, level: &SandLevel) -> String {
    format!(
        "{} of {} reach {}",
        thousands(counted.wins),
        count(counted.sequences, "placement sequence"),
        count(level.clears.unwrap_or(0), "spanning clear")
    )
}

/// The difficulty: how many halvings the share of winning sequences is
/// (3 means one sequence in 8 wins), and its word.
pub fn difficulty(counted: &Tally) -> (f64, &'static str) {
    let share = counted.wins as f64 / counted.sequences.max(1) as f64;
    let bits = if share > 0.0 {
        -share.log2()
    } else {
        f64::INFINITY
    };
    let label = match bits {
        b if b < 2.0 => "easy",
        b if b < 5.0 => "medium",
        _ => "hard",
    };
    (bits, label)
}

/// The difficulty line: the figure, its word, and the counts behind it
/// (all counted by playing every sequence, so a re-proof gives the same
/// line).
fn difficulty_text(counted: &Tally) -> String {
    let (bits, label) = difficulty(counted);
    format!(
        "{bits:.1} ({label}): one placement sequence in {} wins; {} played",
        thousands((counted.sequences as f64 / counted.wins.max(1) as f64).round() as u64),
        count(counted.placements, "placement")
    )
}

/// The level file of a proven candidate.
fn generated(command: &str, level: &SandLevel, counted: &Tally) -> Generated {
    let (bits, label) = difficulty(counted);
    let claim = claim_text(counted, level);
    let mut text = claim_block(command, &claim, &difficulty_text(counted));
    text += &format!(
        "(\n    version: 1,\n    columns: {},\n    rows: {},\n    cell: {},\n    board: [\n",
        level.columns, level.rows, level.cell
    );
    for row in &level.board {
        text += &format!("        {row:?},\n");
    }
    let tray: Vec<String> = level.tray.iter().map(|p| format!("{p:?}")).collect();
    text += &format!(
        "    ],\n    tray: [{}],\n    clears: {},\n    physics_seed: {},\n)\n",
        tray.join(", "),
        level.clears.unwrap_or(1),
        level.physics_seed.unwrap_or(0)
    );
    let shapes: String = level
        .tray
        .iter()
        .filter_map(|p| p.split_whitespace().next())
        .collect::<String>()
        .to_lowercase();
    Generated {
        text,
        extension: "ron",
        name: format!("tray_{shapes}"),
        difficulty: bits,
        difficulty_label: label.into(),
        summary: claim,
    }
}
