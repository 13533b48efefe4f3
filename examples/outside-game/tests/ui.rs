//! The editor view, driven as the playtest panel hosts it (egui_kittest):
//! a click on a stone takes it and the stones after it in its row through
//! the recorded session; a click that would take too many does nothing.

use std::path::Path;

use cairn::ui::CairnPlaytest;
use tessera_host::project::Project;
use tessera_host::{Game, SessionOptions, Turn};
use tessera_ui_testkit::{Playing, click_at};

/// A view of a new game on the classic 3-5-7 grid, a human against `hard`.
fn playing() -> Playing<CairnPlaytest> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut project = Project::open(root, cairn::registry()).expect("the package is a project");
    let session = project
        .start_session(
            cairn::Cairn::ID,
            Some(Path::new("levels/cairn/classic.ron")),
            0,
            &SessionOptions::default(),
        )
        .expect("the game starts");
    // What the view factory does (`cairn::ui::open_view`), kept concrete
    // so the test reads the game's state.
    let session = tessera_ui::recorded::<cairn::Cairn>(session).expect("a game of Cairns");
    Playing::new(CairnPlaytest::new(session), project)
}

#[test]
fn a_click_takes_the_stones_from_the_one_clicked_to_the_end_of_its_row() {
    let mut harness = playing().harness(egui::vec2(600.0, 400.0));
    harness.run();
    let far = harness.state().view.stone_centre(2, 0).expect("drawn");
    // Seven stones from the first: more than a move may take.
    click_at(&mut harness, far);
    assert_eq!(harness.state().view.session().step_count(), 0);
    let near = harness.state().view.stone_centre(2, 4).expect("drawn");
    click_at(&mut harness, near);
    let session = harness.state().view.session();
    assert_eq!(session.step_count(), 1);
    assert_eq!(session.game().rows().stones(), [3, 5, 4]);
    assert_eq!(session.turn(), Turn::Seat(1), "the AI seat is to move");
    assert!(harness.state().console.is_empty());
}
