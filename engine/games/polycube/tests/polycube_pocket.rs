//! Pocketed cuts of a box over 100 cells (`generate/pocket.rs`): a unique
//! 5x5x5 of 25 pieces, proven by the solver's whole count, and the
//! difficulty's limit that drops a design whose plain search wanders.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use tessera_host::ThinkControl;
use tessera_host::level::parse_level;
use tessera_polycube::PolycubeLevel;
use tessera_polycube::generate::GENERATOR;
use tessera_polycube::generate::difficulty::{work, work_within};
use tessera_polycube::solver::Solver;

/// `generate polycube --box 5x5x5 --pieces 25 --unique --seed 3`, the
/// quickest of seeds 1-10 (0.4 s of a release build); the figures over
/// the ten are in docs/perf/polycube-generate.md.
fn unique_5x5x5() -> (PolycubeLevel, String) {
    generated(&["--box", "5x5x5", "--pieces", "25", "--unique"], 3)
}

/// `generate polycube ARGS --seed SEED`: the level and its text.
pub(super) fn generated(args: &[&str], seed: u64) -> (PolycubeLevel, String) {
    let matches = clap::Command::new("polycube")
        .args(GENERATOR.arguments())
        .try_get_matches_from(std::iter::once("polycube").chain(args.iter().copied()))
        .expect("the spec parses");
    let made = GENERATOR
        .generate(&matches, seed, &ThinkControl::new())
        .expect("a level");
    let level = parse_level(&made.text, Path::new("g.ron")).expect("a level");
    (level, made.text)
}

#[test]
fn a_unique_5x5x5_of_25_pieces_has_one_distinct_packing_in_the_solvers_whole_count() {
    let (level, text) = unique_5x5x5();
    assert_eq!(level.pieces.len(), 25, "{text}");
    let sizes: Vec<usize> = level.shapes().iter().map(Vec::len).collect();
    // Four large pieces, 21 small ones in their pockets (the default
    // sizes 2..22).
    assert_eq!(sizes.iter().filter(|&&n| n >= 8).count(), 4, "{sizes:?}");
    assert!(sizes.iter().all(|&n| (2..=22).contains(&n)), "{sizes:?}");
    let solver = Solver::new(level.extents(), &level.shapes()).expect("solver");
    let counted = solver
        .count(&AtomicBool::new(false), &mut |_| {})
        .expect("the whole count");
    assert_eq!(counted.distinct, 1, "{text}");
    assert!(
        text.contains("// claim: unique (1 distinct packing up to the box's symmetries)\n"),
        "{text}"
    );
}

#[test]
fn the_difficulty_within_a_limit_is_the_difficulty_or_none() {
    let (level, _) = unique_5x5x5();
    let cancel = AtomicBool::new(false);
    let whole = work(level.extents(), &level.shapes(), &cancel).expect("the searches");
    assert!(whole.solved && whole.nodes > 4, "{whole:?}");
    assert_eq!(
        work_within(level.extents(), &level.shapes(), whole.nodes, &cancel).expect("searches"),
        Some(whole)
    );
    assert_eq!(
        work_within(level.extents(), &level.shapes(), whole.nodes - 1, &cancel).expect("searches"),
        None
    );
}
