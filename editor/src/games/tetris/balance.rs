//! The Balance panel: plays feed-mode (or classic) games per difficulty in
//! the background, on the host's `Job` (progress, cancel), and plots each
//! difficulty's win rate and mean lines with egui_plot, so a designer who
//! edits the difficulty table in `scripts/tetris.lua` sees the curve move.
//! The last run stays on the plot, faint, next to the new one.
//!
//! The games are played by [`simulate`], which each run gives the script
//! as it is saved now (loaded afresh on the worker: the editor's own VM
//! is never called from two threads).

use std::path::PathBuf;
use std::time::Duration;

use egui::{Color32, RichText};
use egui_plot::{Bar, BarChart, Legend, Plot};

use tessera_host::script::{LiveScript, Script, ScriptLimits};
use tessera_host::worker::{Job, Poll};
use tessera_host::{Budget, Game, Outcome, Recorded, Seat, SessionOptions, ThinkControl};
use tessera_tetris::Tetris;
use tessera_tetris::level::TetrisLevel;

/// Which games a balance run plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimMode {
    /// The AI against a headless feeder, on the playtest's level.
    Feed,
    /// The AI alone, until it tops out or reaches the piece cap.
    Classic,
}

/// What a balance run plays.
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceConfig {
    /// Feed or classic games.
    pub mode: SimMode,
    /// The feeder (`random` or `hate`) in feed games.
    pub feeder: String,
    /// The difficulties to play, weakest first (the script's names).
    pub difficulties: Vec<String>,
    /// Games per difficulty.
    pub games: usize,
    /// Seed of each difficulty's first game (game i plays seed + i).
    pub seed: u64,
    /// Most AI pieces in one game.
    pub piece_cap: u64,
}

impl Default for BalanceConfig {
    fn default() -> Self {
        Self {
            mode: SimMode::Feed,
            feeder: "hate".into(),
            difficulties: Vec::new(),
            games: 4,
            seed: 1,
            piece_cap: 300,
        }
    }
}

/// What the games are played on: the level and the script's text.
#[derive(Debug, Clone)]
pub struct SimSetup {
    /// The level (feed games read its target lines).
    pub level: TetrisLevel,
    /// The script's path (for its errors).
    pub script_path: PathBuf,
    /// The script's source as it is now.
    pub script_source: String,
    /// The project's script limits.
    pub limits: ScriptLimits,
}

/// One difficulty's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceRow {
    /// The difficulty.
    pub difficulty: String,
    /// Games played.
    pub games: usize,
    /// Games the AI won: feed, it reached its target lines; classic, it
    /// survived to the piece cap.
    pub ai_wins: usize,
    /// Mean lines the AI cleared.
    pub mean_lines: f64,
    /// Median lines.
    pub median_lines: f64,
    /// Mean AI pieces placed.
    pub mean_pieces: f64,
}

impl BalanceRow {
    /// The AI's share of wins, 0 to 1.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.ai_wins as f64 / self.games as f64
        }
    }
}

