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
