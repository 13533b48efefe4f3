//! `tessera tetris campaign`: the Balance window's campaign sweep on the
//! command line: every feed level of the project against each feeder
//! strength, a row per level as it finishes, then the games played and
//! the wall time the sweep took (the figure a designer waits for after a
//! table edit).

use std::time::Instant;

use tessera_host::command::{CommandContext, Status};

use crate::ai::feeder::Feeder;
use crate::campaign::{CampaignConfig, play};

/// The options of `tessera tetris campaign`.
#[derive(clap::Args)]
pub(super) struct CampaignArgs {
    /// A feeder strength the player plays with (`hate:P`, `hate`,
    /// `random`); repeat for several curves.
    #[arg(long = "feeder", default_values_t = vec!["hate:0.5".to_string()])]
    feeders: Vec<String>,
    /// Games per level and feeder.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Seed of each level's first game (game i plays seed + i).
    #[arg(long, default_value_t = 100_000)]
    seed: u64,
    /// Worker threads of each level's simulation (default: every core).
    #[arg(long)]
    threads: Option<usize>,
}

/// Plays the sweep and prints its table and wall time.
pub(super) fn run(args: &CampaignArgs, context: &CommandContext) -> anyhow::Result<Status> {
    let mut feeders = Vec::new();
    for name in &args.feeders {
        match Feeder::from_name(name) {
            Some(Feeder::Hatetris) | None => tessera_host::usage!(
                "--feeder {name}: not a feeder strength (random, hate, or hate:P with 0 <= P <= 1)"
            ),
            Some(feeder) => feeders.push(feeder),
        }
    }
    if args.games == 0 {
        tessera_host::usage!("--games must be at least 1");
    }
    let threads = args.threads.unwrap_or(CampaignConfig::default().threads);
    if threads == 0 || threads as u64 > tessera_host::worker::MAX_THREADS {
        tessera_host::usage!(
            "--threads must be 1 to {}",
            tessera_host::worker::MAX_THREADS
        );
    }
    let config = CampaignConfig {
        feeders,
        games: args.games,
        seed: args.seed,
        threads,
    };
    let project = context.current_project()?;
    let names: Vec<String> = config.feeders.iter().map(|f| f.name()).collect();
    println!(
        "campaign: {} a level against {}, seeds {}-{}, {threads} thread(s)",
        tessera_host::text::count(config.games, "game"),
        names.join(", "),
        config.seed,
        config.seed + config.games as u64 - 1,
    );
    // One column per feeder, as wide as its name (at least "100.0%").
    let widths: Vec<usize> = names.iter().map(|n| n.len().max(6)).collect();
    let header: Vec<String> = names
        .iter()
        .zip(&widths)
        .map(|(n, w)| format!("{n:>w$}"))
        .collect();
    println!("{:<6} {:<24} {}", "level", "file", header.join("  "));
    let started = Instant::now();
    // The sweep is the job: Ctrl+C stops the games in play, and the rows
    // finished so far stand, marked PARTIAL.
    let _listening = tessera_host::job::listen();
    let control = tessera_host::job::interrupt();
    let run = play(
        project.root(),
        &config,
        control,
        &mut |level, path, curves| {
            let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
            let rates: Vec<String> = curves
                .iter()
                .zip(&widths)
                .filter_map(|(c, w)| Some((c.points.last()?, w - 1)))
                .map(|(p, w)| format!("{:>w$.1}%", p.player_win * 100.0))
                .collect();
            println!(
                "{level:<6} {:<24} {}",
                file.unwrap_or_default(),
                rates.join("  ")
            );
        },
    )
    .map_err(anyhow::Error::msg)?;
    let wall = started.elapsed().as_secs_f64();
    if control.is_cancelled() {
        println!(
            "{}{} in {wall:.1} s wall; the rows above are the levels finished before Ctrl+C",
            tessera_host::job::PARTIAL_STOPPED,
            tessera_host::text::count(run.games, "game"),
        );
        return Ok(Status::Failed);
    }
    println!(
        "{} in {wall:.1} s wall (player win rates per level)",
        tessera_host::text::count(run.games, "game"),
    );
    Ok(Status::Ok)
}
