//! `tessera merge PARTIAL...`: combine the JSON partials of a sharded
//! `tessera solve --count --shard I/N` or `tessera sim ... --shard I/N`
//! into the result the unsharded run prints.
//!
//! The partials must belong together: one command, one input (the same
//! content hash), the same options and shard count, every shard exactly
//! once, each run to its end. Anything else is refused with the file that
//! does not fit (exit 1).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{anyhow, bail};

use super::partial::{FORMAT, Partial};
use crate::Status;

/// Arguments of `tessera merge`.
#[derive(clap::Args)]
pub struct Args {
    /// The partials, one JSON file per shard (any order).
    #[arg(required = true)]
    partials: Vec<PathBuf>,
    /// Print the merged result as JSON (as the unsharded `--json` does).
    #[arg(long)]
    json: bool,
}

/// Most wall seconds one shard may report: a century, far past any real
/// run, and small enough that the sum over any number of shards stays a
/// valid `Duration`.
const MAX_SHARD_SECONDS: f64 = 3.2e9;

/// Reads, checks and combines the partials.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let mut partials = Vec::with_capacity(args.partials.len());
    for path in &args.partials {
        let text = tessera_host::level::read_text(path).map_err(anyhow::Error::from)?;
        let partial: Partial = serde_json::from_str(text.trim()).map_err(|e| {
            anyhow!(
                "{}:{}:{}: not a tessera partial: {e}",
                path.display(),
                e.line(),
                e.column()
            )
        })?;
        // `seconds` becomes a `Duration`: a negative, infinite or absurd
        // figure (a tampered file) is refused here, not a panic there.
        if !(0.0..=MAX_SHARD_SECONDS).contains(&partial.seconds) {
            let refusal = tessera_host::level::Diagnostic::error(
                path,
                format!(
                    "`seconds` must be 0 to {MAX_SHARD_SECONDS:e}, not {:?}",
                    partial.seconds
                ),
            );
            return Err(refusal.at("seconds").locate(&text).into());
        }
        if partial.tessera_partial != FORMAT {
            bail!(
                "{}: partial format {} (this tessera reads {FORMAT})",
                path.display(),
                partial.tessera_partial
            );
        }
        partials.push((path.clone(), partial));
    }
    check_together(&partials)?;
    let (_, first) = &partials[0];
    match first.command.as_str() {
        "solve --count" | "solve --count --assembly" => merge_counts(&partials, args.json, true),
        "solve --count --no-symmetry" | "solve --count --assembly --no-symmetry" => {
            merge_counts(&partials, args.json, false)
        }
        "sim" => super::sim_report::merge(&partials, args.json),
        other => bail!(
            "{}: unknown command `{other}` in a partial",
            partials[0].0.display()
        ),
    }
}

