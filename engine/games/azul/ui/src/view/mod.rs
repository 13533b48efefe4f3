//! The Azul table: status bar, one board per seat (wall with the faint
//! colour pattern, pattern lines, floor with penalties, score), factories
//! and the centre with the marker, controls and a message log with the
//! AI's top moves.
//!
//! This file holds the table's state, its moves (play, undo, hint, the AI's
//! move shown) and its frame; `board.rs` draws a seat's board,
//! `sources.rs` the factory ring and the centre, `animation.rs` the flying
//! tiles and score pop-ups, `end_screen.rs` the end card and
//! `controls.rs` the side panel (status, prompts, controls, save and load).

mod animation;
mod board;
mod controls;
mod crowded;
mod end_screen;
mod saves;
mod sources;

use std::time::Duration;

use egui::{Color32, Rect};
use tessera_azul::rules::State;
use tessera_azul::settings::{self, ColourStyle};
use tessera_azul::{Azul, AzulAction, action_to_move};
use tessera_host::agent::{AiTask, agent_rng};
use tessera_host::replay::Step;
use tessera_host::session::ErasedDecision;
use tessera_host::session::SessionAi;
use tessera_host::worker::{Job, Poll};
use tessera_host::{AgentGame, Budget, Decision, GameError, LiveScript, Recorded, Session, Turn};

use tessera_ui::{PlaytestContext, PlaytestView, ViewRequest};

use animation::{Flight, Popup};
use sources::{ring_size, sources_size};

type AiResult = Result<Decision<AzulAction>, GameError>;

const TILE: f32 = 30.0;
const WALL_CELL: f32 = 32.0;
const FLOOR_CELL: f32 = 26.0;
const GOLD: Color32 = Color32::from_rgb(0xFF, 0xD7, 0x00);
const BROWN: Color32 = Color32::from_rgb(0x8B, 0x45, 0x13);

/// The running table.
///
/// It plays through the host's recorded session: AI seats are driven by the
/// playtest area's [`tessera_host::driver::Driver`] (the view shows their
/// moves in [`PlaytestView::apply_ai`]), undo is the host's, and a new game
/// goes through the host's start path ([`ViewRequest::NewGame`]).
pub struct AzulPlaytest {
    game: Recorded<Azul>,
    script: LiveScript,
    palette: Vec<ColourStyle>,
    /// The picked source and colour, waiting for a line.
    selected: Option<(u8, u8)>,
    /// Reaction time override (tests: zero); `None` = the script's.
    reaction_override: Option<Duration>,
    hint_job: Option<Job<AiResult>>,
    hint: Option<AzulAction>,
    /// What the view asks of the playtest area (a new game).
    request: Option<ViewRequest>,
    log: Vec<(String, bool)>,
    hints_asked: u64,
    /// The Balance panel (AI against AI, `tessera sim`'s code).
    balance: super::balance::Balance,
    /// Where things were drawn last frame (animation end points).
    rects: Rects,
    /// Tiles in flight (presentation only).
    flights: Vec<Flight>,
    /// Score changes floating up from the boards.
    popups: Vec<Popup>,
    /// The save's name and the overwrite question.
    saves: saves::SaveSlot,
    /// Whether moves animate (tests turn it off to settle at once).
    animations: bool,
    /// The designer closed the end card to look at the final table.
    end_card_closed: bool,
    /// The docked table's tools window (record, saves, rules, Balance)
    /// is open.
    tools_open: bool,
    /// The scoring numbers of the live script and its generation: the
    /// table shows them at once after a script save, although the game
    /// takes them up at its next move (the record's `script` line).
    live_rules: (u64, Option<tessera_azul::rules::Rules>),
    /// How much the boards are shrunk so every player's fits the panel
    /// (1 = full size), and how many boards share a row.
    board_layout: BoardLayout,
    /// A docked table of three or four players: the player's board
    /// beside the others' smaller ones.
    crowded: crowded::Crowded,
    /// The scale of the board being drawn.
    drawn_scale: f32,
}

