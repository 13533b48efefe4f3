//! Menus, keyboard shortcuts and file actions from the project tree.

use crate::files::{FileDialog, FileOp};
use crate::search::{Search, SearchKind};
use crate::tree::TreeAction;

use super::EditorApp;
use super::{
    CLOSE_TAB, FIND_IN_PROJECT, MAXIMISE_PLAYTEST, NEW_LEVEL, PLAY, QUICK_OPEN, SAVE, SAVE_ALL,
};

impl EditorApp {
    /// Starts a file operation from the tree or the File menu.
    pub(super) fn file_action(&mut self, action: TreeAction) {
        let registry = self.project.registry();
        match action {
            TreeAction::Open(path) => {
                self.open_file(&path);
            }
            TreeAction::NewLevel(game) => {
                let game = game.or_else(|| {
                    self.active_document()
                        .and_then(|d| d.game(self.project.registry()))
                });
                self.file_dialog = Some(FileDialog::new_level(registry, game.as_deref()));
            }
            TreeAction::NewScript => {
                self.file_dialog = Some(FileDialog::new_script(registry, self.project.root()));
            }
            TreeAction::Rename(path) => self.file_dialog = Some(FileDialog::rename(&path)),
            TreeAction::Duplicate(path) => match crate::files::duplicate(&path) {
                Ok(copy) => self.file_done(FileOp::Created(copy)),
                Err(e) => self.console.error(format!("error {e:#}")),
            },
            TreeAction::Delete(path) => {
                let unsaved = self
                    .document_index(&path)
                    .is_some_and(|i| self.documents[i].is_dirty());
                self.file_dialog = Some(FileDialog::Delete {
                    path,
                    unsaved,
                    error: None,
                });
            }
        }
    }

    pub(super) fn handle_shortcuts(&mut self, ctx: &egui::Context) {
        if self.prompts.current().is_some() || self.file_dialog.is_some() {
            return;
        }
        if ctx.input_mut(|i| i.consume_shortcut(&FIND_IN_PROJECT)) {
            self.search = Some(Search::new(SearchKind::FindInProject));
        }
        if ctx.input_mut(|i| i.consume_shortcut(&QUICK_OPEN)) {
            self.search = Some(Search::new(SearchKind::QuickOpen));
        }
        if ctx.input_mut(|i| i.consume_shortcut(&MAXIMISE_PLAYTEST))
            && !self.layout.playtest_popped_out
        {
            self.layout.playtest_maximised = !self.layout.playtest_maximised;
        }
        if ctx.input_mut(|i| i.consume_shortcut(&NEW_LEVEL)) {
            self.file_action(TreeAction::NewLevel(None));
        }
        // The more specific shortcut first: Ctrl+Shift+S also matches Ctrl+S.
        if ctx.input_mut(|i| i.consume_shortcut(&SAVE_ALL)) {
            self.save_all();
        }
        if ctx.input_mut(|i| i.consume_shortcut(&SAVE)) {
            self.save_active();
        }
        if ctx.input_mut(|i| i.consume_shortcut(&CLOSE_TAB))
            && let Some(index) = self.active
        {
            self.close_document(index, true);
        }
        if ctx.input_mut(|i| i.consume_shortcut(&PLAY)) {
            self.start_playtest();
        }
    }

    pub(super) fn menu_ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                let has_document = self.active.is_some();
                if ui
                    .add(egui::Button::new("New level…").shortcut_text("Ctrl+N"))
                    .clicked()
                {
                    self.file_action(TreeAction::NewLevel(None));
                }
                if ui.button("New script…").clicked() {
                    self.file_action(TreeAction::NewScript);
                }
                let active_path = self.active_document().map(|d| d.path().to_path_buf());
                if ui
                    .add_enabled(has_document, egui::Button::new("Rename…"))
                    .clicked()
                    && let Some(path) = active_path.clone()
                {
                    self.file_action(TreeAction::Rename(path));
                }
                if ui
                    .add_enabled(has_document, egui::Button::new("Duplicate"))
                    .clicked()
                    && let Some(path) = active_path.clone()
                {
                    self.file_action(TreeAction::Duplicate(path));
                }
                if ui
                    .add_enabled(has_document, egui::Button::new("Delete…"))
                    .clicked()
                    && let Some(path) = active_path
                {
                    self.file_action(TreeAction::Delete(path));
                }
                ui.separator();
                if ui
                    .add_enabled(
                        has_document,
                        egui::Button::new("Save").shortcut_text("Ctrl+S"),
                    )
                    .clicked()
                {
                    self.save_active();
                }
                if ui
                    .add(egui::Button::new("Save all").shortcut_text("Ctrl+Shift+S"))
                    .clicked()
                {
                    self.save_all();
                }
                if ui
                    .add_enabled(
                        has_document,
                        egui::Button::new("Close tab").shortcut_text("Ctrl+W"),
                    )
                    .clicked()
                    && let Some(index) = self.active
                {
                    self.close_document(index, true);
                }
                ui.separator();
                if ui
                    .add(egui::Button::new("Go to file…").shortcut_text("Ctrl+P"))
                    .clicked()
                {
                    self.search = Some(Search::new(SearchKind::QuickOpen));
                }
                if ui
                    .add(egui::Button::new("Find in project…").shortcut_text("Ctrl+Shift+F"))
                    .clicked()
                {
                    self.search = Some(Search::new(SearchKind::FindInProject));
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    self.request_quit(&ctx);
                }
            });
            ui.menu_button("Run", |ui| {
                if ui
                    .add(egui::Button::new("Playtest").shortcut_text("F5"))
                    .clicked()
                {
                    self.start_playtest();
                }
                if ui
                    .add_enabled(self.playtest.running().is_some(), egui::Button::new("Stop"))
                    .clicked()
                {
                    self.playtest.stop();
                }
                ui.separator();
                ui.label("F5 with unsaved level edits:");
                ui.radio_value(
                    &mut self.save_before_playtest,
                    false,
                    "Play the edits unsaved",
                );
                ui.radio_value(&mut self.save_before_playtest, true, "Save the level first");
                ui.separator();
                if ui
                    .button("Tests")
                    .on_hover_text("Run the replay suite (tests/replays/) and review changes")
                    .clicked()
                {
                    self.run_tests();
                }
            });
        });
    }
}
