//! Level generation, a capability a plugin may bring: levels made to a
//! designer's spec and proven by the game's own solver or search
//! (`tessera generate GAME`, the editor's File ▸ Generate…).
//!
//! The shell owns the options every generator shares (`--seed`, `--out`,
//! `--count`, `--out-dir`, `--shard`) and the progress line; a plugin owns
//! its spec's options, the search for a level, and the proof. A generated
//! level carries its claim (what was proven, and a difficulty estimate) as
//! a comment in the file, and [`prove`] re-proves that claim when
//! `tessera check` reads the file (and when a pack counts it): the game's
//! [`LevelGenerator::restate`] says what the block must read for the level
//! as it now is, and [`prove`] compares every line with it, so a hand edit
//! of any line of the block is reported at that line.
//!
//! Determinism: a generator draws only from [`crate::rng`]'s seeded
//! streams, so one spec and one seed always give the same level.

use std::path::Path;

use crate::agent::ThinkControl;
use crate::level::{Diagnostic, LevelFile, parse_level};
use crate::rng::{GameRng, game_rng};

/// Why a generation ended without a level.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The spec is impossible or out of range (exit 2 on the command line):
    /// the message names the option and the accepted values.
    #[error("{0}")]
    Spec(String),
    /// [`ThinkControl::cancel`] was called (Ctrl+C, the editor's Cancel).
    #[error("cancelled")]
    Cancelled,
    /// The search ran out of its attempts without a level that meets the
    /// spec; the message says what was tried.
    #[error("no level found: {0}")]
    NotFound(String),
    /// An input (a design to repair) could not be read or is invalid.
    #[error(transparent)]
    Input(#[from] Diagnostic),
}

/// A level a generator made, with what it proved about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// The level file's whole text, claim comment included, as `check`
    /// accepts it.
    pub text: String,
    /// The file extension the text is written with (`ron`).
    pub extension: &'static str,
    /// A short name for the level (a pack's file names are built from the
    /// difficulty and this).
    pub name: String,
    /// The difficulty estimate, larger is harder; its scale is the game's
    /// (documented on the game's page), comparable within one spec.
    pub difficulty: f64,
    /// The difficulty in words (`easy`, `medium`, `hard`), for file names
    /// and the editor.
    pub difficulty_label: String,
    /// One line on what was proven (`1 distinct packing; 812 nodes to the
    /// first; 37 dead ends`), printed by the command and shown in the
    /// editor.
    pub summary: String,
}

/// What a re-proof of a level's claim found.
#[derive(Debug, Clone, PartialEq)]
pub enum Proof {
    /// The file carries no generator claim.
    NoClaim,
    /// The claim holds; the line says what was re-proven.
    Holds(String),
    /// The claim no longer holds (or cannot be read): the diagnostic names
    /// the file and the claim's line.
    Broken(Diagnostic),
}

/// A plugin's level generator, registered beside its game
/// ([`crate::Registry::register_generator`]).
pub trait LevelGenerator: Sync {
    /// The spec's options (clap's builder API), without the shell's own
    /// (`--seed`, `--out`, `--count`, `--out-dir`, `--shard`). The editor
    /// builds its Generate… form from these too (each argument's help,
    /// default and possible values), so write the help for a designer.
    fn arguments(&self) -> Vec<clap::Arg>;

    /// Generates one level for the spec in `matches` (parsed from
    /// [`LevelGenerator::arguments`]) and `seed`, reporting progress and
    /// watching for cancel on `control`. Deterministic per spec and seed.
    fn generate(
        &self,
        matches: &clap::ArgMatches,
        seed: u64,
        control: &ThinkControl,
    ) -> Result<Generated, GenerateError>;

    /// Re-proves the claim a generated level carries and restates its
    /// block: the claim and difficulty lines this generator writes for the
    /// level as it now is (`text` is the file's whole text, `claim` its
    /// block as read, `path` names it in findings). `Err` is a claim that
    /// does not hold or cannot be re-proven ([`Claim::broken`]). Called
    /// only through [`prove`], which compares every line of the block with
    /// the restatement, so a game never compares lines itself.
    fn restate(
        &self,
        path: &Path,
        text: &str,
        claim: &Claim,
        control: &ThinkControl,
    ) -> Result<Restated, Proof>;
}

/// What a generator's re-proof found a claimed level to be, in the words
/// its block must hold ([`LevelGenerator::restate`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Restated {
    /// The claim line as the generator writes it for this level (after
    /// `// claim: `).
    pub claim: String,
    /// The difficulty line as the generator writes it for this level
    /// (after `// difficulty: `); deterministic (node and move counts, not
    /// time), so it can be compared.
    pub difficulty: String,
    /// What was re-proven, in words, for `check` to print
    /// ([`Proof::Holds`]).
    pub proven: String,
}

