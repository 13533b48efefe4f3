//! Scenario levels: every shipped level passes the one validation path
//! (`tessera check`'s, with the project's script); each scenario's goal and
//! what the hard AI achieves on it are snapshotted; bad scenarios are
//! refused at their line, the tile count against the script's
//! `tiles_per_colour` included.

use std::path::Path;
use tessera_host::plugin::{Reports, Scripted};

use tessera_azul::achieve::achieve;
use tessera_azul::scenario::{Goal, check_position, position_of};
use tessera_azul::{Azul, AzulLevel};
use tessera_host::check::{check_level, check_level_text};
use tessera_host::level::load_level;
use tessera_host::{
    Game, LiveScript, Outcome, Registry, Script, ScriptLimits, Seat, SessionOptions, Setup,
    ThinkControl, Turn,
};

fn script() -> LiveScript {
    let path = tessera_testkit::repo_path("scripts/azul.lua");
    let schema = <Azul as Scripted>::script_schema();
    LiveScript::new(Script::load_file(&path, Some(&schema), ScriptLimits::default()).unwrap())
}

fn registry() -> Registry {
    let mut registry = Registry::empty();
    registry.register::<Azul>();
    registry
}

#[test]
fn every_shipped_level_passes_check_and_starts() {
    let registry = registry();
    let folder = tessera_testkit::repo_path("levels/azul");
    let mut scenarios = 0;
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("ron") {
            continue;
        }
        let findings = check_level(&registry, &path);
        assert!(findings.is_empty(), "{}: {findings:?}", path.display());
        let level: AzulLevel = load_level(&path).unwrap();
        if level.position.is_some() {
            scenarios += 1;
            assert_ne!(level.goal, Goal::None, "{}", path.display());
        }
    }
    assert!(scenarios >= 5, "only {scenarios} scenarios");
}

#[test]
fn each_scenario_keeps_its_goal_and_what_the_hard_ai_achieves() {
    insta::glob!("../../../../levels/azul", "*.ron", |path| {
        let level: AzulLevel = load_level(path).unwrap();
        let Some(position) = &level.position else {
            return;
        };
        let check = check_position(position, Some(&Default::default()), None);
        assert!(check.first_error().is_none(), "{:?}", check.findings);
        let start = Azul::start(Setup {
            level: level.clone(),
            script: script(),
            seed: 1,
            options: SessionOptions {
                mode: None,
                seats: vec![Seat::Human; position.boards.len()],
            },
        })
        .unwrap();
        let result = achieve(&level, script(), 1, &ThinkControl::new()).unwrap();
        // The goal is decided, and the outcome says so for its seat.
        let met = result.met.expect("the goal is decided");
        assert_eq!(
            result.outcome,
            if met { Outcome::Won } else { Outcome::Lost }
        );
        let report = format!(
            "{}\ngoal: {}\n\nstart:\n{}\nthe hard AI (goal seat) achieves: {} -> {}\n\
             final scores: {:?}\nmoves:\n  {}\n",
            level.title,
            level.goal.describe(),
            start.render_text(),
            result.progress,
            if met { "goal met" } else { "goal missed" },
            result.scores,
            result.moves.join("\n  ")
        );
        tessera_testkit::snapshots().bind(|| insta::assert_snapshot!(report));
    });
}

#[test]
fn a_scenario_starts_where_it_says_and_ends_with_its_goal() {
    let path = tessera_testkit::repo_path("levels/azul/column_push.ron");
    let level: AzulLevel = load_level(&path).unwrap();
    let game = Azul::start(Setup {
        level: level.clone(),
        script: script(),
        seed: 3,
        options: SessionOptions {
            mode: None,
            seats: level.seats.clone(),
        },
    })
    .unwrap();
    let s = game.state();
    assert_eq!(s.round, 4);
    assert_eq!(s.boards[0].score, 20);
    assert_eq!(s.boards[0].lines[4].count, 4);
    assert!(s.marker_in_centre);
    assert_eq!(s.tile_count(), 100, "conservation from a scenario");
    // Round trip: the table back to a position gives the same table.
    let again = check_position(&position_of(s), Some(&s.rules), None);
    assert_eq!(again.state.as_ref(), Some(s));
    assert_eq!(game.turn(), Turn::Seat(0));
    assert_eq!(game.outcome(), Outcome::Playing);
}

