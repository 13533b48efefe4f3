//! Ctrl+Z in the playtest while a level tab is open and the board was
//! clicked: the Tetris board takes egui's focus on a click (its arrows are
//! moves, not focus navigation), and the playtest's undo keys must still
//! take back the player's move. The undo keys are the host's one path
//! (`PlaytestArea`), so this holds for every game's view.

use super::support;

use support::{console_texts, harness, step_until};

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_editor::EditorApp;
use tessera_host::{Seat, SessionOptions, Turn};
use tessera_tetris::Tetris;

const FEED_LEVEL: &str = "(\n  version: 1,\n  title: \"Feed test\",\n  rows: 20,\n  columns: 10,\n  hidden_rows: 2,\n  rotation: Some(\"srs\"),\n  feed: Some((difficulty: \"HARD\", target_lines: 3)),\n)\n";

/// A project with the Tetris script, a feed level and the marathon level.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("scripts")).expect("scripts/");
    std::fs::create_dir_all(dir.path().join("levels/tetris")).expect("levels/");
    std::fs::copy(
        tessera_testkit::repo_path("scripts/tetris.lua"),
        dir.path().join("scripts/tetris.lua"),
    )
    .expect("script");
    std::fs::copy(
        tessera_testkit::repo_path("levels/tetris/marathon_20x10.ron"),
        dir.path().join("levels/tetris/marathon_20x10.ron"),
    )
    .expect("marathon level");
    std::fs::write(dir.path().join("levels/tetris/feed_test.ron"), FEED_LEVEL).expect("feed");
    dir
}

/// The running Tetris session.
fn game<'a>(harness: &'a Harness<'_, EditorApp>) -> &'a tessera_host::Recorded<Tetris> {
    let session = harness.state().playtest().session().expect("a session");
    tessera_host::session::downcast::<Tetris>(session).expect("a tetris session")
}

/// Opens `level` in a tab (the tree click) and plays it with F5.
fn open_and_play(root: &std::path::Path, level: &str) -> Harness<'static, EditorApp> {
    let mut harness = harness(root);
    harness.get_by_label_contains(level).click();
    harness.run_steps(3);
    assert_eq!(
        harness.state().documents().len(),
        1,
        "the level's tab is open"
    );
    harness.key_press(Key::F5);
    harness.run_steps(3);
    harness
}

/// Clicks the board and checks that it now holds egui's focus (the case
/// the undo keys once ignored).
fn click_board(harness: &mut Harness<'_, EditorApp>) {
    harness.get_by_label("tetris board").click();
    harness.run_steps(2);
    assert!(
        harness.ctx.memory(|m| m.focused()).is_some(),
        "a click on the board gives it egui's focus"
    );
}

fn ctrl_z(harness: &mut Harness<'_, EditorApp>) {
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
}

#[test]
fn ctrl_z_after_a_click_on_the_feed_board_takes_back_the_piece_given() {
    let dir = project();
    let root = dir.path().canonicalize().expect("root");
    let mut harness = open_and_play(&root, "feed_test.ron");
    harness.get_by_label("give T").click();
    harness.run_steps(2);
    step_until(&mut harness, "the AI places the T", |h| {
        game(h).game().field().board().count() == 4
            && game(h).turn() == Turn::Seat(0)
            && h.query_by_label_contains("AI: T").is_none()
    });
    click_board(&mut harness);
    ctrl_z(&mut harness);
    assert_eq!(
        console_texts(&harness).last().map(String::as_str),
        Some("undone: your last move"),
        "{:#?}",
        console_texts(&harness)
    );
    let session = game(&harness);
    assert_eq!(session.game().field().board().count(), 0, "the T is gone");
    assert!(
        session
            .trajectory()
            .rows
            .iter()
            .all(|r| !r.step.starts_with("Feed(")),
        "the piece given is taken back too: {:?}",
        session.trajectory().rows
    );
    // Still the board's keyboard: a second Ctrl+Z says there is nothing
    // left.
    ctrl_z(&mut harness);
    assert_eq!(
        console_texts(&harness).last().map(String::as_str),
        Some("nothing to undo")
    );
}

#[test]
fn ctrl_z_after_a_click_on_the_classic_board_undoes_the_drop_and_does_not_rotate() {
    let dir = project();
    let root = dir.path().canonicalize().expect("root");
    let mut harness = harness(&root);
    // A human plays classic (the marathon level's own mode).
    harness.state_mut().playtest_mut().set_options(
        "tetris",
        SessionOptions {
            mode: Some("classic".into()),
            seats: vec![Seat::Human],
        },
    );
    harness.get_by_label_contains("marathon_20x10.ron").click();
    harness.run_steps(3);
    harness.key_press(Key::F5);
    harness.run_steps(3);
    click_board(&mut harness);
    harness.key_press(Key::Space);
    harness.run_steps(2);
    assert_eq!(
        game(&harness).game().field().locked(),
        1,
        "the hard drop locked"
    );
    assert!(
        game(&harness)
            .trajectory()
            .rows
            .iter()
            .any(|r| r.step.starts_with("HardDrop"))
    );
    ctrl_z(&mut harness);
    assert_eq!(
        console_texts(&harness).last().map(String::as_str),
        Some("undone: your last move"),
        "{:#?}",
        console_texts(&harness)
    );
    let session = game(&harness);
    assert_eq!(session.game().field().locked(), 0, "the drop is taken back");
    assert!(
        session
            .trajectory()
            .rows
            .iter()
            .all(|r| !r.step.starts_with("RotateCcw")),
        "the Z of Ctrl+Z is not also a rotation"
    );
    assert!(
        session
            .trajectory()
            .rows
            .iter()
            .all(|r| !r.step.starts_with("HardDrop")),
        "the record ends before the drop"
    );
}
