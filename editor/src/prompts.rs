//! Questions that protect unsaved work: before quitting or closing a tab
//! with unsaved edits, and when a file being edited changes on disk.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use egui::{Id, Modal, RichText};

/// A question waiting for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    /// The window is closing with unsaved files (their display names).
    Quit {
        /// Files with unsaved edits.
        unsaved: Vec<String>,
    },
    /// A tab with unsaved edits is being closed.
    CloseTab {
        /// The file (absolute).
        path: PathBuf,
        /// How to name it.
        name: String,
    },
    /// A file with unsaved edits changed on disk.
    ChangedOnDisk {
        /// The file (absolute).
        path: PathBuf,
        /// How to name it.
        name: String,
        /// What the disk holds now.
        content: String,
    },
}

/// The user's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Save (all files, for quitting) and go on.
    Save,
    /// Throw the edits away and go on.
    Discard,
    /// Do nothing.
    Cancel,
    /// Replace the buffer with the disk's version.
    ReloadFromDisk,
    /// Keep the buffer; the next save overwrites the disk.
    KeepMine,
}

/// The queue of questions; one is shown at a time, modally.
#[derive(Debug, Default)]
pub struct Prompts {
    queue: VecDeque<Prompt>,
}

impl Prompts {
    /// Asks `prompt` after any already waiting; a newer disk change for a
    /// file replaces an older unanswered one, and quitting is asked once.
    pub fn ask(&mut self, prompt: Prompt) {
        match &prompt {
            Prompt::ChangedOnDisk { path, .. } => self.queue.retain(
                |p| !matches!(p, Prompt::ChangedOnDisk { path: other, .. } if other == path),
            ),
            Prompt::Quit { .. } => self.queue.retain(|p| !matches!(p, Prompt::Quit { .. })),
            Prompt::CloseTab { path, .. } => self
                .queue
                .retain(|p| !matches!(p, Prompt::CloseTab { path: other, .. } if other == path)),
        }
        self.queue.push_back(prompt);
    }

    /// The question being shown.
    pub fn current(&self) -> Option<&Prompt> {
        self.queue.front()
    }

    /// Whether a question concerns `path`'s disk version.
    pub fn asks_about_disk(&self, path: &Path) -> bool {
        self.queue
            .iter()
            .any(|p| matches!(p, Prompt::ChangedOnDisk { path: other, .. } if other == path))
    }

    /// Shows the current question; returns it with the answer once given.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<(Prompt, Answer)> {
        let prompt = self.queue.front()?.clone();
        let mut answer = None;
        let modal = Modal::new(Id::unique("tessera prompt")).show(ctx, |ui| {
            ui.set_max_width(460.0);
            match &prompt {
                Prompt::Quit { unsaved } => {
                    ui.heading("Unsaved changes");
                    ui.add_space(6.0);
                    ui.label("These files have changes that are not saved:");
                    for name in unsaved {
                        ui.label(RichText::new(format!("  • {name}")).monospace());
                    }
                    ui.add_space(10.0);
                    ui.horizontal(|ui| {
                        if ui.button("Save all").clicked() {
                            answer = Some(Answer::Save);
                        }
                        if ui.button("Discard").clicked() {
                            answer = Some(Answer::Discard);
                        }
                        if ui.button("Cancel").clicked() {
                            answer = Some(Answer::Cancel);
                        }
                    });
                }
                Prompt::CloseTab { name, .. } => {
                    ui.heading("Unsaved changes");
                    ui.add_space(6.0);
                    ui.label(format!("{name} has changes that are not saved."));
                    ui.add_space(10.0);
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() {
                            answer = Some(Answer::Save);
                        }
                        if ui.button("Discard").clicked() {
                            answer = Some(Answer::Discard);
                        }
                        if ui.button("Cancel").clicked() {
                            answer = Some(Answer::Cancel);
                        }
                    });
                }
                Prompt::ChangedOnDisk { name, .. } => {
                    ui.heading("File changed on disk");
                    ui.add_space(6.0);
                    ui.label(format!(
                        "{name} was changed by another program while you have unsaved edits."
                    ));
                    ui.add_space(10.0);
                    ui.horizontal(|ui| {
                        if ui.button("Reload from disk").clicked() {
                            answer = Some(Answer::ReloadFromDisk);
                        }
                        if ui.button("Keep mine").clicked() {
                            answer = Some(Answer::KeepMine);
                        }
                    });
                }
            }
        });
        // Escape or a click outside means "not now" for the questions that
        // have a Cancel; a disk conflict must be answered.
        if answer.is_none()
            && modal.should_close()
            && !matches!(prompt, Prompt::ChangedOnDisk { .. })
        {
            answer = Some(Answer::Cancel);
        }
        let answer = answer?;
        self.queue.pop_front();
        Some((prompt, answer))
    }
}
