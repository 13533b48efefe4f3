//! The console panel: a line longer than the panel wraps inside it rather
//! than running off its right edge, and many lines stay cheap to show.

use super::support;

use egui_kittest::kittest::Queryable;

#[test]
fn a_long_console_line_wraps_inside_the_panel() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("scripts")).expect("scripts/");
    std::fs::create_dir_all(dir.path().join("levels")).expect("levels/");
    let mut harness = support::harness(dir.path());
    let long = format!(
        "tetris: {} the end",
        "a rather long game message that goes on ".repeat(12)
    );
    for i in 0..2_000 {
        harness
            .state_mut()
            .console_mut()
            .info(format!("filler {i}"));
    }
    harness.state_mut().console_mut().info(long.clone());
    harness
        .state_mut()
        .console_mut()
        .info("after the long line");
    harness.run_steps(3);

    let window = harness.ctx.content_rect();
    let line = harness.get_by_label(&long).rect();
    assert!(
        line.right() <= window.right(),
        "the line ends inside the window: {line:?} in {window:?}"
    );
    let row = harness.get_by_label("after the long line").rect();
    assert!(
        line.height() > 2.0 * row.height(),
        "the long line takes several rows: {line:?} vs {row:?}"
    );
    assert!(
        row.top() >= line.bottom(),
        "the next line starts below the wrapped one: {row:?} after {line:?}"
    );
    // Scrolled to the end: the early filler lines are not drawn at all.
    assert!(harness.query_by_label("filler 0").is_none());
}
