//! The Balance panel: plays feed-mode (or classic) games per difficulty in
//! the background, on the host's `Job` (progress, cancel), and plots each
//! difficulty's win rate and mean lines with egui_plot, so a designer who
//! edits the difficulty table in `scripts/tetris.lua` sees the curve move.
//! The last run stays on the plot, faint, next to the new one.
//!
//! The games are the host's simulation (`tessera_host::sim`, the same as
//! `tessera sim tetris`): a ladder of the chosen difficulties, each game
//! started through the project with the script as it is saved now, on
//! workers that open the project themselves, so the editor's VM is never
//! shared.

use std::path::{Path, PathBuf};
use std::time::Duration;
use tessera_ui::text::count;

use egui::{Color32, RichText};
use egui_plot::{Bar, BarChart, Legend, Plot};

use tessera_host::sim::{
    FigureStat, Lineup, LineupTally, SimConfig, SimLevel, SimOptions, run_sim,
};
use tessera_host::worker::Job;
use tessera_host::{Budget, LiveScript, Seat};
use tessera_tetris::level::TetrisLevel;
use tessera_tetris_bot::ai::feeder::Feeder;

/// What a balance run plays (the window's choices).
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceConfig {
    /// Feed games (against `feeder`) or classic self-play.
    pub feed: bool,
    /// The feeder in feed games.
    pub feeder: Feeder,
    /// The difficulties to play, weakest first (the script's names).
    pub difficulties: Vec<String>,
    /// Games per difficulty.
    pub games: usize,
    /// Seed of each difficulty's first game (game i plays seed + i).
    pub seed: u64,
    /// Most pieces in one game.
    pub piece_cap: u64,
}

impl Default for BalanceConfig {
    fn default() -> Self {
        Self {
            feed: true,
            feeder: Feeder::HATE,
            difficulties: Vec::new(),
            games: 4,
            seed: 1,
            piece_cap: 300,
        }
    }
}

impl BalanceConfig {
    /// The host simulation of these choices and the board's name: feed
    /// games on the playtest's level when it is a feed level (else the
    /// 22 x 10 feed board), classic games on the seed's self-play board.
    pub fn sim_config(&self, level: &TetrisLevel) -> (SimConfig, String) {
        let (mode, board) = if self.feed {
            let board = if level.feed.is_some() {
                level.clone()
            } else {
                TetrisLevel {
                    title: "feed 22 x 10".into(),
                    rows: 22,
                    columns: 10,
                    ..TetrisLevel::default()
                }
            };
            ("feed", Some(board))
        } else {
            ("classic", None)
        };
        let shown = board
            .clone()
            .unwrap_or_else(tessera_tetris::sim::classic_benchmark_level);
        let name = format!(
            "{} x {}{}",
            shown.rows,
            shown.columns,
            if shown.title.is_empty() {
                String::new()
            } else {
                format!(" ({})", shown.title)
            }
        );
        // The playtest's level may be unsaved: it is started from its text,
        // read and diagnosed as a file would be.
        let level = match board.map(|b| tessera_host::level::to_ron_string(&b)) {
            Some(Ok(text)) => SimLevel::Text {
                path: PathBuf::from("playtest level"),
                text,
            },
            _ => SimLevel::Default,
        };
        let mut options = SimOptions::default();
        options.set("pieces", self.piece_cap.max(1));
        let lineups = self
            .difficulties
            .iter()
            .map(|name| {
                let placer = Seat::Ai {
                    level: name.to_lowercase(),
                };
                Lineup {
                    label: name.clone(),
                    seats: if self.feed {
                        vec![
                            Seat::Ai {
                                level: self.feeder.name(),
                            },
                            placer,
                        ]
                    } else {
                        vec![placer]
                    },
                    rotate: false,
                }
            })
            .collect();
        let config = SimConfig {
            game: "tetris".into(),
            mode: Some(mode.into()),
            lineups,
            games: self.games as u64,
            seed: self.seed,
            only: None,
            budget: Budget::unbounded(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_moves: usize::MAX,
            level,
            options,
        };
        (config, name)
    }
}

/// One difficulty's figures from a run.
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceRow {
    /// The difficulty, as the script names it.
    pub level: String,
    /// Games played.
    pub games: u64,
    /// Feed: the AI reached its target; classic: it survived the cap.
    pub ai_win_rate: f64,
    /// Mean lines.
    pub mean_lines: f64,
    /// Median lines.
    pub median_lines: f64,
    /// Mean pieces survived.
    pub mean_pieces: f64,
    /// Mean time per decision, microseconds.
    pub decision_us: f64,
}

impl BalanceRow {
    fn of(tally: &LineupTally) -> Self {
        let value = |key: &str| tally.figure(key).map_or(0.0, |f| f.stat.value());
        let median = |key: &str| match tally.figure(key).map(|f| f.stat) {
            Some(FigureStat::Count { median, .. }) => median,
            _ => 0.0,
        };
        Self {
            level: tally.label.clone(),
            games: tally.games,
            ai_win_rate: value("ai_win"),
            mean_lines: value("lines"),
            median_lines: median("lines"),
            mean_pieces: value("pieces"),
            decision_us: value("decision_us"),
        }
    }
}

/// What a finished run brings back.
struct RunResult {
    summary: Vec<BalanceRow>,
    games: u64,
    cancelled: bool,
    board: String,
}

type SimJob = Job<Result<RunResult, String>>;

/// What the Balance window shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BalanceView {
    /// The chosen difficulties on one board: win rate and lines per AI.
    #[default]
    Ladder,
    /// Every feed level against its own AI: the player's win rate per
    /// level, one curve per feeder strength.
    Campaign,
}

