//! `tessera tetris explain`, `tetris hatetris` and `tetris campaign`,
//! `tessera check` on
//! Tetris scripts and feed levels, and `tessera sim tetris` against a feed
//! level's own difficulty: the binary end to end.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use tessera_tetris::board::Board;
use tessera_tetris::piece::PieceKind;
use tessera_tetris_bot::ai::{Brain, Position, log};

fn tessera(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("tessera runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A project holding the shipped `scripts/tetris.lua` and an empty
/// `levels/tetris/`.
fn tetris_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::create_dir_all(dir.path().join("levels/tetris")).unwrap();
    std::fs::copy(
        common::repo_root().join("scripts/tetris.lua"),
        dir.path().join("scripts/tetris.lua"),
    )
    .unwrap();
    dir
}

/// An AI log as the editor writes it, for GOD on an empty 10 x 22 board.
fn a_log(noise_seed: u64) -> String {
    let god = tessera_tetris_bot::ai::settings::default_difficulties()
        .into_iter()
        .find(|d| d.name == "GOD")
        .expect("GOD");
    let position = empty_well(Board::new(10, 22), PieceKind::T);
    let choice = Brain::new().choose(&position, &god, noise_seed);
    log::write(
        &log::DecisionInput {
            position,
            difficulty: god,
            noise_seed,
            turn: 1,
        },
        &choice,
        5,
    )
}

#[test]
fn explain_reads_a_log_with_the_largest_seed_from_a_file_and_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("god.log");
    std::fs::write(&path, a_log(u64::MAX)).unwrap();
    let root = common::repo_root();
    let output = tessera(&["tetris", "explain", path.to_str().unwrap()], &root);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("same decision as the log"),
        "{}",
        text(&output.stdout)
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["tetris", "explain", "-"])
        .current_dir(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tessera runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(a_log(9_223_372_036_854_775_808).as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

#[test]
fn explain_refuses_a_hostile_table_as_path_line_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.log");
    let good = a_log(3);
    let line = good
        .lines()
        .position(|l| l.starts_with("table: "))
        .expect("a table line")
        + 1;
    std::fs::write(&path, good.replace("noise:0.0", "noise:inf")).unwrap();
    let output = tessera(
        &["tetris", "explain", path.to_str().unwrap()],
        &common::repo_root(),
    );
    assert_eq!(output.status.code(), Some(1));
    let error = text(&output.stderr);
    assert!(
        error.contains(&format!("{}:{line}: ", path.display())),
        "{error}"
    );
    assert!(
        error.contains("`noise` must be 0 to 1000, not inf"),
        "{error}"
    );
    assert!(!error.contains("panicked"), "{error}");
}

#[test]
fn check_refuses_a_bad_ai_table_and_a_feed_level_with_an_unknown_difficulty() {
    let dir = tetris_project();
    let script = std::fs::read_to_string(dir.path().join("scripts/tetris.lua")).unwrap();
    std::fs::write(
        dir.path().join("levels/tetris/typo.ron"),
        "(\n  version: 1,\n  rows: 22,\n  columns: 10,\n  feed: Some((\n    difficulty: \"MASTR\",\n    target_lines: 6,\n  )),\n)\n",
    )
    .unwrap();
    let output = tessera(&["check", "levels/tetris/typo.ron"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let all = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert!(all.contains("typo.ron:6"), "{all}");
    assert!(all.contains("no difficulty `MASTR`"), "{all}");

    let bad = script.replacen("log_top = 5,", "log_top = 0,", 1);
    std::fs::write(dir.path().join("scripts/tetris.lua"), &bad).unwrap();
    let line = bad
        .lines()
        .position(|l| l.contains("log_top = 0"))
        .expect("the edit")
        + 1;
    let output = tessera(&["check", "scripts/tetris.lua"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let all = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert!(all.contains(&format!("tetris.lua:{line}:")), "{all}");
    assert!(
        all.contains("`ai.log_top` must be 1 to 100, not 0"),
        "{all}"
    );
}

#[test]
fn sim_plays_a_feed_level_against_its_own_difficulty_with_the_player_rate() {
    let output = tessera(
        &[
            "sim",
            "tetris",
            "--mode",
            "feed",
            "--feeder",
            "hate:0.5",
            "--level",
            "levels/tetris/feed_1_first_taste.ron",
            "--games",
            "4",
            "--threads",
            "1",
            "--json",
        ],
        &common::repo_root(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(json["feeder"], "hate:0.5");
    let level = &json["levels"][0];
    assert_eq!(level["level"], "easy");
    let rate = level["player_win_rate"].as_f64().expect("a rate");
    let interval = &level["player_win_rate_95"];
    let (low, high) = (
        interval[0].as_f64().expect("low"),
        interval[1].as_f64().expect("high"),
    );
    assert!(low <= rate && rate <= high, "{level}");
}

#[test]
fn hatetris_times_one_game_and_refuses_an_unknown_ai() {
    // Ten pieces of the shipped VS_HATETRIS against the hatetris feeder:
    // the figures and the longest decision, as JSON.
    let output = tessera(
        &["tetris", "hatetris", "--pieces", "10", "--json"],
        &common::repo_root(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(json["ai"], "vs_hatetris");
    assert_eq!(json["pieces"], 10, "{json}");
    assert_eq!(json["decisions"], 10, "{json}");
    let (mean, max) = (
        json["mean_s"].as_f64().expect("mean"),
        json["max_s"].as_f64().expect("max"),
    );
    assert!(0.0 < mean && mean <= max, "{json}");
    // The text summary says the board has no lowering ceiling rather
    // than quoting an interval that never applies.
    let output = tessera(
        &["tetris", "hatetris", "--pieces", "3"],
        &common::repo_root(),
    );
    let summary = text(&output.stdout);
    assert!(summary.contains("no lowering ceiling"), "{summary}");
    assert!(!summary.contains("down (every"), "{summary}");
    // A level that is not an AI is bad usage.
    let output = tessera(
        &["tetris", "hatetris", "--ai", "nosuch"],
        &common::repo_root(),
    );
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains("nosuch"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn generate_tetris_writes_a_puzzle_check_reproves_and_a_broken_claim_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("spin.ron");
    let out_arg = out.display().to_string();
    let spec = [
        "generate", "tetris", "--lines", "2", "--pieces", "3", "--tspin", "--unique",
    ];
    let args: Vec<&str> = spec
        .iter()
        .copied()
        .chain(["--seed", "4", "--out", &out_arg])
        .collect();
    let output = tessera(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let level = std::fs::read_to_string(&out).unwrap();
    assert!(
        level.starts_with(
            "// generated by tessera: generate tetris --lines 2 --pieces 3 --tspin --unique --seed 4\n\
             // claim: 1 winning sequence, 1 final board, every win needs a T-spin\n"
        ),
        "{level}"
    );
    let output = tessera(&["check", &out_arg], dir.path());
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let said = text(&output.stdout);
    assert!(
        said.contains(
            "spin.ron: proven: 1 winning sequence, 1 final board, every win needs a T-spin"
        ),
        "{said}"
    );

    // One O cannot clear the two lines: the claim's line is reported.
    let sequence = level.lines().find(|l| l.contains("sequence:")).unwrap();
    std::fs::write(&out, level.replace(sequence, "  sequence: \"O\",")).unwrap();
    let output = tessera(&["check", &out_arg], dir.path());
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let said = text(&output.stdout) + &text(&output.stderr);
    assert!(
        said.contains("spin.ron:2: the claim `1 winning sequence"),
        "{said}"
    );
    assert!(
        said.contains("now gives `0 winning sequences, 0 final boards`"),
        "{said}"
    );

    // An impossible spec is a usage error.
    let output = tessera(
        &["generate", "tetris", "--lines", "5", "--pieces", "1"],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        text(&output.stderr).contains("--lines 5 needs at least 2 pieces"),
        "{output:?}"
    );
}

#[test]
fn campaign_plays_every_feed_level_as_sim_does_and_prints_its_wall_time() {
    // A project with the first two feed levels (the quick ones).
    let dir = tetris_project();
    let root = common::repo_root();
    for file in ["feed_1_first_taste.ron", "feed_2_easy_stack.ron"] {
        std::fs::copy(
            root.join("levels/tetris").join(file),
            dir.path().join("levels/tetris").join(file),
        )
        .unwrap();
    }
    let args = ["tetris", "campaign", "--games", "6", "--threads", "1"];
    let output = tessera(&args, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    // Two levels, one feeder (hate:0.5 by default), six games each.
    assert!(out.contains("6 games a level against hate:0.5"), "{out}");
    assert!(out.contains("12 games in "), "{out}");
    assert!(out.contains(" s wall"), "{out}");
    // Each level's rate is the one `sim` gives for the same games.
    for (row, file) in [(1, "feed_1_first_taste.ron"), (2, "feed_2_easy_stack.ron")] {
        let level = format!("levels/tetris/{file}");
        let sim = tessera(
            &[
                "sim",
                "tetris",
                "--mode",
                "feed",
                "--feeder",
                "hate:0.5",
                "--level",
                &level,
                "--games",
                "6",
                "--seed",
                "100000",
                "--threads",
                "1",
                "--json",
            ],
            dir.path(),
        );
        assert_eq!(sim.status.code(), Some(0), "{}", text(&sim.stderr));
        let json: serde_json::Value = serde_json::from_slice(&sim.stdout).expect("json");
        let rate = json["levels"][0]["player_win_rate"]
            .as_f64()
            .expect("a rate");
        let line = out
            .lines()
            .find(|l| l.contains(file))
            .unwrap_or_else(|| panic!("no row for {file}: {out}"));
        assert!(line.starts_with(&row.to_string()), "{line}");
        assert!(
            line.ends_with(&format!("{:.1}%", rate * 100.0)),
            "{line} vs {rate}"
        );
    }
    // A feed level `check` refuses is refused by the campaign in the same
    // words, at the same line.
    let typo = "(\n  version: 1,\n  rows: 22,\n  columns: 10,\n  feed: Some((\n    difficulty: \"MASTR\",\n    target_lines: 6,\n  )),\n)\n";
    std::fs::write(dir.path().join("levels/tetris/feed_3_typo.ron"), typo).unwrap();
    let checked = tessera(&["check", "levels/tetris/feed_3_typo.ron"], dir.path());
    assert_eq!(checked.status.code(), Some(1));
    let refusal = text(&checked.stdout);
    let refusal = refusal.trim();
    assert!(refusal.contains("feed_3_typo.ron:6:"), "{refusal}");
    let output = tessera(&["tetris", "campaign", "--games", "1"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let said = text(&output.stderr);
    let line = refusal
        .split("feed_3_typo.ron")
        .nth(1)
        .expect("the refusal's line");
    assert!(said.contains(line), "{said} vs {refusal}");
    std::fs::remove_file(dir.path().join("levels/tetris/feed_3_typo.ron")).unwrap();

    // A feeder that is not a strength, and no games, are bad usage.
    for bad in [
        &["tetris", "campaign", "--feeder", "hatetris"][..],
        &["tetris", "campaign", "--games", "0"][..],
    ] {
        let output = tessera(bad, dir.path());
        assert_eq!(output.status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn hatetris_prints_its_moves_which_replay_to_its_rows_and_repeat() {
    // The shipped row's kept tree (a rolling beam of 2,048 wells): 40
    // pieces, twice, the same moves; the rows the game counted are the
    // rows those moves clear against the HATETRIS rule.
    let run = || {
        let output = tessera(
            &["tetris", "hatetris", "--pieces", "40", "--json"],
            &common::repo_root(),
        );
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        serde_json::from_slice::<serde_json::Value>(&output.stdout).expect("json")
    };
    let (first, second) = (run(), run());
    let moves = first["moves"].as_array().expect("moves").clone();
    assert_eq!(moves.len(), 40, "{first}");
    assert_eq!(first["moves"], second["moves"]);
    let lines = first["lines"].as_u64().expect("lines");
    assert!(lines > 0, "{first}");
    assert_eq!(u64::from(rows_of_line(&moves)), lines, "{first}");
}

/// Plays `moves` (`[x, rotation, y]` of each `Drop`) against the HATETRIS
/// rule on its empty 10 x 20 well with the library alone (not the
/// command's own replay): each move must be a landing the move generator
/// reaches for the piece the rule gives; the rows they clear.
fn rows_of_line(moves: &[serde_json::Value]) -> u32 {
    use tessera_tetris::movegen::MoveGen;
    use tessera_tetris_bot::ai::feeder::{Feeder, pick};
    // The rule reads no difficulty: any row will do.
    let against = tessera_tetris_bot::ai::settings::default_difficulties()
        .into_iter()
        .next()
        .expect("a built-in row");
    let mut position = empty_well(Board::new(10, 20), PieceKind::S);
    let (mut brain, mut movegen) = (Brain::new(), MoveGen::new());
    let mut rng = tessera_host::agent::agent_rng(0, 0, 0);
    let mut rows = 0;
    for (i, m) in moves.iter().enumerate() {
        let given = pick(
            Feeder::Hatetris,
            &mut brain,
            &position,
            &PieceKind::ALL,
            &against,
            &mut rng,
        );
        position.piece = given.expect("HATETRIS gives a piece");
        let m: Vec<i64> = m
            .as_array()
            .expect("[x, rotation, y]")
            .iter()
            .map(|v| v.as_i64().expect("a number"))
            .collect();
        let spawn = position.spawn(position.piece);
        let landing = *movegen
            .generate(&position.board, position.piece, position.rotation, spawn)
            .iter()
            .find(|p| {
                [
                    i64::from(p.left_column()),
                    i64::from(p.state),
                    i64::from(p.top_row()),
                ] == m[..]
            })
            .unwrap_or_else(|| panic!("move {} {m:?} is no landing of {}", i + 1, position.piece));
        position
            .board
            .place(landing.kind, landing.state, landing.x, landing.y);
        rows += position.board.clear_full_rows().count_ones();
    }
    rows
}

#[test]
fn hatetris_offline_prints_a_line_that_replays_to_its_rows_and_its_shards_merge() {
    let dir = tetris_project();
    // Three rounds, 16 to 64 boards a ply: seconds.
    let search = [
        "tetris",
        "hatetris",
        "--offline",
        "--width",
        "16",
        "--max-width",
        "64",
        "--minutes",
        "5",
    ];
    let output = tessera(&[&search[..], &["--json"]].concat(), dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let moves = json["moves"].as_array().expect("moves");
    assert_eq!(json["pieces"].as_u64(), Some(moves.len() as u64), "{json}");
    let rows = json["lines"].as_u64().expect("lines");
    assert!(rows >= 5, "even a beam of 64 clears some rows: {json}");
    assert_eq!(u64::from(rows_of_line(moves)), rows, "{json}");
    // The text names the figure and that it was replayed through the game.
    let output = tessera(&search, dir.path());
    let said = text(&output.stdout);
    assert!(
        said.contains(&format!("{rows} lines")) && said.contains("replayed through the game"),
        "{said}"
    );

    // Two shards, the first piece's landings dealt between them: each a
    // partial with its own replayable line, merged into the better one.
    let mut paths = Vec::new();
    let mut best = 0;
    for shard in ["1/2", "2/2"] {
        let output = tessera(&[&search[..], &["--shard", shard]].concat(), dir.path());
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let partial: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
        assert_eq!(partial["command"], "tetris hatetris --offline");
        let result = &partial["result"];
        let rows = result["lines"].as_u64().expect("lines");
        assert_eq!(
            u64::from(rows_of_line(result["moves"].as_array().expect("moves"))),
            rows
        );
        best = best.max(rows);
        let path = dir.path().join(format!("shard-{}.json", paths.len() + 1));
        std::fs::write(&path, &output.stdout).unwrap();
        paths.push(path);
    }
    let mut merge = vec!["merge", "--json"];
    merge.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let output = tessera(&merge, dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let merged: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(merged["lines"].as_u64(), Some(best), "{merged}");
    // Bad usage is refused before any search.
    let output = tessera(
        &["tetris", "hatetris", "--offline", "--minutes", "0"],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
}

#[test]
fn the_offline_line_in_the_figures_clears_the_rows_it_claims() {
    // The hour's best line, kept in docs/perf beside its figure.
    let path = common::repo_root().join("docs/perf/hatetris-offline-31.json");
    let text = std::fs::read_to_string(&path).expect("the line's file");
    let json: serde_json::Value = serde_json::from_str(&text).expect("json");
    let moves = json["moves"].as_array().expect("moves");
    assert_eq!(json["pieces"].as_u64(), Some(moves.len() as u64));
    assert_eq!(json["lines"].as_u64(), Some(31));
    assert_eq!(rows_of_line(moves), 31);
}

/// `piece` to place on `board`, no preview, as the shipped script plays
/// (`rotation = "cycle"`): the AI's position for the tests that drive a
/// brain by hand.
fn empty_well(board: Board, piece: PieceKind) -> Position {
    Position::shipped(board, piece)
}
