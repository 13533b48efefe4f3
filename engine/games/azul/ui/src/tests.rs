//! Driving the Azul table by clicks: a human move, the AI's reply, undo.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_azul::Azul;
use tessera_host::driver::Driver;
use tessera_host::project::Project;
use tessera_host::session::downcast_box;
use tessera_host::{Game, Reports, Seat, SessionOptions};

use super::view::AzulPlaytest;
use tessera_ui::drive_view;
use tessera_ui::{ConsoleLine, PlaytestContext, PlaytestView, ViewRequest};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../..")
}

/// The table as the playtest panel hosts it: the view, the host's driver
/// of its AI seats, the project and the console.
struct Playing {
    view: AzulPlaytest,
    driver: Driver,
    project: Project,
    console: Vec<ConsoleLine>,
}

fn table(seed: u64) -> Harness<'static, Playing> {
    table_in(&root(), seed, "medium")
}

/// Human against `ai` in seat 2.
fn against(ai: &str) -> SessionOptions {
    SessionOptions {
        mode: None,
        seats: vec![
            Seat::Human,
            Seat::Ai {
                level: ai.to_string(),
            },
        ],
    }
}

/// Runs frames until the AI has replied (or several seconds pass).
fn wait_for_ai(harness: &mut Harness<'static, Playing>) {
    for _ in 0..1000 {
        harness.run_steps(2);
        if !harness.state().view.ai_to_move() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the AI did not reply");
}

/// The label of the first tile button of factory 1 (`factory 1 blue x2`).
fn first_factory_tile(harness: &Harness<'static, Playing>) -> String {
    let s = harness.state().view.state();
    let k = (0..5)
        .find(|&k| s.factories[0][k] > 0)
        .expect("factory 1 has tiles");
    let names = ["blue", "yellow", "red", "green", "orange"];
    format!("factory 1 {} x{}", names[k], s.factories[0][k])
}

#[test]
fn a_human_move_by_clicks_then_the_ai_replies_then_undo() {
    let mut harness = table(3);
    harness.run_steps(3);
    let tile = first_factory_tile(&harness);
    let before = *harness.state().view.state();
    harness.get_by_label(&tile).click();
    harness.run_steps(3);
    harness.get_by_label("line 5").click();
    harness.run_steps(3);
    let after = *harness.state().view.state();
    assert_eq!(after.factories[0], [0; 5], "factory 1 was emptied");
    assert!(after.boards[0].lines[4].count > 0, "line 5 holds the tiles");
    assert_ne!(before, after);
    assert!(
        harness
            .state()
            .view
            .log()
            .iter()
            .any(|(t, _)| t.starts_with("You: ")),
        "{:?}",
        harness.state().view.log()
    );
    wait_for_ai(&mut harness);
    let replied = *harness.state().view.state();
    assert_eq!(
        replied.to_move, 0,
        "the AI moved and it is the human's turn again"
    );
    assert!(
        harness
            .state()
            .view
            .log()
            .iter()
            .any(|(t, _)| t.starts_with("AI medium (seat 2)")),
        "{:?}",
        harness.state().view.log()
    );
    // Undo takes back the human's move and the AI's reply.
    harness.get_by_label("Undo").click();
    harness.run_steps(3);
    assert_eq!(*harness.state().view.state(), before);
}

#[test]
fn an_illegal_line_is_not_offered() {
    let mut harness = table(5);
    harness.run_steps(3);
    // Without a picked colour, lines are not clickable: nothing happens.
    let before = *harness.state().view.state();
    harness.get_by_label("line 1").click();
    harness.run_steps(3);
    assert_eq!(*harness.state().view.state(), before);
    // Pick, then the floor always takes the tiles.
    let tile = first_factory_tile(&harness);
    harness.get_by_label(&tile).click();
    harness.run_steps(3);
    harness.get_by_label("floor").click();
    harness.run_steps(3);
    let s = harness.state().view.state();
    assert!(s.boards[0].floor_len > 0);
}

#[test]
fn a_click_on_a_line_that_cannot_take_the_colour_says_why() {
    let mut harness = table(5);
    harness.run_steps(3);
    // Line 1 holds one tile: after this move it is full.
    let tile = first_factory_tile(&harness);
    harness.get_by_label(&tile).click();
    harness.run_steps(3);
    harness.get_by_label("line 1").click();
    harness.run_steps(3);
    assert_eq!(harness.state().view.state().boards[0].lines[0].count, 1);
    wait_for_ai(&mut harness);
    // Any factory still holding tiles (factory 1 was emptied above).
    let tile = {
        let s = harness.state().view.state();
        let names = ["blue", "yellow", "red", "green", "orange"];
        (0..s.factory_count as usize)
            .flat_map(|f| (0..5).map(move |k| (f, k)))
            .find(|&(f, k)| s.factories[f][k] > 0)
            .map(|(f, k)| format!("factory {} {} x{}", f + 1, names[k], s.factories[f][k]))
            .expect("a factory with tiles")
    };
    harness.get_by_label(&tile).click();
    harness.run_steps(3);
    let before = *harness.state().view.state();
    harness.get_by_label("line 1").click();
    harness.run_steps(3);
    let view = &harness.state().view;
    assert_eq!(*view.state(), before, "the full line took nothing");
    let last = view
        .log()
        .last()
        .map(|(t, _)| t.clone())
        .unwrap_or_default();
    assert_eq!(last, "Line 1 cannot take it: pattern line 1 is full.");
}

#[test]
fn a_script_save_shows_its_scoring_numbers_at_once() {
    let mut harness = table(5);
    harness.run_steps(3);
    let shipped = std::fs::read_to_string(root().join("scripts/azul.lua")).expect("script");
    let changed = shipped
        .replacen("bonus_row = 2", "bonus_row = 3", 1)
        .replacen(
            "floor_penalties = { 1, 1, 2, 2, 2, 3, 3 }",
            "floor_penalties = { 5, 1, 2, 2, 2, 3, 3 }",
            1,
        );
    assert_ne!(changed, shipped);
    let script = tessera_host::Script::load(
        Path::new("scripts/azul.lua"),
        &changed,
        None,
        Default::default(),
    )
    .expect("the changed script loads");
    harness.state().view.game().script().replace(script);
    harness.run_steps(2);
    let view = &harness.state().view;
    // The game takes the numbers up at its next move; the table shows them now.
    assert_eq!(view.state().rules.row_bonus, 2);
    assert_eq!(view.shown_state().rules.row_bonus, 3);
    assert_eq!(view.shown_state().rules.floor_penalties[0], 5);
    harness.get_by_label("Rules").click();
    harness.run_steps(2);
    assert!(
        harness
            .query_by_label_contains("+3 per row, +7 per column, +10 per colour")
            .is_some(),
        "the Rules text follows the script"
    );
    assert!(
        harness
            .query_by_label_contains("the floor costs -5 -1 -2")
            .is_some()
    );
}

/// A grey-wall table from a scenario: factory 1 holds one blue, the rest
/// is empty; the human (seat 1) moves first. Taking the blue to line 1
/// ends the round, and line 1 may go to any column of wall row 1 but the
/// one the row already holds (column 1: yellow).
fn grey_table() -> Harness<'static, Playing> {
    use tessera_azul::AzulLevel;
    use tessera_azul::scenario::{BoardSetup, Position};
    let mut project = Project::open(&root(), crate::registry()).expect("project");
    let script = project
        .script(&project.game_script_path(Azul::ID))
        .expect("script");
    let mine = BoardSetup {
        wall: vec!["Y....".into()],
        ..BoardSetup::default()
    };
    let level = AzulLevel {
        grey_wall: Some(true),
        seats: vec![
            tessera_host::Seat::Human,
            tessera_host::Seat::Ai {
                level: "medium".into(),
            },
        ],
        position: Some(Position {
            boards: vec![mine, BoardSetup::default()],
            factories: vec!["B".into()],
            ..Position::default()
        }),
        ..AzulLevel::default()
    };
    let session =
        tessera_host::Recorded::<Azul>::start(level, script, 1, &SessionOptions::default())
            .expect("game");
    let view = AzulPlaytest::from_session(session, Some(Duration::ZERO))
        .expect("table")
        .without_animations();
    table_harness(view, project)
}