/// The Balance window's state.
#[derive(Default)]
pub struct BalancePanel {
    /// Whether the window is shown.
    pub open: bool,
    /// The ladder or the campaign.
    pub view: BalanceView,
    /// The campaign plot's state.
    pub campaign: crate::campaign::CampaignPanel,
    /// What the next run plays.
    pub config: BalanceConfig,
    job: Option<SimJob>,
    rows: Vec<BalanceRow>,
    previous: Vec<BalanceRow>,
    /// The board the last run played on.
    board: String,
    message: Option<String>,
    /// The difficulties of the script, read when its generation changes.
    known: Option<(u64, Vec<String>)>,
    /// Seconds the last run took.
    took: Option<f32>,
}

impl BalancePanel {
    /// The last run's figures, one per difficulty.
    pub fn rows(&self) -> &[BalanceRow] {
        &self.rows
    }

    /// Asks the running simulation to stop.
    pub fn cancel(&self) {
        if let Some(job) = &self.job {
            job.cancel();
        }
    }

    /// The last run's error (or `cancelled`).
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Whether a run is going on.
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// Starts a run of `config` in the project at `root`, with the
    /// script as it is saved now.
    pub fn run(&mut self, level: &TetrisLevel, root: &Path) {
        let (config, board) = self.config.sim_config(level);
        let root = root.to_path_buf();
        self.message = None;
        self.took = None;
        self.job = Some(Job::spawn("balance", move |control| {
            let report = run_sim(
                &root,
                &crate::registry(),
                &config,
                control,
                &mut |_, _, _| {},
            )?;
            Ok(RunResult {
                summary: report
                    .tallies
                    .iter()
                    .filter(|t| t.games > 0)
                    .map(BalanceRow::of)
                    .collect(),
                games: report.games,
                cancelled: report.cancelled,
                board,
            })
        }));
    }

    fn finish(&mut self, result: Option<Result<RunResult, String>>, took: f32) {
        self.job = None;
        match result {
            Some(Ok(run)) => {
                if run.cancelled {
                    self.message = Some(format!("cancelled after {}", count(run.games, "game")));
                }
                if !run.summary.is_empty() {
                    self.previous = std::mem::replace(&mut self.rows, run.summary);
                    self.board = run.board;
                    self.took = Some(took);
                }
            }
            Some(Err(e)) => self.message = Some(e),
            None => self.message = Some("the simulation stopped unexpectedly".into()),
        }
    }

    /// Takes a finished run's result (call once per frame).
    pub fn poll(&mut self) {
        let Some(job) = self.job.as_mut() else {
            return;
        };
        let took = job.elapsed().as_secs_f32();
        if let Some(result) = job.poll().ended() {
            self.finish(result, took);
        }
    }

