//! The level editor's validator row: "Solvable?" (a first solution),
//! "Unique?" (stops at the second distinct one; both with the generator's
//! difficulty estimate beside a yes) and "Count all" (every
//! solution, with progress), each on a worker thread with Cancel. The
//! answers belong to the box and the pieces' shapes, so renaming the level
//! or a piece keeps them; a change of shape drops them, and on a small
//! box the quick question is asked again at once (live).

use egui::Ui;
use tessera_host::worker::{Job, Poll};
use tessera_polycube::geometry::Cell;
use tessera_polycube::{PolycubeLevel, Solver, Verdict};

/// Boxes up to this many cells are checked live after every change (the
/// validator answers them in milliseconds).
pub const LIVE_VOLUME: usize = 125;

/// What a level's answers are about: the box and the shapes.
type Geometry = ([usize; 3], Vec<Vec<Cell>>);

/// The three questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Question {
    Solvable,
    Unique,
    Count,
}

/// The validator row's state.
#[derive(Default)]
pub struct Solvable {
    about: Option<Geometry>,
    running: Option<(Question, Job<Result<String, String>>)>,
    answer: Option<String>,
}

impl Solvable {
    /// Drops the answers and any running question (the level changed).
    pub fn forget(&mut self) {
        self.about = None;
        self.running = None;
        self.answer = None;
    }

    fn ask(&mut self, question: Question, level: &PolycubeLevel) {
        let level = level.clone();
        let job = Job::spawn("polycube validator", move |control| {
            let solver =
                Solver::new(level.extents(), &level.shapes()).map_err(|e| e.to_string())?;
            let cancel = control.cancel_flag();
            // The generator's difficulty estimate, beside a yes: the
            // mean nodes of a plain search to the first packing.
            let difficulty = || -> Result<String, String> {
                let work = tessera_polycube::generate::difficulty::work(
                    level.extents(),
                    &level.shapes(),
                    cancel,
                )
                .map_err(|e| e.to_string())?;
                let (d, word) = tessera_polycube::generate::difficulty(&work);
                Ok(format!("; difficulty {d:.1} ({word})"))
            };
            match question {
                Question::Solvable => {
                    Ok(match solver.first(cancel).map_err(|e| e.to_string())? {
                        Some(_) => format!("solvable: a packing exists{}", difficulty()?),
                        None => "not solvable".to_string(),
                    })
                }
                Question::Unique => {
                    Ok(match solver.verdict(cancel).map_err(|e| e.to_string())? {
                        Verdict::NoSolution => "not solvable".to_string(),
                        Verdict::Unique(_) => format!(
                            "solvable, unique (one packing up to symmetry){}",
                            difficulty()?
                        ),
                        Verdict::NotUnique(..) => format!(
                            "solvable, not unique (2 or more packings up to symmetry){}",
                            difficulty()?
                        ),
                    })
                }
                Question::Count => {
                    let counts = solver
                        .count(cancel, &mut |p| {
                            control.set_progress(f64::from(p.fraction()));
                            control.set_note(format!(
                                "{} solutions so far · {}/{} subtrees",
                                p.counts.solutions, p.done, p.total
                            ));
                        })
                        .map_err(|e| e.to_string())?;
                    Ok(if counts.solutions == 0 {
                        "not solvable".to_string()
                    } else {
                        format!(
                            "solvable: {} solutions, {} distinct",
                            counts.solutions, counts.distinct
                        )
                    })
                }
            }
        });
        self.running = Some((question, job));
        self.answer = None;
    }

    /// The row: three buttons and the answer, or the progress and Cancel.
    /// `playable`: the level passes its diagnosis (else nothing is asked).
    pub fn ui(&mut self, ui: &mut Ui, level: &PolycubeLevel, playable: bool) {
        let geometry: Geometry = (level.extents(), level.shapes());
        if self.about.as_ref() != Some(&geometry) {
            self.forget();
            let volume: usize = geometry.0.iter().product();
            if playable && volume <= LIVE_VOLUME {
                self.ask(Question::Unique, level);
            }
            self.about = Some(geometry);
        }
        if let Some((_, job)) = self.running.as_mut() {
            let finished = match job.poll() {
                Poll::Done(outcome) => Some(outcome.unwrap_or_else(|e| e)),
                Poll::Lost => Some("the solve stopped unexpectedly".to_string()),
                Poll::Running => None,
            };
            if let Some(answer) = finished {
                self.answer = Some(answer);
                self.running = None;
            }
        }
        ui.horizontal(|ui| {
            let idle = self.running.is_none();
            for (question, label, hover) in [
                (
                    Question::Solvable,
                    "Solvable?",
                    "Find one packing (stops at the first)",
                ),
                (
                    Question::Unique,
                    "Unique?",
                    "Stop at the second packing that no symmetry of the box maps onto the first",
                ),
                (
                    Question::Count,
                    "Count all",
                    "Count every packing and the distinct ones (can take minutes on a big box)",
                ),
            ] {
                let button = ui
                    .add_enabled(playable && idle, egui::Button::new(label))
                    .on_hover_text(hover);
                if button.clicked() {
                    self.ask(question, level);
                }
            }
            if let Some((_, job)) = &self.running
                && ui.button("Cancel").clicked()
            {
                job.cancel();
            }
        });
        // The answer (or the progress) in a slot of its own below the
        // buttons, wrapped to the panel: a long answer ("…; difficulty 37.3
        // (expert)") is read whole, never clipped at the panel's edge, and
        // what follows does not move when it comes or goes.
        tessera_ui::slot::line_slot(ui, 2, |ui| match &self.running {
            Some((question, job)) => {
                let control = job.control();
                let seconds = job.elapsed().as_secs_f32();
                ui.horizontal_wrapped(|ui| {
                    if *question == Question::Count {
                        ui.add(
                            egui::ProgressBar::new(control.progress() as f32).desired_width(120.0),
                        );
                    }
                    let note = control.note();
                    ui.label(if note.is_empty() {
                        format!("working · {seconds:.0} s")
                    } else {
                        format!("{note} · {seconds:.0} s")
                    });
                });
                // Polled a few times a second: the quick questions answer
                // within a frame or two, the count's bar moves smoothly
                // enough.
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(50));
            }
            None => {
                if let Some(answer) = &self.answer {
                    ui.add(egui::Label::new(answer).wrap())
                        .on_hover_text(answer);
                }
            }
        });
    }
}
