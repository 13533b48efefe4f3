//! Polycube's level generator (`tessera generate polycube`, the editor's
//! File ▸ Generate… and Make unique): the box cut at random into
//! face-connected pieces, walked towards one distinct packing
//! (`unique.rs`), the smallest edit that makes a design unique
//! (`repair.rs`), and the claim `tessera check` re-proves ([`prove`]).
//!
//! Difficulty: the mean nodes of a plain exact-cover search to its first
//! packing over eight seeded row orders, as `10 · log10(mean)`
//! (`difficulty.rs`).

pub mod cut;
pub mod design;
pub mod difficulty;
pub mod pocket;
pub mod repair;
mod reshape;
pub mod skew;
pub mod unique;

use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, ArgMatches, value_parser};
use tessera_host::ThinkControl;
use tessera_host::generate::{
    Claim, GenerateError, Generated, LevelGenerator, Proof, Restated, claim_block, claimed_level,
    command_line,
};

use crate::level::{MAX_EXTENT, MAX_PIECES, PolycubeLevel};
use crate::solver::{Solver, Verdict};
pub use difficulty::difficulty;
use repair::Repair;
use unique::{Spec, solve_error};

/// Polycube's generator, registered in `engine/builtin/games.rs`.
pub static GENERATOR: &dyn LevelGenerator = &PolycubeGenerator;

/// The largest box the generator cuts (its solver checks every step).
const MAX_GENERATED_VOLUME: usize = 128;

struct PolycubeGenerator;

impl LevelGenerator for PolycubeGenerator {
    fn arguments(&self) -> Vec<Arg> {
        vec![
            Arg::new("box")
                .long("box")
                .value_name("AxBxC")
                .default_value("3x3x3")
                .help("The box to fill, e.g. 3x3x3 or 4x4x4"),
            Arg::new("pieces")
                .long("pieces")
                .value_name("N")
                .value_parser(value_parser!(u32).range(2..=64))
                .default_value("6")
                .help("How many pieces"),
            Arg::new("sizes")
                .long("sizes")
                .value_name("MIN..MAX")
                .help("Cubes per piece (default: around the box's volume over the pieces; for a unique large box of many pieces, 2 up to the large pieces' share, e.g. 2..12 for a 4x4x4 of 13, 2..22 for a 5x5x5 of 25)"),
            Arg::new("unique")
                .long("unique")
                .action(ArgAction::SetTrue)
                .help("Exactly one distinct packing (up to the box's symmetries)"),
            Arg::new("assembly")
                .long("assembly")
                .action(ArgAction::SetTrue)
                .help("The packing assembles piece by piece along straight lines (played in assembly mode)"),
            Arg::new("repair")
                .long("repair")
                .value_name("FILE")
                .value_parser(value_parser!(PathBuf))
                .conflicts_with_all(["box", "pieces", "sizes", "unique", "assembly"])
                .help("Make unique: the smallest edit of this design (cubes handed between neighbouring pieces) that leaves one packing"),
        ]
    }

    fn generate(
        &self,
        matches: &ArgMatches,
        seed: u64,
        control: &ThinkControl,
    ) -> Result<Generated, GenerateError> {
        let command = command_line("polycube", &self.arguments(), matches, seed);
        if let Some(path) = matches.get_one::<PathBuf>("repair") {
            return repair_file(path, &command, control);
        }
        let spec = spec(matches)?;
        let design = unique::find(&spec, seed, control)?;
        let [a, b, c] = spec.size;
        let name = format!(
            "{} {a}x{b}x{c} of {} pieces",
            if spec.unique { "Unique" } else { "Generated" },
            spec.pieces
        );
        let level = design.to_level(name, spec.assembly);
        written(&level, &command, spec.unique, "", control)
    }

    fn restate(
        &self,
        path: &Path,
        text: &str,
        _claim: &Claim,
        control: &ThinkControl,
    ) -> Result<Restated, Proof> {
        restate(path, text, control)
    }
}

