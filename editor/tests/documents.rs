//! A level is one document with two views: text edits show in the visual
//! editor, a visual save patches only the value it changed (comments and
//! layout kept, for every game's visual editor), and Ctrl+Z / Ctrl+Shift+Z
//! go to the visual editor that has the keyboard, never to a playtest
//! beside it.

use std::path::{Path, PathBuf};

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tessera_editor::EditorApp;

use super::support::{self, repo_root as repo, wait_for};

/// A project with the shipped scripts and the shipped `levels` named
/// (`game/file.ron`).
fn project(levels: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("scripts")).expect("scripts/");
    for game in ["sand", "tetris", "azul", "polycube"] {
        let script = format!("scripts/{game}.lua");
        std::fs::copy(repo().join(&script), root.join(&script)).expect("copy script");
        std::fs::create_dir_all(root.join("levels").join(game)).expect("levels/");
    }
    for level in levels {
        let from = repo().join("levels").join(level);
        std::fs::copy(from, root.join("levels").join(level)).expect("copy level");
    }
    dir
}

/// The editor on `root`, tall enough that a Tetris level editor shows
/// its feed fields without scrolling.
fn harness(root: &Path) -> Harness<'static, EditorApp> {
    let app = EditorApp::open(root).expect("project opens");
    support::sized(app, egui::vec2(1400.0, 1500.0))
}

fn shipped(level: &str) -> String {
    std::fs::read_to_string(repo().join("levels").join(level)).expect("shipped level")
}

fn on_disk(root: &Path, level: &str) -> String {
    std::fs::read_to_string(root.join("levels").join(level)).expect("level on disk")
}

fn open(harness: &mut Harness<'_, EditorApp>, name: &str) {
    harness.get_by_label_contains(name).click();
    harness.run_steps(3);
}

fn save(harness: &mut Harness<'_, EditorApp>) {
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run_steps(3);
}

fn active_text(harness: &Harness<'_, EditorApp>) -> String {
    harness
        .state()
        .active_document()
        .expect("a file is open")
        .text()
        .to_string()
}

/// Replaces the whole text in the text tab, as typing over a selection.
fn retype(harness: &mut Harness<'_, EditorApp>, text: &str) {
    let field = egui::accesskit::Role::MultilineTextInput;
    harness.get_by_role(field).focus();
    harness.run_steps(1);
    key(harness, Modifiers::COMMAND, Key::A);
    harness.get_by_role(field).type_text(text);
    harness.run_steps(2);
}

fn key(harness: &mut Harness<'_, EditorApp>, modifiers: Modifiers, key: Key) {
    harness.key_press_modifiers(modifiers, key);
    harness.run_steps(2);
}

