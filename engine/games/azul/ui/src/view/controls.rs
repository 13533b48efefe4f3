//! The side panel: the status bar, the table's prompts, the controls (new
//! game, hint, undo, save and load, record export) and the message log.

use std::path::PathBuf;

use egui::{Color32, RichText};
use tessera_azul::Azul;
use tessera_azul::rules::{CENTRE, State};
use tessera_host::level::write_atomic;
use tessera_host::registry::ReplaySetup;
use tessera_host::replay::{LevelChoice, ScriptChoice};
use tessera_host::session::downcast_box;
use tessera_host::{Game, Outcome, Reports, Turn};

use tessera_ui::{ConsoleLine, PlaytestContext};

use super::{AzulPlaytest, BROWN};

/// The docked table's toggle of its tools window, and the window's title.
const TOOLS: &str = "Record, saves, rules, balance…";

impl AzulPlaytest {
    pub(super) fn status_bar(&self, ui: &mut egui::Ui) {
        let s = self.state();
        let human = self.human_seat();
        let who = match self.game.turn() {
            Turn::Over => match self.game.game().outcome() {
                Outcome::Winner(p) if Some(p) == human => "Victory! You win.".to_string(),
                // Nobody at the table played: no victory or defeat to
                // speak of, only who won.
                Outcome::Winner(p) if human.is_none() => {
                    format!("Game over: player {} wins.", p + 1)
                }
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

    /// The factories in a ring with the centre in the middle (the seed's
    /// table), sized to the factory count.
    /// What the table asks of the human now: the hint, a grey-wall column
    /// to choose, or where the picked tiles may go.
    /// They take a slot of three lines, shown or not, so the controls
    /// below do not drop when a tile is picked.
    pub(super) fn prompts(&self, ui: &mut egui::Ui, s: &State) {
        tessera_ui::slot::line_slot(ui, 3, |ui| self.prompt_lines(ui, s));
    }

    fn prompt_lines(&self, ui: &mut egui::Ui, s: &State) {
        for prompt in self.prompt_texts(s) {
            ui.label(prompt);
        }
    }

    /// The prompts of [`Self::prompts`], first to last.
    fn prompt_texts(&self, s: &State) -> Vec<RichText> {
        let mut prompts = Vec::new();
        if let Some(hint) = self.hint {
            prompts.push(
                RichText::new(format!("Hint: {hint}")).color(Color32::from_rgb(0x27, 0xAE, 0x60)),
            );
        }
        if let Some((row, colour, _)) = s.pending_choice()
            && self.human_to_move()
        {
            prompts.push(
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
            prompts.push(RichText::new(format!(
                "Picked {} from {from}: click a highlighted pattern line or the floor.",
                self.colour_name(colour as usize)
            )));
        }
        prompts
    }

    /// The controls, the Balance panel and the message log (a wide table:
    /// a column of their own beside the ring).
    pub(super) fn side_panel(
        &mut self,
        ui: &mut egui::Ui,
        cx: &mut PlaytestContext<'_>,
        log_height: f32,
    ) {
        self.controls(ui, cx);
        ui.collapsing("Balance (AI against AI)", |ui| {
            self.balance.ui(ui, cx.project.root().to_path_buf());
        });
        ui.separator();
        ui.label(RichText::new("Messages").strong());
        // At most `log_height`, and never past the bottom of the space
        // left (a margin keeps the last line clear of the edge).
        let left = ui.available_height() - ui.spacing().item_spacing.y - 4.0;
        self.log_ui(ui, log_height.min(left.max(80.0)));
    }

    /// Under a narrow (docked) table, in two lines: what the table asks
    /// (a pick's prompt, a grey wall's column, the hint), if anything, and
    /// the newest message; then the game's buttons and the toggle of the tools window
    /// (the record, saves, rules, Balance and every message), so the table
    /// fits a docked panel's height.
    /// `messages`: the two lines are drawn (a crowded table's end card
    /// takes their room).
    pub(super) fn docked_panel(&mut self, ui: &mut egui::Ui, s: &State, messages: bool) {
        // A line each, elided at the panel's edge (the whole text on
        // hover): the table's newest prompt, then the newest message (a
        // refusal says why there). Each keeps its line: a message does not
        // climb to the first as the next one comes.
        let line = |ui: &mut egui::Ui, text: RichText| {
            let whole = text.text().to_string();
            ui.add(egui::Label::new(text).truncate())
                .on_hover_text(whole);
        };
        let message = |(text, is_error): &(String, bool)| {
            let t = RichText::new(text).monospace();
            if *is_error {
                t.color(Color32::from_rgb(0xE7, 0x4C, 0x3C))
            } else {
                t
            }
        };
        let prompt = self.prompt_texts(s).pop();
        let newest = self.log.last().map(message);
        // Else the end card took the lines' room.
        if messages {
            self.docked_messages(ui, prompt, newest, line);
        }
        ui.horizontal_wrapped(|ui| {
            self.game_buttons(ui);
            ui.toggle_value(&mut self.tools_open, TOOLS).on_hover_text(
                "Export record, Save as / Load, the Rules, Balance (AI against AI) and every message",
            );
        });
    }

    /// The docked table's two lines: the newest prompt, the newest message.
    fn docked_messages(
        &self,
        ui: &mut egui::Ui,
        prompt: Option<RichText>,
        newest: Option<RichText>,
        line: impl Fn(&mut egui::Ui, RichText),
    ) {
        tessera_ui::slot::line_slot(ui, 2, |ui| {
            tessera_ui::slot::line_slot(ui, 1, |ui| {
                if let Some(prompt) = prompt {
                    line(ui, prompt);
                }
            });
            if let Some(newest) = newest {
                line(ui, newest);
            }
        });
    }

    /// The room the docked table's two lines take, with the gap after.
    pub(super) fn docked_messages_height(&self, ui: &egui::Ui) -> f32 {
        tessera_ui::slot::lines_height(ui, 2) + ui.spacing().item_spacing.y
    }

    /// The room under a crowded table's boards but for the sources: the
    /// separators before and after the sources, the two lines and the
    /// buttons' row, and a margin above the panel's bottom edge.
    pub(super) fn docked_panel_height(&self, ui: &egui::Ui) -> f32 {
        let gap = ui.spacing().item_spacing.y;
        // A separator is its own spacing (6) and the gap after it.
        let separator = 6.0 + gap;
        2.0 * separator
            + gap
            + self.docked_messages_height(ui)
            + ui.spacing().interact_size.y
            + gap
            + 4.0
    }

    /// The tools a docked table keeps in a window of their own.
    pub(super) fn tools_window(&mut self, ctx: &egui::Context, cx: &mut PlaytestContext<'_>) {
        let mut open = self.tools_open;
        tessera_ui::tool_window(ctx, TOOLS, &mut open, egui::vec2(460.0, 480.0), |ui| {
            egui::ScrollArea::vertical()
                .id_salt("azul tools")
                .show(ui, |ui| {
                    if ui.button("Export record").clicked() {
                        self.export_record(cx);
                    }
                    self.saves_ui(ui, cx);
                    self.rules_ui(ui);
                    ui.collapsing("Balance (AI against AI)", |ui| {
                        self.balance.ui(ui, cx.project.root().to_path_buf());
                    });
                    ui.separator();
                    ui.label(RichText::new("Messages").strong());
                    self.log_ui(ui, 200.0);
                });
        });
        self.tools_open = open;
    }

    /// The messages, newest at the bottom, in at most `height`.
    fn log_ui(&self, ui: &mut egui::Ui, height: f32) {
        egui::ScrollArea::vertical()
            .id_salt("azul log")
            .auto_shrink([false, true])
            .max_height(height)
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

    /// New game, Undo and Hint.
    fn game_buttons(&mut self, ui: &mut egui::Ui) {
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
    }

    pub(super) fn controls(&mut self, ui: &mut egui::Ui, cx: &mut PlaytestContext<'_>) {
        ui.horizontal_wrapped(|ui| {
            self.game_buttons(ui);
            if ui.button("Export record").clicked() {
                self.export_record(cx);
            }
        });
        self.saves_ui(ui, cx);
        self.rules_ui(ui);
    }

    /// The rules in force, folded.
    fn rules_ui(&self, ui: &mut egui::Ui) {
        let rules = self.shown_state().rules;
        ui.collapsing("Rules", |ui| {
            // The numbers are the live script's (they follow a save).
            let floor: Vec<String> = rules
                .floor_penalties
                .iter()
                .map(|p| format!("-{p}"))
                .collect();
            ui.label(format!(
                "Take every tile of one colour from a factory (the rest go to the centre) or \
                 from the centre (the first to do so takes the first-player marker). Place them \
                 on one pattern line, right to left, one colour per line, never a colour the \
                 wall row already holds; the rest fall to the floor. When the table is empty, \
                 each full line puts one tile on the wall and scores it with its horizontal and \
                 vertical runs; the floor costs {} (slot by slot). The game ends after the \
                 round in which a wall row is completed: +{} per row, +{} per column, +{} per \
                 colour.",
                floor.join(" "),
                rules.row_bonus,
                rules.column_bonus,
                rules.colour_bonus
            ));
            if rules.grey_wall {
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

    pub(super) fn save_path(&self, cx: &PlaytestContext<'_>, name: &str) -> PathBuf {
        cx.project.root().join("saves").join(name)
    }

    /// Resumes the saved game through the host's replay path (the live
    /// script, the recorded level), in place of the game on the table.
    pub(super) fn load(&mut self, cx: &mut PlaytestContext<'_>) {
        let path = match self.load_path(cx) {
            Ok(path) => path,
            Err(e) => return self.say(format!("Cannot load: {e}"), true),
        };
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
                self.say_history();
                let against = self.ai_levels_played().join(", ");
                self.say(
                    format!("Loaded {} (against the {against} AI)", path.display()),
                    false,
                );
                self.loaded_from(path);
            }
            Err(e) => self.say(format!("Cannot load {}: {e}", path.display()), true),
        }
    }

    /// One line per step the game has played so far, who played it
    /// first: the log of a loaded, resumed or reopened game tells its own
    /// story, not the one it replaced.
    pub(super) fn say_history(&mut self) {
        for row in self.game.trajectory().rows {
            let who = if row.actor.is_empty() {
                "You".to_string()
            } else {
                row.actor.clone()
            };
            self.say(format!("{who}: {}", row.step), false);
        }
    }

    pub(super) fn export_record(&mut self, cx: &mut PlaytestContext<'_>) {
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
}
