//! The tetris playtest view: keyboard play on the engine's game, with the
//! ghost, preview, hold box, score panel, goal progress, the seed's "OVER"
//! screen and a win screen, plus speed and single-step controls.
//!
//! Keys become the game's actions (arrows press and release keys, so the
//! engine's DAS/ARR do the auto-repeat in ticks); time becomes `Tick`s at
//! the script's ticks per second times the speed. Every action goes
//! through the recorded session, so a playtest is a replay.
//!
//! AI seats (classic `ai:god`, feed mode's AI and feeder) decide on the
//! playtest area's worker; this view shows each AI placement move by move
//! ([`crate::ai_move`]) at the difficulty's pace, holding the next AI
//! decision until it has been shown. Feed mode adds the offer, the
//! ceiling and the end screens ([`crate::feed`]); S, D and V toggle the AI
//! log, the debug HUD and the version line ([`crate::ai_log`]); the
//! Balance window ([`crate::balance`]) runs simulations. The side panel,
//! the end screens and the text under the board are in `panel.rs`.

mod panel;

use egui::{Color32, Rect, Sense, Stroke, StrokeKind, vec2};

use tessera_host::replay::Step;
use tessera_host::{Game, LiveScript, Recorded};
use tessera_tetris::level::{GARBAGE_COLOUR, TetrisLevel};
use tessera_tetris::movegen::Placement;
use tessera_tetris::rules::Key;
use tessera_tetris::{Tetris, TetrisAction};

use super::ai_log::{self, Prediction};
use super::ai_move::{AiMove, Before};
use super::balance::BalancePanel;
use tessera_ui::{ConsoleLine, PlaytestContext, PlaytestView, ViewRequest};

/// Widest the side panel beside the board grows.
const PANEL_WIDTH: f32 = 300.0;
/// Narrowest the side panel beside the board gets.
const PANEL_MIN_WIDTH: f32 = 240.0;

/// Most ticks one frame may run (a stalled frame does not fast-forward
/// the game by seconds).
const MAX_TICKS_PER_FRAME: f64 = 120.0;

/// The colour of a cell colour code (0 empty, 1-7 pieces, 8 garbage).
pub fn cell_colour(code: u8) -> Color32 {
    match code {
        1 => Color32::from_rgb(60, 200, 220), // I
        2 => Color32::from_rgb(230, 200, 50), // O
        3 => Color32::from_rgb(160, 80, 200), // T
        4 => Color32::from_rgb(80, 190, 80),  // S
        5 => Color32::from_rgb(220, 60, 60),  // Z
        6 => Color32::from_rgb(60, 100, 220), // J
        7 => Color32::from_rgb(235, 140, 40), // L
        GARBAGE_COLOUR => Color32::from_gray(120),
        // Feed mode's specials (pentominoes F N P U V W X Y).
        9 => Color32::from_rgb(230, 110, 170),
        10 => Color32::from_rgb(120, 220, 180),
        11 => Color32::from_rgb(200, 160, 240),
        12 => Color32::from_rgb(250, 160, 120),
        13 => Color32::from_rgb(150, 200, 90),
        14 => Color32::from_rgb(110, 170, 250),
        15 => Color32::from_rgb(250, 240, 130),
        16 => Color32::from_rgb(240, 120, 220),
        _ => Color32::from_gray(24),
    }
}

/// Room under the board for the debug HUD's lines.
const HUD_HEIGHT: f32 = 100.0;

/// Milliseconds an AI placement takes to show when the difficulty names
/// none.
const DEFAULT_PACE_MS: u32 = 300;

