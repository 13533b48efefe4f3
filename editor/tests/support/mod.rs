//! Helpers shared by the editor's UI tests.

#![allow(dead_code)]

pub mod layout;

use std::path::Path;

use egui_kittest::Harness;
use tessera_editor::{EditorApp, GameUi};

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
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .with_context_setup(EditorApp::apply_style)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app)
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
