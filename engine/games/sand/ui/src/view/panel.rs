//! The side panel (score, chain, seed, restart) and the end card (game
//! over, or a tray level won).

use egui::{Align2, Color32, FontId, Rect, vec2};
use tessera_host::{Game, Outcome};
use tessera_sand::ClearPhase;
use tessera_ui::text::thousands;

use tessera_ui::ViewRequest;

use super::SandPlaytest;

/// The most clears the side panel lists, newest first.
const RECENT_CLEARS: usize = 6;

/// The clears a short panel still lists (the debug overlays folded).
const CLEARS_SHOWN: usize = 3;

impl SandPlaytest {
    pub(super) fn panel_ui(&mut self, ui: &mut egui::Ui) {
        ui.set_min_width(super::PANEL_WIDTH);
        ui.heading(format!("Score {}", self.session.game().score()));
        let chain = self.session.game().chain();
        ui.label(if chain > 0 {
            format!("Chain x{chain}")
        } else {
            "Chain -".to_string()
        });
        let state = match (
            self.session.game().outcome(),
            self.session.game().clear_phase(),
        ) {
            (Outcome::Lost, _) => "game over",
            (Outcome::Won, _) => "level won",
            (_, Some(ClearPhase::Flash { .. })) => "clear: flash",
            (_, Some(ClearPhase::Burst { .. })) => "clear: burst",
            _ if !self.session.game().grid().is_settled() => "grains falling",
            _ => "settled",
        };
        ui.label(format!(
            "tick {}  ·  {state}",
            thousands(self.session.game().tick())
        ));
        ui.label(format!(
            "pieces placed {}",
            thousands(self.session.game().placed())
        ));
        ui.separator();
        tessera_ui::speed_slider(ui, &mut self.speed);
        ui.horizontal(|ui| {
            let label = if self.paused { "Resume" } else { "Pause" };
            if ui.button(label).clicked() {
                self.paused = !self.paused;
            }
            if ui.button("Step 1 tick").clicked() {
                self.paused = true;
                let _ = self.session.advance(1);
            }
        });
        ui.separator();
        // The seed is chosen in the playtest toolbar (one seed field).
        if ui
            .button(format!("Restart (seed {})", self.seed))
            .on_hover_text("Start over with the same seed; change it in the playtest toolbar")
            .clicked()
        {
            self.request = Some(ViewRequest::NewGame { seed: None });
        }
        ui.separator();
        // A short panel (docked at 1280 x 800) folds the debug overlays
        // away, so the recent clears keep room for CLEARS_SHOWN lines
        // (the check boxes left them one).
        let line = tessera_ui::slot::lines_height(ui, 1);
        let separator = 6.0 + ui.spacing().item_spacing.y;
        let unfolded = line * (5 + 1 + CLEARS_SHOWN) as f32 + separator;
        if ui.available_height() >= unfolded {
            ui.label("Debug overlays");
            self.overlay_boxes(ui);
        } else {
            egui::CollapsingHeader::new("Debug overlays")
                .default_open(false)
                .show(ui, |ui| self.overlay_boxes(ui));
        }
        ui.separator();
        ui.label("Recent clears");
        // A slot of as many lines as the panel has room for, six at most:
        // in a docked playtest at 1280 x 800 the six lines ran under the
        // console (the third was cut in half).
        let room = (ui.available_height() / line).floor();
        let lines = if room.is_finite() {
            (room as usize).clamp(1, RECENT_CLEARS)
        } else {
            RECENT_CLEARS
        };
        tessera_ui::slot::line_slot(ui, lines, |ui| {
            for round in self.session.game().chain_log().iter().rev().take(lines) {
                ui.label(format!(
                    "tick {}  x{}  {} grains  +{}",
                    round.tick,
                    round.chain,
                    round.clusters.iter().map(|c| c.grains).sum::<u32>(),
                    round.points()
                ));
            }
        });
        // The seed is on the Restart button: a line under the clears,
        // which grow, moved down at each of the first six.
    }

    /// The debug overlays' switches.
    fn overlay_boxes(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(&mut self.overlays.logical_grid, "logical grid");
        ui.checkbox(&mut self.overlays.awake, "awake grains");
        ui.checkbox(&mut self.overlays.cluster, "cluster outline");
        ui.checkbox(&mut self.overlays.stats, "grain count and FPS");
    }

    /// The card over the board at the game's end: "Game over", or "Level
    /// won" when a tray level's clears are made (it said nothing then).
    pub(super) fn game_over_ui(&mut self, ui: &mut egui::Ui, rect: Rect, won: bool) {
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, Color32::from_black_alpha(170));
        let (title, colour) = if won {
            ("Level won", Color32::from_rgb(120, 220, 120))
        } else {
            ("Game over", Color32::WHITE)
        };
        painter.text(
            rect.center() - vec2(0.0, 40.0),
            Align2::CENTER_CENTER,
            title,
            FontId::proportional(32.0),
            colour,
        );
        painter.text(
            rect.center(),
            Align2::CENTER_CENTER,
            format!("Final score {}", self.session.game().score()),
            FontId::proportional(20.0),
            Color32::WHITE,
        );
        let button = Rect::from_center_size(rect.center() + vec2(0.0, 44.0), vec2(140.0, 28.0));
        if let Some(request) = tessera_ui::play_again_buttons(ui, button, self.seed) {
            self.request = Some(request);
        }
    }
}
