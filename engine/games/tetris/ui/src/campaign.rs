//! The Balance window's campaign plot: the player's win rate on each feed
//! level of the project (`levels/tetris/feed_N_*.ron`, each against its
//! own difficulty and ceiling), one curve per feeder strength (`hate:P`:
//! a player who makes the hateful choice with chance P). A designer who
//! edits a difficulty table in `scripts/tetris.lua`, saves and runs again
//! sees the curve move; the last run stays beside it, faint.
//!
//! Each level is one run of the host's simulation (the same as `tessera
//! sim tetris --mode feed --feeder hate:P --level FILE`), one line-up per
//! feeder strength, on a worker `Job` with progress over the whole
//! campaign and cancel.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui::{Color32, RichText};
use egui_plot::{Corner, Legend, Line, Plot, PlotPoints, Points};

use tessera_host::sim::{Lineup, SimConfig, SimLevel, SimOptions, run_sim};
use tessera_host::worker::Job;
use tessera_host::{Budget, Seat};
use tessera_tetris::ai::feeder::Feeder;
use tessera_tetris::level::TetrisLevel;
use tessera_ui::text::count;

/// What a campaign run plays.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignConfig {
    /// The feeder strengths, one curve each.
    pub feeders: Vec<Feeder>,
    /// Games per level and feeder.
    pub games: usize,
    /// Seed of each level's first game (game i plays seed + i).
    pub seed: u64,
}

impl Default for CampaignConfig {
    fn default() -> Self {
        Self {
            feeders: [250_000, 500_000, 750_000]
                .into_iter()
                .map(|per_million| Feeder::Hate { per_million })
                .collect(),
            games: 20,
            seed: 100_000,
        }
    }
}

/// One level's figure on a curve.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignPoint {
    /// The level's place in the campaign (1 = the first feed level).
    pub level: usize,
    /// Its file name.
    pub file: String,
    /// The player's win rate, 0 to 1.
    pub player_win: f64,
    /// Games played.
    pub games: u64,
}

/// One feeder strength's curve.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignCurve {
    /// The feeder, as seats name it (`hate:0.5`).
    pub feeder: String,
    /// Its points, level by level.
    pub points: Vec<CampaignPoint>,
}

/// The feed levels of the project at `root`, in campaign order (by the
/// number after `feed_`, then by name), each with its level read as a
/// game start reads it.
pub fn feed_levels(root: &Path) -> Result<Vec<(PathBuf, TetrisLevel)>, String> {
    let folder = root.join("levels/tetris");
    let entries = std::fs::read_dir(&folder)
        .map_err(|e| format!("{}: cannot list: {e}", folder.display()))?;
    let mut files: Vec<(u64, String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?.to_string();
            let rest = name.strip_prefix("feed_")?.strip_suffix(".ron")?;
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            Some((digits.parse().unwrap_or(u64::MAX), name, path))
        })
        .collect();
    files.sort();
    let mut levels = Vec::new();
    for (_, _, path) in files {
        let text = tessera_host::level::read_text(&path).map_err(|d| d.to_string())?;
        let level: TetrisLevel =
            tessera_host::level::parse_level(&text, &path).map_err(|d| d.to_string())?;
        if level.feed.is_some() {
            levels.push((path, level));
        }
    }
    if levels.is_empty() {
        return Err(format!(
            "no feed levels (feed_N_*.ron) in {}",
            folder.display()
        ));
    }
    Ok(levels)
}

/// What a finished campaign run brings back.
struct CampaignRun {
    curves: Vec<CampaignCurve>,
    games: u64,
    cancelled: bool,
}