#[test]
fn a_human_chooses_a_grey_wall_column_by_clicking_a_highlighted_cell() {
    let mut harness = grey_table();
    harness.run();
    // No wall cell is offered while taking.
    assert!(harness.query_by_label("wall row 1 column 3").is_none());
    harness.get_by_label("factory 1 blue x1").click();
    harness.run();
    harness.get_by_label("line 1").click();
    harness.run();
    let s = *harness.state().view.state();
    assert!(s.tiling, "the round ended and the human chooses a column");
    assert_eq!(
        s.pending_choice().map(|c| (c.0, c.1, c.2)),
        Some((0, 0, 0b11110))
    );
    // Column 1 holds yellow: not offered; columns 2-5 are.
    assert!(harness.query_by_label("wall row 1 column 1").is_none());
    for column in 2..=5 {
        assert!(
            harness
                .query_by_label(&format!("wall row 1 column {column}"))
                .is_some(),
            "column {column} offered"
        );
    }
    assert!(
        harness
            .state()
            .view
            .log()
            .iter()
            .any(|(t, _)| t.contains("choose the wall column of line 1")),
        "{:?}",
        harness.state().view.log()
    );
    // Column 2 sits next to the yellow: 2 points.
    harness.get_by_label("wall row 1 column 2").click();
    harness.run();
    let s = *harness.state().view.state();
    assert!(!s.tiling);
    assert_eq!(s.boards[0].colour_at(0, 1), Some(0), "blue in column 2");
    assert_eq!(s.boards[0].score, 2);
    let record = harness.state().view.game().game().game_record().unwrap();
    assert!(
        record.contains(
            "{\"event\":\"wall\",\"player\":1,\"row\":1,\"column\":2,\"colour\":\"blue\"}"
        ),
        "{record}"
    );
    // A record is a proof of a whole game: this one stops in round 2, and
    // the check says so at its end, after accepting every line before.
    let report = tessera_azul::record::check_record(&record, Default::default());
    let lines = record.lines().count();
    assert!(
        matches!(&report.first_difference, Some((line, why))
            if *line == lines + 1 && why.contains("before the game's end")),
        "{:?}\n{record}",
        report.first_difference
    );
    // Undo takes the choice back: the human chooses again.
    harness.get_by_label("Undo").click();
    harness.run();
    let s = *harness.state().view.state();
    assert!(s.tiling);
    assert!(harness.query_by_label("wall row 1 column 4").is_some());
}

