//! The seed's extensions beyond the pipeline: assembly mode (every
//! placement slides straight in), straight-line assembly counts and
//! orders, and the validator's questions (first, unique). Small boxes
//! are checked by hand in the comments; the shipped levels' figures are
//! snapshots.

use std::sync::atomic::AtomicBool;
use tessera_host::plugin::{LevelFormats, Scripted};

use tessera_host::{LiveScript, Recorded, Script, ScriptLimits, SessionOptions};
use tessera_polycube::disassembly::{assembly_order, disassemble};
use tessera_polycube::import::{load_any, parse_any};
use tessera_polycube::level::{PieceSpec, PolycubeLevel};
use tessera_polycube::rules::{PlacementError, Pos, Rules};
use tessera_polycube::{
    ASSEMBLY_MODE, CountOptions, Counts, Polycube, PolycubeAction, Shard, Solver, Verdict,
};

use tessera_testkit as common;

fn piece(id: &str, cells: &[(i64, i64, i64)]) -> PieceSpec {
    PieceSpec {
        id: id.into(),
        cells: cells.to_vec(),
        colour: None,
    }
}

/// A 3x3 slab (9 cells), the same slab without its centre (a ring of 8).
fn slab() -> Vec<(i64, i64, i64)> {
    (1..=3)
        .flat_map(|y| (1..=3).map(move |x| (x, y, 1)))
        .collect()
}

/// The sandwich: a 3x3x3 box, two slabs F and T, a ring R and a single
/// cube C.
///
/// Hand count: the two slabs and the ring each fill a whole layer across
/// one axis (the ring cannot bend), so pick the axis (3 ways) and the
/// ring's layer: the middle one (1 way, the identical slabs either side)
/// or an end (2 ways, the slabs side by side): 3 x 3 = 9 solutions.
/// Up to the cube's symmetries: ring in the middle or at an end, 2.
/// Every one comes apart in straight lines: with the ring in the middle,
/// an outer slab slides out along its axis, then C, the ring, the other
/// slab; with the ring at an end, C slides out of the ring's open face,
/// then the ring, then the slabs. So the assembly counts are 9 and 2 too.
fn sandwich() -> PolycubeLevel {
    let ring: Vec<_> = slab().into_iter().filter(|&c| c != (2, 2, 1)).collect();
    PolycubeLevel {
        version: 1,
        name: "Sandwich".into(),
        size: (3, 3, 3),
        pieces: vec![
            piece("F", &slab()),
            piece("R", &ring),
            piece("T", &slab()),
            piece("C", &[(1, 1, 1)]),
        ],
        assembly: false,
    }
}

/// Two pieces locked into each other in a 3x2x2 box (0-based cells):
/// A = (0,1,1) (1,0,0) (1,0,1) (1,1,1) (2,0,0), B the other seven.
///
/// Hand check that neither can leave first (the cell each slide runs
/// into): A +x (1,0,1)->(2,0,1) B; -x (1,0,0)->(0,0,0) B; +y
/// (1,0,0)->(1,1,0) B; -y (0,1,1)->(0,0,1) B; +z (2,0,0)->(2,0,1) B; -z
/// (0,1,1)->(0,1,0) B. B +x (0,0,0)->(1,0,0) A; -x (2,0,1)->(1,0,1) A; +y
/// (0,0,1)->(0,1,1) A; -y (2,1,0)->(2,0,0) A; +z (0,1,0)->(0,1,1) A; -z
/// (2,0,1)->(2,0,0) A. The box's symmetries keep that true, and every
/// packing is an image of this one (1 distinct, 4 in all: the plain count
/// agrees), so no packing can be assembled: 0 and 0.
fn interlock() -> PolycubeLevel {
    PolycubeLevel {
        version: 1,
        name: "Interlock".into(),
        size: (3, 2, 2),
        pieces: vec![
            piece(
                "A",
                &[(1, 2, 2), (2, 1, 1), (2, 1, 2), (2, 2, 2), (3, 1, 1)],
            ),
            piece(
                "B",
                &[
                    (1, 1, 1),
                    (1, 1, 2),
                    (1, 2, 1),
                    (2, 2, 1),
                    (3, 1, 2),
                    (3, 2, 1),
                    (3, 2, 2),
                ],
            ),
        ],
        assembly: false,
    }
}

fn solver(level: &PolycubeLevel) -> Solver {
    Solver::new(level.extents(), &level.shapes()).unwrap()
}

fn counts(level: &PolycubeLevel, assembly: bool) -> Counts {
    let options = CountOptions {
        threads: 2,
        shard: Shard::WHOLE,
        assembly,
        symmetry: true,
    };
    let report = solver(level)
        .count_with(&options, &AtomicBool::new(false), &mut |_| {})
        .unwrap();
    assert!(report.complete);
    report.counts
}

