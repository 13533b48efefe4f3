//! Issue 36's held-out set: new instances of each class of round 3 (other
//! numbers, other files, other options), written after the fixes and not
//! used while making them. The same criteria as the reproducers: the exit
//! code, a phrase of the message, and the suite's limits.

use serde_json::Value;

use super::{
    Case, azul_seats, bom, count_partial, crlf, edit, every_one_made_huge, run_cases, saved_as,
    sim_partials, utf16,
};
use crate::hostile::write;

/// The two sim shards, the second edited (round 3's cases edit the first).
fn second_shard_edited(dir: &std::path::Path, edit: impl Fn(&mut Value)) {
    let [first, mut second] = sim_partials(dir);
    edit(&mut second);
    write(dir, "s1.json", first.to_string());
    write(dir, "s2.json", second.to_string());
}

fn latin1_lua_comment(text: &str) -> Vec<u8> {
    [b"-- \xC9t\xE9\n".as_slice(), text.as_bytes()].concat()
}

fn utf16_without_mark(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

const HELD_OUT: &[Case] = &[
    // merge
    Case {
        name: "held_merge_second_shard_negative_half_second",
        setup: |d| {
            write(d, "c1.json", count_partial(1, "0.03", "5904", "124"));
            write(d, "c2.json", count_partial(2, "-0.5", "5616", "116"));
        },
        args: &["merge", "c2.json", "c1.json"],
        code: 1,
        expect: "c2.json:1:",
    },
    Case {
        name: "held_merge_sim_seconds_1e20",
        setup: |d| second_shard_edited(d, |p| p["seconds"] = Value::from(1e20)),
        args: &["merge", "s1.json", "s2.json", "--json"],
        code: 1,
        expect: "s2.json:1:",
    },
    Case {
        name: "held_merge_counts_exactly_2_pow_64",
        setup: |d| {
            let half = (1u64 << 63).to_string();
            write(d, "c1.json", count_partial(1, "1", &half, "3"));
            write(d, "c2.json", count_partial(2, "1", &half, "3"));
        },
        args: &["merge", "c1.json", "c2.json", "--json"],
        code: 1,
        expect: "does not fit in 64 bits",
    },
    Case {
        name: "held_merge_sim_second_shard_huge",
        setup: |d| second_shard_edited(d, every_one_made_huge),
        args: &["merge", "s2.json", "s1.json"],
        code: 1,
        expect: "do not fit in 64 bits",
    },
    Case {
        name: "held_merge_sim_more_wins_than_games",
        setup: |d| {
            second_shard_edited(d, |p| {
                p["result"]["tallies"][0]["players"][0]["wins_shared_by"] =
                    serde_json::json!({"1": 5})
            })
        },
        args: &["merge", "s1.json", "s2.json"],
        code: 1,
        expect: "s2.json:1:430: its result cannot be a sim's",
    },
    // search budgets
    Case {
        name: "held_god_line_beam_60000_check",
        setup: |d| {
            edit(
                d,
                "scripts/tetris.lua",
                "line_depth = 12, line_beam = 48",
                "line_depth = 12, line_beam = 60000",
            );
        },
        args: &["check", "scripts/tetris.lua"],
        code: 1,
        expect: "scripts/tetris.lua:140: GOD: a line search",
    },
    Case {
        name: "held_master_deep_and_wide_sim",
        setup: |d| {
            edit(
                d,
                "scripts/tetris.lua",
                "line_depth = 10, line_beam = 40",
                "line_depth = 40, line_beam = 50000",
            )
        },
        args: &[
            "sim", "tetris", "--mode", "feed", "--feeder", "hate", "--ai", "master", "--games",
            "1", "--pieces", "3",
        ],
        code: 1,
        expect: "over the 128 MiB budget",
    },
    Case {
        name: "held_vs_hatetris_lookahead_32_line_beam_16384",
        setup: |d| {
            edit(
                d,
                "scripts/tetris.lua",
                "lookahead = 1, beam = 3, adversary = \"height\", line_beam = 16384",
                // Against a reader of the AI: every child's board is held
                // (the search against HATETRIS now fits 32 x 16,384).
                "lookahead = 32, beam = 3, adversary = \"own\", line_depth = 0, line_beam = 16384",
            )
        },
        args: &["check", "scripts/tetris.lua"],
        code: 1,
        expect: "VS_HATETRIS: a line search of 32 plies keeping 16384 boards",
    },
    // threads
    Case {
        name: "held_solve_threads_257",
        setup: |_| {},
        args: &[
            "solve",
            "--count",
            "--threads",
            "257",
            "levels/polycube/02_three_bars.ron",
        ],
        code: 2,
        expect: "not in 1..=256",
    },
    Case {
        name: "held_sim_azul_threads_100000",
        setup: |_| {},
        args: &[
            "sim",
            "azul",
            "--seats",
            "ai:easy,ai:easy",
            "--games",
            "1",
            "--threads",
            "100000",
        ],
        code: 2,
        expect: "not in 1..=256",
    },
    // check and play agree
    Case {
        name: "held_azul_five_seats_play",
        setup: |d| azul_seats(d, "Human, Human, Human, Human, Human"),
        args: &[
            "play",
            "azul",
            "--level",
            "levels/azul/x.ron",
            "--ai-only",
            "--max-moves",
            "1",
        ],
        code: 1,
        expect: "levels/azul/x.ron:10:5: 5 seats given",
    },
    Case {
        name: "held_azul_empty_ai_level_check",
        setup: |d| azul_seats(d, r#"Ai(level: ""), Human"#),
        args: &["check", "levels/azul"],
        code: 1,
        expect: "levels/azul/x.ron:10:5:",
    },
    Case {
        name: "held_seed_json_pieces_twice",
        setup: |d| {
            write(
                d,
                "levels/polycube/twice.json",
                "{\"box\": [1, 1, 1],\n \"pieces\": [[[0, 0, 0]]],\n \"pieces\": []}",
            );
        },
        args: &["solve", "levels/polycube/twice.json"],
        code: 1,
        expect: "twice.json:3:",
    },
    Case {
        name: "held_seed_json_piece_id_twice",
        setup: |d| {
            write(
                d,
                "levels/polycube/twice.json",
                "{\"box\": {\"A\": 1, \"B\": 1, \"C\": 1},\n \"pieces\": [{\"id\": \"A\",\n \"id\": \"B\", \"localVoxels\": [[0, 0, 0]]}]}",
            );
        },
        args: &["check", "levels/polycube/twice.json"],
        code: 1,
        expect: "twice.json:3:",
    },
    // writes
    Case {
        name: "held_same_file_through_a_folder_and_back",
        setup: |d| std::fs::create_dir_all(d.join("out")).expect("folder"),
        args: &[
            "play",
            "sand",
            "--random-play",
            "2",
            "--record",
            "out/../same.txt",
            "--save-replay",
            "same.txt",
        ],
        code: 2,
        expect: "name the same file",
    },
    Case {
        name: "held_save_replay_into_sys",
        setup: |_| {},
        args: &[
            "play",
            "tetris",
            "--random-play",
            "5",
            "--save-replay",
            "/sys/kernel/x.replay.ron",
        ],
        code: 1,
        expect: "cannot write",
    },
    // exit codes and options
    Case {
        name: "held_sim_feeder_hate_0_01",
        setup: |_| {},
        args: &[
            "sim",
            "tetris",
            "--mode",
            "feed",
            "--feeder",
            "hate:0.01",
            "--ai",
            "normal",
            "--games",
            "1",
            "--pieces",
            "4",
        ],
        code: 0,
        expect: "hate:0.01",
    },
    Case {
        name: "held_play_feeder_hate_1",
        setup: |_| {},
        args: &[
            "play",
            "tetris",
            "--mode",
            "feed",
            "--feeder",
            "hate:1",
            "--ai",
            "easy",
            "--max-moves",
            "3",
        ],
        code: 0,
        expect: "ai:hate:1",
    },
    Case {
        name: "held_sim_feeder_hate_minus",
        setup: |_| {},
        args: &[
            "sim",
            "tetris",
            "--mode",
            "feed",
            "--feeder",
            "hate:-0.1",
            "--ai",
            "easy",
            "--games",
            "1",
        ],
        code: 2,
        expect: "hate:-0.1",
    },
    Case {
        name: "held_tetris_hatetris_ai_random",
        setup: |_| {},
        args: &["tetris", "hatetris", "--ai", "random", "--pieces", "3"],
        code: 2,
        expect: "--ai:",
    },
    Case {
        name: "held_sim_feed_ai_a_feeder",
        setup: |_| {},
        args: &[
            "sim", "tetris", "--mode", "feed", "--ai", "hate", "--games", "1", "--pieces", "3",
        ],
        code: 2,
        expect: "`hate` is a feeder",
    },
    Case {
        name: "held_sim_azul_max_moves_0_other_seats",
        setup: |_| {},
        args: &[
            "sim",
            "azul",
            "--seats",
            "ai:medium,ai:hard,ai:easy",
            "--max-moves",
            "0",
        ],
        code: 2,
        expect: "--max-moves",
    },
    Case {
        name: "held_four_player_sprint_ai_only",
        setup: |_| {},
        args: &[
            "play",
            "azul",
            "--level",
            "levels/azul/four_player_sprint.ron",
            "--ai-only",
            "--max-moves",
            "4",
        ],
        code: 0,
        expect: "4 ai:easy",
    },
    Case {
        name: "held_tetris_hatetris_pieces_1",
        setup: |_| {},
        args: &["tetris", "hatetris", "--pieces", "1"],
        code: 0,
        expect: "1 piece",
    },
    // encodings
    Case {
        name: "held_script_in_utf16_be",
        setup: |d| {
            saved_as(d, "scripts/azul.lua", "scripts/azul.lua", |t| {
                utf16(t, true)
            })
        },
        args: &["check", "scripts/azul.lua"],
        code: 0,
        expect: "ok scripts/azul.lua",
    },
    Case {
        name: "held_azul_level_crlf_play",
        setup: |d| saved_as(d, "levels/azul/grey_wall.ron", "levels/azul/x.ron", crlf),
        args: &[
            "play",
            "azul",
            "--level",
            "levels/azul/x.ron",
            "--random-play",
            "2",
        ],
        code: 0,
        expect: "round",
    },
    Case {
        name: "held_seed_json_bom_crlf",
        setup: |d| {
            write(
                d,
                "levels/polycube/x.json",
                bom("{\"box\": [2, 1, 1],\r\n \"pieces\": [[[0, 0, 0], [1, 0, 0]]]}\r\n"),
            );
        },
        args: &["check", "levels/polycube/x.json"],
        code: 0,
        expect: "ok levels/polycube/x.json",
    },
    Case {
        name: "held_script_in_latin1",
        setup: |d| {
            saved_as(
                d,
                "scripts/tetris.lua",
                "scripts/tetris.lua",
                latin1_lua_comment,
            )
        },
        args: &["check", "scripts/tetris.lua"],
        code: 1,
        expect: "scripts/tetris.lua:1: not UTF-8 text",
    },
    Case {
        name: "held_level_in_utf16_without_mark",
        setup: |d| {
            saved_as(
                d,
                "levels/sand/classic.ron",
                "levels/sand/x.ron",
                utf16_without_mark,
            )
        },
        args: &["check", "levels/sand/x.ron"],
        code: 1,
        expect: "perhaps saved as UTF-16",
    },
];

/// Runs the held-out set and reports how many pass; each failure is
/// listed. The test fails when any does, so the count stays true.
#[test]
fn round3_held_out_set() {
    let mut passed = 0;
    let mut failed = Vec::new();
    for case in HELD_OUT {
        match std::panic::catch_unwind(|| run_cases(std::slice::from_ref(case))) {
            Ok(_) => passed += 1,
            Err(_) => failed.push(case.name),
        }
    }
    eprintln!(
        "round 3 held-out set: {passed} of {} pass; failing: {failed:?}",
        HELD_OUT.len()
    );
    assert!(failed.is_empty(), "held-out failures: {failed:?}");
}