/// Plays `config`'s games on this thread, watching `control` for cancel
/// and reporting progress there.
pub fn simulate(
    setup: &SimSetup,
    config: &BalanceConfig,
    control: &ThinkControl,
) -> Result<Vec<BalanceRow>, String> {
    let script = Script::load(
        &setup.script_path,
        &setup.script_source,
        Some(&Tetris::script_schema()),
        setup.limits,
    )
    .map_err(|e| e.to_string())?;
    let live = LiveScript::new(script);
    let total = (config.difficulties.len() * config.games).max(1);
    let mut rows = Vec::new();
    for (d, name) in config.difficulties.iter().enumerate() {
        let options = match config.mode {
            SimMode::Feed => SessionOptions {
                mode: Some("feed".into()),
                seats: vec![
                    Seat::Ai {
                        level: config.feeder.clone(),
                    },
                    Seat::Ai {
                        level: name.to_lowercase(),
                    },
                ],
            },
            SimMode::Classic => SessionOptions {
                mode: Some("classic".into()),
                seats: vec![Seat::Ai {
                    level: name.to_lowercase(),
                }],
            },
        };
        let mut lines = Vec::with_capacity(config.games);
        let mut pieces = Vec::with_capacity(config.games);
        let mut ai_wins = 0;
        for g in 0..config.games {
            if control.is_cancelled() {
                return Err("cancelled".into());
            }
            control.set_note(format!("{name}: game {} of {}", g + 1, config.games));
            let seed = config.seed.wrapping_add(g as u64);
            let mut session =
                Recorded::<Tetris>::start(setup.level.clone(), live.clone(), seed, &options)
                    .map_err(|e| format!("{name}: {e}"))?;
            let placed = |s: &Recorded<Tetris>| {
                let game = s.game();
                game.feed_state()
                    .map_or(game.field().locked(), |f| f.ai_pieces)
            };
            while !session.game().outcome().is_over() && placed(&session) < config.piece_cap {
                if control.is_cancelled() {
                    return Err("cancelled".into());
                }
                match session.play_ai_turn(Budget::unbounded()) {
                    Ok(Some(_)) => {}
                    Ok(None) => break,
                    Err(e) => return Err(format!("{name}, seed {seed}: {e}")),
                }
                session.take_new_events();
            }
            let game = session.game();
            let won = match config.mode {
                SimMode::Feed => game.outcome() == Outcome::Winner(1),
                SimMode::Classic => !game.outcome().is_over(),
            };
            ai_wins += usize::from(won);
            lines.push(game.lines());
            pieces.push(placed(&session));
            let done = d * config.games + g + 1;
            control.set_progress(done as f64 / total as f64);
        }
        rows.push(summarise(name, &mut lines, &pieces, ai_wins));
    }
    Ok(rows)
}

fn summarise(name: &str, lines: &mut [u64], pieces: &[u64], ai_wins: usize) -> BalanceRow {
    let n = lines.len();
    lines.sort_unstable();
    let mean = |v: &[u64]| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<u64>() as f64 / v.len() as f64
        }
    };
    let median = match n {
        0 => 0.0,
        n if n % 2 == 1 => lines[n / 2] as f64,
        n => (lines[n / 2 - 1] + lines[n / 2]) as f64 / 2.0,
    };
    BalanceRow {
        difficulty: name.to_string(),
        games: n,
        ai_wins,
        mean_lines: mean(lines),
        median_lines: median,
        mean_pieces: mean(pieces),
    }
}

type SimJob = Job<Result<Vec<BalanceRow>, String>>;

/// The Balance window's state.
#[derive(Default)]
pub struct BalancePanel {
    /// Whether the window is shown.
    pub open: bool,
    /// What the next run plays.
    pub config: BalanceConfig,
    job: Option<SimJob>,
    rows: Vec<BalanceRow>,
    previous: Vec<BalanceRow>,
    message: Option<String>,
    /// The difficulties of the script, read when its generation changes.
    known: Option<(u64, Vec<String>)>,
    /// Seconds the last run took.
    took: Option<f32>,
}

impl BalancePanel {
    /// The last run's rows.
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

    /// Starts a run of `config` on the script as it is now.
    pub fn run(&mut self, level: &TetrisLevel, script: &LiveScript) {
        let current = script.current();
        let setup = SimSetup {
            level: level.clone(),
            script_path: current.path().to_path_buf(),
            script_source: current.source().to_string(),
            limits: current.limits(),
        };
        let config = self.config.clone();
        self.message = None;
        self.took = None;
        self.job = Some(Job::spawn("balance", move |control| {
            simulate(&setup, &config, control)
        }));
    }

    /// Takes a finished run's result (call once per frame).
    pub fn poll(&mut self) {
        let Some(job) = self.job.as_mut() else {
            return;
        };
        let took = job.elapsed().as_secs_f32();
        match job.poll() {
            Poll::Running => return,
            Poll::Done(Ok(rows)) => {
                self.previous = std::mem::replace(&mut self.rows, rows);
                self.took = Some(took);
            }
            Poll::Done(Err(e)) => self.message = Some(e),
            Poll::Lost => self.message = Some("the simulation stopped unexpectedly".into()),
        }
        self.job = None;
    }

