//! Everything the user can ask of the editor window, as one [`Command`]:
//! the menus, the keyboard shortcuts, the project tree's context menu and
//! the playtest toolbar all make one, and [`EditorApp::run`] carries it
//! out, so a menu item, its shortcut and the tree do the same thing.

use std::path::PathBuf;

use egui::{Key, KeyboardShortcut, Modifiers};

use crate::files::{FileDialog, FileOp};
use crate::search::{Search, SearchKind};

use super::EditorApp;

/// Something the user asked of the editor window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Open this file in a tab (or show its tab).
    Open(PathBuf),
    /// Ask for a name and make a level from the game's default (the game
    /// of the folder right-clicked, else of the active file).
    NewLevel(Option<String>),
    /// Ask for a name and write a game's default script.
    NewScript,
    /// The active file's game's level generator as a form.
    Generate,
    /// Ask for a name and rename this file.
    Rename(PathBuf),
    /// Copy this file beside itself.
    Duplicate(PathBuf),
    /// Ask, then delete this file.
    Delete(PathBuf),
    /// Save the active file (and reload it live).
    Save,
    /// Save every file with unsaved edits.
    SaveAll,
    /// Close the active tab (asking first when it has unsaved edits).
    CloseTab,
    /// The go-to-file box.
    QuickOpen,
    /// The find-in-project box.
    FindInProject,
    /// Close the window (unsaved work is asked about first).
    Quit,
    /// Playtest the active file's game (or restart the last playtest).
    Playtest,
    /// Stop the playtest.
    StopPlaytest,
    /// Start the running game again on its level as saved now.
    RestartPlaytest,
    /// Let the playtest take the whole window, or give it back (docked
    /// playtests only).
    ToggleMaximisePlaytest,
    /// Move the playtest into a window of its own.
    PopOutPlaytest,
    /// Put a popped-out playtest back beside the editor.
    DockPlaytest,
    /// Show the Tests panel and run the replay suite.
    RunTests,
}

/// The commands with a keyboard shortcut, in the order they are looked
/// for: the more specific first (Ctrl+Shift+S also matches Ctrl+S).
const WITH_SHORTCUTS: [Command; 8] = [
    Command::FindInProject,
    Command::QuickOpen,
    Command::ToggleMaximisePlaytest,
    Command::NewLevel(None),
    Command::SaveAll,
    Command::Save,
    Command::CloseTab,
    Command::Playtest,
];

impl Command {
    /// The command's keyboard shortcut and how menus show it.
    pub fn shortcut(&self) -> Option<(KeyboardShortcut, &'static str)> {
        let command = Modifiers::COMMAND;
        let command_shift = Modifiers::COMMAND.plus(Modifiers::SHIFT);
        let (modifiers, key, text) = match self {
            Self::NewLevel(None) => (command, Key::N, "Ctrl+N"),
            Self::Save => (command, Key::S, "Ctrl+S"),
            Self::SaveAll => (command_shift, Key::S, "Ctrl+Shift+S"),
            Self::CloseTab => (command, Key::W, "Ctrl+W"),
            Self::QuickOpen => (command, Key::P, "Ctrl+P"),
            Self::FindInProject => (command_shift, Key::F, "Ctrl+Shift+F"),
            Self::Playtest => (Modifiers::NONE, Key::F5, "F5"),
            Self::ToggleMaximisePlaytest => (Modifiers::NONE, Key::F11, "F11"),
            _ => return None,
        };
        Some((KeyboardShortcut::new(modifiers, key), text))
    }
}

