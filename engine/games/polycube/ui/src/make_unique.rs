//! The level editor's Make unique row: the generator's smallest edits that
//! leave one distinct packing (one cube handed to a neighbouring piece,
//! then two), searched on a worker thread with Cancel, shown one at a time
//! in words; Accept makes the edit (one step of the document's undo),
//! Next shows the next proposal.

use egui::Ui;
use tessera_host::worker::{Job, Poll};
use tessera_polycube::PolycubeLevel;
use tessera_polycube::generate::repair::{Proposal, Repair, make_unique};

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
                        accepted = Some(proposal.design.apply_to(level));
                    }
                    if proposals.len() > 1 && ui.button("Next").clicked() {
                        self.shown = shown + 1;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(why)) => {
                    ui.label(why.as_str());
                }
                None => {}
            }
        });
        accepted
    }
}
