//! Issue 47's script keys: every key has a schema, the top level included.
//! A typo at the top of a game's script (`slotz`, `previw`) used to pass
//! `check` and play its default; now `check` and a game start refuse it
//! alike, at its line, naming the nearest known key. One typo per game, a
//! typo of a hook and of a required hook, a nested one (the same words),
//! and the keys that stay accepted.

use std::path::Path;

use super::Case;
use crate::hostile::write;

/// Replaces `from` (which the shipped script must hold) in
/// `scripts/GAME.lua` by `to`: the typo.
fn misspell(dir: &Path, game: &str, from: &str, to: &str) {
    let relative = format!("scripts/{game}.lua");
    let text = std::fs::read_to_string(dir.join(&relative)).expect("shipped script");
    assert!(text.contains(from), "{relative} has `{from}`");
    write(dir, &relative, text.replacen(from, to, 1));
}

const KEY_CASES: &[Case] = &[
    // --- A top-level typo per game: `check` and `play` refuse it alike ---
    Case {
        name: "sand_slotz",
        setup: |d| misspell(d, "sand", "slots = 3,", "slotz = 3,"),
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:20: the script has no setting `slotz`; did you mean `slots`?",
    },
    Case {
        name: "sand_slotz_play",
        setup: |d| misspell(d, "sand", "slots = 3,", "slotz = 3,"),
        args: &["play", "sand", "--random-play", "1"],
        code: 1,
        expect: "scripts/sand.lua:20: the script has no setting `slotz`; did you mean `slots`?",
    },
    Case {
        name: "tetris_previw",
        setup: |d| misspell(d, "tetris", "preview = 1,", "previw = 1,"),
        args: &["check", "scripts/tetris.lua"],
        code: 1,
        expect: "scripts/tetris.lua:33: the script has no setting `previw`; did you mean `preview`?",
    },
    Case {
        name: "tetris_previw_play",
        setup: |d| misspell(d, "tetris", "preview = 1,", "previw = 1,"),
        args: &["play", "tetris", "--random-play", "1"],
        code: 1,
        expect: "scripts/tetris.lua:33: the script has no setting `previw`; did you mean `preview`?",
    },
    Case {
        name: "azul_tiles_per_factorx",
        setup: |d| {
            misspell(
                d,
                "azul",
                "tiles_per_factory = 4,",
                "tiles_per_factorx = 4,",
            )
        },
        args: &["check", "scripts/azul.lua"],
        code: 1,
        expect: "scripts/azul.lua:20: the script has no setting `tiles_per_factorx`; did you mean `tiles_per_factory`?",
    },
    Case {
        name: "azul_tiles_per_factorx_play",
        setup: |d| {
            misspell(
                d,
                "azul",
                "tiles_per_factory = 4,",
                "tiles_per_factorx = 4,",
            )
        },
        args: &["play", "azul", "--random-play", "1"],
        code: 1,
        expect: "scripts/azul.lua:20: the script has no setting `tiles_per_factorx`; did you mean `tiles_per_factory`?",
    },
    Case {
        name: "polycube_support_rul",
        setup: |d| misspell(d, "polycube", "support_rule = true,", "support_rul = true,"),
        args: &["check", "scripts/polycube.lua"],
        code: 1,
        expect: "scripts/polycube.lua:18: the script has no setting `support_rul`; did you mean `support_rule`?",
    },
    Case {
        name: "polycube_support_rul_play",
        setup: |d| misspell(d, "polycube", "support_rule = true,", "support_rul = true,"),
        args: &["play", "polycube", "--random-play", "1"],
        code: 1,
        expect: "scripts/polycube.lua:18: the script has no setting `support_rul`; did you mean `support_rule`?",
    },
    // --- Hooks are keys too ---
    Case {
        name: "sand_on_settled",
        setup: |d| misspell(d, "sand", "on_settle = function", "on_settled = function"),
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:44: the script has no setting `on_settled`; did you mean `on_settle`?",
    },
    Case {
        // A required hook misspelt: the typo is named, not a `missing`.
        name: "sand_scor",
        setup: |d| misspell(d, "sand", "score = function", "scor = function"),
        args: &["check", "scripts/sand.lua"],
        code: 1,
        expect: "scripts/sand.lua:39: the script has no setting `scor`; did you mean `score`?",
    },
    // --- A nested typo reads the same ---
    Case {
        name: "tetris_ai_log_tpo",
        setup: |d| misspell(d, "tetris", "log_top = 5,", "log_tpo = 5,"),
        args: &["check", "scripts/tetris.lua"],
        code: 1,
        expect: "scripts/tetris.lua:102: `ai` has no setting `log_tpo`; did you mean `log_top`?",
    },
    // --- Keys that stay accepted ---
    Case {
        // The host's own key: a script may name its game.
        name: "sand_names_its_game",
        setup: |d| misspell(d, "sand", "return {", "return {\n  game = \"sand\","),
        args: &["check", "scripts/sand.lua"],
        code: 0,
        expect: "ok scripts/sand.lua",
    },
];

#[test]
fn every_script_key_reproducer() {
    let shown = super::Shown {
        keep: super::every_line,
        lines: 8,
        width: 200,
        never: &[],
    };
    let (report, maxima) = super::run_cases(KEY_CASES, super::in_project, &shown);
    eprintln!(
        "script key reproducers: {} cases, peak RSS {} KiB, longest {} ms",
        KEY_CASES.len(),
        maxima.rss_kib,
        maxima.millis
    );
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!("reproducers_keys", report));
}
