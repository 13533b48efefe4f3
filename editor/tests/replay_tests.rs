//! The rule-change workflow in the editor: record a sand playtest as a
//! test, change the score formula, see the Tests panel report the replay as
//! changed with its first differing step, accept it, and find the suite
//! green again; "Open" replays it in the playtest view.

use super::support;

use std::path::{Path, PathBuf};

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use support::{console_texts, harness};
use tessera_editor::EditorApp;
use tessera_host::project::Project;
use tessera_host::suite::{self, Verdict};

fn repo(relative: &str) -> PathBuf {
    support::repo_root().join(relative)
}

/// A project with the shipped sand script and the cascade level (a board
/// that clears three times in a chain on its own).
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::create_dir_all(dir.path().join("levels/sand")).unwrap();
    std::fs::copy(
        repo("scripts/sand.lua"),
        dir.path().join("scripts/sand.lua"),
    )
    .unwrap();
    std::fs::copy(
        repo("levels/sand/cascade.ron"),
        dir.path().join("levels/sand/cascade.ron"),
    )
    .unwrap();
    dir
}

/// Runs frames until `done` holds (at most 30 s: the suite runs on a
/// worker thread).
fn run_until(harness: &mut Harness<'_, EditorApp>, done: impl Fn(&EditorApp) -> bool) {
    support::step_until(harness, "the suite or the game", |h| done(h.state()));
    frames(harness);
}

/// A few frames (a running playtest repaints continuously, so the harness
/// never "settles").
fn frames(harness: &mut Harness<'_, EditorApp>) {
    harness.run_steps(3);
}

fn the_suite(root: &Path) -> Vec<Verdict> {
    let mut project = Project::open(root, tessera_builtin::registry()).unwrap();
    suite::cases(root)
        .iter()
        .map(|case| suite::check(&mut project, case))
        .collect()
}

#[test]
fn record_a_playtest_change_the_score_and_accept_the_new_trajectory() {
    let dir = project();
    let root = dir.path().canonicalize().unwrap();
    let mut harness = harness(&root);

    // Open the level and play it: the board clears three times by itself.
    harness.get_by_label_contains("cascade.ron").click();
    frames(&mut harness);
    harness.key_press(Key::F5);
    frames(&mut harness);
    assert_eq!(
        harness.state().playtest().running().map(|t| t.game.clone()),
        Some("sand".to_string())
    );
    run_until(&mut harness, |app| {
        app.playtest()
            .session()
            .is_some_and(|s| s.scores() == vec![142])
    });

    // Save it as a test.
    harness.get_by_label("💾 Save as test").click();
    frames(&mut harness);
    harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "Test name")
        .focus();
    frames(&mut harness);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    harness.key_press(Key::Backspace);
    harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "Test name")
        .type_text("Chain x3");
    frames(&mut harness);
    harness.get_by_label("Save").click();
    frames(&mut harness);
    let replay = root.join("tests/replays/sand/chain_x3.replay.ron");
    assert!(replay.is_file(), "{:?}", console_texts(&harness));
    let snapshot = root.join("snapshots/replays__sand__chain_x3.snap");
    let accepted = std::fs::read_to_string(&snapshot).unwrap();
    assert!(accepted.contains("clear chain x3"), "{accepted}");
    support::assert_console_has(
        &harness,
        "saved test tests/replays/sand/chain_x3.replay.ron",
    );
    assert_eq!(the_suite(&root), vec![Verdict::Unchanged]);

    // A designer doubles every score.
    let script = root.join("scripts/sand.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    let doubled = text.replace(
        "return math.floor(10 * math.sqrt(cells)) * chain",
        "return 2 * math.floor(10 * math.sqrt(cells)) * chain",
    );
    assert_ne!(text, doubled);
    std::fs::write(&script, doubled).unwrap();
    assert!(matches!(the_suite(&root)[0], Verdict::Changed { .. }));

    // The Tests panel says so, and where.
    harness.state_mut().run_tests();
    run_until(&mut harness, |app| {
        !app.tests().is_running() && !app.tests().results().is_empty()
    });
    let results = harness.state().tests().results().to_vec();
    assert_eq!(results.len(), 1);
    let Verdict::Changed { old, new } = &results[0].verdict else {
        panic!("expected a change, got {:?}", results[0].verdict);
    };
    assert!(old.contains("score 142"), "{old}");
    assert!(new.contains("score 284"), "{new}");
    harness.get_by_label("changed");
    harness.get_by_label("0 unchanged, 1 changed");
    harness.get_by_label("Open at step 1");
    // Both scores sit on the step's first line, before its (long) events,
    // inside the window.
    let scores = harness
        .query_by_label_contains("→ score")
        .expect("the step's line shows old → new score")
        .rect();
    assert!(scores.right() < 1400.0, "{scores:?}");

    // Accept writes the snapshot cargo test reads; the suite is green.
    harness.get_by_label("✔ Accept").click();
    frames(&mut harness);
    let written = std::fs::read_to_string(&snapshot).unwrap();
    assert!(written.contains("score 284"), "{written}");
    assert!(
        written.starts_with("---\nsource: tests/replays.rs\n"),
        "{written}"
    );
    assert_eq!(the_suite(&root), vec![Verdict::Unchanged]);
}

#[test]
fn open_replays_a_test_in_the_playtest_view_at_a_step() {
    let dir = project();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("tests/replays/sand")).unwrap();
    std::fs::copy(
        repo("tests/replays/sand/cascade_chain.replay.ron"),
        root.join("tests/replays/sand/cascade_chain.replay.ron"),
    )
    .unwrap();
    let mut harness = harness(&root);
    harness.state_mut().open_replay(
        &root.join("tests/replays/sand/cascade_chain.replay.ron"),
        Some(2),
    );
    frames(&mut harness);
    let app = harness.state();
    assert_eq!(
        app.playtest().running().map(|t| t.game.clone()),
        Some("sand".to_string())
    );
    assert_cascade_chain_at_step_2(&harness);
}

