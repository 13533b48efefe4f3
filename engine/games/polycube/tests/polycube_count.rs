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