fn count(solutions: u64, distinct: u64) -> Counts {
    Counts {
        solutions,
        distinct,
    }
}

#[test]
fn assembly_counts_on_hand_checked_boxes() {
    assert_eq!(counts(&sandwich(), false), count(9, 2));
    assert_eq!(counts(&sandwich(), true), count(9, 2));
    assert_eq!(counts(&interlock(), false), count(4, 1));
    assert_eq!(counts(&interlock(), true), count(0, 0));
    assert_eq!(
        solver(&interlock())
            .count_plain(&AtomicBool::new(false))
            .unwrap(),
        4
    );
}

#[test]
fn the_assembly_count_agrees_with_the_disassembly_check_on_every_distinct_solution() {
    // Two independent paths: the count's bit rays, and the library's
    // cell-by-cell check over the validator's distinct solutions.
    for name in [
        "soma.ron",
        "03_little_crate.ron",
        "05_shoebox.ron",
        "06_cube_of_three.ron",
    ] {
        let (level, _) = load_any(&common::repo_path(&format!("levels/polycube/{name}"))).unwrap();
        let s = solver(&level);
        let all = s.distinct(usize::MAX, &AtomicBool::new(false)).unwrap();
        let whole = counts(&level, false);
        assert_eq!(all.len() as u64, whole.distinct, "{name}");
        let apart = all
            .iter()
            .filter(|sol| disassemble(level.extents(), &sol.pieces).comes_apart())
            .count() as u64;
        assert_eq!(counts(&level, true).distinct, apart, "{name}");
    }
}

#[test]
fn the_validator_answers_first_and_unique() {
    let cancel = AtomicBool::new(false);
    // Two identical dominoes in a 2x2x1 box: laid along x or along y, and
    // a quarter turn maps one onto the other: unique.
    let dominoes = |n: usize, size: (i64, i64, i64)| PolycubeLevel {
        version: 1,
        name: "dominoes".into(),
        size,
        pieces: (0..n)
            .map(|i| piece(&format!("D{i}"), &[(1, 1, 1), (2, 1, 1)]))
            .collect(),
        assembly: false,
    };
    let two = solver(&dominoes(2, (2, 2, 1)));
    assert!(matches!(two.verdict(&cancel).unwrap(), Verdict::Unique(_)));
    assert_eq!(counts(&dominoes(2, (2, 2, 1)), false), count(2, 1));
    // Three in a 3x2x1 box: all three across (1 way), or one across at
    // either end with two along beside it (2 ways, mirror images of each
    // other): 3 tilings, 2 distinct, not unique.
    let three = solver(&dominoes(3, (3, 2, 1)));
    let Verdict::NotUnique(a, b) = three.verdict(&cancel).unwrap() else {
        panic!("two distinct tilings");
    };
    assert_ne!(a, b);
    assert_eq!(counts(&dominoes(3, (3, 2, 1)), false), count(3, 2));
    // Three dominoes cannot fill 7 cells: no solution, at once.
    let odd = solver(&dominoes(3, (7, 1, 1)));
    assert_eq!(odd.verdict(&cancel).unwrap(), Verdict::NoSolution);
    assert_eq!(odd.verdict(&cancel).unwrap().word(), "no solution");
    assert!(s_first_is_some(&two));
    // The interlock is unique (1 distinct) and has no straight assembly.
    assert_eq!(
        solver(&interlock()).verdict(&cancel).unwrap().word(),
        "unique"
    );
    assert_eq!(
        solver(&interlock()).first_assemblable(&cancel).unwrap(),
        None
    );
}

fn s_first_is_some(s: &Solver) -> bool {
    s.first(&AtomicBool::new(false)).unwrap().is_some()
}

#[test]
fn an_assembly_order_respects_support_when_asked() {
    let level = sandwich();
    let s = solver(&level);
    let solution = s
        .first_assemblable(&AtomicBool::new(false))
        .unwrap()
        .unwrap();
    let order = assembly_order(level.extents(), &solution.pieces, true).expect("comes apart");
    assert_eq!(order.len(), 4);
    // Replaying the order through the rules in assembly mode is accepted
    // move by move: slide and support both hold.
    let mut rules = Rules::new(&level, true);
    rules.set_assembly(true);
    for step in &order {
        let cells: Vec<_> = solution.pieces[step.piece]
            .iter()
            .map(|&c| tessera_polycube::user_cell(c))
            .collect();
        rules.place_cells(step.piece, &cells).unwrap();
    }
    assert!(rules.is_won());
    assert_eq!(
        assembly_order(
            interlock().extents(),
            &{
                let s = solver(&interlock());
                s.first(&AtomicBool::new(false)).unwrap().unwrap().pieces
            },
            false
        ),
        None
    );
}

