//! `tessera play azul --record`, `tessera azul check` and `tessera sim`.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

fn tessera(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("tessera runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_recorded_game_checks_and_a_tampered_one_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.jsonl");
    let record_arg = record.display().to_string();
    let root = common::repo_root();
    let output = tessera(
        &[
            "play",
            "azul",
            "--seed",
            "4",
            "--seat",
            "ai:easy",
            "--seat",
            "ai:medium",
            "--ai-only",
            "--record",
            &record_arg,
        ],
        &root,
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(
        text.starts_with(
            "{\"event\":\"start\",\"players\":2,\"factories\":5,\"seed\":4,\"rules\":{\"floor\""
        ),
        "{text}"
    );
    assert!(text.lines().last().unwrap().contains("\"event\":\"end\""));
    // A record is self-contained: the check runs in an empty folder.
    let empty = tempfile::tempdir().unwrap();
    let output = tessera(&["azul", "check", &record_arg], empty.path());
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let said = stdout(&output);
    assert!(said.contains("a complete and legal game"), "{said}");
    assert!(said.contains(" x 2, ") && said.contains(" x 7, "), "{said}");
    assert!(said.contains("outcome: "), "{said}");

    // Change the first move's colour: that line is the first difference.
    let lines: Vec<&str> = text.lines().collect();
    let first_move = lines.iter().position(|l| l.contains("\"move\"")).unwrap();
    let mut tampered: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    tampered[first_move] = tampered[first_move]
        .replace("\"source\":", "\"source\":9")
        .replace("\"source\":9\"centre\"", "\"source\":9");
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, tampered.join("\n")).unwrap();
    let output = tessera(&["azul", "check", &bad.display().to_string()], &root);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let text = stdout(&output);
    assert!(
        text.contains(&format!("bad.jsonl:{}: illegal move", first_move + 1)),
        "{text}"
    );
    // Cut after the first move: refused at the next line.
    let cut = dir.path().join("cut.jsonl");
    std::fs::write(&cut, lines[..=first_move].join("\n") + "\n").unwrap();
    let output = tessera(&["azul", "check", &cut.display().to_string()], &root);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(
        stdout(&output).contains(&format!(
            "cut.jsonl:{}: the record ends here",
            first_move + 2
        )),
        "{}",
        stdout(&output)
    );
}

#[test]
fn bad_seats_are_bad_usage_and_ai_only_names_the_seats_it_chose() {
    let root = common::repo_root();
    for args in [
        &[
            "play",
            "azul",
            "--ai-only",
            "--seat",
            "ai:nosuch",
            "--seat",
            "ai:easy",
        ][..],
        &["play", "azul", "--ai-only", "--seat", "ai:easy"][..],
        &["play", "azul", "--ai-only", "--mode", "nosuch"][..],
        &[
            "sim",
            "azul",
            "--seats",
            "ai:easy,ai:nosuch",
            "--games",
            "1",
        ][..],
        &["sim", "nosuch", "--seats", "ai:easy", "--games", "1"][..],
    ] {
        let output = tessera(args, &root);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    }
    let output = tessera(&["play", "azul", "--ai-only", "--seed", "1"], &root);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("seats: 1 ai:expert, 2 ai:medium"), "{said}");
}

#[test]
fn keep_going_reports_each_refusal_once() {
    let dir = tempfile::tempdir().unwrap();
    let actions = dir.path().join("bad.actions.ron");
    std::fs::write(
        &actions,
        "[Take(from: Factory(9), colour: Blue, to: Line(1)), \
          Take(from: Factory(8), colour: Red, to: Floor)]",
    )
    .unwrap();
    let output = tessera(
        &[
            "play",
            "azul",
            "--seat",
            "human",
            "--seat",
            "human",
            "--keep-going",
            "--actions",
            &actions.display().to_string(),
        ],
        &common::repo_root(),
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(said.matches("action 1 ").count(), 1, "{said}");
    assert_eq!(said.matches("action 2 ").count(), 1, "{said}");
    assert!(said.contains("2 actions refused"), "{said}");
}

#[test]
fn sim_reports_win_rates_with_intervals_and_scores() {
    let output = tessera(
        &[
            "sim",
            "azul",
            "--seats",
            "ai:easy,ai:medium",
            "--games",
            "20",
            "--seed",
            "1",
            "--json",
        ],
        &common::repo_root(),
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["games"], 20);
    let players = json["players"].as_array().unwrap();
    assert_eq!(players[0]["seat"], "ai:easy");
    let medium_rate = players[1]["win_rate"].as_f64().unwrap();
    assert!(medium_rate > 0.8, "medium should beat random play: {json}");
    let low = players[1]["win_rate_95"][0].as_f64().unwrap();
    assert!(low < medium_rate && low > 0.5, "{json}");
    assert!(
        players[1]["mean_score"].as_f64().unwrap() > players[0]["mean_score"].as_f64().unwrap()
    );

    let bad = tessera(
        &["sim", "azul", "--seats", "human,ai:easy"],
        &common::repo_root(),
    );
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn generate_azul_writes_an_endgame_that_check_reproves() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("endgame.ron");
    let out_arg = out.display().to_string();
    let args = [
        "generate",
        "azul",
        "--endgame",
        "--seed",
        "1",
        "--out",
        &out_arg,
    ];
    let output = tessera(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let level = std::fs::read_to_string(&out).unwrap();
    let claim = level.lines().nth(1).unwrap();
    assert!(claim.starts_with("// claim: one winning move: "), "{level}");
    let output = tessera(&["check", &out_arg], dir.path());
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let said = stdout(&output);
    let proven = format!("endgame.ron: proven: {}", &claim["// claim: ".len()..]);
    assert!(said.contains(&proven), "{said}");
    // The kind of level must be named.
    let output = tessera(&["generate", "azul", "--seed", "1"], dir.path());
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("--endgame"),
        "{output:?}"
    );
}