    /// Blocks until the running simulation ends (tests), at most `timeout`.
    pub fn wait(&mut self, timeout: Duration) {
        let Some(job) = self.job.as_mut() else {
            return;
        };
        let result = job.wait(timeout);
        self.job = None;
        match result {
            Some(Ok(rows)) => self.previous = std::mem::replace(&mut self.rows, rows),
            Some(Err(e)) => self.message = Some(e),
            None => self.message = Some("the simulation did not finish in time".into()),
        }
    }

    fn difficulties(&mut self, script: &LiveScript) -> Vec<String> {
        let generation = script.generation();
        if let Some((seen, names)) = &self.known
            && *seen == generation
        {
            return names.clone();
        }
        let names: Vec<String> = match tessera_tetris::settings::difficulties(&script.current()) {
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
    pub fn window(&mut self, ctx: &egui::Context, level: &TetrisLevel, script: &LiveScript) {
        self.poll();
        if !self.open {
            return;
        }
        let mut open = self.open;
        egui::Window::new("Balance")
            .open(&mut open)
            .default_size([560.0, 620.0])
            .show(ctx, |ui| self.ui(ui, level, script));
        self.open = open;
        if self.job.is_some() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, level: &TetrisLevel, script: &LiveScript) {
        let names = self.difficulties(script);
        let running = self.job.is_some();
        ui.add_enabled_ui(!running, |ui| {
            ui.horizontal(|ui| {
                ui.label("Games");
                ui.selectable_value(&mut self.config.mode, SimMode::Feed, "feed");
                ui.selectable_value(&mut self.config.mode, SimMode::Classic, "classic");
                if self.config.mode == SimMode::Feed {
                    ui.separator();
                    ui.label("feeder");
                    for feeder in ["random", "hate"] {
                        if ui
                            .selectable_label(self.config.feeder == feeder, feeder)
                            .clicked()
                        {
                            self.config.feeder = feeder.into();
                        }
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
                self.run(level, script);
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
        let win_title = match self.config.mode {
            SimMode::Feed => "AI win rate",
            SimMode::Classic => "survived the cap",
        };
        egui::Grid::new("balance rows")
            .striped(true)
            .num_columns(6)
            .show(ui, |ui| {
                for title in ["AI", "games", win_title, "mean lines", "median", "pieces"] {
                    ui.strong(title);
                }
                ui.end_row();
                for row in &self.rows {
                    ui.label(&row.difficulty);
                    ui.label(row.games.to_string());
                    ui.label(format!("{:.0}%", row.win_rate() * 100.0));
                    ui.label(format!("{:.1}", row.mean_lines));
                    ui.label(format!("{:.1}", row.median_lines));
                    ui.label(format!("{:.1}", row.mean_pieces));
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
            |r| r.win_rate() * 100.0,
        );
        ui.label(RichText::new("mean lines per AI").strong());
        bar_plot(
            ui,
            "balance lines",
            plot_height,
            &self.rows,
            &self.previous,
            |r| r.mean_lines,
        );
    }
}

/// Bars per difficulty: this run, and the last one beside it, faint.
fn bar_plot(
    ui: &mut egui::Ui,
    id: &str,
    height: f32,
    rows: &[BalanceRow],
    previous: &[BalanceRow],
    value: impl Fn(&BalanceRow) -> f64,
) {
    let names: Vec<String> = rows.iter().map(|r| r.difficulty.clone()).collect();
    let bars = |list: &[BalanceRow], shift: f64| -> Vec<Bar> {
        list.iter()
            .filter_map(|r| {
                let i = names.iter().position(|n| n == &r.difficulty)?;
                Some(
                    Bar::new(i as f64 + shift, value(r))
                        .width(0.35)
                        .name(&r.difficulty),
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
