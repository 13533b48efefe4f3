//! Every shipped level loads and is solvable (counts snapshotted), the two
//! JSON formats import, and bad input gets a clear message.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use tessera_polycube::import::{load_any, parse_any};
use tessera_polycube::rules::Rules;
use tessera_polycube::{PolycubeLevel, Solver};

use tessera_testkit as common;

/// Big 3D boxes of small pieces have millions of solutions: counting them
/// is a benchmark, not a test. Those levels snapshot a first solution.
fn worth_counting(level: &PolycubeLevel) -> bool {
    let [a, b, c] = level.extents();
    a * b * c <= 40 || a.min(b).min(c) == 1
}

#[test]
fn every_level_loads_is_solvable_and_keeps_its_counts() {
    insta::glob!("../../../../levels/polycube", "*.ron", |path| {
        let (level, warnings) = load_any(path).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let solver = Solver::new(level.extents(), &level.shapes()).unwrap();
        let cancel = AtomicBool::new(false);
        let solution = solver.first(&cancel).unwrap().expect("solvable");
        let mut rules = Rules::new(&level, false);
        for (p, cells) in solution.pieces.iter().enumerate() {
            let t: Vec<_> = cells
                .iter()
                .map(|c| (c[0] + 1, c[1] + 1, c[2] + 1))
                .collect();
            rules.place_cells(p, &t).unwrap();
        }
        assert!(rules.is_won());
        let report = if worth_counting(&level) {
            let c = solver.count(&cancel, &mut |_| {}).unwrap();
            assert!(c.distinct >= 1 && c.distinct <= c.solutions);
            // The symmetry-broken total agrees with a plain search.
            assert_eq!(solver.count_plain(&cancel).unwrap(), c.solutions);
            format!(
                "{}: {} pieces, {} solutions, {} distinct (symmetry group of order {})\n",
                level.name,
                level.pieces.len(),
                c.solutions,
                c.distinct,
                solver.symmetry_order()
            )
        } else {
            format!(
                "{}: {} pieces, solvable (not counted); first solution:\n{}",
                level.name,
                level.pieces.len(),
                rules.render_text()
            )
        };
        common::snapshots().bind(|| insta::assert_snapshot!(report));
    });
}

fn soma_text() -> String {
    std::fs::read_to_string(common::repo_path("levels/polycube/soma.ron")).unwrap()
}

#[test]
fn both_json_formats_import() {
    let seed = r#"{"box": {"A": 2, "B": 2, "C": 1},
      "pieces": [{"id": "A", "localVoxels": [[0,0,0],[1,0,0]], "rotationSignatures": ["x"]},
                 {"id": "B", "localVoxels": [[0,0,0],[0,1,0]]}]}"#;
    let (level, warnings) = parse_any(seed, Path::new("seed.json")).unwrap();
    assert!(warnings.is_empty());
    assert_eq!(level.size, (2, 2, 1));
    assert_eq!(level.pieces[1].id, "B");
    assert_eq!(level.pieces[1].cells, vec![(1, 1, 1), (1, 2, 1)]);

    let generator = r#"{"box": [3, 1, 1], "pieces": [[[0,0,0],[1,0,0]], [[2,0,0]]],
      "solution": [], "assembly_order": [1, 0], "stats": {"n": 2}, "signature": "abc"}"#;
    let (level, _) = parse_any(generator, Path::new("gen.json")).unwrap();
    assert_eq!(level.size, (3, 1, 1));
    assert_eq!(level.pieces.len(), 2);
    assert_eq!(level.pieces[0].id, "A");
    assert_eq!(
        level.pieces[1].cells,
        vec![(3, 1, 1)],
        "positions kept, 1-based"
    );
    let solver = Solver::new(level.extents(), &level.shapes()).unwrap();
    let counts = solver.count(&AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!((counts.solutions, counts.distinct), (2, 1));
}

fn error_of(text: &str, name: &str) -> String {
    parse_any(text, Path::new(name)).unwrap_err().to_string()
}

#[test]
fn malformed_files_are_named_with_line_numbers() {
    let broken_ron = soma_text().replacen("size: (3, 3, 3),", "size: (3, 3 3),", 1);
    let e = error_of(&broken_ron, "levels/polycube/soma.ron");
    assert!(e.starts_with("levels/polycube/soma.ron:5:"), "{e}");

    let unknown = soma_text().replacen("name:", "nmae:", 1);
    let e = error_of(&unknown, "a.ron");
    assert!(e.starts_with("a.ron:4:") && e.contains("nmae"), "{e}");

    let broken_json = "{\"box\": [2, 2, 2],\n \"pieces\": [[[0,0,0]],\n [[0,0,0],]]}";
    let e = error_of(broken_json, "b.json");
    assert!(e.starts_with("b.json:3:"), "{e}");

    let wrong_shape = "{\"box\": \"big\", \"pieces\": []}";
    let e = error_of(wrong_shape, "c.json");
    assert!(
        e.starts_with("c.json:1:") && e.contains("`box` must be"),
        "{e}"
    );
}

fn level_with(size: &str, cells: &str) -> String {
    format!(
        "(version: 1, name: \"t\", size: {size}, pieces: [(id: \"A\", cells: {cells}), (id: \"B\", cells: [(1, 1, 1)])])"
    )
}

