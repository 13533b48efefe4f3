//! Issue 49's editor sweep: a level edited, played as its unsaved buffer
//! and saved with Ctrl+S during the playtest, for every game. Nothing in
//! the docked playtest may move (the "was saved" banner pushed the game
//! down 27 px and was cut off at the panel's edge), and the header stops
//! saying "(unsaved edits)" once they are saved.

use std::path::Path;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

use super::support;
use tessera_editor::EditorApp;
use tessera_ui_testkit::Sweep;

/// The editor's default window: the playtest docked about 440 px wide.
const SIZE: egui::Vec2 = egui::vec2(1400.0, 900.0);

/// A project holding `game`'s shipped script and its level `level`.
fn project(game: &str, level: &str) -> tempfile::TempDir {
    support::temp_project(&[
        &format!("scripts/{game}.lua"),
        &format!("levels/{game}/{level}"),
    ])
}

/// Opens `level`'s text tab, adds a comment at its end (an unsaved edit)
/// and presses F5: the playtest plays the unsaved buffer.
fn play_an_unsaved_edit(
    harness: &mut Harness<'_, EditorApp>,
    root: &Path,
    game: &str,
    level: &str,
) {
    let path = root.join("levels").join(game).join(level);
    harness
        .state_mut()
        .open_file(&path)
        .expect("the level opens");
    harness.run_steps(3);
    harness.get_by_label("RON text").click();
    harness.run_steps(2);
    harness.get_by_role(Role::MultilineTextInput).focus();
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::End);
    harness.run_steps(2);
    harness
        .get_by_role(Role::MultilineTextInput)
        .type_text("\n// edited during the sweep\n");
    harness.run_steps(2);
    harness.key_press(Key::F5);
    harness.run_steps(6);
    assert!(
        harness.state().playtest().plays_unsaved_buffer(),
        "{game}: F5 plays the unsaved buffer"
    );
    assert!(
        unsaved_header(harness).is_some(),
        "{game}: the header says the edits are unsaved"
    );
}

/// The docked playtest's header line, when it says "(unsaved edits)" (the
/// console's start line says it too, and stays).
fn unsaved_header(harness: &Harness<'_, EditorApp>) -> Option<String> {
    let area = support::layout::playtest_area(harness);
    harness
        .query_all_by_label_contains("(unsaved edits)")
        .find(|n| area.contains(n.rect().min))
        .map(|n| {
            let node = n.accesskit_node();
            // A label's text is its accessible value.
            node.label()
                .filter(|l| !l.is_empty())
                .or_else(|| node.value())
                .unwrap_or_default()
        })
}

/// Ctrl+S during `game`'s playtest moves nothing in the docked playtest,
/// keeps the restart offer inside the window and updates the header. A
/// view that `scrolls` may run below the window's bottom.
fn save_during_play(game: &str, level: &str, scrolls: bool) {
    let dir = project(game, level);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = support::sized(EditorApp::open(&root).expect("opens"), SIZE);
    harness.run_steps(3);
    play_an_unsaved_edit(&mut harness, &root, game, level);
    let mut sweep = Sweep::new(SIZE, &[]);
    if scrolls {
        sweep = sweep.scrolling(support::layout::playtest_area(&harness));
    }
    sweep.change_in(
        &mut harness,
        &format!("{game}: Ctrl+S during play"),
        support::layout::playtest_area,
        |h| {
            h.key_press_modifiers(Modifiers::COMMAND, Key::S);
            h.run_steps(4);
        },
    );
    assert!(
        harness.state().playtest().offers_restart(),
        "{game}: the save offers a restart"
    );
    let header = unsaved_header(&harness);
    sweep.assert_steady();
    assert_eq!(header, None, "{game}: the header after the save");
}

#[test]
fn saving_during_a_sand_playtest_moves_nothing() {
    save_during_play("sand", "classic.ron", false);
}

#[test]
fn saving_during_a_tetris_playtest_moves_nothing() {
    save_during_play("tetris", "marathon_20x10.ron", false);
}

#[test]
fn saving_during_an_azul_playtest_moves_nothing() {
    // Azul's docked view is a scroll area: at this window its controls and
    // messages are below the fold (200 px), a layout still to fit.
    save_during_play("azul", "standard.ron", true);
}

#[test]
fn saving_during_a_polycube_playtest_moves_nothing() {
    save_during_play("polycube", "01_first_steps.ron", false);
}
