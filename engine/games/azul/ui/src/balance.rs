//! The Balance panel: `tessera sim azul`'s simulation (the host's
//! `tessera_host::sim`, the same code) for every pairing of the chosen AI
//! levels, on the host's `Job` with progress and cancel, and the win rates
//! plotted per pairing with their 95% intervals.

use std::path::PathBuf;
use std::time::Duration;
use tessera_ui::text::count;

use egui::{Color32, RichText};
use egui_plot::{Bar, BarChart, Legend, Plot};
use tessera_host::sim::{Lineup, PlayerSummary, SimConfig, SimLevel, SimOptions, run_sim};
use tessera_host::worker::{Job, Poll};
use tessera_host::{Budget, Seat, ThinkControl};

/// One pairing's figures: the first and the second level.
#[derive(Debug, Clone)]
pub struct Pairing {
    /// `medium vs hard`.
    pub name: String,
    /// The two players' summaries (seats rotate each game).
    pub players: [PlayerSummary; 2],
    /// Games played.
    pub games: usize,
}

type BalanceResult = Result<Vec<Pairing>, String>;

/// The panel's state.
pub struct Balance {
    levels: Vec<(String, bool)>,
    games: usize,
    move_ms: u64,
    seed: u64,
    job: Option<Job<BalanceResult>>,
    result: Option<BalanceResult>,
}

impl Balance {
    /// A panel offering `levels` (the script's AI levels).
    pub fn new(levels: &[String]) -> Self {
        Self {
            levels: levels.iter().map(|l| (l.clone(), l != "expert")).collect(),
            games: 10,
            move_ms: 100,
            seed: 0,
            job: None,
            result: None,
        }
    }

    /// Whether a simulation runs.
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// The last result.
    pub fn result(&self) -> Option<&BalanceResult> {
        self.result.as_ref()
    }

    /// Sets the games per pairing.
    pub fn set_games(&mut self, games: usize) {
        self.games = games.max(1);
    }

    /// Chooses which levels take part.
    pub fn choose(&mut self, level: &str, on: bool) {
        for (l, chosen) in &mut self.levels {
            if l == level {
                *chosen = on;
            }
        }
    }

    /// Starts every pairing of the chosen levels on a job.
    pub fn start(&mut self, root: PathBuf) {
        let chosen: Vec<String> = self
            .levels
            .iter()
            .filter(|(_, on)| *on)
            .map(|(l, _)| l.clone())
            .collect();
        let mut pairs = Vec::new();
        for i in 0..chosen.len() {
            for j in i + 1..chosen.len() {
                pairs.push((chosen[i].clone(), chosen[j].clone()));
            }
        }
        if pairs.is_empty() {
            self.result = Some(Err("choose at least two AI levels".into()));
            return;
        }
        let games = self.games;
        let seed = self.seed;
        let budget = Budget::time(Duration::from_millis(self.move_ms.max(1)));
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.result = None;
        self.job = Some(Job::spawn("azul balance", move |control| {
            run_pairings(&root, &pairs, games, seed, budget, threads, control)
        }));
    }

    /// Cancels the simulation (games under way stop after their move).
    pub fn cancel(&mut self) {
        if let Some(job) = self.job.take() {
            job.cancel();
            self.result = Some(Err("cancelled".into()));
        }
    }

    fn poll(&mut self) {
        let Some(job) = &mut self.job else {
            return;
        };
        match job.poll() {
            Poll::Running => {}
            Poll::Done(result) => {
                self.job = None;
                self.result = Some(result);
            }
            Poll::Lost => {
                self.job = None;
                self.result = Some(Err("the simulation stopped without a result".into()));
            }
        }
    }