#[test]
fn bad_levels_get_clear_errors() {
    let cases = [
        (
            level_with("(2, 1, 1)", "[(1, 1, 1), (3, 1, 1)]"),
            "not face-connected",
        ),
        (
            level_with("(2, 1, 1)", "[(-1, 1, 1)]"),
            "cell (-1, 1, 1) is out of range",
        ),
        (
            level_with("(2, 1, 1)", "[(1, 1, 99999999999)]"),
            "out of range",
        ),
        (
            level_with("(1000, 1000, 1000)", "[(1, 1, 1)]"),
            "each extent must be 1 to 64",
        ),
        (
            level_with("(64, 64, 64)", "[(1, 1, 1)]"),
            "a box of 262144 cells is larger",
        ),
        (level_with("(0, 1, 1)", "[(1, 1, 1)]"), "is not a box"),
        (level_with("(2, 1, 1)", "[]"), "it has no cells"),
        (
            level_with("(2, 1, 1)", "[(1, 1, 1), (1, 1, 1)]"),
            "listed twice",
        ),
    ];
    let mut report = String::new();
    for (text, expected) in cases {
        let e = error_of(&text, "bad.ron");
        assert!(e.contains(expected), "{e} should say {expected}");
        report.push_str(&e);
        report.push('\n');
    }
    common::snapshots().bind(|| insta::assert_snapshot!("bad_levels", report));
}

#[test]
fn a_volume_mismatch_loads_with_a_warning() {
    let text = level_with("(2, 2, 1)", "[(1, 1, 1), (2, 1, 1)]");
    let (level, warnings) = parse_any(&text, Path::new("w.ron")).unwrap();
    assert_eq!(level.pieces.len(), 2);
    assert_eq!(warnings.len(), 1);
    assert_eq!(
        warnings[0].to_string(),
        "w.ron: warning: the box cannot be filled: the pieces hold 3 cells, the box has 4"
    );
    let solver = Solver::new(level.extents(), &level.shapes()).unwrap();
    assert_eq!(solver.first(&AtomicBool::new(false)).unwrap(), None);
}

#[test]
fn the_seed_json_export_reads_back_to_the_same_level() {
    for name in ["soma.ron", "bedlam.ron", "03_little_crate.ron"] {
        let (level, _) = load_any(&common::repo_path(&format!("levels/polycube/{name}"))).unwrap();
        let text = tessera_polycube::import::export_seed_json(&level).unwrap();
        assert!(text.contains("\"localVoxels\""), "{text}");
        let (back, warnings) = parse_any(&text, Path::new("out.json")).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(back.name, level.name);
        assert_eq!(back.size, level.size);
        let shapes = |l: &PolycubeLevel| -> Vec<_> {
            l.pieces
                .iter()
                .map(|p| {
                    (
                        p.id.clone(),
                        tessera_polycube::geometry::normalize(
                            &l.shapes()[l.pieces.iter().position(|q| q.id == p.id).unwrap()],
                        ),
                    )
                })
                .collect()
        };
        assert_eq!(shapes(&back), shapes(&level), "{name}");
    }
    // The shipped seed-format level imports and is the hand-checked
    // sandwich of tests/polycube_assembly.rs.
    let (sandwich, _) = load_any(&common::repo_path("levels/polycube/sandwich.json")).unwrap();
    assert_eq!(sandwich.size, (3, 3, 3));
    assert_eq!(sandwich.pieces.len(), 4);
}

/// 128 different 8-cell pieces in the largest box pass every range, yet
/// make over a million placements, some 900 MiB of solver tables: the
/// level is refused at its `pieces` line, and a solver refuses to build
/// them, where `tessera solve` once grew past 800 MiB.
#[test]
fn a_level_whose_solver_would_not_fit_memory_is_refused_at_its_pieces() {
    use tessera_polycube::geometry::signature;
    // Random walks of 8 cells (a fixed LCG), each shape kept once.
    let mut state = 1u64;
    let mut next = |n: u64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
        (state >> 33) % n
    };
    let mut shapes: Vec<Vec<[i32; 3]>> = Vec::new();
    let mut kinds = Vec::new();
    while shapes.len() < 128 {
        let mut cells = vec![[0, 0, 0]];
        while cells.len() < 8 {
            let mut cell = cells[next(cells.len() as u64) as usize];
            cell[next(3) as usize] += 1;
            if cell.iter().all(|&v| v < 8) && !cells.contains(&cell) {
                cells.push(cell);
            }
        }
        let kind = signature(&cells);
        if !kinds.contains(&kind) {
            kinds.push(kind);
            shapes.push(cells);
        }
    }
    let pieces: Vec<String> = shapes
        .iter()
        .enumerate()
        .map(|(i, cells)| {
            let cells: Vec<String> = cells
                .iter()
                .map(|[x, y, z]| format!("({}, {}, {})", x + 1, y + 1, z + 1))
                .collect();
            format!("        (id: \"P{i}\", cells: [{}]),", cells.join(", "))
        })
        .collect();
    let text = format!(
        "(\n    version: 1,\n    name: \"big\",\n    size: (16, 8, 8),\n    pieces: [\n{}\n    ],\n)\n",
        pieces.join("\n")
    );
    let e = error_of(&text, "levels/polycube/big.ron");
    assert!(e.starts_with("levels/polycube/big.ron:5:"), "{e}");
    assert!(e.contains("over its 128 MiB budget"), "{e}");
    assert!(matches!(
        Solver::new([16, 8, 8], &shapes),
        Err(tessera_polycube::solver::SolveError::OverBudget(_))
    ));
    // A tenth of the pieces fits.
    assert!(Solver::new([16, 8, 8], &shapes[..12]).is_ok());
}
