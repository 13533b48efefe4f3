//! The feed campaign: every feed level of a project
//! (`levels/tetris/feed_N_*.ron`, each against its own difficulty and
//! ceiling) played against one or more feeder strengths (`hate:P`: a player
//! who makes the hateful choice with chance P). A designer who edits a
//! difficulty table in `scripts/tetris.lua` re-runs it to see the player's
//! win rate level by level.
//!
//! One path for both front ends: the Balance window's campaign plot and
//! `tessera tetris campaign` call [`play`]. Each level is one run of the
//! host's simulation (the same games as `tessera sim tetris --mode feed
//! --feeder hate:P --level FILE`), one line-up per feeder strength.

use std::path::{Path, PathBuf};

use tessera_host::agent::ThinkControl;
use tessera_host::check::Checker;
use tessera_host::sim::{Lineup, SimConfig, SimLevel, SimOptions, run_sim};
use tessera_host::{Budget, Game, Registry, ScriptLimits, Seat};

use crate::ai::feeder::Feeder;
use tessera_tetris::Tetris;
use tessera_tetris::level::TetrisLevel;

/// What a campaign run plays.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignConfig {
    /// The feeder strengths, one curve each.
    pub feeders: Vec<Feeder>,
    /// Games per level and feeder.
    pub games: usize,
    /// Seed of each level's first game (game i plays seed + i).
    pub seed: u64,
    /// Worker threads of each level's simulation.
    pub threads: usize,
}

impl Default for CampaignConfig {
    /// The Balance window's default: three feeder strengths, 20 games a
    /// level, the campaign's unseen seeds, every core.
    fn default() -> Self {
        Self {
            feeders: [250_000, 500_000, 750_000]
                .into_iter()
                .map(|per_million| Feeder::Hate { per_million })
                .collect(),
            games: 20,
            seed: 100_000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// One level's figure on a curve.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignPoint {
    /// The level's place in the campaign (1 = the first feed level).
    pub level: usize,
    /// Its file name.
    pub file: String,
    /// The player's win rate, 0 to 1.
    pub player_win: f64,
    /// Games played.
    pub games: u64,
}

/// One feeder strength's curve.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignCurve {
    /// The feeder, as seats name it (`hate:0.5`).
    pub feeder: String,
    /// Its points, level by level.
    pub points: Vec<CampaignPoint>,
}

/// What a campaign run brings back.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignRun {
    /// One curve per feeder strength, in the config's order.
    pub curves: Vec<CampaignCurve>,
    /// Games played in all.
    pub games: u64,
    /// Whether the run was cancelled (the curves then hold the levels
    /// finished before).
    pub cancelled: bool,
}

/// The feed levels of the project at `root`, in campaign order (by the
/// number after `feed_`, then by name), each checked as `tessera check`
/// checks it and read as a game start reads it.
pub fn feed_levels(root: &Path) -> Result<Vec<(PathBuf, TetrisLevel)>, String> {
    let folder = root.join("levels/tetris");
    let entries = std::fs::read_dir(&folder)
        .map_err(|e| format!("{}: cannot list: {e}", folder.display()))?;
    let mut files: Vec<(u64, String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?.to_string();
            let rest = name.strip_prefix("feed_")?.strip_suffix(".ron")?;
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            Some((digits.parse().unwrap_or(u64::MAX), name, path))
        })
        .collect();
    files.sort();
    // Each level goes through `check`'s own validation first (a game start
    // on the project's script included), so the campaign refuses what
    // `check` and `play` refuse, at the same file and line.
    let registry = tetris_alone();
    let mut checker = Checker::new(&registry, ScriptLimits::default());
    let mut levels = Vec::new();
    for (_, _, path) in files {
        if let Some(error) = checker
            .check_level(&path)
            .into_iter()
            .find(|d| d.is_error())
        {
            return Err(error.to_string());
        }
        let text = tessera_host::level::read_text(&path).map_err(|d| d.to_string())?;
        let level: TetrisLevel =
            tessera_host::level::parse_level(&text, &path).map_err(|d| d.to_string())?;
        if level.feed.is_some() {
            levels.push((path, level));
        }
    }
    if levels.is_empty() {
        return Err(format!(
            "no feed levels (feed_N_*.ron) in {}",
            folder.display()
        ));
    }
    Ok(levels)
}

/// A registry of Tetris alone: the campaign's simulations need no other
/// game.
fn tetris_alone() -> Registry {
    crate::registry()
}

/// Plays every feed level of the project at `root` against each feeder of
/// `config`, level by level, with progress over the whole campaign on
/// `control` (and its cancel). `on_level` hears of each finished level:
/// its place (1 = first), its file and the curves so far.
pub fn play(
    root: &Path,
    config: &CampaignConfig,
    control: &ThinkControl,
    on_level: &mut dyn FnMut(usize, &Path, &[CampaignCurve]),
) -> Result<CampaignRun, String> {
    let levels = feed_levels(root)?;
    let mut curves: Vec<CampaignCurve> = config
        .feeders
        .iter()
        .map(|f| CampaignCurve {
            feeder: f.name(),
            points: Vec::new(),
        })
        .collect();
    let mut games = 0;
    let n = levels.len();
    for (i, (path, level)) in levels.iter().enumerate() {
        let Some(feed) = &level.feed else { continue };
        let placer = Seat::Ai {
            level: feed.difficulty.to_lowercase(),
        };
        let lineups = config
            .feeders
            .iter()
            .map(|feeder| Lineup {
                label: feeder.name(),
                seats: vec![
                    Seat::Ai {
                        level: feeder.name(),
                    },
                    placer.clone(),
                ],
                rotate: false,
            })
            .collect();
        let sim = SimConfig {
            game: Tetris::ID.into(),
            mode: Some("feed".into()),
            lineups,
            games: config.games.max(1) as u64,
            seed: config.seed,
            only: None,
            budget: Budget::unbounded(),
            threads: config.threads.max(1),
            max_moves: usize::MAX,
            level: SimLevel::File(path.clone()),
            options: SimOptions::default(),
        };
        let report = run_sim(
            root,
            &tetris_alone(),
            &sim,
            control,
            &mut |_, done, total| {
                // Progress over the whole campaign, not this level's run.
                let level_part = done as f64 / total.max(1) as f64;
                control.set_progress((i as f64 + level_part) / n as f64);
                control.set_note(format!("level {}/{n}: {done}/{total} games", i + 1));
            },
        )?;
        games += report.games;
        if report.cancelled {
            return Ok(CampaignRun {
                curves,
                games,
                cancelled: true,
            });
        }
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (curve, tally) in curves.iter_mut().zip(&report.tallies) {
            curve.points.push(CampaignPoint {
                level: i + 1,
                file: file.clone(),
                player_win: tally.figure("player_win").map_or(0.0, |f| f.stat.value()),
                games: tally.games,
            });
        }
        on_level(i + 1, path, &curves);
    }
    Ok(CampaignRun {
        curves,
        games,
        cancelled: false,
    })
}
