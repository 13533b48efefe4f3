//! Project files from inside the editor: New level (from the game's
//! default level), New script (from the game's documented default script),
//! Rename, Duplicate and Delete (after a confirmation), with the small
//! dialogs that ask for names.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use egui::{Id, Key, Modal, RichText};
use tessera_host::level::{MAX_FILE_BYTES, read_bytes_capped, write_atomic};
use tessera_host::project::{LEVELS_DIR, SCRIPTS_DIR};
use tessera_host::registry::Registry;

/// What a finished file operation did, so the editor can follow it (open
/// the new file, move a tab, close a deleted file's tab).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOp {
    /// A file was written (new or duplicate).
    Created(PathBuf),
    /// A file moved.
    Renamed {
        /// Where it was.
        from: PathBuf,
        /// Where it is now.
        to: PathBuf,
    },
    /// A file was removed.
    Deleted(PathBuf),
}

/// A question about a file operation being asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileDialog {
    /// "New level": which game, and the file name.
    NewLevel {
        /// Plugin id.
        game: String,
        /// File name typed so far.
        name: String,
        /// Why the last attempt failed.
        error: Option<String>,
    },
    /// "New script": which game it tunes, and the file name.
    NewScript {
        /// Plugin id.
        game: String,
        /// File name typed so far.
        name: String,
        /// Why the last attempt failed.
        error: Option<String>,
    },
    /// "Rename": the new name in the same folder.
    Rename {
        /// The file (absolute).
        path: PathBuf,
        /// New name typed so far.
        name: String,
        /// Why the last attempt failed.
        error: Option<String>,
    },
    /// "Delete": a confirmation.
    Delete {
        /// The file (absolute).
        path: PathBuf,
        /// Whether its open tab has unsaved edits (they are lost too).
        unsaved: bool,
        /// Why the last attempt failed.
        error: Option<String>,
    },
}

impl FileDialog {
    /// "New level", for `game` (or the first game).
    pub fn new_level(registry: &Registry, game: Option<&str>) -> Self {
        let game = game
            .map(str::to_string)
            .or_else(|| registry.iter().next().map(|e| e.id.to_string()))
            .unwrap_or_default();
        Self::NewLevel {
            game,
            name: "new_level.ron".into(),
            error: None,
        }
    }

    /// "New script", for the first game without a script in `root`.
    pub fn new_script(registry: &Registry, root: &Path) -> Self {
        let ids: Vec<&str> = registry.iter().map(|e| e.id).collect();
        let game = ids
            .iter()
            .find(|id| !root.join(SCRIPTS_DIR).join(format!("{id}.lua")).exists())
            .or(ids.first())
            .map(|s| s.to_string())
            .unwrap_or_default();
        let name = free_script_name(root, &game);
        Self::NewScript {
            game,
            name,
            error: None,
        }
    }

    /// "Rename" for `path`.
    pub fn rename(path: &Path) -> Self {
        Self::Rename {
            path: path.to_path_buf(),
            name: file_name(path),
            error: None,
        }
    }