/// The interactive tetris view.
pub struct TetrisPlaytest {
    level: TetrisLevel,
    script: LiveScript,
    seed: u64,
    session: Recorded<Tetris>,
    /// Game speed multiplier (0.1x to 4x).
    pub speed: f32,
    /// Whether the view's clock stands still (single-stepping).
    pub frozen: bool,
    carry: f64,
    board_rect: Rect,
    cell_px: f32,
    /// The board's widget id: clicking the board takes the keyboard from
    /// the code editor.
    board_id: Option<egui::Id>,
    /// The game as the last frame left it (an AI move is shown from it).
    before: Option<Before>,
    /// The AI placement being shown.
    ai_move: Option<AiMove>,
    /// The last AI decision's landing, from its log.
    prediction: Option<Prediction>,
    /// The last decision replayed from its log for the HUD, on a worker:
    /// the replay is a search (milliseconds, more with a deep lookahead),
    /// never run on the UI thread.
    predicting: Option<tessera_host::worker::Job<Option<Prediction>>>,
    /// Whether the AI log panel (S) is shown.
    pub show_log: bool,
    /// Whether the debug HUD (D) is shown.
    pub show_hud: bool,
    /// Whether the version line (V) is shown.
    pub show_version: bool,
    log_copied: bool,
    /// The Balance window.
    pub balance: BalancePanel,
    /// What the view asks of the playtest area (a new game).
    request: Option<ViewRequest>,
}

impl TetrisPlaytest {
    /// A view on a session that already ran (a replay opened at a step, or
    /// one started with chosen options): play goes on from where it stands.
    pub fn from_session(session: Recorded<Tetris>) -> Self {
        let seed = session.seed();
        Self {
            level: session.replay().level.clone(),
            script: session.script().clone(),
            seed,
            session,
            speed: 1.0,
            frozen: false,
            carry: 0.0,
            board_rect: Rect::NOTHING,
            cell_px: 24.0,
            board_id: None,
            before: None,
            ai_move: None,
            prediction: None,
            predicting: None,
            show_log: false,
            show_hud: false,
            show_version: false,
            log_copied: false,
            balance: BalancePanel::default(),
            request: None,
        }
    }

    /// The game being played.
    pub fn game(&self) -> &Tetris {
        self.session.game()
    }

    /// The recorded session.
    pub fn session(&self) -> &Recorded<Tetris> {
        &self.session
    }

    /// Where the board was last drawn.
    pub fn board_rect(&self) -> Rect {
        self.board_rect
    }

    /// The AI placement being shown, if any.
    pub fn ai_move(&self) -> Option<&AiMove> {
        self.ai_move.as_ref()
    }

    /// The last AI decision's landing and metrics, from its log.
    pub fn prediction(&self) -> Option<&Prediction> {
        self.prediction.as_ref()
    }

    /// Whether an AI plays the pieces (classic with an AI seat, or feed
    /// mode): the keyboard does not move them then.
    fn ai_places(&self) -> bool {
        let options = self.session.options();
        self.game().feed_state().is_some() || options.ai_level(0).is_some()
    }

    /// The AI's decision time by the script (its difficulty's
    /// `decision_ms`): the feed game's AI, else the classic AI seat's.
    fn pace_ms(&self) -> u32 {
        let name = match self.game().feed_state() {
            Some(feed) => Some(feed.difficulty.clone()),
            None => self.session.options().ai_level(0).map(str::to_string),
        };
        name.and_then(|name| {
            tessera_tetris_bot::ai::settings::difficulty(&self.script.current(), &name)
                .ok()
                .flatten()
        })
        .map_or(DEFAULT_PACE_MS, |d| d.decision_ms)
    }

    /// How long an AI placement takes to show: the difficulty's decision
    /// time, divided by the speed.
    fn pace_seconds(&self) -> f32 {
        let ms = self.pace_ms();
        ms as f32 / 1000.0 / self.speed.max(0.01)
    }

    /// Notices an AI placement applied since the last frame and starts
    /// showing it from the board as that frame left it.
    fn catch_ai_move(&mut self) {
        let steps = &self.session.replay().steps;
        let Some(before) = &self.before else {
            return;
        };
        if steps.len() <= before.steps {
            return;
        }
        let Some(Step::Act(action @ TetrisAction::Drop { .. })) = steps.get(before.steps) else {
            return;
        };
        let action = *action;
        self.prediction = None;
        self.predicting = self.session.last_explanation().map(|(_, log)| {
            let log = log.to_string();
            // Dropped (a new move, the tab closed), the job is cancelled
            // and the replay stops.
            tessera_host::worker::Job::spawn("tetris HUD prediction", move |control| {
                ai_log::prediction_until(&log, control.cancel_flag())
            })
        });
        self.log_copied = false;
        let pace = self.pace_seconds();
        self.ai_move = AiMove::new(before, &action, pace);
    }