/// Refuses partials that are not the shards of one run, each once.
pub fn check_together(partials: &[(PathBuf, Partial)]) -> anyhow::Result<()> {
    let Some((first_path, first)) = partials.first() else {
        bail!("no partials to merge");
    };
    let name = |p: &PathBuf| p.display().to_string();
    let mut seen: BTreeMap<usize, &PathBuf> = BTreeMap::new();
    for (path, p) in partials {
        let foreign = |what: &str, mine: String, theirs: String| {
            anyhow!(
                "{} does not belong with {}: its {what} is {mine}, not {theirs}",
                name(path),
                name(first_path),
                theirs = theirs
            )
        };
        let plain = |p: &Partial| p.command.ends_with(" --no-symmetry");
        if p.command.starts_with("solve --count")
            && first.command.starts_with("solve --count")
            && plain(p) != plain(first)
        {
            let how = |p: &Partial| {
                if plain(p) {
                    "a plain count (--no-symmetry)"
                } else {
                    "a symmetry-broken count"
                }
            };
            bail!(
                "{} does not belong with {}: it is {}, the other {}; the two cut the search into different subtrees and count different things, so their shards never mix",
                name(path),
                name(first_path),
                how(p),
                how(first)
            );
        }
        if p.command != first.command {
            return Err(foreign(
                "command",
                format!("`{}`", p.command),
                format!("`{}`", first.command),
            ));
        }
        if p.input_sha256 != first.input_sha256 {
            return Err(foreign(
                "input",
                format!("{} (sha256 {})", p.input, &p.input_sha256),
                format!("{} (sha256 {})", first.input, &first.input_sha256),
            ));
        }
        if p.options != first.options {
            return Err(foreign(
                "options",
                p.options.to_string(),
                first.options.to_string(),
            ));
        }
        if p.shard.of != first.shard.of {
            return Err(foreign(
                "shard count",
                format!("{}", p.shard.of),
                format!("{}", first.shard.of),
            ));
        }
        if p.shard.index == 0 || p.shard.index > p.shard.of {
            bail!(
                "{}: shard {}/{} does not exist",
                name(path),
                p.shard.index,
                p.shard.of
            );
        }
        if let Some(other) = seen.insert(p.shard.index, path) {
            bail!(
                "shard {}/{} is given twice: {} and {}",
                p.shard.index,
                p.shard.of,
                name(other),
                name(path)
            );
        }
        if !p.complete {
            bail!(
                "{}: shard {}/{} was stopped before its end (a partial count cannot be merged); run it again",
                name(path),
                p.shard.index,
                p.shard.of
            );
        }
    }
    // At most ten named: `of` comes from a file and may be huge, but the
    // walk stops after the given shards plus ten gaps.
    let missing: Vec<String> = (1..=first.shard.of)
        .filter(|i| !seen.contains_key(i))
        .take(10)
        .map(|i| format!("{i}/{}", first.shard.of))
        .collect();
    if !missing.is_empty() {
        let absent = first.shard.of - seen.len();
        bail!(
            "missing shard{} {}{} of {} (every shard is needed once)",
            tessera_host::text::plural_s(absent),
            missing.join(", "),
            if absent > missing.len() {
                format!(" and {} more", absent - missing.len())
            } else {
                String::new()
            },
            first.input
        );
    }
    Ok(())
}

/// Sums the shards of a count (`symmetry`: a symmetry-broken count, with
/// a distinct count; else a plain one); prints as `tessera solve --count`
/// does.
fn merge_counts(
    partials: &[(PathBuf, Partial)],
    json: bool,
    symmetry: bool,
) -> anyhow::Result<Status> {
    let (mut solutions, mut distinct, mut seconds) = (0u64, 0u64, 0f64);
    for (path, p) in partials {
        let field = |key: &str| {
            p.result[key]
                .as_u64()
                .ok_or_else(|| anyhow!("{}: result.{key} is missing", path.display()))
        };
        let too_many = || {
            anyhow!(
                "{}: the total count does not fit in 64 bits (18446744073709551615); the partials cannot be the shards of one count",
                path.display()
            )
        };
        solutions = solutions
            .checked_add(field("solutions")?)
            .ok_or_else(too_many)?;
        if symmetry {
            let shard_distinct = field("distinct")?;
            if shard_distinct > field("solutions")? {
                bail!(
                    "{}: result.distinct ({shard_distinct}) is more than result.solutions",
                    path.display()
                );
            }
            distinct = distinct.checked_add(shard_distinct).ok_or_else(too_many)?;
        }
        seconds += p.seconds;
    }
    let distinct = symmetry.then_some(distinct);
    if json {
        #[derive(serde::Serialize)]
        struct Report {
            solutions: u64,
            distinct: Option<u64>,
            seconds: f64,
            complete: bool,
            symmetry: bool,
        }
        let report = Report {
            solutions,
            distinct,
            seconds,
            complete: true,
            symmetry,
        };
        println!("{}", serde_json::to_string(&report)?);
    } else {
        let counted = super::solve::counted_words(solutions, distinct);
        println!("{counted} ({seconds:.3} s over {} shards)", partials.len());
    }
    Ok(if solutions > 0 {
        Status::Ok
    } else {
        Status::Failed
    })
}