/// Plays every feed level of `root` against each feeder of `config`.
fn play_campaign(
    root: &Path,
    config: &CampaignConfig,
    control: &tessera_host::agent::ThinkControl,
) -> Result<CampaignRun, String> {
    let levels = feed_levels(root)?;
    let mut curves: Vec<CampaignCurve> = config
        .feeders
        .iter()
        .map(|f| CampaignCurve {
            feeder: f.name(),
            points: Vec::new(),
        })
        .collect();
    let mut games = 0;
    let n = levels.len();
    for (i, (path, level)) in levels.iter().enumerate() {
        let Some(feed) = &level.feed else { continue };
        let placer = Seat::Ai {
            level: feed.difficulty.to_lowercase(),
        };
        let lineups = config
            .feeders
            .iter()
            .map(|feeder| Lineup {
                label: feeder.name(),
                seats: vec![
                    Seat::Ai {
                        level: feeder.name(),
                    },
                    placer.clone(),
                ],
                rotate: false,
            })
            .collect();
        let sim = SimConfig {
            game: "tetris".into(),
            mode: Some("feed".into()),
            lineups,
            games: config.games.max(1) as u64,
            seed: config.seed,
            only: None,
            budget: Budget::unbounded(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_moves: usize::MAX,
            level: SimLevel::File(path.clone()),
            options: SimOptions::default(),
        };
        let report = run_sim(
            root,
            crate::registry,
            &sim,
            control,
            &mut |_, done, total| {
                // Progress over the whole campaign, not this level's run.
                let level_part = done as f64 / total.max(1) as f64;
                control.set_progress((i as f64 + level_part) / n as f64);
                control.set_note(format!("level {}/{n}: {done}/{total} games", i + 1));
            },
        )?;
        games += report.games;
        if report.cancelled {
            return Ok(CampaignRun {
                curves,
                games,
                cancelled: true,
            });
        }
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (curve, tally) in curves.iter_mut().zip(&report.tallies) {
            curve.points.push(CampaignPoint {
                level: i + 1,
                file: file.clone(),
                player_win: tally.figure("player_win").map_or(0.0, |f| f.stat.value()),
                games: tally.games,
            });
        }
    }
    Ok(CampaignRun {
        curves,
        games,
        cancelled: false,
    })
}

/// The campaign part of the Balance window.
#[derive(Default)]
pub struct CampaignPanel {
    /// What the next run plays.
    pub config: CampaignConfig,
    job: Option<Job<Result<CampaignRun, String>>>,
    curves: Vec<CampaignCurve>,
    previous: Vec<CampaignCurve>,
    message: Option<String>,
    took: Option<f32>,
}

impl CampaignPanel {
    /// The last finished run's curves, one per feeder strength.
    pub fn curves(&self) -> &[CampaignCurve] {
        &self.curves
    }

    /// Whether a run is going on.
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// The last run's error, or how far a cancelled run got.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Asks the running campaign to stop.
    pub fn cancel(&self) {
        if let Some(job) = &self.job {
            job.cancel();
        }
    }

    /// Starts a run on the project at `root`, with its levels and script
    /// as they are saved now.
    pub fn run(&mut self, root: &Path) {
        let root = root.to_path_buf();
        let config = self.config.clone();
        self.message = None;
        self.took = None;
        self.job = Some(Job::spawn("campaign", move |control| {
            play_campaign(&root, &config, control)
        }));
    }

    fn finish(&mut self, result: Option<Result<CampaignRun, String>>, took: f32) {
        self.job = None;
        match result {
            Some(Ok(run)) if run.cancelled => {
                self.message = Some(format!("cancelled after {}", count(run.games, "game")));
            }
            Some(Ok(run)) => {
                self.previous = std::mem::replace(&mut self.curves, run.curves);
                self.took = Some(took);
            }
            Some(Err(e)) => self.message = Some(e),
            None => self.message = Some("the campaign stopped unexpectedly".into()),
        }
    }

    /// Takes a finished run's result (once per frame).
    pub fn poll(&mut self) {
        let Some(job) = self.job.as_mut() else {
            return;
        };
        let took = job.elapsed().as_secs_f32();
        if let Some(result) = job.poll().ended() {
            self.finish(result, took);
        }
    }

    /// Blocks until the running campaign ends (tests), at most `timeout`.
    pub fn wait(&mut self, timeout: Duration) {
        let Some(job) = self.job.as_mut() else {
            return;
        };
        let result = job.wait(timeout);
        let took = job.elapsed().as_secs_f32();
        self.finish(result, took);
    }

    /// Draws the campaign's choices, progress and plot.
    pub fn ui(&mut self, ui: &mut egui::Ui, root: &Path) {
        self.poll();
        let running = self.job.is_some();
        ui.add_enabled_ui(!running, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label("feeders");
                for feeder in Feeder::listed() {
                    let mut on = self.config.feeders.contains(&feeder);
                    if ui.checkbox(&mut on, feeder.name()).changed() {
                        if on {
                            self.config.feeders.push(feeder);
                            // Keep the menu's order (weakest first).
                            let listed = Feeder::listed();
                            self.config
                                .feeders
                                .sort_by_key(|f| listed.iter().position(|l| l == f));
                        } else {
                            self.config.feeders.retain(|f| *f != feeder);
                        }
                    }
                }
            });
            ui.horizontal(|ui| {
                let games = ui.label("games per level");
                ui.add(egui::DragValue::new(&mut self.config.games).range(1..=1000))
                    .labelled_by(games.id);
                let seed = ui.label("seed");
                ui.add(egui::DragValue::new(&mut self.config.seed))
                    .labelled_by(seed.id);
            });
        });
        ui.horizontal(|ui| {
            if let Some(job) = &self.job {
                if ui.button("Cancel").clicked() {
                    job.cancel();
                }
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
                ui.ctx().request_repaint_after(Duration::from_millis(100));
            } else {
                if ui
                    .add_enabled(
                        !self.config.feeders.is_empty(),
                        egui::Button::new("▶ Run campaign"),
                    )
                    .on_hover_text(
                        "Plays every feed level against each feeder in the background, with the script and levels as saved now",
                    )
                    .clicked()
                {
                    self.run(root);
                }
                if let Some(took) = self.took {
                    ui.weak(format!("done in {took:.1} s"));
                }
            }
        });
        if let Some(message) = &self.message {
            ui.colored_label(ui.visuals().error_fg_color, message);
        }
        if self.curves.is_empty() {
            ui.weak("No campaign run yet: it plays levels/tetris/feed_N_*.ron, each against its own AI, once per feeder strength.");
            return;
        }
        ui.label(RichText::new("player win rate per feed level (%)").strong());
        campaign_plot(ui, &self.curves, &self.previous);
    }
}

