//! The package's own command line, `cairn` (the `tessera` library's `run`
//! with the built-in games and Cairns), run as a user runs it from this
//! folder: `games`, `check`, `play`, `replay` and `sim`, each with its
//! exit code and what it prints.

use std::path::{Path, PathBuf};
use std::process::Output;

/// The package folder: a project (`scripts/`, `levels/`, `tests/replays/`).
fn package() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cairn ARGS` in `dir`.
fn cairn(args: &[&str], dir: &Path) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

/// Its exit code, stdout and stderr.
fn run(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let output = cairn(args, dir);
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A copy of the package's project files in a scratch folder.
fn project_copy() -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("folder");
        for entry in std::fs::read_dir(from).expect("folder").flatten() {
            let target: PathBuf = to.join(entry.file_name());
            if entry.path().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).expect("copy");
            }
        }
    }
    let dir = tempfile::tempdir().expect("scratch folder");
    for folder in ["scripts", "levels"] {
        copy(&package().join(folder), &dir.path().join(folder));
    }
    dir
}

#[test]
fn games_lists_the_four_built_in_games_and_this_one() {
    let (code, out, err) = run(&["games"], package());
    assert_eq!(code, Some(0), "{err}");
    let ids: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        ids,
        ["azul", "polycube", "sand", "tetris", "cairn"],
        "{out}"
    );
    assert!(out.contains("Cairns"), "{out}");
}

#[test]
fn check_passes_the_shipped_files_and_refuses_a_misspelt_key_at_its_line() {
    let (code, out, err) = run(&["check", "levels", "scripts"], package());
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("ok levels/cairn/classic.ron"), "{out}");
    assert!(out.contains("ok scripts/cairn.lua"), "{out}");

    let copy = project_copy();
    let script = copy.path().join("scripts/cairn.lua");
    let text = std::fs::read_to_string(&script).expect("script");
    std::fs::write(&script, text.replace("max_take =", "max_tkae =")).expect("write");
    let (code, out, err) = run(&["check", "scripts"], copy.path());
    let all = format!("{out}{err}");
    assert_eq!(code, Some(1), "{all}");
    assert!(all.contains("scripts/cairn.lua:6"), "names the line: {all}");
    assert!(all.contains("max_take"), "names the nearest key: {all}");

    let level = copy.path().join("levels/cairn/classic.ron");
    std::fs::write(&level, "(version: 1, rows: [3, 0, 7])").expect("write");
    let (code, out, err) = run(&["check", "levels"], copy.path());
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(format!("{out}{err}").contains("row 2"), "{out}{err}");
}

#[test]
fn play_runs_ai_seats_to_the_end_and_refuses_an_illegal_move() {
    let (code, out, err) = run(
        &[
            "play",
            "cairn",
            "--ai-only",
            "--seat",
            "ai:hard",
            "--seat",
            "ai:easy",
            "--seed",
            "3",
        ],
        package(),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("every stone is taken"), "{out}");
    assert!(out.contains("outcome: player 1 wins"), "{out}");

    let copy = project_copy();
    std::fs::write(copy.path().join("moves.ron"), "[Take(row: 4, stones: 1)]").expect("write");
    let (code, out, err) = run(&["play", "cairn", "--actions", "moves.ron"], copy.path());
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        format!("{out}{err}").contains("there is no row 4: the rows are 1 to 3"),
        "{out}{err}"
    );
}

#[test]
fn replay_reruns_a_recorded_game_to_its_outcome() {
    let (code, out, err) = run(
        &["replay", "tests/replays/cairn/hard_beats_easy.replay.ron"],
        package(),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("game: cairn"), "{out}");
    assert!(out.contains("outcome: player 1 wins"), "{out}");
}

#[test]
fn sim_shows_hard_beating_easy() {
    let (code, out, err) = run(
        &[
            "sim",
            "cairn",
            "--seats",
            "ai:hard,ai:easy",
            "--games",
            "40",
            "--threads",
            "1",
        ],
        package(),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("40 games of cairn"), "{out}");
    let hard = out
        .lines()
        .find(|line| line.contains("ai:hard"))
        .unwrap_or_else(|| panic!("a line for ai:hard: {out}"));
    assert!(hard.contains("100.0%"), "hard wins every game: {out}");
}

/// The editor program starts and answers `--help` (a window needs a
/// display; CI's editor smoke test opens the built-in editor's).
#[cfg(feature = "ui")]
#[test]
fn the_editor_program_answers_help() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_cairn-editor"))
        .arg("--help")
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("tessera-editor"));
}
