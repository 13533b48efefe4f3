//! The editor driven through its widgets with egui_kittest: open a script,
//! type, save with Ctrl+S, and read the console, the tab title and the file
//! on disk.

use super::support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use support::{console_texts, harness};

use egui::accesskit::Role;
use egui::{Key, Modifiers, ViewportEvent, ViewportId};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_editor::EditorApp;
use tessera_editor::prompts::Prompt;

const SCRIPT: &str = "-- demo\n-- tunables\nreturn { speed = 1 }";

/// A project with `scripts/demo.lua` and an empty `levels/`.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("scripts")).expect("scripts/");
    std::fs::create_dir_all(dir.path().join("levels")).expect("levels/");
    std::fs::write(dir.path().join("scripts/demo.lua"), SCRIPT).expect("script");
    dir
}

fn script_path(root: &Path) -> PathBuf {
    root.canonicalize().expect("root").join("scripts/demo.lua")
}

/// Clicks the script in the project tree and puts the cursor at the end of
/// its text.
fn open_demo_at_end(harness: &mut Harness<'_, EditorApp>) {
    harness.get_by_label_contains("demo.lua").click();
    harness.run();
    harness.get_by_role(Role::MultilineTextInput).focus();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::End);
    harness.run();
}

/// Replaces the last `n` characters before the cursor with `text`.
fn retype_tail(harness: &mut Harness<'_, EditorApp>, n: usize, text: &str) {
    for _ in 0..n {
        harness.key_press(Key::Backspace);
    }
    harness
        .get_by_role(Role::MultilineTextInput)
        .type_text(text);
    harness.run();
}

fn save(harness: &mut Harness<'_, EditorApp>) {
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run();
}

/// Runs frames until `done` holds or five seconds pass (the watcher
/// delivers on its own thread).
fn run_until(harness: &mut Harness<'_, EditorApp>, done: impl Fn(&EditorApp) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        harness.run();
        if done(harness.state()) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn typing_marks_unsaved_and_ctrl_s_saves_and_reloads_the_running_script() {
    let dir = project();
    let path = script_path(dir.path());
    let mut harness = harness(dir.path());
    // What a running game holds: the project's live slot for the script.
    let live = harness
        .state_mut()
        .project_mut()
        .script(&path)
        .expect("loaded");
    assert_eq!(
        live.current().value::<i64>("speed").expect("speed"),
        Some(1)
    );

    open_demo_at_end(&mut harness);
    retype_tail(&mut harness, 3, "7 }");

    let document = &harness.state().documents()[0];
    assert_eq!(
        document.text(),
        "-- demo\n-- tunables\nreturn { speed = 7 }"
    );
    assert_eq!(document.title(), "demo.lua ●");
    harness.get_by_label("demo.lua ●");
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        SCRIPT,
        "nothing is written before saving"
    );

    save(&mut harness);

    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "-- demo\n-- tunables\nreturn { speed = 7 }"
    );
    assert_eq!(
        console_texts(&harness).last().map(String::as_str),
        Some("reloaded scripts/demo.lua")
    );
    assert_eq!(
        live.current().value::<i64>("speed").expect("speed"),
        Some(7)
    );
    assert_eq!(harness.state().documents()[0].title(), "demo.lua");
    assert!(harness.query_by_label("demo.lua ●").is_none());

    // The watcher sees the same write; it must not be reported twice.
    std::thread::sleep(Duration::from_millis(600));
    harness.run();
    let reloads = console_texts(&harness)
        .iter()
        .filter(|t| *t == "reloaded scripts/demo.lua")
        .count();
    assert_eq!(reloads, 1, "{:#?}", console_texts(&harness));
}

