//! The tetris playtest's side panel (score or feed offer, speed, restart),
//! the end screens drawn over the board, the HUD and version line under
//! it, the toolbar and the AI log window's content.

use egui::{Color32, FontId, Rect, Sense, vec2};
use tessera_host::{Game, Outcome};
use tessera_tetris::TetrisAction;
use tessera_tetris::piece::PieceKind;
use tessera_ui::text::thousands;

use super::{PANEL_MIN_WIDTH, PANEL_WIDTH, TetrisPlaytest};
use crate::ai_log;
use crate::feed::{self, FeedTurn};
use tessera_ui::{PlaytestContext, ViewRequest};

impl TetrisPlaytest {
    /// Over the board at the end (feed verdicts, the failure screen,
    /// "YOU WIN") or while paused, and the new-game buttons at the end. The
    /// reason the game ended is a subtitle wrapped inside the board, so it
    /// is never cut off and never shifts the side panel's buttons.
    pub(super) fn end_overlay(&mut self, ui: &mut egui::Ui, painter: &egui::Painter, rect: Rect) {
        let game = self.session.game();
        let feed = game.feed_state();
        let cell = self.cell_px;
        let outcome = game.outcome();
        let ended = outcome.is_over() && self.ai_move.is_none();
        let mut title: Option<(String, FontId, Color32)> = None;
        if ended && feed.is_some() {
            let human_feeds = self.session.options().ai_level(0).is_none();
            if let Some((words, colour)) = feed::end_words(&outcome, human_feeds) {
                painter.rect_filled(rect, 0.0, Color32::from_black_alpha(170));
                title = Some((words.to_string(), FontId::proportional(cell * 1.6), colour));
            }
        } else if ended && outcome == Outcome::Lost {
            // The seed's failure screen: the field cleared, "OVER" shown.
            painter.rect_filled(rect, 0.0, Color32::from_gray(16));
            title = Some(("OVER".into(), FontId::monospace(cell * 2.5), Color32::WHITE));
        } else if ended && outcome == Outcome::Won {
            painter.rect_filled(rect, 0.0, Color32::from_black_alpha(170));
            title = Some((
                "YOU WIN".into(),
                FontId::proportional(cell * 1.6),
                Color32::from_rgb(255, 220, 90),
            ));
        } else if game.field().is_paused() {
            painter.rect_filled(rect, 0.0, Color32::from_black_alpha(150));
            title = Some((
                "PAUSED".into(),
                FontId::proportional(cell * 1.4),
                Color32::WHITE,
            ));
        }
        let reason = ended.then(|| game.over_reason()).flatten();
        // One column over the board, its top where the title always was:
        // the title, the reason wrapped to the board's width, then the
        // new-game buttons, each below the last. Placed apart at fixed
        // offsets, a reason of two or three lines reached up over "OVER"
        // (and down over the buttons) in a small board. A child Ui: the
        // card is over the board and takes no room after it.
        let top = (rect.center().y - cell * 2.9).max(rect.top() + 4.0);
        let column = Rect::from_min_max(
            egui::pos2(rect.left() + 8.0, top),
            rect.max - vec2(8.0, 0.0),
        );
        let mut card = ui.new_child(
            egui::UiBuilder::new()
                .max_rect(column)
                .layout(egui::Layout::top_down(egui::Align::Center)),
        );
        card.shrink_clip_rect(rect);
        if let Some((words, font, colour)) = title {
            card.add(
                egui::Label::new(egui::RichText::new(words).font(font).color(colour)).extend(),
            );
        }
        if let Some(reason) = reason {
            card.add(
                egui::Label::new(egui::RichText::new(reason).size(12.0).color(Color32::WHITE))
                    .wrap(),
            );
        }
        if ended {
            card.add_space(cell * 0.5);
            let top = card.cursor().top();
            let button =
                Rect::from_min_size(egui::pos2(rect.center().x - 60.0, top), vec2(120.0, 26.0));
            if let Some(request) = tessera_ui::play_again_buttons(&mut card, button, self.seed) {
                self.request = Some(request);
            }
        }
    }

    /// Under the board: the HUD (S) and the version line (V).
    pub(super) fn under_board(&mut self, ui: &mut egui::Ui) {
        if self.show_hud {
            // Under the board, so it hides neither the ceiling nor the stack.
            let game = self.session.game();
            let lines = ai_log::hud_lines(
                game.field().board(),
                game.field().danger_rows(),
                self.prediction.as_ref(),
            );
            ui.add_space(4.0);
            // As wide as the board, wrapping: a line wider than a docked
            // board would widen its column and push the side panel off.
            let width = self.board_rect.width().max(120.0);
            ui.allocate_ui(egui::vec2(width, 0.0), |ui| {
                ui.set_max_width(width);
                for line in lines {
                    ui.add(
                        egui::Label::new(
                            egui::RichText::new(line)
                                .monospace()
                                .size(11.0)
                                .color(Color32::from_rgb(255, 235, 80)),
                        )
                        .wrap(),
                    );
                }
            });
        }
        if self.show_version {
            ui.weak(ai_log::version_line());
        }
    }

