//! The end screen: final scores, the winner or the scenario's goal, and a
//! new game.

use egui::{Color32, CornerRadius, RichText, Stroke, Vec2};
use tessera_host::{Game, Outcome, Turn};

use super::{AzulPlaytest, GOLD};

impl AzulPlaytest {
    /// The end of the game: a gold "Victory" or a grey "Defeat" over the
    /// table, with the scores and a new game.
    pub(super) fn end_screen(&mut self, ctx: &egui::Context) {
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
}

fn outcome_words(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Won => "The scenario's goal is met.".into(),
        Outcome::Lost => "The scenario's goal is missed.".into(),
        other => other.to_string(),
    }
}