// ------------------------------------------------------------ scenario editor

struct Editing {
    editor: super::level_editor::AzulLevelEditor,
    project: Project,
    console: Vec<ConsoleLine>,
}

fn scenario_editor(file: &str) -> Harness<'static, Editing> {
    let text = std::fs::read_to_string(root().join("levels/azul").join(file)).expect("level");
    scenario_editor_of(&text)
}

fn scenario_editor_of(text: &str) -> Harness<'static, Editing> {
    use tessera_ui::LevelEditor;
    let project = Project::open(&root(), crate::registry()).expect("project");
    let editor = super::level_editor::AzulLevelEditor::from_text(text).expect("editor");
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1400.0))
        .build_ui_state(
            |ui, s: &mut Editing| {
                let mut cx = PlaytestContext {
                    project: &mut s.project,
                    console: &mut s.console,
                };
                s.editor.ui(ui, &mut cx);
            },
            Editing {
                editor,
                project,
                console: Vec::new(),
            },
        )
}

/// The scenario's description is a box of several lines that wraps its
/// sentences inside the editor's width (a one-line field ran a long
/// description past the panel's edge).
#[test]
fn the_description_is_a_box_that_wraps_inside_the_panel() {
    let text = std::fs::read_to_string(root().join("levels/azul/column_push.ron")).expect("level");
    let long = "A long description of the scenario, sentence after sentence, far longer than \
        any panel is wide, so that it must wrap onto more lines inside the box instead of \
        running on past the edge of the editor, which is what a one-line field did with it.";
    let at = text.find("description: \"").expect("a description") + "description: \"".len();
    let end = at + text[at..].find('"').expect("its end");
    let mut harness = scenario_editor_of(&format!("{}{long}{}", &text[..at], &text[end..]));
    harness.run();
    let field =
        harness.get_by_role_and_label(egui::accesskit::Role::MultilineTextInput, "Description");
    let rect = field.rect();
    assert!(rect.max.x <= 1400.5, "past the panel's edge: {rect:?}");
    assert!(rect.height() > 40.0, "one line high: {rect:?}");
}

