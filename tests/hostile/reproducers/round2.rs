//! Issue 23's remaining defects (hostile input, round 2), each with its
//! reproducer: closed output pipes, one exit-code convention, hook
//! timeouts that stop the game, typed hook results, capped script tables,
//! the host's one typed settings reader (the same words for every game),
//! replays that read only inside the project, capped steps, and messages
//! that name the replay's own lines.

use std::path::Path;

use super::Case;
use crate::hostile::harness::{normalise, tessera};
use crate::hostile::{assert_sane, project, write};

/// Replaces `from` (which the shipped script must hold) in `scripts/GAME.lua`.
fn edit_script(dir: &Path, game: &str, from: &str, to: &str) {
    let path = dir.join(format!("scripts/{game}.lua"));
    let text = std::fs::read_to_string(&path).expect("shipped script");
    assert!(text.contains(from), "scripts/{game}.lua has `{from}`");
    write(
        dir,
        &format!("scripts/{game}.lua"),
        text.replacen(from, to, 1),
    );
}

/// `levels/azul/x.ron`: the shipped opening-lines scenario with `from`
/// replaced by `to`.
fn azul_scenario(dir: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(dir.join("levels/azul/opening_lines.ron"))
        .expect("shipped scenario");
    assert!(text.contains(from), "opening_lines.ron has `{from}`");
    write(dir, "levels/azul/x.ron", text.replacen(from, to, 1));
}

/// The shipped Tetris gravity table, to replace.
const FALL_SECONDS: &str =
    "fall_seconds = { 2.0, 1.6, 1.3, 1.05, 0.85, 0.7, 0.55, 0.42, 0.3, 0.2 },";

