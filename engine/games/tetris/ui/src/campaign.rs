//! The Balance window's campaign plot: the player's win rate on each feed
//! level of the project (`levels/tetris/feed_N_*.ron`, each against its
//! own difficulty and ceiling), one curve per feeder strength (`hate:P`:
//! a player who makes the hateful choice with chance P). A designer who
//! edits a difficulty table in `scripts/tetris.lua`, saves and runs again
//! sees the curve move; the last run stays beside it, faint.
//!
//! The run is the game's own `tessera_tetris_bot::campaign::play` (also
//! `tessera tetris campaign`): each level one run of the host's simulation,
//! one line-up per feeder strength; here on a worker `Job` with progress
//! over the whole campaign and cancel.

use std::path::Path;
use std::time::Duration;

use egui::{Color32, RichText};
use egui_plot::{Corner, Legend, Line, Plot, PlotPoints, Points};

use tessera_host::worker::Job;
use tessera_tetris_bot::ai::feeder::Feeder;
use tessera_tetris_bot::campaign::{CampaignConfig, CampaignCurve, CampaignRun};
use tessera_ui::text::count;

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
            tessera_tetris_bot::campaign::play(&root, &config, control, &mut |_, _, _| {})
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