/// Floor, ring and top of the sandwich in place (z = 1, 2, 3); the centre
/// cube C at (2, 2, 2) touches the floor slab, so it is supported, but
/// every straight way in runs into one cell: (3, 2, 2) from +x, (1, 2, 2)
/// from -x, (2, 3, 2) / (2, 1, 2) from +y / -y, (2, 2, 3) from above and
/// (2, 2, 1) from below. The first least blocked side is +x.
fn closed_sandwich(assembly: bool) -> (Rules, Result<(), PlacementError>) {
    let level = sandwich();
    let mut rules = Rules::new(&level, true);
    rules.set_assembly(assembly);
    let layer = |z: i32, ring: bool| -> Vec<(i32, i32, i32)> {
        (1..=3)
            .flat_map(|y| (1..=3).map(move |x| (x, y, z)))
            .filter(|&(x, y, _)| !(ring && x == 2 && y == 2))
            .collect()
    };
    rules.place_cells(0, &layer(1, false)).unwrap();
    rules.place_cells(1, &layer(2, true)).unwrap();
    rules.place_cells(2, &layer(3, false)).unwrap();
    let result = rules.place_cells(3, &[(2, 2, 2)]);
    (rules, result)
}

#[test]
fn assembly_mode_refuses_a_piece_that_cannot_slide_in_after_floating() {
    let (rules, result) = closed_sandwich(true);
    let error = result.unwrap_err();
    assert_eq!(error.name(), "Blocked");
    assert_eq!(
        error,
        PlacementError::Blocked {
            piece: "C".into(),
            side: "+x".into(),
            cells: vec![Pos(3, 2, 2)],
        }
    );
    let text = format!("{}error: {error}\n", rules.render_text());
    common::snapshots().bind(|| insta::assert_snapshot!("pipeline_blocked", text));

    // The same placement is fine outside assembly mode.
    let (rules, result) = closed_sandwich(false);
    result.unwrap();
    assert!(rules.is_won());

    // Floating comes first: a cube in mid-air is Floating, not Blocked.
    let level = sandwich();
    let mut rules = Rules::new(&level, true);
    rules.set_assembly(true);
    let e = rules.place_cells(3, &[(2, 2, 3)]).unwrap_err();
    assert_eq!(e.name(), "Floating");
}

fn script() -> LiveScript {
    let path = common::repo_path("scripts/polycube.lua");
    let schema = Polycube::script_schema();
    LiveScript::new(Script::load_file(&path, Some(&schema), ScriptLimits::default()).unwrap())
}

#[test]
fn a_level_or_the_options_choose_assembly_mode() {
    let place_c = PolycubeAction::Place {
        piece: "C".into(),
        cells: vec![(2, 2, 2)],
    };
    let layers = |game: &mut Recorded<Polycube>| {
        for (p, z, ring) in [("F", 1, false), ("R", 2, true), ("T", 3, false)] {
            let cells = (1..=3)
                .flat_map(|y| (1..=3).map(move |x| (x, y, z)))
                .filter(|&(x, y, _)| !(ring && x == 2 && y == 2))
                .collect();
            game.apply(&PolycubeAction::Place {
                piece: p.into(),
                cells,
            })
            .unwrap();
        }
    };
    let assembly = SessionOptions {
        mode: Some(ASSEMBLY_MODE.into()),
        seats: Vec::new(),
    };
    let mut game = Recorded::<Polycube>::start(sandwich(), script(), 1, &assembly).unwrap();
    layers(&mut game);
    let e = game.apply(&place_c).unwrap_err();
    assert!(e.to_string().contains("Blocked: piece `C`"), "{e}");

    let mut game =
        Recorded::<Polycube>::start(sandwich(), script(), 1, &SessionOptions::default()).unwrap();
    layers(&mut game);
    game.apply(&place_c).unwrap();

    // A level asks for the mode with `assembly: true`.
    let mut level = sandwich();
    level.assembly = true;
    assert_eq!(
        Polycube::level_options(&level).mode.as_deref(),
        Some(ASSEMBLY_MODE)
    );
    let text = ron::ser::to_string(&level).unwrap();
    assert!(text.contains("assembly:true"), "{text}");
    let (back, _) = parse_any(&text, std::path::Path::new("s.ron")).unwrap();
    assert!(back.assembly);
    assert!(
        !ron::ser::to_string(&sandwich())
            .unwrap()
            .contains("assembly")
    );
}

