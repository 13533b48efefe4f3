//! "Show a solution" in the playtest: the solver finds a packing on a
//! worker thread, and Prev / Next build it in the 3D view one piece at a
//! time. In play mode pieces come bottom first (each then rests on the
//! floor or an earlier piece); in assembly mode they come in an order
//! that assembly mode accepts, each sliding in from the side it names.

use egui::{Color32, Ui};
use tessera_host::worker::{Job, Poll};
use tessera_polycube::disassembly::assembly_order;
use tessera_polycube::geometry::Cell;
use tessera_polycube::{PolycubeLevel, Solver};

use super::iso::Cube;

/// One step: a piece, its cells, and how it comes in (assembly mode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Index of the piece.
    pub piece: usize,
    /// Its 0-based cells in the solution.
    pub cells: Vec<Cell>,
    /// The side it slides in from (assembly mode only).
    pub from: Option<String>,
}

/// Finds a solution and the order to show it in: bottom first, or (with
/// `assembly`) an order assembly mode accepts.
pub fn find_steps(
    level: &PolycubeLevel,
    assembly: bool,
    cancel: &std::sync::atomic::AtomicBool,
) -> Result<Vec<Step>, String> {
    let solver = Solver::new(level.extents(), &level.shapes()).map_err(|e| e.to_string())?;
    if assembly {
        let solution = solver
            .first_assemblable(cancel)
            .map_err(|e| e.to_string())?
            .ok_or("no packing of this level comes apart in straight lines")?;
        let order = assembly_order(level.extents(), &solution.pieces, true)
            .ok_or("no packing found can be built with every piece supported")?;
        return Ok(order
            .into_iter()
            .map(|step| Step {
                piece: step.piece,
                cells: solution.pieces[step.piece].clone(),
                from: Some(step.out.to_string()),
            })
            .collect());
    }
    let solution = solver
        .first(cancel)
        .map_err(|e| e.to_string())?
        .ok_or("this level has no solution")?;
    // By lowest z: the cell under a piece's lowest cube belongs to a piece
    // that starts lower, so every piece lands supported.
    let mut steps: Vec<Step> = solution
        .pieces
        .into_iter()
        .enumerate()
        .map(|(piece, cells)| Step {
            piece,
            cells,
            from: None,
        })
        .collect();
    steps.sort_by_key(|s| {
        let low = s.cells.iter().copied().min_by_key(|c| (c[2], c[1], c[0]));
        low.map(|c| (c[2], c[1], c[0]))
    });
    Ok(steps)
}

/// The stepper's state.
#[derive(Default)]
pub struct SolutionSteps {
    job: Option<Job<Result<Vec<Step>, String>>>,
    steps: Vec<Step>,
    /// Pieces shown (1 to `steps.len()`); 0 while closed.
    shown: usize,
    message: Option<String>,
}

impl SolutionSteps {
    /// Whether a solution is being shown (the 3D view shows it instead of
    /// the board).
    pub fn active(&self) -> bool {
        self.shown > 0
    }

    /// Whether a solution is being searched for (its job is polled, with
    /// its progress and Cancel, by [`Self::ui`]).
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// The row: "Show a solution", or the step with Prev / Next / Close.
    pub fn ui(&mut self, ui: &mut Ui, level: &PolycubeLevel, assembly: bool, ids: &[String]) {
        if let Some(job) = self.job.as_mut() {
            match job.poll() {
                Poll::Running => {}
                Poll::Done(Ok(steps)) => {
                    self.job = None;
                    self.shown = usize::from(!steps.is_empty());
                    self.steps = steps;
                }
                Poll::Done(Err(e)) => {
                    self.job = None;
                    self.message = Some(e);
                }
                Poll::Lost => {
                    self.job = None;
                    self.message = Some("the solve stopped unexpectedly".into());
                }
            }
        }
        ui.horizontal(|ui| {
            if let Some(job) = &self.job {
                ui.label(format!(
                    "Finding a solution… {:.1} s",
                    job.elapsed().as_secs_f32()
                ));
                if ui.button("Cancel").clicked() {
                    job.cancel();
                }
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(50));
                return;
            }
            if !self.active() {
                let label = if assembly {
                    "Show a solution (assembly order)"
                } else {
                    "Show a solution"
                };
                if ui
                    .button(label)
                    .on_hover_text(
                        "Step through a packing piece by piece in the 3D view (your board is kept)",
                    )
                    .clicked()
                {
                    self.message = None;
                    let level = level.clone();
                    self.job = Some(Job::spawn("polycube solution", move |control| {
                        find_steps(&level, assembly, control.cancel_flag())
                    }));
                }
                if let Some(message) = &self.message {
                    ui.label(message);
                }
                return;
            }
            let n = self.steps.len();
            if ui
                .add_enabled(self.shown > 1, egui::Button::new("◀ Prev"))
                .clicked()
            {
                self.shown -= 1;
            }
            if ui
                .add_enabled(self.shown < n, egui::Button::new("Next ▶"))
                .clicked()
            {
                self.shown += 1;
            }
            let step = &self.steps[self.shown - 1];
            let id = ids.get(step.piece).map_or("?", String::as_str);
            let how = match &step.from {
                Some(side) => format!(", slides in from the {side} side"),
                None => String::new(),
            };
            ui.label(format!("Solution step {}/{n}: piece {id}{how}", self.shown));
            if ui.button("Close").clicked() {
                self.shown = 0;
            }
        });
    }

    /// The cubes of the pieces shown so far; the latest one bright, the
    /// earlier ones dimmed.
    pub fn cubes(&self, colour: impl Fn(usize) -> Color32) -> Vec<Cube> {
        let mut cubes = Vec::new();
        for (i, step) in self.steps.iter().take(self.shown).enumerate() {
            let base = colour(step.piece);
            let colour = if i + 1 == self.shown {
                base
            } else {
                base.lerp_to_gamma(Color32::from_gray(60), 0.35)
            };
            cubes.extend(step.cells.iter().map(|&cell| Cube { cell, colour }));
        }
        cubes
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use tessera_polycube::Rules;

    use super::*;

    /// Both orders replay through the rules, piece by piece, to a win: in
    /// play mode bottom first, in assembly mode with every slide free.
    #[test]
    fn both_orders_replay_through_the_rules() {
        let path = tessera_testkit::repo_path("levels/polycube/soma.ron");
        let (level, _) = tessera_polycube::import::load_any(&path).unwrap();
        for assembly in [false, true] {
            let steps = find_steps(&level, assembly, &AtomicBool::new(false)).unwrap();
            assert_eq!(steps.len(), level.pieces.len());
            assert_eq!(steps.iter().all(|s| s.from.is_some()), assembly);
            let mut rules = Rules::new(&level, true);
            rules.set_assembly(assembly);
            for step in &steps {
                let cells: Vec<_> = step
                    .cells
                    .iter()
                    .map(|&c| tessera_polycube::user_cell(c))
                    .collect();
                rules.place_cells(step.piece, &cells).unwrap();
            }
            assert!(rules.is_won());
        }
    }
}