#[test]
fn a_broken_save_reports_its_line_keeps_the_old_version_and_the_error_is_clickable() {
    let dir = project();
    let path = script_path(dir.path());
    let mut harness = harness(dir.path());
    let live = harness
        .state_mut()
        .project_mut()
        .script(&path)
        .expect("loaded");

    open_demo_at_end(&mut harness);
    retype_tail(&mut harness, 3, "7 + }");
    save(&mut harness);

    let error = console_texts(&harness).last().cloned().expect("a line");
    assert!(
        error.starts_with("error scripts/demo.lua:3: "),
        "names file and line: {error}"
    );
    assert!(
        error.contains(" (keeping last good version)"),
        "keeps the old version: {error}"
    );
    assert!(
        harness
            .state()
            .console()
            .lines()
            .last()
            .is_some_and(|l| l.is_error)
    );
    assert_eq!(
        live.current().value::<i64>("speed").expect("speed"),
        Some(1)
    );
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "-- demo\n-- tunables\nreturn { speed = 7 + }",
        "the broken text is saved: the user's work is never dropped"
    );

    // Move the cursor away, then click the error: the cursor goes to line 3.
    harness.key_press(Key::ArrowUp);
    harness.key_press(Key::ArrowUp);
    harness.run();
    assert_eq!(
        harness
            .state()
            .active_document()
            .expect("open")
            .cursor()
            .line,
        1
    );
    harness.get_by_label(&error).click();
    harness.run();
    let document = harness.state().active_document().expect("open");
    assert_eq!(document.path(), path);
    assert_eq!(document.cursor().line, 3);
}

fn request_close(harness: &mut Harness<'_, EditorApp>) {
    harness
        .input_mut()
        .viewports
        .entry(ViewportId::ROOT)
        .or_default()
        .events
        .push(ViewportEvent::Close);
    harness.run();
}

#[test]
fn closing_with_unsaved_work_asks_and_save_all_writes_it() {
    let dir = project();
    let path = script_path(dir.path());
    let mut harness = harness(dir.path());
    open_demo_at_end(&mut harness);
    retype_tail(&mut harness, 3, "9 }");

    request_close(&mut harness);
    assert_eq!(
        harness.state().prompt(),
        Some(&Prompt::Quit {
            unsaved: vec!["scripts/demo.lua".into()]
        })
    );
    harness.get_by_label("Unsaved changes");

    // Cancel keeps everything as it was.
    harness.get_by_label("Cancel").click();
    harness.run();
    assert_eq!(harness.state().prompt(), None);
    assert!(harness.state().documents()[0].is_dirty());
    assert_eq!(std::fs::read_to_string(&path).expect("read"), SCRIPT);

    request_close(&mut harness);
    harness.get_by_label("Save all").click();
    harness.run();
    assert_eq!(harness.state().prompt(), None);
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "-- demo\n-- tunables\nreturn { speed = 9 }"
    );
    assert!(!harness.state().documents()[0].is_dirty());
}

#[test]
fn closing_without_unsaved_work_does_not_ask() {
    let dir = project();
    let mut harness = harness(dir.path());
    open_demo_at_end(&mut harness);
    request_close(&mut harness);
    assert_eq!(harness.state().prompt(), None);
    assert!(harness.query_by_label("Save all").is_none());
}

#[test]
fn a_change_on_disk_reloads_a_clean_buffer_and_asks_when_there_are_edits() {
    let dir = project();
    let path = script_path(dir.path());
    let mut harness = harness(dir.path());
    open_demo_at_end(&mut harness);

    // No local edits: the buffer follows the disk silently.
    std::fs::write(&path, "return { speed = 2 }").expect("write");
    assert!(
        run_until(&mut harness, |app| app.documents()[0].text()
            == "return { speed = 2 }"),
        "buffer follows the disk; console: {:#?}",
        console_texts(&harness)
    );
    assert_eq!(harness.state().prompt(), None);
    assert!(!harness.state().documents()[0].is_dirty());
    assert!(
        console_texts(&harness).contains(&"reloaded scripts/demo.lua".to_string()),
        "a save from another program reloads too: {:#?}",
        console_texts(&harness)
    );

    // A file created by another program appears in the tree.
    std::fs::write(dir.path().join("scripts/extra.lua"), "return {}").expect("write");
    let start = Instant::now();
    while harness.query_by_label("📜 extra.lua").is_none()
        && start.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(50));
        harness.run();
    }
    harness.get_by_label("📜 extra.lua");

    // With local edits: ask, and keep mine when told so.
    harness.get_by_role(Role::MultilineTextInput).focus();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::End);
    retype_tail(&mut harness, 3, "5 }");
    std::fs::write(&path, "return { speed = 3 }").expect("write");
    assert!(
        run_until(&mut harness, |app| app.prompt().is_some()),
        "the conflict is asked about"
    );
    harness.get_by_label("File changed on disk");
    harness.get_by_label("Keep mine").click();
    harness.run();
    let document = &harness.state().documents()[0];
    assert_eq!(document.text(), "return { speed = 5 }");
    assert!(document.is_dirty(), "mine differs from the disk");
}

