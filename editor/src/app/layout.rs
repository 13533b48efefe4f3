//! The window's layout and look: its panels, the playtest docked,
//! maximised (F11) or popped out into a window of its own, the status line,
//! the documents area, and the window state remembered between runs.

use std::path::{Path, PathBuf};

use egui::RichText;

use crate::console::SourceLocation;
use crate::disk_watch::DiskWatch;
use crate::document::Document;
use crate::playtest::PlaytestContext;
use crate::playtest_area::{PlaytestRequest, PlaytestTarget};

use super::Command;
use crate::restore::Remembered;
use crate::tabs::{TabAction, tab_bar};

use super::{EditorApp, playtest_viewport};

/// The narrowest project tree.
const MIN_TREE_WIDTH: f32 = 150.0;
/// The narrowest docked playtest.
const MIN_PLAYTEST_WIDTH: f32 = 220.0;
/// The room the documents keep beside the tree and the docked playtest:
/// about 300 px of text once the line-number gutter is drawn.
const MIN_EDITOR_WIDTH: f32 = 360.0;
/// The lowest console.
const MIN_CONSOLE_HEIGHT: f32 = 80.0;
/// The room the documents keep above the console.
const MIN_EDITOR_HEIGHT: f32 = 160.0;
/// The most of the window's height the console takes, and of its width
/// the tree: a size remembered on a larger screen (or a file asking for
/// 1e30) leaves the documents at least the rest, not just their minimum.
const MAX_CONSOLE_SHARE: f32 = 0.5;
const MAX_TREE_SHARE: f32 = 0.3;

/// Shrinks a window larger than its screen (a size remembered on a larger
/// screen) to the screen, so no panel lies beyond its edge.
fn fit_window_to_screen(ctx: &egui::Context) {
    let (inner, monitor) = ctx.input(|i| (i.viewport().inner_rect, i.viewport().monitor_size));
    let (Some(inner), Some(monitor)) = (inner, monitor) else {
        return;
    };
    let fitted = inner
        .size()
        .min(monitor)
        .max(egui::Vec2::from(crate::restore::MIN_WINDOW));
    let larger = fitted.x < inner.width() - 0.5 || fitted.y < inner.height() - 0.5;
    if larger && monitor.x > 0.0 && monitor.y > 0.0 {
        ctx.send_viewport_cmd(egui::ViewportCommand::InnerSize(fitted));
    }
}

impl EditorApp {
    /// The window's panels: menu, status line, console, tree, playtest
    /// (docked, maximised over everything, or in a window of its own) and
    /// the open documents.
    pub(super) fn panels(&mut self, ui: &mut egui::Ui) {
        fit_window_to_screen(ui.ctx());
        let menu = egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        let status = egui::Panel::bottom("status")
            .resizable(false)
            .show(ui, |ui| self.status_ui(ui));
        // Tool windows (AI log, Balance, Tests) stay between the menu bar
        // and the status line: they never cover File and Run.
        let window = ui.ctx().content_rect();
        tessera_ui::set_tool_area(
            ui.ctx(),
            egui::Rect::from_x_y_ranges(
                window.x_range(),
                menu.response.rect.max.y..=status.response.rect.min.y,
            ),
        );
        let popped_out = self.layout.playtest_popped_out;
        if self.layout.playtest_maximised && !popped_out {
            egui::CentralPanel::default().show(ui, |ui| self.playtest_ui(ui));
        } else {
            // Each panel's size is the designer's (restored, or dragged),
            // clamped so that the others keep their minimum on this window:
            // a layout saved on a larger screen still shows every panel.
            let room = ui.available_rect_before_wrap().size();
            let console_max = (room.y - MIN_EDITOR_HEIGHT)
                .min(room.y * MAX_CONSOLE_SHARE)
                .max(MIN_CONSOLE_HEIGHT);
            let console = egui::Panel::bottom("console")
                .resizable(true)
                .default_size(self.layout.console_height)
                .size_range(MIN_CONSOLE_HEIGHT..=console_max)
                .show(ui, |ui| {
                    if let Some(location) = self.console.ui(ui) {
                        self.go_to(&location);
                    }
                });
            self.layout.console_height = console.response.rect.height().round();
            let playtest_min = if popped_out { 0.0 } else { MIN_PLAYTEST_WIDTH };
            let tree_max = (room.x - playtest_min - MIN_EDITOR_WIDTH)
                .min(room.x * MAX_TREE_SHARE)
                .max(MIN_TREE_WIDTH);
            let tree = egui::Panel::left("tree")
                .resizable(true)
                .default_size(self.layout.tree_width)
                .size_range(MIN_TREE_WIDTH..=tree_max)
                .show(ui, |ui| self.tree_ui(ui));
            self.layout.tree_width = tree.response.rect.width().round();
            if !popped_out {
                let playtest_max =
                    (room.x - self.layout.tree_width - MIN_EDITOR_WIDTH).max(MIN_PLAYTEST_WIDTH);
                let playtest = egui::Panel::right("playtest")
                    .resizable(true)
                    .default_size(self.layout.playtest_width)
                    .size_range(MIN_PLAYTEST_WIDTH..=playtest_max)
                    .show(ui, |ui| {
                        tessera_ui::slot::held_to_room(ui, |ui| self.playtest_ui(ui))
                    });
                self.layout.playtest_width = playtest.response.rect.width().round();
            }
            egui::CentralPanel::default().show(ui, |ui| self.documents_ui(ui));
        }
        if popped_out {
            self.playtest_window(ui.ctx());
        }
    }

