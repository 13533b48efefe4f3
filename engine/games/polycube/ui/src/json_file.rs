//! The seed's JSON format in the level editor: a `.json` level is edited
//! and saved as JSON (not turned into RON behind the designer's back), and
//! a RON level can be exported to the seed's JSON beside it.

use std::path::{Path, PathBuf};

use egui::Ui;
use tessera_polycube::PolycubeLevel;
use tessera_polycube::import::export_seed_json;

/// Which format the open file is in, and the export row's state.
#[derive(Debug, Default)]
pub struct JsonFile {
    /// The file the editor opened (`None`: a level not from a file).
    path: Option<PathBuf>,
    /// Whether that file is JSON (saved back as the seed's JSON).
    is_json: bool,
    /// The last export's outcome, shown beside the button.
    note: Option<String>,
}

impl JsonFile {
    /// For the file at `path`.
    pub fn for_path(path: &Path) -> Self {
        Self {
            path: Some(path.to_path_buf()),
            is_json: path.extension().and_then(|e| e.to_str()) == Some("json"),
            note: None,
        }
    }

    /// Whether the file is JSON: its saves are the seed's JSON.
    pub fn is_json(&self) -> bool {
        self.is_json
    }

    /// The level's text in the file's format when it is JSON.
    pub fn save_text(&self, level: &PolycubeLevel) -> Option<anyhow::Result<String>> {
        self.is_json
            .then(|| export_seed_json(level).map_err(anyhow::Error::from))
    }

    /// "Export seed JSON": writes the level (as edited) to the file's
    /// name with `.json`, never over an existing file. A JSON file shows
    /// what its saves keep instead.
    pub fn ui(&mut self, ui: &mut Ui, level: &PolycubeLevel) {
        let Some(path) = self.path.clone() else {
            return;
        };
        ui.horizontal(|ui| {
            if self.is_json {
                ui.weak("Seed JSON file: saved as JSON (piece colours and assembly mode are not part of that format).");
                return;
            }
            let target = path.with_extension("json");
            let name = target
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            if ui
                .button("Export seed JSON")
                .on_hover_text(format!("Write this level in the seed's JSON format to {name}"))
                .clicked()
            {
                self.note = Some(export(level, &target, &name));
            }
            if let Some(note) = &self.note {
                ui.label(note);
            }
        });
    }
}

/// Writes the export, in words for the editor.
fn export(level: &PolycubeLevel, target: &Path, name: &str) -> String {
    if target.exists() {
        return format!("{name} already exists; rename or delete it first");
    }
    let written = export_seed_json(level)
        .map_err(anyhow::Error::from)
        .and_then(|text| {
            tessera_host::level::write_atomic(target, text.as_bytes()).map_err(anyhow::Error::from)
        });
    match written {
        Ok(()) => format!("exported to {name}"),
        Err(e) => format!("cannot write {name}: {e}"),
    }
}