#[test]
fn a_level_tab_shows_live_validation_with_line_and_column() {
    let dir = project();
    std::fs::create_dir_all(dir.path().join("levels/demo")).expect("folder");
    // Broken RON: the third line is not a field.
    std::fs::write(
        dir.path().join("levels/demo/bad.ron"),
        "(\n  version: 1,\n  size 3,\n)\n",
    )
    .expect("level");
    let mut harness = harness(dir.path());
    harness.get_by_label_contains("bad.ron").click();
    harness.run();
    let diagnostics = harness
        .state()
        .active_document()
        .expect("open")
        .diagnostics()
        .to_vec();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0].line, Some(3));
    let shown = tessera_editor::document::format_diagnostic(&diagnostics[0]);
    assert!(shown.starts_with("3:"), "{shown}");
    harness.get_by_label(&shown);
}

#[test]
fn f5_on_a_game_without_a_ui_plays_it_in_the_generic_view_and_undoes() {
    // Nim, the test game, is registered with no UI of its own.
    let dir = project();
    std::fs::write(
        dir.path().join("scripts/nim.lua"),
        tessera_testkit::nim::NIM_SCRIPT,
    )
    .expect("script");
    let mut registry = tessera_host::Registry::empty();
    registry.register::<tessera_testkit::nim::Nim>();
    let mut harness = support::harness_with_games(dir.path(), registry, Vec::new());
    harness.get_by_label_contains("nim.lua").click();
    harness.run();
    harness.key_press(Key::F5);
    harness.run();
    assert_eq!(harness.state().playtest().notice(), None);
    // The generic view: the text picture, and the legal actions as buttons.
    harness.get_by_label("Take(3)").click();
    harness.run_steps(2);
    let session = harness
        .state()
        .playtest()
        .session()
        .expect("a recorded session");
    assert!(session.step_count() >= 1, "the move was recorded");
    // The AI seat (seat 2) answers through the host's driver.
    for _ in 0..500 {
        harness.step();
        if harness
            .state()
            .playtest()
            .session()
            .is_some_and(|s| s.step_count() == 2)
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(
        harness.state().playtest().session().map(|s| s.step_count()),
        Some(2)
    );
    // Ctrl+Z (the playtest has the keyboard after F5) takes back the move
    // and the AI's reply: the host's undo.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        harness.state().playtest().session().map(|s| s.step_count()),
        Some(0)
    );
    assert!(
        support::console_texts(&harness).contains(&"undone: your last move".to_string()),
        "{:?}",
        support::console_texts(&harness)
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    harness.run_steps(2);
    assert_eq!(
        support::console_texts(&harness).last().map(String::as_str),
        Some("nothing to undo")
    );
}

#[test]
fn a_failed_save_and_an_unreadable_file_are_reported_not_fatal() {
    let dir = project();
    let mut harness = harness(dir.path());
    open_demo_at_end(&mut harness);
    retype_tail(&mut harness, 3, "4 }");
    // The folder vanishes under the editor: the save cannot be written.
    std::fs::remove_dir_all(dir.path().join("scripts")).expect("remove");
    save(&mut harness);
    let error = console_texts(&harness)
        .into_iter()
        .find(|t| t.starts_with("error cannot save scripts/demo.lua: "));
    assert!(error.is_some(), "{:#?}", console_texts(&harness));
    let document = &harness.state().documents()[0];
    assert!(document.is_dirty(), "the edit is still only in the editor");
    assert_eq!(
        document.text(),
        "-- demo\n-- tunables\nreturn { speed = 4 }"
    );

    std::fs::create_dir_all(dir.path().join("levels/demo")).expect("folder");
    std::fs::write(
        dir.path().join("levels/demo/binary.ron"),
        [0xff, 0xfe, 0x00],
    )
    .expect("write");
    harness
        .state_mut()
        .open_file(Path::new("levels/demo/binary.ron"));
    harness.run();
    assert_eq!(harness.state().documents().len(), 1, "nothing opened");
    let last = console_texts(&harness).last().cloned().unwrap_or_default();
    assert!(
        last.starts_with("error cannot open levels/demo/binary.ron: "),
        "{last}"
    );
}

#[test]
fn reload_from_disk_replaces_edits_and_closing_a_dirty_tab_asks() {
    let dir = project();
    let path = script_path(dir.path());
    let mut harness = harness(dir.path());
    open_demo_at_end(&mut harness);
    retype_tail(&mut harness, 3, "5 }");
    std::fs::write(&path, "return { speed = 6 }").expect("write");
    assert!(run_until(&mut harness, |app| app.prompt().is_some()));
    harness.get_by_label("Reload from disk").click();
    harness.run();
    let document = &harness.state().documents()[0];
    assert_eq!(document.text(), "return { speed = 6 }");
    assert!(!document.is_dirty());

    harness.get_by_role(Role::MultilineTextInput).focus();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::End);
    retype_tail(&mut harness, 3, "2 }");
    assert_eq!(
        harness.state().documents()[0].text(),
        "return { speed = 2 }"
    );
    harness.key_press_modifiers(Modifiers::COMMAND, Key::W);
    harness.run();
    assert!(matches!(
        harness.state().prompt(),
        Some(Prompt::CloseTab { name, .. }) if name == "scripts/demo.lua"
    ));
    harness.get_by_label("Discard").click();
    harness.run();
    assert!(harness.state().documents().is_empty(), "the tab is closed");
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "return { speed = 6 }",
        "discarding writes nothing"
    );
}

