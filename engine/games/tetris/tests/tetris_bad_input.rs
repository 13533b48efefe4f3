//! Bad levels and scripts: each a clear error naming file:line and the
//! cause; a bad script reload keeps the game on its last good settings.

use super::tetris_support;

use std::path::Path;

use tessera_host::Game;
use tessera_host::plugin::Scripted;
use tessera_host::registry::load_checked;
use tessera_tetris::TetrisAction;
use tessera_tetris::level::TetrisLevel;
use tessera_tetris::settings::Settings;
use tetris_support::*;

fn level_error(text: &str) -> String {
    load_checked::<TetrisLevel>(text, Path::new("levels/tetris/bad.ron"))
        .expect_err("refused")
        .to_string()
}

#[test]
fn bad_levels_name_file_line_and_cause() {
    let cases = [
        (
            "(\n  version: 1,\n  rows: 20,\n  columns: 0,\n)",
            "levels/tetris/bad.ron:4: field `columns`",
        ),
        (
            "(\n  version: 1,\n  columns: 65,\n)",
            "levels/tetris/bad.ron:3: field `columns`",
        ),
        (
            "(\n  version: 1,\n  rows: 70,\n)",
            "levels/tetris/bad.ron:3: field `rows`",
        ),
        (
            "(\n  version: 1,\n  columns: 10,\n  garbage: [\n    \"GGGGGGGGGGG\",\n  ],\n)",
            "levels/tetris/bad.ron:4: field `garbage`, row 1: 11 cells",
        ),
        (
            "(\n  version: 1,\n  rows: 4,\n  columns: 4,\n  garbage: [\"G...\", \"G...\", \"G...\", \"G...\", \"G...\"],\n)",
            "levels/tetris/bad.ron:5: field `garbage`: 5 rows given",
        ),
        (
            "(\n  version: 1,\n  sequence: \"TIQ\",\n)",
            "levels/tetris/bad.ron:3: field `sequence`, piece 3: 'Q' is not a piece letter",
        ),
        (
            "(\n  version: 1,\n  rotation: Some(\"nes\"),\n)",
            "levels/tetris/bad.ron:3: field `rotation`: \"nes\" is not a rotation system",
        ),
        (
            "(\n  version: 1,\n  columns: 4,\n  garbage: [\"GGGG\"],\n)",
            "levels/tetris/bad.ron:4: field `garbage`, row 1: the row is already full",
        ),
        (
            "(\n  version: 1,\n  rows: 4,\n  columns: 4,\n  garbage: [\"GG.G\", \"G.GG\", \"GG.G\", \"G.GG\"],\n  sequence: \"T\",\n)",
            "levels/tetris/bad.ron:6: field `sequence`, piece 1 (T): it cannot spawn",
        ),
        (
            "(\n  version: 1,\n  colums: 4,\n)",
            "levels/tetris/bad.ron:3:",
        ),
    ];
    for (text, expected) in cases {
        let error = level_error(text);
        assert!(
            error.starts_with(expected),
            "{error}\n  expected {expected}"
        );
    }
}

#[test]
fn bad_scripts_name_the_line() {
    let source = shipped_source();
    let line_of = |needle: &str| {
        source
            .lines()
            .position(|l| l.trim_start().starts_with(needle))
            .map(|i| i + 1)
            .unwrap()
    };
    let cases = [
        (
            "fall_seconds = { 2.0, 1.6,",
            "fall_seconds = { 2.0, 2.6,",
            "fall_seconds",
            "must be decreasing: level 1 falls slower (2.6 s) than level 0 (2 s)",
        ),
        (
            "fall_seconds = { 2.0, 1.6,",
            "fall_seconds = { 2.0, -1.6,",
            "fall_seconds",
            "`fall_seconds[2]` must be 0.001 to 60, not -1.6",
        ),
        (
            "rotation = \"cycle\"",
            "rotation = \"sega\"",
            "rotation",
            "`rotation` must be \"cycle\" or \"srs\", not \"sega\"",
        ),
        (
            "randomizer = \"bag\"",
            "randomizer = \"tgm\"",
            "randomizer",
            "not \"tgm\"",
        ),
        (
            "preview = 1,",
            "preview = 9,",
            "preview",
            "`preview` must be 1 to 5, not 9",
        ),
    ];
    for (from, to, field, message) in cases {
        let edited = source.replacen(from, to, 1);
        let script = script(&edited).expect("loads: the schema only checks types");
        let error = Settings::read(&script).expect_err(to).to_string();
        let expected = format!("scripts/tetris.lua:{}: ", line_of(field));
        assert!(error.starts_with(&expected), "{error}");
        assert!(error.contains(message), "{error}");
    }
}

