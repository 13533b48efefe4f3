//! The tetris playtest view: keyboard play on the engine's game, with the
//! ghost, preview, hold box, score panel, goal progress, the seed's "OVER"
//! screen and a win screen, plus speed and single-step controls.
//!
//! Keys become the game's actions (arrows press and release keys, so the
//! engine's DAS/ARR do the auto-repeat in ticks); time becomes `Tick`s at
//! the script's ticks per second times the speed. Every action goes
//! through the recorded session, so a playtest is a replay.

use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, StrokeKind, vec2};

use tessera_host::{Game, LiveScript, Outcome, Recorded, SessionOptions};
use tessera_tetris::level::{GARBAGE_COLOUR, TetrisLevel};
use tessera_tetris::piece::{PieceKind, orientation};
use tessera_tetris::rules::Key;
use tessera_tetris::{Tetris, TetrisAction};

use crate::playtest::{ConsoleLine, PlaytestContext, PlaytestView};

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
        // The pentomino specials of feed mode: one bright family.
        9..=16 => Color32::from_rgb(230, 110, 190),
        _ => Color32::from_gray(24),
    }
}

/// The interactive tetris view.
pub struct TetrisPlaytest {
    level: TetrisLevel,
    script: LiveScript,
    seed: u64,
    seed_input: u64,
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
}

impl TetrisPlaytest {
    /// A new game on `level` with `seed`.
    pub fn new(level: TetrisLevel, script: LiveScript, seed: u64) -> anyhow::Result<Self> {
        let session = Recorded::start(level, script, seed, &SessionOptions::default())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(Self::from_session(session))
    }