    /// Takes the HUD's prediction when its worker has it.
    fn poll_prediction(&mut self, ui: &egui::Ui) {
        let Some(job) = self.predicting.as_mut() else {
            return;
        };
        match job.poll() {
            tessera_host::worker::Poll::Running => {
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(20));
            }
            tessera_host::worker::Poll::Done(prediction) => {
                self.prediction = prediction;
                self.predicting = None;
            }
            tessera_host::worker::Poll::Lost => self.predicting = None,
        }
    }

    /// Applies an action; refusals (a paused game, hold switched off) are
    /// reported on the console.
    fn act(&mut self, action: TetrisAction, cx: &mut PlaytestContext<'_>) {
        if self.session.game().outcome().is_over() {
            return;
        }
        if let Err(error) = self.session.apply(&action) {
            cx.console.push(ConsoleLine {
                text: format!("tetris: {error}"),
                is_error: false,
            });
        }
    }

    /// Keyboard: arrows, up/X, Z, space, down, C, P.
    fn keys(&mut self, ui: &egui::Ui, cx: &mut PlaytestContext<'_>) {
        // Keys typed into a text field (the code editor) are not moves;
        // a click on the board gives it the keyboard.
        let focused = ui.ctx().memory(|m| m.focused());
        if focused.is_some() && focused != self.board_id {
            return;
        }
        let events = ui.input(|i| i.events.clone());
        for event in events {
            let egui::Event::Key {
                key,
                pressed,
                repeat,
                ..
            } = event
            else {
                continue;
            };
            if repeat {
                continue;
            }
            if pressed {
                match key {
                    egui::Key::S => {
                        self.show_log = !self.show_log;
                        continue;
                    }
                    egui::Key::D => {
                        self.show_hud = !self.show_hud;
                        continue;
                    }
                    egui::Key::V => {
                        self.show_version = !self.show_version;
                        continue;
                    }
                    _ => {}
                }
            }
            if self.ai_places() {
                // The AI moves its pieces; keys would move them under it.
                continue;
            }
            let held = match key {
                egui::Key::ArrowLeft => Some(Key::Left),
                egui::Key::ArrowRight => Some(Key::Right),
                egui::Key::ArrowDown => Some(Key::Down),
                _ => None,
            };
            if let Some(held) = held {
                let action = if pressed {
                    TetrisAction::Press(held)
                } else {
                    TetrisAction::Release(held)
                };
                self.act(action, cx);
                continue;
            }
            if !pressed {
                continue;
            }
            let action = match key {
                egui::Key::ArrowUp | egui::Key::X => TetrisAction::RotateCw,
                egui::Key::Z => TetrisAction::RotateCcw,
                egui::Key::Space => TetrisAction::HardDrop,
                egui::Key::C => TetrisAction::Hold,
                egui::Key::P => TetrisAction::Pause,
                _ => continue,
            };
            self.act(action, cx);
        }
    }

    /// Whether the game's clock runs: a human plays in real time, unpaused,
    /// not frozen and not over. AI play is turn by turn: ticks would only
    /// fill the replay.
    fn clock_runs(&self) -> bool {
        let game = self.session.game();
        !(self.frozen || game.field().is_paused() || game.outcome().is_over() || self.ai_places())
    }

    fn advance_time(&mut self, dt: f64) {
        if !self.clock_runs() {
            return;
        }
        let game = self.session.game();
        let rate = game.settings().ticks_per_second * f64::from(self.speed);
        self.carry = (self.carry + dt * rate).min(MAX_TICKS_PER_FRAME);
        let ticks = self.carry.floor();
        self.carry -= ticks;
        if ticks >= 1.0 {
            let _ = self.session.apply(&TetrisAction::Tick(ticks as u32));
        }
    }

    fn collect_events(&mut self, cx: &mut PlaytestContext<'_>) {
        for event in self.session.take_new_events() {
            // Locks are too many for the console; the shell reports reloads.
            if event.text.starts_with("lock ") || tessera_host::session::is_reload_event(&event) {
                continue;
            }
            cx.console.push(ConsoleLine {
                text: format!("tetris: {}", event.text),
                is_error: event.is_error,
            });
        }
    }

    fn paint_cell(painter: &egui::Painter, rect: Rect, colour: Color32) {
        painter.rect_filled(rect.shrink(1.0), 2.0, colour);
    }

    fn board_ui(&mut self, ui: &mut egui::Ui) {
        let game = self.session.game();
        let board = game.field().board();
        let (w, h) = (board.width(), board.height());
        let hidden = game.hidden_rows();
        let extra = 20.0
            + if self.show_version { 20.0 } else { 0.0 }
            + if self.show_hud { HUD_HEIGHT } else { 0.0 };
        // The board fills the height it is given (a maximised playtest
        // gets a big board), leaving the side panel its width.
        let avail = ui.available_height().max(300.0) - extra;
        // Narrow docked panels give the board what the side panel's
        // narrowest width leaves, but never cells under 12 px.
        let beside = (ui.available_width() - PANEL_MIN_WIDTH - 16.0) / w as f32;
        self.cell_px = (avail / h as f32).min(beside.max(12.0)).clamp(10.0, 64.0);
        let size = vec2(w as f32 * self.cell_px, h as f32 * self.cell_px);
        let (response, painter) = ui.allocate_painter(size, Sense::click());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "tetris board"));
        let rect = response.rect;
        self.board_rect = rect;
        self.board_id = Some(response.id);
        if response.clicked() {
            response.request_focus();
        }
        if response.has_focus() {
            // Arrows and Tab are moves here, not focus navigation.
            ui.memory_mut(|m| {
                m.set_focus_lock_filter(
                    response.id,
                    egui::EventFilter {
                        tab: true,
                        horizontal_arrows: true,
                        vertical_arrows: true,
                        escape: false,
                    },
                )
            });
        }
        let cell = self.cell_px;
        let cell_rect = |x: i32, y: i32| {
            Rect::from_min_size(
                rect.min + vec2(x as f32 * cell, y as f32 * cell),
                vec2(cell, cell),
            )
        };
        let outline = |p: &Placement, colour: Color32, width: f32| {
            for (x, y) in p.cells() {
                painter.rect_stroke(
                    cell_rect(x, y).shrink(2.0),
                    2.0,
                    Stroke::new(width, colour),
                    StrokeKind::Inside,
                );
            }
        };
        painter.rect_filled(rect, 0.0, Color32::from_gray(16));
        if hidden > 0 {
            painter.rect_filled(
                Rect::from_min_size(rect.min, vec2(size.x, hidden as f32 * cell)),
                0.0,
                Color32::from_gray(34),
            );
        }
        let feed = game.feed_state();
        // The ceiling as the shown board had it (an AI move is shown on
        // the board before its lock, and the ceiling may drop after it).
        let ceiling = feed.map(|f| {
            self.ai_move
                .as_ref()
                .and_then(|shown| shown.ceiling)
                .unwrap_or(f.ceiling)
        });
        if let Some(ceiling) = ceiling
            && ceiling > 0
        {
            // The rows closed off above the ceiling.
            painter.rect_filled(
                Rect::from_min_size(rect.min, vec2(size.x, ceiling as f32 * cell)),
                0.0,
                Color32::from_rgb(60, 18, 18),
            );
        }
        // While an AI move is shown, the board is the one it moved on.
        let colours = match &self.ai_move {
            Some(shown) => shown.colours.as_slice(),
            None => game.field().colours(),
        };
        for y in 0..h {
            for x in 0..w {
                let code = colours.get(y * w + x).copied().unwrap_or(0);
                if code != 0 {
                    Self::paint_cell(&painter, cell_rect(x as i32, y as i32), cell_colour(code));
                }
            }
        }
        if let Some(shown) = &self.ai_move {
            let target = shown.target();
            outline(
                &target,
                cell_colour(target.kind.colour()).gamma_multiply(0.7),
                1.5,
            );
            let now = shown.current();
            for (x, y) in now.cells() {
                Self::paint_cell(&painter, cell_rect(x, y), cell_colour(now.kind.colour()));
            }
        } else if !game.outcome().is_over() {
            if feed.is_none()
                && let Some(ghost) = game.field().ghost()
            {
                outline(
                    &ghost.placement(),
                    cell_colour(ghost.kind.colour()).gamma_multiply(0.7),
                    1.5,
                );
            }
            if let Some(active) = game.field().active() {
                for (x, y) in active.placement().cells() {
                    Self::paint_cell(&painter, cell_rect(x, y), cell_colour(active.kind.colour()));
                }
            }
        }
        if let Some(ceiling) = ceiling {
            // The seed's red line: the ceiling.
            let y = rect.top() + ceiling as f32 * cell;
            painter.line_segment(
                [egui::pos2(rect.left(), y), egui::pos2(rect.right(), y)],
                Stroke::new(3.0, Color32::from_rgb(235, 50, 50)),
            );
        }
        if self.show_hud
            && let Some(pred) = &self.prediction
        {
            outline(&pred.placement, Color32::from_rgb(255, 235, 80), 2.0);
        }
        painter.rect_stroke(
            rect,
            0.0,
            Stroke::new(1.0, Color32::from_gray(90)),
            StrokeKind::Outside,
        );
        self.end_overlay(ui, &painter, rect);
        self.under_board(ui);
    }
}

