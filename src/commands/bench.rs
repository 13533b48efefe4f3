//! `tessera bench`: the headline speed figures in one run (release build
//! recommended: `cargo run --release -- bench`). Criterion benches in
//! the criterion benches in each crate's `benches/` give the detailed, statistically sound numbers.
//!
//! The shell measures the script host (`script`); every other group is a
//! plugin's ([`tessera_host::command::GameCommands::bench_groups`]).

use std::time::Duration;

use tessera_host::bench::Figure;
use tessera_host::command::{BenchGroup, CommandContext};

use crate::Status;

mod script;

/// Arguments of `tessera bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Only the figures whose group starts with this (e.g. `script`).
    filter: Option<String>,
}

/// Every group, in the order printed (`BenchGroup::order`): the host's
/// and every plugin's.
fn groups(context: &CommandContext) -> Vec<BenchGroup> {
    let mut groups = vec![BenchGroup {
        name: "script",
        order: 0,
        figures: script::figures,
    }];
    for commands in context.commands() {
        groups.extend_from_slice(commands.bench_groups());
    }
    groups.sort_by_key(|group| group.order);
    groups
}

/// Runs every group and prints one line per figure; fails when a target is
/// missed.
pub fn run(args: &Args, context: &CommandContext) -> anyhow::Result<Status> {
    let groups = groups(context);
    if let Some(filter) = &args.filter
        && !groups.iter().any(|g| g.name.starts_with(filter.as_str()))
    {
        let names: Vec<&str> = groups.iter().map(|g| g.name).collect();
        crate::usage!(
            "no bench group starts with `{filter}` (groups: {})",
            names.join(", ")
        );
    }
    let mut missed = false;
    for group in &groups {
        if args
            .filter
            .as_deref()
            .is_some_and(|f| !group.name.starts_with(f))
        {
            continue;
        }
        for figure in (group.figures)(context)? {
            missed |= print_figure(&figure);
        }
    }
    Ok(if missed { Status::Failed } else { Status::Ok })
}

/// Prints one figure's line; whether it missed its target.
fn print_figure(figure: &Figure) -> bool {
    let mut missed = false;
    let verdict = match figure.target {
        Some(target) if figure.measured <= target => {
            format!("ok (target {})", show(target))
        }
        Some(target) => {
            missed = true;
            format!("MISSED (target {})", show(target))
        }
        None => String::new(),
    };
    let measured = match figure.min {
        Some(min) => format!("min {} / median {}", show(min), show(figure.measured)),
        None => show(figure.measured),
    };
    println!(
        "{:<10} {:<50} {:>12}  {verdict}",
        figure.group, figure.name, measured
    );
    missed
}

fn show(d: Duration) -> String {
    let ns = d.as_nanos();
    if ns < 10_000 {
        format!("{ns} ns")
    } else if ns < 10_000_000 {
        format!("{:.1} us", ns as f64 / 1e3)
    } else {
        format!("{:.1} ms", ns as f64 / 1e6)
    }
}
