//! The end card: the result, final scores and a new game, drawn inside the
//! table in the factory ring's room (empty once the game is over), so the
//! boards and controls do not move. It never covers the final boards, the
//! New game controls or anything outside the playtest panel, and it can be
//! closed (its × button or Escape) to look at the table.

use egui::{Color32, CornerRadius, RichText, Stroke};
use tessera_host::{Game, Outcome, Reports, Turn};

use super::{AzulPlaytest, GOLD};

impl AzulPlaytest {
    /// The end card, when the game is over and the designer has not closed
    /// it: a gold "Victory" or a grey "Defeat" ("Game over" when only AIs
    /// played), the scores, New game, the
    /// same deal again and Undo (`compact`, a docked table: the same deal
    /// again only, New game and Undo being just below it).
    /// Draws it in a room of `size` at `ui`'s cursor; returns whether it
    /// was drawn (else the room is left to the factory ring).
    pub(super) fn end_card_in(
        &mut self,
        ui: &mut egui::Ui,
        size: egui::Vec2,
        compact: bool,
    ) -> bool {
        if self.game.turn() != Turn::Over || self.end_card_closed {
            return false;
        }
        if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.end_card_closed = true;
            return false;
        }
        let room = egui::Rect::from_min_size(ui.cursor().min, size.min(ui.available_size()));
        tessera_ui::slot::in_rect(ui, room, |ui| self.end_card(ui, compact));
        true
    }

    fn end_card(&mut self, ui: &mut egui::Ui, compact: bool) {
        let human = self.human_seat();
        let outcome = self.game.game().outcome();
        let won = match &outcome {
            Outcome::Won => true,
            Outcome::Winner(p) => Some(*p) == human,
            Outcome::Shared(seats) => human.is_some_and(|h| seats.contains(&h)),
            _ => false,
        };
        let between_ais = human.is_none() && !matches!(outcome, Outcome::Won | Outcome::Lost);
        let (title, colour, fill) = if between_ais {
            ("Game over", Color32::from_gray(235), Color32::from_gray(45))
        } else if won {
            ("Victory", GOLD, Color32::from_rgb(60, 45, 0))
        } else {
            ("Defeat", Color32::from_gray(220), Color32::from_gray(45))
        };
        let scores = self.game.game().scores();
        egui::Frame::new()
            .fill(fill)
            .stroke(Stroke::new(2.0, colour))
            .corner_radius(CornerRadius::same(10))
            .inner_margin(12.0)
            .show(ui, |ui| {
                // The card's text wraps inside its room (a docked playtest
                // is narrow), leaving the close button its place.
                let text_width = (ui.available_width() - 36.0).max(120.0);
                ui.horizontal_top(|ui| {
                    ui.vertical(|ui| {
                        ui.set_max_width(text_width);
                        ui.horizontal_wrapped(|ui| {
                            ui.add(
                                egui::Label::new(
                                    RichText::new(title).size(32.0).strong().color(colour),
                                )
                                .wrap_mode(egui::TextWrapMode::Extend),
                            );
                            ui.label(
                                RichText::new(outcome_words(&outcome))
                                    .size(15.0)
                                    .color(Color32::WHITE),
                            );
                        });
                        let line: Vec<String> = scores
                            .iter()
                            .enumerate()
                            .map(|(p, score)| {
                                let who = if Some(p) == human { " (you)" } else { "" };
                                format!("Player {}{who}: {score}", p + 1)
                            })
                            .collect();
                        // A score each, so a narrow card wraps between
                        // players, never inside one's score.
                        ui.horizontal_wrapped(|ui| {
                            ui.spacing_mut().item_spacing.x = 14.0;
                            for score in line {
                                ui.add(
                                    egui::Label::new(
                                        RichText::new(score).size(15.0).color(Color32::WHITE),
                                    )
                                    .wrap_mode(egui::TextWrapMode::Extend),
                                );
                            }
                        });
                        ui.horizontal_wrapped(|ui| {
                            if !compact && ui.button("New game").clicked() {
                                self.new_game(true);
                            }
                            if ui.button("Play the same deal again").clicked() {
                                self.new_game(false);
                            }
                            if !compact && ui.button("Undo last move").clicked() {
                                self.undo();
                            }
                        });
                    });
                    if ui
                        .button(RichText::new("×").size(18.0))
                        .on_hover_text("Close (Esc): look at the final table")
                        .clicked()
                    {
                        self.end_card_closed = true;
                    }
                });
            });
    }
}

fn outcome_words(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Won => "The scenario's goal is met.".into(),
        Outcome::Lost => "The scenario's goal is missed.".into(),
        other => other.to_string(),
    }
}
