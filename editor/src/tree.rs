//! The project tree: the files under `levels/` and `scripts/`, rescanned
//! when the watcher reports a change and every couple of seconds (so files
//! appearing in folders that did not exist at start-up show up too).

use std::path::{Path, PathBuf};

use egui::{CollapsingHeader, RichText};
use tessera_host::project::{LEVELS_DIR, SCRIPTS_DIR};

use crate::app::Command;

/// How often the tree rescans the disk without a watcher event.
const RESCAN_SECONDS: f64 = 2.0;

/// A file or folder in the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeEntry {
    /// File or folder name.
    pub name: String,
    /// Absolute path.
    pub path: PathBuf,
    /// Sub-entries (folders first, then files, each by name); empty for files.
    pub children: Vec<TreeEntry>,
    /// Whether this is a folder.
    pub is_folder: bool,
}

/// The `scripts/` and `levels/` folders of a project.
#[derive(Debug)]
pub struct ProjectTree {
    root: PathBuf,
    folders: Vec<TreeEntry>,
    last_scan: Option<f64>,
}

impl ProjectTree {
    /// Scans the project at `root`.
    pub fn new(root: &Path) -> Self {
        let mut tree = Self {
            root: root.to_path_buf(),
            folders: Vec::new(),
            last_scan: None,
        };
        tree.rescan();
        tree
    }

    /// Reads the folders again from disk.
    pub fn rescan(&mut self) {
        self.folders = [SCRIPTS_DIR, LEVELS_DIR]
            .iter()
            .map(|name| {
                let path = self.root.join(name);
                TreeEntry {
                    name: (*name).to_string(),
                    children: scan(&path),
                    path,
                    is_folder: true,
                }
            })
            .collect();
    }

    /// The top folders (`scripts`, `levels`).
    pub fn folders(&self) -> &[TreeEntry] {
        &self.folders
    }

    /// Every file in the tree, in display order.
    pub fn files(&self) -> Vec<PathBuf> {
        fn walk(entry: &TreeEntry, out: &mut Vec<PathBuf>) {
            if entry.is_folder {
                entry.children.iter().for_each(|c| walk(c, out));
            } else {
                out.push(entry.path.clone());
            }
        }
        let mut out = Vec::new();
        self.folders.iter().for_each(|f| walk(f, &mut out));
        out
    }

    /// Draws the tree; returns what the user clicked (a file, or an entry
    /// of a right-click menu). `active` is highlighted; `is_dirty` marks
    /// files with unsaved edits.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        active: Option<&Path>,
        is_dirty: &dyn Fn(&Path) -> bool,
    ) -> Option<Command> {
        let now = ui.input(|i| i.time);
        if self
            .last_scan
            .is_none_or(|last| now - last >= RESCAN_SECONDS || now < last)
        {
            self.rescan();
            self.last_scan = Some(now);
        }
        let mut clicked = None;
        egui::ScrollArea::vertical()
            .id_salt("project tree")
            .auto_shrink(false)
            .show(ui, |ui| {
                for folder in &self.folders {
                    entry_ui(ui, folder, active, is_dirty, &mut clicked);
                }
            });
        clicked
    }
}

fn entry_ui(
    ui: &mut egui::Ui,
    entry: &TreeEntry,
    active: Option<&Path>,
    is_dirty: &dyn Fn(&Path) -> bool,
    clicked: &mut Option<Command>,
) {
    if entry.is_folder {
        let folder = CollapsingHeader::new(RichText::new(format!("🗀 {}", entry.name)))
            .id_salt(&entry.path)
            .default_open(true)
            .show(ui, |ui| {
                if entry.children.is_empty() {
                    ui.weak("(empty)");
                }
                for child in &entry.children {
                    entry_ui(ui, child, active, is_dirty, clicked);
                }
            });
        // A level folder is named after its game.
        let game = entry
            .path
            .parent()
            .filter(|parent| parent.file_name().is_some_and(|n| n == LEVELS_DIR))
            .map(|_| entry.name.clone());
        let in_scripts = entry.name == SCRIPTS_DIR;
        folder.header_response.context_menu(|ui| {
            if in_scripts {
                if ui.button("New script…").clicked() {
                    *clicked = Some(Command::NewScript);
                }
            } else if ui.button("New level…").clicked() {
                *clicked = Some(Command::NewLevel(game.clone()));
            }
        });
        return;
    }
    let icon = match entry.path.extension().and_then(|e| e.to_str()) {
        Some("lua" | "luau") => "📜",
        Some("ron") => "🗺",
        _ => "🗋",
    };
    let marker = if is_dirty(&entry.path) { " ●" } else { "" };
    let selected = active == Some(entry.path.as_path());
    // One line per file: a name too long for the panel ends in "…" (the
    // tooltip has the whole path) instead of wrapping mid-word.
    let response = ui
        .add(
            egui::Button::selectable(selected, format!("{icon} {}{marker}", entry.name)).truncate(),
        )
        .on_hover_text(entry.path.display().to_string());
    if response.clicked() {
        *clicked = Some(Command::Open(entry.path.clone()));
    }
    response.context_menu(|ui| {
        if ui.button("Rename…").clicked() {
            *clicked = Some(Command::Rename(entry.path.clone()));
        }
        if ui.button("Duplicate").clicked() {
            *clicked = Some(Command::Duplicate(entry.path.clone()));
        }
        if ui.button("Delete…").clicked() {
            *clicked = Some(Command::Delete(entry.path.clone()));
        }
    });
}

/// The entries of a folder, folders first; hidden and temporary files are
/// left out. A missing or unreadable folder is simply empty.
fn scan(folder: &Path) -> Vec<TreeEntry> {
    let Ok(read) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut entries: Vec<TreeEntry> = read
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_str()?.to_string();
            if name.starts_with('.') || name.ends_with('~') {
                return None;
            }
            let path = entry.path();
            let is_folder = path.is_dir();
            Some(TreeEntry {
                children: if is_folder { scan(&path) } else { Vec::new() },
                name,
                path,
                is_folder,
            })
        })
        .collect();
    entries.sort_by(|a, b| b.is_folder.cmp(&a.is_folder).then(a.name.cmp(&b.name)));
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_lists_files_and_notices_new_ones() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
        std::fs::create_dir_all(dir.path().join("levels/sand")).unwrap();
        std::fs::write(dir.path().join("scripts/b.lua"), "return {}").unwrap();
        std::fs::write(dir.path().join("scripts/.b.lua.tessera-tmp"), "").unwrap();
        std::fs::write(dir.path().join("levels/sand/one.ron"), "()").unwrap();
        let mut tree = ProjectTree::new(dir.path());
        let names = |tree: &ProjectTree| -> Vec<String> {
            tree.files()
                .iter()
                .map(|p| p.strip_prefix(dir.path()).unwrap().display().to_string())
                .collect()
        };
        assert_eq!(names(&tree), ["scripts/b.lua", "levels/sand/one.ron"]);
        std::fs::write(dir.path().join("scripts/a.lua"), "return {}").unwrap();
        std::fs::remove_file(dir.path().join("levels/sand/one.ron")).unwrap();
        tree.rescan();
        assert_eq!(names(&tree), ["scripts/a.lua", "scripts/b.lua"]);
    }
}