    /// A view on a session that already ran (a replay opened at a step, or
    /// one started with chosen options): play goes on from where it stands.
    pub fn from_session(session: Recorded<Tetris>) -> Self {
        let seed = session.seed();
        Self {
            level: session.replay().level.clone(),
            script: session.script().clone(),
            seed,
            seed_input: seed,
            session,
            speed: 1.0,
            frozen: false,
            carry: 0.0,
            board_rect: Rect::NOTHING,
            cell_px: 24.0,
            board_id: None,
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

    /// Starts over with `seed`.
    pub fn restart(&mut self, seed: u64) -> anyhow::Result<()> {
        let fresh = Self::new(self.level.clone(), self.script.clone(), seed)?;
        let (speed, frozen) = (self.speed, self.frozen);
        *self = Self {
            speed,
            frozen,
            ..fresh
        };
        Ok(())
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

    fn advance_time(&mut self, dt: f64) {
        let game = self.session.game();
        if self.frozen || game.field().is_paused() || game.outcome().is_over() {
            return;
        }
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
            if event.text.starts_with("lock ") {
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
        let avail = ui.available_height().max(300.0) - 20.0;
        self.cell_px = (avail / h as f32).clamp(10.0, 32.0);
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
        painter.rect_filled(rect, 0.0, Color32::from_gray(16));
        if hidden > 0 {
            painter.rect_filled(
                Rect::from_min_size(rect.min, vec2(size.x, hidden as f32 * cell)),
                0.0,
                Color32::from_gray(34),
            );
        }
        let colours = game.field().colours();
        for y in 0..h {
            for x in 0..w {
                let code = colours[y * w + x];
                if code != 0 {
                    Self::paint_cell(&painter, cell_rect(x as i32, y as i32), cell_colour(code));
                }
            }
        }
        if !game.outcome().is_over() {
            if let Some(ghost) = game.field().ghost() {
                let colour = cell_colour(ghost.kind.colour());
                for (x, y) in ghost.placement().cells() {
                    painter.rect_stroke(
                        cell_rect(x, y).shrink(2.0),
                        2.0,
                        Stroke::new(1.5, colour.gamma_multiply(0.7)),
                        StrokeKind::Inside,
                    );
                }
            }
            if let Some(active) = game.field().active() {
                for (x, y) in active.placement().cells() {
                    Self::paint_cell(&painter, cell_rect(x, y), cell_colour(active.kind.colour()));
                }
            }
        }
        painter.rect_stroke(
            rect,
            0.0,
            Stroke::new(1.0, Color32::from_gray(90)),
            StrokeKind::Outside,
        );
        let outcome = game.outcome();
        if outcome == Outcome::Lost {
            // The seed's failure screen: the field cleared, "OVER" shown.
            painter.rect_filled(rect, 0.0, Color32::from_gray(16));
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                "OVER",
                FontId::monospace(cell * 2.5),
                Color32::WHITE,
            );
        } else if outcome == Outcome::Won {
            painter.rect_filled(rect, 0.0, Color32::from_black_alpha(170));
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                "YOU WIN",
                FontId::proportional(cell * 1.6),
                Color32::from_rgb(255, 220, 90),
            );
        } else if game.field().is_paused() {
            painter.rect_filled(rect, 0.0, Color32::from_black_alpha(150));
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                "PAUSED",
                FontId::proportional(cell * 1.4),
                Color32::WHITE,
            );
        }
        if outcome.is_over() {
            let button =
                Rect::from_center_size(rect.center() + vec2(0.0, cell * 2.5), vec2(120.0, 26.0));
            if ui.put(button, egui::Button::new("Play again")).clicked() {
                let seed = self.seed.wrapping_add(1);
                self.seed_input = seed;
                let _ = self.restart(seed);
            }
        }
    }

    fn mini_piece(ui: &mut egui::Ui, kind: Option<PieceKind>, label: &str) {
        let cell = 12.0;
        let (response, painter) =
            ui.allocate_painter(vec2(4.0 * cell + 8.0, 2.0 * cell + 8.0), Sense::hover());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, label));
        painter.rect_filled(response.rect, 3.0, Color32::from_gray(28));
        if let Some(kind) = kind {
            let o = orientation(kind, 0);
            let offset = vec2(
                (4.0 - f32::from(o.width as u8)) * cell / 2.0 + 4.0,
                (2.0 - f32::from(o.height as u8)) * cell / 2.0 + 4.0,
            );
            for &(x, y) in o.cells() {
                let at = response.rect.min
                    + offset
                    + vec2(f32::from(x - o.left) * cell, f32::from(y - o.top) * cell);
                painter.rect_filled(
                    Rect::from_min_size(at, vec2(cell, cell)).shrink(0.5),
                    1.5,
                    cell_colour(kind.colour()),
                );
            }
        }
    }

    fn panel_ui(&mut self, ui: &mut egui::Ui) {
        ui.set_min_width(220.0);
        let game = self.session.game();
        ui.heading(format!("Score {}", game.score()));
        ui.label(format!("Level {}", game.level_number()));
        ui.label(format!("Lines {}", game.lines()));
        ui.label(format!("pieces {}", game.field().locked()));
        let (done, needed) = game.goal_progress();
        ui.label(format!("Goal: {}", game.level().goal));
        ui.add(
            egui::ProgressBar::new(if needed == 0 {
                1.0
            } else {
                (done as f32 / needed as f32).min(1.0)
            })
            .text(format!("{done} / {needed}")),
        );
        if let Some(reason) = game.over_reason() {
            ui.label(reason);
        }
        ui.separator();
        ui.label("Next");
        let next: Vec<PieceKind> = game.field().queue().collect();
        for (i, kind) in next.iter().enumerate() {
            Self::mini_piece(ui, Some(*kind), &format!("next {}", i + 1));
        }
        if game.field().config().hold {
            ui.label("Hold");
            Self::mini_piece(ui, game.field().held_piece(), "hold");
        }
        ui.separator();
        ui.label(format!(
            "rotation {}  ·  tick {}",
            game.rotation(),
            game.field().ticks()
        ));
        ui.add(
            egui::Slider::new(&mut self.speed, 0.1..=4.0)
                .logarithmic(true)
                .text("speed")
                .suffix("x"),
        );
        ui.horizontal(|ui| {
            let label = if self.frozen { "Run" } else { "Freeze" };
            if ui.button(label).clicked() {
                self.frozen = !self.frozen;
            }
            if ui.button("Step 1 tick").clicked() {
                self.frozen = true;
                let _ = self.session.apply(&TetrisAction::Tick(1));
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("seed");
            ui.add(egui::DragValue::new(&mut self.seed_input))
                .labelled_by(label.id);
            if ui.button("Restart").clicked() {
                let seed = self.seed_input;
                let _ = self.restart(seed);
            }
        });
        ui.separator();
        ui.small("Left/Right move, Down soft drop, Up or X rotate, Z rotate back, Space hard drop, C hold, P pause");
    }
}

impl PlaytestView for TetrisPlaytest {
    fn session(&self) -> Option<&dyn tessera_host::Session> {
        Some(&self.session)
    }

    fn session_mut(&mut self) -> Option<&mut dyn tessera_host::Session> {
        Some(&mut self.session)
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        let dt = ui.input(|i| i.stable_dt).clamp(0.0, 0.1);
        self.keys(ui, cx);
        self.advance_time(f64::from(dt));
        self.collect_events(cx);
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| self.board_ui(ui));
            ui.vertical(|ui| self.panel_ui(ui));
        });
        ui.ctx().request_repaint();
    }
}
