//! The campaign's costliest decisions in CPU time (issue #38): GOD on
//! feed level 7 and MASTER on feed level 8, each against the `hate:0.5`
//! feeder on seeds 100000-100019, one thread, played by the host's
//! simulation as `tessera sim tetris --mode feed --feeder hate:0.5 --level
//! levels/tetris/feed_N_NAME.ron --games 20 --seed 100000 --threads 1`
//! plays them. CPU time, not wall time: a shared machine's other work
//! stretches the one, hardly the other.

use std::path::Path;
use std::time::Duration;

use tessera_host::Registry;
use tessera_host::agent::{Budget, ThinkControl};
use tessera_host::bench::{Figure, Timing};
use tessera_host::options::Seat;
use tessera_host::sim::{Lineup, SimConfig, SimLevel, SimOptions, SimValue, run_sim};

/// The seeds and games every figure plays.
const SEED: u64 = 100_000;
const GAMES: u64 = 20;

/// One sixth of the figures on main `cd111c6` (GOD 18 ms, MASTER
/// 47 ms a decision).
const GOD_TARGET: Duration = Duration::from_millis(3);
const MASTER_TARGET: Duration = Duration::from_micros(7_800);

fn tetris_alone() -> Registry {
    crate::registry()
}

/// The user and system CPU time of this process so far (the simulation's
/// finished threads included), or `None` where it cannot be read.
fn process_cpu() -> Option<Duration> {
    #[cfg(unix)]
    {
        // SAFETY: `getrusage` fills the zeroed struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return None;
        }
        let time = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
        };
        Some(time(usage.ru_utime) + time(usage.ru_stime))
    }
    #[cfg(not(unix))]
    None
}

/// CPU time per AI piece of `ai` on `level` (a file of the project at
/// `root`) against `hate:0.5`, seeds [`SEED`] on, [`GAMES`] games, one
/// thread: the feeder's picks and the game included, as `sim` plays them.
fn per_decision(root: &Path, level: &str, ai: &str) -> anyhow::Result<Timing> {
    let feeder = "hate:0.5".to_string();
    let config = SimConfig {
        game: "tetris".into(),
        mode: Some("feed".into()),
        lineups: vec![Lineup {
            label: ai.into(),
            seats: vec![Seat::Ai { level: feeder }, Seat::Ai { level: ai.into() }],
            rotate: false,
        }],
        games: GAMES,
        seed: SEED,
        only: None,
        budget: Budget::unbounded(),
        threads: 1,
        max_moves: usize::MAX,
        level: SimLevel::File(root.join(level)),
        options: SimOptions::default(),
    };
    let mut pieces = 0u64;
    let started = process_cpu();
    let wall = std::time::Instant::now();
    run_sim(
        root,
        &tetris_alone(),
        &config,
        &ThinkControl::new(),
        &mut |game, _, _| {
            for f in &game.figures {
                if let ("pieces", SimValue::Count(n)) = (f.key, f.value) {
                    pieces += n;
                }
            }
        },
    )
    .map_err(|e| anyhow::anyhow!("{level}: {e}"))?;
    let spent = match (started, process_cpu()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        // No CPU clock: the wall time, an upper bound on one thread.
        _ => wall.elapsed(),
    };
    let per = spent / u32::try_from(pieces.max(1)).unwrap_or(u32::MAX);
    Ok(Timing {
        min: per,
        median: per,
    })
}

/// GOD's and MASTER's figures on the project's campaign levels 7 and 8.
pub(super) fn figures(root: &Path) -> anyhow::Result<Vec<Figure>> {
    let name = |who: &str, level: &str| {
        format!(
            "AI decision in CPU time, {who} on {level} against hate:0.5 (seeds 100000-100019, one thread, the game included; `tessera sim tetris --mode feed --feeder hate:0.5 --level {level} --games 20 --seed 100000 --threads 1`)"
        )
    };
    let god = "levels/tetris/feed_7_god.ron";
    let master = "levels/tetris/feed_8_master.ron";
    Ok(vec![
        Figure::timed(
            "tetris",
            name("GOD", god),
            per_decision(root, god, "god")?,
            Some(GOD_TARGET),
        ),
        Figure::timed(
            "tetris",
            name("MASTER", master),
            per_decision(root, master, "master")?,
            Some(MASTER_TARGET),
        ),
    ])
}
