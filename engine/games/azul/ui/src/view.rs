//! The Azul table: status bar, one board per seat (wall with the faint
//! colour pattern, pattern lines, floor with penalties, score), factories
//! and the centre with the marker, controls and a message log with the
//! AI's top moves.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use egui::{Color32, CornerRadius, Rect, RichText, Sense, Stroke, StrokeKind, Vec2};
use tessera_azul::rules::{CENTRE, COLOURS, FLOOR, FLOOR_SLOTS, LINES, Move, State, wall_colour};
use tessera_azul::settings::{self, ColourStyle};
use tessera_azul::{Azul, AzulAction, action_to_move, move_to_action};
use tessera_host::agent::{AiTask, agent_rng};
use tessera_host::level::{to_ron_string, write_atomic};
use tessera_host::registry::ReplaySetup;
use tessera_host::replay::{LevelChoice, ScriptChoice, Step};
use tessera_host::session::{ErasedDecision, downcast_box};
use tessera_host::worker::{Job, Poll};
use tessera_host::{
    Budget, Decision, Game, GameError, LiveScript, Outcome, Recorded, Seat, Session, Turn,
};

use tessera_ui::{ConsoleLine, PlaytestContext, PlaytestView, ViewRequest};

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
    /// Whether moves animate (tests turn it off to settle at once).
    animations: bool,
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

/// Tiles moving from one place to another.
struct Flight {
    from: egui::Pos2,
    to: egui::Pos2,
    colour: usize,
    count: u8,
    start: Instant,
}

/// A score change shown for 2 s.
struct Popup {
    at: egui::Pos2,
    delta: i32,
    start: Instant,
}

