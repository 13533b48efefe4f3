//! Azul's hostile inputs: `azul check` reads through the host's capped
//! reader (issue 23: a FIFO, `/dev/zero`, a 100 MB record), refuses every
//! record that is not a complete, legal game at its line (issue 22), runs
//! outside a project; bad seats are bad usage (exit 2).

use std::fmt::Write as _;
use std::path::Path;

use super::Case;
use crate::hostile::harness::{normalise, tessera};
use crate::hostile::{Maxima, assert_sane, project, write};

/// A real record: easy against easy, seed 5, written by the binary.
fn record(dir: &Path) -> String {
    let run = tessera(
        dir,
        &[
            "play",
            "azul",
            "--ai-only",
            "--seat",
            "ai:easy",
            "--seat",
            "ai:easy",
            "--seed",
            "5",
            "--record",
            "game.jsonl",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.output());
    std::fs::read_to_string(dir.join("game.jsonl")).expect("the record")
}

/// Rewrites the record with `edit` applied to its lines.
fn tamper(dir: &Path, edit: fn(&mut Vec<String>)) {
    let mut lines: Vec<String> = record(dir).lines().map(str::to_string).collect();
    edit(&mut lines);
    write(dir, "game.jsonl", lines.join("\n") + "\n");
}

fn first(lines: &[String], what: &str) -> usize {
    lines
        .iter()
        .position(|l| l.contains(what))
        .expect("the event")
}

const CHECK: &[&str] = &["azul", "check", "game.jsonl"];

const AZUL_CASES: &[Case] = &[
    // --- Input rules: the host's one capped reader ---
    Case {
        name: "azul_check_fifo",
        setup: |d| {
            let path =
                std::ffi::CString::new(d.join("game.jsonl").display().to_string()).expect("path");
            // SAFETY: a valid C string; mkfifo only creates a file.
            assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
        },
        args: CHECK,
        code: 1,
        expect: "not a regular file",
    },
    Case {
        name: "azul_check_dev_zero",
        setup: |d| std::os::unix::fs::symlink("/dev/zero", d.join("game.jsonl")).expect("link"),
        args: CHECK,
        code: 1,
        expect: "not a regular file",
    },
    Case {
        name: "azul_check_100_mb_record",
        setup: |d| {
            let file = std::fs::File::create(d.join("game.jsonl")).expect("file");
            file.set_len(100 * 1024 * 1024).expect("sparse file");
        },
        args: CHECK,
        code: 1,
        expect: "over the 16 MiB limit",
    },
    // --- Records that are not games ---
    Case {
        name: "azul_check_empty_record",
        setup: |d| {
            write(d, "game.jsonl", "");
        },
        args: CHECK,
        code: 1,
        expect: "game.jsonl:1: the record is empty",
    },
    Case {
        name: "azul_check_truncated_record",
        setup: |d| tamper(d, |lines| lines.truncate(10)),
        args: CHECK,
        code: 1,
        expect: "game.jsonl:11: the record ends here, before the game's end",
    },
    Case {
        name: "azul_check_changed_score",
        setup: |d| {
            tamper(d, |lines| {
                let at = first(lines, "\"tiling\"");
                lines[at] = lines[at].replace("\"scores\":[", "\"scores\":[1");
            });
        },
        args: CHECK,
        code: 1,
        expect: "recorded, the rules give",
    },
    Case {
        name: "azul_check_illegal_move",
        setup: |d| {
            tamper(d, |lines| {
                let at = first(lines, "\"move\"");
                lines[at] = "{\"event\":\"move\",\"player\":1,\"source\":9,\"colour\":\"blue\",\
                             \"line\":1}"
                    .into();
            });
        },
        args: CHECK,
        code: 1,
        expect: "illegal move: there is no factory 9",
    },
    Case {
        name: "azul_check_fifth_tile_in_a_factory",
        setup: |d| {
            tamper(d, |lines| {
                let at = first(lines, "\"deal\"");
                lines[at] = lines[at].replacen(']', ",2]", 1);
            });
        },
        args: CHECK,
        code: 1,
        expect: "factory 1 holds 5 tiles; a factory holds 4",
    },
    Case {
        name: "azul_check_duplicated_tiling",
        setup: |d| {
            tamper(d, |lines| {
                let at = first(lines, "\"tiling\"");
                let copy = lines[at].clone();
                lines.insert(at + 1, copy);
            });
        },
        args: CHECK,
        code: 1,
        expect: "already recorded the round's tiling",
    },
    Case {
        name: "azul_check_missing_tiling",
        setup: |d| {
            tamper(d, |lines| {
                let at = first(lines, "\"tiling\"");
                lines.remove(at);
            });
        },
        args: CHECK,
        code: 1,
        expect: "expected the tiling of the round just played",
    },
    Case {
        name: "azul_check_missing_bonus",
        setup: |d| {
            tamper(d, |lines| {
                let at = first(lines, "\"bonus\"");
                lines.remove(at);
            });
        },
        args: CHECK,
        code: 1,
        expect: "expected the end bonuses",
    },
    Case {
        name: "azul_check_wrong_outcome",
        setup: |d| {
            tamper(d, |lines| {
                let end = lines.len() - 1;
                lines[end] = lines[end].replace("\"outcome\":\"", "\"outcome\":\"nobody: ");
            });
        },
        args: CHECK,
        code: 1,
        expect: "the scores give",
    },
    Case {
        name: "azul_check_source_of_the_wrong_type",
        setup: |d| {
            tamper(d, |lines| {
                let at = first(lines, "\"move\"");
                lines[at] = "{\"event\":\"move\",\"player\":1,\"source\":[1],\"colour\":\"blue\",\
                             \"line\":1}"
                    .into();
            });
        },
        args: CHECK,
        code: 1,
        expect: "`source` must be a factory number from 1 or \"centre\"",
    },
    Case {
        name: "azul_check_a_line_after_the_end",
        setup: |d| {
            tamper(d, |lines| {
                let deal = lines[first(lines, "\"deal\"")].clone();
                lines.push(deal);
            });
        },
        args: CHECK,
        code: 1,
        expect: "a line after the game's end",
    },
    Case {
        name: "azul_check_outside_a_project",
        setup: |d| {
            record(d);
            std::fs::remove_dir_all(d.join("scripts")).expect("scripts removed");
            std::fs::remove_dir_all(d.join("levels")).expect("levels removed");
        },
        args: CHECK,
        code: 0,
        expect: "a complete and legal game",
    },
    // --- Bad usage ---
    Case {
        name: "play_azul_unknown_ai_level_exits_2",
        setup: |_| {},
        args: &[
            "play",
            "azul",
            "--ai-only",
            "--seat",
            "ai:nosuch",
            "--seat",
            "ai:easy",
        ],
        code: 2,
        expect: "no AI level `nosuch`",
    },
    Case {
        name: "play_azul_five_seats_exits_2",
        setup: |_| {},
        args: &[
            "play",
            "azul",
            "--ai-only",
            "--seat",
            "ai:easy",
            "--seat",
            "ai:easy",
            "--seat",
            "ai:easy",
            "--seat",
            "ai:easy",
            "--seat",
            "ai:easy",
        ],
        code: 2,
        expect: "played by 2 to 4",
    },
];

#[test]
fn every_azul_reproducer() {
    let mut report = String::new();
    let mut maxima = Maxima::default();
    for case in AZUL_CASES {
        let dir = project();
        (case.setup)(dir.path());
        let run = tessera(dir.path(), case.args);
        maxima.add(&run);
        if case.code != 2 {
            assert_sane(case.name, &run);
        }
        let output = normalise(&run.output(), dir.path());
        assert_eq!(
            run.code,
            Some(case.code),
            "{}: exit {:?}, expected {}:\n{output}",
            case.name,
            run.code,
            case.code
        );
        assert!(
            output.contains(case.expect),
            "{}: the output lacks `{}`:\n{output}",
            case.name,
            case.expect
        );
        let _ = writeln!(
            report,
            "## {}\n$ tessera {}\nexit {}\n{}\n",
            case.name,
            case.args.join(" "),
            case.code,
            output.lines().take(8).collect::<Vec<_>>().join("\n")
        );
    }
    eprintln!(
        "azul reproducers: {} cases, peak RSS {} KiB, longest {} ms",
        AZUL_CASES.len(),
        maxima.rss_kib,
        maxima.millis
    );
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!("reproducers_azul", report));
}