#[test]
fn the_level_seats_fill_a_session_that_names_none() {
    let path = tessera_testkit::repo_path("levels/azul/four_player_sprint.ron");
    let level: AzulLevel = load_level(&path).unwrap();
    let session =
        tessera_host::Recorded::<Azul>::start(level, script(), 1, &SessionOptions::default())
            .unwrap();
    assert_eq!(session.options().seats.len(), 4);
    assert_eq!(session.options().seats[0], Seat::Human);
}

fn findings_for(text: &str) -> String {
    let registry = registry();
    // A real file of the project, so the check finds scripts/azul.lua and
    // starts the game as `check` and the editor do.
    let real = tessera_testkit::repo_path("levels/azul/column_push.ron");
    check_level_text(&registry, &real, Path::new("bad.ron"), text)
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn bad_scenarios_are_refused_at_their_line() {
    let base =
        std::fs::read_to_string(tessera_testkit::repo_path("levels/azul/column_push.ron")).unwrap();
    let cases = [
        // 21 yellow: the script allows 20 of a colour.
        (
            "too many yellow",
            base.replace(
                "factories: [\"YBBR\"",
                "bag: Some((yellow: 12)),\n        factories: [\"YBBR\"",
            ),
        ),
        ("wrong wall letter", base.replace("\"OB...\"", "\"BO...\"")),
        (
            "line colour already on the wall row",
            base.replace(
                "lines: [\"\", \"\", \"\", \"\", \"YYYY\"]",
                "lines: [\"B\", \"\", \"\", \"\", \"YYYY\"]",
            ),
        ),
        ("overfull line", base.replace("\"YYYY\"", "\"YYYYYY\"")),
        (
            "seats against boards",
            base.replace(
                "seats: [Human, Ai(level: \"hard\")]",
                "seats: [Human, Ai(level: \"hard\"), Human]",
            ),
        ),
        ("factory too full", base.replace("\"YBBR\"", "\"YBBRR\"")),
        (
            "empty table",
            base.replace(
                "factories: [\"YBBR\", \"GGOY\", \"RROO\", \"BYGG\", \"OBRY\"]",
                "factories: []",
            ),
        ),
        (
            "goal seat",
            base.replace("RoundScore(points: 7)", "RoundScore(seat: 3, points: 7)"),
        ),
    ];
    let mut out = String::new();
    for (name, text) in cases {
        assert_ne!(text, base, "{name}: the case changed nothing");
        let found = findings_for(&text);
        assert!(found.contains("bad.ron:"), "{name}: {found}");
        out.push_str(&format!("{name}:\n{found}\n\n"));
    }
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!(out));
}

#[test]
fn a_level_written_as_ron_reads_back_the_same() {
    for name in ["endgame_win.ron", "four_player_sprint.ron", "standard.ron"] {
        let path = tessera_testkit::repo_path(&format!("levels/azul/{name}"));
        let level: AzulLevel = load_level(&path).unwrap();
        let text = tessera_host::level::to_ron_string(&level).unwrap();
        let again: AzulLevel = tessera_host::level::parse_level(&text, Path::new(name)).unwrap();
        assert_eq!(again, level, "{text}");
    }
    // The explicit "no goal" too.
    let level = AzulLevel {
        goal: Goal::None,
        ..AzulLevel::default()
    };
    let text = tessera_host::level::to_ron_string(&level)
        .unwrap()
        .replace("version: 1,", "version: 1,\n    goal: None,");
    let again: AzulLevel = tessera_host::level::parse_level(&text, Path::new("x.ron")).unwrap();
    assert_eq!(again.goal, Goal::None, "{text}");
}

