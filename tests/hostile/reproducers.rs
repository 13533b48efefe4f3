//! Every reproducer of issue 11, with the exit code and words it must give.

use std::fmt::Write as _;
use std::path::Path;

use crate::hostile::harness::{normalise, tessera};
use crate::hostile::{Maxima, assert_sane, project, write};

/// One reproducer: files to set up, the command, the expected exit code
/// and a phrase the output must hold.
struct Case {
    name: &'static str,
    setup: fn(&Path),
    args: &'static [&'static str],
    code: i32,
    expect: &'static str,
}

fn sand_script(dir: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(dir.join("scripts/sand.lua")).expect("shipped script");
    assert!(text.contains(from), "the shipped script has `{from}`");
    write(dir, "scripts/sand.lua", text.replacen(from, to, 1));
}

fn symlink(target: &str, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

const PALETTE_RED: &str = r#"{ name = "red",    letter = "R", rgb = { 220,  60,  50 } },"#;

/// Hangs, memory and the one validation path.
const CASES: &[Case] = &[
    // --- Hangs ---
    Case {
        name: "two_self_links",
        setup: |d| {
            symlink(".", &d.join("levels/sand/s1"));
            symlink(".", &d.join("levels/sand/s2"));
        },
        args: &["check", "levels/sand"],
        code: 0,
        expect: "symbolic link loop",
    },
    Case {
        name: "broken_link",
        setup: |d| symlink("nowhere.ron", &d.join("levels/sand/gone.ron")),
        args: &["check", "levels/sand"],
        code: 1,
        expect: "a broken link",
    },
    Case {
        name: "fifo_level",
        setup: |d| {
            let path = std::ffi::CString::new(d.join("levels/sand/pipe.ron").display().to_string())
                .expect("path");
            // SAFETY: a valid C string; mkfifo only creates a file.
            assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
        },
        args: &["check", "levels/sand/pipe.ron"],
        code: 1,
        expect: "not a regular file",
    },
    Case {
        name: "dev_zero_level",
        setup: |d| symlink("/dev/zero", &d.join("levels/sand/zero.ron")),
        args: &["check", "levels/sand"],
        code: 1,
        expect: "not a regular file",
    },
    Case {
        name: "solve_one_piece_of_64_cubed",
        setup: |d| {
            let mut cells = Vec::with_capacity(64 * 64 * 64);
            for x in 0..64 {
                for y in 0..64 {
                    for z in 0..64 {
                        cells.push(format!("[{x},{y},{z}]"));
                    }
                }
            }
            let json = format!(
                r#"{{"box": [64, 64, 64], "pieces": [[{}]]}}"#,
                cells.join(",")
            );
            write(d, "big.json", json);
        },
        args: &["solve", "big.json"],
        code: 1,
        expect: "big.json:1",
    },
    Case {
        name: "palette_index_loops_forever",
        setup: |d| {
            sand_script(
                d,
                PALETTE_RED,
                "setmetatable({}, { __index = function() while true do end end }),",
            )
        },
        args: &["check", "scripts/sand.lua"],
        code: 1,
        // Settings are read raw: the metatable's loop never runs.
        expect: "scripts/sand.lua:10: missing `palette[1].name`",
    },
    Case {
        name: "palette_index_loops_forever_play",
        setup: |d| {
            sand_script(
                d,
                PALETTE_RED,
                "setmetatable({}, { __index = function() while true do end end }),",
            )
        },
        args: &["play", "sand", "--random-play", "1"],
        code: 1,
        expect: "scripts/sand.lua:10: missing `palette[1].name`",
    },
    Case {
        name: "tick_u32_max",
        setup: |d| {
            write(d, "actions.ron", "[Tick(4294967295)]");
        },
        args: &["play", "sand", "--actions", "actions.ron"],
        code: 0,
        expect: "outcome: playing",
    },
    Case {
        name: "top_level_prints_60_mib_1000_times",
        setup: |d| {
            sand_script(
                d,
                "return {",
                "for i = 1, 1000 do print(string.rep(\"x\", 60 * 1024 * 1024)) end\nreturn {",
            )
        },
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:",
    },
    Case {
        name: "top_level_prints_60_mib_20_times",
        setup: |d| {
            sand_script(
                d,
                "return {",
                "for i = 1, 20 do print(string.rep(\"x\", 60 * 1024 * 1024)) end\nreturn {",
            )
        },
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:6: out of memory",
    },
    Case {
        name: "few_slow_iterations_stop_at_the_budget",
        setup: |d| {
            sand_script(
                d,
                "return {",
                "local s = string.rep(\"a\", 300)\nfor i = 1, 20 do s:find(\"a-a-a-b\") end\nreturn {",
            )
        },
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:7: stopped: ran past its time budget of 500 ms",
    },
    Case {
        name: "watch_without_scripts_or_levels",
        setup: |d| {
            std::fs::create_dir_all(d.join("empty")).expect("folder");
        },
        args: &["watch", "empty"],
        code: 1,
        expect: "nothing to watch",
    },
    // --- Memory ---
    Case {
        name: "hook_prints_lines_over_the_memory_limit",
        setup: |d| {
            sand_script(
                d,
                "on_settle = function(score) end,",
                "on_settle = function(score) for i = 1, 1000 do print(string.rep(\"y\", 96 * 1024 * 1024)) end end,",
            )
        },
        args: &["play", "sand", "--random-play", "2"],
        // The first 96 MiB line is over the 64 MiB limit: out of memory at
        // once, never a race with the time budget (16 MiB lines made the
        // outcome depend on the machine's load, and so the snapshot).
        code: 1,
        expect: "scripts/sand.lua:44: ",
    },
    Case {
        name: "table_literal_of_17_mb",
        setup: |d| {
            let mut text = String::from("return { score = function() return 1 end, data = {");
            while text.len() < 16_900_000 {
                text.push_str("1234567,");
            }
            text.push_str("} }\n");
            write(d, "scripts/sand.lua", text);
        },
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "over the 2 MiB limit",
    },
    Case {
        name: "script_of_50_mb",
        setup: |d| {
            let mut text = String::with_capacity(50_000_100);
            while text.len() < 50_000_000 {
                text.push_str("-- padding padding padding padding padding padding\n");
            }
            text.push_str("return { score = function() return 1 end }\n");
            write(d, "scripts/sand.lua", text);
        },
        args: &["play", "sand", "--random-play", "1"],
        code: 1,
        expect: "over the 2 MiB limit",
    },
    // --- One validation path ---
    Case {
        name: "board_letter_not_in_palette",
        setup: |d| {
            write(
                d,
                "levels/sand/x.ron",
                "(\n  version: 1,\n  columns: 4,\n  rows: 2,\n  board: [\n    \"RRXR\",\n  ],\n)\n",
            );
        },
        args: &["check", "levels/sand/x.ron"],
        code: 1,
        expect: "levels/sand/x.ron:6:5:",
    },
    Case {
        name: "board_letter_not_in_palette_play",
        setup: |d| {
            write(
                d,
                "levels/sand/x.ron",
                "(\n  version: 1,\n  columns: 4,\n  rows: 2,\n  board: [\n    \"RRXR\",\n  ],\n)\n",
            );
        },
        args: &[
            "play",
            "sand",
            "--level",
            "levels/sand/x.ron",
            "--random-play",
            "1",
        ],
        code: 1,
        expect: "levels/sand/x.ron:6:5:",
    },
    Case {
        name: "palette_of_0_colours",
        setup: |d| {
            let text = std::fs::read_to_string(d.join("scripts/sand.lua")).expect("script");
            let start = text.find("palette = {").expect("palette");
            let end = start + text[start..].find("\n  },").expect("end") + 5;
            write(
                d,
                "scripts/sand.lua",
                format!("{}palette = {{}},{}", &text[..start], &text[end..]),
            );
        },
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:9: `palette` must hold 1 to 8 colours, it holds 0",
    },
    Case {
        name: "palette_of_9_colours",
        setup: |d| {
            let nine: String = "ABCDEFGHI"
                .chars()
                .map(|c| format!("{{ name = \"{c}\", letter = \"{c}\", rgb = {{ 1, 2, 3 }} }},\n"))
                .collect();
            let text = std::fs::read_to_string(d.join("scripts/sand.lua")).expect("script");
            let start = text.find("palette = {").expect("palette");
            let end = start + text[start..].find("\n  },").expect("end") + 5;
            write(
                d,
                "scripts/sand.lua",
                format!("{}palette = {{\n{nine}}},{}", &text[..start], &text[end..]),
            );
        },
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:9: `palette` holds over 8 entries, at most 8",
    },
    Case {
        name: "rgb_1_5",
        setup: |d| sand_script(d, "rgb = { 220,  60,  50 }", "rgb = { 1.5,  60,  50 }"),
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:10: `palette[1].rgb[1]` must be a whole number, found 1.5",
    },
    Case {
        name: "slots_0",
        setup: |d| sand_script(d, "slots = 3", "slots = 0"),
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:20: `slots` must be 1 to 8, not 0",
    },
    Case {
        name: "slots_1e300",
        setup: |d| sand_script(d, "slots = 3", "slots = 1e300"),
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:20: `slots` must be 1 to 8, not 1e300",
    },
    Case {
        name: "ticks_per_second_0",
        setup: |d| sand_script(d, "ticks_per_second = 60", "ticks_per_second = 0"),
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:23: `ticks_per_second` must be 1 to 10000, not 0",
    },
    Case {
        name: "ticks_per_second_nan",
        setup: |d| sand_script(d, "ticks_per_second = 60", "ticks_per_second = 0/0"),
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:23: `ticks_per_second` must be 1 to 10000, not nan",
    },
    Case {
        name: "palette_with_a_nil_hole",
        setup: |d| {
            sand_script(
                d,
                r#"{ name = "blue",   letter = "B", rgb = {  50, 110, 220 } },"#,
                "nil,",
            )
        },
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:9: `palette` has a hole",
    },
    Case {
        name: "script_game_nosuchgame",
        setup: |d| {
            write(
                d,
                "scripts/mine.lua",
                "return {\n  game = \"nosuchgame\",\n}\n",
            );
        },
        args: &["check", "scripts/mine.lua"],
        code: 1,
        expect: "scripts/mine.lua:2: unknown game `nosuchgame`",
    },
    Case {
        name: "json_level_checks_like_solve",
        setup: |d| {
            write(
                d,
                "levels/polycube/two.json",
                r#"{"box": {"A": 2, "B": 1, "C": 1}, "pieces": [{"id": "A", "localVoxels": [[0,0,0]]}, {"id": "B", "localVoxels": [[0,0,0]]}]}"#,
            );
        },
        args: &["check", "levels/polycube"],
        code: 0,
        expect: "ok levels/polycube/two.json",
    },
    Case {
        name: "check_from_inside_the_level_folder",
        setup: |_| {},
        args: &["check", "../polycube/soma.ron"],
        code: 0,
        expect: "ok ../polycube/soma.ron",
    },
];

/// The writes: checked before the work, not after it.
const WRITE_CASES: &[Case] = &[
    // --- Writes: checked before the work, not after it ---
    Case {
        name: "save_replay_into_a_missing_folder",
        setup: |_| {},
        args: &[
            "play",
            "sand",
            "--random-play",
            "1",
            "--save-replay",
            "nowhere/game.replay.ron",
        ],
        code: 1,
        expect: "cannot write: no folder nowhere",
    },
    Case {
        name: "sim_csv_into_a_folder",
        setup: |_| {},
        args: &[
            "sim", "tetris", "--games", "1", "--pieces", "5", "--csv", "levels",
        ],
        code: 1,
        expect: "cannot write: it is a folder",
    },
];

/// How a round's report shows each case: the lines kept, how many, how
/// wide (a script printing megabytes is cut for review), and phrases no
/// output may hold (a file outside the project echoed).
struct Shown {
    keep: fn(&str) -> bool,
    lines: usize,
    width: usize,
    never: &'static [&'static str],
}