    /// Applies the editor's look (dark theme, readable sizes) to `ctx`:
    /// the shared UI crate's, which the UI tests apply too.
    pub fn apply_style(ctx: &egui::Context) {
        tessera_ui::style::apply(ctx);
    }

    /// Remembers the window's state in `path` from now on, and restores
    /// what it holds: panel sizes, open tabs, the shown tab, the F5 choice,
    /// the playtest toolbar's choices and the last playtest (the game in
    /// progress where it was, else started again).
    pub fn remember_in(&mut self, path: PathBuf) {
        let state = Remembered::load(&path);
        self.state_file = Some(path.clone());
        self.layout = state.clone();
        self.save_before_playtest = state.save_before_playtest;
        let mut active = None;
        for (index, tab) in state.tabs.iter().enumerate() {
            // The state file is input like any other: a tab naming a file
            // outside the project (`/etc/passwd`, `../../x`, a link out) is
            // neither opened nor remembered again.
            let inside = tab.to_str().and_then(|name| {
                tessera_host::replay::level_file_inside(self.project.root(), name, "", &path).ok()
            });
            let Some(file) = inside else {
                self.console.info(format!(
                    "the remembered tab {} is not a file inside the project: not opened",
                    tab.display()
                ));
                continue;
            };
            if file.is_file()
                && let Some(opened) = self.open_file(&file)
                && state.active == Some(index)
            {
                active = Some(opened);
            }
        }
        if active.is_some() {
            self.active = active;
        }
        for (game, options) in &state.playtest_options {
            self.playtest.set_options(game, options.clone());
        }
        if let Some((game, level)) = &state.playtest {
            let level = level.as_ref().map(|l| self.project.absolute(l));
            if level.as_ref().is_none_or(|l| l.is_file()) {
                let target = PlaytestTarget {
                    game: game.clone(),
                    level,
                };
                if let Some(state_file) = self.state_file.clone() {
                    self.resume_game(target, &state_file);
                }
            }
        }
        self.written = state;
    }

    /// The state as it would be remembered now.
    pub fn remembered(&self, ctx: &egui::Context) -> Remembered {
        let relative = |path: &Path| self.project.display_path(path);
        // eframe reports the window's inner size; a headless host only its
        // screen, which is the same size.
        let window = ctx
            .input(|i| i.viewport().inner_rect.unwrap_or(i.content_rect()))
            .size();
        let window = (window.x > 0.0).then(|| [window.x.round(), window.y.round()]);
        Remembered {
            window: window.or(self.written.window),
            tabs: self.documents.iter().map(|d| relative(d.path())).collect(),
            active: self.active,
            playtest: self.playtest.running().map(|t| {
                let level = self
                    .playtest
                    .running_level_file()
                    .map(relative)
                    .or_else(|| t.level.as_deref().map(relative));
                (t.game.clone(), level)
            }),
            save_before_playtest: self.save_before_playtest,
            playtest_options: self.playtest.all_options().clone(),
            ..self.layout.clone()
        }
    }

    /// Writes the state file when the state changed (checked twice a
    /// second), or at once with `force` (on exit).
    pub fn persist(&mut self, ctx: &egui::Context, force: bool) {
        let Some(path) = self.state_file.clone() else {
            return;
        };
        let now = ctx.input(|i| i.time);
        if !force && now - self.state_checked < 0.5 && now >= self.state_checked {
            return;
        }
        self.state_checked = now;
        self.persist_game();
        let state = self.remembered(ctx);
        if state == self.written {
            return;
        }
        match state.save(&path) {
            Ok(()) => self.written = state,
            Err(e) => {
                // Reported once; the editor works on without remembering.
                self.console.error(format!(
                    "error cannot remember the window in {}: {e:#}",
                    path.display()
                ));
                self.state_file = None;
            }
        }
    }

    /// Whether the playtest takes the whole window (F11).
    pub fn playtest_maximised(&self) -> bool {
        self.layout.playtest_maximised
    }

    /// Whether the playtest is in a window of its own.
    pub fn playtest_popped_out(&self) -> bool {
        self.layout.playtest_popped_out
    }