    pub(super) fn mini_piece(ui: &mut egui::Ui, kind: Option<PieceKind>, label: &str) {
        let cell = 12.0;
        let (response, painter) =
            ui.allocate_painter(vec2(5.0 * cell + 8.0, 3.0 * cell + 8.0), Sense::hover());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, label));
        painter.rect_filled(response.rect, 3.0, Color32::from_gray(28));
        if let Some(kind) = kind {
            feed::paint_piece(&painter, response.rect, kind, cell);
        }
    }

    /// The row of toggles above the board: AI log, HUD, version, Balance.
    pub(super) fn toolbar_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.toggle_value(&mut self.show_log, "📜 AI log (S)")
                .on_hover_text("The last AI decision: board, order, decidedBy, top candidates with every metric");
            ui.toggle_value(&mut self.show_hud, "🔍 HUD (D)")
                .on_hover_text("HOLES(+NEW) / BLOCK / WELLS and the AI's predicted landing (PRED)");
            ui.toggle_value(&mut self.show_version, "V")
                .on_hover_text("The version line (V)");
            ui.toggle_value(&mut self.balance.open, "⚖ Balance")
                .on_hover_text("Simulate games per difficulty and plot win rate and lines");
            // One line, elided: a wrapped move line made the row taller
            // and the board under it smaller, so the panel beside moved.
            if let Some(shown) = &self.ai_move {
                let line = format!("AI: {} {}", shown.target().kind, shown.path_text());
                ui.add(egui::Label::new(egui::RichText::new(line).weak()).truncate());
            }
        });
    }

    /// The feed game's panel; returns the piece the player gave.
    pub(super) fn feed_panel_ui(&mut self, ui: &mut egui::Ui) -> Option<PieceKind> {
        let pace_ms = self.pace_ms();
        let game = self.session.game();
        let feed = game.feed_state()?;
        let turn = if game.outcome().is_over() {
            FeedTurn::Over
        } else if self.ai_move.is_some() || game.field().active().is_some() {
            FeedTurn::AiPlaces
        } else if self.session.options().ai_level(0).is_some() {
            FeedTurn::FeederChooses
        } else {
            FeedTurn::Choose
        };
        // The reason the game ended is on the board (`end_overlay`).
        feed::feed_panel(ui, feed, game.lines(), turn, pace_ms)
    }

    pub(super) fn classic_panel_ui(&mut self, ui: &mut egui::Ui) {
        let game = self.session.game();
        ui.heading(format!("Score {}", thousands(game.score())));
        ui.label(format!("Level {}", game.level_number()));
        ui.label(format!("Lines {}", thousands(game.lines())));
        ui.label(format!("Pieces {}", thousands(game.field().locked())));
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
        if let Some(level) = self.session.options().ai_level(0) {
            ui.label(format!("AI plays: {level}"));
        }
        ui.separator();
        ui.label("Next");
        // One box per preview slot, empty when the sequence runs out, so
        // the panel below keeps its place.
        let mut next = game.field().queue();
        for i in 0..game.field().config().preview {
            Self::mini_piece(ui, next.next(), &format!("next {}", i + 1));
        }
        if game.field().config().hold {
            ui.label("Hold");
            Self::mini_piece(ui, game.field().held_piece(), "hold");
        }
    }

    pub(super) fn panel_ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        // As wide as the room beside the board (within bounds): wider
        // content would push the docked playtest panel wider every frame.
        let width = ui.available_width().clamp(PANEL_MIN_WIDTH, PANEL_WIDTH);
        ui.set_min_width(width);
        ui.set_max_width(width);
        if self.game().feed_state().is_some() {
            if let Some(kind) = self.feed_panel_ui(ui) {
                self.act(TetrisAction::Feed(kind), cx);
            }
        } else {
            self.classic_panel_ui(ui);
        }
        ui.separator();
        let game = self.session.game();
        // AI and feed games go piece by piece, not by the clock.
        let clock = if self.ai_places() || game.feed_state().is_some() {
            format!("piece {}", game.field().locked() + 1)
        } else {
            format!("tick {}", game.field().ticks())
        };
        ui.label(format!("rotation {}  ·  {clock}", game.rotation()));
        tessera_ui::speed_slider(ui, &mut self.speed)
            .on_hover_text("Game speed; with an AI, how fast its moves are shown");
        ui.horizontal(|ui| {
            let label = if self.frozen { "Run" } else { "Freeze" };
            if ui.button(label).clicked() {
                self.frozen = !self.frozen;
            }
            if !self.ai_places() && ui.button("Step 1 tick").clicked() {
                self.frozen = true;
                let _ = self.session.apply(&TetrisAction::Tick(1));
            }
        });
        // The seed is chosen in the playtest toolbar (one seed field).
        if ui
            .button(format!("Restart (seed {})", self.seed))
            .on_hover_text("Start over with the same seed; change it in the playtest toolbar")
            .clicked()
        {
            self.request = Some(ViewRequest::NewGame { seed: None });
        }
        ui.separator();
        if self.game().feed_state().is_some() {
            ui.small("Click a piece to give it to the AI. S AI log, D HUD, V version.");
        } else if self.ai_places() {
            ui.small("The AI plays. S AI log, D HUD, V version.");
        } else {
            ui.small("Left/Right move, Down soft drop, Up or X rotate, Z rotate back, Space hard drop, C hold, P pause; S AI log, D HUD, V version");
        }
    }

    pub(super) fn log_ui(&mut self, ui: &mut egui::Ui) {
        let log = self.session.last_explanation();
        if ai_log::log_panel(ui, log, &mut self.log_copied) {
            self.show_log = false;
        }
    }
}
