//! The level editor's Make unique row: the generator's smallest edits that
//! leave one distinct packing (one cube handed to a neighbouring piece,
//! then two), searched on a worker thread with Cancel, shown one at a time
//! in words and drawn as a preview (the pieces the edit touches, the
//! cubes handed across in white); Accept makes the edit (one step of the
//! document's undo), Next shows the next proposal, Cancel drops them.

use egui::{Color32, Ui};
use tessera_host::worker::{Job, Poll};
use tessera_polycube::PolycubeLevel;
use tessera_polycube::generate::repair::{Proposal, Repair, make_unique};

use super::iso::{self, Camera, Cube};

/// What the search found, or why it found nothing.
type Found = Result<Vec<Proposal>, String>;

/// The row's state.
#[derive(Default)]
pub struct MakeUnique {
    /// The level the search or its proposals are about.
    about: Option<PolycubeLevel>,
    running: Option<Job<Found>>,
    found: Option<Found>,
    /// The proposal shown (index into the found ones).
    shown: usize,
    /// The preview's camera.
    camera: Camera,
}

impl MakeUnique {
    /// The row; returns the edited level when the designer accepts.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        level: &PolycubeLevel,
        playable: bool,
    ) -> Option<PolycubeLevel> {
        if self.about.as_ref() != Some(level) {
            // An edit elsewhere: the proposals were for the old level.
            *self = Self::default();
        }
        if let Some(job) = self.running.as_mut() {
            let ended = match job.poll() {
                Poll::Done(found) => Some(found),
                Poll::Lost => Some(Err("the search stopped unexpectedly".into())),
                Poll::Running => None,
            };
            if ended.is_some() {
                self.found = ended;
                self.running = None;
            }
        }
        let mut accepted = None;
        let mut dismissed = false;
        ui.horizontal_wrapped(|ui| {
            let idle = self.running.is_none();
            let button = ui
                .add_enabled(playable && idle, egui::Button::new("Make unique"))
                .on_hover_text("Find the smallest edit (a cube handed to a neighbouring piece) that leaves exactly one packing");
            if button.clicked() {
                let owned = level.clone();
                self.running = Some(Job::spawn("polycube make unique", move |control| {
                    match make_unique(&owned, control) {
                        Ok(Repair::AlreadyUnique) => Err("already unique: nothing to edit".into()),
                        Ok(Repair::Proposals(proposals)) => Ok(proposals),
                        Err(e) => Err(e.to_string()),
                    }
                }));
                self.about = Some(level.clone());
                self.found = None;
                self.shown = 0;
            }
            if let Some(job) = &self.running {
                let note = job.control().note();
                ui.label(format!("{note} · {:.0} s", job.elapsed().as_secs_f32()));
                if ui.button("Cancel").clicked() {
                    job.cancel();
                }
                ui.ctx().request_repaint_after(std::time::Duration::from_millis(50));
            }
            match &self.found {
                Some(Ok(proposals)) if !proposals.is_empty() => {
                    let shown = self.shown % proposals.len();
                    let proposal = &proposals[shown];
                    ui.label(format!(
                        "Proposal {} of {}: {}",
                        shown + 1,
                        proposals.len(),
                        proposal.words
                    ));
                    if ui.button("Accept").clicked() {
                        accepted = Some(accept(level, proposal));
                    }
                    if proposals.len() > 1 && ui.button("Next").clicked() {
                        self.shown = shown + 1;
                    }
                    if ui
                        .button("Cancel")
                        .on_hover_text("Keep the level as it is")
                        .clicked()
                    {
                        dismissed = true;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(why)) => {
                    ui.label(why.as_str());
                }
                None => {}
            }
        });
        if dismissed || accepted.is_some() {
            self.found = None;
        } else if let Some(Ok(proposals)) = &self.found
            && !proposals.is_empty()
        {
            let proposal = &proposals[self.shown % proposals.len()];
            preview(ui, &mut self.camera, level, proposal);
        }
        accepted
    }
}

/// The pieces `proposal` hands cubes between (by index), in order.
fn touched(proposal: &Proposal) -> Vec<usize> {
    let mut touched: Vec<usize> = proposal.moves.iter().flat_map(|m| [m.from, m.to]).collect();
    touched.sort_unstable();
    touched.dedup();
    touched
}

/// `level` with `proposal` made: only the pieces it hands cubes between
/// change. The design writes every piece as it lies in the packing the
/// edit was made in (turned, moved to the origin), but a piece the edit
/// leaves alone is the same piece in any turn: it keeps the cells the
/// designer wrote, so a save leaves its lines (a list over several lines
/// too) as they were.
fn accept(level: &PolycubeLevel, proposal: &Proposal) -> PolycubeLevel {
    let mut edited = proposal.design.apply_to(level);
    let touched = touched(proposal);
    for (index, (piece, was)) in edited.pieces.iter_mut().zip(&level.pieces).enumerate() {
        if !touched.contains(&index) {
            piece.cells.clone_from(&was.cells);
        }
    }
    edited
}

/// Draws the pieces `proposal` edits as they would be, the cubes handed
/// across in white, in the packing the edit was made in.
fn preview(ui: &mut Ui, camera: &mut Camera, level: &PolycubeLevel, proposal: &Proposal) {
    let design = &proposal.design;
    let touched = touched(proposal);
    let moved: Vec<usize> = proposal.moves.iter().map(|m| m.cell).collect();
    let ids: Vec<String> = touched
        .iter()
        .map(|&p| {
            level
                .pieces
                .get(p)
                .map_or("?".into(), |piece| format!("`{}`", piece.id))
        })
        .collect();
    ui.label(format!(
        "Preview: pieces {} after the edit, in the packing it was made in; the cube handed across in white",
        ids.join(" and ")
    ));
    let cubes: Vec<Cube> = (0..design.owner.len())
        .filter(|i| touched.contains(&design.owner[*i]))
        .map(|i| Cube {
            cell: design.cell(i),
            colour: if moved.contains(&i) {
                Color32::WHITE
            } else {
                iso::piece_colour(level, design.owner[i])
            },
        })
        .collect();
    iso::show(ui, camera, design.size, &cubes, 160.0);
}
