//! Open files and the disk: opening, saving (and reloading live), script
//! loading, what the watcher saw change on disk, the follow-up of file
//! operations, closing tabs, and the questions that guard unsaved work.

use crate::plain_words::with_plain_words;
use std::path::{Path, PathBuf};

use egui::ViewportCommand;
use tessera_host::level::{MAX_FILE_BYTES, read_bytes_capped};
use tessera_host::project::ChangeReport;
use tessera_host::script::watcher::{DEBOUNCE, FolderWatcher};

use crate::document::Document;
use crate::files::FileOp;
use crate::prompts::{Answer, Prompt};

use super::{EditorApp, is_level, is_script};

impl EditorApp {
    /// Opens `path` (absolute or relative to the project) in a tab, or
    /// shows its tab when already open. Errors go to the console.
    pub fn open_file(&mut self, path: &Path) -> Option<usize> {
        let absolute = self.project.absolute(path);
        if let Some(index) = self.document_index(&absolute) {
            self.active = Some(index);
            return Some(index);
        }
        let display = self.project.display_path(&absolute);
        match Document::open(&absolute, &display) {
            Ok(document) => {
                self.documents.push(document);
                let index = self.documents.len() - 1;
                self.active = Some(index);
                Some(index)
            }
            Err(e) => {
                self.console.error(format!("error {e:#}"));
                None
            }
        }
    }

    /// Opens a generated level in a new tab, unsaved, as
    /// `levels/<game>/generated-<seed>.ron` (or the first such name free).
    pub(super) fn generated(&mut self, generation: crate::generate_dialog::Generation) {
        let crate::generate_dialog::Generation::Made { game, seed, level } = generation else {
            return;
        };
        let folder = self.project.root().join("levels").join(&game);
        let path = (1..)
            .map(|n: u32| {
                let tail = if n == 1 {
                    String::new()
                } else {
                    format!("-{n}")
                };
                folder.join(format!("generated-{seed}{tail}.{}", level.extension))
            })
            .find(|p| !p.exists() && self.document_index(p).is_none())
            .unwrap_or_else(|| folder.join("generated.ron"));
        let display = self.project.display_path(&path);
        self.console.info(format!(
            "generated {} (unsaved): {}; difficulty {:.1} ({})",
            display.display(),
            level.summary,
            level.difficulty,
            level.difficulty_label
        ));
        self.documents
            .push(Document::unsaved(&path, &display, level.text));
        self.active = Some(self.documents.len() - 1);
    }

    pub(super) fn document_index(&self, absolute: &Path) -> Option<usize> {
        self.documents.iter().position(|d| d.path() == absolute)
    }

    /// Saves the active file; returns whether it was written.
    pub fn save_active(&mut self) -> bool {
        match self.active {
            Some(index) => self.save_document(index),
            None => false,
        }
    }

    /// Saves every file with unsaved edits; returns whether all were
    /// written.
    pub fn save_all(&mut self) -> bool {
        let dirty: Vec<usize> = (0..self.documents.len())
            .filter(|&i| self.documents[i].is_dirty())
            .collect();
        // Try every file even after a failure, so one bad path does not
        // leave the others unsaved.
        let mut all_saved = true;
        for index in dirty {
            all_saved &= self.save_document(index);
        }
        all_saved
    }

    /// Writes a document atomically and reloads it into the project at once
    /// (see `tessera_host::script::versions` for why the watcher's echo is then skipped).
    pub(super) fn save_document(&mut self, index: usize) -> bool {
        let Some(document) = self.documents.get_mut(index) else {
            return false;
        };
        match document.save() {
            Ok(text) => {
                let path = document.path().to_path_buf();
                self.versions.record(&path, text.as_bytes());
                self.playtest.level_saved(&path);
                if is_script(&path) || is_level(&path) {
                    let report = self.project.handle_change(&path);
                    self.report(&path, report);
                } else {
                    let display = self.project.display_path(&path);
                    self.console.info(format!("saved {}", display.display()));
                }
                self.tree.rescan();
                true
            }
            Err(e) => {
                self.console.error(format!("error {e:#}"));
                false
            }
        }
    }

    /// Loads a script into the project so it has a live slot.
    pub(super) fn load_script(&mut self, path: &Path) {
        match self.project.script(path) {
            Ok(_) => {
                self.live_scripts.insert(path.to_path_buf());
                if let Ok(bytes) = read_bytes_capped(path, MAX_FILE_BYTES) {
                    self.versions.record(path, &bytes);
                }
            }
            Err(e) => self.console.error(with_plain_words(&format!("error {e}"))),
        }
    }

    pub(super) fn report(&mut self, path: &Path, report: ChangeReport) {
        if report.result.is_ok() && !report.removed && is_script(path) {
            self.live_scripts.insert(path.to_path_buf());
        }
        if let Some(index) = self.document_index(path) {
            self.documents[index].set_reload_error(report.result.clone().err());
        }
        if report.result.is_ok() {
            let shown = self.project.display_path(path);
            self.console.resolve(&shown.display().to_string());
        }
        let text = report.to_string();
        match report.result {
            Ok(()) => self.console.info(text),
            Err(_) => self.console.error(with_plain_words(&text)),
        }
    }