fn placed(harness: &Harness<'static, Editing>, colour: usize) -> u32 {
    harness.state().editor.check().expect("checked").placed[colour]
}

#[test]
fn scenario_editor_paints_counts_tiles_and_refuses_too_many() {
    use tessera_ui::LevelEditor;
    let mut harness = scenario_editor("column_push.ron");
    harness.run();
    assert!(!harness.state().editor.is_dirty());
    let yellow = placed(&harness, 1);
    // Paint the wall cell of row 5, column 1 (yellow) with a colour brush.
    harness.get_by_label("yellow").click();
    harness.run();
    harness.get_by_label("player 1 wall 5 1").click();
    harness.run();
    harness.run();
    assert_eq!(placed(&harness, 1), yellow + 1);
    assert_eq!(
        harness
            .state()
            .editor
            .level()
            .position
            .as_ref()
            .unwrap()
            .boards[0]
            .wall[4],
        "Y...."
    );
    // The yellow line 5 now conflicts with the wall row: the one check says so.
    let findings: Vec<String> = harness
        .state()
        .editor
        .findings()
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert!(
        findings.iter().any(|m| m.contains("already has yellow")),
        "{findings:?}"
    );
    // Take the wall tile back, then pour yellow into the centre past 20.
    harness.get_by_label("player 1 wall 5 1").click();
    harness.run();
    while placed(&harness, 1) <= 20 {
        harness.get_by_label("+ centre").click();
        harness.run();
        harness.run();
    }
    let findings: Vec<String> = harness
        .state()
        .editor
        .findings()
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert!(
        findings
            .iter()
            .any(|m| m.contains("21 yellow tiles in play") && m.contains("tiles_per_colour")),
        "{findings:?}"
    );
    assert!(harness.state().editor.is_dirty());
    // Clicking a centre tile takes it away: back under the limit.
    harness.get_by_label("centre tile 1").click();
    harness.run();
    harness.run();
    assert_eq!(placed(&harness, 1), 20);
    // What it saves loads, and passes the one validation path.
    let text = harness.state().editor.to_ron().unwrap();
    let real = root().join("levels/azul/column_push.ron");
    let findings = tessera_host::check::check_level_text(
        &crate::registry(),
        &real,
        Path::new("edited.ron"),
        &text,
    );
    assert!(findings.is_empty(), "{findings:?}\n{text}");
    assert!(
        text.starts_with("// Scenario"),
        "the header comment is kept"
    );
}

