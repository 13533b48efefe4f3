//! Issue 49's sweep of the editor's other screens: each game's level
//! editor (its checks finishing, F5, Ctrl+S), File ▸ Generate… (running,
//! Cancel, a refused spec's long message, a level made) and the Tests
//! panel (a run, a changed replay with its long step lines, Accept). No
//! widget outside a slot declared to grow may move by a pixel at an
//! unchanged window size, and none may reach outside the window.

use std::path::Path;
use std::time::{Duration, Instant};

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::support;
use tessera_editor::EditorApp;
use tessera_editor::generate_dialog::GenerateDialog;
use tessera_ui_testkit::Sweep;

/// The editor's default window.
const SIZE: egui::Vec2 = egui::vec2(1400.0, 900.0);

/// Frames for `wall` of real time: background work (a solver, a suite run)
/// goes on meanwhile.
fn frames_for(harness: &mut Harness<'_, EditorApp>, wall: Duration) {
    let until = Instant::now() + wall;
    while Instant::now() < until {
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The open document's part of the window: right of the project tree,
/// left of the docked playtest, above the console.
fn document_area(harness: &Harness<'_, EditorApp>) -> egui::Rect {
    let tree = harness.state().remembered(&harness.ctx).tree_width;
    let right = harness.get_by_label("🗖 Maximise").rect().min.x - 12.0;
    let bottom = harness.get_by_label("Console").rect().min.y - 4.0;
    egui::Rect::from_min_max(egui::pos2(tree, 0.0), egui::pos2(right, bottom))
}

/// `game`'s level editor on `level`, through its checks finishing, a
/// playtest started beside it (F5) and a save (Ctrl+S).
fn level_editor_holds_still(game: &str, level: &str) {
    let dir = support::temp_project(&[
        &format!("scripts/{game}.lua"),
        &format!("levels/{game}/{level}"),
    ]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = support::on_level(&root, game, level, SIZE);
    // In view: above the console (the level editors do not scroll).
    let console = harness.get_by_label("Console").rect().top() - 4.0;
    let mut sweep = Sweep::new(SIZE, &[]).visible(egui::Rect::from_min_max(
        egui::Pos2::ZERO,
        egui::pos2(SIZE.x, console),
    ));
    sweep.change_in(
        &mut harness,
        &format!("{game}: its checks finish"),
        document_area,
        |h| frames_for(h, Duration::from_secs(2)),
    );
    sweep.change_in(&mut harness, &format!("{game}: F5"), document_area, |h| {
        h.key_press(Key::F5);
        frames_for(h, Duration::from_millis(500));
    });
    sweep.change_in(
        &mut harness,
        &format!("{game}: Ctrl+S"),
        document_area,
        |h| {
            h.key_press_modifiers(Modifiers::COMMAND, Key::S);
            frames_for(h, Duration::from_millis(300));
        },
    );
    sweep.assert_steady();
}

#[test]
fn the_sand_level_editor_holds_still() {
    level_editor_holds_still("sand", "classic.ron");
}

#[test]
fn the_tetris_level_editor_holds_still() {
    level_editor_holds_still("tetris", "marathon_20x10.ron");
}

#[test]
fn the_azul_level_editor_holds_still() {
    level_editor_holds_still("azul", "standard.ron");
}

#[test]
fn the_polycube_level_editor_holds_still() {
    level_editor_holds_still("polycube", "01_first_steps.ron");
}

/// Sets the form's text field labelled `--option` to `value`.
fn set_field(harness: &mut Harness<'_, GenerateDialog>, option: &str, value: &str) {
    let field = harness.get_by_label(option);
    field.focus();
    harness.run_steps(1);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    harness.key_press(Key::Backspace);
    harness.get_by_label(option).type_text(value);
    harness.run_steps(2);
}

/// Steps until the dialog's job ended (at most 60 s), from the frame that
/// takes the click before.
fn until_idle(harness: &mut Harness<'_, GenerateDialog>) {
    harness.run_steps(1);
    let until = Instant::now() + Duration::from_secs(60);
    while harness.state().is_running() {
        assert!(Instant::now() < until, "the generation never ended");
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.run_steps(2);
}

/// File ▸ Generate… through its states: a long generation running, its
/// Cancel, a spec the generator refuses (its message in red, long enough
/// to wrap) and a level made.
#[test]
fn the_generate_dialog_holds_still() {
    let registry = tessera_builtin::registry();
    let game = "polycube";
    let generator = registry.generator(game).expect("polycube has a generator");
    let words: Vec<String> = ["--box", "4x4x4", "--unique", "--seed", "3"]
        .iter()
        .map(|w| w.to_string())
        .collect();
    let dialog = GenerateDialog::from_command_line(game, generator, &words).expect("fills");
    let size = egui::vec2(900.0, 600.0);
    let mut harness = tessera_ui_testkit::window(
        size,
        |ui, dialog: &mut GenerateDialog| {
            let _ = dialog.ui(ui.ctx());
        },
        dialog,
    );
    harness.run_steps(2);
    // The dialog's window grows at its bottom edge with its message line
    // ("stopped", a refusal): its resize handles there move, nothing in it.
    let mut sweep = Sweep::new(size, &["Resize window"]);
    sweep.change(&mut harness, "Generate", |h| {
        h.get_by_label("Generate").click();
        h.run_steps(3);
    });
    assert!(
        harness.state().is_running(),
        "{:?}",
        harness.state().error()
    );
    sweep.change(&mut harness, "Cancel", |h| {
        h.get_by_label("Cancel").click();
        until_idle(h);
    });
    set_field(&mut harness, "--box", "40x40x40");
    sweep.change(&mut harness, "a refused spec", |h| {
        h.get_by_label("Generate").click();
        until_idle(h);
    });
    assert!(
        harness.state().error().is_some(),
        "40x40x40 is refused: {:?}",
        harness.state().command_line()
    );
    set_field(&mut harness, "--box", "2x2x2");
    sweep.change(&mut harness, "a level made", |h| {
        h.get_by_label("Generate").click();
        until_idle(h);
    });
    sweep.assert_steady();
}

/// A project with the sand script, the cascade level and its recorded
/// replay with the snapshot it matches.
fn suite_project() -> tempfile::TempDir {
    support::temp_project(&[
        "scripts/sand.lua",
        "levels/sand/cascade.ron",
        "tests/replays/sand/cascade_chain.replay.ron",
        "snapshots/replays__sand__cascade_chain.snap",
    ])
}

/// Runs the suite from the Tests panel and waits for its results.
fn run_the_suite(harness: &mut Harness<'_, EditorApp>) {
    harness.state_mut().run_tests();
    support::step_until(harness, "the suite's results", |h| {
        !h.state().tests().is_running() && !h.state().tests().results().is_empty()
    });
    harness.run_steps(3);
}

/// The Tests panel through a green run, the same run again, a changed
/// replay (its first differing step's long lines, old and new) and Accept.
#[test]
fn the_tests_panel_holds_still() {
    let dir = suite_project();
    let root = dir.path().canonicalize().expect("root");
    let mut harness = support::sized(EditorApp::open(&root).expect("opens"), SIZE);
    harness.run_steps(3);
    run_the_suite(&mut harness);
    let mut sweep = Sweep::new(SIZE, &[]);
    sweep.change(&mut harness, "the suite again", run_the_suite);
    let script = root.join("scripts/sand.lua");
    double_the_score(&script);
    sweep.change(&mut harness, "a changed replay", run_the_suite);
    harness.get_by_label("0 unchanged, 1 changed");
    sweep.change(&mut harness, "Accept", |h| {
        h.get_by_label("✔ Accept").click();
        h.run_steps(3);
    });
    sweep.assert_steady();
}

/// The designer doubles every score of sand's script.
fn double_the_score(script: &Path) {
    let text = std::fs::read_to_string(script).expect("script");
    let doubled = text.replace(
        "return math.floor(10 * math.sqrt(cells)) * chain",
        "return 2 * math.floor(10 * math.sqrt(cells)) * chain",
    );
    assert_ne!(text, doubled, "the score line is in the script");
    std::fs::write(script, doubled).expect("written");
}

/// A feed level: the player hands the AI its pieces.
const FEED_LEVEL: &str = "(\n  version: 1,\n  title: \"Feed test\",\n  rows: 20,\n  columns: 10,\n  hidden_rows: 2,\n  rotation: Some(\"srs\"),\n  feed: Some((difficulty: \"HARD\", target_lines: 3)),\n)\n";

/// Whether the playtest's turn is the player's (the AI has placed).
fn players_turn(harness: &Harness<'_, EditorApp>) -> bool {
    harness
        .query_by_label("Your turn: choose the AI's next piece")
        .is_some()
}

/// The tool windows (Tetris's AI log and Balance) through their states:
/// opened, the AI log's first decision and Copy, a second one, Balance
/// opened, its simulation running and cancelled. Nothing in the window
/// moves: neither the windows' own buttons nor the playtest under them.
#[test]
fn the_tool_windows_hold_still() {
    let dir = support::temp_project(&["scripts/tetris.lua"]);
    let root = dir.path().canonicalize().expect("root");
    let level = root.join("levels/tetris/feed_test.ron");
    std::fs::create_dir_all(level.parent().expect("a folder")).expect("levels/tetris");
    std::fs::write(&level, FEED_LEVEL).expect("the level");
    let mut harness = support::sized(EditorApp::open(&root).expect("opens"), SIZE);
    harness.run_steps(3);
    harness.state_mut().open_file(&level).expect("opens");
    harness.run_steps(3);
    harness.key_press(Key::F5);
    harness.run_steps(4);
    let give = |h: &mut Harness<'_, EditorApp>| {
        h.get_by_label("give I").click();
        h.run_steps(2);
        support::step_until(h, "the AI placed the piece", players_turn);
        h.run_steps(3);
    };
    // The log's text is the content of its window's scroll area.
    let mut sweep = Sweep::new(SIZE, &[]).clipped(&["tessera tetris ai log"]);
    sweep.change(&mut harness, "open the AI log", |h| {
        h.get_by_label("📜 AI log (S)").click();
        h.run_steps(3);
    });
    sweep.change(&mut harness, "the AI log's first decision", give);
    sweep.change(&mut harness, "Copy", |h| {
        h.get_by_label("📋 Copy").click();
        h.run_steps(3);
    });
    sweep.change(&mut harness, "the next decision", give);
    sweep.change(&mut harness, "open Balance", |h| {
        h.get_by_label("⚖ Balance").click();
        h.run_steps(3);
    });
    sweep.change(&mut harness, "choose an AI", |h| {
        h.get_by_label("EASY").click();
        h.run_steps(3);
    });
    sweep.change(&mut harness, "run the simulation", |h| {
        h.get_by_label("▶ Run simulation").click();
        frames_for(h, Duration::from_millis(500));
    });
    sweep.change(&mut harness, "cancel it", |h| {
        h.get_by_label("Cancel").click();
        frames_for(h, Duration::from_millis(800));
    });
    sweep.assert_steady();
}

/// The polycube level editor at 1280 x 800 (the docs' picture): its 3D
/// view of the piece is in view above the console, not a sliver. Below
/// the layer's grid it ran under the console (the picture showed only its
/// buttons); it now sits beside the grid.
#[test]
fn the_polycube_level_editors_3d_view_is_in_view_at_1280x800() {
    let size = egui::vec2(1280.0, 800.0);
    let dir =
        support::temp_project(&["scripts/polycube.lua", "levels/polycube/01_first_steps.ron"]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = support::sized(EditorApp::open(&root).expect("opens"), size);
    harness.run_steps(3);
    harness
        .state_mut()
        .open_file(&root.join("levels/polycube/01_first_steps.ron"))
        .expect("the level opens");
    frames_for(&mut harness, Duration::from_millis(500));
    let console = harness.get_by_label("Console").rect().top();
    let view = harness.get_by_label("3D view").rect();
    assert!(
        view.bottom() <= console && view.height() >= 40.0,
        "the 3D view at {view:?}, the console at {console}"
    );
}

/// The Azul scenario editor's "+" buttons stay under the pointer as they
/// add tiles (docs/games/azul.md: "click + factory 1 twice"): after tiles
/// they moved right by a tile each, so the second click took the first
/// tile away again, and the factories after a growing one moved too.
#[test]
fn the_azul_scenario_editors_add_buttons_hold_still() {
    let dir = support::temp_project(&["scripts/azul.lua", "levels/azul/standard.ron"]);
    let root = dir.path().canonicalize().expect("root");
    // Tall enough that the factories are in view without scrolling.
    let size = egui::vec2(1400.0, 1600.0);
    let mut harness = support::sized(EditorApp::open(&root).expect("opens"), size);
    harness.run_steps(3);
    harness
        .state_mut()
        .open_file(&root.join("levels/azul/standard.ron"))
        .expect("the level opens");
    harness.run_steps(3);
    harness.get_by_label("Add a starting position").click();
    harness.run_steps(3);
    let mut sweep = Sweep::new(size, &[]);
    for button in ["+ factory 1", "+ factory 1", "+ centre", "+ player 1 floor"] {
        sweep.change_in(&mut harness, button, document_area, |h| {
            h.get_by_label(button).click();
            h.run_steps(3);
        });
    }
    sweep.assert_steady();
}
