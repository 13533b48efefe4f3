//! The shards of `tessera solve --count --shard I/N`, merged: what
//! `tessera merge` asks polycube for once the host has checked that the
//! partials are the shards of one run.

use tessera_host::command::{NamedPartials, Status};
use tessera_host::partial::{Partial, refusal};

/// Whether a partial's command is a count of `tessera solve` (the
/// commands `solve.rs` writes into its partials).
pub(super) fn owns(command: &str) -> bool {
    matches!(
        command,
        "solve --count"
            | "solve --count --assembly"
            | "solve --count --no-symmetry"
            | "solve --count --assembly --no-symmetry"
    )
}

/// Whether a partial is a plain count (`--no-symmetry`).
fn plain(partial: &Partial) -> bool {
    partial.command.ends_with(" --no-symmetry")
}

/// A plain count and a symmetry-broken one never mix: said before the
/// host's "its command is ..." so the reason is the one that matters.
pub(super) fn mismatch(first: &Partial, other: &Partial) -> Option<String> {
    if plain(other) == plain(first) {
        return None;
    }
    let how = |p: &Partial| {
        if plain(p) {
            "a plain count (--no-symmetry)"
        } else {
            "a symmetry-broken count"
        }
    };
    Some(format!(
        "it is {}, the other {}; the two cut the search into different subtrees and count different things, so their shards never mix",
        how(other),
        how(first)
    ))
}

/// Sums the shards of a count (a symmetry-broken count also sums the
/// distinct solutions); prints as `tessera solve --count` does.
pub(super) fn merge_counts(partials: &NamedPartials, json: bool) -> anyhow::Result<Status> {
    let symmetry = !partials.first().is_some_and(|(_, p)| plain(p));
    let (mut solutions, mut distinct, mut seconds) = (0u64, 0u64, 0f64);
    for (path, p) in partials {
        let field = |key: &str| p.result_count(path, key);
        let too_many = |key: &str| {
            refusal(
                path,
                &["result", key],
                "the total count does not fit in 64 bits (18446744073709551615); the partials cannot be the shards of one count",
            )
        };
        solutions = solutions
            .checked_add(field("solutions")?)
            .ok_or_else(|| too_many("solutions"))?;
        if symmetry {
            let shard_distinct = field("distinct")?;
            if shard_distinct > field("solutions")? {
                return Err(refusal(
                    path,
                    &["result", "distinct"],
                    format!("result.distinct ({shard_distinct}) is more than result.solutions"),
                )
                .into());
            }
            distinct = distinct
                .checked_add(shard_distinct)
                .ok_or_else(|| too_many("distinct"))?;
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
