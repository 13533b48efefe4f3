//! `tessera play sand`: action files, random play, rendering, JSON, and
//! errors that name the file position or the failing action.

use crate::common;

use std::process::Command;

fn play(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .current_dir(common::repo_root())
        .arg("play")
        .arg("sand")
        .args(args)
        .output()
        .expect("tessera runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

const CHAIN_LEVEL: &str =
    "(version: 1, columns: 6, rows: 5, cell: 10, board: [\"BBBBYY\", \"RRRRRR\", \"YYYBBB\"])";

#[test]
fn an_action_file_plays_and_prints_score_chain_log_and_grid() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(&dir, "chain.ron", CHAIN_LEVEL);
    let actions = write(
        &dir,
        "a.ron",
        "[\n  Tick(5),\n  Settle,\n  Place(slot: 0, x: 0, y: 0),\n  Settle,\n]\n",
    );
    let (code, out, err) = play(&[
        "--seed",
        "3",
        "--level",
        &level,
        "--actions",
        &actions,
        "--render",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("score 142"), "{out}");
    assert!(
        out.contains("chain x1  R 600 grains (6 cells)  +24"),
        "{out}"
    );
    assert!(
        out.contains("chain x2  B 700 grains (7 cells)  +52"),
        "{out}"
    );
    assert!(
        out.contains("chain x3  Y 500 grains (5 cells)  +66"),
        "{out}"
    );
    assert!(out.contains("outcome: playing"), "{out}");
    let grid: Vec<&str> = out
        .lines()
        .filter(|l| l.len() == 60 && l.chars().all(|c| c == '.' || c.is_ascii_uppercase()))
        .collect();
    assert_eq!(grid.len(), 50, "{out}");
    let grains: usize = grid
        .iter()
        .map(|l| l.chars().filter(|&c| c != '.').count())
        .sum();
    assert_eq!(grains, 400, "only the placed piece is left");
}

#[test]
fn json_output_holds_the_final_state() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(&dir, "chain.ron", CHAIN_LEVEL);
    let actions = write(&dir, "a.ron", "[Settle]");
    let (code, out, err) = play(&[
        "--seed",
        "3",
        "--level",
        &level,
        "--actions",
        &actions,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let state: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(state["score"], 142);
    assert_eq!(state["chain_log"].as_array().unwrap().len(), 3);
    assert_eq!(state["chain_log"][1]["chain"], 2);
    assert_eq!(state["grains"], 0);
    assert_eq!(state["grid"].as_array().unwrap().len(), 50);
    assert_eq!(state["outcome"], "playing");
}

#[test]
fn random_play_places_the_turns_asked_for() {
    let (code, out, err) = play(&["--seed", "5", "--random-play", "12"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("placed 12"), "{out}");
    let again = play(&["--seed", "5", "--random-play", "12"]).1;
    assert_eq!(out, again, "deterministic");
}

#[test]
fn a_malformed_action_file_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let actions = write(
        &dir,
        "bad.ron",
        "[\n  Tick(5),\n  Plase(slot: 0, x: 0, y: 0),\n]\n",
    );
    let (code, _, err) = play(&["--actions", &actions]);
    // A bad input file exits 1 (2 is for a bad command line).
    assert_eq!(code, 1);
    assert!(err.contains("bad.ron:3:3"), "{err}");
    assert!(err.contains("Plase"), "{err}");
}

#[test]
fn an_illegal_action_is_named_by_index_and_text() {
    let dir = tempfile::tempdir().unwrap();
    let actions = write(
        &dir,
        "a.ron",
        "[Place(slot: 0, x: 4, y: 20), Place(slot: 1, x: 4, y: 20), Place(slot: 9, x: 0, y: 0)]",
    );
    let (code, out, err) = play(&["--seed", "1", "--actions", &actions]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("placed 1"), "the summary still prints: {out}");
    assert!(
        err.contains("a.ron: action 2 `Place(slot:1,x:4,y:20,rotation:0)`"),
        "{err}"
    );
    assert!(err.contains("overlaps grains"), "{err}");

    let actions = write(&dir, "b.ron", "[Place(slot: 9, x: 0, y: 0)]");
    let (code, _, err) = play(&["--actions", &actions]);
    assert_eq!(code, 1);
    assert!(err.contains("action 1 `Place(slot:9"), "{err}");
    assert!(err.contains("slot 9 does not exist"), "{err}");

    let actions = write(&dir, "c.ron", "[Place(slot: 0, x: 12, y: 0)]");
    let (_, _, err) = play(&["--actions", &actions]);
    assert!(err.contains("leave the 12x22 board"), "{err}");
}

#[test]
fn an_unknown_game_or_missing_mode_is_bad_usage() {
    let (code, _, err) = play(&[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--actions FILE, --random-play TURNS or --ai-only"),
        "{err}"
    );
}