    /// Draws the panel; `root` is the project the games are played in.
    pub fn ui(&mut self, ui: &mut egui::Ui, root: PathBuf) {
        self.poll();
        ui.label(
            "AI against AI, as `tessera sim azul` plays it: every pairing of the chosen \
             levels, seats swapped each game.",
        );
        ui.horizontal_wrapped(|ui| {
            for (level, on) in &mut self.levels {
                ui.checkbox(on, level.as_str());
            }
            ui.add(
                egui::DragValue::new(&mut self.games)
                    .range(1..=10_000)
                    .prefix("games per pairing "),
            );
            ui.add(
                egui::DragValue::new(&mut self.move_ms)
                    .range(1..=10_000)
                    .prefix("ms per move ")
                    .suffix(""),
            );
            ui.add(egui::DragValue::new(&mut self.seed).prefix("seed "));
        });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.job.is_none(), egui::Button::new("Run balance"))
                .clicked()
            {
                self.start(root);
            }
            if let Some(job) = &self.job {
                let control = job.control();
                ui.add(
                    egui::ProgressBar::new(control.progress() as f32)
                        .desired_width(200.0)
                        .text(control.note()),
                );
                if ui.button("Cancel balance").clicked() {
                    self.cancel();
                }
                ui.ctx().request_repaint_after(Duration::from_millis(100));
            }
        });
        match &self.result {
            Some(Ok(pairings)) => plot(ui, pairings),
            Some(Err(e)) => {
                ui.colored_label(Color32::from_rgb(0xC0, 0x39, 0x2B), e);
            }
            None => {}
        }
    }
}

/// Every pairing in one host simulation: a line-up per pairing, seats
/// swapped each game, all on the workers of one run (progress and cancel
/// over the whole).
fn run_pairings(
    root: &std::path::Path,
    pairs: &[(String, String)],
    games: usize,
    seed: u64,
    budget: Budget,
    threads: usize,
    control: &ThinkControl,
) -> BalanceResult {
    let config = SimConfig {
        game: "azul".into(),
        mode: None,
        lineups: pairs
            .iter()
            .map(|(a, b)| Lineup {
                label: format!("{a} vs {b}"),
                seats: vec![Seat::Ai { level: a.clone() }, Seat::Ai { level: b.clone() }],
                rotate: true,
            })
            .collect(),
        games: games as u64,
        seed,
        only: None,
        budget,
        threads,
        max_moves: 10_000,
        level: SimLevel::Default,
        options: SimOptions::default(),
    };
    let report = run_sim(
        root,
        &crate::registry(),
        &config,
        control,
        &mut |_, _, _| {},
    )?;
    if report.cancelled {
        return Err("cancelled".into());
    }
    report
        .tallies
        .iter()
        .map(|tally| {
            let [first, second]: [PlayerSummary; 2] = tally
                .players()
                .try_into()
                .map_err(|_| "a pairing has two players".to_string())?;
            Ok(Pairing {
                name: tally.label.clone(),
                players: [first, second],
                games: tally.games as usize,
            })
        })
        .collect()
}

fn plot(ui: &mut egui::Ui, pairings: &[Pairing]) {
    let first: Vec<Bar> = pairings
        .iter()
        .enumerate()
        .map(|(i, p)| {
            Bar::new(i as f64 - 0.18, p.players[0].rate * 100.0)
                .width(0.34)
                .name(format!("{}: {}", p.name, p.players[0].seat))
        })
        .collect();
    let second: Vec<Bar> = pairings
        .iter()
        .enumerate()
        .map(|(i, p)| {
            Bar::new(i as f64 + 0.18, p.players[1].rate * 100.0)
                .width(0.34)
                .name(format!("{}: {}", p.name, p.players[1].seat))
        })
        .collect();
    let names: Vec<String> = pairings.iter().map(|p| p.name.clone()).collect();
    Plot::new("azul balance plot")
        .height(220.0)
        .legend(Legend::default())
        .include_y(0.0)
        .include_y(100.0)
        .y_axis_label("win rate %")
        .x_axis_formatter(move |mark, _range| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.bar_chart(
                BarChart::new("first level", first).color(Color32::from_rgb(0x34, 0x98, 0xDB)),
            );
            plot.bar_chart(
                BarChart::new("second level", second).color(Color32::from_rgb(0xE6, 0x7E, 0x22)),
            );
        });
    egui::Grid::new("azul balance table")
        .striped(true)
        .show(ui, |ui| {
            for h in [
                "pairing",
                "player",
                "win rate",
                "95% interval",
                "mean",
                "median",
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for p in pairings {
                for s in &p.players {
                    ui.label(format!("{} ({})", p.name, count(p.games, "game")));
                    ui.label(&s.seat);
                    ui.label(format!("{:.1}%", s.rate * 100.0));
                    ui.label(format!("{:.1}% - {:.1}%", s.low * 100.0, s.high * 100.0));
                    ui.label(format!("{:.1}", s.mean));
                    ui.label(format!("{:.1}", s.median));
                    ui.end_row();
                }
            }
        });
}