#[test]
fn best_achievable_runs_the_hard_search_on_a_job_and_can_be_cancelled() {
    let mut harness = scenario_editor("column_push.ron");
    harness.run();
    harness.get_by_label("Best achievable").click();
    harness.step();
    harness.step();
    assert!(harness.state().editor.is_searching());
    harness.get_by_label("Cancel").click();
    harness.step();
    harness.step();
    assert!(!harness.state().editor.is_searching());
    assert!(matches!(
        harness.state().editor.best(),
        Some(Err(e)) if e == "cancelled"
    ));
    // Again, to the end: the same result as the scenario's snapshot.
    harness.get_by_label("Best achievable").click();
    for _ in 0..3000 {
        harness.step();
        if !harness.state().editor.is_searching() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let Some(Ok(best)) = harness.state().editor.best() else {
        panic!(
            "no result: {:?}",
            harness.state().editor.best().map(|r| r.as_ref().err())
        );
    };
    assert_eq!(best.met, Some(true));
    assert_eq!(best.progress, 7);
}

#[test]
fn balance_panel_runs_the_sim_on_a_job_and_plots_win_rates() {
    let mut harness = table(5);
    harness.run();
    harness.get_by_label("Balance (AI against AI)").click();
    harness.run();
    {
        let balance = harness.state_mut().view.balance_mut();
        balance.set_games(2);
        balance.choose("hard", false);
        balance.choose("expert", false);
    }
    harness.get_by_label("Run balance").click();
    harness.step();
    for _ in 0..3000 {
        harness.step();
        if !harness.state_mut().view.balance_mut().is_running() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let balance = harness.state_mut().view.balance_mut();
    let Some(Ok(pairings)) = balance.result() else {
        panic!(
            "no balance result: {:?}",
            balance.result().map(|r| r.as_ref().err())
        );
    };
    assert_eq!(pairings.len(), 1, "easy vs medium only");
    let p = &pairings[0];
    assert_eq!(p.name, "easy vs medium");
    assert_eq!(p.games, 2);
    let shares = p.players[0].wins + p.players[1].wins;
    assert!((shares - 2.0).abs() < 1e-9, "every game has a winner share");
    harness.run();
    // The table under the plot names both players.
    harness.get_by_label("ai:easy");
    harness.get_by_label("ai:medium");
}

/// A harness that draws `view` as the playtest panel does.
fn table_harness(view: AzulPlaytest, project: Project) -> Harness<'static, Playing> {
    Harness::builder()
        .with_size(egui::vec2(1300.0, 1000.0))
        .build_ui_state(
            |ui, s: &mut Playing| {
                let mut cx = PlaytestContext {
                    project: &mut s.project,
                    console: &mut s.console,
                };
                drive_view(&mut s.view, &mut s.driver, ui, &mut cx);
                s.view.ui(ui, &mut cx);
            },
            Playing {
                view,
                driver: Driver::default(),
                project,
                console: Vec::new(),
            },
        )
}

/// A table on the project at `root` (a copy, for tests that write
/// `saves/`): the human against `ai`, started by the host's start path.
fn table_in(root: &Path, seed: u64, ai: &str) -> Harness<'static, Playing> {
    let mut project = Project::open(root, crate::registry()).expect("project");
    let session = project
        .start_session(Azul::ID, None, seed, &against(ai))
        .expect("game");
    let session = downcast_box::<Azul>(session)
        .map_err(|_| ())
        .expect("an Azul game");
    let view = AzulPlaytest::from_session(*session, Some(Duration::ZERO))
        .expect("table")
        .without_animations();
    table_harness(view, project)
}