/// A real replay (sand, two random moves), saved by the binary.
fn sand_replay(dir: &Path) -> String {
    let run = tessera(
        dir,
        &[
            "play",
            "sand",
            "--seed",
            "3",
            "--random-play",
            "2",
            "--save-replay",
            "game.replay.ron",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.output());
    std::fs::read_to_string(dir.join("game.replay.ron")).expect("the replay")
}

/// The replay with `edit` applied to its text.
fn tampered_replay(dir: &Path, edit: impl Fn(&str) -> String) {
    let text = sand_replay(dir);
    write(dir, "game.replay.ron", edit(&text));
}

/// The replay's steps list replaced by `steps` (RON entries, joined).
fn with_steps(text: &str, steps: &str) -> String {
    let start = text.find("steps: [").expect("steps") + "steps: [".len();
    format!("{}\n{steps}\n    ],\n)\n", &text[..start])
}

/// The replay naming `path` as its level file.
fn with_level_path(text: &str, path: &str) -> String {
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with("level_path:") {
                format!("    level_path: Some({path:?}),")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A Lua string literal of `source` as RON writes it.
fn ron_string(source: &str) -> String {
    format!("{source:?}")
}

const REPLAY: &[&str] = &["replay", "game.replay.ron"];

const ROUND2_CASES: &[Case] = &[
    // --- Exit codes: options a game refuses beyond its spec are usage ---
    Case {
        name: "feed_mode_first_seat_not_a_feeder_exits_2",
        setup: |_| {},
        args: &[
            "play", "tetris", "--mode", "feed", "--ai", "god", "--feeder", "god",
        ],
        code: 2,
        expect: "feed mode's first seat feeds pieces",
    },
    Case {
        name: "classic_tetris_with_two_seats_exits_2",
        setup: |_| {},
        args: &[
            "play",
            "tetris",
            "--mode",
            "classic",
            "--seat",
            "human",
            "--seat",
            "human",
            "--random-play",
            "1",
        ],
        code: 2,
        expect: "played by one seat",
    },
    Case {
        name: "feed_mode_with_one_seat_exits_2",
        setup: |_| {},
        args: &[
            "play",
            "tetris",
            "--mode",
            "feed",
            "--seat",
            "human",
            "--random-play",
            "1",
        ],
        code: 2,
        expect: "played by two seats",
    },
    Case {
        name: "classic_seat_naming_a_feeder_exits_2",
        setup: |_| {},
        args: &[
            "play",
            "tetris",
            "--mode",
            "classic",
            "--seat",
            "ai:hate",
            "--random-play",
            "1",
        ],
        code: 2,
        expect: "is a feeder",
    },
    Case {
        name: "unknown_ai_seat_exits_2",
        setup: |_| {},
        args: &["play", "sand", "--seat", "ai:nosuch", "--random-play", "1"],
        code: 2,
        expect: "ai:nosuch",
    },
    Case {
        name: "unknown_mode_exits_2",
        setup: |_| {},
        args: &["play", "tetris", "--mode", "nosuch", "--random-play", "1"],
        code: 2,
        expect: "mode `nosuch` does not exist",
    },
    Case {
        name: "sim_unknown_game_exits_2",
        setup: |_| {},
        args: &["sim", "nosuch", "--games", "1"],
        code: 2,
        expect: "tessera:",
    },
    // --- Hook timeouts stop the game; hook results are typed ---
    Case {
        name: "tetris_score_never_returns",
        setup: |d| {
            edit_script(
                d,
                "tetris",
                "score = function(lines, level)\n",
                "score = function(lines, level)\n    while true do end\n",
            )
        },
        args: &["play", "tetris", "--ai", "god"],
        code: 1,
        expect: "`score` stopped: ran past its time budget of 250 ms (an endless loop?); the game stops here",
    },
    Case {
        name: "tetris_won_never_returns",
        setup: |d| {
            edit_script(
                d,
                "tetris",
                "won = function(score, level, lines)\n",
                "won = function(score, level, lines)\n    while true do end\n",
            )
        },
        args: &["play", "tetris", "--ai", "god"],
        code: 1,
        expect: "scripts/tetris.lua:55: `won` stopped",
    },
    Case {
        name: "tetris_won_returns_a_table",
        setup: |d| edit_script(d, "tetris", "return score >= 9000", "return {}"),
        args: &["play", "tetris", "--ai", "god", "--max-moves", "300"],
        code: 1,
        expect: "scripts/tetris.lua:54: `won` returned a table, not a boolean (true or false)",
    },
    // --- Script tables are capped; numbers that mean nothing refused ---
    Case {
        name: "fall_seconds_1e300",
        setup: |d| edit_script(d, "tetris", FALL_SECONDS, "fall_seconds = { 1e300 },"),
        args: &["check", "scripts/tetris.lua"],
        code: 1,
        expect: "scripts/tetris.lua:16: `fall_seconds[1]` must be 0.001 to 60, not 1e300",
    },
    Case {
        name: "fall_seconds_of_200000_levels",
        setup: |d| {
            edit_script(
                d,
                "tetris",
                FALL_SECONDS,
                "fall_seconds = (function() local t = {} for i = 1, 200000 do t[i] = 1 end return t end)(),",
            )
        },
        args: &["check", "scripts/tetris.lua"],
        code: 1,
        expect: "`fall_seconds` holds over 100 entries, at most 100",
    },
    Case {
        name: "ten_thousand_difficulties_in_games_details",
        setup: |d| {
            edit_script(
                d,
                "tetris",
                "    difficulties = {\n",
                "    difficulties = (function() local t = {} for i = 1, 10000 do t[i] = { name = \"D\" .. i } end return t end)() or {\n",
            )
        },
        args: &["games", "--details"],
        code: 0,
        expect: "`ai.difficulties` holds over 64 entries, at most 64",
    },
    Case {
        name: "two_hundred_thousand_feed_specials",
        setup: |d| {
            edit_script(
                d,
                "tetris",
                "feed = { specials = { \"X\", \"U\", \"W\", \"V\" } },",
                "feed = { specials = (function() local t = {} for i = 1, 200000 do t[i] = \"X\" end return t end)() },",
            )
        },
        args: &[
            "play", "tetris", "--mode", "feed", "--ai", "god", "--feeder", "hate",
        ],
        code: 1,
        expect: "`feed.specials` holds over 8 entries, at most 8",
    },
    // --- One typed settings reader: the same words for every game ---
    Case {
        name: "sand_slots_out_of_range",
        setup: |d| edit_script(d, "sand", "slots = 3,", "slots = 12,"),
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "`slots` must be 1 to 8, not 12",
    },
    Case {
        name: "tetris_preview_out_of_range",
        setup: |d| edit_script(d, "tetris", "preview = 1,", "preview = 9,"),
        args: &["check", "scripts/tetris.lua"],
        code: 1,
        expect: "`preview` must be 1 to 5, not 9",
    },
    Case {
        name: "azul_tiles_per_factory_refused_not_clamped",
        setup: |d| {
            edit_script(
                d,
                "azul",
                "tiles_per_factory = 4,",
                "tiles_per_factory = 9,",
            )
        },
        args: &["check", "scripts/azul.lua"],
        code: 1,
        expect: "`tiles_per_factory` must be 1 to 4, not 9",
    },
    Case {
        name: "azul_expert_nodes_beyond_memory",
        setup: |d| edit_script(d, "azul", "max_nodes = 4000000,", "max_nodes = 100000000,"),
        args: &["check", "scripts/azul.lua"],
        code: 1,
        expect: "`expert.max_nodes` must be 10000 to 4000000, not 100000000",
    },
    Case {
        name: "azul_colour_letter_of_a_word",
        setup: |d| edit_script(d, "azul", "letter = \"B\"", "letter = \"blue\""),
        args: &["check", "scripts/azul.lua"],
        code: 1,
        expect: "`colours[1].letter` must be one letter, not \"blue\"",
    },
    Case {
        name: "azul_switch_that_is_not_a_boolean",
        setup: |d| edit_script(d, "azul", "grey_wall = false,", "grey_wall = \"yes\","),
        args: &["check", "scripts/azul.lua"],
        code: 1,
        expect: "scripts/azul.lua:",
    },
    // --- Replays read only inside the project ---
    Case {
        name: "replay_level_path_etc_passwd",
        setup: |d| tampered_replay(d, |t| with_level_path(t, "/etc/passwd")),
        args: &["replay", "game.replay.ron", "--level", "current"],
        code: 1,
        expect: "game.replay.ron:8:",
    },
    Case {
        name: "replay_level_path_up_and_out",
        setup: |d| tampered_replay(d, |t| with_level_path(t, "../secret.txt")),
        args: &["replay", "game.replay.ron", "--level", "current"],
        code: 1,
        expect: "a replay names levels inside the project only",
    },
    Case {
        name: "replay_level_path_through_a_link_out",
        setup: |d| {
            std::os::unix::fs::symlink("/etc/passwd", d.join("levels/sand/out.ron")).expect("link");
            tampered_replay(d, |t| with_level_path(t, "levels/sand/out.ron"))
        },
        args: &["replay", "game.replay.ron", "--level", "current"],
        code: 1,
        expect: "leads out of the project",
    },
    // --- Memory: counts capped while parsing ---
    Case {
        name: "action_file_of_300000_actions",
        setup: |d| {
            let actions = vec!["Tick(1)"; 300_000].join(",");
            write(d, "actions.ron", format!("[\n{actions}\n]\n"));
        },
        args: &["play", "sand", "--actions", "actions.ron"],
        code: 1,
        expect: "actions.ron:2:",
    },
    Case {
        name: "replay_of_300000_steps",
        setup: |d| {
            tampered_replay(d, |t| with_steps(t, &vec!["Tick(1)"; 300_000].join(",\n")));
        },
        args: REPLAY,
        code: 1,
        expect: "more than 250000 entries",
    },
    // --- Replays: reloads, hashes, inline levels named at their lines ---
    Case {
        name: "replay_of_reloads_that_loop",
        setup: |d| {
            let looping = ron_string("while true do end\nreturn {}\n");
            let steps = vec![format!("Reload({looping})"); 40].join(",\n");
            tampered_replay(d, |t| with_steps(t, &steps));
        },
        args: REPLAY,
        code: 1,
        expect: "this recorded script reload does not load",
    },
    Case {
        name: "replay_of_a_hundred_and_one_reloads",
        setup: |d| {
            let source = std::fs::read_to_string(d.join("scripts/sand.lua")).expect("script");
            let steps = vec![format!("Reload({})", ron_string(&source)); 101].join(",\n");
            tampered_replay(d, |t| with_steps(t, &steps));
        },
        args: REPLAY,
        code: 1,
        expect: "101 script reloads; a replay holds at most 100",
    },
    Case {
        name: "replay_hash_not_its_script",
        setup: |d| {
            tampered_replay(d, |t| t.replacen("hash: \"sha256:", "hash: \"sha256:00", 1));
        },
        args: REPLAY,
        code: 1,
        expect: "game.replay.ron:18:",
    },
    Case {
        name: "replay_recorded_script_error_names_the_replay",
        setup: |d| {
            let text = sand_replay(d);
            let start = text.find("source: ").expect("source") + "source: ".len();
            let end = start + text[start..].find('\n').expect("end of line");
            let broken = "return { score = 1 }\n";
            let text = format!("{}{},{}", &text[..start], ron_string(broken), &text[end..]);
            let hash = format!(
                "sha256:{}",
                tessera_host::script::content_hash(broken).trim_start_matches("sha256:")
            );
            let at = text.find("hash: \"").expect("hash") + "hash: \"".len();
            let close = at + text[at..].find('"').expect("quote");
            write(
                d,
                "game.replay.ron",
                format!("{}{hash}{}", &text[..at], &text[close..]),
            );
        },
        args: REPLAY,
        code: 1,
        expect: "game.replay.ron:19:",
    },
    // --- Scenario numbers that would wrap are refused, not stored ---
    Case {
        name: "azul_scenario_score_that_would_wrap",
        setup: |d| azul_scenario(d, "boards: [(), ()],", "boards: [(score: 2147483647), ()],"),
        args: &["check", "levels/azul/x.ron"],
        code: 1,
        expect: "levels/azul/x.ron:11:",
    },
    Case {
        name: "azul_scenario_score_that_would_wrap_refused_by_play_too",
        setup: |d| azul_scenario(d, "boards: [(), ()],", "boards: [(score: 2147483647), ()],"),
        args: &["play", "azul", "--level", "levels/azul/x.ron", "--ai-only"],
        code: 1,
        expect: "player 1: a score is 0 to 100000 (it is 2147483647)",
    },
    Case {
        name: "azul_scenario_round_that_would_wrap",
        setup: |d| azul_scenario(d, "round: 1,", "round: 65535,"),
        args: &["check", "levels/azul/x.ron"],
        code: 1,
        expect: "`round` counts from 1 and is at most 100",
    },
    Case {
        name: "azul_scenario_goal_beyond_any_score",
        setup: |d| azul_scenario(d, "RoundScore(points: 3)", "RoundScore(points: 2147483647)"),
        args: &["check", "levels/azul/x.ron"],
        code: 1,
        expect: "the goal's points must be 1 to 100000, not 2147483647",
    },
    Case {
        name: "replay_bad_inline_level",
        setup: |d| tampered_replay(d, |t| t.replace("columns: 12,", "columns: 0,")),
        args: REPLAY,
        code: 1,
        expect: "game.replay.ron:",
    },
];

/// Round 2's report: no indented or table lines (boards) and no line of
/// `tessera games`' list, eight lines of 200 characters; no output may echo
/// a file from outside the project.
fn message_line(line: &str) -> bool {
    !line.starts_with(' ') && !line.starts_with('|') && !lists_a_game(line)
}

/// A line of `tessera games`' list (`id  Title`): which games are
/// registered is the registry's to say, so a game added to it leaves the
/// report as it is.
fn lists_a_game(line: &str) -> bool {
    tessera_builtin::registry().iter().any(|entry| {
        line.strip_prefix(entry.id)
            .is_some_and(|title| title.starts_with(' ') && title.trim() == entry.title)
    })
}

#[test]
fn every_round2_reproducer() {
    let shown = super::Shown {
        keep: message_line,
        lines: 8,
        width: 200,
        never: &["hunter2", "root:"],
    };
    let (report, maxima) = super::run_cases(ROUND2_CASES, super::in_project, &shown);
    eprintln!(
        "round 2 reproducers: {} cases, peak RSS {} KiB, longest {} ms",
        ROUND2_CASES.len(),
        maxima.rss_kib,
        maxima.millis
    );
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!("reproducers_round2", report));
}

/// Runs `tessera ARGS` with its standard output a pipe whose reader is
/// already gone, the way `tessera ... | head -1` ends.
fn into_a_closed_pipe(dir: &Path, args: &[&str]) -> (std::process::ExitStatus, String) {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: `pipe` fills two descriptors we then own; the read end is
    // closed at once, the write end handed to the child as its stdout.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    unsafe { libc::close(fds[0]) };
    let stdout = unsafe { std::process::Stdio::from_raw_fd(fds[1]) };
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(stdout)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("tessera runs");
    (
        output.status,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_closed_output_pipe_ends_every_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let dir = project();
    sand_replay(dir.path());
    let log = tessera_tetris_bot::ai::log::write(
        &tessera_tetris_bot::ai::log::DecisionInput {
            position: tessera_tetris_bot::ai::Position {
                board: tessera_tetris::board::Board::new(10, 22),
                piece: tessera_tetris::piece::PieceKind::T,
                next: None,
                rotation: tessera_tetris::piece::RotationSystem::Cycle,
                spawn_row: 0,
                danger_rows: 1,
                ceiling: Default::default(),
                reader_streak: 0,
                unknown_next: tessera_tetris_bot::ai::UnknownNext::Worst(
                    tessera_tetris::piece::PieceKind::ALL.to_vec(),
                ),
            },
            difficulty: god(),
            noise_seed: 7,
            turn: 1,
        },
        &tessera_tetris_bot::ai::Brain::new().choose(
            &tessera_tetris_bot::ai::Position {
                board: tessera_tetris::board::Board::new(10, 22),
                piece: tessera_tetris::piece::PieceKind::T,
                next: None,
                rotation: tessera_tetris::piece::RotationSystem::Cycle,
                spawn_row: 0,
                danger_rows: 1,
                ceiling: Default::default(),
                reader_streak: 0,
                unknown_next: tessera_tetris_bot::ai::UnknownNext::Worst(
                    tessera_tetris::piece::PieceKind::ALL.to_vec(),
                ),
            },
            &god(),
            7,
        ),
        5,
    );
    write(dir.path(), "god.log", log);
    for args in [
        &["games", "--details"][..],
        &["replay", "game.replay.ron"],
        &["tetris", "explain", "god.log"],
        &["check", "levels"],
        &["play", "sand", "--random-play", "3", "--render"],
    ] {
        let (status, stderr) = into_a_closed_pipe(dir.path(), args);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{args:?}: not quiet:\n{stderr}"
        );
        assert!(
            status.code() == Some(0) || status.signal() == Some(libc::SIGPIPE),
            "{args:?}: ended with {status:?}, not 0 or SIGPIPE:\n{stderr}"
        );
    }
}

fn god() -> tessera_tetris_bot::ai::Difficulty {
    tessera_tetris_bot::ai::settings::default_difficulties()
        .into_iter()
        .find(|d| d.name == "GOD")
        .expect("GOD")
}

/// Issue 23: one Azul expert move at the script's longest think used
/// 0.5 GiB. The tree is bounded by nodes, not only by time: three seconds
/// of thinking (the longest the 5 s budget allows; the node bound caps a
/// longer think the same way) stays under the suite's 256 MiB. Not in the
/// snapshot: which move a timed think finds depends on the machine.
#[test]
fn an_azul_expert_long_think_stays_under_the_memory_limit() {
    let dir = project();
    edit_script(
        dir.path(),
        "azul",
        "    seconds = 1.0,",
        "    seconds = 3.0,",
    );
    let run = tessera(
        dir.path(),
        &[
            "play",
            "azul",
            "--seat",
            "ai:expert",
            "--seat",
            "ai:expert",
            "--ai-only",
            "--max-moves",
            "1",
        ],
    );
    assert_sane("azul_expert_long_think", &run);
    let output = normalise(&run.output(), dir.path());
    assert_eq!(run.code, Some(0), "{output}");
    assert!(
        output.contains("player 2 to move"),
        "one move was made:\n{output}"
    );
    eprintln!("azul expert, 3 s think: peak RSS {} KiB", run.max_rss_kib);
}