/// Plays `level` with random legal actions until it is decided; returns the
/// game record's text.
fn random_record(level: &AzulLevel, seed: u64) -> String {
    use rand::Rng;
    let players = level.players().unwrap_or(2);
    let mut game = Azul::start(Setup {
        level: level.clone(),
        script: script(),
        seed,
        options: SessionOptions {
            mode: None,
            seats: vec![Seat::Human; players],
        },
    })
    .unwrap();
    let mut rng = tessera_host::rng::game_rng(seed + 100);
    let mut guard = 0;
    while !game.outcome().is_over() && guard < 2000 {
        let moves = game.legal_actions();
        let a = moves[rng.random_range(0..moves.len())];
        game.apply(&a).unwrap();
        guard += 1;
    }
    game.game_record().unwrap()
}

#[test]
fn games_from_scenarios_write_records_the_checker_replays() {
    let folder = tessera_testkit::repo_path("levels/azul");
    let mut checked = 0;
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let Ok(level) = load_level::<AzulLevel>(&path) else {
            continue;
        };
        if level.position.is_none() {
            continue;
        }
        // Each scenario on its own wall, and on the grey wall too.
        for grey in [None, Some(true)] {
            let level = AzulLevel {
                grey_wall: grey.or(level.grey_wall),
                ..level.clone()
            };
            if grey.is_some()
                && let Some(p) = &level.position
                && tessera_azul::scenario::check_position(
                    p,
                    Some(&tessera_azul::rules::Rules {
                        grey_wall: true,
                        ..Default::default()
                    }),
                    None,
                )
                .first_error()
                .is_some()
            {
                continue;
            }
            let text = random_record(&level, 7);
            let first = text.lines().next().unwrap();
            assert!(first.contains("\"position\":{"), "{first}");
            assert_eq!(first.contains("\"grey_wall\":true"), grey == Some(true));
            let report = tessera_azul::record::check_record(&text, Default::default());
            assert_eq!(
                report.first_difference,
                None,
                "{} (grey {grey:?})",
                path.display()
            );
            assert_eq!(report.events, text.lines().count());
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} scenario records checked");
    // The position matters: a record whose position lost a factory's
    // tiles differs at the first move from it.
    let level: AzulLevel =
        load_level(&tessera_testkit::repo_path("levels/azul/opening_lines.ron")).unwrap();
    let text = random_record(&level, 3);
    let tampered = text.replacen("\"BBYR\"", "\"BBY\"", 1);
    assert_ne!(tampered, text);
    let report = tessera_azul::record::check_record(&tampered, Default::default());
    assert!(report.first_difference.is_some(), "{tampered}");
    // An old record with only `"scenario":true` is refused with a reason.
    let old = "{\"event\":\"start\",\"players\":2,\"factories\":5,\"seed\":1,\"scenario\":true}\n";
    let report = tessera_azul::record::check_record(old, Default::default());
    let (line, why) = report.first_difference.unwrap();
    assert_eq!(line, 1);
    assert!(why.contains("does not carry it"), "{why}");
}

#[test]
fn grey_scenario_walls_take_any_colour_once_per_row_and_column() {
    let base =
        std::fs::read_to_string(tessera_testkit::repo_path("levels/azul/column_push.ron")).unwrap();
    // "YO..." in row 2 breaks the printed pattern but suits the grey wall.
    let grey = base
        .replace("\"OB...\"", "\"YO...\"")
        .replace("version: 1,", "version: 1,\n    grey_wall: Some(true),");
    assert_ne!(grey, base);
    let found = findings_for(&grey);
    assert!(found.is_empty(), "{found}");
    // On the printed wall the same position is refused.
    let printed = grey.replace("grey_wall: Some(true)", "grey_wall: Some(false)");
    assert!(findings_for(&printed).contains("that cell holds"));
    // Blue twice in a column is refused on the grey wall.
    let level: AzulLevel = tessera_host::level::parse_level(&grey, Path::new("g.ron")).unwrap();
    let mut position = level.position.clone().unwrap();
    position.boards[0].wall[1] = "B....".into();
    position.boards[0].wall[0] = "B....".into();
    let check = check_position(&position, None, Some(true));
    let error = check.first_error().expect("blue twice in column 1");
    assert!(
        error.message.contains("already in this column"),
        "{}",
        error.message
    );
}