    /// Draws the dialog. Returns `Some(None)` when it was cancelled,
    /// `Some(Some(op))` when the operation was done, `None` while open.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        registry: &Registry,
        root: &Path,
    ) -> Option<Option<FileOp>> {
        let mut outcome = None;
        let mut confirm = false;
        let games: Vec<(String, String)> = registry
            .iter()
            .map(|e| (e.id.to_string(), e.title.to_string()))
            .collect();
        Modal::new(Id::unique("tessera file dialog")).show(ctx, |ui| {
            ui.set_min_width(380.0);
            let (title, verb) = match self {
                Self::NewLevel { .. } => ("New level", "Create"),
                Self::NewScript { .. } => ("New script", "Create"),
                Self::Rename { .. } => ("Rename", "Rename"),
                Self::Delete { .. } => ("Delete", "Delete"),
            };
            ui.heading(title);
            ui.add_space(6.0);
            match self {
                Self::NewLevel { game, name, .. } | Self::NewScript { game, name, .. } => {
                    let before = game.clone();
                    let shown = game.clone();
                    ui.horizontal(|ui| {
                        tessera_ui::labelled_combo(ui, "Game", "new file game", shown, |ui| {
                            for (id, title) in &games {
                                ui.selectable_value(game, id.clone(), format!("{id}: {title}"));
                            }
                        });
                    });
                    if *game != before && name.ends_with(".lua") {
                        *name = free_script_name(root, game);
                    }
                    name_field(ui, name, &mut confirm);
                }
                Self::Rename { path, name, .. } => {
                    ui.label(format!("Rename {}", file_name(path)));
                    name_field(ui, name, &mut confirm);
                }
                Self::Delete { path, unsaved, .. } => {
                    ui.label(format!("Delete {} from disk?", display(root, path)));
                    if *unsaved {
                        ui.label(
                            RichText::new("Its tab has unsaved edits; they are lost too.")
                                .color(ui.visuals().warn_fg_color),
                        );
                    }
                    ui.weak("This cannot be undone from the editor.");
                }
            }
            let error = match self {
                Self::NewLevel { error, .. }
                | Self::NewScript { error, .. }
                | Self::Rename { error, .. }
                | Self::Delete { error, .. } => error.clone(),
            };
            if let Some(error) = error {
                ui.label(RichText::new(error).color(ui.visuals().error_fg_color));
            }
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button(verb).clicked() {
                    confirm = true;
                }
                if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(Key::Escape)) {
                    outcome = Some(None);
                }
            });
        });
        if confirm {
            match self.apply(registry, root) {
                Ok(op) => outcome = Some(Some(op)),
                Err(e) => {
                    let text = format!("{e:#}");
                    match self {
                        Self::NewLevel { error, .. }
                        | Self::NewScript { error, .. }
                        | Self::Rename { error, .. }
                        | Self::Delete { error, .. } => *error = Some(text),
                    }
                }
            }
        }
        outcome
    }

    /// Does what the dialog asks.
    pub fn apply(&self, registry: &Registry, root: &Path) -> anyhow::Result<FileOp> {
        match self {
            Self::NewLevel { game, name, .. } => {
                create_level(registry, root, game, name).map(FileOp::Created)
            }
            Self::NewScript { game, name, .. } => {
                create_script(registry, root, game, name).map(FileOp::Created)
            }
            Self::Rename { path, name, .. } => rename(path, name).map(|to| FileOp::Renamed {
                from: path.clone(),
                to,
            }),
            Self::Delete { path, .. } => {
                std::fs::remove_file(path)
                    .with_context(|| format!("cannot delete {}", display(root, path)))?;
                Ok(FileOp::Deleted(path.clone()))
            }
        }
    }
}

fn name_field(ui: &mut egui::Ui, name: &mut String, confirm: &mut bool) {
    ui.horizontal(|ui| {
        let label = ui.label("Name");
        let field = ui
            .add(egui::TextEdit::singleline(name).desired_width(260.0))
            .labelled_by(label.id);
        if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
            *confirm = true;
        }
    });
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn display(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// A plain file name: not empty, no folders, no hidden files.
fn checked_name(name: &str, extension: &str) -> anyhow::Result<String> {
    let name = name.trim();
    if name.is_empty() {
        bail!("type a file name");
    }
    if name.contains(['/', '\\']) || name == "." || name == ".." || name.starts_with('.') {
        bail!("`{name}` is not a plain file name (no folders, not hidden)");
    }
    Ok(if Path::new(name).extension().is_some() {
        name.to_string()
    } else {
        format!("{name}.{extension}")
    })
}

fn write_new(path: &Path, text: &str, shown: &str) -> anyhow::Result<()> {
    if path.exists() {
        bail!("{shown} already exists");
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create the folder for {shown}"))?;
    }
    write_atomic(path, text.as_bytes()).with_context(|| format!("cannot write {shown}"))
}

/// Writes `levels/<game>/<name>` from the game's default level.
pub fn create_level(
    registry: &Registry,
    root: &Path,
    game: &str,
    name: &str,
) -> anyhow::Result<PathBuf> {
    let entry = registry
        .get(game)
        .with_context(|| format!("unknown game `{game}`"))?;
    let name = checked_name(name, "ron")?;
    let path = root.join(LEVELS_DIR).join(game).join(&name);
    let template = entry.level_template();
    let text = match entry.level_name_field() {
        Some(field) => named_after_file(&template, field, &name),
        None => template,
    };
    write_new(&path, &text, &display(root, &path))?;
    Ok(path)
}

/// A new level's text with its name field (`field`: the game's
/// `LevelFile::NAME_FIELD`, `name` or `title`) set from the file name:
/// `my_puzzle.ron` is called "My puzzle", not the template's default.
fn named_after_file(template: &str, field: &str, file: &str) -> String {
    use tessera_host::level::FieldKey;
    let stem = Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(file);
    let words = stem.replace(['_', '-'], " ");
    let mut chars = words.trim().chars();
    let title: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => return template.to_string(),
    };
    let key = [FieldKey::Name(field.into())];
    match tessera_host::ron_locate::value_span(template, &key) {
        Some(span) if template[span.clone()].starts_with('"') => {
            let quoted = ron::to_string(&title).unwrap_or_else(|_| format!("{title:?}"));
            format!(
                "{}{quoted}{}",
                &template[..span.start],
                &template[span.end..]
            )
        }
        _ => template.to_string(),
    }
}

