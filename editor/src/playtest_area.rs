//! The playtest area: starts a game's view (F5 or ▶) on the active level or
//! the game's default level, and hosts it.

use std::path::{Path, PathBuf};

use egui::RichText;

use tessera_host::suite;

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
    /// The name typed for "Save as test", while that field is open.
    test_name: Option<String>,
}

impl Default for PlaytestArea {
    fn default() -> Self {
        Self {
            running: None,
            seed_text: "1".into(),
            notice: None,
            test_name: None,
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
}

impl PlaytestArea {
    /// The game and level being played, if any.
    pub fn running(&self) -> Option<&PlaytestTarget> {
        self.running.as_ref().map(|r| &r.target)
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
        let level_name = describe_level(target.level.as_deref(), cx);
        match (game_ui.playtest)(cx.project, target.level.as_deref(), seed) {
            Ok(mut view) => {
                cx.console.push(crate::ConsoleLine {
                    text: format!("playtest {} on {level_name}, seed {seed}", target.game),
                    is_error: false,
                });
                // The replay notes the level file, so the test suite can
                // run it against the file as it is later.
                let inside = target
                    .level
                    .as_deref()
                    .and_then(|l| l.strip_prefix(cx.project.root()).ok())
                    .map(|p| p.display().to_string());
                if let Some(session) = view.session_mut() {
                    session.set_level_path(inside);
                }
                self.notice = None;
                self.test_name = None;
                self.running = Some(Running { target, seed, view });
            }
            Err(e) => self.fail(
                cx,
                format!("error playtest {} on {level_name}: {e:#}", target.game),
            ),
        }
    }

    /// Shows a view that already holds a session (a replay opened at a
    /// step by the Tests panel).
    pub fn show(&mut self, target: PlaytestTarget, seed: u64, view: Box<dyn PlaytestView>) {
        self.notice = None;
        self.test_name = None;
        self.running = Some(Running { target, seed, view });
    }

    /// The running view's recorded session, if it records one.
    pub fn session(&self) -> Option<&dyn tessera_host::Session> {
        self.running.as_ref().and_then(|r| r.view.session())
    }

    /// Writes the running session as a test: its replay to
    /// `tests/replays/<game>/<name>.replay.ron` and its trajectory as the
    /// accepted snapshot, so `cargo test` passes until a rule changes it.
    /// Returns the replay's path relative to the project.
    pub fn save_as_test(
        &self,
        name: &str,
        cx: &mut PlaytestContext<'_>,
    ) -> anyhow::Result<PathBuf> {
        let Some(session) = self.session() else {
            anyhow::bail!("this playtest records no session");
        };
        let root = cx.project.root().to_path_buf();
        let path = suite::replay_path(&root, session.game_id(), name);
        let text = session.replay_ron().map_err(|e| anyhow::anyhow!("{e}"))?;
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)?;
        }
        tessera_host::level::write_atomic(&path, text.as_bytes())?;
        let case = suite::Case {
            game: session.game_id().to_string(),
            name: suite::file_safe(name),
            path: path.clone(),
        };
        // The snapshot comes from re-running the saved file, exactly as
        // `cargo test` will.
        let trajectory = suite::run(cx.project, &case).map_err(|e| anyhow::anyhow!("{e}"))?;
        suite::write_snapshot(&root, &case, &trajectory)?;
        Ok(path
            .strip_prefix(&root)
            .map(Path::to_path_buf)
            .unwrap_or(path))
    }

    /// Stops the running view.
    pub fn stop(&mut self) {
        self.running = None;
        self.notice = None;
        self.test_name = None;
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
            let can_save = self.session().is_some();
            if ui
                .add_enabled(can_save, egui::Button::new("💾 Save as test"))
                .on_hover_text(
                    "Save this playtest as a replay in tests/replays/: `cargo test` and the Tests panel then show how a rule change alters it",
                )
                .on_disabled_hover_text("Start a playtest first")
                .clicked()
            {
                self.test_name = Some(default_test_name(self.session()));
            }
        });
        if self.test_name.is_some() {
            self.save_test_ui(ui, cx);
        }
        let label = match (&self.running, target) {
            (Some(running), _) => format!(
                "{} · {} · seed {}",
                running.target.game,
                describe_level(running.target.level.as_deref(), cx),
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

/// A name proposal: the level's file name and the step count.
fn default_test_name(session: Option<&dyn tessera_host::Session>) -> String {
    match session {
        Some(session) => {
            let steps = session.trajectory().rows.len();
            format!("{}_{steps}_steps", session.game_id())
        }
        None => "playtest".into(),
    }
}

impl PlaytestArea {
    fn save_test_ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        let Some(name) = self.test_name.as_mut() else {
            return;
        };
        let mut save = false;
        let mut cancel = false;
        ui.horizontal(|ui| {
            let label = ui.label("Test name");
            let field = ui
                .add(
                    egui::TextEdit::singleline(name)
                        .desired_width(180.0)
                        .id_salt("test name"),
                )
                .labelled_by(label.id);
            if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                save = true;
            }
            let game = self.running.as_ref().map(|r| r.target.game.clone());
            let path = game.map(|g| suite::replay_path(cx.project.root(), &g, name));
            let exists = path.as_ref().is_some_and(|p| p.exists());
            let label = if exists { "Replace" } else { "Save" };
            if ui.button(label).clicked() {
                save = true;
            }
            if ui.button("Cancel").clicked() {
                cancel = true;
            }
            if exists {
                ui.colored_label(ui.visuals().warn_fg_color, "a test of this name exists");
            }
        });
        if cancel {
            self.test_name = None;
        } else if save {
            let name = name.clone();
            match self.save_as_test(&name, cx) {
                Ok(path) => {
                    cx.console.push(crate::ConsoleLine {
                        text: format!(
                            "saved test {} (its trajectory is the accepted snapshot)",
                            path.display()
                        ),
                        is_error: false,
                    });
                    self.test_name = None;
                }
                Err(e) => cx.console.push(crate::ConsoleLine {
                    text: format!("error saving test: {e:#}"),
                    is_error: true,
                }),
            }
        }
    }
}

fn describe_level(level: Option<&Path>, cx: &PlaytestContext<'_>) -> String {
    match level {
        Some(path) => cx.project.display_path(path).display().to_string(),
        None => "its default level".into(),
    }
}
