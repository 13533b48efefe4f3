//! The Tetris level editor's level kind (a game with a goal, or feed mode
//! against an AI) with every field of a feed level, and the findings of the
//! one validation path (`tessera check`'s, which reads the script: a feed
//! level's difficulty must be one the script defines).

use egui::{Color32, RichText};
use tessera_host::check::check_level_text;
use tessera_host::level::Diagnostic;
use tessera_tetris::level::{FeedLevel, Goal};
use tessera_tetris_bot::ai::settings::difficulties;
use tessera_ui::PlaytestContext;

use super::TetrisLevelEditor;

/// A new feed level's settings: the seed's lines target against the
/// weakest difficulty, the ceiling coming down at the difficulty's pace.
fn new_feed(difficulty: &str) -> FeedLevel {
    FeedLevel {
        difficulty: difficulty.to_string(),
        target_lines: 20,
        lowering_ceiling: true,
        ceiling_every: None,
    }
}

impl TetrisLevelEditor {
    /// The difficulty names of the project's Tetris script (read once; the
    /// seed's four when the script cannot be read).
    fn difficulty_names(&mut self, cx: &mut PlaytestContext<'_>) -> Vec<String> {
        if self.difficulties.is_none() {
            let path = cx.project.game_script_path("tetris");
            let names = cx
                .project
                .script(&path)
                .ok()
                .and_then(|live| difficulties(&live.current()).ok())
                .map(|list| list.into_iter().map(|d| d.name).collect())
                .unwrap_or_else(|| ["EASY", "NORMAL", "HARD", "GOD"].map(String::from).to_vec());
            self.difficulties = Some(names);
        }
        self.difficulties.clone().unwrap_or_default()
    }

    /// Level kind, then the goal (a goal game) or the feed settings.
    pub(super) fn kind_ui(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        let names = self.difficulty_names(cx);
        let before = self.level.clone();
        ui.horizontal(|ui| {
            let label = ui.label("level kind");
            let mut feed = self.level.feed.is_some();
            egui::ComboBox::from_id_salt("tetris level kind")
                .selected_text(if feed { "feed the AI" } else { "goal" })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut feed, false, "goal")
                        .on_hover_text("The player plays towards the level's goal");
                    ui.selectable_value(&mut feed, true, "feed the AI")
                        .on_hover_text("The player picks each piece an AI gets (feed mode)");
                })
                .response
                .labelled_by(label.id);
            if feed != self.level.feed.is_some() {
                let weakest = names.first().map_or("EASY", String::as_str);
                self.level.feed = feed.then(|| new_feed(weakest));
            }
        });
        match self.level.feed.as_mut() {
            Some(feed) => feed_fields(ui, feed, &names),
            None => self.goal_ui(ui),
        }
        if self.level != before {
            self.edited();
        }
    }

    /// The one validation path's findings for the level as edited, worked
    /// out again when the level changed (not while the pointer is held:
    /// a stroke checks once, when it ends).
    pub(super) fn refresh_findings(&mut self, ui: &egui::Ui, cx: &mut PlaytestContext<'_>) {
        let current = matches!(&self.checked, Some((level, _)) if *level == self.level);
        if current || (self.checked.is_some() && ui.input(|i| i.pointer.any_down())) {
            return;
        }
        let findings = match tessera_ui::LevelEditor::to_ron(self) {
            Ok(text) => {
                let display = cx.project.display_path(&self.path);
                check_level_text(cx.project.registry(), &self.path, &display, &text)
            }
            Err(e) => vec![Diagnostic::error(&self.path, format!("{e:#}"))],
        };
        self.checked = Some((self.level.clone(), findings));
    }

    /// The findings shown under the level; returns whether it can be
    /// played (no errors).
    pub(super) fn findings_ui(&self, ui: &mut egui::Ui) -> bool {
        let findings: &[Diagnostic] = self.checked.as_ref().map_or(&[], |(_, f)| f);
        for finding in findings {
            let colour = if finding.is_error() {
                Color32::from_rgb(230, 90, 80)
            } else {
                Color32::from_rgb(230, 190, 80)
            };
            let text = match finding.line {
                Some(line) => format!("line {line}: {}", finding.message),
                None => finding.message.clone(),
            };
            ui.label(RichText::new(text).color(colour));
        }
        if findings.is_empty() {
            ui.label(RichText::new("level ok").color(Color32::from_rgb(120, 200, 120)));
        }
        !findings.iter().any(Diagnostic::is_error)
    }
}

/// Every field of a feed level, each label before its widget.
fn feed_fields(ui: &mut egui::Ui, feed: &mut FeedLevel, names: &[String]) {
    ui.horizontal(|ui| {
        let label = ui.label("AI difficulty");
        egui::ComboBox::from_id_salt("feed difficulty")
            .selected_text(feed.difficulty.clone())
            .show_ui(ui, |ui| {
                for name in names {
                    ui.selectable_value(&mut feed.difficulty, name.clone(), name);
                }
            })
            .response
            .labelled_by(label.id)
            .widget_info(|| {
                let name = format!("AI difficulty: {}", feed.difficulty);
                egui::WidgetInfo::labeled(egui::Role::ComboBox, true, name)
            });
        let label = ui.label("AI wins at lines");
        ui.add(egui::DragValue::new(&mut feed.target_lines).range(1..=10_000))
            .labelled_by(label.id);
    });
    ui.horizontal(|ui| {
        ui.checkbox(&mut feed.lowering_ceiling, "ceiling comes down")
            .on_hover_text("Off: the whole board stays the AI's (balance runs against a feeder)");
        ui.add_enabled_ui(feed.lowering_ceiling, |ui| {
            let mut own = feed.ceiling_every.is_some();
            ui.checkbox(&mut own, "own pace: a row every")
                .on_hover_text("Off: the difficulty's pace from the script");
            let mut every = feed.ceiling_every.unwrap_or(10);
            let response = ui.add_enabled(
                own,
                egui::DragValue::new(&mut every)
                    .range(1..=1000)
                    .suffix(" AI pieces"),
            );
            response.widget_info(|| {
                egui::WidgetInfo::labeled(egui::Role::SpinButton, own, "ceiling every")
            });
            feed.ceiling_every = own.then_some(every);
        });
    });
}

/// The goal kinds, for the goal picker.
pub(super) fn goal_name(goal: &Goal) -> &'static str {
    match goal {
        Goal::Marathon => "marathon",
        Goal::Score(_) => "score",
        Goal::Lines(_) => "lines",
        Goal::ClearGarbage => "clear garbage",
        Goal::Survive(_) => "survive",
    }
}
