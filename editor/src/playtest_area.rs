//! The playtest area: starts a game's view (F5 or ▶) on the active level or
//! the game's default level, and hosts it.

use std::path::{Path, PathBuf};

use egui::RichText;

use std::collections::BTreeMap;

use tessera_host::session::ErasedDecision;
use tessera_host::suite;
use tessera_host::worker::{Job, Poll};
use tessera_host::{Budget, GameError, Seat, SessionOptions};

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
    /// The AI seat thinking on a worker thread; dropping it cancels.
    thinking: Option<Job<Result<ErasedDecision, GameError>>>,
    /// AI seats wait (after a cancel or an AI error) until asked again.
    ai_paused: bool,
}

impl Running {
    fn new(target: PlaytestTarget, seed: u64, view: Box<dyn PlaytestView>) -> Self {
        Self {
            target,
            seed,
            view,
            thinking: None,
            ai_paused: false,
        }
    }
}

/// The playtest panel's state.
pub struct PlaytestArea {
    running: Option<Running>,
    seed_text: String,
    /// Why nothing is running (no view for the game, a start error).
    notice: Option<String>,
    /// The name typed for "Save as test", while that field is open.
    test_name: Option<String>,
    /// Mode and seats chosen per game (from the game's spec).
    options: BTreeMap<String, SessionOptions>,
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
            test_name: None,
            options: BTreeMap::new(),
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
        let options = self.options.get(&target.game).cloned().unwrap_or_default();
        match (game_ui.playtest)(cx.project, target.level.as_deref(), seed, &options) {
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
                self.running = Some(Running::new(target, seed, view));
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
        self.running = Some(Running::new(target, seed, view));
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
        let game = self
            .running
            .as_ref()
            .map(|r| r.target.game.clone())
            .or_else(|| target.map(|t| t.game.clone()));
        if let Some(game) = game {
            self.options_ui(ui, &game, cx);
        }
        if self.test_name.is_some() {
            self.save_test_ui(ui, cx);
        }
        let label = match (&self.running, target) {
            (Some(running), _) => format!(
                "{} · {} · seed {}{}",
                running.target.game,
                self.describe(running.target.level.as_deref(), cx),
                running.seed,
                running
                    .view
                    .session()
                    .map(describe_options)
                    .unwrap_or_default()
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

        if let Some(running) = self.running.as_mut() {
            drive_ai(running, ui, cx);
        }
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

/// Lets AI seats play: when an AI seat is to move, its decision runs on a
/// worker thread (the UI keeps drawing) with a "thinking" line and a
/// Cancel; the decision is applied and recorded like a human's move.
fn drive_ai(running: &mut Running, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
    if let Some(job) = running.thinking.as_mut() {
        match job.poll() {
            Poll::Running => {
                let control = job.control();
                let mut cancel = false;
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!(
                        "{} thinking… {:.1} s",
                        job.label(),
                        job.elapsed().as_secs_f32()
                    ));
                    let progress = control.progress();
                    if progress > 0.0 {
                        ui.add(egui::ProgressBar::new(progress as f32).desired_width(120.0));
                    }
                    let note = control.note();
                    if !note.is_empty() {
                        ui.weak(note);
                    }
                    if ui.button("Cancel").clicked() {
                        cancel = true;
                    }
                });
                if cancel {
                    job.cancel();
                }
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(50));
                return;
            }
            Poll::Done(result) => {
                running.thinking = None;
                let applied = result.and_then(|decision| match running.view.session_mut() {
                    Some(session) => session.apply_ai(decision),
                    None => Ok(()),
                });
                match applied {
                    Ok(()) => {}
                    Err(GameError::Cancelled) => {
                        running.ai_paused = true;
                        cx.console.push(crate::ConsoleLine {
                            text: "AI move cancelled; press ▶ AI move to let it play".into(),
                            is_error: false,
                        });
                    }
                    Err(e) => {
                        running.ai_paused = true;
                        cx.console.push(crate::ConsoleLine {
                            text: format!("AI: {e}"),
                            is_error: true,
                        });
                    }
                }
            }
            Poll::Lost => {
                running.thinking = None;
                running.ai_paused = true;
                cx.console.push(crate::ConsoleLine {
                    text: "AI stopped unexpectedly".into(),
                    is_error: true,
                });
            }
        }
    }
    if !running.view.ai_may_move() {
        // The view is still showing the last AI move.
        return;
    }
    let Some(session) = running.view.session() else {
        return;
    };
    let Some(seat) = session.ai_to_move() else {
        return;
    };
    if running.ai_paused {
        if ui
            .button("▶ AI move")
            .on_hover_text("Let the AI seat play on")
            .clicked()
        {
            running.ai_paused = false;
        }
        return;
    }
    let level = session.options().ai_level(seat).unwrap_or("ai").to_string();
    match session.ai_task(seat, Budget::unbounded()) {
        Ok(task) => {
            running.thinking = Some(Job::spawn(
                format!("ai:{level} (seat {})", seat + 1),
                move |control| task.run(control),
            ));
            ui.ctx().request_repaint();
        }
        Err(e) => {
            running.ai_paused = true;
            cx.console.push(crate::ConsoleLine {
                text: format!("AI: {e}"),
                is_error: true,
            });
        }
    }
}