/// Whether a board scale measured this frame, `now`, replaces the one
/// drawn, `was`: shrinking at once (a board past the panel's edge is
/// clipped), growing only past a margin (no flicker between two scales as
/// the measured size follows the scale).
fn rescales(now: f32, was: f32) -> bool {
    !(-0.001..=0.02).contains(&(now - was))
}

/// The boards' grid: columns and scale, chosen from the space the last
/// frame had.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct BoardLayout {
    pub(super) columns: usize,
    pub(super) scale: f32,
    /// A board's size at scale 1, as measured on the last frame.
    pub(super) natural: egui::Vec2,
}

impl BoardLayout {
    /// The gap between boards.
    const GAP: f32 = 8.0;
    /// Below this the tiles are too small to click: scroll instead.
    const MIN_SCALE: f32 = 0.45;
    /// How far below MIN_SCALE the boards shrink to fit a narrow panel's
    /// width rather than reach past its edge.
    const NARROWEST_SCALE: f32 = 0.35;

    /// The grid that shows `players` boards largest within `width` x
    /// `height`: every column count is tried and the one whose boards
    /// need the least shrinking wins.
    pub(super) fn fit(self, players: usize, width: f32, height: f32) -> Self {
        let players = players.max(1);
        let mut best = Self {
            columns: players,
            scale: 0.0,
            ..self
        };
        for columns in 1..=players {
            let rows = players.div_ceil(columns);
            let across =
                (width - (columns - 1) as f32 * Self::GAP) / (columns as f32 * self.natural.x);
            // A row of boards too wide for the panel even at the narrowest
            // scale would reach past its edge, however short the panel.
            if columns > 1 && across < Self::NARROWEST_SCALE {
                continue;
            }
            let down = (height - (rows - 1) as f32 * Self::GAP) / (rows as f32 * self.natural.y);
            let scale = across.min(down).min(1.0);
            if scale > best.scale + 0.01 {
                best = Self {
                    columns,
                    scale,
                    ..self
                };
            }
        }
        // The boards always fit across: below MIN_SCALE only as far as a
        // narrow (docked) panel asks, never clipped at its edge; a panel
        // too narrow even for NARROWEST_SCALE scrolls.
        let columns = best.columns as f32;
        let across = (width - (columns - 1.0) * Self::GAP) / (columns * self.natural.x);
        best.scale = best
            .scale
            .max(Self::MIN_SCALE)
            .min(across)
            .max(Self::NARROWEST_SCALE);
        best
    }
}

/// Screen places of the table's parts, from the last frame.
#[derive(Default)]
struct Rects {
    sources: std::collections::HashMap<u8, Rect>,
    lines: std::collections::HashMap<(usize, usize), Rect>,
    floors: std::collections::HashMap<usize, Rect>,
    walls: std::collections::HashMap<(usize, usize, usize), Rect>,
    scores: std::collections::HashMap<usize, Rect>,
}

impl AzulPlaytest {
    /// The table of a started (or replayed) session. `reaction` overrides
    /// the AI's reaction time (tests use zero).
    pub fn from_session(game: Recorded<Azul>, reaction: Option<Duration>) -> anyhow::Result<Self> {
        let script = game.script().clone();
        let current = script.current();
        let palette = settings::colours(&current).map_err(anyhow::Error::from)?;
        drop(current);
        let ai_levels = game.spec().ai_levels.clone();
        let mut view = Self {
            game,
            script,
            palette,
            selected: None,
            reaction_override: reaction,
            hint_job: None,
            hint: None,
            request: None,
            log: Vec::new(),
            hints_asked: 0,
            balance: super::balance::Balance::new(&ai_levels),
            rects: Rects::default(),
            board_layout: BoardLayout {
                columns: 4,
                scale: 1.0,
                natural: egui::vec2(340.0, 300.0),
            },
            crowded: crowded::Crowded::default(),
            drawn_scale: 1.0,
            flights: Vec::new(),
            popups: Vec::new(),
            saves: saves::SaveSlot::default(),
            animations: true,
            end_card_closed: false,
            tools_open: false,
            live_rules: (u64::MAX, None),
        };
        view.take_events();
        // A game that arrives with moves (resumed after a restart, a test
        // opened at a step) shows them.
        view.say_history();
        let against: Vec<String> = (0..view.game.options().seats.len())
            .filter_map(|seat| view.game.options().ai_level(seat).map(String::from))
            .collect();
        if !against.is_empty() {
            view.say(format!("Against the {} AI.", against.join(", ")), false);
        }
        if view.human_to_move() {
            view.say(
                "Your turn: click a colour in a factory or the centre.",
                false,
            );
        }
        Ok(view)
    }

