//! `tessera merge PARTIAL...`: combine the JSON partials of a sharded
//! `tessera solve --count --shard I/N` or `tessera sim ... --shard I/N`
//! into the result the unsharded run prints.
//!
//! The partials must belong together: one command, one input (the same
//! content hash), the same options and shard count, every shard exactly
//! once, each run to its end. Anything else is refused with the file that
//! does not fit (exit 1).
//!
//! The host-level partials (`sim`) are merged here; a game's own
//! (`solve --count`, polycube's) by the plugin that owns their command
//! ([`GameCommands::merge`]).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{anyhow, bail};

use tessera_host::command::{CommandContext, GameCommands};
use tessera_host::partial::{FORMAT, Partial, refusal};

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
pub fn run(args: &Args, context: &CommandContext) -> anyhow::Result<Status> {
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
            return Err(refusal(
                path,
                &["tessera_partial"],
                format!(
                    "partial format {} (this tessera reads {FORMAT})",
                    partial.tessera_partial
                ),
            )
            .into());
        }
        partials.push((path.clone(), partial));
    }
    let owner = partials
        .first()
        .and_then(|(_, first)| owner(context, &first.command));
    check_together(&partials, owner)?;
    let (_, first) = &partials[0];
    match (first.command.as_str(), owner) {
        ("sim", _) => super::sim_report::merge(&partials, args.json),
        (_, Some(owner)) => owner.merge(&partials, args.json, context),
        (other, None) => Err(refusal(
            &partials[0].0,
            &["command"],
            format!("unknown command `{other}` in a partial"),
        )
        .into()),
    }
}

/// The plugin whose command wrote partials of `command`.
fn owner(context: &CommandContext, command: &str) -> Option<&'static dyn GameCommands> {
    context
        .commands()
        .find(|commands| commands.owns_partial(command))
}

/// Refuses partials that are not the shards of one run, each once; the
/// plugin that owns the first partial's command (`owner`) says first why
/// two of its partials do not mix, when it knows better words.
pub fn check_together(
    partials: &[(PathBuf, Partial)],
    owner: Option<&dyn GameCommands>,
) -> anyhow::Result<()> {
    let Some((first_path, first)) = partials.first() else {
        bail!("no partials to merge");
    };
    let name = |p: &PathBuf| p.display().to_string();
    let mut seen: BTreeMap<usize, &PathBuf> = BTreeMap::new();
    for (path, p) in partials {
        let foreign = |field: &[&str], what: &str, mine: String, theirs: String| {
            anyhow::Error::from(refusal(
                path,
                field,
                format!(
                    "does not belong with {}: its {what} is {mine}, not {theirs}",
                    name(first_path)
                ),
            ))
        };
        if let Some(owner) = owner
            && owner.owns_partial(&p.command)
            && let Some(why) = owner.partial_mismatch(first, p)
        {
            return Err(refusal(
                path,
                &["command"],
                format!("does not belong with {}: {why}", name(first_path)),
            )
            .into());
        }
        if p.command != first.command {
            return Err(foreign(
                &["command"],
                "command",
                format!("`{}`", p.command),
                format!("`{}`", first.command),
            ));
        }
        if p.input_sha256 != first.input_sha256 {
            return Err(foreign(
                &["input_sha256"],
                "input",
                format!("{} (sha256 {})", p.input, &p.input_sha256),
                format!("{} (sha256 {})", first.input, &first.input_sha256),
            ));
        }
        if p.options != first.options {
            return Err(foreign(
                &["options"],
                "options",
                p.options.to_string(),
                first.options.to_string(),
            ));
        }
        if p.shard.of != first.shard.of {
            return Err(foreign(
                &["shard", "of"],
                "shard count",
                format!("{}", p.shard.of),
                format!("{}", first.shard.of),
            ));
        }
        if p.shard.index == 0 || p.shard.index > p.shard.of {
            return Err(refusal(
                path,
                &["shard", "index"],
                format!("shard {}/{} does not exist", p.shard.index, p.shard.of),
            )
            .into());
        }
        if let Some(other) = seen.insert(p.shard.index, path) {
            return Err(refusal(
                path,
                &["shard", "index"],
                format!(
                    "shard {}/{} is given twice: {} and this file",
                    p.shard.index,
                    p.shard.of,
                    name(other)
                ),
            )
            .into());
        }
        if !p.complete {
            return Err(refusal(
                path,
                &["complete"],
                format!(
                    "shard {}/{} was stopped before its end (a partial count cannot be merged); run it again",
                    p.shard.index, p.shard.of
                ),
            )
            .into());
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
        // Named at the first partial's shard count, which says how many
        // there are.
        return Err(refusal(
            first_path,
            &["shard", "of"],
            format!(
                "missing shard{} {}{} of {} (every shard is needed once)",
                tessera_host::text::plural_s(absent),
                missing.join(", "),
                if absent > missing.len() {
                    format!(" and {} more", absent - missing.len())
                } else {
                    String::new()
                },
                first.input
            ),
        )
        .into());
    }
    Ok(())
}
