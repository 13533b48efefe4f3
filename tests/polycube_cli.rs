//! Polycube from the command line: registered among the built-in games,
//! and `tessera solve`.

use std::process::Command;

mod common;

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
