//! The Tests panel: the replay suite (`tests/replays/`) run in the
//! background against the project's scripts and levels as they are on disk,
//! each replay listed as unchanged, changed, new or failing. A changed one
//! shows its trajectory diff (old vs new score per step, the first differing
//! step highlighted); "Accept" writes the same `.snap` file `cargo insta
//! accept` would. "Open at step N" replays any test, changed or not, in the
//! playtest view stopped after step N: the first differing step, else the
//! end, or the step picked beside the button.

use std::path::{Path, PathBuf};

use egui::{Color32, RichText};
use tessera_host::project::Project;
use tessera_host::suite::{self, Case, Verdict};
use tessera_host::trajectory::{ParsedRow, parse_rows};
use tessera_host::worker::{Job, Poll};

/// One replay's result.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// The replay.
    pub case: Case,
    /// How it compares with its snapshot.
    pub verdict: Verdict,
    /// How many steps it plays now (`None` when it does not run).
    pub steps: Option<usize>,
}

/// What the user asked the panel to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestsRequest {
    /// Replay `case` in the playtest view up to step `step` (1-based; the
    /// first differing step, or the end).
    Open {
        /// The replay file.
        path: PathBuf,
        /// Steps to play before showing it.
        steps: Option<usize>,
    },
}

/// The panel's state.
#[derive(Default)]
pub struct TestsPanel {
    /// Whether the panel is shown.
    pub open: bool,
    job: Option<Job<Vec<CaseResult>>>,
    results: Vec<CaseResult>,
    selected: Option<usize>,
    /// The step "Open at step" opens the selected test at, once the
    /// designer picked one: (the test's index, the step).
    open_step: Option<(usize, usize)>,
    /// A line about the last run or accept.
    status: Option<String>,
}

impl TestsPanel {
    /// The results of the last finished run.
    pub fn results(&self) -> &[CaseResult] {
        &self.results
    }

    /// Whether a run is under way.
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// Starts a run of the whole suite on a worker thread. It opens its own
    /// copy of the project, so it reads every script and level from disk as
    /// `cargo test` does, and never blocks the editor.
    pub fn run_all(&mut self, project: &Project) {
        let root = project.root().to_path_buf();
        let registry = project.registry().clone();
        self.status = None;
        self.job = Some(Job::spawn("replay suite", move |control| {
            let cases = suite::cases(&root);
            let Ok(mut project) = Project::open(&root, registry) else {
                return Vec::new();
            };
            let total = cases.len().max(1);
            let mut results = Vec::with_capacity(cases.len());
            for (i, case) in cases.into_iter().enumerate() {
                if control.is_cancelled() {
                    break;
                }
                control.set_note(case.display(&root));
                let verdict = suite::check(&mut project, &case);
                let steps = match &verdict {
                    Verdict::Changed { new, .. } | Verdict::New { new } => {
                        Some(parse_rows(new).len())
                    }
                    Verdict::Unchanged => suite::read_snapshot(&case.snapshot_file(&root))
                        .map(|snapshot| parse_rows(&snapshot).len()),
                    Verdict::Failed(_) => None,
                };
                results.push(CaseResult {
                    case,
                    verdict,
                    steps,
                });
                control.set_progress((i + 1) as f64 / total as f64);
            }
            results
        }));
    }

    /// Picks up a finished run (called every frame).
    pub fn poll(&mut self) {
        let Some(job) = self.job.as_mut() else {
            return;
        };
        match job.poll() {
            Poll::Running => {}
            Poll::Done(results) => {
                let cancelled = job.is_cancelled();
                self.job = None;
                self.status = Some(summary(&results, cancelled));
                self.selected = results
                    .iter()
                    .position(|r| !matches!(r.verdict, Verdict::Unchanged));
                self.results = results;
            }
            Poll::Lost => {
                self.job = None;
                self.status = Some("the test run stopped unexpectedly".into());
            }
        }
    }

    /// Accepts the new trajectory of result `index`: writes its snapshot.
    pub fn accept(&mut self, root: &Path, index: usize) -> anyhow::Result<()> {
        let Some(result) = self.results.get_mut(index) else {
            anyhow::bail!("no test {index}");
        };
        let new = match &result.verdict {
            Verdict::Changed { new, .. } | Verdict::New { new } => new.clone(),
            Verdict::Unchanged => return Ok(()),
            Verdict::Failed(e) => anyhow::bail!("cannot accept a replay that fails: {e}"),
        };
        suite::write_snapshot(root, &result.case, &new)?;
        self.status = Some(format!(
            "accepted {} (wrote {})",
            result.case.display(root),
            result
                .case
                .snapshot_file(root)
                .strip_prefix(root)
                .unwrap_or(&result.case.snapshot_file(root))
                .display()
        ));
        result.verdict = Verdict::Unchanged;
        Ok(())
    }