/// The spec in `matches`, its ranges checked.
fn spec(matches: &ArgMatches) -> Result<Spec, GenerateError> {
    let bad = |m: String| GenerateError::Spec(m);
    let text = matches
        .get_one::<String>("box")
        .map_or("3x3x3", String::as_str);
    let size = parse_box(text).ok_or_else(|| {
        bad(format!(
            "--box `{text}`: write AxBxC with each side 1 to {MAX_EXTENT}, e.g. 3x3x3"
        ))
    })?;
    let volume: usize = size.iter().product();
    if volume > MAX_GENERATED_VOLUME {
        return Err(bad(format!(
            "--box {text}: {volume} cells; the generator cuts boxes of at most {MAX_GENERATED_VOLUME}"
        )));
    }
    let pieces = matches.get_one::<u32>("pieces").copied().unwrap_or(6) as usize;
    if pieces > volume.min(MAX_PIECES) {
        return Err(bad(format!(
            "--pieces {pieces}: a box of {volume} cells holds at most {volume}"
        )));
    }
    let sizes = match matches.get_one::<String>("sizes") {
        Some(text) => parse_sizes(text).ok_or_else(|| {
            bad(format!(
                "--sizes `{text}`: write MIN..MAX with 1 <= MIN <= MAX, e.g. 4..6"
            ))
        })?,
        // A unique design of a large box with many pieces: a skewed cut's
        // sizes (`skew.rs`), the only cuts whose proofs stay small.
        None => match pocket::default_sizes(volume, pieces)
            .filter(|_| !matches.get_flag("assembly"))
            .or_else(|| skew::default_sizes(volume, pieces))
        {
            Some(sizes) if matches.get_flag("unique") && volume > unique::SMALL_BOX => sizes,
            _ => {
                let low = volume / pieces;
                (low.saturating_sub(1).max(1), volume.div_ceil(pieces) + 1)
            }
        },
    };
    if pieces * sizes.0 > volume || pieces * sizes.1 < volume {
        return Err(bad(format!(
            "--pieces {pieces} of {}..{} cubes cannot fill the box's {volume} cells",
            sizes.0, sizes.1
        )));
    }
    Ok(Spec {
        size,
        pieces,
        sizes,
        unique: matches.get_flag("unique"),
        assembly: matches.get_flag("assembly"),
    })
}

/// `AxBxC`, each side 1 to [`MAX_EXTENT`].
fn parse_box(text: &str) -> Option<[usize; 3]> {
    let sides: Vec<usize> = text
        .split(['x', 'X'])
        .map(|s| s.trim().parse().ok())
        .collect::<Option<_>>()?;
    let size: [usize; 3] = sides.try_into().ok()?;
    size.iter()
        .all(|&s| (1..=MAX_EXTENT as usize).contains(&s))
        .then_some(size)
}

/// `MIN..MAX` (or one number).
fn parse_sizes(text: &str) -> Option<(usize, usize)> {
    let (min, max) = text.split_once("..").unwrap_or((text, text));
    let (min, max): (usize, usize) = (min.trim().parse().ok()?, max.trim().parse().ok()?);
    (1 <= min && min <= max).then_some((min, max))
}

/// The claim line: `unique (...)` or `solvable`, and `, assembles along
/// straight lines` for an assembly level (the only words a polycube claim
/// has; `check` compares the line with these).
fn claim_text(unique: bool, assembly: bool) -> String {
    let mut claim = if unique {
        "unique (1 distinct packing up to the box's symmetries)".to_string()
    } else {
        "solvable".to_string()
    };
    if assembly {
        claim.push_str(", assembles along straight lines");
    }
    claim
}

/// The level's text with its claim block, and what it says.
fn written(
    level: &PolycubeLevel,
    command: &str,
    unique: bool,
    edit: &str,
    control: &ThinkControl,
) -> Result<Generated, GenerateError> {
    let work = difficulty::work(level.extents(), &level.shapes(), control.cancel_flag())
        .map_err(solve_error)?;
    let (d, word) = difficulty(&work);
    let claim = claim_text(unique, level.assembly);
    let work_words = difficulty::words(&work);
    let ron = level_text(level);
    let [a, b, c] = level.extents();
    Ok(Generated {
        text: format!(
            "{}{ron}",
            claim_block(command, &claim, &difficulty::line(&work))
        ),
        extension: "ron",
        name: format!("{a}x{b}x{c}-{}", level.pieces.len()),
        difficulty: d,
        difficulty_label: word.into(),
        summary: format!("{edit}{claim}; {work_words}"),
    })
}