/// The text of a new script for `game`: its documented default when the
/// game ships one, else a skeleton listing what the game reads.
pub fn script_template(registry: &Registry, game: &str) -> String {
    if let Some(text) = registry.get(game).and_then(|e| e.default_script()) {
        return text.to_string();
    }
    let mut out = format!("-- Script for {game}: the numbers the game reads.\nreturn {{\n");
    if let Some(entry) = registry.get(game) {
        for field in entry.script_schema().fields {
            out.push_str(&format!(
                "    -- {} ({}{})\n    -- {} = ,\n",
                field.doc,
                field.kind.name(),
                if field.required { ", required" } else { "" },
                field.name
            ));
        }
    }
    out.push_str("}\n");
    out
}

/// Writes `scripts/<name>` for `game`.
pub fn create_script(
    registry: &Registry,
    root: &Path,
    game: &str,
    name: &str,
) -> anyhow::Result<PathBuf> {
    let name = checked_name(name, "lua")?;
    let path = root.join(SCRIPTS_DIR).join(&name);
    write_new(
        &path,
        &script_template(registry, game),
        &display(root, &path),
    )?;
    Ok(path)
}

fn free_script_name(root: &Path, game: &str) -> String {
    let first = format!("{game}.lua");
    if !root.join(SCRIPTS_DIR).join(&first).exists() {
        return first;
    }
    (2..)
        .map(|n| format!("{game}_{n}.lua"))
        .find(|name| !root.join(SCRIPTS_DIR).join(name).exists())
        .unwrap_or(first)
}

/// Renames `path` within its folder; returns the new path.
pub fn rename(path: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("txt")
        .to_string();
    let name = checked_name(name, &extension)?;
    let to = path.with_file_name(&name);
    if to == path {
        return Ok(to);
    }
    if to.exists() {
        bail!("{name} already exists");
    }
    std::fs::rename(path, &to).with_context(|| format!("cannot rename to {name}"))?;
    Ok(to)
}

/// Copies `path` to `<stem> copy.<ext>` (or `copy 2`, ...) beside it.
pub fn duplicate(path: &Path) -> anyhow::Result<PathBuf> {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let extension = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    let to = (1..1000)
        .map(|n| {
            let suffix = if n == 1 {
                " copy".to_string()
            } else {
                format!(" copy {n}")
            };
            path.with_file_name(format!("{stem}{suffix}{extension}"))
        })
        .find(|p| !p.exists())
        .context("too many copies already")?;
    let bytes = read_bytes_capped(path, MAX_FILE_BYTES)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {}", file_name(path), e.message))?;
    write_atomic(&to, &bytes).with_context(|| format!("cannot write {}", file_name(&to)))?;
    Ok(to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_game_gets_a_valid_new_level_and_a_loadable_script() {
        let registry = tessera_builtin::registry();
        let dir = tempfile::tempdir().unwrap();
        for entry in registry.iter() {
            let path = create_level(&registry, dir.path(), entry.id, "fresh").unwrap();
            assert!(path.ends_with(format!("levels/{}/fresh.ron", entry.id)));
            let text = std::fs::read_to_string(&path).unwrap();
            let diagnostics = entry.check_level(&text, &path);
            assert!(
                diagnostics.iter().all(|d| !d.is_error()),
                "{}: {diagnostics:?}\n{text}",
                entry.id
            );
            assert!(create_level(&registry, dir.path(), entry.id, "fresh").is_err());
        }
        assert!(create_level(&registry, dir.path(), "sand", "../escape").is_err());
        assert!(create_level(&registry, dir.path(), "sand", " ").is_err());
    }

    #[test]
    fn a_new_levels_name_follows_its_file_name() {
        let registry = tessera_builtin::registry();
        let dir = tempfile::tempdir().unwrap();
        let path = create_level(&registry, dir.path(), "polycube", "my_first-box").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let entry = registry.get("polycube").unwrap();
        assert!(
            entry
                .check_level(&text, &path)
                .iter()
                .all(|d| !d.is_error()),
            "{text}"
        );
        assert!(text.contains("name: \"My first box\""), "{text}");
        // A template without a name is written as it is.
        assert_eq!(
            named_after_file("(version: 1)", "name", "x.ron"),
            "(version: 1)"
        );
    }

    #[test]
    fn duplicate_and_rename_keep_the_folder_and_refuse_to_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.ron");
        std::fs::write(&a, "x").unwrap();
        let copy = duplicate(&a).unwrap();
        assert_eq!(copy, dir.path().join("a copy.ron"));
        assert_eq!(duplicate(&a).unwrap(), dir.path().join("a copy 2.ron"));
        assert!(rename(&copy, "a").is_err(), "a.ron exists");
        let b = rename(&copy, "b").unwrap();
        assert_eq!(b, dir.path().join("b.ron"));
        assert_eq!(std::fs::read_to_string(b).unwrap(), "x");
    }
}
