//! `tessera generate GAME [spec] --seed S (--out FILE | --count N --out-dir
//! DIR [--shard I/N])`: one subcommand per game that brings a level
//! generator (`tessera_host::generate::LevelGenerator`), its spec's options
//! from the generator and the options below from the shell. The generator
//! runs on a worker thread; this thread draws the progress line (stderr,
//! on a terminal) and Ctrl+C cancels it.
//!
//! Exit codes: 0 every level asked for was written; 1 none found for the
//! seed (or a pack left short), or stopped; 2 a bad option or an
//! impossible spec.

mod pack;

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Arg, ArgMatches, Command, value_parser};
use tessera_host::command::CommandContext;
use tessera_host::generate::{GenerateError, Generated, LevelGenerator};
use tessera_host::level::{check_writable, write_atomic};
use tessera_host::partial::ShardId;

use crate::Status;

/// The shell's `generate` command: a subcommand per registered generator.
pub fn command(context: &CommandContext) -> Command {
    let games = context.registry().generators().map(|(game, generator)| {
        Command::new(game)
            .about(format!(
                "Generate {game} levels to a spec, proven by its solver"
            ))
            .args(generator.arguments())
            .args(shell_arguments())
    });
    Command::new("generate")
        .about("Generate levels to a designer's spec, each with its proof and difficulty")
        .subcommand_required(true)
        .subcommands(games)
}

/// The options every generator shares.
fn shell_arguments() -> Vec<Arg> {
    vec![
        Arg::new("seed")
            .long("seed")
            .value_name("S")
            .value_parser(value_parser!(u64))
            .default_value("1")
            .help("Seed: one spec and one seed always give the same level (a pack: its first seed)"),
        Arg::new("out")
            .long("out")
            .value_name("FILE")
            .value_parser(value_parser!(PathBuf))
            .conflicts_with_all(["out_dir", "count"])
            .help("Write the level here (default: print it)"),
        Arg::new("count")
            .long("count")
            .value_name("N")
            .value_parser(value_parser!(u64).range(1..=100_000))
            .requires("out_dir")
            .help("Make a pack of N distinct levels (seeds S, S+1, ...; duplicates skipped)"),
        Arg::new("out_dir")
            .long("out-dir")
            .value_name("DIR")
            .value_parser(value_parser!(PathBuf))
            .requires("count")
            .help("The pack's folder; files are named by difficulty. Levels of the same spec already there count towards N"),
        Arg::new("shard")
            .long("shard")
            .value_name("I/N")
            .requires("count")
            .help("Make only shard I of N of the pack (its own seeds); shards' folders copied together are the pack"),
    ]
}

/// Runs `tessera generate GAME ...`.
pub fn run(matches: &ArgMatches, context: &CommandContext) -> anyhow::Result<Status> {
    let Some((game, sub)) = matches.subcommand() else {
        crate::usage!("generate: name a game ({})", known(context));
    };
    let Some(generator) = context.registry().generator(game) else {
        crate::usage!(
            "generate: `{game}` brings no generator ({})",
            known(context)
        );
    };
    let seed = sub.get_one::<u64>("seed").copied().unwrap_or(1);
    if let (Some(count), Some(dir)) = (
        sub.get_one::<u64>("count"),
        sub.get_one::<PathBuf>("out_dir"),
    ) {
        let shard = match sub.get_one::<String>("shard") {
            Some(text) => match ShardId::parse(text) {
                Ok(shard) => Some(shard),
                Err(e) => crate::usage!("--shard: {e}"),
            },
            None => None,
        };
        let pack = pack::Pack {
            game,
            generator,
            matches: sub,
            seed,
            count: *count,
            dir,
            shard,
        };
        return pack.run();
    }
    let out = sub.get_one::<PathBuf>("out");
    if let Some(out) = out {
        check_writable(out)?;
    }
    let level = match generate_one(generator, sub, seed, "") {
        Ok(level) => level,
        Err(e) => return failed(e),
    };
    match out {
        Some(out) => {
            write_level(out, &level)?;
            println!("wrote {}: {}", out.display(), describe(&level));
        }
        None => {
            print!("{}", level.text);
            eprintln!("{}", describe(&level));
        }
    }
    Ok(Status::Ok)
}

/// The ids of the games that bring a generator.
fn known(context: &CommandContext) -> String {
    let games: Vec<_> = context.registry().generators().map(|(g, _)| g).collect();
    if games.is_empty() {
        "no game brings one".into()
    } else {
        format!("games: {}", games.join(", "))
    }
}

/// A level in one line: what was proven and its difficulty.
fn describe(level: &Generated) -> String {
    format!(
        "{}; difficulty {:.1} ({})",
        level.summary, level.difficulty, level.difficulty_label
    )
}

/// Writes a level atomically, naming the file in the error.
fn write_level(path: &Path, level: &Generated) -> anyhow::Result<()> {
    write_atomic(path, level.text.as_bytes())
        .with_context(|| format!("{}: cannot write", path.display()))
}

/// What a generation that ended without a level means for the exit code:
/// a bad spec is usage (2), nothing found or a stop is a failure (1).
fn failed(error: GenerateError) -> anyhow::Result<Status> {
    match error {
        GenerateError::Spec(message) => crate::usage!("{message}"),
        GenerateError::Input(finding) => Err(finding.into()),
        GenerateError::NotFound(_) | GenerateError::Cancelled => {
            eprintln!("tessera: {error}");
            Ok(Status::Failed)
        }
    }
}

/// Generates one level as a job (`tessera_host::job`): on a worker
/// thread while this one draws the progress line (`prefix` says which
/// level of a pack); Ctrl+C cancels it.
fn generate_one(
    generator: &'static dyn LevelGenerator,
    matches: &ArgMatches,
    seed: u64,
    prefix: &str,
) -> Result<Generated, GenerateError> {
    tessera_host::job::run(&format!("{prefix}seed {seed}"), |control| {
        generator.generate(matches, seed, control)
    })
}
