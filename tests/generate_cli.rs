//! `tessera generate`: one level per seed that `solve --count` counts as
//! unique, a pack made in shards and merged into one folder, `check`
//! re-proving every claim, and the exit codes.

use std::path::Path;
use std::process::Command;

/// Runs `tessera` in `dir`: exit code, stdout, stderr.
fn tessera(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const UNIQUE_333: [&str; 7] = [
    "generate", "polycube", "--box", "3x3x3", "--pieces", "6", "--unique",
];

#[test]
fn ten_seeds_give_ten_distinct_levels_each_counted_as_one_packing() {
    let dir = tempfile::tempdir().unwrap();
    let mut texts = Vec::new();
    for seed in 1..=10 {
        let file = format!("u{seed}.ron");
        let seed = seed.to_string();
        let mut args = UNIQUE_333.to_vec();
        args.extend(["--seed", &seed, "--out", &file]);
        let (code, out, err) = tessera(dir.path(), &args);
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            out.starts_with(&format!("wrote {file}: unique (1 distinct packing")),
            "{out}"
        );
        let (code, json, _) = tessera(dir.path(), &["solve", &file, "--count", "--json"]);
        assert_eq!(code, 0);
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(json["distinct"], 1, "seed {seed}");
        let text = std::fs::read_to_string(dir.path().join(&file)).unwrap();
        texts.push(tessera_host::generate::level_body(&text).to_string());
    }
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), 10, "ten distinct designs");
    // Every one passes check (the game read from its generated-by line,
    // outside levels/polycube/), its claim re-proven.
    let (code, out, _) = tessera(dir.path(), &["check", "."]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out.matches("proven: unique: 1 distinct packing").count(),
        10,
        "{out}"
    );
}

