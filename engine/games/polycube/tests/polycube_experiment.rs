//! Scratch: measures cut scores against the search (removed before merge).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tessera_host::rng::game_rng;
use tessera_polycube::generate::cut::{loose, score, stretched};
use tessera_polycube::generate::design::{Design, random_sizes};
use tessera_polycube::solver::Solver;

fn env(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore]
fn experiment_cut_scores() {
    let size = [4, 4, 4];
    let pieces = env("PIECES", 13.0) as usize;
    let min = env("MIN", 3.0) as usize;
    let max = env("MAX", 8.0) as usize;
    let stretch = env("STRETCH", 1.0);
    let draws = env("DRAWS", 2000.0) as usize;
    let keep = env("KEEP", 8.0) as usize;
    let budget = env("BUDGET", 4194304.0) as u64;
    let seed = env("SEED", 1.0) as u64;
    let mut rng = game_rng(seed);
    let started = Instant::now();
    let mut cuts: Vec<(f64, Design)> = Vec::new();
    let mut tries = 0;
    while cuts.len() < draws {
        tries += 1;
        let Some(sizes) = random_sizes(64, pieces, (min, max), &mut rng) else {
            panic!("sizes")
        };
        if let Some(d) = stretched(size, &sizes, stretch, &mut rng) {
            cuts.push((score(&d), d));
        }
    }
    println!(
        "{} cuts from {tries} tries in {:?}",
        cuts.len(),
        started.elapsed()
    );
    let random: Vec<(f64, Design)> = cuts[..keep.min(cuts.len())].to_vec();
    cuts.sort_by(|a, b| a.0.total_cmp(&b.0));
    println!(
        "score best {:.1} median {:.1} worst {:.1}",
        cuts[0].0,
        cuts[cuts.len() / 2].0,
        cuts[cuts.len() - 1].0
    );
    let cancel = AtomicBool::new(false);
    for (label, set) in [("best", &cuts[..keep]), ("random", &random[..])] {
        for (s, d) in set {
            let t = Instant::now();
            let solver = Solver::new(size, &d.shapes()).expect("solver");
            let w = solver.distinct_within(2, budget, &cancel).expect("w");
            let sizes: Vec<usize> = (0..d.pieces).map(|p| d.cells_of(p).len()).collect();
            println!(
                "{label} score {s:.1} placements {} found {} nodes {} complete {} {:?} sizes {sizes:?}",
                solver.placements(),
                w.found.len(),
                w.nodes,
                w.complete,
                t.elapsed()
            );
            if env("COUNT", 0.0) > 0.0 {
                let t = Instant::now();
                let r = solver
                    .count_with(
                        &tessera_polycube::CountOptions::default(),
                        &cancel,
                        &mut |_| {},
                    )
                    .expect("count");
                println!(
                    "   count distinct {} nodes {} in {:?}",
                    r.counts.distinct,
                    r.nodes,
                    t.elapsed()
                );
            }
        }
    }
}

#[test]
#[ignore]
fn experiment_trees() {
    let size = [4, 4, 4];
    let pieces = env("PIECES", 13.0) as usize;
    let min = env("MIN", 3.0) as usize;
    let max = env("MAX", 8.0) as usize;
    let stretch = env("STRETCH", 1.0);
    let draws = env("DRAWS", 2000.0) as usize;
    let keep = env("KEEP", 4.0) as usize;
    let budget = env("BUDGET", 16777216.0) as u64;
    let seed = env("SEED", 1.0) as u64;
    let mut rng = game_rng(seed);
    let mut cuts: Vec<(f64, Design)> = Vec::new();
    let (mut all, mut loose_ones) = (0, 0);
    let t = Instant::now();
    while cuts.len() < draws {
        let sizes = random_sizes(64, pieces, (min, max), &mut rng).expect("sizes");
        if let Some(d) = stretched(size, &sizes, stretch, &mut rng) {
            all += 1;
            if env("RIGID", 0.0) > 0.0 && loose(&d) {
                loose_ones += 1;
                continue;
            }
            cuts.push((score(&d), d));
        }
    }
    println!("{all} cuts, {loose_ones} loose, in {:?}", t.elapsed());
    cuts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let cancel = AtomicBool::new(false);
    let chosen: Vec<&(f64, Design)> = cuts[..keep].iter().collect();
    std::thread::scope(|scope| {
        for pair in chosen.chunks(keep.div_ceil(2)) {
            let cancel = &cancel;
            scope.spawn(move || {
                for (s, d) in pair {
                    let t = Instant::now();
                    let solver = Solver::new(size, &d.shapes()).expect("solver");
                    let two = solver.distinct_within(2, 1 << 20, cancel).expect("w");
                    let w = solver.distinct_within(1 << 20, budget, cancel).expect("w");
                    let mut sizes: Vec<usize> = (0..d.pieces).map(|p| d.cells_of(p).len()).collect();
                    sizes.sort();
                    println!(
                        "score {s:.1} placements {} second@{} full: distinct {} nodes {} complete {} {:?} sizes {sizes:?}",
                        solver.placements(),
                        if two.found.len() == 2 { two.nodes.to_string() } else { "-".into() },
                        w.found.len(),
                        w.nodes,
                        w.complete,
                        t.elapsed()
                    );
                }
            });
        }
    });
}

#[test]
#[ignore]
fn experiment_generate() {
    use tessera_polycube::generate::GENERATOR;
    let args: Vec<String> = std::env::var("ARGS")
        .unwrap_or("--box 4x4x4 --pieces 13 --unique".into())
        .split(' ')
        .map(String::from)
        .collect();
    let matches = clap::Command::new("polycube")
        .args(GENERATOR.arguments())
        .try_get_matches_from(std::iter::once("polycube".to_string()).chain(args))
        .expect("the spec parses");
    let from = env("SEED", 1.0) as u64;
    let to = env("SEEDS", from as f64) as u64;
    for seed in from..=to {
        let t = Instant::now();
        let control = tessera_host::ThinkControl::new();
        let made = GENERATOR.generate(&matches, seed, &control);
        println!(
            "seed {seed}: {:?} {:?}",
            t.elapsed(),
            made.as_ref().map(|g| g.summary.clone())
        );
        if let Ok(g) = made {
            println!("{}", g.text);
        }
    }
}
