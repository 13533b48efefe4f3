//! A bad number in `scripts/azul.lua` is refused by the one settings check
//! (`check`, `watch`, the editor's reload and game start), at the line of
//! the offending value, never clamped into range in silence.

use std::path::Path;
use tessera_host::plugin::Scripted;

use tessera_azul::Azul;
use tessera_host::{Script, ScriptLimits};

/// The shipped script with `from` replaced by `to`, loaded as the editor
/// and `check` load it (schema first).
fn edited(from: &str, to: &str) -> (String, Script) {
    let shipped = std::fs::read_to_string(tessera_testkit::repo_path("scripts/azul.lua")).unwrap();
    assert!(shipped.contains(from), "the shipped script has no `{from}`");
    let text = shipped.replacen(from, to, 1);
    let script = Script::load(
        Path::new("scripts/azul.lua"),
        &text,
        Some(&Azul::script_schema()),
        ScriptLimits::default(),
    )
    .unwrap();
    (text, script)
}

#[test]
fn the_shipped_script_passes_the_check() {
    let (_, script) = edited("bonus_row = 2", "bonus_row = 2");
    Azul::check_script(&script).unwrap();
}

#[test]
fn out_of_range_values_are_refused_at_their_line() {
    for (from, to, needle) in [
        (
            "floor_penalties = { 1, 1, 2, 2, 2, 3, 3 }",
            "floor_penalties = { 1, 1, 2 }",
            "`floor_penalties` holds 3 entries, at least 7 expected",
        ),
        (
            "floor_penalties = { 1, 1, 2, 2, 2, 3, 3 }",
            "floor_penalties = { 1, 1, 2, 2, 2, 3, -3 }",
            "`floor_penalties[7]` must be 0 to 100, not -3",
        ),
        (
            "bonus_column = 7",
            "bonus_column = 7000",
            "`bonus_column` must be 0 to 1000, not 7000",
        ),
        (
            "rgb = \"#E74C3C\"",
            "rgb = \"red\"",
            "`colours[3].rgb` must look like #3498DB, not \"red\"",
        ),
        (
            "ai_levels = { \"easy\", \"medium\", \"hard\", \"expert\" }",
            "ai_levels = { \"easy\", \"medium\", \"grandmaster\" }",
            "no AI named \"grandmaster\"",
        ),
        (
            "reaction_seconds = { easy = 1,",
            "reaction_seconds = { easy = -1,",
            "`reaction_seconds.easy` must be 0 to 60, not -1",
        ),
        (
            "hard = { nodes = 200000,",
            "hard = { nodes = 0,",
            "`hard.nodes` must be 1 to 100000000, not 0",
        ),
        (
            "epsilon = 0.15,",
            "epsilon = 1.5,",
            "`expert.epsilon` must be 0 to 1, not 1.5",
        ),
        (
            "own_weight = 0.3,",
            "own_weight = -0.2,",
            "`expert.own_weight` must be 0 to 1, not -0.2",
        ),
        (
            "horizon = 0,",
            "horizon = 11,",
            "`expert.horizon` must be 0 to 10, not 11",
        ),
        (
            "widening = 0,",
            "widening = 2,",
            "`expert.widening` must be 0 to 1, not 2",
        ),
        (
            "score_scale = 100,",
            "score_scale = 0,",
            "`expert.score_scale` must be 1 to 1000000, not 0",
        ),
        (
            "margin_scale = 20,",
            "margin_scale = 0 / 0,",
            "`expert.margin_scale` must be a finite number, found nan (0/0)",
        ),
        (
            "seconds = 1.0,",
            "seconds = \"soon\",",
            "`expert.seconds` must be a finite number, found a string",
        ),
    ] {
        let (text, script) = edited(from, to);
        let error = Azul::check_script(&script)
            .expect_err(&format!("`{to}` passed the check"))
            .to_string();
        let line = text.lines().position(|l| l.contains(to)).unwrap() + 1;
        assert!(
            error.starts_with(&format!("scripts/azul.lua:{line}: ")),
            "`{to}`: {error}"
        );
        assert!(error.contains(needle), "`{to}`: {error}");
    }
}

#[test]
fn a_misspelt_ai_setting_is_refused_not_ignored() {
    for (from, to, needle) in [
        (
            "exploration = 0.35,",
            "exploraton = 0.35,",
            "`expert` has no setting `exploraton`",
        ),
        (
            "hard = { nodes = 200000,",
            "hard = { node = 200000,",
            "`hard` has no setting `node`",
        ),
        (
            "floor_risk = 1.0,",
            "floor_risks = 1.0,",
            "`medium` has no setting `floor_risks`",
        ),
    ] {
        let (_, script) = edited(from, to);
        let error = Azul::check_script(&script)
            .expect_err(&format!("`{to}` passed the check"))
            .to_string();
        assert!(error.starts_with("scripts/azul.lua:"), "`{to}`: {error}");
        assert!(error.contains(needle), "`{to}`: {error}");
    }
}

/// Every key the AI tables' reader accepts is in the Script section of
/// Azul's page, so the docs cannot drift from the reader.
#[test]
fn every_ai_table_key_is_on_the_games_page() {
    let azul = tessera_testkit::script_docs("azul");
    for (table, keys) in tessera_azul::settings::ai_table_keys() {
        for key in keys {
            assert!(
                azul.contains(&format!("`{key}`")),
                "docs/games/azul.md does not document `{table}.{key}`"
            );
        }
    }
}