    pub(super) fn start_watcher(&mut self) {
        let folders = self.project.watched_folders();
        self.watched = folders.iter().map(|f| f.is_dir()).collect();
        self.watch = None;
        self.watcher = match FolderWatcher::new(&folders, DEBOUNCE) {
            Ok(watcher) => Some(watcher),
            Err(e) => {
                self.console.error(format!(
                    "error {e} (changes made outside the editor will not reload)"
                ));
                None
            }
        };
    }

    /// Handles what the watcher saw change on disk.
    pub fn poll_disk(&mut self) {
        let appeared = self
            .project
            .watched_folders()
            .iter()
            .zip(&self.watched)
            .any(|(folder, existed)| !existed && folder.is_dir());
        if appeared {
            self.start_watcher();
            self.tree.rescan();
        }
        let changed = match (&self.watch, &self.watcher) {
            (Some(watch), _) => watch.poll(),
            (None, Some(watcher)) => watcher.poll(),
            (None, None) => Vec::new(),
        };
        if changed.is_empty() {
            return;
        }
        self.tree.rescan();
        for path in changed {
            self.disk_changed(&path);
        }
    }

    pub(super) fn disk_changed(&mut self, path: &Path) {
        let display = self.project.display_path(path);
        let bytes = match read_bytes_capped(path, MAX_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(_) if !path.exists() && !path.is_symlink() => {
                self.versions.forget(path);
                if let Some(index) = self.document_index(path) {
                    self.documents[index].disk_removed();
                }
                if is_script(path) || is_level(path) {
                    // The engine's own wording: `removed PATH (running games
                    // keep the version they have)`.
                    let report = self.project.handle_change(path);
                    self.report(path, report);
                } else {
                    self.console.info(format!("removed {}", display.display()));
                }
                return;
            }
            Err(e) => {
                self.console
                    .error(format!("error {}: {}", display.display(), e.message));
                return;
            }
        };
        if !self.versions.record(path, &bytes) {
            return;
        }
        if is_script(path) || is_level(path) {
            let report = self.project.handle_change(path);
            self.report(path, report);
        }
        self.playtest.level_saved(path);
        let Some(index) = self.document_index(path) else {
            return;
        };
        let Ok(content) = String::from_utf8(bytes) else {
            self.console.error(format!(
                "error {}: not UTF-8 text any more; the open buffer is kept",
                display.display()
            ));
            return;
        };
        let document = &mut self.documents[index];
        if document.disk_changed(content.clone()) {
            self.prompts.ask(Prompt::ChangedOnDisk {
                path: path.to_path_buf(),
                name: display.display().to_string(),
                content,
            });
        }
    }

    /// Moves script `print` output into the console.
    pub(super) fn drain_prints(&mut self) {
        for path in &self.live_scripts {
            let Ok(live) = self.project.script(path) else {
                continue;
            };
            let printed = live.current().take_printed();
            if printed.is_empty() {
                continue;
            }
            let display = self.project.display_path(path);
            for line in printed {
                self.console.info(format!("{}: {line}", display.display()));
            }
        }
    }

    /// Follows a finished file operation: open what was created, move the
    /// tab of what was renamed, close the tab of what was deleted (no tab
    /// ever points at a missing file).
    pub(super) fn file_done(&mut self, op: FileOp) {
        self.tree.rescan();
        match op {
            FileOp::Created(path) => {
                let display = self.project.display_path(&path);
                self.console.info(format!("created {}", display.display()));
                if is_script(&path) {
                    self.load_script(&path);
                }
                self.open_file(&path);
            }
            FileOp::Renamed { from, to } => {
                let (old, new) = (
                    self.project.display_path(&from),
                    self.project.display_path(&to),
                );
                self.console
                    .info(format!("renamed {} to {}", old.display(), new.display()));
                if let Some(index) = self.document_index(&from) {
                    self.documents[index].relocate(&to, &new);
                }
                self.versions.forget(&from);
                self.live_scripts.remove(&from);
                for path in [from, to] {
                    if is_script(&path) || is_level(&path) {
                        let report = self.project.handle_change(&path);
                        self.report(&path, report);
                    }
                }
            }
            FileOp::Deleted(path) => {
                if let Some(index) = self.document_index(&path) {
                    self.close_document(index, false);
                }
                self.versions.forget(&path);
                self.live_scripts.remove(&path);
                if is_script(&path) || is_level(&path) {
                    let report = self.project.handle_change(&path);
                    self.report(&path, report);
                } else {
                    let display = self.project.display_path(&path);
                    self.console.info(format!("removed {}", display.display()));
                }
            }
        }
    }