#[test]
fn a_saved_game_loads_back_with_its_ai_level() {
    let dir = tempfile::tempdir().expect("temp dir");
    for sub in ["scripts", "levels"] {
        std::fs::create_dir_all(dir.path().join(sub)).expect("folder");
    }
    std::fs::copy(
        root().join("scripts/azul.lua"),
        dir.path().join("scripts/azul.lua"),
    )
    .expect("script");
    let mut harness = table_in(dir.path(), 5, "medium");
    harness.run_steps(3);
    // One move each against the medium AI, then save.
    let tile = first_factory_tile(&harness);
    harness.get_by_label(&tile).click();
    harness.run_steps(3);
    harness.get_by_label("line 3").click();
    harness.run_steps(3);
    wait_for_ai(&mut harness);
    let saved = *harness.state().view.state();
    harness.get_by_label("Save").click();
    harness.run_steps(3);
    assert!(dir.path().join("saves/azul.replay.ron").is_file());
    // New game asks the playtest for a new deal through the start path.
    harness.get_by_label("New game").click();
    harness.run_steps(3);
    assert_eq!(
        harness.state_mut().view.take_request(),
        Some(ViewRequest::NewGame { seed: Some(6) })
    );
    // Another table against the easy AI in the same project, then load the
    // saved game there.
    let mut harness = table_in(dir.path(), 9, "easy");
    harness.run_steps(3);
    assert_ne!(*harness.state().view.state(), saved);
    harness.get_by_label("Load").click();
    harness.run_steps(3);
    assert_eq!(*harness.state().view.state(), saved, "the saved position");
    assert_eq!(
        harness.state().view.ai_levels_played(),
        ["medium"],
        "its AI level"
    );
    assert_eq!(
        harness.state().view.game().options().ai_level(1),
        Some("medium")
    );
    assert!(
        harness
            .state()
            .view
            .log()
            .iter()
            .any(|(t, _)| t.starts_with("Loaded ") && t.ends_with("(against the medium AI)")),
        "{:?}",
        harness.state().view.log()
    );
}

#[test]
fn a_save_has_a_name_and_another_tables_save_asks_before_overwriting() {
    let dir = tempfile::tempdir().expect("temp dir");
    for sub in ["scripts", "levels"] {
        std::fs::create_dir_all(dir.path().join(sub)).expect("folder");
    }
    std::fs::copy(
        root().join("scripts/azul.lua"),
        dir.path().join("scripts/azul.lua"),
    )
    .expect("script");
    let default_save = dir.path().join("saves/azul.replay.ron");
    let mut harness = table_in(dir.path(), 5, "medium");
    harness.run_steps(3);
    harness.get_by_label("Save").click();
    harness.run_steps(3);
    let first = std::fs::read_to_string(&default_save).expect("saved");
    // Saving again from the same table asks nothing.
    harness.get_by_label("Save").click();
    harness.run_steps(3);
    assert!(harness.query_by_label("Overwrite").is_none());

    // Another table (another seed): the same name asks first.
    let mut harness = table_in(dir.path(), 9, "medium");
    harness.run_steps(3);
    harness.get_by_label("Save").click();
    harness.run_steps(3);
    assert_eq!(
        std::fs::read_to_string(&default_save).expect("kept"),
        first,
        "not overwritten before the answer"
    );
    harness.get_by_label("Cancel").click();
    harness.run_steps(3);
    assert!(harness.query_by_label("Overwrite").is_none());
    harness.get_by_label("Save").click();
    harness.run_steps(3);
    harness.get_by_label("Overwrite").click();
    harness.run_steps(3);
    assert_ne!(
        std::fs::read_to_string(&default_save).expect("overwritten"),
        first
    );
    // Save under another name; a name with a folder is refused.
    harness.get_by_label("Save as").focus();
    harness.run_steps(1);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label("Save as").type_text("mine");
    harness.run_steps(2);
    harness.get_by_label("Save").click();
    harness.run_steps(3);
    assert!(dir.path().join("saves/mine.replay.ron").is_file());
    harness.get_by_label("Save as").focus();
    harness.run_steps(1);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label("Save as").type_text("../out");
    harness.run_steps(2);
    harness.get_by_label("Save").click();
    harness.run_steps(3);
    assert!(
        harness
            .state()
            .view
            .log()
            .iter()
            .any(|(t, error)| *error && t.contains("not a save name")),
        "{:?}",
        harness.state().view.log()
    );
}