    pub(super) fn tree_ui(&mut self, ui: &mut egui::Ui) {
        ui.add_space(4.0);
        ui.strong("Project");
        ui.weak(
            self.project
                .root()
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        ui.separator();
        let documents = &self.documents;
        let is_dirty = |path: &Path| documents.iter().any(|d| d.path() == path && d.is_dirty());
        let active = self
            .active
            .and_then(|i| documents.get(i))
            .map(Document::path);
        if let Some(command) = self.tree.ui(ui, active, &is_dirty) {
            let ctx = ui.ctx().clone();
            self.run(&ctx, command);
        }
    }

    /// The playtest in a window of its own (a native window where the
    /// platform has them, else a window inside the editor); closing it
    /// docks the playtest again.
    pub(super) fn playtest_window(&mut self, ctx: &egui::Context) {
        let builder = egui::ViewportBuilder::default()
            .with_title("Tessera playtest")
            // Wide enough for a game's side column beside its table
            // (Azul: the factory ring and the Messages log).
            .with_inner_size([1280.0, 900.0])
            .with_min_inner_size([320.0, 240.0]);
        ctx.show_viewport_immediate(playtest_viewport(), builder, |ui, class| {
            if class == egui::ViewportClass::EmbeddedWindow {
                // A window inside the editor keeps its size, so the board
                // scales to it rather than the window to the board.
                ui.set_min_size(egui::vec2(960.0, 820.0));
                self.playtest_ui(ui);
            } else {
                egui::CentralPanel::default().show(ui, |ui| self.playtest_ui(ui));
                if ui.input(|i| i.viewport().close_requested()) {
                    self.layout.playtest_popped_out = false;
                }
            }
        });
    }

    pub(super) fn playtest_ui(&mut self, ui: &mut egui::Ui) {
        ui.add_space(4.0);
        let maximised = self.layout.playtest_maximised;
        let popped_out = self.layout.playtest_popped_out;
        let toggle = if maximised {
            "🗗 Restore layout"
        } else {
            "🗖 Maximise"
        };
        ui.horizontal(|ui| {
            if popped_out {
                if ui
                    .button("↩ Dock")
                    .on_hover_text("Put the playtest back beside the editor")
                    .clicked()
                {
                    self.run(ui.ctx(), Command::DockPlaytest);
                }
                return;
            }
            if ui
                .button(toggle)
                .on_hover_text("Let the playtest take the whole window (F11)")
                .clicked()
            {
                self.run(ui.ctx(), Command::ToggleMaximisePlaytest);
            }
            if ui
                .button("⬈ Pop out")
                .on_hover_text("Play in a window of its own, next to the editor")
                .clicked()
            {
                self.run(ui.ctx(), Command::PopOutPlaytest);
            }
        });
        let target = self.playtest_target();
        let mut cx = PlaytestContext {
            project: &mut self.project,
            console: self.console.buffer_mut(),
        };
        let command = match self.playtest.ui(ui, target.as_ref(), &mut cx) {
            Some(PlaytestRequest::Start) => Command::Playtest,
            Some(PlaytestRequest::Stop) => Command::StopPlaytest,
            Some(PlaytestRequest::Restart) => Command::RestartPlaytest,
            None => return,
        };
        self.run(ui.ctx(), command);
    }

    pub(super) fn status_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.weak(crate::home::shown_folder(self.project.root()));
            if let Some(document) = self.active_document() {
                ui.separator();
                ui.label(document.display_path().display().to_string());
                let cursor = document.cursor();
                ui.weak(format!("Ln {}, Col {}", cursor.line, cursor.column));
            }
            let unsaved = self.documents.iter().filter(|d| d.is_dirty()).count();
            if unsaved > 0 {
                ui.separator();
                ui.label(
                    RichText::new(format!("● {unsaved} unsaved")).color(ui.visuals().warn_fg_color),
                );
            }
            let watching =
                self.watcher.is_some() || self.watch.as_ref().is_some_and(DiskWatch::is_running);
            if !watching {
                ui.separator();
                ui.label(RichText::new("not watching disk").color(ui.visuals().warn_fg_color));
            }
        });
    }

    pub(super) fn documents_ui(&mut self, ui: &mut egui::Ui) {
        if self.documents.is_empty() {
            ui.add_space(ui.available_height() * 0.3);
            ui.vertical_centered(|ui| {
                ui.heading("Tessera");
                ui.add_space(8.0);
                ui.label("Open a script or a level from the project tree.");
                ui.weak("Ctrl+S saves and reloads it live · F5 playtests · errors in the console are clickable");
            });
            return;
        }
        match tab_bar(ui, &self.documents, self.active) {
            Some(TabAction::Activate(index)) => self.active = Some(index),
            Some(TabAction::Close(index)) => self.close_document(index, true),
            None => {}
        }
        ui.separator();
        let Some(document) = self.active.and_then(|i| self.documents.get_mut(i)) else {
            return;
        };
        let mut cx = PlaytestContext {
            project: &mut self.project,
            console: self.console.buffer_mut(),
        };
        // Ctrl+Z goes to one place: the playtest while it has the keyboard,
        // else the document's visual editor once it was clicked.
        document.ui(ui, &self.games, !self.playtest.has_focus(), &mut cx);
        if document.visual_has_keyboard() && ui.input(|i| i.pointer.any_pressed()) {
            // A press in the document takes the keyboard from a popped-out
            // playtest too (its window does not see this press).
            self.playtest.set_focus(false);
        }
    }

    /// Opens the file a console line names, at its line.
    pub(super) fn go_to(&mut self, location: &SourceLocation) {
        if let Some(index) = self.open_file(&location.path) {
            self.documents[index].jump_to_line(location.line);
        }
    }
}