    /// Turns the move animations off (UI tests settle at once).
    pub fn without_animations(mut self) -> Self {
        self.animations = false;
        self
    }

    /// The AI levels of the AI seats, in seat order.
    pub fn ai_levels_played(&self) -> Vec<String> {
        (0..self.game.options().seats.len())
            .filter_map(|seat| self.game.options().ai_level(seat).map(String::from))
            .collect()
    }

    /// The game (tests, console).
    pub fn game(&self) -> &Recorded<Azul> {
        &self.game
    }

    /// The table.
    pub fn state(&self) -> &State {
        self.game.game().state()
    }

    /// The table as shown: the game's state with the live script's
    /// scoring numbers (floor penalties, end bonuses), which the next move
    /// plays under. A script that does not read keeps the game's numbers
    /// (its error is the game's to report).
    pub fn shown_state(&self) -> State {
        let mut s = *self.state();
        if let Some(live) = &self.live_rules.1 {
            s.rules.floor_penalties = live.floor_penalties;
            s.rules.row_bonus = live.row_bonus;
            s.rules.column_bonus = live.column_bonus;
            s.rules.colour_bonus = live.colour_bonus;
        }
        s
    }

    /// Reads the live script's scoring numbers when it changed.
    fn refresh_live_rules(&mut self) {
        let generation = self.script.generation();
        if self.live_rules.0 != generation {
            self.live_rules = (generation, settings::rules(&self.script.current()).ok());
        }
    }

    /// The Balance panel.
    pub fn balance_mut(&mut self) -> &mut super::balance::Balance {
        &mut self.balance
    }

    /// The message log, oldest first.
    pub fn log(&self) -> &[(String, bool)] {
        &self.log
    }

    /// Whether an AI seat is to move (the playtest area's driver is
    /// deciding for it).
    pub fn ai_to_move(&self) -> bool {
        self.game.ai_to_move().is_some()
    }

    fn say(&mut self, text: impl Into<String>, is_error: bool) {
        self.log.push((text.into(), is_error));
        if self.log.len() > 300 {
            self.log.drain(..100);
        }
    }

    fn take_events(&mut self) {
        for event in self.game.take_new_events() {
            self.say(event.text, event.is_error);
        }
    }

    fn colour(&self, k: usize) -> Color32 {
        let [r, g, b] = self.palette.get(k).map_or([128; 3], |c| c.rgb);
        Color32::from_rgb(r, g, b)
    }

    fn colour_name(&self, k: usize) -> String {
        self.palette
            .get(k)
            .map_or_else(|| format!("colour {k}"), |c| c.name.clone())
    }

    fn human_to_move(&self) -> bool {
        matches!(self.game.turn(), Turn::Seat(_)) && self.game.ai_to_move().is_none()
    }

    /// Plays a human move; refusals go to the log.
    pub fn play(&mut self, action: AzulAction) {
        let table = *self.state();
        match self.game.apply(&action) {
            Ok(()) => {
                self.animate(&table, &action);
                self.selected = None;
                self.hint = None;
                self.say(format!("You: {action}"), false);
            }
            Err(e) => self.say(format!("Refused: {e}"), true),
        }
        self.take_events();
    }

    /// Takes back the human's last move and any AI replies since (the
    /// host's undo: the record replayed up to just before that move).
    pub fn undo(&mut self) -> bool {
        match self.game.undo_move() {
            Ok(Some(_)) => {
                self.selected = None;
                self.hint = None;
                self.flights.clear();
                self.popups.clear();
                self.end_card_closed = false;
                self.say("Undone: your last move.", false);
                true
            }
            Ok(None) => {
                self.say("Nothing to undo.", false);
                false
            }
            Err(e) => {
                self.say(format!("Cannot undo: {e}"), true);
                false
            }
        }
    }