#[test]
fn a_bad_reload_keeps_the_last_good_settings() {
    let live = shipped();
    let rows = well_rows(4);
    let mut game = start_with(
        level(10, &[&rows[..], &rows[..]].concat(), "III", "srs"),
        live.clone(),
        1,
    );
    game.take_events();
    let bad = shipped_source()
        .replacen("rotation = \"cycle\"", "rotation = \"sega\"", 1)
        .replacen("{ 10, 30, 50, 70 }", "{ 10, 30, 50, 99 }", 1);
    live.replace(script(&bad).unwrap());
    game.apply(&TetrisAction::Drop {
        x: 9,
        rotation: 1,
        y: None,
    })
    .unwrap();
    let events: Vec<String> = game.take_events().into_iter().map(|e| e.text).collect();
    assert!(
        events.iter().any(|e| e.starts_with("scripts/tetris.lua:")
            && e.contains("\"sega\"")
            && e.ends_with("(keeping the last good settings)")),
        "{events:?}"
    );
    // The score function is called on the current script (a function is
    // per event); the settings stay the last good ones.
    assert_eq!(game.score(), 99);
    assert_eq!(
        game.settings().rotation,
        tessera_tetris::piece::RotationSystem::Cycle
    );
}

#[test]
fn a_failing_score_function_scores_zero_and_reports() {
    let live = shipped_with("return line_points[lines] or 0", "error(\"oops\")");
    let rows = well_rows(1);
    let mut game = start_with(level(10, &rows, "II", "srs"), live, 1);
    game.apply(&TetrisAction::Drop {
        x: 9,
        rotation: 1,
        y: None,
    })
    .unwrap();
    assert_eq!(game.score(), 0);
    let events: Vec<String> = game.take_events().into_iter().map(|e| e.text).collect();
    assert!(
        events
            .iter()
            .any(|e| e.contains("scripts/tetris.lua:") && e.contains("oops")),
        "{events:?}"
    );
}

#[test]
fn bad_actions_are_refused_with_the_reason() {
    let mut game = start(level(10, &[], "T", "srs"), 1);
    let error = game
        .apply(&TetrisAction::Drop {
            x: 20,
            rotation: 0,
            y: None,
        })
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "illegal action: the T piece cannot reach a landing in rotation 0 at column 20"
    );
    let error = game
        .apply(&TetrisAction::Drop {
            x: 0,
            rotation: 7,
            y: None,
        })
        .unwrap_err()
        .to_string();
    assert!(error.contains("has 4 states under srs"), "{error}");
}

#[test]
fn check_refuses_the_values_the_game_would_refuse() {
    // The same reader `check`, `watch`, the editor's reload and game start
    // run: nonsense is refused at load, with the line of the field.
    let shipped =
        std::fs::read_to_string(tessera_testkit::repo_path("scripts/tetris.lua")).unwrap();
    for (from, to, needle) in [
        (
            "rotation = \"cycle\"",
            "rotation = \"spin\"",
            "must be \"cycle\" or \"srs\"",
        ),
        (
            "fall_seconds = { 2.0, 1.6,",
            "fall_seconds = { 2.0, 2.6,",
            "must be decreasing",
        ),
    ] {
        assert!(shipped.contains(from), "{from}");
        let text = shipped.replace(from, to);
        let script = tessera_host::Script::load(
            Path::new("scripts/tetris.lua"),
            &text,
            Some(&tessera_tetris::Tetris::script_schema()),
            tessera_host::ScriptLimits::default(),
        )
        .unwrap();
        let err = tessera_tetris::Tetris::check_script(&script)
            .unwrap_err()
            .to_string();
        let line = text.lines().position(|l| l.contains(to)).unwrap() + 1;
        assert!(
            err.starts_with(&format!("scripts/tetris.lua:{line}: ")),
            "{err}"
        );
        assert!(err.contains(needle), "{err}");
    }
}