/// The mode picker's entry for "whatever the level asks for".
const LEVEL_DEFAULT: &str = "level's default";

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
    /// The mode and seats the next start of `game` uses.
    pub fn options_for(&self, game: &str) -> SessionOptions {
        self.options.get(game).cloned().unwrap_or_default()
    }

    /// Chooses the mode and seats for the next start of `game`.
    pub fn set_options(&mut self, game: &str, options: SessionOptions) {
        self.options.insert(game.to_string(), options);
    }

    /// Mode and seat pickers, listed from the game's spec; shown only when
    /// the game offers a choice. Applies at the next start (▶ or F5).
    fn options_ui(&mut self, ui: &mut egui::Ui, game: &str, cx: &mut PlaytestContext<'_>) {
        let Ok(spec) = cx.project.spec(game) else {
            return;
        };
        let choice =
            spec.modes.len() > 1 || spec.min_seats != spec.max_seats || !spec.ai_levels.is_empty();
        if !choice {
            return;
        }
        let options = self.options.entry(game.to_string()).or_default();
        // With several modes and none chosen, the level decides (a tetris
        // feed level asks for feed mode against its difficulty): seats stay
        // empty so the session fills in the level's.
        let level_decides = spec.modes.len() > 1 && options.mode.is_none();
        if options.seats.is_empty() && !level_decides {
            options.seats = spec
                .default_seats_for(options.mode.as_deref().unwrap_or(&spec.modes[0].id))
                .to_vec();
        }
        ui.horizontal_wrapped(|ui| {
            if spec.modes.len() > 1 {
                let title = match &options.mode {
                    None => LEVEL_DEFAULT.to_string(),
                    Some(current) => spec
                        .modes
                        .iter()
                        .find(|m| &m.id == current)
                        .map_or(current.clone(), |m| m.title.clone()),
                };
                egui::ComboBox::from_label("Mode")
                    .selected_text(title)
                    .show_ui(ui, |ui| {
                        if ui
                            .selectable_label(options.mode.is_none(), LEVEL_DEFAULT)
                            .on_hover_text("The level's own mode and seats, else the first mode")
                            .clicked()
                        {
                            options.mode = None;
                            options.seats.clear();
                        }
                        for mode in &spec.modes {
                            let selected = options.mode.as_deref() == Some(mode.id.as_str());
                            if ui.selectable_label(selected, &mode.title).clicked() && !selected {
                                // Seats mean different things per mode
                                // (tetris feed: feeder, then AI).
                                options.mode = Some(mode.id.clone());
                                options.seats = spec.default_seats_for(&mode.id).to_vec();
                            }
                        }
                    });
            }
            if options.seats.is_empty() {
                ui.weak("seats: the level's");
            } else if spec.min_seats != spec.max_seats {
                let mut count = options.seats.len();
                ui.label("Players");
                ui.add(egui::DragValue::new(&mut count).range(spec.min_seats..=spec.max_seats));
                options.seats.resize(count, Seat::Human);
            }
            for (i, seat) in options.seats.iter_mut().enumerate() {
                egui::ComboBox::from_label(format!("Seat {}", i + 1))
                    .selected_text(seat.to_string())
                    .show_ui(ui, |ui| {
                        if ui.selectable_label(*seat == Seat::Human, "human").clicked() {
                            *seat = Seat::Human;
                        }
                        for level in &spec.ai_levels {
                            let ai = Seat::Ai {
                                level: level.clone(),
                            };
                            if ui
                                .selectable_label(*seat == ai, format!("ai:{level}"))
                                .clicked()
                            {
                                *seat = ai;
                            }
                        }
                    });
            }
            ui.weak("(applies at the next ▶)");
        });
    }

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

/// ` · feed: human, ai:god`: the mode and seats a session was started
/// with (the level may have chosen them); nothing for a game that offers
/// no choice.
fn describe_options(session: &dyn tessera_host::Session) -> String {
    let spec = session.spec();
    if spec.modes.len() <= 1 && spec.ai_levels.is_empty() && spec.min_seats == spec.max_seats {
        return String::new();
    }
    let options = session.options();
    let seats: Vec<String> = options.seats.iter().map(ToString::to_string).collect();
    format!(" · {}: {}", options.mode(), seats.join(", "))
}

fn describe_level(level: Option<&Path>, cx: &PlaytestContext<'_>) -> String {
    match level {
        Some(path) => cx.project.display_path(path).display().to_string(),
        None => "its default level".into(),
    }
}