#[test]
fn luau_jargon_gets_a_plain_sentence_in_the_console_and_the_gutter_tooltip() {
    let dir = project();
    let mut harness = harness(dir.path());
    open_demo_at_end(&mut harness);
    // A stray `@` before the `return` on line 3: Luau reads it as an
    // attribute.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::Home);
    harness.run();
    harness
        .get_by_role(Role::MultilineTextInput)
        .type_text("@ ");
    harness.run();
    save(&mut harness);

    let error = console_texts(&harness).last().cloned().expect("a line");
    assert!(error.contains("Attribute name is missing"), "{error}");
    assert!(
        error.contains("stray `@`"),
        "a plain sentence beside the jargon: {error}"
    );

    // The gutter dot on that line says the same when the pointer rests on it.
    harness.run_steps(2);
    harness.get_by_label("line 3 marker").hover();
    harness.run_steps(30);
    harness.get_by_label_contains("Attribute name is missing — There is a stray `@`");
}

#[test]
fn the_code_editor_scrolls_back_once_the_long_line_is_gone() {
    let dir = project();
    let path = script_path(dir.path());
    let mut harness = harness(dir.path());
    open_demo_at_end(&mut harness);
    let long = format!("\n--{}", "x".repeat(400));
    harness
        .get_by_role(Role::MultilineTextInput)
        .type_text(&long);
    harness.run_steps(3);
    save(&mut harness);
    let sideways =
        |h: &Harness<'_, EditorApp>| h.state().active_document().expect("open").sideways_scroll();
    assert!(
        sideways(&harness) > 0.0,
        "the cursor at the end of the long line scrolls the text sideways"
    );
    // Another program shortens the file: the clean buffer follows the
    // disk, and the long line is gone without the cursor moving (a cursor
    // move would scroll the view by itself, and hide a stale offset).
    std::fs::write(&path, SCRIPT).expect("write");
    assert!(
        run_until(&mut harness, |app| app.documents()[0].text() == SCRIPT),
        "the buffer follows the disk"
    );
    harness.run_steps(3);
    assert_eq!(sideways(&harness), 0.0, "every line fits: back at the left");
}

