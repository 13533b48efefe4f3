//! The playtest's header line: what is playing (or what F5 would play),
//! the AI's thinking line and the offer to restart with a saved level, in
//! one fixed slot so the game below never moves.

use std::path::Path;

use egui::RichText;

use super::{PlaytestArea, PlaytestRequest, PlaytestTarget, drive_ai};
use crate::playtest::PlaytestContext;

impl PlaytestArea {
    /// Draws the header line; returns a restart when its button or Ctrl+R
    /// asked for one.
    pub(super) fn header_line(
        &mut self,
        ui: &mut egui::Ui,
        target: Option<&PlaytestTarget>,
        cx: &mut PlaytestContext<'_>,
    ) -> Option<PlaytestRequest> {
        let mut request = None;
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
        // One line, whatever happens: the AI's thinking line (or ▶ AI move)
        // first, then the offer to restart with a saved level, then what is
        // playing, elided; so the game below never moves when an AI starts
        // or stops thinking or the level is saved (the offer had a line of
        // its own that pushed the game down and ran past the panel's edge).
        let saved = self.offers_restart().then(|| {
            self.running_level_file()
                .map(|p| cx.project.display_path(p).display().to_string())
                .unwrap_or_default()
        });
        tessera_ui::slot::line_slot(ui, 1, |ui| {
            ui.horizontal(|ui| {
                if let Some(running) = self.running.as_mut() {
                    drive_ai(running, ui, cx);
                }
                if let Some(file) = &saved {
                    let restart = ui
                        .button("↻ Restart with the new level")
                        .on_hover_text(format!(
                            "{file} was saved: start again on the saved level (Ctrl+R)"
                        ));
                    if restart.clicked()
                        || ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::R))
                    {
                        request = Some(PlaytestRequest::Restart);
                    }
                }
                let colour = if saved.is_some() {
                    ui.visuals().warn_fg_color
                } else {
                    ui.visuals().weak_text_color()
                };
                // What plays takes the room left; with none (an AI's
                // thinking line fills a narrow panel), it waits for the
                // line to end rather than run past the panel's edge.
                if ui.available_width() >= 24.0 {
                    ui.add(egui::Label::new(RichText::new(&label).color(colour)).truncate())
                        .on_hover_text(&label);
                }
            });
        });
        request
    }

    /// How the header names a level: the unsaved buffer says so.
    pub(super) fn describe(&self, level: Option<&Path>, cx: &PlaytestContext<'_>) -> String {
        // Once saved, the edits are not unsaved any more (the header kept
        // saying so beside the offer to restart with them), and the game
        // may differ from the file: the header says it was saved.
        if level.is_some()
            && self.level_changed
            && let Some(file) = self.running_level_file()
        {
            return format!(
                "{} (saved since the start)",
                cx.project.display_path(file).display()
            );
        }
        match &self.buffer_of {
            Some(file) if level.is_some() => format!(
                "{} (unsaved edits)",
                cx.project.display_path(file).display()
            ),
            _ => describe_level(level, cx),
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

pub(super) fn describe_level(level: Option<&Path>, cx: &PlaytestContext<'_>) -> String {
    match level {
        Some(path) => cx.project.display_path(path).display().to_string(),
        None => "its default level".into(),
    }
}
