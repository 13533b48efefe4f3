//! Helpers shared by the editor's UI tests.

#![allow(dead_code)]

pub mod layout;

use std::path::Path;

use egui_kittest::Harness;
use tessera_editor::{EditorApp, GameUi};

/// The rig every UI crate's tests share: the repository, throwaway
/// projects, gestures and waits.
pub use tessera_ui_testkit::{
    click_in_one_frame, drag, repo_root, step_until, temp_project, wait_for,
};

/// The editor on the project at `root`, in a 1400 x 900 window.
pub fn harness(root: &Path) -> Harness<'static, EditorApp> {
    let app = EditorApp::open(root).expect("project opens");
    harness_for(app)
}

/// The editor with its own set of games and UIs (tests bring small games).
pub fn harness_with_games(
    root: &Path,
    registry: tessera_host::Registry,
    games: Vec<GameUi>,
) -> Harness<'static, EditorApp> {
    let app = EditorApp::open_with_games(root, registry, games).expect("project opens");
    harness_for(app)
}

fn harness_for(app: EditorApp) -> Harness<'static, EditorApp> {
    sized(app, egui::vec2(1400.0, 900.0))
}

/// `app` in a window of `size`, styled as the editor is.
pub fn sized(app: EditorApp, size: egui::Vec2) -> Harness<'static, EditorApp> {
    // The testkit's window is styled as the editor is (`apply_style`).
    tessera_ui_testkit::window(size, |ui, app: &mut EditorApp| app.ui(ui), app)
}

/// The editor on the project at `root`, in a window of `size`, with
/// `levels/<game>/<level>` open in its tab (no playtest yet).
pub fn on_level(
    root: &Path,
    game: &str,
    level: &str,
    size: egui::Vec2,
) -> Harness<'static, EditorApp> {
    let mut harness = sized(EditorApp::open(root).expect("opens"), size);
    harness.run_steps(3);
    harness
        .state_mut()
        .open_file(&root.join("levels").join(game).join(level))
        .expect("the level opens");
    harness.run_steps(3);
    harness
}

/// The editor on `root` remembering its state in `state_file`, in a
/// window of `size`.
pub fn remembering(
    root: &Path,
    state_file: &Path,
    size: egui::Vec2,
) -> Harness<'static, EditorApp> {
    let mut app = EditorApp::open(root).expect("project opens");
    app.remember_in(state_file.to_path_buf());
    sized(app, size)
}

/// The console's lines, oldest first.
pub fn console_texts(harness: &Harness<'_, EditorApp>) -> Vec<String> {
    harness
        .state()
        .console()
        .lines()
        .iter()
        .map(|l| l.text.clone())
        .collect()
}

/// Fails unless a console line contains `text`, listing the lines.
pub fn assert_console_has(harness: &Harness<'_, EditorApp>, text: &str) {
    let lines = console_texts(harness);
    assert!(
        lines.iter().any(|l| l.contains(text)),
        "no console line with {text:?}: {lines:?}"
    );
}

/// An Azul scenario: a last round where the player's one move (the
/// centre's orange to line 1) completes a wall row, so the game ends at
/// once, lost on points.
pub const AZUL_LAST_MOVE: &str = r#"(
    version: 1,
    title: "Last move",
    description: "One move left.",
    seats: [Human, Ai(level: "easy")],
    goal: Win(seat: 1),
    position: Some((
        round: 5,
        to_move: 1,
        boards: [
            (score: 10, wall: ["BYRG.", ".....", ".....", ".....", "....."], lines: ["", "", "", "", ""]),
            (score: 41, wall: ["B.RGO", "OBYR.", ".OBY.", "..OB.", "....."], lines: ["", "", "", "", ""]),
        ],
        factories: ["", "", "", "", ""],
        centre: "O",
    )),
)
"#;
