//! Counting on several threads and in shards: the counts never change,
//! shards add up to the whole, and a stopped count says it is partial.

use std::sync::atomic::{AtomicBool, Ordering};

use tessera_polycube::import::load_any;
use tessera_polycube::solver::Solver;
use tessera_polycube::{CountOptions, Counts, PolycubeLevel, Shard};

use tessera_testkit as common;

fn level(name: &str) -> PolycubeLevel {
    load_any(&common::repo_path(&format!("levels/polycube/{name}")))
        .unwrap()
        .0
}

fn solver(level: &PolycubeLevel) -> Solver {
    Solver::new(level.extents(), &level.shapes()).unwrap()
}

/// The twelve pentominoes as pentacubes in a 2 x 5 x 6 box: 2112 / 264.
fn box_2x5x6() -> Solver {
    solver(&PolycubeLevel {
        size: (2, 5, 6),
        ..level("pentominoes_6x10.ron")
    })
}

fn count(solver: &Solver, threads: usize, shard: Shard) -> Counts {
    let report = solver
        .count_with(
            &CountOptions {
                threads,
                shard,
                assembly: false,
                symmetry: true,
            },
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
    assert!(report.complete);
    assert_eq!(report.done, report.total);
    report.counts
}

#[test]
fn thread_counts_do_not_change_the_counts() {
    let soma = solver(&level("soma.ron"));
    let boxed = box_2x5x6();
    for threads in [1, 2, 3] {
        assert_eq!(
            count(&soma, threads, Shard::WHOLE),
            Counts {
                solutions: 11520,
                distinct: 240
            }
        );
        assert_eq!(
            count(&boxed, threads, Shard::WHOLE),
            Counts {
                solutions: 2112,
                distinct: 264
            }
        );
    }
}

#[test]
fn shards_add_up_to_the_whole_count_for_1_2_and_7() {
    for (solver, whole) in [
        (
            solver(&level("soma.ron")),
            Counts {
                solutions: 11520,
                distinct: 240,
            },
        ),
        (
            box_2x5x6(),
            Counts {
                solutions: 2112,
                distinct: 264,
            },
        ),
    ] {
        for n in [1, 2, 7] {
            let mut sum = Counts::default();
            let mut totals = 0;
            for index in 0..n {
                let shard = Shard { index, count: n };
                let report = solver
                    .count_with(
                        &CountOptions {
                            threads: 2,
                            shard,
                            assembly: false,
                            symmetry: true,
                        },
                        &AtomicBool::new(false),
                        &mut |_| {},
                    )
                    .unwrap();
                sum.solutions += report.counts.solutions;
                sum.distinct += report.counts.distinct;
                totals += report.total;
                // Every shard sees the same fixed enumeration.
                assert!(report.subtrees >= report.total);
            }
            assert_eq!(sum, whole, "{n} shards");
            let whole_report = solver
                .count_with(
                    &CountOptions::default(),
                    &AtomicBool::new(false),
                    &mut |_| {},
                )
                .unwrap();
            assert_eq!(totals, whole_report.subtrees, "each subtree in one shard");
        }
    }
}

#[test]
fn bedlam_and_the_3x4x5_box_are_split_into_many_subtrees() {
    // The counts themselves take seconds (`tessera bench polycube`); here
    // only the enumeration: enough subtrees for cores and shards.
    for name in ["bedlam.ron", "pentacubes_3x4x5.ron"] {
        let subtrees = solver(&level(name))
            .subtrees(&AtomicBool::new(false))
            .unwrap();
        assert!(
            subtrees >= tessera_polycube::count::MIN_SUBTREES,
            "{name}: {subtrees}"
        );
    }
}

#[test]
fn a_stopped_count_is_marked_partial() {
    let boxed = box_2x5x6();
    let cancel = AtomicBool::new(false);
    let mut calls = 0;
    let report = boxed
        .count_with(
            &CountOptions {
                threads: 1,
                shard: Shard::WHOLE,
                assembly: false,
                symmetry: true,
            },
            &cancel,
            &mut |p| {
                calls += 1;
                assert!(p.done <= p.total);
                cancel.store(true, Ordering::Relaxed);
            },
        )
        .unwrap();
    assert!(calls >= 1);
    assert!(!report.complete);
    assert!(report.done < report.total);
    assert!(report.counts.solutions < 2112);
    // The plain API reports a stop as an error, never as a count.
    let cancel = AtomicBool::new(true);
    assert!(boxed.count(&cancel, &mut |_| {}).is_err());
}

#[test]
fn shards_parse_as_one_based_i_of_n() {
    assert_eq!(Shard::parse("2/7"), Ok(Shard { index: 1, count: 7 }));
    assert_eq!(Shard::parse("1/1"), Ok(Shard::WHOLE));
    for bad in ["0/3", "4/3", "1/0", "3", "a/b", "1/3/4", ""] {
        let e = Shard::parse(bad).unwrap_err();
        assert!(e.contains("I/N"), "{bad}: {e}");
    }
    assert_eq!(Shard { index: 1, count: 7 }.to_string(), "2/7");
}

/// A count without symmetry breaking: every solution, no distinct count.
fn plain(solver: &Solver, threads: usize, shard: Shard) -> tessera_polycube::CountReport {
    let report = solver
        .count_with(
            &CountOptions {
                threads,
                shard,
                assembly: false,
                symmetry: false,
            },
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
    assert!(report.complete);
    assert_eq!(report.done, report.total);
    assert_eq!(report.counts.distinct, 0, "a plain count folds nothing");
    report
}

/// The shipped levels whose plain count takes well under a second.
const SMALL_LEVELS: [&str; 11] = [
    "01_first_steps.ron",
    "02_three_bars.ron",
    "03_little_crate.ron",
    "04_tower.ron",
    "05_shoebox.ron",
    "06_cube_of_three.ron",
    "07_slab.ron",
    "08_chest.ron",
    "soma.ron",
    "pentacubes_2x5x6.ron",
    "sandwich.json",
];

#[test]
fn the_plain_count_on_1_2_and_7_threads_equals_the_plain_search() {
    let mut nonzero = 0;
    for name in SMALL_LEVELS {
        let solver = solver(&level(name));
        let single = solver.count_plain(&AtomicBool::new(false)).unwrap();
        // The symmetry-broken count's raw figure is the same number found
        // another way: both must agree.
        let broken = count(&solver, 2, Shard::WHOLE);
        assert_eq!(single, broken.solutions, "{name}");
        for threads in [1, 2, 7] {
            let report = plain(&solver, threads, Shard::WHOLE);
            assert_eq!(report.counts.solutions, single, "{name}, {threads} threads");
            assert_eq!(report.threads, threads);
        }
        nonzero += usize::from(single > 0);
    }
    assert!(nonzero >= 8, "most shipped levels have solutions");
    let boxed = solver(&level("pentacubes_2x5x6.ron"));
    assert_eq!(plain(&boxed, 2, Shard::WHOLE).counts.solutions, 2112);
    // Cut into many subtrees, as the symmetry-broken count is.
    assert!(plain(&boxed, 1, Shard::WHOLE).subtrees >= tessera_polycube::count::MIN_SUBTREES);
}

#[test]
fn plain_count_shards_add_up_to_the_whole_plain_count() {
    for name in ["soma.ron", "pentacubes_2x5x6.ron"] {
        let solver = solver(&level(name));
        let whole = plain(&solver, 2, Shard::WHOLE);
        for n in [1, 2, 7] {
            let (mut solutions, mut totals) = (0, 0);
            for index in 0..n {
                let report = plain(&solver, 2, Shard { index, count: n });
                assert_eq!(report.subtrees, whole.subtrees, "{name}: one enumeration");
                solutions += report.counts.solutions;
                totals += report.total;
            }
            assert_eq!(solutions, whole.counts.solutions, "{name}, {n} shards");
            assert_eq!(totals, whole.subtrees, "{name}: each subtree in one shard");
        }
    }
}

/// The packings of `solver` as a sorted list, to compare as sets.
fn sorted(mut found: Vec<tessera_polycube::solver::Solution>) -> Vec<Vec<Vec<[i32; 3]>>> {
    let mut out: Vec<_> = found.drain(..).map(|s| s.pieces).collect();
    out.sort();
    out
}

#[test]
fn the_proof_on_several_threads_finds_the_serial_searchs_packings() {
    let never = AtomicBool::new(false);
    for (name, distinct) in [
        ("soma.ron", 240),
        ("pentacubes_2x5x6.ron", 264),
        ("pentominoes_3x20.ron", 2),
    ] {
        let solver = solver(&level(name));
        let serial = solver.distinct(1000, &never).unwrap();
        assert_eq!(serial.len(), distinct, "{name}");
        let one = solver.distinct_parallel(1000, 1, &never).unwrap().found;
        assert_eq!(sorted(one), sorted(serial), "{name}: the same packings");
        // Stopped at the second: the answer is the same on any threads.
        let two = solver.distinct_parallel(2, 1, &never).unwrap();
        assert!(two.complete && two.nodes > 0);
        assert_eq!(two.found.len(), 2, "{name}");
        for threads in [2, 3] {
            let again = solver.distinct_parallel(2, threads, &never).unwrap();
            assert_eq!(again, two, "{name}, {threads} threads: packings and nodes");
        }
    }
    // A limit of none finds none; a raised cancel flag is an error.
    let soma = solver(&level("soma.ron"));
    assert!(
        soma.distinct_parallel(0, 2, &never)
            .unwrap()
            .found
            .is_empty()
    );
    assert!(matches!(
        soma.distinct_parallel(2, 2, &AtomicBool::new(true)),
        Err(tessera_polycube::solver::SolveError::Cancelled)
    ));
}