    /// Asks for a new game through the host's start path: a new deal
    /// (`new_deal`) or the same one again.
    pub fn new_game(&mut self, new_deal: bool) {
        let seed = new_deal.then(|| self.game.seed().wrapping_add(1));
        self.request = Some(ViewRequest::NewGame { seed });
    }

    /// Shows an AI seat's decision made by the playtest area's driver:
    /// applied and recorded, animated, with the AI's top moves in the log.
    fn show_ai_move(&mut self, decision: ErasedDecision) -> Result<(), GameError> {
        let seat = decision.seat;
        let level = self
            .game
            .options()
            .ai_level(seat)
            .unwrap_or("ai")
            .to_string();
        let top: Vec<String> = decision
            .considered
            .iter()
            .map(|c| format!("{} ({:.2}; {})", c.action, c.value, c.detail))
            .collect();
        let table = *self.state();
        let result = SessionAi::apply_ai(&mut self.game, decision);
        match &result {
            Ok(()) => {
                if let Some(Step::Act(action)) = self.game.replay().steps.last().cloned() {
                    self.animate(&table, &action);
                    self.say(format!("AI {level} (seat {}): {action}", seat + 1), false);
                }
                for (i, line) in top.iter().enumerate() {
                    self.say(format!("   {}. {line}", i + 1), false);
                }
            }
            Err(e) => self.say(format!("AI move refused: {e}"), true),
        }
        self.take_events();
        result
    }

    /// The AI's reaction time for the seat to move (presentation only).
    fn reaction(&self) -> Duration {
        let level = self
            .game
            .ai_to_move()
            .and_then(|s| self.game.options().ai_level(s))
            .unwrap_or("medium");
        self.reaction_override.unwrap_or_else(|| {
            settings::reaction_seconds(&self.script.current(), level)
                .map(Duration::from_secs_f64)
                .unwrap_or(Duration::from_secs(1))
        })
    }

    /// Asks the expert for the human's move.
    pub fn ask_hint(&mut self) {
        let Turn::Seat(seat) = self.game.turn() else {
            return;
        };
        let agent = match self.game.game().agent(seat, "expert") {
            Ok(a) => a,
            Err(e) => {
                self.say(format!("No hint: {e}"), true);
                return;
            }
        };
        self.hints_asked += 1;
        // A stream of its own: hints never shift the AI seats' streams.
        let rng = agent_rng(self.game.seed() ^ 0x4814_7000, seat, self.hints_asked);
        let task = AiTask::new(
            seat,
            "expert".into(),
            agent,
            self.game.game().snapshot(),
            rng,
        )
        .with_budget(Budget::time(Duration::from_secs(1)));
        self.hint_job = Some(Job::spawn("azul hint", move |control| task.run(control)));
        self.say("Hint: the expert is thinking...", false);
    }

    fn poll_hint(&mut self) {
        let Some(job) = &mut self.hint_job else {
            return;
        };
        match job.poll() {
            Poll::Running => {}
            Poll::Done(Ok(decision)) => {
                self.hint_job = None;
                self.hint = Some(decision.action);
                self.say(format!("Hint: {}", decision.action), false);
            }
            Poll::Done(Err(e)) => {
                self.hint_job = None;
                self.say(format!("No hint: {e}"), true);
            }
            Poll::Lost => self.hint_job = None,
        }
    }

    // ------------------------------------------------------------ drawing
}

/// The narrowest the controls and messages get beside the ring.
const SIDE_PANEL_MIN: f32 = 360.0;

impl PlaytestView for AzulPlaytest {
    fn session(&self) -> Option<&dyn Session> {
        Some(&self.game)
    }

    fn session_mut(&mut self) -> Option<&mut dyn Session> {
        Some(&mut self.game)
    }

