//! Issue 11's reproducers of messages: every error at its line, and
//! nonsense that used to be accepted. Run in order with the rest by
//! `every_reproducer_of_issue_11` (one snapshot).

use super::{Case, sand_script};
use crate::hostile::write;

/// Errors that must name their file and line, and values that mean nothing.
pub(super) const CASES: &[Case] = &[
    // --- Every error at its line ---
    Case {
        name: "disconnected_piece",
        setup: |d| {
            write(
                d,
                "levels/polycube/x.ron",
                "(\n  version: 1,\n  size: (2, 1, 1),\n  pieces: [\n    (id: \"A\",\n     cells: [(1, 1, 1), (3, 1, 1)]),\n  ],\n)\n",
            );
        },
        args: &["check", "levels/polycube/x.ron"],
        code: 1,
        expect: "levels/polycube/x.ron:6:6: piece 1 (`A`): its cells are not face-connected",
    },
    Case {
        name: "empty_id",
        setup: |d| {
            write(
                d,
                "levels/polycube/x.ron",
                "(\n  version: 1,\n  size: (1, 1, 1),\n  pieces: [\n    (id: \"\", cells: [(1, 1, 1)]),\n  ],\n)\n",
            );
        },
        args: &["check", "levels/polycube/x.ron"],
        code: 1,
        expect: "levels/polycube/x.ron:5:6: piece 1 (``): the id is empty",
    },
    Case {
        name: "bad_size",
        setup: |d| {
            write(
                d,
                "levels/polycube/x.ron",
                "(\n  version: 1,\n  size: (0, 1, 1),\n  pieces: [(id: \"A\", cells: [(1, 1, 1)])],\n)\n",
            );
        },
        args: &["check", "levels/polycube/x.ron"],
        code: 1,
        expect: "levels/polycube/x.ron:3:3: field `size`",
    },
    Case {
        name: "no_pieces",
        setup: |d| {
            write(
                d,
                "levels/polycube/x.ron",
                "(\n  version: 1,\n  size: (1, 1, 1),\n  pieces: [],\n)\n",
            );
        },
        args: &["check", "levels/polycube/x.ron"],
        code: 1,
        expect: "levels/polycube/x.ron:4:3: field `pieces`: the level has no pieces",
    },
    Case {
        name: "cell_0",
        setup: |d| {
            write(d, "levels/sand/x.ron", "(\n  version: 1,\n  cell: 0,\n)\n");
        },
        args: &["check", "levels/sand/x.ron"],
        code: 1,
        expect: "levels/sand/x.ron:3:3:",
    },
    Case {
        name: "board_row_of_the_wrong_width",
        setup: |d| {
            write(
                d,
                "levels/sand/x.ron",
                "(\n  version: 1,\n  columns: 4,\n  rows: 3,\n  board: [\n    \"RRRR\",\n    \"RRR\",\n  ],\n)\n",
            );
        },
        args: &["check", "levels/sand/x.ron"],
        code: 1,
        expect: "levels/sand/x.ron:7:5: field `board`, row 2: 3 cells",
    },
    Case {
        name: "error_table_value",
        setup: |d| {
            write(d, "scripts/mine.lua", "local x = 1\nerror({code=42})\n");
        },
        args: &["check", "scripts/mine.lua"],
        code: 1,
        expect: "scripts/mine.lua:2: error value {code = 42}",
    },
    Case {
        name: "error_nil",
        setup: |d| {
            write(d, "scripts/mine.lua", "\nerror(nil)\n");
        },
        args: &["check", "scripts/mine.lua"],
        code: 1,
        expect: "scripts/mine.lua:2: error(nil) raised",
    },
    Case {
        name: "error_with_failing_tostring",
        setup: |d| {
            write(
                d,
                "scripts/mine.lua",
                "error(setmetatable({}, {__tostring = function() error(\"boom\") end}))\n",
            );
        },
        args: &["check", "scripts/mine.lua"],
        code: 1,
        expect: "scripts/mine.lua:1: error value",
    },
    Case {
        name: "readonly_table_in_a_hook",
        setup: |d| {
            sand_script(
                d,
                "on_settle = function(score) end,",
                "on_settle = function(score)\n    rawset(string, \"x\", 1)\n  end,",
            )
        },
        args: &["play", "sand", "--random-play", "1"],
        // A script that fails during the game fails the run.
        code: 1,
        expect: "scripts/sand.lua:45: attempt to modify a readonly table",
    },
    Case {
        name: "multi_line_message",
        setup: |d| {
            write(
                d,
                "scripts/mine.lua",
                "error(\"line one\\nline two\\nline three\")\n",
            );
        },
        args: &["check", "scripts/mine.lua"],
        code: 1,
        expect: "line one\nline two\nline three",
    },
    Case {
        name: "play_level_names_the_file",
        setup: |d| {
            write(
                d,
                "levels/polycube/x.ron",
                "(\n  version: 1,\n  size: (1, 1, 1),\n  pieces: [],\n)\n",
            );
        },
        args: &[
            "play",
            "polycube",
            "--level",
            "levels/polycube/x.ron",
            "--random-play",
            "1",
        ],
        code: 1,
        expect: "levels/polycube/x.ron:4:3:",
    },
    Case {
        name: "json_shape_in_words",
        setup: |d| {
            write(
                d,
                "x.json",
                "{\"box\": [2, 1, 1],\n \"pieces\": [\n  {\"id\": \"A\", \"localVoxels\": 7}\n ]}\n",
            );
        },
        args: &["solve", "x.json"],
        code: 1,
        expect: "x.json:3:",
    },
    Case {
        name: "deep_nesting_in_ron",
        setup: |d| {
            let deep = format!(
                "(\n  version: 1,\n  board: {}{},\n)\n",
                "[".repeat(5000),
                "]".repeat(5000)
            );
            write(d, "levels/sand/x.ron", deep);
        },
        args: &["check", "levels/sand/x.ron"],
        code: 1,
        expect: "levels/sand/x.ron:3:11: expected string",
    },
    Case {
        name: "option_without_some",
        setup: |d| {
            write(
                d,
                "levels/polycube/x.ron",
                "(\n  version: 1,\n  size: (1, 1, 1),\n  pieces: [(id: \"A\", cells: [(1, 1, 1)], colour: (1, 2, 3))],\n)\n",
            );
        },
        args: &["check", "levels/polycube/x.ron"],
        code: 0,
        expect: "ok levels/polycube/x.ron",
    },
    // --- Nonsense accepted ---
    Case {
        name: "score_1e300",
        setup: |d| {
            sand_script(
                d,
                "return math.floor(10 * math.sqrt(cells)) * chain",
                "return 1e300",
            );
            write(
                d,
                "levels/sand/full.ron",
                "(\n  version: 1,\n  columns: 4,\n  rows: 4,\n  board: [\n    \"RRRR\",\n  ],\n)\n",
            );
        },
        args: &[
            "play",
            "sand",
            "--level",
            "levels/sand/full.ron",
            "--random-play",
            "1",
        ],
        // A script that fails during the game fails the run.
        code: 1,
        expect: "over the maximum",
    },
    Case {
        name: "unknown_field_in_an_action",
        setup: |d| {
            write(
                d,
                "actions.ron",
                "[\n  Place(slot: 0, x: 4, y: 0, rotaton: 1),\n]\n",
            );
        },
        args: &["play", "sand", "--actions", "actions.ron"],
        code: 1,
        expect: "actions.ron:2:",
    },
    Case {
        name: "unknown_field_in_polycube_json",
        setup: |d| {
            write(
                d,
                "x.json",
                "{\"box\": [1, 1, 1],\n \"bogus\": 1,\n \"pieces\": [[[0,0,0]]]}\n",
            );
        },
        args: &["solve", "x.json"],
        code: 1,
        expect: "x.json:2:2: unknown field `bogus`",
    },
    Case {
        name: "box_d_in_polycube_json",
        setup: |d| {
            write(
                d,
                "x.json",
                "{\"box\": {\"A\": 1, \"B\": 1, \"C\": 1, \"D\": 1},\n \"pieces\": [[[0,0,0]]]}\n",
            );
        },
        args: &["solve", "x.json"],
        code: 1,
        expect: "unknown field `D`",
    },
    Case {
        name: "piece_color_in_polycube_json",
        setup: |d| {
            write(
                d,
                "x.json",
                "{\"box\": [1, 1, 1],\n \"pieces\": [\n  {\"id\": \"A\", \"localVoxels\": [[0,0,0]], \"color\": 3}]}\n",
            );
        },
        args: &["solve", "x.json"],
        code: 1,
        expect: "x.json:3:",
    },
    Case {
        name: "solve_json_without_count",
        setup: |_| {},
        args: &["solve", "levels/polycube/soma.ron", "--json"],
        code: 2,
        expect: "--count",
    },
    Case {
        name: "bench_nosuchgroup",
        setup: |_| {},
        args: &["bench", "nosuchgroup"],
        code: 2,
        expect: "no bench group",
    },
    Case {
        name: "check_an_empty_folder",
        setup: |d| {
            std::fs::create_dir_all(d.join("empty")).expect("folder");
        },
        args: &["check", "empty"],
        code: 1,
        expect: "nothing to check",
    },
    Case {
        name: "check_a_folder_of_json_only",
        setup: |d| {
            write(d, "data/a.json", "{}");
        },
        args: &["check", "data"],
        code: 1,
        expect: "nothing to check",
    },
    Case {
        name: "full_board_random_play_is_lost",
        setup: |d| {
            write(
                d,
                "levels/sand/full.ron",
                "(\n  version: 1,\n  columns: 4,\n  rows: 2,\n  board: [\n    \"RBRB\",\n    \"BRBR\",\n  ],\n)\n",
            );
        },
        args: &[
            "play",
            "sand",
            "--level",
            "levels/sand/full.ron",
            "--random-play",
            "5",
        ],
        code: 0,
        expect: "lost",
    },
    Case {
        name: "solution_labels_past_62_pieces",
        setup: |d| {
            let pieces: Vec<String> = (0..64)
                .map(|i| format!("(id: \"p{i}\", cells: [(1, 1, 1)])"))
                .collect();
            write(
                d,
                "levels/polycube/many.ron",
                format!(
                    "(\n  version: 1,\n  size: (4, 4, 4),\n  pieces: [{}],\n)\n",
                    pieces.join(", ")
                ),
            );
        },
        args: &["solve", "levels/polycube/many.ron"],
        code: 0,
        expect: "AAAQAgAw",
    },
    Case {
        name: "string_rep_with_a_string_count",
        setup: |d| {
            write(
                d,
                "scripts/mine.lua",
                "return { s = string.rep(\"x\", \"4294967297\") }\n",
            );
        },
        args: &["check", "scripts/mine.lua"],
        code: 1,
        expect: "scripts/mine.lua:1: out of memory",
    },
    Case {
        name: "level_game_field_is_refused",
        setup: |d| {
            write(
                d,
                "levels/sand/x.ron",
                "(\n  version: 1,\n  game: \"sand\",\n)\n",
            );
        },
        args: &["check", "levels/sand/x.ron"],
        code: 1,
        expect: "levels/sand/x.ron:3:3: unknown field `game`",
    },
    Case {
        name: "solve_malformed_level_exits_1",
        setup: |d| {
            write(
                d,
                "levels/polycube/x.ron",
                "(\n  version: 1,\n  size: (1, 1,\n",
            );
        },
        args: &["solve", "levels/polycube/x.ron"],
        code: 1,
        expect: "levels/polycube/x.ron:",
    },
    Case {
        name: "play_missing_actions_file_exits_1",
        setup: |_| {},
        args: &["play", "sand", "--actions", "nope.ron"],
        code: 1,
        expect: "no such file",
    },
    Case {
        name: "play_unknown_game_exits_2",
        setup: |_| {},
        args: &["play", "nosuchgame", "--random-play", "1"],
        code: 2,
        expect: "unknown game",
    },
];