/// How long tiles fly (the seed's 300 ms).
const FLIGHT: Duration = Duration::from_millis(300);
/// How long a score pop-up shows.
const POPUP: Duration = Duration::from_secs(2);

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
            flights: Vec::new(),
            popups: Vec::new(),
            animations: true,
        };
        view.take_events();
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
        let result = Session::apply_ai(&mut self.game, decision);
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

    fn save_path(&self, cx: &PlaytestContext<'_>, name: &str) -> PathBuf {
        cx.project.root().join("saves").join(name)
    }

    fn save(&mut self, cx: &mut PlaytestContext<'_>) {
        let path = self.save_path(cx, "azul.replay.ron");
        let result = to_ron_string(self.game.replay())
            .map_err(|e| e.to_string())
            .and_then(|text| {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
                }
                write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())
            });
        match result {
            Ok(()) => self.say(format!("Saved {}", path.display()), false),
            Err(e) => self.say(format!("Cannot save {}: {e}", path.display()), true),
        }
        let _ = &mut cx.console;
    }

    /// Resumes the saved game through the host's replay path (the live
    /// script, the recorded level), in place of the game on the table.
    fn load(&mut self, cx: &mut PlaytestContext<'_>) {
        let path = self.save_path(cx, "azul.replay.ron");
        let setup = ReplaySetup {
            script: ScriptChoice::Current,
            level: LevelChoice::Recorded,
            stop_after: None,
        };
        let loaded = cx
            .project
            .replay(&path, &setup)
            .map_err(|e| e.to_string())
            .and_then(|run| {
                downcast_box::<Azul>(run.session)
                    .map_err(|_| "the saved game is not an Azul game".to_string())
            });
        match loaded {
            Ok(game) => {
                self.game = *game;
                self.game.take_new_events();
                self.selected = None;
                self.hint = None;
                self.log.clear();
                for row in self.game.trajectory().rows {
                    let who = if row.actor.is_empty() {
                        "You".to_string()
                    } else {
                        row.actor.clone()
                    };
                    self.say(format!("{who}: {}", row.step), false);
                }
                let against = self.ai_levels_played().join(", ");
                self.say(
                    format!("Loaded {} (against the {against} AI)", path.display()),
                    false,
                );
            }
            Err(e) => self.say(format!("Cannot load {}: {e}", path.display()), true),
        }
    }

    fn export_record(&mut self, cx: &mut PlaytestContext<'_>) {
        let path = self.save_path(cx, "azul_record.jsonl");
        let text = self.game.game().game_record().unwrap_or_default();
        let result = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| write_atomic(&path, text.as_bytes()));
        match result {
            Ok(()) => {
                self.say(
                    format!("Exported the game record to {}", path.display()),
                    false,
                );
                cx.console.push(ConsoleLine {
                    text: format!("azul: game record {}", path.display()),
                    is_error: false,
                });
            }
            Err(e) => self.say(format!("Cannot export: {e}"), true),
        }
    }

    // ------------------------------------------------------------ drawing

    fn status_bar(&self, ui: &mut egui::Ui) {
        let s = self.state();
        let human = self.human_seat();
        let who = match self.game.turn() {
            Turn::Over => match self.game.game().outcome() {
                Outcome::Winner(p) if Some(p) == human => "Victory! You win.".to_string(),
                Outcome::Winner(p) => format!("Defeat: player {} wins.", p + 1),
                Outcome::Shared(_) => "A shared win.".to_string(),
                Outcome::Won => "Goal met: you win the scenario!".to_string(),
                Outcome::Lost => "Goal missed: the scenario is lost.".to_string(),
                other => other.to_string(),
            },
            Turn::Seat(p) if self.game.options().ai_level(p).is_some() => {
                if s.tiling {
                    format!("AI (player {}) is choosing a wall column...", p + 1)
                } else {
                    format!("AI (player {}) is thinking...", p + 1)
                }
            }
            Turn::Seat(_) if s.tiling => "Your turn: choose a wall column".to_string(),
            Turn::Seat(_) => "Your turn".to_string(),
            Turn::RealTime => String::new(),
        };
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("Round {}", s.round)).strong());
            ui.separator();
            ui.label(RichText::new(who).strong().size(16.0));
        });
        let game = self.game.game();
        if !game.goal().is_none() {
            ui.label(
                RichText::new(format!(
                    "Goal: {} (so far {})",
                    game.goal().describe(),
                    game.goal_progress().unwrap_or(0)
                ))
                .color(BROWN),
            );
        }
    }

    /// The first human seat ("you").
    fn human_seat(&self) -> Option<usize> {
        self.game
            .options()
            .seats
            .iter()
            .position(|s| *s == Seat::Human)
    }

    fn board(&mut self, ui: &mut egui::Ui, p: usize) -> Option<AzulAction> {
        let s = *self.state();
        let b = s.boards[p];
        let seat = self
            .game
            .options()
            .seats
            .get(p)
            .cloned()
            .unwrap_or(Seat::Human);
        let mine = matches!(seat, Seat::Human) && self.game.turn() == Turn::Seat(p);
        let mut chosen = None;
        egui::Frame::group(ui.style())
            .stroke(Stroke::new(1.5, BROWN))
            .fill(Color32::from_rgb(0xE8, 0xE8, 0xE8))
            .show(ui, |ui| {
                ui.vertical(|ui| {
                    let name = match &seat {
                        Seat::Human => format!("Player {} (you)", p + 1),
                        Seat::Ai { level } => format!("Player {} (AI {level})", p + 1),
                    };
                    ui.label(RichText::new(name).strong());
                    let score = ui.label(RichText::new(format!("Score: {}", b.score)).size(18.0));
                    self.rects.scores.insert(p, score.rect);
                    ui.horizontal(|ui| {
                        // Pattern lines, right-aligned, beside the wall.
                        ui.vertical(|ui| {
                            for row in 0..LINES {
                                if let Some(a) = self.pattern_line(ui, &s, p, row, mine) {
                                    chosen = Some(a);
                                }
                            }
                        });
                        ui.add_space(8.0);
                        ui.vertical(|ui| {
                            if let Some(a) = self.wall(ui, &s, p, mine) {
                                chosen = Some(a);
                            }
                        });
                    });
                    if let Some(a) = self.floor_line(ui, &s, p, mine) {
                        chosen = Some(a);
                    }
                });
            });
        chosen
    }

    /// One wall: the printed wall shows its faint colour pattern, the
    /// grey wall grey cells. While its owner chooses a grey-wall column,
    /// the legal cells of the row are highlighted and clickable.
    fn wall(&mut self, ui: &mut egui::Ui, s: &State, p: usize, mine: bool) -> Option<AzulAction> {
        let b = s.boards[p];
        let pending = (s.to_move as usize == p)
            .then(|| s.pending_choice())
            .flatten();
        let mut chosen = None;
        for row in 0..LINES {
            ui.horizontal(|ui| {
                for col in 0..LINES {
                    let legal =
                        pending.is_some_and(|(r, _, mask)| r == row && mask & (1 << col) != 0);
                    let clickable = legal && mine;
                    let sense = if clickable {
                        Sense::click()
                    } else {
                        Sense::hover()
                    };
                    let (rect, response) = ui.allocate_exact_size(Vec2::splat(WALL_CELL), sense);
                    if clickable {
                        let label = format!("wall row {} column {}", row + 1, col + 1);
                        response.widget_info(|| {
                            egui::WidgetInfo::labeled(egui::Role::Button, true, &label)
                        });
                    }
                    self.rects.walls.insert((p, row, col), rect);
                    let fill = match b.colour_at(row, col) {
                        Some(k) => self.colour(k),
                        None if b.grey => Color32::from_gray(if legal { 205 } else { 185 }),
                        None => self.colour(wall_colour(row, col)).gamma_multiply(0.25),
                    };
                    let draw = if clickable && response.hovered() {
                        rect.expand(1.0)
                    } else {
                        rect.shrink(1.5)
                    };
                    ui.painter().rect_filled(draw, CornerRadius::same(5), fill);
                    if legal {
                        let k = pending.map_or(0, |(_, k, _)| k);
                        // The tile that would land here, faint.
                        ui.painter().rect_filled(
                            draw.shrink(7.0),
                            CornerRadius::same(3),
                            self.colour(k).gamma_multiply(0.6),
                        );
                        let width = if clickable && response.hovered() {
                            3.0
                        } else {
                            2.0
                        };
                        ui.painter().rect_stroke(
                            draw,
                            CornerRadius::same(5),
                            Stroke::new(width, GOLD),
                            StrokeKind::Outside,
                        );
                    }
                    if clickable && response.hovered() {
                        let points = b.placement_score(row, col);
                        response
                            .clone()
                            .on_hover_text(format!("column {}: +{points}", col + 1));
                    }
                    if clickable && response.clicked() {
                        chosen = Some(AzulAction::Wall {
                            row: row as u8 + 1,
                            column: col as u8 + 1,
                        });
                    }
                }
            });
        }
        chosen
    }

    fn preview(&self, s: &State, m: Move) -> String {
        let mut after = *s;
        let p = s.to_move as usize;
        let before = s.boards[p];
        after.play(m);
        let b = after.boards[p];
        let dropped = b.floor_len.saturating_sub(before.floor_len);
        let penalty = b.floor_penalty(&s.rules) - before.floor_penalty(&s.rules);
        if dropped == 0 {
            "nothing falls to the floor".into()
        } else {
            format!("{dropped} to the floor ({})", -penalty)
        }
    }

    fn pattern_line(
        &mut self,
        ui: &mut egui::Ui,
        s: &State,
        p: usize,
        row: usize,
        mine: bool,
    ) -> Option<AzulAction> {
        let b = &s.boards[p];
        let line = b.lines[row];
        let width = 5.0 * TILE;
        let (rect, response) = ui.allocate_exact_size(Vec2::new(width, TILE), Sense::click());
        self.rects.lines.insert((p, row), rect);
        let target = Move {
            source: self.selected.map_or(0, |x| x.0),
            colour: self.selected.map_or(0, |x| x.1),
            target: row as u8,
        };
        let legal = mine && self.selected.is_some() && s.refusal(target).is_none();
        let label = if mine {
            format!("line {}", row + 1)
        } else {
            format!("player {} line {}", p + 1, row + 1)
        };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, legal, &label));
        let painter = ui.painter();
        for i in 0..=row {
            // Right to left: cell 0 is the rightmost.
            let x = rect.right() - (i as f32 + 1.0) * TILE;
            let cell =
                Rect::from_min_size(egui::pos2(x, rect.top()), Vec2::splat(TILE)).shrink(2.0);
            let fill = if i < line.count as usize {
                self.colour(line.colour as usize)
            } else {
                Color32::from_gray(250)
            };
            painter.rect_filled(cell, CornerRadius::same(6), fill);
            painter.rect_stroke(
                cell,
                CornerRadius::same(6),
                Stroke::new(1.0, Color32::GRAY),
                StrokeKind::Inside,
            );
        }
        if legal {
            let stroke = if response.hovered() { 3.0 } else { 1.5 };
            painter.rect_stroke(
                rect,
                CornerRadius::same(4),
                Stroke::new(stroke, GOLD),
                StrokeKind::Outside,
            );
        }
        let placing = s.to_move as usize == p && s.pending_choice().is_some_and(|c| c.0 == row);
        if placing {
            // The line whose tile waits for its wall column.
            let cells = Rect::from_min_max(
                egui::pos2(rect.right() - (row as f32 + 1.0) * TILE, rect.top()),
                rect.max,
            );
            painter.rect_stroke(
                cells,
                CornerRadius::same(4),
                Stroke::new(2.5, GOLD),
                StrokeKind::Outside,
            );
        }
        if legal && response.hovered() {
            response.clone().on_hover_text(self.preview(s, target));
        }
        if legal && response.clicked() {
            return Some(move_to_action(target));
        }
        None
    }

    fn floor_line(
        &mut self,
        ui: &mut egui::Ui,
        s: &State,
        p: usize,
        mine: bool,
    ) -> Option<AzulAction> {
        let b = &s.boards[p];
        let (rect, response) = ui.allocate_exact_size(
            Vec2::new(FLOOR_SLOTS as f32 * FLOOR_CELL, FLOOR_CELL + 14.0),
            Sense::click(),
        );
        self.rects.floors.insert(p, rect);
        let legal = mine && self.selected.is_some();
        let label = if mine {
            "floor".to_string()
        } else {
            format!("player {} floor", p + 1)
        };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, legal, &label));
        let painter = ui.painter();
        // What lies on the floor, marker first.
        let mut tiles: Vec<Option<usize>> = Vec::new();
        if b.marker {
            tiles.push(None);
        }
        for k in 0..COLOURS {
            for _ in 0..b.floor[k] {
                tiles.push(Some(k));
            }
        }
        for slot in 0..FLOOR_SLOTS {
            let cell = Rect::from_min_size(
                egui::pos2(rect.left() + slot as f32 * FLOOR_CELL, rect.top()),
                Vec2::splat(FLOOR_CELL),
            )
            .shrink(2.0);
            let fill = match tiles.get(slot) {
                Some(Some(k)) => self.colour(*k),
                Some(None) => Color32::WHITE,
                None => Color32::from_gray(235),
            };
            painter.rect_filled(cell, CornerRadius::same(5), fill);
            if tiles.get(slot) == Some(&None) {
                painter.text(
                    cell.center(),
                    egui::Align2::CENTER_CENTER,
                    "1",
                    egui::FontId::proportional(14.0),
                    Color32::BLACK,
                );
            }
            painter.text(
                egui::pos2(cell.center().x, rect.bottom() - 6.0),
                egui::Align2::CENTER_CENTER,
                format!("-{}", s.rules.floor_penalties[slot]),
                egui::FontId::proportional(10.0),
                Color32::from_rgb(0xC0, 0x39, 0x2B),
            );
        }
        if legal {
            let stroke = if response.hovered() { 3.0 } else { 1.5 };
            painter.rect_stroke(
                rect,
                CornerRadius::same(4),
                Stroke::new(stroke, GOLD),
                StrokeKind::Outside,
            );
        }
        if legal && let Some((source, colour)) = self.selected {
            let m = Move {
                source,
                colour,
                target: FLOOR,
            };
            if response.hovered() {
                response.clone().on_hover_text(self.preview(s, m));
            }
            if response.clicked() {
                return Some(move_to_action(m));
            }
        }
        None
    }

    /// One source (factory or centre): a tile button per colour present.
    fn source(&mut self, ui: &mut egui::Ui, s: &State, source: u8, can_pick: bool) {
        let counts = if source == CENTRE {
            s.centre
        } else {
            s.factories[source as usize]
        };
        let name = if source == CENTRE {
            "centre".to_string()
        } else {
            format!("factory {}", source + 1)
        };
        let frame = egui::Frame::group(ui.style())
            .corner_radius(CornerRadius::same(if source == CENTRE { 8 } else { 60 }))
            .fill(Color32::from_rgb(0xF5, 0xF5, 0xDC))
            .stroke(Stroke::new(1.5, BROWN))
            .show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.label(RichText::new(&name).small());
                    ui.horizontal(|ui| {
                        if counts.iter().all(|&n| n == 0) {
                            ui.add_sized(Vec2::splat(TILE), egui::Label::new("-"));
                        }
                        for (k, &n) in counts.iter().enumerate() {
                            if n == 0 {
                                continue;
                            }
                            let selected = self.selected == Some((source, k as u8));
                            let size =
                                Vec2::new(TILE + 10.0 * f32::from(n.min(5) - 1).min(3.0), TILE);
                            let (rect, response) = ui.allocate_exact_size(size, Sense::click());
                            let label = format!("{name} {} x{n}", self.colour_name(k));
                            response.widget_info(|| {
                                egui::WidgetInfo::labeled(egui::Role::Button, can_pick, &label)
                            });
                            let hovered = can_pick && response.hovered();
                            let draw = if hovered {
                                rect.expand(2.0)
                            } else {
                                rect.shrink(1.0)
                            };
                            let mut fill = self.colour(k);
                            if !can_pick {
                                fill = fill.gamma_multiply(0.5);
                            }
                            ui.painter().rect_filled(draw, CornerRadius::same(8), fill);
                            ui.painter().text(
                                draw.center(),
                                egui::Align2::CENTER_CENTER,
                                format!("{n}"),
                                egui::FontId::proportional(14.0),
                                Color32::WHITE,
                            );
                            if selected {
                                ui.painter().rect_stroke(
                                    draw,
                                    CornerRadius::same(8),
                                    Stroke::new(3.0, GOLD),
                                    StrokeKind::Outside,
                                );
                            }
                            if can_pick && response.clicked() {
                                self.selected = if selected {
                                    None
                                } else {
                                    Some((source, k as u8))
                                };
                            }
                        }
                    });
                    if source == CENTRE && s.marker_in_centre {
                        ui.label(RichText::new("first-player marker (1)").small());
                    }
                });
            });
        self.rects.sources.insert(source, frame.response.rect);
    }

    /// Starts the animations of a move just played on `before`: its tiles
    /// fly from the source to the line (or floor), full lines' tiles fly
    /// on to the wall after them, and score changes pop up.
    fn animate(&mut self, before: &State, action: &AzulAction) {
        let Some(m) = action_to_move(action) else {
            return;
        };
        if !self.animations {
            return;
        }
        let now = Instant::now();
        let p = before.to_move as usize;
        // A take flies first; the wall tiles follow it.
        let mut wall_start = now;
        if m.wall_row().is_none() {
            let count = before.source_count(m.source, m.colour as usize);
            let target = if m.target == FLOOR {
                self.rects.floors.get(&p)
            } else {
                self.rects.lines.get(&(p, m.target as usize))
            };
            if let (Some(from), Some(to)) = (self.rects.sources.get(&m.source), target) {
                self.flights.push(Flight {
                    from: from.center(),
                    to: to.center(),
                    colour: m.colour as usize,
                    count,
                    start: now,
                });
            }
            wall_start = now + FLIGHT;
        }
        // Every tile new on a wall flew there from its pattern line (both
        // walls; on the grey wall the chosen or only column).
        let after = *self.state();
        for q in 0..after.players as usize {
            let new = after.boards[q].wall & !before.boards[q].wall;
            for row in 0..LINES {
                for column in 0..LINES {
                    if new & (1 << (row * 5 + column)) == 0 {
                        continue;
                    }
                    let colour = after.boards[q].colour_at(row, column).unwrap_or(0);
                    if let (Some(from), Some(to)) = (
                        self.rects.lines.get(&(q, row)),
                        self.rects.walls.get(&(q, row, column)),
                    ) {
                        self.flights.push(Flight {
                            from: from.center(),
                            to: to.center(),
                            colour,
                            count: 1,
                            start: wall_start,
                        });
                    }
                }
            }
        }
        for q in 0..after.players as usize {
            let delta = after.boards[q].score - before.boards[q].score;
            if delta != 0
                && let Some(rect) = self.rects.scores.get(&q)
            {
                self.popups.push(Popup {
                    at: rect.right_center() + Vec2::new(40.0, 0.0),
                    delta,
                    start: wall_start + FLIGHT,
                });
            }
        }
    }

    /// Draws flights and pop-ups above the table; asks for frames while
    /// any runs.
    fn draw_animations(&mut self, ctx: &egui::Context) {
        let now = Instant::now();
        self.flights.retain(|f| now < f.start + FLIGHT);
        self.popups.retain(|p| now < p.start + POPUP);
        if self.flights.is_empty() && self.popups.is_empty() {
            return;
        }
        let painter = ctx.layer_painter(egui::LayerId::new(
            egui::Order::Foreground,
            egui::Id::unique("azul animations"),
        ));
        for f in &self.flights {
            let Some(t) = now.checked_duration_since(f.start) else {
                continue;
            };
            let x = (t.as_secs_f32() / FLIGHT.as_secs_f32()).clamp(0.0, 1.0);
            // ease-in-out
            let e = if x < 0.5 {
                2.0 * x * x
            } else {
                1.0 - (-2.0 * x + 2.0).powi(2) / 2.0
            };
            let at = f.from + (f.to - f.from) * e;
            for i in 0..f.count.min(4) {
                let offset = Vec2::new(f32::from(i) * 6.0, -f32::from(i) * 3.0);
                let rect = Rect::from_center_size(at + offset, Vec2::splat(TILE * 0.8));
                painter.rect_filled(rect, CornerRadius::same(6), self.colour(f.colour));
                painter.rect_stroke(
                    rect,
                    CornerRadius::same(6),
                    Stroke::new(1.5, Color32::WHITE),
                    StrokeKind::Outside,
                );
            }
        }
        for p in &self.popups {
            let Some(t) = now.checked_duration_since(p.start) else {
                continue;
            };
            let x = t.as_secs_f32() / POPUP.as_secs_f32();
            let alpha = if x < 0.6 { 1.0 } else { (1.0 - x) / 0.4 };
            let colour = if p.delta > 0 {
                Color32::from_rgb(0x27, 0xAE, 0x60)
            } else {
                Color32::from_rgb(0xE7, 0x4C, 0x3C)
            };
            let size = 22.0 + 6.0 * (1.0 - (x * 8.0).min(1.0));
            painter.text(
                p.at - Vec2::new(0.0, 24.0 * x),
                egui::Align2::LEFT_CENTER,
                format!("{:+}", p.delta),
                egui::FontId::proportional(size),
                colour.gamma_multiply(alpha.clamp(0.0, 1.0)),
            );
        }
        ctx.request_repaint();
    }

    /// The factories in a ring with the centre in the middle (the seed's
    /// table), sized to the factory count.
    /// What the table asks of the human now: the hint, a grey-wall column
    /// to choose, or where the picked tiles may go.
    fn prompts(&self, ui: &mut egui::Ui, s: &State) {
        if let Some(hint) = self.hint {
            ui.label(
                RichText::new(format!("Hint: {hint}")).color(Color32::from_rgb(0x27, 0xAE, 0x60)),
            );
        }
        if let Some((row, colour, _)) = s.pending_choice()
            && self.human_to_move()
        {
            ui.label(
                RichText::new(format!(
                    "Grey wall: choose the column of line {} ({}): click a highlighted \
                     cell of wall row {}.",
                    row + 1,
                    self.colour_name(colour),
                    row + 1
                ))
                .strong()
                .color(BROWN),
            );
        }
        if let Some((source, colour)) = self.selected {
            let from = if source == CENTRE {
                "the centre".to_string()
            } else {
                format!("factory {}", source + 1)
            };
            ui.label(format!(
                "Picked {} from {from}: click a highlighted pattern line or the floor.",
                self.colour_name(colour as usize)
            ));
        }
    }

    /// The controls, the Balance panel and the message log.
    fn side_panel(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>, log_height: f32) {
        self.controls(ui, cx);
        ui.collapsing("Balance (AI against AI)", |ui| {
            self.balance.ui(ui, cx.project.root().to_path_buf());
        });
        ui.separator();
        ui.label(RichText::new("Messages").strong());
        egui::ScrollArea::vertical()
            .id_salt("azul log")
            .max_height(log_height)
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for (text, is_error) in &self.log {
                    let mut t = RichText::new(text).monospace();
                    if *is_error {
                        t = t.color(Color32::from_rgb(0xE7, 0x4C, 0x3C));
                    }
                    ui.label(t);
                }
            });
    }

    fn factory_ring(&mut self, ui: &mut egui::Ui, s: &State, can_pick: bool) {
        let n = s.factory_count as usize;
        let (rx, ry) = ring_radii(s.factory_count);
        let (area, _) = ui.allocate_exact_size(ring_size(s.factory_count), Sense::hover());
        ui.painter().rect_filled(
            area,
            CornerRadius::same(12),
            Color32::from_rgb(0xF5, 0xF5, 0xDC).gamma_multiply(0.6),
        );
        let centre = area.center();
        // Child uis that do not move the parent's cursor: what follows the
        // ring starts below all of it.
        let place = |ui: &mut egui::Ui, rect: Rect, source: u8, this: &mut Self| {
            let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
            child.vertical_centered(|ui| this.source(ui, s, source, can_pick));
        };
        for f in 0..n {
            let angle = -std::f32::consts::FRAC_PI_2 + f as f32 * std::f32::consts::TAU / n as f32;
            let at = centre + Vec2::new(angle.cos() * rx, angle.sin() * ry);
            place(ui, Rect::from_center_size(at, FACTORY_CELL), f as u8, self);
        }
        let rect = Rect::from_center_size(
            centre,
            Vec2::new(FACTORY_CELL.x + 40.0, FACTORY_CELL.y + 20.0),
        );
        place(ui, rect, CENTRE, self);
    }

    /// The end of the game: a gold "Victory" or a grey "Defeat" over the
    /// table, with the scores and a new game.
    fn end_screen(&mut self, ctx: &egui::Context) {
        if self.game.turn() != Turn::Over {
            return;
        }
        let human = self.human_seat();
        let outcome = self.game.game().outcome();
        let won = match &outcome {
            Outcome::Won => true,
            Outcome::Winner(p) => Some(*p) == human,
            Outcome::Shared(seats) => human.is_some_and(|h| seats.contains(&h)),
            _ => false,
        };
        let (title, colour, fill) = if won {
            (
                "Victory",
                GOLD,
                Color32::from_rgba_unmultiplied(60, 45, 0, 235),
            )
        } else {
            (
                "Defeat",
                Color32::from_gray(200),
                Color32::from_rgba_unmultiplied(40, 40, 40, 235),
            )
        };
        let scores = self.game.game().scores();
        egui::Area::new(egui::Id::unique("azul end screen"))
            .anchor(egui::Align2::CENTER_CENTER, Vec2::ZERO)
            .order(egui::Order::Foreground)
            .show(ctx, |ui| {
                egui::Frame::new()
                    .fill(fill)
                    .stroke(Stroke::new(3.0, colour))
                    .corner_radius(CornerRadius::same(16))
                    .inner_margin(24.0)
                    .show(ui, |ui| {
                        // Wide enough for the title: an area's first frame
                        // measures narrow, and "Victory" wrapped there.
                        ui.set_min_width(260.0);
                        ui.vertical_centered(|ui| {
                            ui.add(
                                egui::Label::new(
                                    RichText::new(title).size(48.0).strong().color(colour),
                                )
                                .wrap_mode(egui::TextWrapMode::Extend),
                            );
                            ui.label(
                                RichText::new(outcome_words(&outcome))
                                    .size(16.0)
                                    .color(Color32::WHITE),
                            );
                            for (p, score) in scores.iter().enumerate() {
                                let who = if Some(p) == human { " (you)" } else { "" };
                                ui.label(
                                    RichText::new(format!("Player {}{who}: {score}", p + 1))
                                        .size(16.0)
                                        .color(Color32::WHITE),
                                );
                            }
                            if ui.button("New game").clicked() {
                                self.new_game(true);
                            }
                            if ui.button("Play the same deal again").clicked() {
                                self.new_game(false);
                            }
                            if ui.button("Undo last move").clicked() {
                                self.undo();
                            }
                        });
                    });
            });
    }

    fn controls(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("New game")
                .on_hover_text("A new deal (the next seed); the seats are the playtest's")
                .clicked()
            {
                self.new_game(true);
            }
            if ui
                .add_enabled(self.game.can_undo(), egui::Button::new("Undo"))
                .on_hover_text("Take back your last move and the AI replies since (Ctrl+Z)")
                .clicked()
            {
                self.undo();
            }
            if ui
                .add_enabled(
                    self.human_to_move() && self.hint_job.is_none(),
                    egui::Button::new("Hint"),
                )
                .clicked()
            {
                self.ask_hint();
            }
            if ui.button("Save").clicked() {
                self.save(cx);
            }
            if ui.button("Load").clicked() {
                self.load(cx);
            }
            if ui.button("Export record").clicked() {
                self.export_record(cx);
            }
        });
        ui.collapsing("Rules", |ui| {
            ui.label(
                "Take every tile of one colour from a factory (the rest go to the centre) or \
                 from the centre (the first to do so takes the first-player marker). Place them \
                 on one pattern line, right to left, one colour per line, never a colour the \
                 wall row already holds; the rest fall to the floor. When the table is empty, \
                 each full line puts one tile on the wall and scores it with its horizontal and \
                 vertical runs; the floor costs points. The game ends after the round in which a \
                 wall row is completed: +2 per row, +7 per column, +10 per colour.",
            );
            if self.state().rules.grey_wall {
                ui.label(
                    RichText::new(
                        "Grey wall (variant): the wall has no printed pattern. When a line is \
                         full at tiling time, you choose the column of its row for its tile: \
                         a free cell whose column does not hold that colour yet (each colour \
                         once per row and once per column). A line whose colour fits no \
                         column falls to the floor. A line only takes a colour that some \
                         column of its row can still take.",
                    )
                    .strong(),
                );
            }
        });
    }
}