    /// Draws the panel as a window; returns a request for the app.
    pub fn ui(&mut self, ctx: &egui::Context, project: &Project) -> Option<TestsRequest> {
        self.poll();
        if !self.open {
            return None;
        }
        if self.job.is_some() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        let mut open = self.open;
        let request =
            tessera_ui::tool_window(ctx, "Tests", &mut open, egui::vec2(1060.0, 560.0), |ui| {
                self.contents(ui, project)
            })
            .flatten();
        self.open = open;
        request
    }

    fn contents(&mut self, ui: &mut egui::Ui, project: &Project) -> Option<TestsRequest> {
        let mut request = None;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.job.is_none(), egui::Button::new("▶ Run all"))
                .on_hover_text(
                    "Re-run every replay in tests/replays/ against the scripts and levels on disk",
                )
                .clicked()
            {
                self.run_all(project);
            }
            if let Some(job) = &self.job {
                if ui.button("Cancel").clicked() {
                    job.cancel();
                }
                ui.add(
                    egui::ProgressBar::new(job.control().progress() as f32)
                        .desired_width(160.0)
                        .show_percentage(),
                );
                ui.weak(job.control().note());
            } else if let Some(status) = &self.status {
                ui.label(status);
            }
        });
        ui.weak("Replays in tests/replays/ run against the scripts and levels as saved; `cargo test` runs the same suite.");
        ui.separator();
        if self.results.is_empty() {
            ui.label(if self.job.is_some() {
                "Running…"
            } else {
                "Press Run all to check every replay."
            });
            return None;
        }
        let root = project.root().to_path_buf();
        // A fixed width: resizable, the list narrowed by a few pixels at
        // each new result and the whole detail column moved under the
        // pointer (the screen sweep's Tests panel).
        egui::Panel::left("tests list")
            .resizable(false)
            .exact_size(260.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    for (i, result) in self.results.iter().enumerate() {
                        let (mark, colour) = verdict_mark(&result.verdict);
                        let name = format!("{}/{}", result.case.game, result.case.name);
                        let text = RichText::new(format!("{mark} {name}")).color(colour);
                        // One row per test: a name wider than the list is
                        // cut with "…" (never broken mid-word onto a second
                        // line), and the whole name shows on hover.
                        let row = ui
                            .add(
                                egui::Button::selectable(self.selected == Some(i), text).truncate(),
                            )
                            .on_hover_text(name);
                        if row.clicked() {
                            self.selected = Some(i);
                        }
                    }
                });
            });
        let Some(index) = self.selected.filter(|i| *i < self.results.len()) else {
            ui.label("Select a replay.");
            return None;
        };
        let result = self.results[index].clone();
        ui.horizontal(|ui| {
            ui.strong(result.case.display(&root));
            let (_, colour) = verdict_mark(&result.verdict);
            ui.colored_label(colour, verdict_word(&result.verdict));
        });
        let first_difference = match &result.verdict {
            Verdict::Changed { old, new } => first_differing_step(old, new),
            _ => None,
        };
        let mut accept = false;
        ui.horizontal(|ui| {
            let can_accept = matches!(result.verdict, Verdict::Changed { .. } | Verdict::New { .. });
            if ui
                .add_enabled(can_accept, egui::Button::new("✔ Accept"))
                .on_hover_text("Make the new trajectory the expected one (writes the .snap file, as `cargo insta accept` does)")
                .clicked()
            {
                accept = true;
            }
            // Any test opens at any step: the first difference (or the
            // end) until the designer picks another beside the button.
            let picked = self.open_step.filter(|(i, _)| *i == index).map(|(_, s)| s);
            let mut step = picked.or(first_difference).or(result.steps);
            let open_label = match step {
                Some(step) => format!("Open at step {step}"),
                None => "Open".to_string(),
            };
            if ui
                .button(open_label)
                .on_hover_text("Replay it in the playtest view, stopped after this step")
                .clicked()
            {
                request = Some(TestsRequest::Open {
                    path: result.case.path.clone(),
                    steps: step,
                });
            }
            if let Some(step) = step.as_mut() {
                let last = result.steps.unwrap_or(0).max(*step);
                let picker = ui
                    .add(egui::DragValue::new(step).range(0..=last))
                    .on_hover_text(format!("The step to open at (0 to {last})"));
                if picker.changed() {
                    self.open_step = Some((index, *step));
                }
            }
        });
        if accept && let Err(e) = self.accept(&root, index) {
            self.status = Some(format!("error: {e:#}"));
        }
        ui.separator();
        match &result.verdict {
            Verdict::Changed { old, new } => diff_ui(ui, old, new, first_difference),
            Verdict::New { new } => {
                ui.label("No snapshot yet; Accept makes this the expected trajectory.");
                text_block(ui, new);
            }
            Verdict::Failed(e) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            Verdict::Unchanged => {
                ui.label("Same trajectory as the snapshot.");
            }
        }
        request
    }
}