#[test]
fn a_floor_penalty_saved_mid_round_applies_from_the_next_tiling() {
    use tessera_azul::scenario::{BoardSetup, Position};
    use tessera_azul::{AzulAction, Colour, Source, Target};
    // Factory 1 holds the round's last two tiles; both players have 20
    // points. Player 1 drops both on the floor, which ends the round.
    let start = BoardSetup {
        score: 20,
        ..BoardSetup::default()
    };
    let level = AzulLevel {
        position: Some(Position {
            boards: vec![start.clone(), start],
            factories: vec!["BB".into()],
            ..Position::default()
        }),
        ..AzulLevel::default()
    };
    let score_after_tiling = |penalties: Option<&str>| -> i32 {
        let live = script();
        let mut game = Azul::start(Setup {
            level: level.clone(),
            script: live.clone(),
            seed: 1,
            options: SessionOptions {
                mode: None,
                seats: vec![Seat::Human; 2],
            },
        })
        .unwrap();
        if let Some(penalties) = penalties {
            // The designer saves the script while the round is on.
            let path = tessera_testkit::repo_path("scripts/azul.lua");
            let shipped = std::fs::read_to_string(&path).unwrap();
            let edited = shipped.replacen("{ 1, 1, 2, 2, 2, 3, 3 }", penalties, 1);
            assert_ne!(edited, shipped);
            let schema = <Azul as Scripted>::script_schema();
            live.replace(
                Script::load(&path, &edited, Some(&schema), ScriptLimits::default()).unwrap(),
            );
        }
        game.apply(&AzulAction::Take {
            from: Source::Factory(1),
            colour: Colour::Blue,
            to: Target::Floor,
        })
        .unwrap();
        assert_eq!(game.state().round, 2, "the move ended round 1");
        game.state().boards[0].score
    };
    assert_eq!(score_after_tiling(None), 20 - 1 - 1);
    assert_eq!(
        score_after_tiling(Some("{ 5, 6, 7, 7, 7, 7, 7 }")),
        20 - 5 - 6
    );
}

/// The goal's line when a "win from here" scenario ends reads as a
/// sentence: who won, then the goal seat's score and the verdict (it read
/// "player 2 player 1 wins with 16: lost").
#[test]
fn a_win_goals_line_names_the_winner_then_the_goal_seats_score() {
    let path = tessera_testkit::repo_path("levels/azul/endgame_win.ron");
    let level: AzulLevel = load_level(&path).unwrap();
    let seats = level.position.as_ref().map_or(2, |p| p.boards.len());
    let mut game = Azul::start(Setup {
        level,
        script: script(),
        seed: 1,
        options: SessionOptions {
            mode: None,
            seats: vec![Seat::Human; seats],
        },
    })
    .unwrap();
    let mut lines = Vec::new();
    for _ in 0..200 {
        let Some(action) = game.legal_actions().into_iter().next() else {
            break;
        };
        if game.apply(&action).is_err() {
            break;
        }
        lines.extend(
            game.take_events()
                .into_iter()
                .map(|e| e.text)
                .filter(|t| t.starts_with("goal (")),
        );
    }
    let [line] = lines.as_slice() else {
        panic!("one goal line: {lines:?}");
    };
    let (_, told) = line.split_once("): ").unwrap_or_default();
    assert!(
        (1..=4).all(|p| !told.starts_with(&format!("player {p} player"))),
        "{line}"
    );
    assert!(
        told.contains(" wins, player 1 ended with ")
            || told.contains(" share the win, player 1 ended with "),
        "{line}"
    );
}
