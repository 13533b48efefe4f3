//! The view side of the host's driver of AI seats: one frame of
//! [`Driver`] for a playtest view, with the "thinking" line and its Cancel.

use tessera_host::driver::{Drive, Driver, ThinkingStatus};

use crate::{ConsoleLine, PlaytestContext, PlaytestView};

/// One frame of the host's driver for `view`'s AI seats: starts a decision
/// when an AI seat is to move, shows the "thinking" line with its Cancel,
/// and hands a finished decision to the view to apply.
pub fn drive_view(
    view: &mut dyn PlaytestView,
    driver: &mut Driver,
    ui: &mut egui::Ui,
    cx: &mut PlaytestContext<'_>,
) {
    let Some(session) = view.session() else {
        return;
    };
    let has_ai = session
        .options()
        .seats
        .iter()
        .any(|s| s.ai_level().is_some());
    let drive = driver.poll(session, view.ai_may_move(), view.ai_reaction());
    // With an AI seat the thinking line (or ▶ AI move) has a slot of its
    // own, empty while nobody thinks, so the game below does not move. In
    // a row the caller's line is that slot (the playtest toolbar's line:
    // the thinking line, then what is playing, elided): a slot across the
    // whole row would push the rest of the line past the panel's edge.
    if has_ai && !ui.layout().is_horizontal() {
        crate::slot::line_slot(ui, 1, |ui| show_drive(drive, view, driver, ui, cx));
    } else {
        show_drive(drive, view, driver, ui, cx);
    }
}

/// What the driver's poll asks of the frame: the thinking line, a decision
/// applied, the ▶ AI move button, a console line.
fn show_drive(
    drive: Drive,
    view: &mut dyn PlaytestView,
    driver: &mut Driver,
    ui: &mut egui::Ui,
    cx: &mut PlaytestContext<'_>,
) {
    match drive {
        Drive::Idle => {}
        Drive::Thinking => {
            if let Some(status) = driver.thinking()
                && thinking_line(ui, &status).clicked()
            {
                driver.cancel();
            }
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(50));
        }
        Drive::Decided(decision) => {
            let result = view.apply_ai(decision);
            driver.applied(&result);
            if let Err(e) = result {
                cx.console.push(ConsoleLine {
                    text: format!("AI move refused: {e}"),
                    is_error: true,
                });
            }
            ui.ctx().request_repaint();
        }
        Drive::Paused => {
            if ui
                .button("▶ AI move")
                .on_hover_text("Let the AI seat play on")
                .clicked()
            {
                driver.resume();
            }
        }
        Drive::Cancelled => cx.console.push(ConsoleLine {
            text: "AI move cancelled; press ▶ AI move to let it play".into(),
            is_error: false,
        }),
        Drive::Failed(e) => cx.console.push(ConsoleLine {
            text: format!("AI: {e}"),
            is_error: true,
        }),
    }
}

/// The room of the thinking line's time ("123.4 s").
const TIME_WIDTH: f32 = 56.0;
/// The room of the progress bar, kept while there is none yet.
const PROGRESS_WIDTH: f32 = 120.0;
/// The room of the note: a longer note is elided (whole on hover).
const NOTE_WIDTH: f32 = 220.0;
/// Below this room the note is left out (an elided note of a few pixels
/// says nothing).
const MIN_NOTE_WIDTH: f32 = 24.0;

/// The thinking line: the spinner and Cancel first, then who thinks, and
/// what grows as the AI works (how long, its progress bar once it reports
/// one, its note), each in a slot of a set width, so the Cancel under the
/// designer's pointer never moves and the line never widens a dialog
/// that sizes itself to it (File ▸ Generate… grew 144 px mid-run as its
/// note grew). Returns the Cancel button.
pub fn thinking_line(ui: &mut egui::Ui, status: &ThinkingStatus) -> egui::Response {
    ui.horizontal(|ui| {
        ui.spinner();
        let cancel = ui.button("Cancel");
        ui.label(format!("{} thinking…", status.label));
        let height = ui.spacing().interact_size.y;
        ui.add_sized(
            [TIME_WIDTH, height],
            egui::Label::new(format!("{:.1} s", status.elapsed.as_secs_f32())).truncate(),
        );
        if status.progress > 0.0 {
            ui.add(egui::ProgressBar::new(status.progress as f32).desired_width(PROGRESS_WIDTH));
        } else {
            ui.add_space(PROGRESS_WIDTH + ui.spacing().item_spacing.x);
        }
        // The note's slot is as wide as the row has room for, up to its
        // width: a narrow panel's row ends at its edge, never past it, and
        // the room depends only on the slots before it, so the note never
        // moves what follows from one frame to the next.
        let room = NOTE_WIDTH.min(ui.available_width() - ui.spacing().item_spacing.x);
        if room >= MIN_NOTE_WIDTH {
            let note = egui::Label::new(egui::RichText::new(&status.note).weak()).truncate();
            let shown = ui.add_sized([room, height], note);
            if !status.note.is_empty() {
                shown.on_hover_text(&status.note);
            }
        }
        cancel
    })
    .inner
}