/// The first step whose row differs (1-based), or the step after the last
/// when only the end (outcome, board) differs.
pub fn first_differing_step(old: &str, new: &str) -> Option<usize> {
    let old_rows = parse_rows(old);
    let new_rows = parse_rows(new);
    let differing = old_rows
        .iter()
        .zip(&new_rows)
        .find(|(a, b)| a != b)
        .map(|(a, _)| a.index);
    differing.or_else(|| {
        (old_rows.len() != new_rows.len()).then(|| old_rows.len().min(new_rows.len()) + 1)
    })
}

/// One step of a trajectory diff, as the panel lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffRow {
    /// 1-based step.
    pub index: usize,
    /// The step (actor and action) as the new trajectory has it.
    pub step: String,
    /// The score column, old and new (`-` where the game keeps none).
    pub scores: (String, String),
    /// What happened at the step now.
    pub events: String,
    /// What happened before, when that differs (the old events' text).
    pub was: Option<String>,
    /// Whether anything in the row changed.
    pub differs: bool,
}

/// The rows of a trajectory diff, for any game: each step with its new
/// events and, where they changed, the old ones in full.
pub fn diff_rows(old: &str, new: &str) -> Vec<DiffRow> {
    let old_rows = parse_rows(old);
    let new_rows = parse_rows(new);
    let missing = ParsedRow {
        index: 0,
        step: String::new(),
        scores: "—".into(),
        events: String::new(),
    };
    (0..old_rows.len().max(new_rows.len()))
        .map(|i| {
            let a = old_rows.get(i).unwrap_or(&missing);
            let b = new_rows.get(i).unwrap_or(&missing);
            let step = if b.step.is_empty() { &a.step } else { &b.step };
            let was = (a.events != b.events || a.step != b.step).then(|| {
                if a.index == 0 {
                    "(no such step)".to_string()
                } else if a.step != b.step && b.index != 0 {
                    format!("{} | {}", a.step.trim(), a.events.trim())
                } else {
                    a.events.trim().to_string()
                }
            });
            DiffRow {
                index: if b.index > 0 { b.index } else { a.index },
                step: step.trim().to_string(),
                scores: (a.scores.trim().to_string(), b.scores.trim().to_string()),
                events: if b.index == 0 {
                    "(no such step now)".into()
                } else {
                    b.events.trim().to_string()
                },
                was,
                differs: a != b,
            }
        })
        .collect()
}

/// Whether any row has a score worth a column: games without scores write
/// `-` in every row (polycube), and two columns of dashes say nothing.
fn has_scores(rows: &[DiffRow]) -> bool {
    let blank = |s: &str| s.is_empty() || s == "-" || s == "—";
    rows.iter()
        .any(|r| !blank(&r.scores.0) || !blank(&r.scores.1))
}

