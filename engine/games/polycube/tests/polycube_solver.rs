//! Solver figures against the published tables, cancel, progress, hints
//! and the disassembly check.

use std::sync::atomic::{AtomicBool, Ordering};

use tessera_polycube::disassembly::disassemble;
use tessera_polycube::hint::{Hint, hint};
use tessera_polycube::import::load_any;
use tessera_polycube::rules::Rules;
use tessera_polycube::solver::{Progress, SolveError, Solver};
use tessera_polycube::{Counts, PolycubeLevel};

use tessera_testkit as common;

fn level(name: &str) -> PolycubeLevel {
    load_any(&common::repo_path(&format!("levels/polycube/{name}")))
        .unwrap()
        .0
}

fn solver(level: &PolycubeLevel) -> Solver {
    Solver::new(level.extents(), &level.shapes()).unwrap()
}

fn counts(name: &str) -> Counts {
    let cancel = AtomicBool::new(false);
    solver(&level(name)).count(&cancel, &mut |_| {}).unwrap()
}

#[test]
fn soma_cube_has_11520_solutions_240_distinct() {
    let soma = solver(&level("soma.ron"));
    assert_eq!(
        soma.symmetry_order(),
        48,
        "24 rotations and the mirror pairs"
    );
    let c = soma.count(&AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(
        c,
        Counts {
            solutions: 11520,
            distinct: 240
        }
    );
    assert_eq!(soma.count_plain(&AtomicBool::new(false)).unwrap(), 11520);
}

#[test]
fn pentominoes_6x10_has_9356_solutions_2339_distinct() {
    assert_eq!(
        counts("pentominoes_6x10.ron"),
        Counts {
            solutions: 9356,
            distinct: 2339
        }
    );
}

#[test]
fn pentominoes_5x12_has_4040_solutions_1010_distinct() {
    assert_eq!(
        counts("pentominoes_5x12.ron"),
        Counts {
            solutions: 4040,
            distinct: 1010
        }
    );
}

#[test]
fn pentominoes_3x20_has_8_solutions_2_distinct() {
    assert_eq!(
        counts("pentominoes_3x20.ron"),
        Counts {
            solutions: 8,
            distinct: 2
        }
    );
    let s = solver(&level("pentominoes_3x20.ron"));
    assert_eq!(s.count_plain(&AtomicBool::new(false)).unwrap(), 8);
}

#[test]
fn pentominoes_in_2x5x6_symmetry_broken_count_is_2112() {
    let flat = level("pentominoes_6x10.ron");
    let boxed = PolycubeLevel {
        size: (2, 5, 6),
        ..flat
    };
    let c = solver(&boxed)
        .count(&AtomicBool::new(false), &mut |_| {})
        .unwrap();
    assert_eq!(
        c,
        Counts {
            solutions: 2112,
            distinct: 264
        }
    );
}

#[test]
fn identical_pieces_are_interchangeable() {
    // Four identical dominoes in a 2x2x2 box: 9 fillings, not 9 * 4!
    // permutations of labelled pieces.
    let bar = vec![[0, 0, 0], [1, 0, 0]];
    let s = Solver::new([2, 2, 2], &vec![bar; 4]).unwrap();
    let c = s.count(&AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(c.solutions, 9);
    assert_eq!(s.count_plain(&AtomicBool::new(false)).unwrap(), 9);
    // Up to the cube's 48 symmetries: all four parallel (3 of the 9), or
    // two layers tiled crosswise (the other 6). No piece occurs once, so
    // this also exercises the fallback that tests each solution against
    // the whole group.
    assert_eq!(c.distinct, 2);
}

#[test]
fn volume_mismatch_has_no_solution() {
    let s = Solver::new([2, 2, 2], &[vec![[0, 0, 0], [1, 0, 0], [2, 0, 0]]]).unwrap();
    let cancel = AtomicBool::new(false);
    assert_eq!(s.first(&cancel).unwrap(), None);
    assert_eq!(s.count(&cancel, &mut |_| {}).unwrap(), Counts::default());
}

#[test]
fn a_raised_cancel_flag_stops_the_count_and_progress_is_reported() {
    // Progress comes from the calling thread about ten times a second; the
    // 3x4x5 box takes seconds, so the cancel raised at the third report
    // stops it long before its end.
    let s = solver(&level("pentacubes_3x4x5.ron"));
    let cancel = AtomicBool::new(false);
    let mut reports: Vec<Progress> = Vec::new();
    let started = std::time::Instant::now();
    let result = s.count(&cancel, &mut |p| {
        reports.push(p);
        if reports.len() == 3 {
            cancel.store(true, Ordering::Relaxed);
        }
    });
    assert_eq!(result, Err(SolveError::Cancelled));
    assert!(reports.len() >= 3, "{}", reports.len());
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    let last = reports[reports.len() - 1];
    assert!(last.total > 1000 && last.done < last.total);
    assert!(last.fraction() < 1.0);
    assert!(reports.windows(2).all(|w| w[0].done <= w[1].done));
    assert!(
        reports
            .windows(2)
            .all(|w| w[0].counts.solutions <= w[1].counts.solutions)
    );
    let cancelled = AtomicBool::new(true);
    assert_eq!(s.count_plain(&cancelled), Err(SolveError::Cancelled));
}

#[test]
fn a_box_of_a_billion_cells_is_refused() {
    assert!(matches!(
        Solver::new([1000, 1000, 1000], &[vec![[0, 0, 0]]]),
        Err(SolveError::TooLarge(1_000_000_000))
    ));
}

#[test]
fn first_solution_is_a_valid_packing() {
    for name in ["soma.ron", "10_grand_cube.ron", "pentominoes_5x12.ron"] {
        let level = level(name);
        let solution = solver(&level)
            .first(&AtomicBool::new(false))
            .unwrap()
            .unwrap();
        let mut rules = Rules::new(&level, false);
        for (p, cells) in solution.pieces.iter().enumerate() {
            let t: Vec<_> = cells
                .iter()
                .map(|c| (c[0] + 1, c[1] + 1, c[2] + 1))
                .collect();
            rules.place_cells(p, &t).unwrap();
        }
        assert!(rules.is_won(), "{name}");
    }
}

#[test]
fn hints_extend_the_current_board_or_say_it_is_stuck() {
    let level = level("soma.ron");
    let s = solver(&level);
    let cancel = AtomicBool::new(false);
    let mut rules = Rules::new(&level, true);
    // Following hints alone solves the cube, each hint passing the pipeline.
    for _ in 0..level.pieces.len() {
        match hint(&rules, &s, &cancel).unwrap() {
            Hint::Place { piece, pose } => {
                let at = (pose.anchor[0] + 1, pose.anchor[1] + 1, pose.anchor[2] + 1);
                rules.place_at(piece, pose.rotation, at).unwrap();
            }
            other => panic!("expected a placement, got {other:?}"),
        }
    }
    assert!(rules.is_won());
    assert_eq!(hint(&rules, &s, &cancel).unwrap(), Hint::Done);

    // Two V-trominoes in a 3x2x1 tray: one V in the middle splits the
    // rest into pieces no V fills.
    let trays = PolycubeLevel {
        version: 1,
        name: "two Vs".into(),
        size: (3, 2, 1),
        pieces: ["A", "B"]
            .iter()
            .map(|id| tessera_polycube::PieceSpec {
                id: id.to_string(),
                cells: vec![(1, 1, 1), (2, 1, 1), (1, 2, 1)],
                colour: None,
            })
            .collect(),
        assembly: false,
    };
    let s = solver(&trays);
    let mut rules = Rules::new(&trays, true);
    rules
        .place_cells(0, &[(1, 2, 1), (2, 2, 1), (2, 1, 1)])
        .unwrap();
    // One piece is in the way: the hint names it.
    let Hint::Stuck { pick_up: Some(p) } = hint(&rules, &s, &cancel).unwrap() else {
        panic!("stuck, with a piece to pick up");
    };
    assert_eq!(p, 0, "A, the only piece placed");
    rules.undo().unwrap();
    rules
        .place_cells(0, &[(1, 1, 1), (1, 2, 1), (2, 1, 1)])
        .unwrap();
    let Hint::Place { piece, pose } = hint(&rules, &s, &cancel).unwrap() else {
        panic!("a corner V can be completed");
    };
    assert_eq!(piece, 1);
    assert_eq!(pose.cells, vec![[1, 1, 0], [2, 0, 0], [2, 1, 0]]);
}

#[test]
fn disassembly_of_flat_and_interlocked_packings() {
    // A flat packing always slides apart upwards.
    let level = level("pentominoes_6x10.ron");
    let solution = solver(&level)
        .first(&AtomicBool::new(false))
        .unwrap()
        .unwrap();
    let d = disassemble(level.extents(), &solution.pieces);
    assert!(d.comes_apart());
    assert_eq!(d.order.len(), 12);

    // Two pieces interlocked in a 3x2x2 box (found by exhaustive search
    // over two-piece splits): each blocks every straight slide of the other.
    let a = vec![[0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 1, 1], [2, 0, 0]];
    let b = vec![
        [0, 0, 0],
        [0, 0, 1],
        [0, 1, 0],
        [1, 1, 0],
        [2, 0, 1],
        [2, 1, 0],
        [2, 1, 1],
    ];
    let d = disassemble([3, 2, 2], &[a.clone(), b.clone()]);
    assert!(!d.comes_apart());
    assert!(d.order.is_empty());
    assert_eq!(d.locked, vec![0, 1]);

    // A third piece that can leave first does not unlock them.
    let mut c_cells = a.iter().map(|c| [c[0] + 3, c[1], c[2]]).collect::<Vec<_>>();
    c_cells.sort();
    let d = disassemble([6, 2, 2], &[a, b, c_cells]);
    assert_eq!(d.order.len(), 1);
    assert_eq!(d.order[0].piece, 2);
    assert_eq!(d.locked, vec![0, 1]);
}
