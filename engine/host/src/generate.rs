//! Level generation, a capability a plugin may bring: levels made to a
//! designer's spec and proven by the game's own solver or search
//! (`tessera generate GAME`, the editor's File ▸ Generate…).
//!
//! The shell owns the options every generator shares (`--seed`, `--out`,
//! `--count`, `--out-dir`, `--shard`) and the progress line; a plugin owns
//! its spec's options, the search for a level, and the proof. A generated
//! level carries its claim (what was proven, and a difficulty estimate) as
//! a comment in the file, and [`LevelGenerator::prove`] re-proves that
//! claim when `tessera check` reads the file, so a hand edit that breaks it
//! is reported at the claim's line.
//!
//! Determinism: a generator draws only from [`crate::rng`]'s seeded
//! streams, so one spec and one seed always give the same level.

use std::path::Path;

use crate::agent::ThinkControl;
use crate::level::Diagnostic;

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

    /// Re-proves the claim a generated level carries (`text` is the file's
    /// whole text, `path` names it in findings). Called by `tessera check`
    /// for every level of this game; a file without a claim is
    /// [`Proof::NoClaim`].
    fn prove(&self, path: &Path, text: &str, control: &ThinkControl) -> Proof;
}