/// The diff as a list that wraps to the window's width: per step its
/// number, action and (for games with scores) old → new score on one line,
/// then what happened, and for a changed step what happened before
/// ("was: …"), so long events are read whole, not cut off at the right.
fn diff_ui(ui: &mut egui::Ui, old: &str, new: &str, first: Option<usize>) {
    let rows = diff_rows(old, new);
    ui.label(match first {
        Some(step) => format!("First difference at step {step} of {}.", rows.len()),
        None => "The steps agree; the end state differs.".into(),
    });
    let scores = has_scores(&rows);
    let highlight = ui.visuals().warn_fg_color;
    let weak = ui.visuals().weak_text_color();
    egui::ScrollArea::vertical()
        .id_salt("trajectory diff")
        .max_height(260.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for row in &rows {
                let paint = |text: String| {
                    let rich = RichText::new(text).monospace();
                    if Some(row.index) == first {
                        rich.color(highlight).strong()
                    } else if row.differs {
                        rich.color(highlight)
                    } else {
                        rich
                    }
                };
                let mut head = format!("{:>4}  {}", row.index, row.step);
                if scores {
                    if row.scores.0 == row.scores.1 {
                        head.push_str(&format!("  ·  {}", row.scores.1));
                    } else {
                        head.push_str(&format!("  ·  {} → {}", row.scores.0, row.scores.1));
                    }
                }
                ui.add(egui::Label::new(paint(head)).wrap());
                if !row.events.is_empty() {
                    ui.horizontal_wrapped(|ui| {
                        ui.add_space(40.0);
                        ui.add(egui::Label::new(paint(row.events.clone())).wrap());
                    });
                }
                if let Some(was) = &row.was {
                    ui.horizontal_wrapped(|ui| {
                        ui.add_space(40.0);
                        let text = if was.is_empty() {
                            "was: (nothing)".to_string()
                        } else {
                            format!("was: {was}")
                        };
                        ui.add(
                            egui::Label::new(RichText::new(text).monospace().color(weak)).wrap(),
                        );
                    });
                }
            }
        });
    let end = |text: &str| -> String {
        text.lines()
            .skip_while(|l| !l.starts_with("outcome:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (old_end, new_end) = (end(old), end(new));
    if old_end != new_end {
        ui.collapsing("End state (old | new)", |ui| {
            ui.columns(2, |columns| {
                text_block(&mut columns[0], &old_end);
                text_block(&mut columns[1], &new_end);
            });
        });
    }
}

fn text_block(ui: &mut egui::Ui, text: &str) {
    egui::ScrollArea::both()
        .id_salt(text.len())
        .max_height(220.0)
        .show(ui, |ui| {
            ui.label(RichText::new(text).monospace());
        });
}

fn verdict_mark(verdict: &Verdict) -> (&'static str, Color32) {
    match verdict {
        Verdict::Unchanged => ("✔", Color32::from_rgb(110, 190, 110)),
        Verdict::Changed { .. } => ("●", Color32::from_rgb(230, 180, 60)),
        Verdict::New { .. } => ("+", Color32::from_rgb(120, 170, 230)),
        Verdict::Failed(_) => ("✖", Color32::from_rgb(230, 90, 80)),
    }
}

fn verdict_word(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Unchanged => "unchanged",
        Verdict::Changed { .. } => "changed",
        Verdict::New { .. } => "new (no snapshot)",
        Verdict::Failed(_) => "fails to run",
    }
}

fn summary(results: &[CaseResult], cancelled: bool) -> String {
    let count = |f: fn(&Verdict) -> bool| results.iter().filter(|r| f(&r.verdict)).count();
    let changed = count(|v| matches!(v, Verdict::Changed { .. }));
    let new = count(|v| matches!(v, Verdict::New { .. }));
    let failed = count(|v| matches!(v, Verdict::Failed(_)));
    let unchanged = count(|v| matches!(v, Verdict::Unchanged));
    let mut text = format!("{unchanged} unchanged, {changed} changed");
    if new > 0 {
        text.push_str(&format!(", {new} new"));
    }
    if failed > 0 {
        text.push_str(&format!(", {failed} failing"));
    }
    if cancelled {
        text.push_str(" (cancelled)");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_differing_step_is_found() {
        let old = "game: x\nsteps: 3\n   1 | A | score 0\n   2 | B | score 10\n   3 | C | score 10\noutcome: playing\n";
        let new = "game: x\nsteps: 3\n   1 | A | score 0\n   2 | B | score 20\n   3 | C | score 20\noutcome: playing\n";
        assert_eq!(first_differing_step(old, new), Some(2));
        assert_eq!(first_differing_step(old, old), None);
        let shorter = "game: x\nsteps: 2\n   1 | A | score 0\n   2 | B | score 10\noutcome: won\n";
        assert_eq!(first_differing_step(old, shorter), Some(3));
    }

    /// A polycube replay whose refusal text changed: the row keeps the
    /// new events and the old ones in full ("was"), and there is no score
    /// column to show (every score is `-`).
    #[test]
    fn a_diff_row_keeps_the_old_events_and_scoreless_games_get_no_score_column() {
        let old = "game: polycube\nsteps: 2\n   1 | Place(piece:\"A\") | -\n   2 | Place(piece:\"B\") | - | refused: illegal action: Collision: cell (1, 1, 1) is taken by piece `A`\noutcome: playing\n";
        let new = "game: polycube\nsteps: 2\n   1 | Place(piece:\"A\") | -\n   2 | Place(piece:\"B\") | - | refused: Collision: cell (1, 1, 1) is taken by piece `A`\noutcome: playing\n";
        let rows = diff_rows(old, new);
        assert_eq!(rows.len(), 2);
        assert!(!rows[0].differs);
        assert_eq!(rows[0].was, None);
        assert!(rows[1].differs);
        assert_eq!(
            rows[1].events,
            "refused: Collision: cell (1, 1, 1) is taken by piece `A`"
        );
        assert_eq!(
            rows[1].was.as_deref(),
            Some("refused: illegal action: Collision: cell (1, 1, 1) is taken by piece `A`")
        );
        assert!(!has_scores(&rows));
        // A game with scores keeps its column; a step only one side has
        // says so.
        let scored_old = "   1 | A | score 0\n   2 | B | score 10\n";
        let scored_new = "   1 | A | score 0\n";
        let rows = diff_rows(scored_old, scored_new);
        assert!(has_scores(&rows));
        assert_eq!(rows[1].events, "(no such step now)");
        assert_eq!(rows[1].scores, ("score 10".into(), "—".into()));
    }
}