impl EditorApp {
    /// Carries out `command`: the one place a menu item, its shortcut, the
    /// tree's context menu and the playtest toolbar end up.
    pub fn run(&mut self, ctx: &egui::Context, command: Command) {
        let registry = self.project.registry();
        match command {
            Command::Open(path) => {
                self.open_file(&path);
            }
            Command::NewLevel(game) => {
                let game = game.or_else(|| self.active_document().and_then(|d| d.game(registry)));
                self.file_dialog = Some(FileDialog::new_level(registry, game.as_deref()));
            }
            Command::Generate => {
                let game = self.active_document().and_then(|d| d.game(registry));
                match game.and_then(|g| registry.generator(&g).map(|generator| (g, generator))) {
                    Some((game, generator)) => {
                        use crate::generate_dialog::GenerateDialog;
                        // The spec the form was left with this session; one
                        // the generator no longer reads opens the defaults.
                        let remembered = self.generate_specs.get(&game).and_then(|words| {
                            GenerateDialog::from_command_line(&game, generator, words).ok()
                        });
                        let title = registry.get(&game).map_or(game.as_str(), |e| e.title);
                        self.generate_dialog = Some(
                            remembered
                                .unwrap_or_else(|| GenerateDialog::new(&game, generator))
                                .titled(title),
                        );
                    }
                    None => self
                        .console
                        .error("Generate…: open a level of a game that brings a generator first"),
                }
            }
            Command::NewScript => {
                self.file_dialog = Some(FileDialog::new_script(registry, self.project.root()));
            }
            Command::Rename(path) => self.file_dialog = Some(FileDialog::rename(&path)),
            Command::Duplicate(path) => match crate::files::duplicate(&path) {
                Ok(copy) => self.file_done(FileOp::Created(copy)),
                Err(e) => self.console.error(format!("error {e:#}")),
            },
            Command::Delete(path) => {
                let unsaved = self
                    .document_index(&path)
                    .is_some_and(|i| self.documents[i].is_dirty());
                self.file_dialog = Some(FileDialog::Delete {
                    path,
                    unsaved,
                    error: None,
                });
            }
            Command::Save => {
                self.save_active();
            }
            Command::SaveAll => {
                self.save_all();
            }
            Command::CloseTab => {
                if let Some(index) = self.active {
                    self.close_document(index, true);
                }
            }
            Command::QuickOpen => self.search = Some(Search::new(SearchKind::QuickOpen)),
            Command::FindInProject => self.search = Some(Search::new(SearchKind::FindInProject)),
            Command::Quit => self.request_quit(ctx),
            Command::Playtest => self.start_playtest(),
            Command::StopPlaytest => self.playtest.stop(),
            Command::RestartPlaytest => self.restart_playtest(),
            Command::ToggleMaximisePlaytest => {
                if !self.layout.playtest_popped_out {
                    self.layout.playtest_maximised = !self.layout.playtest_maximised;
                }
            }
            Command::PopOutPlaytest => {
                self.layout.playtest_popped_out = true;
                self.layout.playtest_maximised = false;
            }
            Command::DockPlaytest => self.layout.playtest_popped_out = false,
            Command::RunTests => self.run_tests(),
        }
    }

    /// Runs the command of each shortcut pressed this frame (none while a
    /// question or a file dialog is open).
    pub(super) fn handle_shortcuts(&mut self, ctx: &egui::Context) {
        if self.prompts.current().is_some() || self.file_dialog.is_some() {
            return;
        }
        for command in WITH_SHORTCUTS {
            if let Some((shortcut, _)) = command.shortcut()
                && ctx.input_mut(|i| i.consume_shortcut(&shortcut))
            {
                self.run(ctx, command);
            }
        }
    }

    /// A menu entry that runs `command`, showing its shortcut.
    fn menu_item(
        &mut self,
        ui: &mut egui::Ui,
        label: &str,
        enabled: bool,
        command: Command,
    ) -> egui::Response {
        let mut button = egui::Button::new(label);
        if let Some((_, text)) = command.shortcut() {
            button = button.shortcut_text(text);
        }
        let response = ui.add_enabled(enabled, button);
        if response.clicked() {
            let ctx = ui.ctx().clone();
            self.run(&ctx, command);
        }
        response
    }

    pub(super) fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu(ui));
            ui.menu_button("Run", |ui| {
                self.menu_item(ui, "Playtest", true, Command::Playtest);
                let running = self.playtest.running().is_some();
                self.menu_item(ui, "Stop", running, Command::StopPlaytest);
                ui.separator();
                ui.label("F5 with unsaved level edits:");
                ui.radio_value(
                    &mut self.save_before_playtest,
                    false,
                    "Play the edits unsaved",
                );
                ui.radio_value(&mut self.save_before_playtest, true, "Save the level first");
                ui.separator();
                self.menu_item(ui, "Tests", true, Command::RunTests)
                    .on_hover_text("Run the replay suite (tests/replays/) and review changes");
            });
        });
    }

    fn file_menu(&mut self, ui: &mut egui::Ui) {
        let has_document = self.active.is_some();
        self.menu_item(ui, "New level…", true, Command::NewLevel(None));
        self.menu_item(ui, "New script…", true, Command::NewScript);
        let registry = self.project.registry();
        let can_generate = self
            .active_document()
            .and_then(|d| d.game(registry))
            .is_some_and(|g| registry.generator(&g).is_some());
        self.menu_item(ui, "Generate…", can_generate, Command::Generate)
            .on_hover_text("A level of the active file's game made to a spec, with its proof");
        // Without an active file these entries are disabled, so the empty
        // path is never run.
        let active = self
            .active_document()
            .map(|d| d.path().to_path_buf())
            .unwrap_or_default();
        self.menu_item(ui, "Rename…", has_document, Command::Rename(active.clone()));
        self.menu_item(
            ui,
            "Duplicate",
            has_document,
            Command::Duplicate(active.clone()),
        );
        self.menu_item(ui, "Delete…", has_document, Command::Delete(active));
        ui.separator();
        self.menu_item(ui, "Save", has_document, Command::Save);
        self.menu_item(ui, "Save all", true, Command::SaveAll);
        self.menu_item(ui, "Close tab", has_document, Command::CloseTab);
        ui.separator();
        self.menu_item(ui, "Go to file…", true, Command::QuickOpen);
        self.menu_item(ui, "Find in project…", true, Command::FindInProject);
        ui.separator();
        self.menu_item(ui, "Quit", true, Command::Quit);
    }
}
