//! What `tessera sim` and `tessera merge` print for a simulation: a
//! seat-against-seat run's per-player win rates and scores, or a ladder's
//! per-level figures (the game's own: lines, pieces, rates, time per
//! decision), as a table or JSON; and the merge of a sharded run's
//! partials, whose tallies add up to the unsharded run's.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tessera_host::project::Project;
use tessera_host::sim::{FigureStat, FigureSummary, LineupTally, SimConfig};

use super::sim::Args;
use crate::Status;
use tessera_host::partial::{Partial, refusal};

/// Everything that shapes a simulation's result and its heading: what a
/// shard's partial names as its options (shards of one run agree on all
/// of it) and what a merge needs to print.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Heading {
    /// The tessera version.
    pub tessera: String,
    /// Game id.
    pub game: String,
    /// Ladder (per AI level) or seat against seat.
    pub ladder: bool,
    /// The mode asked for.
    pub mode: Option<String>,
    /// Per line-up: its name and players.
    pub lineups: Vec<(String, Vec<String>)>,
    /// Games per line-up.
    pub games: u64,
    /// First seed.
    pub seed: u64,
    /// Per move limits and the move cap, as given.
    pub move_ms: Option<u64>,
    /// Nodes per move, as given.
    pub nodes: Option<u64>,
    /// Moves per game, as given.
    pub max_moves: Option<usize>,
    /// The game's own options given (`pieces`, `preview`).
    pub options: BTreeMap<String, u64>,
    /// The level as named, or the game's simulation board.
    pub level: String,
}

impl Heading {
    /// The heading of `config`, run from `args`.
    pub fn of(args: &Args, config: &SimConfig, _project: &Project, ladder: bool) -> Self {
        Self {
            tessera: env!("CARGO_PKG_VERSION").into(),
            game: config.game.clone(),
            ladder,
            mode: config.mode.clone(),
            lineups: config
                .lineups
                .iter()
                .map(|l| {
                    (
                        l.label.clone(),
                        l.seats.iter().map(ToString::to_string).collect(),
                    )
                })
                .collect(),
            games: config.games,
            seed: config.seed,
            move_ms: args.move_ms(),
            nodes: args.nodes(),
            max_moves: args.max_moves(),
            options: config
                .options
                .iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            level: args.level().map_or_else(
                || "the game's simulation board".into(),
                |l| l.display().to_string(),
            ),
        }
    }

    /// A ladder's first seat when it is not the one tested (tetris feed
    /// mode's feeder).
    fn feeder(&self) -> Option<&str> {
        let (_, seats) = self.lineups.first()?;
        (seats.len() > 1)
            .then(|| seats[0].strip_prefix("ai:"))
            .flatten()
    }
}

/// Prints a simulation's result; `stopped`: (games played, games asked)
/// of a run stopped early, marked partial.
pub fn print_report(
    heading: &Heading,
    tallies: &[LineupTally],
    ran_on: &str,
    elapsed: Duration,
    json: bool,
    stopped: Option<(u64, u64)>,
) -> anyhow::Result<()> {
    if let (Some((played, asked)), false) = (stopped, json) {
        println!("PARTIAL (stopped): {played} of {asked} games played");
    }
    if heading.ladder {
        print_ladder(heading, tallies, ran_on, elapsed, json, stopped.is_none())
    } else {
        print_players(heading, tallies, ran_on, elapsed, json, stopped.is_none())
    }
}