#[test]
fn text_then_visual_then_save_keeps_the_text_edit_and_patches_one_piece() {
    let dir = project(&["polycube/soma.ron"]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = harness(&root);
    harness.run_steps(2);
    open(&mut harness, "soma.ron");
    harness.get_by_label("RON text").click();
    harness.run_steps(2);
    // In the text: the name gets " II" and a comment goes on top.
    let text_edited = format!("// designed on a Tuesday\n{}", shipped("polycube/soma.ron"))
        .replace("\"Soma cube\"", "\"Soma cube II\"");
    retype(&mut harness, &text_edited);
    assert_eq!(active_text(&harness), text_edited, "the text edit as typed");
    save(&mut harness);
    assert_eq!(on_disk(&root, "polycube/soma.ron"), text_edited);

    // The visual view shows the saved text, not the level it opened with.
    harness.get_by_label("Visual").click();
    harness.run_steps(2);
    assert!(
        harness.query_all_by_value("Soma cube II").next().is_some(),
        "the name field shows the text tab's name"
    );
    // Piece V gets a cube; only its line changes, written in order.
    harness.get_by_label("piece cell 2,2,1").click();
    harness.run_steps(2);
    assert!(harness.state().active_document().expect("doc").is_dirty());
    save(&mut harness);
    let expected = text_edited.replace(
        "(id: \"V\", cells: [(1, 1, 1), (2, 1, 1), (1, 2, 1)])",
        "(id: \"V\", cells: [(1, 1, 1), (1, 2, 1), (2, 1, 1), (2, 2, 1)])",
    );
    assert_ne!(expected, text_edited, "the test names piece V's line");
    assert_eq!(on_disk(&root, "polycube/soma.ron"), expected);
}

#[test]
fn a_tetris_feed_level_edited_visually_changes_only_that_value() {
    let level = "tetris/feed_2_easy_stack.ron";
    let dir = project(&[level]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = harness(&root);
    harness.run_steps(2);
    open(&mut harness, "feed_2_easy_stack.ron");
    // The feed level shows as one, with its own fields, and no goal.
    harness.get_by_label("level kind");
    harness.get_by_label("AI wins at lines");
    assert!(harness.query_by_label("goal").is_none());
    harness.get_by_label_contains("AI difficulty: ").click();
    harness.run_steps(2);
    harness.get_by_label("HARD").click();
    harness.run_steps(3);
    save(&mut harness);
    assert_eq!(
        on_disk(&root, level),
        shipped(level).replace("\"EASY\"", "\"HARD\""),
        "only the difficulty changed, the comments stay"
    );
    // Text tab, then visual, then a visual edit: the text edit stays.
    harness.get_by_label("RON text").click();
    harness.run_steps(2);
    let ended = format!("{}// the end\n", active_text(&harness));
    retype(&mut harness, &ended);
    harness.get_by_label("Visual").click();
    harness.run_steps(2);
    harness.get_by_label_contains("AI difficulty: ").click();
    harness.run_steps(2);
    harness.get_by_label("NORMAL").click();
    harness.run_steps(3);
    save(&mut harness);
    assert_eq!(
        on_disk(&root, level),
        format!(
            "{}// the end\n",
            shipped(level).replace("\"EASY\"", "\"NORMAL\"")
        )
    );
}

#[test]
fn a_sand_board_painted_visually_adds_only_that_row() {
    let level = "sand/cascade.ron";
    let dir = project(&[level]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = harness(&root);
    harness.run_steps(2);
    open(&mut harness, "cascade.ron");
    paint_cascade_row_above_the_board(&mut harness);
    save(&mut harness);
    assert_eq!(on_disk(&root, level), cascade_painted());
}

/// Paints the cell at the left end of the row above cascade's board.
fn paint_cascade_row_above_the_board(harness: &mut Harness<'_, EditorApp>) {
    let board = harness.get_by_label("sand level board").rect();
    let cell = board.width() / 6.0;
    let at = board.min + egui::vec2(0.5 * cell, 2.5 * cell);
    harness.hover_at(at);
    harness.step();
    harness.drag_at(at);
    harness.step();
    harness.drop_at(at);
    harness.run_steps(3);
}

fn cascade_painted() -> String {
    shipped("sand/cascade.ron").replace(
        "        \"BBBBYY\",\n",
        "        \"R.....\",\n        \"BBBBYY\",\n",
    )
}

#[test]
fn an_azul_scenario_painted_visually_changes_only_that_wall_row() {
    let level = "azul/endgame_win.ron";
    let dir = project(&[level]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = harness(&root);
    harness.run_steps(2);
    open(&mut harness, "endgame_win.ron");
    harness.get_by_label("player 1 wall 4 2").click();
    harness.run_steps(3);
    save(&mut harness);
    let (before, after) = (shipped(level), on_disk(&root, level));
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(before.lines().count(), after.lines().count(), "{after}");
    assert_eq!(changed.len(), 1, "one line changed: {changed:?}");
    let (old, new) = changed[0];
    assert!(old.contains("\"R.O..\""), "{old}");
    // One byte differs: the empty cell painted.
    let differing: Vec<(char, char)> = old
        .chars()
        .zip(new.chars())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(old.len(), new.len(), "{new}");
    assert_eq!(differing.len(), 1, "{old} / {new}");
    assert_eq!(differing[0].0, '.', "{old} / {new}");
}

#[test]
fn ctrl_z_in_the_sand_editor_undoes_the_board_edit_and_leaves_the_playtest_alone() {
    let dir = project(&["sand/cascade.ron", "polycube/soma.ron"]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = harness(&root);
    harness.run_steps(2);
    // A polycube playtest with one move in it, docked beside the editor.
    open(&mut harness, "soma.ron");
    harness.key_press(Key::F5);
    harness.run_steps(3);
    harness.get_by_label_contains("Hint (").click();
    wait_for(&mut harness, "1/");

    open(&mut harness, "cascade.ron");
    paint_cascade_row_above_the_board(&mut harness);
    assert_eq!(active_text(&harness), cascade_painted());
    let moves_before = harness.state().playtest().session().map(|s| s.step_count());
    key(&mut harness, Modifiers::COMMAND, Key::Z);
    assert_eq!(
        active_text(&harness),
        shipped("sand/cascade.ron"),
        "Ctrl+Z undid the paint"
    );
    assert!(!harness.state().active_document().expect("doc").is_dirty());
    harness.get_by_label_contains("1/");
    assert_eq!(
        harness.state().playtest().session().map(|s| s.step_count()),
        moves_before,
        "the playtest recorded nothing"
    );
    key(&mut harness, Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    assert_eq!(active_text(&harness), cascade_painted(), "redone");
    key(&mut harness, Modifiers::COMMAND, Key::Z);
    key(&mut harness, Modifiers::COMMAND, Key::Y);
    assert_eq!(
        active_text(&harness),
        cascade_painted(),
        "Ctrl+Y redoes too"
    );
}

#[test]
fn the_polycube_level_editor_undoes_and_redoes_its_edits() {
    let dir = project(&["polycube/soma.ron"]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = harness(&root);
    harness.run_steps(2);
    open(&mut harness, "soma.ron");
    let original = shipped("polycube/soma.ron");
    harness.get_by_label("piece cell 2,2,1").click();
    harness.run_steps(2);
    let one = active_text(&harness);
    assert_ne!(one, original);
    harness.get_by_label("Add piece").click();
    harness.run_steps(2);
    let two = active_text(&harness);
    assert_ne!(two, one);
    key(&mut harness, Modifiers::COMMAND, Key::Z);
    assert_eq!(active_text(&harness), one);
    key(&mut harness, Modifiers::COMMAND, Key::Z);
    assert_eq!(active_text(&harness), original);
    // Nothing more to undo: the text stays.
    key(&mut harness, Modifiers::COMMAND, Key::Z);
    assert_eq!(active_text(&harness), original);
    key(&mut harness, Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    assert_eq!(active_text(&harness), one);
    // The visual editor shows the level undone to: cell 2,2,1 is set.
    harness.get_by_label("↶ Undo edit").click();
    harness.run_steps(2);
    assert_eq!(active_text(&harness), original, "the Undo button");
}

#[test]
fn text_that_does_not_parse_shows_why_in_the_visual_view() {
    let dir = project(&["sand/cascade.ron"]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = harness(&root);
    harness.run_steps(2);
    open(&mut harness, "cascade.ron");
    harness.get_by_label("RON text").click();
    harness.run_steps(2);
    harness
        .get_by_role(egui::accesskit::Role::MultilineTextInput)
        .focus();
    harness.run_steps(1);
    key(&mut harness, Modifiers::COMMAND, Key::End);
    harness
        .get_by_role(egui::accesskit::Role::MultilineTextInput)
        .type_text("oops");
    harness.run_steps(2);
    harness.get_by_label("Visual").click();
    harness.run_steps(2);
    harness.get_by_label_contains("does not read as a level");
    assert!(harness.query_by_label("sand level board").is_none());
    harness.get_by_label("Show the text").click();
    harness.run_steps(2);
    assert!(
        !harness
            .state()
            .active_document()
            .expect("doc")
            .shows_visual()
    );
}

#[test]
fn every_shipped_level_opens_visually_with_its_text_unchanged() {
    let games = tessera_builtin_ui::game_uis();
    let mut opened = 0;
    for game in &games {
        let Some(factory) = game.level_editor else {
            continue;
        };
        let folder = repo().join("levels").join(game.id);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .expect("level folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).expect("level");
            let mut editor = factory(&path, &text).expect("opens visually");
            assert!(!editor.is_dirty(), "{}: dirty on opening", path.display());
            assert_eq!(
                editor.to_ron().expect("ron"),
                text,
                "{}: unedited, the text is the file",
                path.display()
            );
            editor.load(&text).expect("loads again");
            assert!(!editor.is_dirty(), "{}", path.display());
            opened += 1;
        }
    }
    assert!(
        opened >= 40,
        "every shipped level of the four games: {opened}"
    );
}

#[test]
fn the_tetris_and_azul_editors_undo_their_edits_too() {
    let (tetris, azul) = ("tetris/feed_2_easy_stack.ron", "azul/endgame_win.ron");
    let dir = project(&[tetris, azul]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = harness(&root);
    harness.run_steps(2);
    open(&mut harness, "feed_2_easy_stack.ron");
    harness.get_by_label_contains("AI difficulty: ").click();
    harness.run_steps(2);
    harness.get_by_label("HARD").click();
    harness.run_steps(3);
    assert_eq!(
        active_text(&harness),
        shipped(tetris).replace("\"EASY\"", "\"HARD\"")
    );
    key(&mut harness, Modifiers::COMMAND, Key::Z);
    assert_eq!(active_text(&harness), shipped(tetris), "Tetris undo");
    harness.get_by_label_contains("AI difficulty: EASY");
    key(&mut harness, Modifiers::COMMAND, Key::Y);
    harness.get_by_label_contains("AI difficulty: HARD");

    open(&mut harness, "endgame_win.ron");
    harness.get_by_label("player 1 wall 4 2").click();
    harness.run_steps(3);
    assert_ne!(active_text(&harness), shipped(azul));
    key(&mut harness, Modifiers::COMMAND, Key::Z);
    assert_eq!(active_text(&harness), shipped(azul), "Azul undo");
    // Each document keeps its own history: back in the Tetris level, redo
    // is empty (its last step was redone) and undo takes back HARD.
    harness
        .query_all_by_label_contains("feed_2_easy_stack.ron")
        .next()
        .expect("its tab")
        .click();
    harness.run_steps(3);
    harness.get_by_label_contains("AI difficulty: HARD").click();
    harness.key_press(Key::Escape);
    harness.run_steps(2);
    key(&mut harness, Modifiers::COMMAND, Key::Z);
    assert_eq!(active_text(&harness), shipped(tetris), "per document");
}

/// The sand editor's findings name `file:line` as console errors do, and a
/// click on one opens the level's text at that line (cascade's red row
/// already spans the board: a warning at the board's line).
#[test]
fn a_sand_finding_is_clicked_and_the_text_opens_at_its_line() {
    let dir = project(&["sand/cascade.ron"]);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = harness(&root);
    harness.run_steps(2);
    open(&mut harness, "cascade.ron");
    assert!(
        harness
            .state()
            .active_document()
            .expect("doc")
            .shows_visual()
    );
    let finding = harness.get_by_label_contains("levels/sand/cascade.ron:");
    let node = finding.accesskit_node();
    let label = node.value().or_else(|| node.label()).unwrap_or_default();
    let line: usize = label
        .split("cascade.ron:")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the finding names a line: {label}"));
    assert!(line > 1, "{label}");
    finding.click();
    harness.run_steps(3);
    let document = harness.state().active_document().expect("doc");
    assert!(!document.shows_visual(), "the text view is shown");
    assert_eq!(document.cursor().line, line, "{label}");
}