/// The cascade chain replay stopped after step 2: step 1 (Settle) cleared
/// the chain, step 2 placed a piece, then the view's clock ran on (ticks)
/// and step 3 (a Settle) never happened.
fn assert_cascade_chain_at_step_2(harness: &Harness<'_, EditorApp>) {
    let session = harness.state().playtest().session().expect("a session");
    let rows = session.trajectory().rows;
    assert_eq!(rows[0].step, "Settle");
    assert!(rows[1].step.starts_with("Place("), "{rows:?}");
    assert!(
        rows.iter().skip(2).all(|r| r.step.starts_with("Tick(")),
        "{rows:?}"
    );
    assert_eq!(session.scores(), vec![142]);
    let opened = "opened tests/replays/sand/cascade_chain.replay.ron at step 2";
    support::assert_console_has(harness, opened);
}

/// A polycube replay whose refusal text changed: the Tests panel lists the
/// step with its new events and the old ones in full ("was: …"), and no
/// score columns of dashes (polycube keeps no score).
#[test]
fn a_changed_polycube_replay_shows_its_old_events_in_full() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().unwrap();
    for relative in [
        "scripts/polycube.lua",
        "levels/polycube/02_three_bars.ron",
        "tests/replays/polycube/three_bars_refusals_undo_hints.replay.ron",
        "snapshots/replays__polycube__three_bars_refusals_undo_hints.snap",
    ] {
        let to = root.join(relative);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(repo(relative), &to).unwrap();
    }
    // The snapshot as an older engine worded step 3's refusal.
    let snapshot = root.join("snapshots/replays__polycube__three_bars_refusals_undo_hints.snap");
    let current = std::fs::read_to_string(&snapshot).unwrap();
    let new_words = "Collision: cell (1, 1, 1) is taken by piece `A`";
    assert!(current.contains(new_words), "{current}");
    let old = current.replace(new_words, "Collision: (0, 0, 0) is occupied");
    std::fs::write(&snapshot, old).unwrap();

    let mut harness = harness(&root);
    harness.state_mut().run_tests();
    run_until(&mut harness, |app| {
        !app.tests().is_running() && !app.tests().results().is_empty()
    });
    harness.get_by_label("changed");
    harness.get_by_label("First difference at step 3 of 10.");
    harness.get_by_label_contains(&format!("refused: illegal action: {new_words}"));
    harness.get_by_label("was: refused: illegal action: Collision: (0, 0, 0) is occupied");
    assert!(harness.query_by_label_contains("old score").is_none());
    assert!(harness.query_by_label_contains("· -").is_none());
}

/// A test whose name is wider than the Tests list keeps one row, cut with
/// "…" rather than broken mid-word, and shows its whole name on hover.
#[test]
fn a_long_test_name_keeps_one_row_and_shows_in_full_on_hover() {
    let dir = project();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("tests/replays/sand")).unwrap();
    let name = "cascade_chain_replayed_with_a_name_far_wider_than_the_list";
    std::fs::copy(
        repo("tests/replays/sand/cascade_chain.replay.ron"),
        root.join(format!("tests/replays/sand/{name}.replay.ron")),
    )
    .unwrap();
    let mut harness = harness(&root);
    harness.state_mut().run_tests();
    run_until(&mut harness, |app| {
        !app.tests().is_running() && !app.tests().results().is_empty()
    });
    let row_query = || {
        egui_kittest::kittest::By::new()
            .role(egui::accesskit::Role::Button)
            .label_contains(name)
    };
    let row = harness.get(row_query()).rect();
    let line = harness.ctx.global_style().text_styles[&egui::TextStyle::Button].size;
    assert!(
        row.height() < 2.0 * line,
        "one row, not wrapped: {row:?} for {line} px text"
    );
    harness.get(row_query()).hover();
    harness.run_steps(30);
    harness.get_by_label(&format!("sand/{name}"));
}

/// An unchanged test opens at any step too: its button offers the end
/// ("Open at step 5"), and the step picker beside it chooses another.
#[test]
fn an_unchanged_test_opens_at_a_step_the_designer_picks() {
    let dir = project();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("tests/replays/sand")).unwrap();
    std::fs::create_dir_all(root.join("snapshots")).unwrap();
    std::fs::copy(
        repo("tests/replays/sand/cascade_chain.replay.ron"),
        root.join("tests/replays/sand/cascade_chain.replay.ron"),
    )
    .unwrap();
    std::fs::copy(
        repo("snapshots/replays__sand__cascade_chain.snap"),
        root.join("snapshots/replays__sand__cascade_chain.snap"),
    )
    .unwrap();
    let mut harness = harness(&root);
    harness.state_mut().run_tests();
    run_until(&mut harness, |app| {
        !app.tests().is_running() && !app.tests().results().is_empty()
    });
    assert_eq!(
        harness.state().tests().results()[0].verdict,
        Verdict::Unchanged
    );
    harness.get_by_label_contains("sand/cascade_chain").click();
    frames(&mut harness);
    harness.get_by_label("Open at step 5");
    // Step 2 typed into the picker.
    let picker = egui::accesskit::Role::SpinButton;
    harness.get_by_role(picker).focus();
    frames(&mut harness);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    harness.get_by_role(picker).type_text("2");
    harness.key_press(Key::Enter);
    frames(&mut harness);
    harness.get_by_label("Open at step 2").click();
    frames(&mut harness);
    assert_cascade_chain_at_step_2(&harness);
}
