//! The playtest view of a game that brings no UI of its own: the game's
//! text picture, its scores and outcome, its legal actions as buttons and,
//! for real-time games, a tick button. Every registered game plays in the
//! editor through it, recorded like any other view (undo, "Save as test").

use egui::RichText;
use tessera_host::{GameEvent, Session, Turn};
use tessera_ui::text::{count, thousands};

use crate::playtest::{ConsoleLine, PlaytestContext, PlaytestView};

/// Most action buttons shown at once (a game may have thousands).
const MOST_ACTIONS: usize = 60;
/// Most lines of the event log kept.
const LOG_LINES: usize = 200;

/// A game drawn as text, played by its legal actions.
pub struct GenericView {
    session: Box<dyn Session>,
    /// Recent events, oldest first.
    log: Vec<GameEvent>,
    /// Filters the action buttons.
    filter: String,
}

impl GenericView {
    /// Shows `session`.
    pub fn new(mut session: Box<dyn Session>) -> Self {
        let log = session.take_new_events();
        Self {
            session,
            log,
            filter: String::new(),
        }
    }

    fn act(&mut self, action: &str, cx: &mut PlaytestContext<'_>) {
        if let Err(e) = self.session.apply_ron(action) {
            cx.console.push(ConsoleLine {
                text: format!("{}: {action}: {e}", self.session.game_id()),
                is_error: false,
            });
        }
    }

    fn take_events(&mut self) {
        self.log.extend(self.session.take_new_events());
        if self.log.len() > LOG_LINES {
            self.log.drain(..self.log.len() - LOG_LINES);
        }
    }
}

impl PlaytestView for GenericView {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        self.take_events();
        let scores = self.session.scores();
        ui.horizontal_wrapped(|ui| {
            ui.strong(self.session.game_id());
            ui.label(format!("· {}", self.session.outcome()));
            if !scores.is_empty() {
                let text: Vec<String> = scores
                    .iter()
                    .enumerate()
                    .map(|(i, s)| format!("seat {}: {s}", i + 1))
                    .collect();
                ui.label(format!("· {}", text.join(", ")));
            }
            ui.weak(format!("· {}", count(self.session.step_count(), "step")));
        });
        ui.separator();
        let mut chosen = None;
        ui.columns(2, |columns| {
            egui::ScrollArea::both()
                .id_salt("generic board")
                .max_height(columns[0].available_height() - 8.0)
                .show(&mut columns[0], |ui| {
                    ui.label(RichText::new(self.session.render_text()).monospace());
                });
            let ui = &mut columns[1];
            match self.session.turn() {
                Turn::Over => {
                    ui.label("The game is over.");
                }
                turn => {
                    if turn == Turn::RealTime && ui.button("⏵ Tick").clicked() {
                        let _ = self.session.advance(1);
                    }
                    if self.session.ai_to_move().is_some() {
                        ui.weak("An AI seat is to move.");
                    } else {
                        ui.horizontal(|ui| {
                            ui.label("Actions");
                            ui.add(
                                egui::TextEdit::singleline(&mut self.filter)
                                    .hint_text("filter")
                                    .desired_width(120.0),
                            );
                        });
                        let actions = self.session.legal_actions_ron();
                        let shown: Vec<&String> = actions
                            .iter()
                            .filter(|a| a.contains(self.filter.trim()))
                            .take(MOST_ACTIONS)
                            .collect();
                        egui::ScrollArea::vertical()
                            .id_salt("generic actions")
                            .max_height(240.0)
                            .show(ui, |ui| {
                                ui.horizontal_wrapped(|ui| {
                                    for action in &shown {
                                        if ui.button(action.as_str()).clicked() {
                                            chosen = Some((*action).clone());
                                        }
                                    }
                                });
                            });
                        if actions.len() > shown.len() {
                            ui.weak(format!(
                                "{} of {} shown; type to filter",
                                thousands(shown.len()),
                                count(actions.len(), "action")
                            ));
                        }
                    }
                }
            }
            ui.separator();
            egui::ScrollArea::vertical()
                .id_salt("generic log")
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for event in &self.log {
                        let text = RichText::new(&event.text);
                        if event.is_error {
                            ui.colored_label(ui.visuals().error_fg_color, text);
                        } else {
                            ui.label(text);
                        }
                    }
                });
        });
        if let Some(action) = chosen {
            self.act(&action, cx);
        }
    }

    fn session(&self) -> Option<&dyn Session> {
        Some(self.session.as_ref())
    }

    fn session_mut(&mut self) -> Option<&mut dyn Session> {
        Some(self.session.as_mut())
    }
}