/// Every line, as issue 11's and Azul's reports show them.
fn every_line(_: &str) -> bool {
    true
}

/// Runs each case in a fresh project (in the folder `cwd` picks), holds
/// it to its exit code, its phrase and the suite's limits, and returns the
/// report to snapshot and the peak figures.
fn run_cases<'a>(
    cases: impl IntoIterator<Item = &'a Case>,
    cwd: fn(&Case, &Path) -> std::path::PathBuf,
    shown: &Shown,
) -> (String, Maxima) {
    let mut report = String::new();
    let mut maxima = Maxima::default();
    for case in cases {
        let dir = project();
        (case.setup)(dir.path());
        let run = tessera(&cwd(case, dir.path()), case.args);
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
        for phrase in shown.never {
            assert!(
                !output.contains(phrase),
                "{}: the output holds `{phrase}`:\n{output}",
                case.name
            );
        }
        let text: String = output
            .lines()
            .filter(|line| (shown.keep)(line))
            .take(shown.lines)
            .map(|line| line.chars().take(shown.width).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n");
        let _ = writeln!(
            report,
            "## {}\n$ tessera {}\nexit {}\n{text}\n",
            case.name,
            case.args.join(" "),
            case.code
        );
    }
    (report, maxima)
}

/// A case's own project folder.
fn in_project(_: &Case, dir: &Path) -> std::path::PathBuf {
    dir.to_path_buf()
}

#[test]
fn every_reproducer_of_issue_11() {
    let cases = || CASES.iter().chain(messages::CASES).chain(WRITE_CASES);
    // `check_from_inside_the_level_folder` runs in levels/polycube.
    let cwd = |case: &Case, dir: &Path| {
        if case.name == "check_from_inside_the_level_folder" {
            dir.join("levels/polycube")
        } else {
            dir.to_path_buf()
        }
    };
    let shown = Shown {
        keep: every_line,
        lines: 12,
        width: 160,
        never: &[],
    };
    let (report, maxima) = run_cases(cases(), cwd, &shown);
    eprintln!(
        "hostile reproducers: {} cases, peak RSS {} KiB, longest {} ms",
        cases().count(),
        maxima.rss_kib,
        maxima.millis
    );
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!("reproducers", report));
}

