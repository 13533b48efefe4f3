//! F5 in the editor starts each game's own view through the host's one
//! start path (the views' own tests drive them alone).

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use super::support::{self, drag};
use tessera_editor::EditorApp;

/// A project folder holding a copy of `game`'s shipped script.
fn project_with(game: &str) -> tempfile::TempDir {
    let dir = support::temp_project(&[&format!("scripts/{game}.lua")]);
    std::fs::create_dir_all(dir.path().join("levels").join(game)).unwrap();
    dir
}

fn editor(dir: &Path) -> Harness<'static, EditorApp> {
    support::sized(EditorApp::open(dir).unwrap(), egui::vec2(1600.0, 1200.0))
}

/// The editor on `dir` with sand's script open and F5 pressed: sand's
/// playtest running. (The view animates, asking for a repaint every frame,
/// so the tests step rather than run to a still frame.)
fn sand_playtest(dir: &Path) -> Harness<'static, EditorApp> {
    sand_playtest_in(editor(dir))
}

/// Sand's playtest started in `harness`, as [`sand_playtest`] does.
fn sand_playtest_in(mut harness: Harness<'static, EditorApp>) -> Harness<'static, EditorApp> {
    harness.run_steps(3);
    harness.get_by_label("📜 sand.lua").click();
    harness.run_steps(3);
    harness.key_press(egui::Key::F5);
    harness.run_steps(5);
    harness
}

#[test]
fn f5_in_the_editor_starts_sand_and_a_piece_can_be_dragged_onto_the_board() {
    let dir = project_with("sand");
    let mut harness = sand_playtest(dir.path());
    harness.get_by_label("pieces placed 0");
    let slot = harness.get_by_label("slot 1").rect().center();
    let board = harness.get_by_label("sand board").rect();
    // Mid-air, in the middle of the empty board: legal for every shape.
    drag(&mut harness, slot, board.center());
    harness.get_by_label("pieces placed 1");
}

#[test]
fn f5_from_a_tetris_level_starts_the_keyboard_view() {
    let dir = project_with("tetris");
    std::fs::copy(
        support::repo_root().join("levels/tetris/classic_18x12.ron"),
        dir.path().join("levels/tetris/classic_18x12.ron"),
    )
    .unwrap();
    let mut harness = editor(dir.path());
    harness.run_steps(3);
    harness.get_by_label("📜 tetris.lua").click();
    harness.run_steps(3);
    harness.key_press(egui::Key::F5);
    harness.run_steps(5);
    harness.get_by_label("tetris board");
    harness.get_by_label("Pieces 0");
}

#[test]
fn a_seed_json_polycube_level_opens_as_a_level_and_f5_plays_it() {
    let dir = project_with("polycube");
    let json = dir.path().join("levels/polycube/sandwich.json");
    std::fs::copy(
        support::repo_root().join("levels/polycube/sandwich.json"),
        &json,
    )
    .unwrap();
    let mut harness = editor(dir.path());
    harness.run_steps(3);
    harness.state_mut().open_file(&json).expect("opens");
    harness.run_steps(5);
    let target = harness.state().playtest_target().expect("a level to play");
    assert_eq!(target.level.as_deref(), Some(json.as_path()));
    // The visual editor, not plain text; its text tab is named by the
    // file's format.
    harness.get_by_label("Unique?");
    harness.get_by_label("JSON text");
    assert!(harness.query_by_label("RON text").is_none());
    harness.key_press(egui::Key::F5);
    harness.run_steps(5);
    harness.get_by_label_contains("Sandwich (seed JSON)");
    harness.get_by_label_contains("0/4 placed");
}

/// The layout kittest for sand: the docked playtest's buttons and board
/// stay where they are across drops, a refused drop and its line, and a
/// drop past the board's edge.
#[test]
fn sand_holds_still_while_it_is_played() {
    let dir = project_with("sand");
    let mut harness = sand_playtest(dir.path());
    let mut watch = support::layout::LayoutWatch::default();
    watch.look(&harness, "start");
    let board = harness.get_by_label("sand board").rect();
    // Three drops: above the board (clamped to the top row), then, once
    // it fell, below the board (clamped onto it: refused) and the middle.
    for (turn, to) in [
        egui::pos2(board.center().x, board.top() - 30.0),
        egui::pos2(board.center().x, board.bottom() + 30.0),
        board.center(),
    ]
    .into_iter()
    .enumerate()
    {
        let slot = harness.get_by_label("slot 1").rect().center();
        drag(&mut harness, slot, to);
        harness.run_steps(3);
        watch.look(&harness, &format!("drop {}", turn + 1));
        harness.run_steps(300);
    }
    assert!(watch.watched() >= 5, "the rig saw the slots and the board");
    watch.assert_still();
}

/// Issue 35's walk: at the default window (1400 x 900, the playtest docked
/// 440 px wide) sand's side panel was clipped at the window's edge; it now
/// fits beside the board (narrower slots) or goes below it.
#[test]
fn sands_side_panel_fits_the_default_docked_playtest() {
    let dir = project_with("sand");
    let harness = sand_playtest_in(support::harness(dir.path()));
    harness.get_by_label("Debug overlays");
    harness.get_by_label("slot 3");
    support::layout::assert_inside_the_window(&harness, 1400.0);
}

/// Sand's drops: a drop with the pointer above the board is clamped onto
/// it (as the ghost shows), and a refused drop is an info line that takes
/// no step, so the next Ctrl+Z undoes the last real move.
#[test]
fn a_drop_above_the_board_is_clamped_and_a_refused_one_takes_no_step() {
    let dir = project_with("sand");
    let mut harness = sand_playtest(dir.path());
    let board = harness.get_by_label("sand board").rect();
    let slot = harness.get_by_label("slot 1").rect().center();
    drag(
        &mut harness,
        slot,
        egui::pos2(board.center().x, board.top() - 30.0),
    );
    harness.get_by_label("pieces placed 1");
    let steps =
        |h: &Harness<'_, EditorApp>| h.state().playtest().session().map_or(0, |s| s.step_count());
    // Let it fall to the bottom, then drop below the board, clamped onto
    // the bottom rows where it lies: refused.
    harness.run_steps(300);
    let before = steps(&harness);
    let slot = harness.get_by_label("slot 1").rect().center();
    drag(
        &mut harness,
        slot,
        egui::pos2(board.center().x, board.bottom() + 30.0),
    );
    harness.get_by_label("pieces placed 1");
    let lines = harness.state().console().lines().to_vec();
    let refusal = lines
        .iter()
        .find(|l| l.text.starts_with("sand: not placed"))
        .unwrap_or_else(|| panic!("a refusal line in {lines:?}"));
    assert!(
        !refusal.is_error,
        "a refused drop is not an error: {refusal:?}"
    );
    let places = |h: &Harness<'_, EditorApp>| {
        let session = h.state().playtest().session().expect("a session");
        session
            .trajectory()
            .rows
            .iter()
            .filter(|r| r.step.starts_with("Place"))
            .count()
    };
    assert_eq!(places(&harness), 1, "the refused drop is not in the record");
    assert!(
        steps(&harness) <= before + 1,
        "no step for the refusal (ticks merge)"
    );
}

