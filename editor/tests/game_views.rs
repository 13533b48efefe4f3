//! The editor hosting a game's UI: a playtest view started with F5 that
//! keeps running across a script reload, and a visual level editor.

use super::support;

use std::path::Path;
use support::console_texts;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_editor::EditorApp;
use tessera_editor::playtest::{ConsoleLine, GameUi, LevelEditor, PlaytestContext, PlaytestView};
use tessera_host::project::Project;
use tessera_host::script::LiveScript;
use tessera_host::{Registry, Session};
use tessera_testkit::nim::Nim;

/// Shows the script's `max_take` as the running game (Nim, the test game)
/// sees it.
struct SpeedView {
    script: LiveScript,
    session: Box<dyn Session>,
}

impl PlaytestView for SpeedView {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        let max_take = self
            .script
            .current()
            .value::<i64>("max_take")
            .ok()
            .flatten();
        ui.label(format!(
            "max_take {max_take:?}, seed {}",
            self.session.seed()
        ));
        if ui.button("Say hello").clicked() {
            cx.console.push(ConsoleLine {
                text: "hello from the demo game".into(),
                is_error: false,
            });
        }
    }
}

fn show_demo(
    project: &mut Project,
    session: Box<dyn Session>,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    let script = project.script(&project.game_script_path("nim"))?;
    Ok(Box::new(SpeedView { script, session }))
}

/// A level that is just a width, edited with one button.
struct WidthEditor {
    width: u32,
    saved: u32,
}

impl LevelEditor for WidthEditor {
    fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut PlaytestContext<'_>) {
        ui.label(format!("width {}", self.width));
        if ui.button("Widen").clicked() {
            self.width += 1;
        }
    }
    fn to_ron(&self) -> anyhow::Result<String> {
        Ok(format!("(width: {})\n", self.width))
    }
    fn is_dirty(&self) -> bool {
        self.width != self.saved
    }
    fn load(&mut self, text: &str) -> anyhow::Result<()> {
        let width = width_of(text)?;
        (self.width, self.saved) = (width, width);
        Ok(())
    }
}

fn width_of(text: &str) -> anyhow::Result<u32> {
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    Ok(digits.parse()?)
}

fn open_width_editor(_path: &Path, text: &str) -> anyhow::Result<Box<dyn LevelEditor>> {
    let width = width_of(text)?;
    Ok(Box::new(WidthEditor {
        width,
        saved: width,
    }))
}

const DEMO: GameUi = GameUi {
    id: "nim",
    view: show_demo,
    level_editor: Some(open_width_editor),
};

fn harness(root: &Path) -> Harness<'static, EditorApp> {
    let mut registry = Registry::empty();
    registry.register::<Nim>();
    support::harness_with_games(root, registry, vec![DEMO])
}

fn project(script: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("scripts")).expect("scripts/");
    std::fs::create_dir_all(dir.path().join("levels/nim")).expect("levels/");
    std::fs::write(dir.path().join("scripts/nim.lua"), script).expect("script");
    std::fs::write(dir.path().join("levels/nim/a.ron"), "(width: 3)\n").expect("level");
    dir
}

#[test]
fn f5_starts_the_view_and_a_saved_script_reaches_the_running_game() {
    let dir = project(
        "print(\"demo loaded\")\nreturn { score = function(n) return n end, max_take = 1 }",
    );
    let mut harness = harness(dir.path());
    assert!(
        console_texts(&harness).contains(&"scripts/nim.lua: demo loaded".to_string()),
        "print output reaches the console: {:#?}",
        console_texts(&harness)
    );

    harness.get_by_label("📜 nim.lua").click();
    harness.run();
    harness.key_press(Key::F5);
    harness.run();
    harness.get_by_label("max_take Some(1), seed 1");
    assert_eq!(
        console_texts(&harness).last().map(String::as_str),
        Some("playtest nim on its default level, seed 1")
    );

    // Edit the script while the game runs: the view sees the new value.
    harness.get_by_role(Role::MultilineTextInput).focus();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::End);
    for _ in 0..3 {
        harness.key_press(Key::Backspace);
    }
    harness
        .get_by_role(Role::MultilineTextInput)
        .type_text("8 }");
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run();
    harness.get_by_label("max_take Some(8), seed 1");
    let lines = console_texts(&harness);
    let n = lines.len();
    assert_eq!(
        lines[n - 2..],
        ["reloaded scripts/nim.lua", "scripts/nim.lua: demo loaded"]
    );

    // Views write to the console through their context.
    harness.get_by_label("Say hello").click();
    harness.run();
    assert_eq!(
        console_texts(&harness).last().map(String::as_str),
        Some("hello from the demo game")
    );
}

#[test]
fn a_level_opens_in_the_games_visual_editor_and_saves_its_ron() {
    let dir = project("return { score = function(n) return n end, max_take = 1 }");
    let level = dir.path().join("levels/nim/a.ron");
    let mut harness = harness(dir.path());
    harness.get_by_label_contains("a.ron").click();
    harness.run();
    harness.get_by_label("width 3");
    harness.get_by_label("Widen").click();
    harness.run();
    harness.get_by_label("width 4");
    assert_eq!(harness.state().documents()[0].title(), "a.ron ●");

    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run();
    assert_eq!(
        std::fs::read_to_string(&level).expect("read"),
        "(width: 4)\n"
    );
    assert_eq!(harness.state().documents()[0].title(), "a.ron");

    // The raw text view shows the same level.
    harness.get_by_label("RON text").click();
    harness.run();
    assert_eq!(harness.state().documents()[0].text(), "(width: 4)\n");
    assert!(harness.query_by_label("Widen").is_none());
}

/// A view whose one line is far wider than any panel (a long refusal).
struct WideView {
    session: Box<dyn Session>,
}

impl PlaytestView for WideView {
    fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut PlaytestContext<'_>) {
        let long = "the piece would leave the box past its far wall; ".repeat(40);
        ui.add(egui::Label::new(long).extend());
        let _ = ui.button("Place");
    }

    fn session(&self) -> Option<&dyn Session> {
        Some(self.session.as_ref())
    }
}

fn show_wide(
    _project: &mut Project,
    session: Box<dyn Session>,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    Ok(Box::new(WideView { session }))
}

/// Issue 35: the docked playtest keeps the width the designer gave it
/// whatever its content asks, and that width is what is remembered.
#[test]
fn a_long_line_neither_widens_the_docked_playtest_nor_is_remembered() {
    let dir = project("return { score = function(n) return n end, max_take = 1 }");
    let mut registry = Registry::empty();
    registry.register::<Nim>();
    let wide = GameUi {
        id: "nim",
        view: show_wide,
        level_editor: None,
    };
    let mut harness = support::harness_with_games(dir.path(), registry, vec![wide]);
    harness.get_by_label("📜 nim.lua").click();
    harness.run_steps(3);
    let width = |h: &Harness<'_, EditorApp>| h.state().remembered(&h.ctx).playtest_width;
    let before = width(&harness);
    harness.key_press(Key::F5);
    harness.run_steps(6);
    let place = harness.get_by_label("Place").rect();
    assert_eq!(width(&harness), before, "the panel kept its width");
    assert!(
        place.left() >= 1400.0 - before - 1.0,
        "the playtest starts where it did: {place:?}"
    );
    // The documents keep their room: the open tab is left of the playtest.
    let tab = harness.get_by_label("nim.lua").rect();
    assert!(tab.right() < place.left(), "{tab:?} against {place:?}");
}