/// The level as the hand-made ones are written: one line per piece.
pub fn level_text(level: &PolycubeLevel) -> String {
    let cell = |c: &(i64, i64, i64)| format!("({}, {}, {})", c.0, c.1, c.2);
    let (a, b, c) = level.size;
    let mut out = format!(
        "(\n    version: {},\n    name: {},\n    size: ({a}, {b}, {c}),\n    pieces: [\n",
        level.version,
        ron::to_string(&level.name).unwrap_or_else(|_| "\"\"".into())
    );
    for piece in &level.pieces {
        let cells: Vec<String> = piece.cells.iter().map(cell).collect();
        let colour = piece
            .colour
            .map(|(r, g, b)| format!(", colour: ({r}, {g}, {b})"))
            .unwrap_or_default();
        out.push_str(&format!(
            "        (id: {}, cells: [{}]{colour}),\n",
            ron::to_string(&piece.id).unwrap_or_else(|_| "\"?\"".into()),
            cells.join(", ")
        ));
    }
    out.push_str("    ],\n");
    if level.assembly {
        out.push_str("    assembly: true,\n");
    }
    out.push_str(")\n");
    out
}

/// `--repair FILE`: the first proposal of Make unique, written as a level.
fn repair_file(
    path: &Path,
    command: &str,
    control: &ThinkControl,
) -> Result<Generated, GenerateError> {
    // The loader `check`, `solve` and `play` read a level with: RON, or
    // either JSON format (the seed's) by extension, diagnosed and located.
    let (level, _warnings) = crate::import::load_any(path)?;
    match repair::make_unique(&level, control)? {
        Repair::AlreadyUnique => written(&level, command, true, "already unique; ", control),
        Repair::Proposals(proposals) => {
            let first = &proposals[0];
            let edited = first.design.apply_to(&level);
            let edit = format!("{}: ", first.words);
            written(&edited, command, true, &edit, control)
        }
    }
}

/// Re-proves a level's claim: `unique` (one distinct packing) or
/// `solvable` (its first word says which was claimed), and that a packing
/// comes apart along straight lines for an assembly level; restates the
/// block's lines for [`tessera_host::generate::prove`] to compare.
pub fn restate(path: &Path, text: &str, control: &ThinkControl) -> Result<Restated, Proof> {
    let (claim, level): (_, PolycubeLevel) = claimed_level(path, text)?;
    let solver =
        Solver::new(level.extents(), &level.shapes()).map_err(|e| claim.broken(path, e))?;
    let cancel = control.cancel_flag();
    let kind = claim.kind().to_string();
    let verdict = match kind.as_str() {
        // The whole search, on every core.
        "unique" => solver
            .distinct_parallel(2, 0, cancel)
            .map(|w| Verdict::of(w.found)),
        "solvable" => solver.first(cancel).map(|f| match f {
            Some(s) => Verdict::Unique(s),
            None => Verdict::NoSolution,
        }),
        other => {
            return Err(claim.broken(
                path,
                format!(
                    "`{}` is not a polycube claim (unique, solvable)",
                    tessera_host::text::excerpt(other)
                ),
            ));
        }
    };
    let what = match verdict {
        Err(e) => return Err(claim.broken(path, e)),
        Ok(Verdict::NoSolution) => return Err(claim.broken(path, "the pieces have no packing")),
        Ok(Verdict::NotUnique(..)) => {
            return Err(claim.broken(
                path,
                "a second distinct packing exists (`tessera solve --count` counts them)",
            ));
        }
        Ok(Verdict::Unique(_)) if kind == "unique" => "unique: 1 distinct packing",
        Ok(Verdict::Unique(_)) => "solvable",
    };
    if level.assembly {
        match solver.first_assemblable(cancel) {
            Ok(Some(_)) => {}
            Ok(None) => {
                return Err(claim.broken(path, "no packing comes apart along straight lines"));
            }
            Err(e) => return Err(claim.broken(path, e)),
        }
    }
    let work = difficulty::work(level.extents(), &level.shapes(), cancel)
        .map_err(|e| claim.broken(path, format!("not re-proven: {e}")))?;
    let (d, word) = difficulty(&work);
    Ok(Restated {
        claim: claim_text(kind == "unique", level.assembly),
        difficulty: difficulty::line(&work),
        proven: format!(
            "{what}{}; difficulty {d:.1} ({word}): {}",
            if level.assembly {
                ", assembles along straight lines"
            } else {
                ""
            },
            difficulty::words(&work)
        ),
    })
}