    /// The AI's move waits until the tiles of the last one have landed.
    fn ai_may_move(&self) -> bool {
        self.flights.is_empty()
    }

    fn ai_reaction(&self) -> Duration {
        self.reaction()
    }

    fn apply_ai(&mut self, decision: ErasedDecision) -> Result<(), GameError> {
        self.show_ai_move(decision)
    }

    fn undo(&mut self) -> Result<bool, GameError> {
        Ok(AzulPlaytest::undo(self))
    }

    fn take_request(&mut self) -> Option<ViewRequest> {
        self.request.take()
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        self.poll_hint();
        self.refresh_live_rules();
        if self.ai_to_move() || self.hint_job.is_some() || !self.flights.is_empty() {
            ui.ctx().request_repaint_after(Duration::from_millis(50));
        }
        let s = self.shown_state();
        let can_pick = self.human_to_move() && !s.tiling;
        let mut chosen = None;
        // Wide (popped out, maximised): the controls and the Messages log
        // in a column of their own on the right, the log filling its
        // height, so neither scrolls out of sight under the table.
        let wide = ui.available_width() >= ring_size(s.factory_count).x + SIDE_PANEL_MIN;
        if wide {
            egui::Panel::right("azul side panel")
                .resizable(false)
                .exact_size(SIDE_PANEL_MIN - 20.0)
                .show(ui, |ui| {
                    self.prompts(ui, &s);
                    self.side_panel(ui, cx, f32::INFINITY);
                });
        }
        egui::ScrollArea::both().show(ui, |ui| {
            // Docked, the playtest's header names the game: its room goes
            // to the table.
            if wide {
                ui.heading("Azul");
            }
            self.status_bar(ui);
            ui.separator();
            let panel = ui.clip_rect();
            // Docked with three or four players, the player's board beside
            // the others' smaller ones, in the height the factories and
            // the controls below leave.
            let crowded = !wide && s.players > 2;
            if crowded {
                let width = ui.available_width();
                let below = sources_size(s.factory_count, width).y + self.docked_panel_height(ui);
                let height = panel.bottom() - ui.cursor().top() - below;
                chosen = self.crowded_boards(ui, s.players as usize, width, height);
            } else {
                // Every player's board in view: a grid scaled to the panel,
                // leaving about half its height for the factories and log.
                let (share, least) = if wide { (0.5, 220.0) } else { (0.3, 120.0) };
                let layout = self.board_layout.fit(
                    s.players as usize,
                    ui.available_width(),
                    (panel.height() * share).max(least),
                );
                if rescales(layout.scale, self.board_layout.scale)
                    || layout.columns != self.board_layout.columns
                {
                    self.board_layout = layout;
                    ui.ctx().request_repaint();
                }
                let players: Vec<usize> = (0..s.players as usize).collect();
                for row in players.chunks(self.board_layout.columns.max(1)) {
                    ui.horizontal_top(|ui| {
                        ui.spacing_mut().item_spacing.x = BoardLayout::GAP;
                        for &p in row {
                            let (action, natural) = self.board(ui, p, self.board_layout.scale);
                            self.board_layout.natural = natural;
                            if let Some(a) = action {
                                chosen = Some(a);
                            }
                        }
                    });
                }
            }
            ui.separator();
            // The end card takes the emptied ring's place: the boards
            // above and the controls below stay where they were.
            let sources = sources_size(s.factory_count, ui.available_width());
            // A crowded table's sources are too short for the card: it
            // takes the message lines' room below them too.
            let room = if crowded {
                sources + egui::vec2(0.0, self.docked_messages_height(ui))
            } else {
                sources
            };
            let card = self.end_card_in(ui, room, !wide);
            if !card {
                self.factory_ring(ui, &s, can_pick);
            }
            if !wide {
                self.docked_panel(ui, &s, !(card && crowded));
            }
        });
        if !wide {
            self.tools_window(ui.ctx(), cx);
        }
        if let Some(action) = chosen
            && action_to_move(&action).is_some()
        {
            self.play(action);
        }
        self.draw_animations(ui.ctx());
    }
}