/// The layout kittest for polycube: choosing a piece, picking a cell,
/// Place, Undo and a refused aim move no button, cell or view.
#[test]
fn polycube_holds_still_while_it_is_played() {
    let dir = project_with("polycube");
    let json = dir.path().join("levels/polycube/sandwich.json");
    std::fs::copy(
        support::repo_root().join("levels/polycube/sandwich.json"),
        &json,
    )
    .unwrap();
    let mut harness = editor(dir.path());
    harness.run_steps(3);
    harness.state_mut().open_file(&json).expect("opens");
    harness.run_steps(3);
    harness.key_press(egui::Key::F5);
    harness.run_steps(5);
    let mut watch = support::layout::LayoutWatch::default();
    watch.look(&harness, "start");
    let mut act = |harness: &mut Harness<'_, EditorApp>, label: &str| {
        support::layout::click_in_playtest(harness, label);
        harness.run_steps(3);
        watch.look(harness, label);
    };
    act(&mut harness, "C (1)");
    // A cell another piece's aim would refuse, then a legal one.
    act(&mut harness, "cell 2,2,2");
    act(&mut harness, "Clear aim");
    act(&mut harness, "cell 1,1,1");
    act(&mut harness, "Place");
    harness.get_by_label_contains("1/4 placed");
    act(&mut harness, "Undo");
    harness.get_by_label_contains("0/4 placed");
    act(&mut harness, "F (9)");
    act(&mut harness, "cell 1,1,1");
    // Issue 49: the aiming modes' help has one slot in both modes.
    act(&mut harness, "Anchor + rotation");
    act(&mut harness, "cell 2,2,2");
    act(&mut harness, "Pick cells");
    assert!(watch.watched() >= 20, "the rig saw the cells and buttons");
    watch.assert_still();
}
