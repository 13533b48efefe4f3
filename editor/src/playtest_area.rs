//! The playtest area: starts a game's view (F5 or ▶) on the active level or
//! the game's default level, and hosts it.

use std::path::{Path, PathBuf};

use egui::RichText;

use crate::playtest::{GameUi, PlaytestContext, PlaytestView};

/// What a playtest runs: a game, on a level file or its default level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlaytestTarget {
    /// Plugin id.
    pub game: String,
    /// The level file (absolute), or `None` for the game's default level.
    pub level: Option<PathBuf>,
}

/// A view that is running.
struct Running {
    target: PlaytestTarget,
    seed: u64,
    view: Box<dyn PlaytestView>,
}

/// The playtest panel's state.
pub struct PlaytestArea {
    running: Option<Running>,
    seed_text: String,
    /// Why nothing is running (no view for the game, a start error).
    notice: Option<String>,
    /// The level file whose unsaved buffer is being played (the target's
    /// level is then a scratch copy of that buffer).
    buffer_of: Option<PathBuf>,
    /// The running level's file was saved since the start: offer a restart.
    level_changed: bool,
}

impl Default for PlaytestArea {
    fn default() -> Self {
        Self {
            running: None,
            seed_text: "1".into(),
            notice: None,
            buffer_of: None,
            level_changed: false,
        }
    }
}

/// What the user asked the playtest panel to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaytestRequest {
    /// Start (or restart) on the current target.
    Start,
    /// Stop the running view.
    Stop,
    /// Start the running game again on its level file as now saved.
    Restart,
}

impl PlaytestArea {
    /// The game and level being played, if any.
    pub fn running(&self) -> Option<&PlaytestTarget> {
        self.running.as_ref().map(|r| &r.target)
    }

    /// The level file whose unsaved buffer the next start plays (`None`:
    /// the target's level file itself).
    pub fn set_buffer_of(&mut self, level: Option<PathBuf>) {
        self.buffer_of = level;
    }

    /// The level file the running game was started from (the edited file
    /// when it plays an unsaved buffer).
    pub fn running_level_file(&self) -> Option<&Path> {
        let running = self.running.as_ref()?;
        self.buffer_of
            .as_deref()
            .or(running.target.level.as_deref())
    }

    /// Whether the running game plays an unsaved buffer.
    pub fn plays_unsaved_buffer(&self) -> bool {
        self.running.is_some() && self.buffer_of.is_some()
    }

    /// `path` was saved: when it is the running game's level, offer to
    /// restart with the new version.
    pub fn level_saved(&mut self, path: &Path) {
        if self.running_level_file() == Some(path) {
            self.level_changed = true;
        }
    }

    /// Whether a restart with the saved level is offered.
    pub fn offers_restart(&self) -> bool {
        self.running.is_some() && self.level_changed
    }

    /// The message shown instead of a view.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The seed typed in the seed field.
    pub fn seed(&self) -> Option<u64> {
        self.seed_text.trim().parse().ok()
    }

    /// Starts `target` with the seed from the seed field, using its entry
    /// in `games`.
    pub fn start(
        &mut self,
        target: PlaytestTarget,
        games: &[GameUi],
        cx: &mut PlaytestContext<'_>,
    ) {
        self.running = None;
        self.level_changed = false;
        let Some(seed) = self.seed() else {
            self.fail(
                cx,
                format!("seed `{}` is not a whole number", self.seed_text.trim()),
            );
            return;
        };
        let Some(game_ui) = games.iter().find(|g| g.id == target.game) else {
            let message = format!("no playtest view for {}", target.game);
            cx.console.push(crate::ConsoleLine {
                text: message.clone(),
                is_error: false,
            });
            self.notice = Some(message);
            return;
        };
        let level_name = self.describe(target.level.as_deref(), cx);
        match (game_ui.playtest)(cx.project, target.level.as_deref(), seed) {
            Ok(view) => {
                cx.console.push(crate::ConsoleLine {
                    text: format!("playtest {} on {level_name}, seed {seed}", target.game),
                    is_error: false,
                });
                self.notice = None;
                self.running = Some(Running { target, seed, view });
            }
            Err(e) => self.fail(
                cx,
                format!("error playtest {} on {level_name}: {e:#}", target.game),
            ),
        }
    }

