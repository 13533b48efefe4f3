//! Helpers shared by the editor's UI tests.

use egui_kittest::Harness;
use tessera_editor::EditorApp;

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