/// The "Save as test" name field's text.
fn test_name(harness: &Harness<'_, EditorApp>) -> String {
    harness
        .get_by_role_and_label(Role::TextInput, "Test name")
        .value()
        .unwrap_or_default()
}

#[test]
fn the_proposed_test_name_counts_the_steps_that_are_saved() {
    let dir = project();
    std::fs::write(
        dir.path().join("scripts/nim.lua"),
        tessera_testkit::nim::NIM_SCRIPT,
    )
    .expect("script");
    let mut registry = tessera_host::Registry::empty();
    registry.register::<tessera_testkit::nim::Nim>();
    let mut harness = support::harness_with_games(dir.path(), registry, Vec::new());
    harness.get_by_label_contains("nim.lua").click();
    harness.run();
    harness.key_press(Key::F5);
    harness.run();
    harness.get_by_label("💾 Save as test").click();
    harness.run_steps(2);
    assert_eq!(test_name(&harness), "nim_0_steps");
    // Moves made while the field is open (the player's, then the AI's
    // reply on the driver) are saved too: the proposal follows them.
    harness.get_by_label("Take(3)").click();
    let steps =
        |h: &Harness<'_, EditorApp>| h.state().playtest().session().map_or(0, |s| s.step_count());
    let start = Instant::now();
    while steps(&harness) < 2 && start.elapsed() < Duration::from_secs(10) {
        harness.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    harness.run_steps(2);
    assert_eq!(steps(&harness), 2, "the move and the AI's reply");
    assert_eq!(test_name(&harness), "nim_2_steps");
    // A name the designer typed stays as typed.
    harness
        .get_by_role_and_label(Role::TextInput, "Test name")
        .focus();
    harness.run();
    harness.key_press(Key::Backspace);
    harness.run_steps(2);
    assert_eq!(test_name(&harness), "nim_2_step");
    harness.key_press(Key::Escape);
    harness.run();
    harness.get_by_label("Take(1)").click();
    let start = Instant::now();
    while steps(&harness) < 4 && start.elapsed() < Duration::from_secs(10) {
        harness.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    harness.run_steps(2);
    assert_eq!(test_name(&harness), "nim_2_step", "typed names are kept");
}

/// In the code editor Enter keeps the line's indent: typed at the end of
/// an indented line, the next line starts under it (as in VS Code).
#[test]
fn enter_keeps_the_indent_of_the_line() {
    let dir = project();
    std::fs::write(
        dir.path().join("scripts/demo.lua"),
        "return {\n    speed = 1 }",
    )
    .expect("script");
    let mut harness = harness(dir.path());
    open_demo_at_end(&mut harness);
    harness.key_press(Key::Enter);
    harness.run();
    harness
        .get_by_role(Role::MultilineTextInput)
        .type_text("x = 2");
    harness.run();
    let text = harness
        .state()
        .active_document()
        .expect("open")
        .text()
        .to_string();
    assert_eq!(text, "return {\n    speed = 1 }\n    x = 2");
}

/// Save all on quit shows that it saves (a "Saving…" dialog, drawn before
/// the first file is written), rather than a frozen window for seconds,
/// then writes everything.
#[test]
fn save_all_on_quit_shows_saving_before_it_writes() {
    let dir = project();
    let path = script_path(dir.path());
    let mut harness = harness(dir.path());
    open_demo_at_end(&mut harness);
    retype_tail(&mut harness, 3, "9 }");
    request_close(&mut harness);
    harness.get_by_label("Save all").click();
    for _ in 0..4 {
        harness.step();
        if harness.query_by_label_contains("Saving").is_some() {
            break;
        }
    }
    harness.get_by_label_contains("Saving");
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        SCRIPT,
        "written before the dialog was drawn"
    );
    harness.run();
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "-- demo\n-- tunables\nreturn { speed = 9 }"
    );
    assert!(harness.query_by_label_contains("Saving").is_none());
}
