//! Driving the Azul table by clicks: a human move, the AI's reply, undo.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_azul::Azul;
use tessera_host::Game;
use tessera_host::project::Project;

use super::view::AzulPlaytest;
use crate::playtest::{ConsoleLine, PlaytestContext, PlaytestView};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

struct Playing {
    view: AzulPlaytest,
    project: Project,
    console: Vec<ConsoleLine>,
}

fn table(seed: u64) -> Harness<'static, Playing> {
    let mut project = Project::open(&root(), tessera_builtin::registry()).expect("project");
    let script = project
        .script(&project.game_script_path(Azul::ID))
        .expect("script");
    let view =
        AzulPlaytest::new(Default::default(), script, seed, Some(Duration::ZERO)).expect("table");
    Harness::builder()
        .with_size(egui::vec2(1300.0, 1000.0))
        .build_ui_state(
            |ui, s: &mut Playing| {
                let mut cx = PlaytestContext {
                    project: &mut s.project,
                    console: &mut s.console,
                };
                s.view.ui(ui, &mut cx);
            },
            Playing {
                view,
                project,
                console: Vec::new(),
            },
        )
}

/// Runs frames until the AI has replied (or a few seconds pass).
fn wait_for_ai(harness: &mut Harness<'static, Playing>) {
    for _ in 0..400 {
        harness.run();
        if !harness.state().view.ai_busy() && harness.state().view.game().ai_to_move().is_none() {
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
    harness.run();
    let tile = first_factory_tile(&harness);
    let before = *harness.state().view.state();
    harness.get_by_label(&tile).click();
    harness.run();
    harness.get_by_label("line 5").click();
    harness.run();
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
    harness.run();
    assert_eq!(*harness.state().view.state(), before);
}

#[test]
fn an_illegal_line_is_not_offered() {
    let mut harness = table(5);
    harness.run();
    // Without a picked colour, lines are not clickable: nothing happens.
    let before = *harness.state().view.state();
    harness.get_by_label("line 1").click();
    harness.run();
    assert_eq!(*harness.state().view.state(), before);
    // Pick, then the floor always takes the tiles.
    let tile = first_factory_tile(&harness);
    harness.get_by_label(&tile).click();
    harness.run();
    harness.get_by_label("floor").click();
    harness.run();
    let s = harness.state().view.state();
    assert!(s.boards[0].floor_len > 0);
}