/// How a generated level's comment block starts: the command that made it.
pub const GENERATED_BY: &str = "// generated by tessera: ";
/// The line that states what was proven (what `check` re-proves).
pub const CLAIM: &str = "// claim: ";
/// The line with the difficulty estimate.
pub const DIFFICULTY: &str = "// difficulty: ";

/// The command line that makes a level again: `generate GAME`, the spec's
/// options the user gave (in [`LevelGenerator::arguments`]' order) and
/// `--seed S`. Options left at their defaults are not repeated, so two
/// runs of one spec write the same line.
pub fn command_line(
    game: &str,
    arguments: &[clap::Arg],
    matches: &clap::ArgMatches,
    seed: u64,
) -> String {
    let mut line = format!("generate {game}");
    for arg in arguments {
        let id = arg.get_id().as_str();
        if matches.value_source(id) != Some(clap::parser::ValueSource::CommandLine) {
            continue;
        }
        let Some(long) = arg.get_long() else { continue };
        let takes_values = arg.get_num_args().is_none_or(|n| n.takes_values());
        let flag = !takes_values || matches!(arg.get_action(), clap::ArgAction::SetTrue);
        if flag {
            line.push_str(&format!(" --{long}"));
            continue;
        }
        let values: Vec<String> = matches
            .get_raw(id)
            .into_iter()
            .flatten()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        line.push_str(&format!(" --{long} {}", values.join(" ")));
    }
    line.push_str(&format!(" --seed {seed}"));
    line
}

/// The comment block a generated level's text starts with: the command
/// that made it, the claim, and the difficulty. `claim` starts with the
/// word the game's [`LevelGenerator::restate`] reads back (`unique`, ...).
pub fn claim_block(command: &str, claim: &str, difficulty: &str) -> String {
    format!("{GENERATED_BY}{command}\n{CLAIM}{claim}\n{DIFFICULTY}{difficulty}\n")
}

/// A generated level's comment block as read back from its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The 1-based line of `// claim:` (findings point at it).
    pub line: u32,
    /// What follows `// claim: `.
    pub text: String,
    /// What follows `// generated by tessera: `, when the block has it.
    pub command: Option<String>,
    /// What follows `// difficulty: `, when the block has it.
    pub difficulty: Option<String>,
    /// The 1-based lines of the `generated by` and `difficulty` lines,
    /// when the block has them (findings about them point there).
    pub command_line: Option<u32>,
    /// See [`Claim::command_line`].
    pub difficulty_line: Option<u32>,
    /// The first line that repeats one of the block's three kinds of line
    /// (a second `// claim:`), which [`prove`] refuses: only one of each
    /// is compared.
    pub repeated: Option<u32>,
}

/// One line of a claim block as found: its 1-based line and its text
/// after the prefix.
type BlockLine = Option<(u32, String)>;

