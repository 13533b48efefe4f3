//! The AI's thinking line (`tessera_ui::thinking_line`), tested here
//! because tessera-ui has no test binary of its own (one test binary per
//! crate; every playtest with an AI seat draws this line in the editor).

use std::time::Duration;

use tessera_host::driver::ThinkingStatus;
use tessera_ui::thinking_line;

/// Where the thinking line puts its Cancel for `status`.
fn cancel_rect(status: &ThinkingStatus) -> egui::Rect {
    let ctx = egui::Context::default();
    let mut rect = egui::Rect::NOTHING;
    // Headless: nothing paints, so the frame's textures are dropped.
    ctx.run_ui(egui::RawInput::default(), |ui| {
        rect = thinking_line(ui, status).rect;
    })
    .drop_without_applying_deltas();
    rect
}

/// The AI's first report of progress, a longer time, a note: none of
/// them moves the Cancel (the layout kittest saw it jump 128 px when
/// the progress bar appeared before it).
#[test]
fn the_thinking_lines_cancel_stays_put_as_the_line_grows() {
    let start = ThinkingStatus {
        label: "ai:god (seat 1)".into(),
        elapsed: Duration::from_millis(100),
        progress: 0.0,
        note: String::new(),
    };
    let later = ThinkingStatus {
        elapsed: Duration::from_millis(12_300),
        progress: 0.7,
        note: "12,000 playouts".into(),
        ..start.clone()
    };
    let (first, then) = (cancel_rect(&start), cancel_rect(&later));
    assert!(first.is_positive(), "the Cancel is drawn: {first:?}");
    assert_eq!(first, then, "the Cancel moved");
}

/// How wide the thinking line is for `status`, drawn in room as wide as
/// a window that sizes itself to its content may grow (the Generate
/// dialog widened 144 px mid-run as its note grew).
fn line_width(status: &ThinkingStatus) -> f32 {
    let ctx = egui::Context::default();
    let mut width = 0.0;
    ctx.run_ui(egui::RawInput::default(), |ui| {
        let before = ui.cursor().min.x;
        let rect = ui.horizontal(|ui| thinking_line(ui, status)).response.rect;
        width = rect.max.x - before;
    })
    .drop_without_applying_deltas();
    width
}

/// A progress bar appearing, a longer time and a note that grows to a
/// long sentence leave the line's width as it was: a dialog that sizes
/// itself to the line keeps its size through the run.
#[test]
fn the_thinking_line_keeps_its_width_as_the_note_grows() {
    let start = ThinkingStatus {
        label: "generate polycube".into(),
        elapsed: Duration::from_millis(100),
        progress: 0.0,
        note: String::new(),
    };
    let later = ThinkingStatus {
        elapsed: Duration::from_millis(123_400),
        progress: 0.4,
        note: "tried 12,345,678 boxes; 4 candidate packings; proving the third one unique".into(),
        ..start.clone()
    };
    let (first, then) = (line_width(&start), line_width(&later));
    assert!(first > 0.0, "the line is drawn: {first}");
    assert_eq!(first, then, "the line's width changed as it grew");
}
