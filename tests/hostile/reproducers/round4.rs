//! Issue 47's defects (hostile input, round 4), each with its reproducer:
//! a generated level's claim block edited line by line (extra words, a
//! changed number, a parenthesis, a deleted claim line), a pack counting a
//! tampered level, HATETRIS partials whose lines or moves do not replay,
//! an Azul goal seat of 0, polycube's `--repair` of a seed-JSON level, and
//! a refusal echoing a megabyte value.

use std::path::Path;

use serde_json::Value;

use super::Case;
use crate::hostile::harness::{normalise, tessera};
use crate::hostile::{Maxima, assert_sane, project, write};

/// Runs `tessera generate` in `dir` and insists it wrote.
fn generate(dir: &Path, args: &[&str]) {
    let run = tessera(dir, args);
    assert_eq!(run.code, Some(0), "{args:?}:\n{}", run.output());
}

/// A small polycube level (`solvable`) generated at `out`.
fn polycube_at(dir: &Path, out: &str) {
    generate(
        dir,
        &[
            "generate", "polycube", "--box", "2x2x3", "--pieces", "3", "--seed", "1", "--out", out,
        ],
    );
}

/// `relative` with its line `number` (1-based) passed through `edit`.
fn edit_line(dir: &Path, relative: &str, number: usize, edit: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(dir.join(relative)).expect("generated level");
    let edited: String = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            if i + 1 == number {
                format!("{}\n", edit(line))
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    assert_ne!(edited, text, "{relative}: line {number} changed");
    write(dir, relative, edited);
}

/// `line` with its last digit made another.
fn other_last_digit(line: &str) -> String {
    let Some(at) = line.rfind(|c: char| c.is_ascii_digit()) else {
        return format!("{line} 1");
    };
    let other = if &line[at..=at] == "9" { "8" } else { "9" };
    format!("{}{other}{}", &line[..at], &line[at + 1..])
}

/// Both shards of a one-board-wide offline HATETRIS search (a greedy
/// line: quick), written as `h1.json` and `h2.json`, the first edited.
fn hatetris_shards(dir: &Path, edit: impl Fn(&mut Value)) {
    let shard = |index: &str| {
        let run = tessera(
            dir,
            &[
                "tetris",
                "hatetris",
                "--offline",
                "--width",
                "1",
                "--max-width",
                "1",
                "--shard",
                index,
            ],
        );
        assert_eq!(run.code, Some(0), "{}", run.output());
        let text = run.stdout.lines().last().unwrap_or_default().to_string();
        serde_json::from_str::<Value>(&text).expect("a partial")
    };
    let mut first = shard("1/2");
    edit(&mut first);
    write(dir, "h1.json", first.to_string());
    write(dir, "h2.json", shard("2/2").to_string());
}

/// `levels/sand/huge.ron`: a tray of one 1 MiB piece string.
fn huge_tray(dir: &Path) {
    let piece = "R".repeat(1 << 20);
    write(
        dir,
        "levels/sand/huge.ron",
        format!(
            "(\n    version: 1,\n    columns: 6,\n    rows: 6,\n    cell: 2,\n    board: [],\n    tray: [\"{piece}\"],\n    clears: 1,\n)\n"
        ),
    );
}

const ROUND4_CASES: &[Case] = &[
    // --- A claim block is proven whole ---
    Case {
        name: "polycube_claim_with_a_parenthesis",
        setup: |d| {
            polycube_at(d, "levels/polycube/g.ron");
            edit_line(d, "levels/polycube/g.ron", 2, |l| {
                format!("{l} (2 distinct packings)")
            });
        },
        args: &["check", "levels/polycube/g.ron"],
        code: 1,
        expect: "levels/polycube/g.ron:2: the claim `solvable (2 distinct packings)` no longer holds: the level now gives `solvable`",
    },
    Case {
        name: "polycube_difficulty_changed",
        setup: |d| {
            polycube_at(d, "levels/polycube/g.ron");
            edit_line(d, "levels/polycube/g.ron", 3, other_last_digit);
        },
        args: &["check", "levels/polycube/g.ron"],
        code: 1,
        expect: "levels/polycube/g.ron:3: the difficulty `",
    },
    Case {
        name: "sand_difficulty_with_extra_words",
        setup: |d| {
            generate(
                d,
                &[
                    "generate",
                    "sand",
                    "--seed",
                    "3",
                    "--out",
                    "levels/sand/g.ron",
                ],
            );
            edit_line(d, "levels/sand/g.ron", 3, |l| format!("{l}, honestly"));
        },
        args: &["check", "levels/sand/g.ron"],
        code: 1,
        expect: "levels/sand/g.ron:3: the difficulty `",
    },
    Case {
        name: "tetris_generated_by_with_extra_words",
        setup: |d| {
            generate(
                d,
                &[
                    "generate",
                    "tetris",
                    "--lines",
                    "1",
                    "--pieces",
                    "2",
                    "--seed",
                    "1",
                    "--out",
                    "levels/tetris/g.ron",
                ],
            );
            edit_line(d, "levels/tetris/g.ron", 1, |l| format!("{l} by hand"));
        },
        args: &["check", "levels/tetris/g.ron"],
        code: 1,
        expect: "levels/tetris/g.ron:1: the `generated by` line `",
    },
    Case {
        name: "generated_level_without_its_claim_line_outside_levels",
        setup: |d| {
            polycube_at(d, "made.ron");
            edit_line(d, "made.ron", 2, |_| "//".into());
        },
        args: &["check", "made.ron"],
        code: 1,
        expect: "made.ron:1: the claim block lacks its `// claim:` line",
    },
    // --- A pack re-proves what it counts ---
    Case {
        name: "pack_does_not_count_a_tampered_level",
        setup: |d| {
            generate(
                d,
                &[
                    "generate",
                    "polycube",
                    "--box",
                    "2x2x3",
                    "--pieces",
                    "3",
                    "--count",
                    "1",
                    "--out-dir",
                    "pack",
                ],
            );
            let name = std::fs::read_dir(d.join("pack"))
                .expect("the pack")
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .next()
                .expect("one level");
            edit_line(d, &format!("pack/{name}"), 3, other_last_digit);
        },
        args: &[
            "generate",
            "polycube",
            "--box",
            "2x2x3",
            "--pieces",
            "3",
            "--count",
            "2",
            "--out-dir",
            "pack",
        ],
        code: 0,
        expect: "not counted (its claim does not re-prove): pack/",
    },
    // --- HATETRIS partials replay before merge trusts them ---
    Case {
        name: "merge_hatetris_lines_its_moves_do_not_clear",
        setup: |d| hatetris_shards(d, |p| p["result"]["lines"] = Value::from(999)),
        args: &["merge", "h1.json", "h2.json"],
        code: 1,
        expect: "result.lines is 999, but its moves clear",
    },
    Case {
        name: "merge_hatetris_move_outside_the_well",
        setup: |d| {
            hatetris_shards(d, |p| {
                p["result"]["moves"][0] = serde_json::json!([99, 9, 99]);
            });
        },
        args: &["merge", "h1.json", "h2.json"],
        code: 1,
        expect: "result.moves does not replay through the game: move 1 ([99,9,99]): ",
    },
    Case {
        name: "merge_hatetris_move_not_a_move",
        setup: |d| {
            hatetris_shards(d, |p| {
                p["result"]["moves"][0] = serde_json::json!([1, 300, 2]);
            });
        },
        args: &["merge", "h1.json", "h2.json"],
        code: 1,
        expect: "result.moves[0] ([1,300,2]) is not a move [x, rotation, y]",
    },
    // --- Smaller ---
    Case {
        name: "azul_win_seat_zero",
        setup: |d| {
            let text = std::fs::read_to_string(d.join("levels/azul/endgame_win.ron"))
                .expect("shipped level");
            assert!(text.contains("goal: Win(seat: 1),"));
            write(
                d,
                "levels/azul/x.ron",
                text.replace("goal: Win(seat: 1),", "goal: Win(seat: 0),"),
            );
        },
        args: &["check", "levels/azul/x.ron"],
        code: 1,
        expect: "levels/azul/x.ron:7:5: the goal's seat counts from 1 (player 1), not 0",
    },
    Case {
        name: "repair_reads_a_seed_json_level",
        setup: |_| {},
        args: &[
            "generate",
            "polycube",
            "--repair",
            "levels/polycube/sandwich.json",
            "--out",
            "one.ron",
        ],
        code: 0,
        expect: "wrote one.ron",
    },
    Case {
        name: "sand_tray_of_a_megabyte_is_quoted_in_part",
        setup: huge_tray,
        args: &["check", "levels/sand/huge.ron"],
        code: 1,
        expect: "…[1,048,576 characters]",
    },
];

/// Round 4's report: the messages and `ok` lines, four of 240 characters.
fn message_or_ok(line: &str) -> bool {
    line.starts_with("tessera:") || line.contains(": ") || line.starts_with("ok ")
}

#[test]
fn every_round4_reproducer() {
    let shown = super::Shown {
        keep: message_or_ok,
        lines: 4,
        width: 240,
        never: &[],
    };
    let (report, maxima): (String, Maxima) =
        super::run_cases(ROUND4_CASES, super::in_project, &shown);
    eprintln!(
        "round 4 reproducers: {} cases, peak RSS {} KiB, longest {} ms",
        ROUND4_CASES.len(),
        maxima.rss_kib,
        maxima.millis
    );
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!("reproducers_round4", report));
}

/// A refusal of a megabyte value is a few lines, not a megabyte: the
/// echo is cut where findings are shown.
#[test]
fn a_refusal_of_a_megabyte_value_stays_short() {
    let dir = project();
    huge_tray(dir.path());
    let run = tessera(dir.path(), &["check", "levels/sand/huge.ron"]);
    assert_sane("huge_tray", &run);
    let output = normalise(&run.output(), dir.path());
    assert_eq!(run.code, Some(1), "{}", &output[..output.len().min(2000)]);
    assert!(output.len() < 4096, "{} bytes of output", output.len());
    assert!(output.contains("levels/sand/huge.ron:"), "{output}");
}