impl Claim {
    /// Finds the claim in the comment lines at the top of a level's text
    /// (before its first line of RON); `None` when it carries none.
    pub fn find(text: &str) -> Option<Claim> {
        // The block's three kinds of line, in the order `claim_block`
        // writes them.
        let prefixes = [GENERATED_BY, CLAIM, DIFFICULTY];
        let mut found: [BlockLine; 3] = [None, None, None];
        let mut repeated = None;
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if !line.starts_with("//") {
                break;
            }
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            for (slot, prefix) in found.iter_mut().zip(prefixes) {
                let Some(rest) = line.strip_prefix(prefix.trim_end()) else {
                    continue;
                };
                if slot.is_some() {
                    repeated = repeated.or(Some(number));
                } else {
                    *slot = Some((number, rest.trim().to_string()));
                }
                break;
            }
        }
        let [command, claim, difficulty] = found;
        let (line, text) = claim?;
        Some(Claim {
            line,
            text,
            command_line: command.as_ref().map(|(line, _)| *line),
            command: command.map(|(_, text)| text),
            difficulty_line: difficulty.as_ref().map(|(line, _)| *line),
            difficulty: difficulty.map(|(_, text)| text),
            repeated,
        })
    }

    /// The game a generated level's `generated by` line names (`//
    /// generated by tessera: generate GAME ...`, its first line as
    /// written, found among the leading comments), whether or not the rest
    /// of its block survived: a level whose claim line was deleted still
    /// says which game it is for.
    pub fn game_of(text: &str) -> Option<String> {
        let rest = text
            .trim_start_matches('\u{feff}')
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .take_while(|line| line.starts_with("//"))
            .find_map(|line| line.strip_prefix(GENERATED_BY.trim_end()))?;
        let mut words = rest.split_whitespace();
        (words.next()? == "generate").then_some(())?;
        words.next().map(str::to_string)
    }

    /// The claim's first word (`unique`, `solvable`, ...): what a game's
    /// proof dispatches on.
    pub fn kind(&self) -> &str {
        self.text
            .split(|c: char| c.is_whitespace() || c == ',' || c == '(')
            .next()
            .unwrap_or("")
    }

    /// The game of the `generated by` line (`generate GAME ...`).
    pub fn game(&self) -> Option<String> {
        let mut words = self.command.as_deref()?.split_whitespace();
        (words.next()? == "generate").then_some(())?;
        words.next().map(str::to_string)
    }

    /// The seed of the `generated by` line (`--seed S`), when it has one.
    pub fn seed(&self) -> Option<u64> {
        let command = self.command.as_deref()?;
        let mut words = command.split_whitespace();
        while let Some(word) = words.next() {
            if word == "--seed" {
                return words.next()?.parse().ok();
            }
        }
        None
    }

    /// The `generated by` line without its `--seed S`: the spec, equal for
    /// every level of one pack.
    pub fn spec(&self) -> Option<String> {
        Some(Self::spec_of(self.command.as_deref()?))
    }

    /// A `generated by` command line without its `--seed S`.
    pub fn spec_of(command: &str) -> String {
        let mut kept = Vec::new();
        let mut words = command.split_whitespace();
        while let Some(word) = words.next() {
            if word == "--seed" {
                words.next();
            } else {
                kept.push(word);
            }
        }
        kept.join(" ")
    }

    /// [`Proof::Holds`] with `what`, the re-proven facts in words.
    pub fn holds(&self, what: impl Into<String>) -> Proof {
        Proof::Holds(what.into())
    }

    /// [`Proof::Broken`] at the claim's line of `path`: the claim, then
    /// `why` it no longer holds.
    pub fn broken(&self, path: &Path, why: impl std::fmt::Display) -> Proof {
        Proof::Broken(Diagnostic {
            line: Some(self.line),
            ..Diagnostic::error(
                path,
                format!(
                    "the claim `{}` no longer holds: {why}",
                    crate::text::excerpt(&self.text)
                ),
            )
        })
    }

    /// [`Proof::Broken`] at `line` of `path` (another line of the block).
    fn broken_at(path: &Path, line: Option<u32>, why: impl Into<String>) -> Proof {
        Proof::Broken(Diagnostic {
            line,
            ..Diagnostic::error(path, why)
        })
    }
}

/// Re-proves a generated level's whole claim block, the one comparison
/// path `check` and a pack's resume share: the `generated by` line must
/// be a command `game`'s generator accepts, written as `generate` writes
/// it; then `generator` re-proves the claim and restates the block, and
/// the claim and difficulty lines must be exactly its restatement. Any
/// other text (an extra word, a changed number, a parenthesis) is refused
/// at its own line. A file without a `// claim:` line is
/// [`Proof::NoClaim`].
///
/// What cannot be compared: the `generated by` line's seed and spec
/// values are read, not regenerated (that is a whole generation run), so
/// an edited seed that still parses is not caught here.
pub fn prove(
    generator: &dyn LevelGenerator,
    game: &str,
    path: &Path,
    text: &str,
    control: &ThinkControl,
) -> Proof {
    let Some(claim) = Claim::find(text) else {
        // A block without its claim line (deleted) is no longer what the
        // generator wrote: refused at the block's first line left.
        return match block_start(text) {
            Some(line) => Claim::broken_at(
                path,
                Some(line),
                format!("the claim block lacks its `{}` line", CLAIM.trim_end()),
            ),
            None => Proof::NoClaim,
        };
    };
    if let Some(line) = claim.repeated {
        return Claim::broken_at(
            path,
            Some(line),
            "a claim block has one `generated by`, one `claim` and one `difficulty` line; this one repeats a line",
        );
    }
    let Some(command) = claim.command.as_deref() else {
        return Claim::broken_at(
            path,
            Some(claim.line),
            format!("the claim block lacks its first line, `{GENERATED_BY}generate {game} ...`"),
        );
    };
    if let Err(why) = check_command(generator, game, command) {
        return Claim::broken_at(
            path,
            claim.command_line,
            format!(
                "the `generated by` line `{}` is not a command that made this level: {why}",
                crate::text::excerpt(command)
            ),
        );
    }
    let restated = match generator.restate(path, text, &claim, control) {
        Ok(restated) => restated,
        Err(proof) => return proof,
    };
    if claim.text != restated.claim {
        return claim.broken(
            path,
            format!(
                "the level now gives `{}`",
                crate::text::excerpt(&restated.claim)
            ),
        );
    }
    let Some(difficulty) = claim.difficulty.as_deref() else {
        return Claim::broken_at(
            path,
            Some(claim.line),
            "the claim block lacks its `// difficulty: ` line",
        );
    };
    if difficulty != restated.difficulty {
        return Claim::broken_at(
            path,
            claim.difficulty_line,
            format!(
                "the difficulty `{}` is not this level's: it recomputes to `{}`",
                crate::text::excerpt(difficulty),
                crate::text::excerpt(&restated.difficulty)
            ),
        );
    }
    Proof::Holds(restated.proven)
}