/// Per shipped level: the validator's verdict, a straight-line removal
/// order (or the interlock), and for the levels small enough to count in
/// a test, the assembly counts beside the full ones.
#[test]
fn every_shipped_level_has_its_assembly_figures() {
    insta::glob!("../../../../levels/polycube", "*.ron", |path| {
        let (level, _) = load_any(path).unwrap();
        let s = solver(&level);
        let cancel = AtomicBool::new(false);
        let mut report = format!("{}: {}\n", level.name, s.verdict(&cancel).unwrap().word());
        let [a, b, c] = level.extents();
        if a * b * c <= 40 || a.min(b).min(c) == 1 {
            let full = counts(&level, false);
            let apart = counts(&level, true);
            report.push_str(&format!(
                "{} solutions, {} distinct; assembled in straight lines: {} solutions, {} distinct\n",
                full.solutions, full.distinct, apart.solutions, apart.distinct
            ));
        }
        match s.first_assemblable(&cancel).unwrap() {
            Some(solution) => {
                let order = assembly_order(level.extents(), &solution.pieces, true);
                let order = order.expect("a straight-line packing with support");
                let steps: Vec<String> = order
                    .iter()
                    .map(|i| format!("{} from {}", level.pieces[i.piece].id, i.out))
                    .collect();
                report.push_str(&format!("assembly order: {}\n", steps.join(", ")));
            }
            None => report.push_str("every packing interlocks\n"),
        }
        common::snapshots().bind(|| insta::assert_snapshot!(report));
    });
}

#[test]
fn the_helper_hint_moves_a_refused_ghost_to_the_nearest_legal_pose() {
    let (level, _) = load_any(&common::repo_path("levels/polycube/soma.ron")).unwrap();
    let rules = Rules::new(&level, true);
    let v = rules.piece_index("V").unwrap();
    // V floating one layer up: refused as Floating.
    let aim = [[0, 0, 1], [1, 0, 1], [0, 1, 1]];
    let user: Vec<_> = aim
        .iter()
        .map(|&c| tessera_polycube::user_cell(c))
        .collect();
    assert_eq!(rules.try_cells(v, &user).unwrap_err().name(), "Floating");
    let pose = tessera_polycube::hint::nearest_legal(&rules, v, &aim, 0).unwrap();
    rules.check_pose(v, &pose).unwrap();
    // The best keeps two of the ghost's cells and stands on the floor: V
    // on its side, one arm down to z = 1 (no legal pose keeps all three).
    let kept = aim.iter().filter(|c| pose.cells.contains(c)).count();
    assert_eq!(kept, 2, "{pose:?}");
    assert!(pose.cells.iter().any(|c| c[2] == 0));

    // The closed sandwich's centre cube fits nowhere in assembly mode.
    let (rules, _) = closed_sandwich(true);
    assert_eq!(
        tessera_polycube::hint::nearest_legal(&rules, 3, &[[1, 1, 1]], 0),
        None
    );
    let (mut open, _) = closed_sandwich(true);
    open.pick_up(2).unwrap();
    let pose = tessera_polycube::hint::nearest_legal(&open, 3, &[[1, 1, 1]], 0).unwrap();
    assert_eq!(pose.cells, vec![[1, 1, 1]], "with the top off, C drops in");
}

/// Hints in assembly mode answer for assembly mode: following them from an
/// empty box builds the box piece by piece, each sliding in (no Stuck
/// while a straight-line packing exists), and where no packing can be
/// assembled (the interlock) the first hint already says Stuck, where a
/// plain hint would offer a piece that leads nowhere.
#[test]
fn hints_in_assembly_mode_follow_an_assembly_order_to_the_end() {
    use tessera_polycube::hint::{Hint, hint};
    let cancel = AtomicBool::new(false);
    let mut levels = vec![sandwich()];
    for name in [
        "01_first_steps.ron",
        "02_three_bars.ron",
        "03_little_crate.ron",
    ] {
        levels.push(
            load_any(&common::repo_path(&format!("levels/polycube/{name}")))
                .unwrap()
                .0,
        );
    }
    for level in levels {
        let s = solver(&level);
        assert!(
            s.first_assemblable(&cancel).unwrap().is_some(),
            "{}",
            level.name
        );
        let mut rules = Rules::new(&level, true);
        rules.set_assembly(true);
        for _ in 0..level.pieces.len() {
            match hint(&rules, &s, &cancel).unwrap() {
                Hint::Place { piece, pose } => {
                    let cells: Vec<_> = pose
                        .cells
                        .iter()
                        .map(|&c| tessera_polycube::user_cell(c))
                        .collect();
                    rules.place_cells(piece, &cells).unwrap();
                }
                other => panic!(
                    "{}: {other:?} with {} placed",
                    level.name,
                    rules.placed_count()
                ),
            }
        }
        assert!(rules.is_won(), "{}", level.name);
    }

    let level = interlock();
    let s = solver(&level);
    let mut rules = Rules::new(&level, true);
    assert!(matches!(
        hint(&rules, &s, &cancel).unwrap(),
        Hint::Place { .. }
    ));
    rules.set_assembly(true);
    assert_eq!(
        hint(&rules, &s, &cancel).unwrap(),
        Hint::Stuck { pick_up: None }
    );
}