    /// Blocks until the running simulation ends (tests), at most `timeout`.
    pub fn wait(&mut self, timeout: Duration) {
        let Some(job) = self.job.as_mut() else {
            return;
        };
        let result = job.wait(timeout);
        let took = job.elapsed().as_secs_f32();
        self.finish(result, took);
    }

    fn difficulties(&mut self, script: &LiveScript) -> Vec<String> {
        let generation = script.generation();
        if let Some((seen, names)) = &self.known
            && *seen == generation
        {
            return names.clone();
        }
        let names: Vec<String> =
            match tessera_tetris_bot::ai::settings::difficulties(&script.current()) {
                Ok(list) => list.into_iter().map(|d| d.name).collect(),
                Err(e) => {
                    self.message = Some(e.to_string());
                    Vec::new()
                }
            };
        if self.config.difficulties.is_empty()
            || self.config.difficulties.iter().any(|d| !names.contains(d))
        {
            self.config.difficulties.retain(|d| names.contains(d));
            if self.config.difficulties.is_empty() {
                self.config.difficulties = names.clone();
            }
        }
        self.known = Some((generation, names.clone()));
        names
    }

    /// Draws the window (when open).
    pub fn window(
        &mut self,
        ctx: &egui::Context,
        level: &TetrisLevel,
        script: &LiveScript,
        root: &Path,
    ) {
        self.poll();
        self.campaign.poll();
        if !self.open {
            return;
        }
        let mut open = self.open;
        tessera_ui::tool_window(ctx, "Balance", &mut open, egui::vec2(560.0, 620.0), |ui| {
            // The window keeps its size and place as results come: its
            // content scrolls. It grew with the table and plots after a
            // run and, held inside the tool area, jumped 107 px up.
            egui::ScrollArea::vertical()
                .id_salt("balance window")
                .auto_shrink([false, false])
                .show(ui, |ui| self.ui(ui, level, script, root));
        });
        self.open = open;
        if self.job.is_some() || self.campaign.is_running() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, level: &TetrisLevel, script: &LiveScript, root: &Path) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.view, BalanceView::Ladder, "AI ladder")
                .on_hover_text("The chosen AIs on one board: win rate and lines per AI");
            ui.selectable_value(&mut self.view, BalanceView::Campaign, "Campaign")
                .on_hover_text(
                    "Every feed level against its own AI: the player's win rate per level, one curve per feeder strength",
                );
        });
        ui.separator();
        if self.view == BalanceView::Campaign {
            self.campaign.ui(ui, root);
            return;
        }
        let names = self.difficulties(script);
        let running = self.job.is_some();
        ui.add_enabled_ui(!running, |ui| {
            ui.horizontal(|ui| {
                ui.label("Games");
                ui.selectable_value(&mut self.config.feed, true, "feed");
                ui.selectable_value(&mut self.config.feed, false, "classic");
                if self.config.feed {
                    ui.separator();
                    ui.label("feeder");
                    for feeder in Feeder::listed() {
                        ui.selectable_value(&mut self.config.feeder, feeder, feeder.name());
                    }
                }
            });
            ui.horizontal_wrapped(|ui| {
                ui.label("AI");
                for name in &names {
                    let mut on = self.config.difficulties.contains(name);
                    if ui.checkbox(&mut on, name.as_str()).changed() {
                        if on {
                            self.config.difficulties.push(name.clone());
                            // Keep the script's order (weakest first).
                            self.config
                                .difficulties
                                .sort_by_key(|d| names.iter().position(|n| n == d));
                        } else {
                            self.config.difficulties.retain(|d| d != name);
                        }
                    }
                }
            });
            ui.horizontal(|ui| {
                let games = ui.label("games per AI");
                ui.add(egui::DragValue::new(&mut self.config.games).range(1..=1000))
                    .labelled_by(games.id);
                let cap = ui.label("piece cap");
                ui.add(egui::DragValue::new(&mut self.config.piece_cap).range(1..=1_000_000))
                    .labelled_by(cap.id);
                let seed = ui.label("seed");
                ui.add(egui::DragValue::new(&mut self.config.seed))
                    .labelled_by(seed.id);
            });
        });
        ui.horizontal(|ui| {
            if running {
                if ui.button("Cancel").clicked()
                    && let Some(job) = &self.job
                {
                    job.cancel();
                }
            } else if ui
                .add_enabled(
                    !self.config.difficulties.is_empty(),
                    egui::Button::new("▶ Run simulation"),
                )
                .on_hover_text("Plays the games in the background with the script as saved now")
                .clicked()
            {
                self.run(level, root);
            }
            if let Some(job) = &self.job {
                let control = job.control();
                ui.add(
                    egui::ProgressBar::new(control.progress() as f32)
                        .desired_width(160.0)
                        .show_percentage(),
                );
                ui.weak(format!(
                    "{} · {:.1} s",
                    control.note(),
                    job.elapsed().as_secs_f32()
                ));
            } else if let Some(took) = self.took {
                ui.weak(format!("done in {took:.1} s"));
            }
        });
        if let Some(message) = &self.message {
            ui.colored_label(ui.visuals().error_fg_color, message);
        }
        ui.separator();
        if self.rows.is_empty() {
            ui.weak("No run yet. Choose the AIs and press Run; edit the difficulty table in scripts/tetris.lua, save, and run again to compare.");
            return;
        }
        let win_title = if self.config.feed {
            "AI win rate"
        } else {
            "survived the cap"
        };
        ui.weak(format!("on {}", self.board));
        egui::Grid::new("balance rows")
            .striped(true)
            .num_columns(7)
            .show(ui, |ui| {
                for title in [
                    "AI",
                    "games",
                    win_title,
                    "mean lines",
                    "median",
                    "pieces",
                    "µs/decision",
                ] {
                    ui.strong(title);
                }
                ui.end_row();
                for row in &self.rows {
                    ui.label(&row.level);
                    ui.label(row.games.to_string());
                    ui.label(format!("{:.0}%", row.ai_win_rate * 100.0));
                    ui.label(format!("{:.1}", row.mean_lines));
                    ui.label(format!("{:.1}", row.median_lines));
                    ui.label(format!("{:.1}", row.mean_pieces));
                    ui.label(format!("{:.1}", row.decision_us));
                    ui.end_row();
                }
            });
        ui.separator();
        let plot_height = ((ui.available_height() - 40.0) / 2.0).clamp(120.0, 220.0);
        ui.label(RichText::new(format!("{win_title} per AI (%)")).strong());
        bar_plot(
            ui,
            "balance win rate",
            plot_height,
            &self.rows,
            &self.previous,
            100.0,
            |r| r.ai_win_rate * 100.0,
        );
        ui.label(RichText::new("mean lines per AI").strong());
        bar_plot(
            ui,
            "balance lines",
            plot_height,
            &self.rows,
            &self.previous,
            1.0,
            |r| r.mean_lines,
        );
    }
}