#[test]
fn scenario_editor_grey_wall_switch_paints_any_colour_and_checks_columns() {
    use tessera_ui::LevelEditor;
    let mut harness = scenario_editor("column_push.ron");
    harness.run();
    assert!(!harness.state().editor.grey());
    harness.get_by_label("Grey wall (variant)").click();
    harness.run();
    assert_eq!(harness.state().editor.level().grey_wall, Some(true));
    assert!(harness.state().editor.is_dirty());
    let wall_row = |h: &Harness<'static, Editing>, row: usize| {
        h.state().editor.level().position.as_ref().unwrap().boards[0].wall[row].clone()
    };
    // On the grey wall a brush puts its own colour in any cell: blue at
    // row 3, column 2 (the printed pattern has yellow there)...
    harness.get_by_label("blue").click();
    harness.run();
    harness.get_by_label("player 1 wall 3 2").click();
    harness.run();
    harness.run();
    assert_eq!(wall_row(&harness, 2), "GB...");
    // ...which puts blue twice in column 2 (row 2 has it): the one check
    // refuses it.
    let findings: Vec<String> = harness
        .state()
        .editor
        .findings()
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert!(
        findings
            .iter()
            .any(|m| m.contains("wall row 3 column 2: blue is already in this column")),
        "{findings:?}"
    );
    // Moved to column 3, it is legal, and the saved level says grey_wall.
    harness.get_by_label("player 1 wall 3 2").click();
    harness.run();
    harness.get_by_label("player 1 wall 3 3").click();
    harness.run();
    harness.run();
    assert_eq!(wall_row(&harness, 2), "G.B..");
    let text = harness.state().editor.to_ron().unwrap();
    assert!(text.contains("grey_wall: Some(true)"), "{text}");
    let findings = tessera_host::check::check_level_text(
        &crate::registry(),
        &root().join("levels/azul/column_push.ron"),
        Path::new("edited.ron"),
        &text,
    );
    assert!(findings.is_empty(), "{findings:?}\n{text}");
}

/// The label of the button that picks `m`'s tiles (`centre red x3`).
fn tile_label(s: &tessera_azul::rules::State, m: tessera_azul::rules::Move) -> String {
    use tessera_azul::rules::CENTRE;
    let names = ["blue", "yellow", "red", "green", "orange"];
    let source = if m.source == CENTRE {
        "centre".to_string()
    } else {
        format!("factory {}", m.source + 1)
    };
    let n = s.source_count(m.source, m.colour as usize);
    format!("{source} {} x{n}", names[m.colour as usize])
}

/// A plain human's choice: the legal move that fills the most of a
/// pattern line without spilling onto the floor, else the move that
/// drops the fewest tiles on the floor.
fn a_sensible_move(s: &tessera_azul::rules::State) -> tessera_azul::rules::Move {
    use tessera_azul::rules::{FLOOR, MoveList};
    let mut moves = MoveList::default();
    s.legal_moves(&mut moves);
    let me = &s.boards[s.to_move as usize];
    let spill = |m: &tessera_azul::rules::Move| -> i32 {
        let n = i32::from(s.source_count(m.source, m.colour as usize));
        if m.target == FLOOR {
            return n;
        }
        let line = m.target as usize;
        let free = line as i32 + 1 - i32::from(me.lines[line].count);
        (n - free).max(0)
    };
    *moves
        .as_slice()
        .iter()
        .min_by_key(|m| (spill(m), m.target == FLOOR, std::cmp::Reverse(m.target)))
        .expect("the human has a legal move")
}

