//! `tessera games`: the game plugins, and with `--details` what each offers
//! (modes, seats, AI levels), read from the game itself and its script.

use tessera_host::command::CommandContext;

use crate::Status;

/// Arguments of `tessera games`.
#[derive(clap::Args)]
pub struct Args {
    /// Also list each game's modes, seat counts and AI levels.
    #[arg(long)]
    details: bool,
}

/// Prints one line per plugin (id, then title), and the details when asked.
pub fn run(args: &Args, context: &CommandContext) -> anyhow::Result<Status> {
    let registry = context.registry().clone();
    let mut project = if args.details {
        Some(super::current_project(registry.clone())?)
    } else {
        None
    };
    for entry in registry.iter() {
        println!("{:<10} {}", entry.id, entry.title);
        let Some(project) = project.as_mut() else {
            continue;
        };
        match project.spec(entry.id) {
            Ok(spec) => {
                let modes: Vec<String> = spec
                    .modes
                    .iter()
                    .map(|m| format!("{} ({})", m.id, m.title))
                    .collect();
                let seats = if spec.min_seats == spec.max_seats {
                    spec.min_seats.to_string()
                } else {
                    format!("{} to {}", spec.min_seats, spec.max_seats)
                };
                let defaults: Vec<String> =
                    spec.default_seats.iter().map(ToString::to_string).collect();
                println!("  modes: {}", modes.join(", "));
                println!("  seats: {seats} (default: {})", defaults.join(", "));
                if spec.ai_levels.is_empty() {
                    println!("  ai: none");
                } else {
                    println!("  ai: {}", spec.ai_levels.join(", "));
                }
            }
            Err(e) => println!("  (cannot read its script: {e})"),
        }
    }
    Ok(Status::Ok)
}