/// The room one factory takes in the ring.
const FACTORY_CELL: Vec2 = Vec2::new(190.0, 78.0);

/// The narrowest the controls and messages get beside the ring.
const SIDE_PANEL_MIN: f32 = 360.0;

/// The ring's radii: an ellipse wide enough that no factory overlaps the
/// centre or its neighbours (5, 7 or 9 factories).
fn ring_radii(factories: u8) -> (f32, f32) {
    let rx = (f32::from(factories) * FACTORY_CELL.x / std::f32::consts::TAU * 1.3).max(240.0);
    (rx, (rx * 0.5).max(120.0))
}

/// The room the factory ring takes.
fn ring_size(factories: u8) -> Vec2 {
    let (rx, ry) = ring_radii(factories);
    Vec2::new(2.0 * rx + FACTORY_CELL.x, 2.0 * ry + FACTORY_CELL.y + 20.0)
}

fn outcome_words(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Won => "The scenario's goal is met.".into(),
        Outcome::Lost => "The scenario's goal is missed.".into(),
        other => other.to_string(),
    }
}

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
        if self.ai_to_move() || self.hint_job.is_some() || !self.flights.is_empty() {
            ui.ctx().request_repaint_after(Duration::from_millis(50));
        }
        let s = *self.state();
        let can_pick = self.human_to_move() && !s.tiling;
        let mut chosen = None;
        egui::ScrollArea::both().show(ui, |ui| {
            ui.heading("Azul");
            self.status_bar(ui);
            ui.separator();
            ui.horizontal_top(|ui| {
                for p in 0..s.players as usize {
                    if let Some(a) = self.board(ui, p) {
                        chosen = Some(a);
                    }
                }
            });
            ui.separator();
            // Wide enough: controls and messages beside the ring, so the
            // whole table fits one screen; else below it.
            let beside = ui.available_width() >= ring_size(s.factory_count).x + SIDE_PANEL_MIN;
            if beside {
                ui.horizontal_top(|ui| {
                    self.factory_ring(ui, &s, can_pick);
                    ui.separator();
                    ui.vertical(|ui| {
                        self.prompts(ui, &s);
                        self.side_panel(ui, cx, 280.0);
                    });
                });
            } else {
                self.factory_ring(ui, &s, can_pick);
                self.prompts(ui, &s);
                ui.separator();
                self.side_panel(ui, cx, 160.0);
            }
        });
        if let Some(action) = chosen
            && action_to_move(&action).is_some()
        {
            self.play(action);
        }
        self.draw_animations(ui.ctx());
        self.end_screen(ui.ctx());
    }
}