#[test]
fn a_whole_game_by_clicks_against_each_ai_level_reaches_its_end_screen() {
    use tessera_azul::rules::FLOOR;
    // A project copy whose hard and expert think briefly: the test is about
    // the table taking a game to its end, not the AIs' strength.
    let dir = tempfile::tempdir().expect("temp dir");
    for sub in ["scripts", "levels"] {
        std::fs::create_dir_all(dir.path().join(sub)).expect("folder");
    }
    let shipped = std::fs::read_to_string(root().join("scripts/azul.lua")).expect("script");
    let quick = shipped
        .replacen("nodes = 200000", "nodes = 2000", 1)
        .replacen("playouts = 1000000", "playouts = 200", 1);
    assert_ne!(quick, shipped);
    std::fs::write(dir.path().join("scripts/azul.lua"), quick).expect("script copy");

    for (seed, level) in [(11, "easy"), (12, "medium"), (13, "hard"), (14, "expert")] {
        let mut harness = table_in(dir.path(), seed, level);
        harness.run_steps(3);
        let mut human_moves = 0;
        while harness.state().view.game().turn() != tessera_host::Turn::Over {
            assert!(human_moves < 200, "{level}: the game does not end");
            let s = *harness.state().view.state();
            let m = a_sensible_move(&s);
            harness.get_by_label(&tile_label(&s, m)).click();
            harness.run_steps(3);
            let target = if m.target == FLOOR {
                "floor".to_string()
            } else {
                format!("line {}", m.target + 1)
            };
            harness.get_by_label(&target).click();
            harness.run_steps(3);
            assert_ne!(
                *harness.state().view.state(),
                s,
                "{level}: the clicks played {m:?}"
            );
            human_moves += 1;
            wait_for_ai(&mut harness);
        }
        harness.run_steps(3);
        let view = &harness.state().view;
        let log: Vec<&str> = view.log().iter().map(|(t, _)| t.as_str()).collect();
        assert!(
            log.iter()
                .any(|t| t.starts_with(&format!("AI {level} (seat 2)"))),
            "{level}: {log:?}"
        );
        let s = view.state();
        assert!(
            (0..5).any(|row| s.boards.iter().any(|b| (0..5).all(|c| b.has(row, c)))),
            "{level}: the game ended on a complete row"
        );
        // The end screen names the result and the record replays.
        let ends = ["Victory", "Defeat"]
            .iter()
            .filter(|t| harness.query_by_label(t).is_some())
            .count();
        assert_eq!(ends, 1, "{level}: one end screen");
        // The end card sits in the table, above the boards: it covers
        // no board and no floor, and Escape closes it.
        let title = ["Victory", "Defeat"]
            .into_iter()
            .find(|t| harness.query_by_label(t).is_some())
            .expect("an end title");
        let card = harness.get_by_label(title).rect();
        for floor in harness.query_all_by_label("floor") {
            assert!(
                card.max.y <= floor.rect().min.y,
                "{level}: the end card {card:?} is above the floor {:?}",
                floor.rect()
            );
        }
        harness.key_press(egui::Key::Escape);
        harness.run_steps(2);
        assert!(
            harness.query_by_label(title).is_none(),
            "{level}: Escape closes the end card"
        );
        let view = &harness.state().view;
        let record = view.game().game().game_record().expect("record");
        let report = tessera_azul::record::check_record(&record, Default::default());
        assert_eq!(report.first_difference, None, "{level}: {record}");
        assert!(human_moves >= 10, "{level}: {human_moves} human moves");
    }
}

#[test]
fn a_game_between_ais_ends_without_victory_or_defeat() {
    let mut project = Project::open(&root(), crate::registry()).expect("project");
    let easy = Seat::Ai {
        level: "easy".to_string(),
    };
    let options = SessionOptions {
        mode: None,
        seats: vec![easy.clone(), easy],
    };
    let session = project
        .start_session(Azul::ID, None, 4, &options)
        .expect("game");
    let session = downcast_box::<Azul>(session)
        .map_err(|_| ())
        .expect("an Azul game");
    let view = AzulPlaytest::from_session(*session, Some(Duration::ZERO))
        .expect("table")
        .without_animations();
    let mut harness = table_harness(view, project);
    for _ in 0..2000 {
        harness.run_steps(2);
        if harness.state().view.game().turn() == tessera_host::Turn::Over {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    harness.run_steps(3);
    assert_eq!(
        harness.state().view.game().turn(),
        tessera_host::Turn::Over,
        "two easy AIs finish a game"
    );
    // Nobody at the table played: the card and the status say who won,
    // not "Victory" or "Defeat".
    assert!(harness.query_by_label("Game over").is_some());
    for word in ["Victory", "Defeat"] {
        assert!(harness.query_by_label(word).is_none(), "{word}");
    }
    let status = harness
        .query_all_by_label_contains("Game over: player")
        .count();
    assert_eq!(status, 1, "the status line names the winner");
}