/// The AI log and the Balance window (its runs and results), carried to
/// the next playtest of Tetris so they stay open.
struct ToolWindows {
    show_log: bool,
    balance: BalancePanel,
}

impl PlaytestView for TetrisPlaytest {
    fn session(&self) -> Option<&dyn tessera_host::Session> {
        Some(&self.session)
    }

    fn session_mut(&mut self) -> Option<&mut dyn tessera_host::Session> {
        Some(&mut self.session)
    }

    fn ai_may_move(&self) -> bool {
        self.ai_move.is_none() && !self.frozen
    }

    fn take_request(&mut self) -> Option<ViewRequest> {
        self.request.take()
    }

    fn take_tool_windows(&mut self) -> Option<Box<dyn std::any::Any>> {
        let windows = ToolWindows {
            show_log: self.show_log,
            balance: std::mem::take(&mut self.balance),
        };
        (windows.show_log || windows.balance.open).then(|| Box::new(windows) as _)
    }

    fn keep_tool_windows(&mut self, windows: Box<dyn std::any::Any>) {
        if let Ok(windows) = windows.downcast::<ToolWindows>() {
            self.show_log = windows.show_log;
            self.balance = windows.balance;
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        let dt = ui.input(|i| i.stable_dt).clamp(0.0, 0.1);
        let was_showing_a_move = self.ai_move.is_some();
        self.catch_ai_move();
        self.poll_prediction(ui);
        if let Some(shown) = &mut self.ai_move {
            if !self.frozen {
                shown.advance(dt);
            }
            if shown.is_done() {
                self.ai_move = None;
            }
        }
        self.keys(ui, cx);
        self.advance_time(f64::from(dt));
        self.collect_events(cx);
        self.toolbar_ui(ui);
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| self.board_ui(ui));
            ui.vertical(|ui| self.panel_ui(ui, cx));
        });
        // A tool window of its own: as a third column beside the board it
        // fell outside a docked playtest panel and could not be seen.
        let mut open = self.show_log;
        tessera_ui::tool_window(
            ui.ctx(),
            "📜 AI log",
            &mut open,
            vec2(560.0, 420.0),
            |ui| self.log_ui(ui),
        );
        self.show_log &= open;
        self.balance
            .window(ui.ctx(), &self.level, &self.script, cx.project.root());
        let steps = self.session.replay().steps.len();
        self.before = Some(Before::of(self.session.game(), steps));
        // Frames only while something moves: the clock (falling pieces) or
        // an AI move being shown. Waiting for the feeder's choice or a
        // finished game draws on input alone; with a software renderer each
        // frame costs a core's 20 ms, taken from the AI's search.
        // (One frame more after a shown move ends: the host then starts
        // the next AI turn, whose thinking line asks for its own frames.)
        if self.clock_runs() || self.ai_move.is_some() || was_showing_a_move {
            ui.ctx().request_repaint();
        }
    }
}