/// Bars per difficulty: this run, and the last one beside it, faint; the
/// value axis reaches at least `at_least` (100 for a rate in percent).
fn bar_plot(
    ui: &mut egui::Ui,
    id: &str,
    height: f32,
    rows: &[BalanceRow],
    previous: &[BalanceRow],
    at_least: f64,
    value: impl Fn(&BalanceRow) -> f64,
) {
    let names: Vec<String> = rows.iter().map(|r| r.level.clone()).collect();
    let bars = |list: &[BalanceRow], shift: f64| -> Vec<Bar> {
        list.iter()
            .filter_map(|r| {
                let i = names.iter().position(|n| n == &r.level)?;
                Some(
                    Bar::new(i as f64 + shift, value(r))
                        .width(0.35)
                        .name(&r.level),
                )
            })
            .collect()
    };
    let now = BarChart::new("this run", bars(rows, 0.18)).color(Color32::from_rgb(90, 170, 250));
    let before = BarChart::new("last run", bars(previous, -0.18))
        .color(Color32::from_rgba_unmultiplied(160, 160, 160, 120));
    let labels = names.clone();
    Plot::new(id.to_string())
        .height(height)
        .legend(Legend::default())
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(at_least)
        .x_axis_formatter(move |mark, _range| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            if !previous.is_empty() {
                plot.bar_chart(before);
            }
            plot.bar_chart(now);
        });
}