    /// Stops the running view.
    pub fn stop(&mut self) {
        self.running = None;
        self.notice = None;
        self.buffer_of = None;
        self.level_changed = false;
    }

    /// How the header names a level: the unsaved buffer says so.
    fn describe(&self, level: Option<&Path>, cx: &PlaytestContext<'_>) -> String {
        match &self.buffer_of {
            Some(file) if level.is_some() => format!(
                "{} (unsaved edits)",
                cx.project.display_path(file).display()
            ),
            _ => describe_level(level, cx),
        }
    }

    fn fail(&mut self, cx: &mut PlaytestContext<'_>, message: String) {
        cx.console.push(crate::ConsoleLine {
            text: message.clone(),
            is_error: true,
        });
        self.notice = Some(message);
    }

    /// Draws the toolbar and the view; `target` is what ▶ would start.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        target: Option<&PlaytestTarget>,
        cx: &mut PlaytestContext<'_>,
    ) -> Option<PlaytestRequest> {
        let mut request = None;
        ui.horizontal(|ui| {
            ui.strong("Playtest");
            ui.separator();
            let play = ui
                .add_enabled(target.is_some(), egui::Button::new("▶ Play"))
                .on_hover_text("Start a playtest of the active file's game (F5)")
                .on_disabled_hover_text("Open a level or a game script to playtest it");
            if play.clicked() {
                request = Some(PlaytestRequest::Start);
            }
            if ui
                .add_enabled(self.running.is_some(), egui::Button::new("■ Stop"))
                .clicked()
            {
                request = Some(PlaytestRequest::Stop);
            }
            ui.label("Seed");
            let seed_ok = self.seed().is_some();
            let mut field = egui::TextEdit::singleline(&mut self.seed_text).desired_width(90.0);
            if !seed_ok {
                field = field.text_color(ui.visuals().error_fg_color);
            }
            ui.add(field)
                .on_hover_text("Seed for the game's random numbers");
        });
        let label = match (&self.running, target) {
            (Some(running), _) => format!(
                "{} · {} · seed {}",
                running.target.game,
                self.describe(running.target.level.as_deref(), cx),
                running.seed
            ),
            (None, Some(target)) => format!(
                "F5 plays {} on {}",
                target.game,
                describe_level(target.level.as_deref(), cx)
            ),
            (None, None) => "Open a level or a game script, then press F5.".into(),
        };
        ui.weak(label);
        if self.offers_restart() {
            let file = self
                .running_level_file()
                .map(|p| cx.project.display_path(p).display().to_string())
                .unwrap_or_default();
            ui.horizontal(|ui| {
                ui.colored_label(ui.visuals().warn_fg_color, format!("{file} was saved"));
                let restart = ui
                    .button("↻ Restart with the new level")
                    .on_hover_text("Start again on the saved level (Ctrl+R)");
                if restart.clicked()
                    || ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::R))
                {
                    request = Some(PlaytestRequest::Restart);
                }
            });
        }
        ui.separator();

        match self.running.as_mut() {
            Some(running) => running.view.ui(ui, cx),
            None => {
                ui.add_space(24.0);
                ui.vertical_centered(|ui| match &self.notice {
                    Some(notice) => {
                        ui.label(RichText::new(notice).size(15.0));
                    }
                    None => {
                        ui.label(RichText::new("Nothing running").size(15.0).weak());
                    }
                });
            }
        }
        request
    }
}

fn describe_level(level: Option<&Path>, cx: &PlaytestContext<'_>) -> String {
    match level {
        Some(path) => cx.project.display_path(path).display().to_string(),
        None => "its default level".into(),
    }
}
