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
use tessera_host::partial::{FORMAT, Partial};

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
        if partial.tessera_partial != FORMAT {
            bail!(
                "{}: partial format {} (this tessera reads {FORMAT})",
                path.display(),
                partial.tessera_partial
            );
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
        (_, Some(owner)) => owner.merge(&partials, args.json),
        (other, None) => bail!(
            "{}: unknown command `{other}` in a partial",
            partials[0].0.display()
        ),
    }
}

/// The plugin whose command wrote partials of `command`.
fn owner(context: &CommandContext, command: &str) -> Option<&'static dyn GameCommands> {
    context
        .registry()
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
        let foreign = |what: &str, mine: String, theirs: String| {
            anyhow!(
                "{} does not belong with {}: its {what} is {mine}, not {theirs}",
                name(path),
                name(first_path),
                theirs = theirs
            )
        };
        if let Some(owner) = owner
            && owner.owns_partial(&p.command)
            && let Some(why) = owner.partial_mismatch(first, p)
        {
            bail!(
                "{} does not belong with {}: {why}",
                name(path),
                name(first_path)
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