#[test]
fn a_pack_made_in_shards_merges_into_one_folder() {
    let dir = tempfile::tempdir().unwrap();
    let pack = |extra: &[&str]| {
        let mut args = UNIQUE_333.to_vec();
        args.extend(["--seed", "100", "--count", "6"]);
        args.extend(extra);
        tessera(dir.path(), &args)
    };
    let (code, one, err) = pack(&["--out-dir", "a", "--shard", "1/2"]);
    assert_eq!(code, 0, "{one}{err}");
    assert!(
        one.ends_with(
            "shard 1/2: 3 of 3 levels in a (0 duplicate(s) skipped, 0 seed(s) without a level)\n"
        ),
        "{one}"
    );
    let (code, two, err) = pack(&["--out-dir", "b", "--shard", "2/2"]);
    assert_eq!(code, 0, "{two}{err}");
    // Copied together, the folders are the pack; the same command without
    // --shard on it finds every level there and makes none.
    std::fs::create_dir(dir.path().join("pack")).unwrap();
    for part in ["a", "b"] {
        for entry in std::fs::read_dir(dir.path().join(part)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(
                entry.path(),
                dir.path().join("pack").join(entry.file_name()),
            )
            .unwrap();
        }
    }
    let (code, merged, err) = pack(&["--out-dir", "pack"]);
    assert_eq!(code, 0, "{merged}{err}");
    assert!(
        merged.starts_with("pack: 6 level(s) of this pack already there\n"),
        "{merged}"
    );
    assert!(!merged.contains("wrote"), "{merged}");
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("pack"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 6);
    // Named by difficulty: `DDD.D-word-hash.ron`, so a listing reads
    // easiest first.
    for name in &names {
        let (difficulty, rest) = name.split_at(5);
        assert!(difficulty.parse::<f64>().is_ok(), "{name}");
        assert!(rest.starts_with('-') && rest.ends_with(".ron"), "{name}");
    }
    let (code, out, _) = tessera(dir.path(), &["check", "pack"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches(": proven: unique").count(), 6, "{out}");
    // A deleted level is made again from a seed not yet used.
    std::fs::remove_file(dir.path().join("pack").join(&names[0])).unwrap();
    let (code, again, _) = pack(&["--out-dir", "pack"]);
    assert_eq!(code, 0);
    assert_eq!(again.matches("wrote").count(), 1, "{again}");
}

#[test]
fn a_hand_edit_that_breaks_the_claim_is_reported_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = UNIQUE_333.to_vec();
    args.extend(["--out", "u.ron"]);
    assert_eq!(tessera(dir.path(), &args).0, 0);
    let text = std::fs::read_to_string(dir.path().join("u.ron")).unwrap();
    let header: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    let soma =
        std::fs::read_to_string(tessera_testkit::repo_path("levels/polycube/soma.ron")).unwrap();
    std::fs::write(
        dir.path().join("u.ron"),
        format!("{header}{}", tessera_host::generate::level_body(&soma)),
    )
    .unwrap();
    let (code, out, _) = tessera(dir.path(), &["check", "u.ron"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("u.ron:2: the claim `unique (1 distinct packing up to the box's symmetries)` no longer holds: a second distinct packing exists"), "{out}");
}

#[test]
fn repair_writes_a_unique_design_one_cube_away() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, _) = tessera(
        dir.path(),
        &[
            "generate", "polycube", "--box", "3x3x3", "--pieces", "6", "--seed", "9", "--out",
            "two.ron",
        ],
    );
    assert_eq!(code, 0);
    let (code, out, err) = tessera(
        dir.path(),
        &[
            "generate", "polycube", "--repair", "two.ron", "--out", "one.ron",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("wrote one.ron: the cube at ("), "{out}");
    let (_, json, _) = tessera(dir.path(), &["solve", "one.ron", "--count", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["distinct"], 1);
    // A design with no packing: one cube moved leaves exactly one.
    std::fs::write(
        dir.path().join("none.ron"),
        "(version: 1, name: \"None\", size: (2, 2, 2), pieces: [\n\
         (id: \"A\", cells: [(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1)]),\n\
         (id: \"B\", cells: [(1, 1, 1), (2, 1, 1), (1, 2, 1), (1, 1, 2)]),\n])\n",
    )
    .unwrap();
    let (code, out, err) = tessera(
        dir.path(),
        &[
            "generate",
            "polycube",
            "--repair",
            "none.ron",
            "--out",
            "fixed.ron",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("wrote fixed.ron: piece `"), "{out}");
    let (code, out, _) = tessera(dir.path(), &["check", "fixed.ron"]);
    assert_eq!(code, 0, "{out}");
    let (code, _, err) = tessera(
        dir.path(),
        &["generate", "polycube", "--repair", "missing.ron"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("missing.ron"), "{err}");
}

#[test]
fn exit_codes_say_written_not_found_and_usage() {
    let dir = tempfile::tempdir().unwrap();
    // Printed without --out: the level on stdout, the summary on stderr.
    let (code, out, err) = tessera(
        dir.path(),
        &["generate", "polycube", "--box", "2x2x2", "--pieces", "2"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("// generated by tessera: generate polycube --box 2x2x2 --pieces 2 --seed 1\n// claim: solvable\n"), "{out}");
    assert!(err.starts_with("solvable; "), "{err}");
    let (code, _, err) = tessera(dir.path(), &["generate", "polycube", "--box", "3x3"]);
    assert_eq!(code, 2);
    assert!(err.contains("--box `3x3`: write AxBxC"), "{err}");
    let (code, _, err) = tessera(
        dir.path(),
        &[
            "generate",
            "polycube",
            "--count",
            "2",
            "--out-dir",
            "p",
            "--shard",
            "3/2",
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("--shard"), "{err}");
    // Four dominoes never come down to one packing of a 2x2x2 box (no
    // cube can change hands at a fixed size): nothing found, exit 1.
    let (code, _, err) = tessera(
        dir.path(),
        &[
            "generate", "polycube", "--box", "2x2x2", "--pieces", "4", "--sizes", "2..2",
            "--unique",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no level found"), "{err}");
}
