//! Sharded runs from the command line: `solve --count --shard I/N` and
//! `sim ... --shard I/N` partials merged by `tessera merge` equal the
//! unsharded run; partials that do not belong together are refused.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

/// Runs tessera in the repository: (exit code, stdout, stderr).
fn tessera(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(common::repo_root())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs every shard of `args` + `--shard i/n`, saving each partial in
/// `dir`; returns their paths.
fn shards(dir: &Path, name: &str, args: &[&str], n: usize) -> Vec<PathBuf> {
    (1..=n)
        .map(|i| {
            let shard = format!("{i}/{n}");
            let mut all = args.to_vec();
            all.extend(["--shard", &shard]);
            let (code, out, err) = tessera(&all);
            assert_eq!(code, 0, "{all:?}: {err}");
            let path = dir.join(format!("{name}-{i}-of-{n}.json"));
            std::fs::write(&path, out).unwrap();
            path
        })
        .collect()
}

fn merge(paths: &[PathBuf]) -> (i32, String, String) {
    let mut args = vec!["merge", "--json"];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    tessera(&args)
}

fn json(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    // Time is the one figure a merge cannot reproduce.
    v.as_object_mut().unwrap().remove("seconds");
    v
}

#[test]
fn merged_count_shards_equal_the_unsharded_count() {
    let dir = tempfile::tempdir().unwrap();
    let count = ["solve", "levels/polycube/soma.ron", "--count"];
    let (code, whole, _) = tessera(&[&count[..], &["--json"]].concat());
    assert_eq!(code, 0);
    let whole: serde_json::Value = serde_json::from_str(&whole).unwrap();
    for n in [1, 2, 7] {
        let parts = shards(dir.path(), "soma", &count, n);
        let (code, merged, err) = merge(&parts);
        assert_eq!(code, 0, "{err}");
        let merged = json(&merged);
        assert_eq!(merged["solutions"], whole["solutions"], "{n} shards");
        assert_eq!(merged["distinct"], whole["distinct"], "{n} shards");
        assert_eq!(merged["solutions"], 11520);
        assert_eq!(merged["distinct"], 240);
    }
}

#[test]
fn merged_sim_shards_equal_the_unsharded_table() {
    let dir = tempfile::tempdir().unwrap();
    let sim = [
        "sim",
        "azul",
        "--seats",
        "ai:easy,ai:medium",
        "--games",
        "7",
        "--seed",
        "3",
    ];
    let (code, whole, err) = tessera(&[&sim[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let whole = json(&whole);
    for n in [1, 2, 7] {
        let parts = shards(dir.path(), "azul", &sim, n);
        let (code, merged, err) = merge(&parts);
        assert_eq!(code, 0, "{err}");
        assert_eq!(json(&merged), whole, "{n} shards");
    }
}

#[test]
fn missing_duplicated_foreign_or_stopped_partials_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let count = ["solve", "levels/polycube/soma.ron", "--count"];
    let parts = shards(dir.path(), "soma", &count, 3);

    let (code, _, err) = merge(&parts[..2]);
    assert_eq!(code, 1);
    assert!(err.contains("missing shard 3/3"), "{err}");

    let (code, _, err) = merge(&[parts[0].clone(), parts[1].clone(), parts[1].clone()]);
    assert_eq!(code, 1);
    assert!(err.contains("shard 2/3 is given twice"), "{err}");

    let other = shards(
        dir.path(),
        "first",
        &["solve", "levels/polycube/01_first_steps.ron", "--count"],
        3,
    );
    let (code, _, err) = merge(&[parts[0].clone(), parts[1].clone(), other[2].clone()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("does not belong with") && err.contains("input"),
        "{err}"
    );

    let five = shards(dir.path(), "soma5", &count, 5);
    let (code, _, err) = merge(&[parts[0].clone(), parts[1].clone(), five[2].clone()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("options") || err.contains("shard count"),
        "{err}"
    );

    let stopped = dir.path().join("stopped.json");
    let text = std::fs::read_to_string(&parts[2])
        .unwrap()
        .replace("\"complete\":true", "\"complete\":false");
    std::fs::write(&stopped, text).unwrap();
    let (code, _, err) = merge(&[parts[0].clone(), parts[1].clone(), stopped]);
    assert_eq!(code, 1);
    assert!(err.contains("stopped before its end"), "{err}");

    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "{\"solutions\": 3}").unwrap();
    let (code, _, err) = merge(&[garbage]);
    assert_eq!(code, 1);
    assert!(
        err.contains("garbage.json") && err.contains("not a tessera partial"),
        "{err}"
    );

    let (code, _, err) = tessera(&[
        "solve",
        "levels/polycube/soma.ron",
        "--count",
        "--shard",
        "4/3",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("I/N"), "{err}");
}

/// A ladder's JSON without what a merge cannot reproduce: time, and the
/// time per decision measured in each shard.
fn ladder_json(text: &str) -> serde_json::Value {
    let mut v = json(text);
    for level in v["levels"].as_array_mut().unwrap() {
        level.as_object_mut().unwrap().remove("decision_us");
    }
    v
}

const TETRIS_SIM: [&str; 14] = [
    "sim", "tetris", "--mode", "feed", "--feeder", "hate", "--ai", "easy,god", "--games", "7",
    "--seed", "3", "--pieces", "60",
];

#[test]
fn merged_tetris_sim_shards_equal_the_unsharded_table() {
    let dir = tempfile::tempdir().unwrap();
    let (code, whole, err) = tessera(&[&TETRIS_SIM[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let whole = ladder_json(&whole);
    assert_eq!(whole["levels"][0]["games"], 7, "{whole}");
    assert_eq!(whole["levels"][1]["level"], "god", "{whole}");
    for n in [1, 2, 7] {
        let parts = shards(dir.path(), "tetris", &TETRIS_SIM, n);
        let (code, merged, err) = merge(&parts);
        assert_eq!(code, 0, "{err}");
        assert_eq!(ladder_json(&merged), whole, "{n} shards");
    }
}

#[test]
fn tetris_sim_partials_that_do_not_belong_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let parts = shards(dir.path(), "tetris", &TETRIS_SIM, 3);

    let (code, _, err) = merge(&parts[1..]);
    assert_eq!(code, 1);
    assert!(err.contains("missing shard 1/3"), "{err}");

    let (code, _, err) = merge(&[parts[0].clone(), parts[0].clone(), parts[2].clone()]);
    assert_eq!(code, 1);
    assert!(err.contains("shard 1/3 is given twice"), "{err}");

    // Another seed: the same input, other options.
    let mut reseeded = TETRIS_SIM.to_vec();
    reseeded[11] = "4";
    let other = shards(dir.path(), "reseeded", &reseeded, 3);
    let (code, _, err) = merge(&[parts[0].clone(), parts[1].clone(), other[2].clone()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("does not belong with") && err.contains("options"),
        "{err}"
    );

    // Another level: another input.
    let mut leveled = TETRIS_SIM.to_vec();
    leveled.extend(["--level", "levels/tetris/feed_1_first_taste.ron"]);
    let other = shards(dir.path(), "leveled", &leveled, 3);
    let (code, _, err) = merge(&[parts[0].clone(), parts[1].clone(), other[2].clone()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("does not belong with") && err.contains("input"),
        "{err}"
    );

    // An azul partial among tetris ones.
    let azul = shards(
        dir.path(),
        "azul",
        &["sim", "azul", "--seats", "ai:easy,ai:easy", "--games", "3"],
        3,
    );
    let (code, _, err) = merge(&[parts[0].clone(), parts[1].clone(), azul[2].clone()]);
    assert_eq!(code, 1);
    assert!(err.contains("does not belong with"), "{err}");
}

#[test]
fn plain_count_shards_merge_to_the_plain_count_and_never_mix_with_broken_ones() {
    let dir = tempfile::tempdir().unwrap();
    let plain = [
        "solve",
        "levels/polycube/soma.ron",
        "--count",
        "--no-symmetry",
    ];
    let (code, whole, err) = tessera(&[&plain[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let whole = json(&whole);
    assert_eq!(whole["solutions"], 11520, "{whole}");
    assert_eq!(whole["distinct"], serde_json::Value::Null, "{whole}");
    assert_eq!(whole["symmetry"], false, "{whole}");
    for n in [1, 2, 7] {
        let parts = shards(dir.path(), "soma-plain", &plain, n);
        let partial: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&parts[0]).unwrap()).unwrap();
        assert_eq!(partial["command"], "solve --count --no-symmetry");
        assert_eq!(partial["options"]["symmetry"], false);
        let (code, merged, err) = merge(&parts);
        assert_eq!(code, 0, "{err}");
        let merged = json(&merged);
        assert_eq!(merged["solutions"], 11520, "{n} shards");
        assert_eq!(merged["distinct"], serde_json::Value::Null, "{n} shards");
        assert_eq!(merged["symmetry"], false, "{n} shards");
    }
    let one = shards(dir.path(), "soma-plain-words", &plain, 1);
    let (code, text, _) = tessera(&["merge", one[0].to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        text.starts_with("11520 solutions (plain search, no symmetry breaking)"),
        "{text}"
    );

    // Two shards of the plain count and one of the symmetry-broken count.
    let plain_parts = shards(dir.path(), "mixed-plain", &plain, 3);
    let broken_parts = shards(dir.path(), "mixed-broken", &plain[..3], 3);
    let (code, _, err) = merge(&[
        plain_parts[0].clone(),
        plain_parts[1].clone(),
        broken_parts[2].clone(),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("a symmetry-broken count")
            && err.contains("a plain count (--no-symmetry)")
            && err.contains("never mix"),
        "{err}"
    );
    let (code, _, err) = merge(&[
        broken_parts[0].clone(),
        plain_parts[1].clone(),
        broken_parts[2].clone(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("never mix"), "{err}");
}
