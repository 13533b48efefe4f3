//! Polycube from the command line: registered among the built-in games,
//! and `tessera solve`.

use std::process::Command;

use crate::common;

#[test]
fn the_game_is_registered() {
    let registry = tessera_builtin::registry();
    assert_eq!(
        registry.get("polycube").map(|e| e.title),
        Some("Polycube packing")
    );
}

fn tessera(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(common::repo_root())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn solve_prints_a_solution_or_counts_as_json() {
    let (code, text) = tessera(&["solve", "levels/polycube/soma.ron", "--count", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(text.lines().count(), 1);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["solutions"], 11520);
    assert_eq!(json["distinct"], 240);
    assert!(json["seconds"].as_f64().is_some_and(|s| s >= 0.0));
    assert!(text.starts_with("{\"solutions\":11520,\"distinct\":240,\"seconds\":"));
    assert_eq!(json["symmetry"], true);

    // The plain search: the same solutions, no distinct count.
    let (code, text) = tessera(&[
        "solve",
        "levels/polycube/pentacubes_2x5x6.ron",
        "--count",
        "--no-symmetry",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0);
    assert!(
        text.starts_with("2112 solutions (plain search, no symmetry breaking) ("),
        "{text}"
    );
    let (code, text) = tessera(&["solve", "--help"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("--no-symmetry") && text.contains("no symmetry breaking"),
        "{text}"
    );

    let (code, text) = tessera(&["solve", "levels/polycube/01_first_steps.ron"]);
    assert_eq!(code, 0);
    assert!(text.starts_with("z=1\n"));
    assert_eq!(text.matches('A').count(), 4);
    assert_eq!(text.matches('B').count(), 4);

    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("gen.json");
    std::fs::write(
        &json,
        r#"{"box": [3,1,1], "pieces": [[[0,0,0],[1,0,0]], [[0,0,0],[1,0,0]]]}"#,
    )
    .unwrap();
    let (code, text) = tessera(&["solve", json.to_str().unwrap()]);
    assert_eq!((code, text.as_str()), (1, "no solution\n"));
}

#[test]
fn solve_answers_first_unique_and_disassemble() {
    let (code, text) = tessera(&["solve", "--unique", "levels/polycube/soma.ron"]);
    assert_eq!((code, text.as_str()), (0, "not unique\n"));
    // Two 4-cube pieces in a 2x2x2 box: one packing up to symmetry.
    let (code, text) = tessera(&["solve", "--unique", "levels/polycube/01_first_steps.ron"]);
    assert_eq!((code, text.as_str()), (0, "unique\n"));
    let (code, text) = tessera(&["solve", "--first", "levels/polycube/bedlam.ron"]);
    assert_eq!(code, 0);
    assert!(
        text.starts_with("z=1\n") && text.contains("z=4\n"),
        "{text}"
    );

    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("odd.json");
    std::fs::write(
        &odd,
        r#"{"box": [3,1,1], "pieces": [[[0,0,0],[1,0,0]], [[0,0,0],[1,0,0]]]}"#,
    )
    .unwrap();
    let odd = odd.to_str().unwrap();
    // The validator's questions are answered (exit 0); plain solve fails.
    assert_eq!(
        tessera(&["solve", "--first", odd]),
        (0, "no solution\n".into())
    );
    assert_eq!(
        tessera(&["solve", "--unique", odd]),
        (0, "no solution\n".into())
    );
    assert_eq!(
        tessera(&["solve", "--disassemble", odd]),
        (1, "no solution\n".into())
    );

    // The interlock of tests/polycube_assembly.rs: two pieces each
    // blocking every straight slide of the other.
    let locked = dir.path().join("locked.ron");
    std::fs::write(
        &locked,
        r#"(version: 1, size: (3, 2, 2), pieces: [
            (id: "A", cells: [(1, 2, 2), (2, 1, 1), (2, 1, 2), (2, 2, 2), (3, 1, 1)]),
            (id: "B", cells: [(1, 1, 1), (1, 1, 2), (1, 2, 1), (2, 2, 1), (3, 1, 2), (3, 2, 1), (3, 2, 2)]),
        ])"#,
    )
    .unwrap();
    let locked = locked.to_str().unwrap();
    let (code, text) = tessera(&["solve", "--disassemble", locked]);
    assert_eq!(code, 1);
    assert!(text.starts_with("no straight-line disassembly: every packing interlocks (in the first one found, pieces A, B lock each other)\n"), "{text}");
    let (code, text) = tessera(&["solve", "--count", "--assembly", locked]);
    assert_eq!(
        (code, text.starts_with("0 solutions, 0 distinct")),
        (1, true),
        "{text}"
    );

    let (code, text) = tessera(&[
        "solve",
        "--disassemble",
        "levels/polycube/03_little_crate.ron",
    ]);
    assert_eq!(code, 0);
    let steps = text.lines().filter(|l| l.contains(" out along ")).count();
    assert_eq!(steps, 4, "{text}");
    let (code, text) = tessera(&[
        "solve",
        "--count",
        "--assembly",
        "levels/polycube/03_little_crate.ron",
    ]);
    assert_eq!(code, 0);
    assert!(text.starts_with("16 solutions, 2 distinct"), "{text}");

    // Flags that do not go together are bad usage.
    assert_eq!(tessera(&["solve", "--first", "--count", odd]).0, 2);
    assert_eq!(tessera(&["solve", "--assembly", odd]).0, 2);
}