// Issue 11's message cases, in order after `CASES`: `reproducers/messages.rs`.
mod messages;

// ---------------------------------------------------------------- Azul
//
// Issue 23's Azul inputs (`azul check` through the capped reader) and
// issue 22's record refusals, in a module of their own with their own
// snapshot: `reproducers/azul.rs`.
mod azul;

// Issue 23's remaining defects (pipes, exit codes, hook timeouts, script
// table caps, the typed settings reader, replays inside the project,
// capped steps, replay messages): `reproducers/round2.rs`.
mod round2;

// Issue 36's defects (merge numbers and sums, search budgets, threads,
// check/play agreement, writes, exit codes, encodings):
// `reproducers/round3.rs`, and its held-out set of new instances.
mod round3;

// Issue 47's defects (claim blocks proven whole, packs re-proving what
// they count, HATETRIS partials replayed, seat 0, seed JSON repair, capped
// echoes): `reproducers/round4.rs`.
mod round4;

// Issue 23's `sim` reproducers (options that do not apply, huge runs that
// stream and stop on Ctrl+C): `reproducers/sim.rs`.
mod sim;

// Issue 47's job contract on its input side: outputs that are pipes or
// sockets are refused before the work, as inputs are:
// `reproducers/jobs.rs` (the Ctrl+C side is `tests/interrupt.rs`).
mod jobs;

// Issue 47's script keys: a top-level typo per game refused at its line
// with the nearest known key, by `check` and `play` alike:
// `reproducers/keys.rs`.
mod keys;