/// Seat against seat: each player's win rate and scores.
fn print_players(
    heading: &Heading,
    tallies: &[LineupTally],
    ran_on: &str,
    elapsed: Duration,
    json: bool,
    complete: bool,
) -> anyhow::Result<()> {
    let Some(tally) = tallies.first() else {
        return Ok(());
    };
    let summary = tally.players();
    let (game, games) = (&heading.game, tally.games);
    if json {
        let json = serde_json::json!({
            "game": game,
            "games": games,
            "seed": heading.seed,
            "seconds": elapsed.as_secs_f64(),
            "complete": complete,
            "players": summary.iter().map(|p| serde_json::json!({
                "seat": p.seat,
                "wins": p.wins,
                "win_rate": p.rate,
                "win_rate_95": [p.low, p.high],
                "mean_score": p.mean,
                "median_score": p.median,
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
        return Ok(());
    }
    println!(
        "{games} games of {game} on {ran_on} in {:.1} s (seats rotate each game)",
        elapsed.as_secs_f64()
    );
    println!(
        "{:<4} {:<16} {:>8} {:>9} {:>17} {:>8} {:>8}",
        "", "player", "wins", "win rate", "95% interval", "mean", "median"
    );
    for (i, p) in summary.iter().enumerate() {
        println!(
            "{:<4} {:<16} {:>8.1} {:>8.1}% {:>7.1}% - {:>5.1}% {:>8.1} {:>8.1}",
            i + 1,
            p.seat,
            p.wins,
            p.rate * 100.0,
            p.low * 100.0,
            p.high * 100.0,
            p.mean,
            p.median
        );
    }
    Ok(())
}

/// The figures of a ladder rung: the game's own, or (a game without
/// figures) the tested player's win rate and score.
fn rung_figures(tally: &LineupTally) -> Vec<FigureSummary> {
    let figures = tally.figures();
    if !figures.is_empty() {
        return figures;
    }
    let Some(player) = tally.players().pop() else {
        return Vec::new();
    };
    vec![
        FigureSummary {
            key: "win".into(),
            label: "win rate".into(),
            interval: true,
            stat: FigureStat::Rate {
                rate: player.rate,
                low: player.low,
                high: player.high,
            },
        },
        FigureSummary {
            key: "score".into(),
            label: "score".into(),
            interval: false,
            stat: FigureStat::Count {
                mean: player.mean,
                median: player.median,
            },
        },
    ]
}

/// A ladder: per AI level, the game's figures.
fn print_ladder(
    heading: &Heading,
    tallies: &[LineupTally],
    ran_on: &str,
    elapsed: Duration,
    json: bool,
    complete: bool,
) -> anyhow::Result<()> {
    if json {
        let levels: Vec<serde_json::Value> = tallies
            .iter()
            .map(|t| {
                let mut row = serde_json::Map::new();
                row.insert("level".into(), t.label.clone().into());
                row.insert("games".into(), t.games.into());
                for f in rung_figures(t) {
                    match f.stat {
                        FigureStat::Count { mean, median } => {
                            row.insert(format!("mean_{}", f.key), mean.into());
                            row.insert(format!("median_{}", f.key), median.into());
                        }
                        FigureStat::Rate { rate, low, high } => {
                            row.insert(format!("{}_rate", f.key), rate.into());
                            row.insert(
                                format!("{}_rate_95", f.key),
                                serde_json::json!([low, high]),
                            );
                        }
                        FigureStat::Mean(mean) => {
                            row.insert(f.key.clone(), mean.into());
                        }
                    }
                }
                serde_json::Value::Object(row)
            })
            .collect();
        let json = serde_json::json!({
            "game": heading.game,
            "mode": heading.mode,
            "feeder": heading.feeder(),
            "level": heading.level,
            "games_per_level": heading.games,
            "seed": heading.seed,
            "options": heading.options,
            "seconds": elapsed.as_secs_f64(),
            "complete": complete,
            "levels": levels,
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
        return Ok(());
    }
    let options: Vec<String> = heading
        .options
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    println!(
        "{} games per level of {} {}{} on {}{}, {ran_on}, {:.1} s",
        heading.games,
        heading.game,
        heading.mode.as_deref().unwrap_or(""),
        heading
            .feeder()
            .map_or(String::new(), |f| format!(" fed by `{f}`")),
        heading.level,
        if options.is_empty() {
            String::new()
        } else {
            format!(" ({})", options.join(", "))
        },
        elapsed.as_secs_f64()
    );
    print!("{}", ladder_table(tallies));
    Ok(())
}

/// The ladder's table: a row per AI level, columns from the figures.
pub fn ladder_table(tallies: &[LineupTally]) -> String {
    let rows: Vec<(&LineupTally, Vec<FigureSummary>)> =
        tallies.iter().map(|t| (t, rung_figures(t))).collect();
    let Some((_, first)) = rows.first() else {
        return String::new();
    };
    let mut out = format!("{:<10} {:>6}", "level", "games");
    for f in first {
        match f.stat {
            FigureStat::Count { .. } => {
                let title = format!("mean {}", f.label);
                let width = title.len().max(11);
                out.push_str(&format!(" {title:>width$} {:>width$}", "median"));
            }
            FigureStat::Rate { .. } if f.interval => {
                out.push_str(&format!(" {:>24}", format!("{} (95%)", f.label)));
            }
            FigureStat::Rate { .. } | FigureStat::Mean(_) => {
                out.push_str(&format!(" {:>w$}", f.label, w = f.label.len().max(12)));
            }
        }
    }
    out.push('\n');
    for (tally, figures) in &rows {
        out.push_str(&format!("{:<10} {:>6}", tally.label, tally.games));
        for f in figures {
            match f.stat {
                FigureStat::Count { mean, median } => {
                    let width = format!("mean {}", f.label).len().max(11);
                    out.push_str(&format!(" {mean:>width$.1} {median:>width$.1}"));
                }
                FigureStat::Rate { rate, low, high } if f.interval => {
                    out.push_str(&format!(
                        " {:>6.1}% ({:>4.1}-{:>5.1}%)",
                        100.0 * rate,
                        100.0 * low,
                        100.0 * high
                    ));
                }
                FigureStat::Rate { rate, .. } => {
                    let w = f.label.len().max(12) - 1;
                    out.push_str(&format!(" {:>w$.1}%", 100.0 * rate));
                }
                FigureStat::Mean(mean) => {
                    let w = f.label.len().max(12);
                    out.push_str(&format!(" {mean:>w$.2}"));
                }
            }
        }
        out.push('\n');
    }
    out
}

/// Combines the partials of a sharded `sim` (already checked to belong
/// together) and prints what the unsharded run prints: the shards'
/// tallies added in shard order.
pub fn merge(partials: &[(PathBuf, Partial)], json: bool) -> anyhow::Result<Status> {
    let first = &partials[0];
    let heading: Heading = serde_json::from_value(first.1.options.clone()).map_err(|e| {
        refusal(
            &first.0,
            &["options"],
            format!("its options are not a sim's: {e}"),
        )
    })?;
    let mut ordered: Vec<&(PathBuf, Partial)> = partials.iter().collect();
    ordered.sort_by_key(|(_, p)| p.shard.index);
    let mut total: Option<Vec<LineupTally>> = None;
    let mut seconds = 0.0;
    for (path, p) in ordered {
        let tallies: Vec<LineupTally> = serde_json::from_value(p.result["tallies"].clone())
            .map_err(|e| {
                refusal(
                    path,
                    &["result", "tallies"],
                    format!("its result is not a sim partial's: {e}"),
                )
            })?;
        if tallies.len() != heading.lineups.len() {
            return Err(refusal(
                path,
                &["result", "tallies"],
                format!(
                    "its result has {} line-ups, its options {}",
                    tallies.len(),
                    heading.lineups.len()
                ),
            )
            .into());
        }
        if let Some((at, problem)) = tallies
            .iter()
            .enumerate()
            .find_map(|(at, tally)| Some((at, tally.problem()?)))
        {
            return Err(refusal(
                path,
                &["result", "tallies", &at.to_string()],
                format!("its result cannot be a sim's: {problem}"),
            )
            .into());
        }
        seconds += p.seconds;
        match total.as_mut() {
            None => total = Some(tallies),
            Some(sum) => {
                for (at, (s, t)) in sum.iter_mut().zip(&tallies).enumerate() {
                    s.merge(t).map_err(|e| {
                        refusal(
                            path,
                            &["result", "tallies", &at.to_string()],
                            format!("{e}; the partials cannot be the shards of one run"),
                        )
                    })?;
                }
            }
        }
    }
    print_report(
        &heading,
        &total.unwrap_or_default(),
        &format!("{} shards", partials.len()),
        Duration::from_secs_f64(seconds),
        json,
        None,
    )?;
    Ok(Status::Ok)
}