/// A colour per curve, the same for its last run (faint).
fn curve_colour(i: usize, faint: bool) -> Color32 {
    const COLOURS: [(u8, u8, u8); 5] = [
        (90, 170, 250),
        (250, 170, 60),
        (230, 80, 90),
        (120, 200, 110),
        (190, 130, 230),
    ];
    let (r, g, b) = COLOURS[i % COLOURS.len()];
    if faint {
        Color32::from_rgba_unmultiplied(r, g, b, 90)
    } else {
        Color32::from_rgb(r, g, b)
    }
}

/// One line per feeder strength over the levels, the last run's faint
/// beside it; the y axis is the player's win rate in percent.
fn campaign_plot(ui: &mut egui::Ui, curves: &[CampaignCurve], previous: &[CampaignCurve]) {
    let points = |curve: &CampaignCurve| -> Vec<[f64; 2]> {
        curve
            .points
            .iter()
            .map(|p| [p.level as f64, p.player_win * 100.0])
            .collect()
    };
    let height = (ui.available_height() - 10.0).clamp(160.0, 320.0);
    Plot::new("campaign player win rate")
        .height(height)
        // Bottom left: early levels are meant to be won, so it is empty.
        .legend(Legend::default().position(Corner::LeftBottom))
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(100.0)
        .x_axis_label("feed level")
        .x_axis_formatter(|mark, _range| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 1.0 {
                format!("{i}")
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            for (i, curve) in previous.iter().enumerate() {
                plot.line(
                    Line::new(format!("{} (last run)", curve.feeder), points(curve))
                        .color(curve_colour(i, true)),
                );
            }
            for (i, curve) in curves.iter().enumerate() {
                let colour = curve_colour(i, false);
                plot.line(Line::new(curve.feeder.clone(), points(curve)).color(colour));
                plot.points(
                    Points::new(curve.feeder.clone(), PlotPoints::from(points(curve)))
                        .radius(3.0)
                        .color(colour),
                );
            }
        });
}