    pub(super) fn close_document(&mut self, index: usize, ask: bool) {
        let Some(document) = self.documents.get(index) else {
            return;
        };
        if ask && document.is_dirty() {
            self.prompts.ask(Prompt::CloseTab {
                path: document.path().to_path_buf(),
                name: document.display_path().display().to_string(),
            });
            return;
        }
        self.documents.remove(index);
        self.active = match self.active {
            _ if self.documents.is_empty() => None,
            Some(active) if active > index => Some(active - 1),
            Some(active) if active == index => Some(index.min(self.documents.len() - 1)),
            other => other,
        };
    }

    /// Asks the window to close; unsaved work is asked about first.
    pub fn request_quit(&mut self, ctx: &egui::Context) {
        ctx.send_viewport_cmd(ViewportCommand::Close);
    }

    /// Save all on quit, under way: shows "Saving… k of n" and writes the
    /// next file (none in the frame that first shows the dialog, so it is
    /// on screen before the work); closes the window once all are written.
    /// A failed save keeps the window open; the console says why.
    pub(super) fn save_for_quit(&mut self, ctx: &egui::Context) {
        let Some(saving) = self.saving_for_quit.as_mut() else {
            return;
        };
        // Nothing is written until the dialog was on screen: egui lays a
        // new window out unseen in its first frame, so two frames drawn.
        let id = egui::Id::unique("tessera saving for quit");
        let on_screen = saving.frames_drawn >= 2;
        if on_screen && let Some(path) = saving.left.pop_front() {
            let saved = self
                .document_index(&path)
                .is_some_and(|index| self.save_document(index));
            if let Some(saving) = self.saving_for_quit.as_mut() {
                saving.all_saved &= saved;
            }
        }
        let Some(saving) = self.saving_for_quit.as_mut() else {
            return;
        };
        if on_screen && saving.left.is_empty() {
            let all_saved = saving.all_saved;
            self.saving_for_quit = None;
            if all_saved {
                self.quitting = true;
                ctx.send_viewport_cmd(ViewportCommand::Close);
            }
            return;
        }
        saving.frames_drawn = saving.frames_drawn.saturating_add(1);
        let done = saving.total - saving.left.len();
        let next = saving
            .left
            .front()
            .map(|p| self.project.display_path(p).display().to_string())
            .unwrap_or_default();
        egui::Modal::new(id).show(ctx, |ui| {
            ui.set_min_width(320.0);
            ui.horizontal(|ui| {
                ui.spinner();
                ui.heading(format!("Saving… {} of {}", done + 1, saving.total));
            });
            ui.add(egui::Label::new(egui::RichText::new(next).monospace()).truncate());
            ui.weak("The window closes once every file is written.");
        });
        ctx.request_repaint();
    }

    pub(super) fn unsaved_names(&self) -> Vec<String> {
        self.documents
            .iter()
            .filter(|d| d.is_dirty())
            .map(|d| d.display_path().display().to_string())
            .collect()
    }

    pub(super) fn handle_close_request(&mut self, ctx: &egui::Context) {
        if !ctx.input(|i| i.viewport().close_requested()) || self.quitting {
            return;
        }
        let unsaved = self.unsaved_names();
        if !unsaved.is_empty() {
            ctx.send_viewport_cmd(ViewportCommand::CancelClose);
            self.prompts.ask(Prompt::Quit { unsaved });
        }
    }

    pub(super) fn handle_answer(&mut self, ctx: &egui::Context, prompt: Prompt, answer: Answer) {
        match (prompt, answer) {
            // Saved a file a frame under a "Saving…" dialog (a save reloads
            // the file into the project, which can take a while); the
            // window closes once all are written.
            (Prompt::Quit { .. }, Answer::Save) => {
                let left: std::collections::VecDeque<PathBuf> = self
                    .documents
                    .iter()
                    .filter(|d| d.is_dirty())
                    .map(|d| d.path().to_path_buf())
                    .collect();
                self.saving_for_quit = Some(super::SavingForQuit {
                    total: left.len(),
                    left,
                    frames_drawn: 0,
                    all_saved: true,
                });
                ctx.request_repaint();
            }
            (Prompt::Quit { .. }, Answer::Discard) => {
                self.quitting = true;
                ctx.send_viewport_cmd(ViewportCommand::Close);
            }
            (Prompt::CloseTab { path, .. }, Answer::Save) => {
                if let Some(index) = self.document_index(&path)
                    && self.save_document(index)
                {
                    self.close_document(index, false);
                }
            }
            (Prompt::CloseTab { path, .. }, Answer::Discard) => {
                if let Some(index) = self.document_index(&path) {
                    self.close_document(index, false);
                }
            }
            (Prompt::ChangedOnDisk { path, content, .. }, Answer::ReloadFromDisk) => {
                if let Some(index) = self.document_index(&path) {
                    self.documents[index].replace_with_disk(content);
                }
            }
            (Prompt::ChangedOnDisk { path, content, .. }, Answer::KeepMine) => {
                if let Some(index) = self.document_index(&path) {
                    self.documents[index].keep_mine(content);
                }
            }
            _ => {}
        }
    }
}