/// The 1-based line of the first `generated by` or `difficulty` line
/// among a text's leading comments: a claim block, claim line or not.
fn block_start(text: &str) -> Option<u32> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index, line.trim()))
        .filter(|(_, line)| !line.is_empty())
        .take_while(|(_, line)| line.starts_with("//"))
        .find(|(_, line)| {
            line.starts_with(GENERATED_BY.trim_end()) || line.starts_with(DIFFICULTY.trim_end())
        })
        .map(|(index, _)| u32::try_from(index + 1).unwrap_or(u32::MAX))
}

/// Whether `command` (a `generated by` line after its prefix) is
/// `generate GAME`, the generator's options and `--seed S`, written as
/// [`command_line`] writes them; `Err` says what differs.
fn check_command(generator: &dyn LevelGenerator, game: &str, command: &str) -> Result<(), String> {
    let mut words = command.split_whitespace();
    if words.next() != Some("generate") {
        return Err("it does not start with `generate`".into());
    }
    match words.next() {
        Some(named) if named == game => {}
        Some(other) => {
            return Err(format!(
                "it names the game `{}`, this is a {game} level",
                crate::text::excerpt(other)
            ));
        }
        None => return Err("it names no game".into()),
    }
    let arguments = generator.arguments();
    let parser = clap::Command::new("generate")
        .no_binary_name(true)
        .disable_help_flag(true)
        .disable_version_flag(true)
        .args(arguments.iter().cloned())
        .arg(
            clap::Arg::new("seed")
                .long("seed")
                .required(true)
                .value_parser(clap::value_parser!(u64)),
        );
    let matches = parser
        .try_get_matches_from(words)
        .map_err(|error| first_line(&error.to_string()))?;
    let seed = matches.get_one::<u64>("seed").copied().unwrap_or_default();
    let written = command_line(game, &arguments, &matches, seed);
    if written == command {
        Ok(())
    } else {
        Err(format!(
            "`generate` writes it `{}`",
            crate::text::excerpt(&written)
        ))
    }
}

/// The first line of clap's message, without its `error: ` prefix.
fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or_default();
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// The search loop every generator runs: up to `attempts` candidates drawn
/// from `seed`'s stream, the progress set and a cancel checked before each;
/// `attempt` (given its 0-based number) returns `Some` when its candidate
/// meets the spec. `None`: every attempt failed.
pub fn try_candidates<T>(
    seed: u64,
    attempts: u32,
    control: &ThinkControl,
    mut attempt: impl FnMut(u32, &mut GameRng) -> Result<Option<T>, GenerateError>,
) -> Result<Option<T>, GenerateError> {
    let mut rng = game_rng(seed);
    for i in 0..attempts {
        if control.is_cancelled() {
            return Err(GenerateError::Cancelled);
        }
        control.set_progress(f64::from(i) / f64::from(attempts));
        if let Some(found) = attempt(i, &mut rng)? {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// The opening of every [`LevelGenerator::restate`]: the claim `text`
/// carries and its level. `Err` is the proof to return at once:
/// [`Proof::NoClaim`], or the level's own finding when it does not read.
pub fn claimed_level<L: LevelFile>(path: &Path, text: &str) -> Result<(Claim, L), Proof> {
    let claim = Claim::find(text).ok_or(Proof::NoClaim)?;
    let level = parse_level(text, path).map_err(Proof::Broken)?;
    Ok((claim, level))
}

/// The level's text after its leading comment block: what two levels are
/// compared by when a pack skips duplicates (the same level from two seeds
/// differs only in its `generated by` line).
pub fn level_body(text: &str) -> &str {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if !trimmed.is_empty() && !trimmed.starts_with("//") {
            break;
        }
        at += line.len();
    }
    &text[at..]
}

/// The options of a spec written as a clap derive `Args` struct, for
/// [`LevelGenerator::arguments`].
pub fn spec_arguments<A: clap::Args>() -> Vec<clap::Arg> {
    A::augment_args(clap::Command::new("spec"))
        .get_arguments()
        .cloned()
        .collect()
}

/// The spec's `Args` struct read back from the matches of
/// [`spec_arguments`] (a mismatch is a spec error).
pub fn spec_of<A: clap::FromArgMatches>(matches: &clap::ArgMatches) -> Result<A, GenerateError> {
    A::from_arg_matches(matches).map_err(|error| GenerateError::Spec(error.to_string()))
}
