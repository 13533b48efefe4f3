//! The playtest area: starts a game's view (F5 or ▶) on the active level or
//! the game's default level, and hosts it.

use std::path::{Path, PathBuf};

use egui::RichText;

use std::collections::BTreeMap;

use tessera_host::driver::Driver;
use tessera_host::suite;
use tessera_host::{Seat, Session, SessionOptions};

use crate::generic_view::GenericView;

mod header;
use crate::playtest::{GameUi, PlaytestContext, PlaytestView, ViewRequest};

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
    /// The host's driver of the AI seats (a decision on a worker thread;
    /// dropping it cancels).
    driver: Driver,
}

impl Running {
    fn new(target: PlaytestTarget, seed: u64, view: Box<dyn PlaytestView>) -> Self {
        Self {
            target,
            seed,
            view,
            driver: Driver::default(),
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
    /// The name last proposed for "Save as test": while the field still
    /// holds it, it follows the game (an AI's reply arriving after the
    /// click adds a step), so the name counts the steps that are saved.
    proposed_test_name: String,
    /// Mode and seats chosen per game (from the game's spec).
    options: BTreeMap<String, SessionOptions>,
    /// The level each game's seats were picked for: another level that
    /// names its own seats plays those (a level's own seats win).
    chosen_for: BTreeMap<String, Option<PathBuf>>,
    /// The last level whose own options were read: its path, its time of
    /// change and what it asks for (read again when either changes).
    level_asks: Option<(PathBuf, Option<std::time::SystemTime>, SessionOptions)>,
    /// The level file whose unsaved buffer is being played (the target's
    /// level is then a scratch copy of that buffer).
    buffer_of: Option<PathBuf>,
    /// The running level's file was saved since the start: offer a restart.
    level_changed: bool,
    /// Whether the keyboard belongs to the playtest (its last press was
    /// inside the panel, or it was just started).
    focused: bool,
}

impl Default for PlaytestArea {
    fn default() -> Self {
        Self {
            running: None,
            seed_text: "1".into(),
            notice: None,
            test_name: None,
            proposed_test_name: String::new(),
            options: BTreeMap::new(),
            chosen_for: BTreeMap::new(),
            level_asks: None,
            buffer_of: None,
            level_changed: false,
            focused: false,
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

    /// Starts `target` with the seed from the seed field: the session
    /// through the host's one start path (`Project::start_session`: the
    /// level read with the input cap and diagnosed, the script checked, the
    /// options resolved), shown in the game's view from `games`, or in the
    /// generic view when the game brings none.
    pub fn start(
        &mut self,
        target: PlaytestTarget,
        games: &[GameUi],
        cx: &mut PlaytestContext<'_>,
    ) {
        let windows = self.take_tool_windows(&target.game);
        self.level_changed = false;
        let Some(seed) = self.seed() else {
            self.fail(
                cx,
                format!("seed `{}` is not a whole number", self.seed_text.trim()),
            );
            return;
        };
        let level_name = self.describe(target.level.as_deref(), cx);
        self.let_the_level_choose(&target.game, target.level.as_deref(), cx);
        let options = self.options.get(&target.game).cloned().unwrap_or_default();
        let started = cx
            .project
            .start_session(&target.game, target.level.as_deref(), seed, &options)
            .map_err(anyhow::Error::from)
            .and_then(|session| open_view(games, cx, session));
        match started {
            Ok(mut view) => {
                if let Some(windows) = windows {
                    view.keep_tool_windows(windows);
                }
                cx.console.push(crate::ConsoleLine {
                    text: format!("playtest {} on {level_name}, seed {seed}", target.game),
                    is_error: false,
                });
                self.notice = None;
                self.test_name = None;
                self.focused = true;
                self.running = Some(Running::new(target, seed, view));
            }
            Err(e) => self.fail(
                cx,
                format!("error playtest {} on {level_name}: {e:#}", target.game),
            ),
        }
    }

    /// Shows a view that already holds a session (a replay opened at a
    /// step by the Tests panel, the game resumed after a restart); the seed
    /// field shows its seed, so ▶ plays that game again.
    pub fn show(&mut self, target: PlaytestTarget, seed: u64, mut view: Box<dyn PlaytestView>) {
        if let Some(windows) = self.take_tool_windows(&target.game) {
            view.keep_tool_windows(windows);
        }
        self.seed_text = seed.to_string();
        self.focused = true;
        self.notice = None;
        self.test_name = None;
        self.running = Some(Running::new(target, seed, view));
    }

    /// Stops the running view; the tool windows it has open, when a view
    /// of the same `game` follows (they stay open: Run ▸ Playtest).
    fn take_tool_windows(&mut self, game: &str) -> Option<Box<dyn std::any::Any>> {
        let mut running = self.running.take().filter(|r| r.target.game == game)?;
        running.view.take_tool_windows()
    }

    /// Whether an AI seat's decision is being computed on its worker now
    /// (not waiting out its reaction time).
    pub fn ai_computing(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.driver.is_computing())
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
        let text = session.replay_ron().map_err(anyhow::Error::from)?;
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
        let trajectory = suite::run(cx.project, &case).map_err(anyhow::Error::from)?;
        suite::write_snapshot(&root, &case, &trajectory)?;
        Ok(path
            .strip_prefix(&root)
            .map(Path::to_path_buf)
            .unwrap_or(path))
    }

    /// Takes back the player's last move in the running game (the host's
    /// undo, or the game's own where its rules keep one), and says so.
    pub fn undo(&mut self, cx: &mut PlaytestContext<'_>) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        running.driver.forget();
        let line = match running.view.undo() {
            Ok(true) => ("undone: your last move".to_string(), false),
            Ok(false) => ("nothing to undo".to_string(), false),
            Err(e) => (format!("cannot undo: {e}"), true),
        };
        cx.console.push(crate::ConsoleLine {
            text: line.0,
            is_error: line.1,
        });
    }

    /// Redoes an undone move where the game's rules keep a redo list.
    pub fn redo(&mut self, cx: &mut PlaytestContext<'_>) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        running.driver.forget();
        let line = match running.view.redo() {
            Ok(true) => ("redone".to_string(), false),
            Ok(false) => ("nothing to redo".to_string(), false),
            Err(e) => (format!("cannot redo: {e}"), true),
        };
        cx.console.push(crate::ConsoleLine {
            text: line.0,
            is_error: line.1,
        });
    }

    /// Whether the playtest is the panel the keyboard belongs to.
    pub fn has_focus(&self) -> bool {
        self.focused
    }

    /// Gives the keyboard to the playtest (a start does) or takes it away
    /// (a click in another panel).
    pub fn set_focus(&mut self, focused: bool) {
        self.focused = focused;
    }

    /// A press inside the panel gives it the keyboard; one outside takes
    /// it away, so Ctrl+Z in a level editor never undoes a playtest move.
    fn track_focus(&mut self, ui: &egui::Ui) {
        let panel = ui.max_rect();
        if let Some(pos) = ui.input(|i| {
            i.pointer
                .any_pressed()
                .then(|| i.pointer.interact_pos())
                .flatten()
        }) {
            self.focused = panel.contains(pos);
        }
    }

    /// Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo, while the playtest has
    /// the keyboard and no text field does (a board holding egui's focus
    /// after a click, as the Tetris board does for its arrows, still
    /// undoes). Runs before the view draws, so a view never also reads the
    /// Z of a Ctrl+Z as a move.
    fn undo_keys(&mut self, ui: &egui::Ui, cx: &mut PlaytestContext<'_>) {
        if self.running.is_none() || !self.focused || tessera_ui::text_field_has_keyboard(ui.ctx())
        {
            return;
        }
        let (redo, undo) = ui.input_mut(|i| {
            let redo = i.consume_key(
                egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
                egui::Key::Z,
            ) || i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y);
            (redo, i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z))
        });
        if redo {
            self.redo(cx);
        } else if undo {
            self.undo(cx);
        }
    }

    /// Stops the running view.
    pub fn stop(&mut self) {
        self.running = None;
        self.notice = None;
        self.test_name = None;
        self.buffer_of = None;
        self.level_changed = false;
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
        self.track_focus(ui);
        self.undo_keys(ui, cx);
        // Wrapped, not one long row: a narrow docked panel keeps its width
        // (a row that cannot wrap widens the panel and squeezes the code).
        ui.horizontal_wrapped(|ui| {
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
            let can_undo = self.session().is_some_and(|s| s.can_undo());
            if ui
                .add_enabled(can_undo, egui::Button::new("↶ Undo"))
                .on_hover_text("Take back your last move (Ctrl+Z)")
                .on_disabled_hover_text("No move to take back")
                .clicked()
            {
                self.undo(cx);
            }
            let can_save = self.session().is_some();
            if ui
                .add_enabled(can_save, egui::Button::new("💾 Save as test"))
                .on_hover_text(
                    "Save this playtest as a replay in tests/replays/: `cargo test` and the Tests panel then show how a rule change alters it",
                )
                .on_disabled_hover_text("Start a playtest first")
                .clicked()
            {
                self.proposed_test_name = default_test_name(self.session());
                self.test_name = Some(self.proposed_test_name.clone());
            }
        });
        let game = self
            .running
            .as_ref()
            .map(|r| r.target.game.clone())
            .or_else(|| target.map(|t| t.game.clone()));
        if let Some(game) = game {
            // The level the next ▶ plays: the target's, else the running one's.
            let level = target
                .filter(|t| t.game == game)
                .or_else(|| self.running.as_ref().map(|r| &r.target))
                .and_then(|t| t.level.clone());
            self.options_ui(ui, &game, level.as_deref(), cx);
        }
        if self.test_name.is_some() {
            self.save_test_ui(ui, cx);
        }
        if let Some(restart) = self.header_line(ui, target, cx) {
            request = Some(restart);
        }
        ui.separator();

        match self.running.as_mut() {
            Some(running) => {
                running.view.ui(ui, cx);
                if let Some(ViewRequest::NewGame { seed }) = running.view.take_request() {
                    if let Some(seed) = seed {
                        self.seed_text = seed.to_string();
                    }
                    request = Some(PlaytestRequest::Restart);
                }
            }
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

/// Lets AI seats play through the host's driver: when an AI seat is to
/// move, its decision runs on a worker thread (the UI keeps drawing) with a
/// "thinking" line and a Cancel; the view applies the decision and it is
/// recorded like a player's move.
fn drive_ai(running: &mut Running, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
    tessera_ui::drive_view(running.view.as_mut(), &mut running.driver, ui, cx);
}

/// Shows `session` in its game's view, or in the generic view when the
/// game brings no UI.
pub fn open_view(
    games: &[GameUi],
    cx: &mut PlaytestContext<'_>,
    session: Box<dyn Session>,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    match games.iter().find(|g| g.id == session.game_id()) {
        Some(game_ui) => (game_ui.view)(cx.project, session),
        None => Ok(Box::new(GenericView::new(session))),
    }
}

/// The mode picker's entry for "whatever the level asks for".
const LEVEL_DEFAULT: &str = "level's default";

/// A name proposal: the game and the steps recorded so far.
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
    /// What `level` of `game` asks for itself (its mode and seats), read
    /// once per change of the file.
    fn level_asks(
        &mut self,
        game: &str,
        level: Option<&Path>,
        cx: &mut PlaytestContext<'_>,
    ) -> SessionOptions {
        let Some(level) = level else {
            return SessionOptions::default();
        };
        let path = cx.project.absolute(level);
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        if let Some((read, when, asks)) = &self.level_asks
            && *read == path
            && *when == modified
        {
            return asks.clone();
        }
        let asks = cx.project.level_options(game, Some(&path));
        self.level_asks = Some((path, modified, asks.clone()));
        asks
    }

    /// Forgets the seats (and mode) picked for `game` on another level when
    /// `level` names its own: a scenario's `Ai(level: "hard")` plays hard
    /// even after a toolbar pick for a different file.
    fn let_the_level_choose(
        &mut self,
        game: &str,
        level: Option<&Path>,
        cx: &mut PlaytestContext<'_>,
    ) {
        // Picks restored from the state file were made for no level known.
        let picked_for_this = self
            .chosen_for
            .get(game)
            .is_some_and(|chosen| chosen.as_deref() == level);
        if picked_for_this {
            return;
        }
        let asks = self.level_asks(game, level, cx);
        if let Some(options) = self.options.get_mut(game)
            && !asks.seats.is_empty()
        {
            options.seats.clear();
            if asks.mode.is_some() {
                options.mode = None;
            }
        }
        self.chosen_for.remove(game);
    }

    /// The mode and seats the next start of `game` uses.
    pub fn options_for(&self, game: &str) -> SessionOptions {
        self.options.get(game).cloned().unwrap_or_default()
    }

    /// Chooses the mode and seats for the next start of `game`.
    pub fn set_options(&mut self, game: &str, options: SessionOptions) {
        self.options.insert(game.to_string(), options);
    }

    /// The toolbar's choices for every game (remembered between runs).
    pub fn all_options(&self) -> &BTreeMap<String, SessionOptions> {
        &self.options
    }

    /// Mode and seat pickers, listed from the game's spec; shown only when
    /// the game offers a choice. Applies at the next start (▶ or F5).
    fn options_ui(
        &mut self,
        ui: &mut egui::Ui,
        game: &str,
        level: Option<&Path>,
        cx: &mut PlaytestContext<'_>,
    ) {
        let Ok(spec) = cx.project.spec(game) else {
            return;
        };
        self.let_the_level_choose(game, level, cx);
        let level_seats = Some(self.level_asks(game, level, cx).seats).filter(|s| !s.is_empty());
        let choice =
            spec.modes.len() > 1 || spec.min_seats != spec.max_seats || !spec.ai_levels.is_empty();
        if !choice {
            return;
        }
        // The seats the next game plays: the level's own (an Azul
        // scenario's `Ai(level: "hard")`), shown at once, else those of
        // the running game of this kind, until the designer picks others.
        // Where the seats shown come from, said beside them: a level
        // without seats must not be credited with the game's.
        let from = if level_seats.is_some() {
            "(the level's)"
        } else if self.running.as_ref().is_some_and(|r| r.target.game == game) {
            "(as the game running now)"
        } else {
            "(the game's)"
        };
        let running_seats = level_seats.or_else(|| {
            self.running
                .as_ref()
                .filter(|r| r.target.game == game)
                .and_then(|r| r.view.session())
                .map(|s| s.options().seats.clone())
        });
        let options = self.options.entry(game.to_string()).or_default();
        let was = options.clone();
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
                tessera_ui::labelled_combo(ui, "Mode", "playtest mode", title, |ui| {
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
                            options.seats.clear();
                        }
                    }
                });
            }
            let chosen = !options.seats.is_empty();
            let mut seats = if chosen {
                options.seats.clone()
            } else {
                running_seats.clone().unwrap_or_else(|| {
                    let mode = options.mode.as_deref().unwrap_or(&spec.modes[0].id);
                    spec.default_seats_for(mode).to_vec()
                })
            };
            let before = seats.clone();
            if spec.min_seats != spec.max_seats {
                let mut count = seats.len();
                let label = ui.label("Players");
                ui.add(egui::DragValue::new(&mut count).range(spec.min_seats..=spec.max_seats))
                    .labelled_by(label.id);
                seats.resize(count, Seat::Human);
            }
            for (i, seat) in seats.iter_mut().enumerate() {
                let label = format!("Seat {}", i + 1);
                tessera_ui::labelled_combo(
                    ui,
                    &label,
                    ("playtest seat", i),
                    seat.to_string(),
                    |ui| {
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
                    },
                );
            }
            if seats != before {
                options.seats = seats;
            }
            if chosen {
                if ui
                    .small_button("level's seats")
                    .on_hover_text("Forget the seats picked here: the level's own, else the game's")
                    .clicked()
                {
                    options.seats.clear();
                }
            } else {
                ui.weak(from);
            }
            ui.weak("(applies at the next ▶)");
        });
        if *options != was {
            self.chosen_for
                .insert(game.to_string(), level.map(Path::to_path_buf));
        }
    }

    fn save_test_ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        let proposal = default_test_name(self.session());
        let Some(name) = self.test_name.as_mut() else {
            return;
        };
        if *name == self.proposed_test_name && proposal != self.proposed_test_name {
            name.clone_from(&proposal);
            self.proposed_test_name = proposal;
        }
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
