//! Saving the table's game under a name (`saves/<name>.replay.ron`), with
//! a question before overwriting a save this table did not write, and
//! loading a save by its name.

use std::path::PathBuf;

use tessera_host::level::{to_ron_string, write_atomic};
use tessera_ui::PlaytestContext;

use super::AzulPlaytest;

/// The name a table saves under until the designer types another.
const DEFAULT_NAME: &str = "azul";

/// Where the table's game is saved.
#[derive(Debug, Clone)]
pub(super) struct SaveSlot {
    /// The save's name, typed by the designer (`saves/<name>.replay.ron`).
    name: String,
    /// The file this table last wrote or loaded: saving there again asks
    /// nothing.
    own: Option<PathBuf>,
    /// A save waiting for "Overwrite": the file already there.
    confirm: Option<PathBuf>,
}

impl Default for SaveSlot {
    fn default() -> Self {
        Self {
            name: DEFAULT_NAME.to_string(),
            own: None,
            confirm: None,
        }
    }
}

impl AzulPlaytest {
    /// The file the typed name stands for, or why the name cannot be one.
    fn named_save(&self, cx: &PlaytestContext<'_>) -> Result<PathBuf, String> {
        let name = self.saves.name.trim();
        if name.is_empty() {
            return Err("type a name to save under".into());
        }
        if name.contains(['/', '\\']) || name.starts_with('.') {
            return Err(format!(
                "`{name}` is not a save name (no folders, no leading dot)"
            ));
        }
        Ok(self.save_path(cx, &format!("{name}.replay.ron")))
    }

    /// The name field, Save and Load, and the overwrite question.
    pub(super) fn saves_ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        ui.horizontal(|ui| {
            let label = ui.label("Save as");
            ui.add(egui::TextEdit::singleline(&mut self.saves.name).desired_width(90.0))
                .labelled_by(label.id)
                .on_hover_text("The save's name: saves/<name>.replay.ron");
            ui.weak(".replay.ron");
            if ui.button("Save").clicked() {
                self.save(cx, false);
            }
            if ui.button("Load").clicked() {
                self.load(cx);
            }
        });
        let Some(path) = self.saves.confirm.clone() else {
            return;
        };
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "{} already exists.",
                    cx.project.display_path(&path).display()
                ),
            );
            if ui.button("Overwrite").clicked() {
                self.save(cx, true);
            }
            if ui.button("Cancel").clicked() {
                self.saves.confirm = None;
            }
        });
    }

    /// Saves the game under the typed name; a file there that this table
    /// did not write is only replaced when `overwrite` (after the question).
    pub(super) fn save(&mut self, cx: &mut PlaytestContext<'_>, overwrite: bool) {
        self.saves.confirm = None;
        let path = match self.named_save(cx) {
            Ok(path) => path,
            Err(e) => return self.say(format!("Cannot save: {e}"), true),
        };
        if path.exists() && !overwrite && self.saves.own.as_ref() != Some(&path) {
            self.say(
                format!("{} already exists: overwrite it?", path.display()),
                false,
            );
            self.saves.confirm = Some(path);
            return;
        }
        let result = to_ron_string(self.game.replay())
            .map_err(|e| e.to_string())
            .and_then(|text| {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
                }
                write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())
            });
        match result {
            Ok(()) => {
                self.say(format!("Saved {}", path.display()), false);
                self.saves.own = Some(path);
            }
            Err(e) => self.say(format!("Cannot save {}: {e}", path.display()), true),
        }
    }

    /// The file Load reads: the typed name's save.
    pub(super) fn load_path(&mut self, cx: &PlaytestContext<'_>) -> Result<PathBuf, String> {
        self.saves.confirm = None;
        self.named_save(cx)
    }

    /// A load from `path` succeeded: saving goes back there without asking.
    pub(super) fn loaded_from(&mut self, path: PathBuf) {
        self.saves.own = Some(path);
    }
}
