//! `tessera solve PATH [--count] [--json]`: solve a polycube level (RON or
//! either JSON format).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tessera_polycube::Solver;
use tessera_polycube::import::load_any;
use tessera_polycube::rules::Rules;

use crate::Status;

/// Arguments of `tessera solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The level: `.ron`, or `.json` in the seed's or the generator's format.
    path: PathBuf,
    /// Count every solution and the distinct ones instead of printing one.
    #[arg(long)]
    count: bool,
    /// With `--count`: print one JSON object `{"solutions", "distinct", "seconds"}`.
    #[arg(long, requires = "count")]
    json: bool,
}

/// Prints one solution (layers, z = 1 first, a letter per piece) or
/// `no solution`; with `--count`, the counts. Exit 0 when solvable.
pub fn run(args: &Args) -> anyhow::Result<Status> {
    let (level, warnings) = load_any(&args.path).map_err(|e| anyhow::anyhow!("{e}"))?;
    for warning in &warnings {
        eprintln!("{warning}");
    }
    let started = Instant::now();
    let solver = Solver::new(level.extents(), &level.shapes())?;
    let cancel = AtomicBool::new(false);
    if args.count {
        let counts = solver.count(&cancel, &mut |_| {})?;
        let seconds = started.elapsed().as_secs_f64();
        if args.json {
            // A struct keeps the documented key order.
            #[derive(serde::Serialize)]
            struct Report {
                solutions: u64,
                distinct: u64,
                seconds: f64,
            }
            let report = Report {
                solutions: counts.solutions,
                distinct: counts.distinct,
                seconds,
            };
            println!("{}", serde_json::to_string(&report)?);
        } else {
            println!(
                "{} solutions, {} distinct ({seconds:.3} s)",
                counts.solutions, counts.distinct
            );
        }
        return Ok(if counts.solutions > 0 {
            Status::Ok
        } else {
            Status::Failed
        });
    }
    let Some(solution) = solver.first(&cancel)? else {
        println!("no solution");
        return Ok(Status::Failed);
    };
    let mut rules = Rules::new(&level, false);
    for (piece, cells) in solution.pieces.iter().enumerate() {
        let targets: Vec<tessera_polycube::UserCell> = cells
            .iter()
            .map(|&c| tessera_polycube::user_cell(c))
            .collect();
        rules
            .place_cells(piece, &targets)
            .map_err(|e| anyhow::anyhow!("the solver's solution does not replay: {e}"))?;
    }
    print!("{}", rules.render_text());
    Ok(Status::Ok)
}
