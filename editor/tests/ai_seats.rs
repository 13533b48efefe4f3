//! AI seats in the editor: the playtest toolbar lists seats from the
//! game's spec, and an AI seat plays on a worker thread, its moves applied
//! and recorded like a human's.

use super::support;

use support::harness;

use std::time::{Duration, Instant};

use egui::Key;
use egui_kittest::kittest::Queryable;
use tessera_host::{Outcome, Seat, SessionOptions};

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::create_dir_all(dir.path().join("levels/polycube")).unwrap();
    std::fs::copy(
        tessera_testkit::repo_path("scripts/polycube.lua"),
        dir.path().join("scripts/polycube.lua"),
    )
    .unwrap();
    std::fs::copy(
        tessera_testkit::repo_path("levels/polycube/04_tower.ron"),
        dir.path().join("levels/polycube/04_tower.ron"),
    )
    .unwrap();
    dir
}

#[test]
fn an_ai_seat_solves_a_polycube_level_off_the_ui_thread() {
    let dir = project();
    let root = dir.path().canonicalize().unwrap();
    let mut harness = harness(&root);
    harness.get_by_label_contains("04_tower.ron").click();
    harness.run_steps(3);
    // The seat picker comes from the game's spec: human, or its AI level.
    harness.get_by_label_contains("Seat 1: ");
    harness.state_mut().playtest_mut().set_options(
        "polycube",
        SessionOptions {
            mode: None,
            seats: vec![Seat::Ai {
                level: "solver".into(),
            }],
        },
    );
    harness.key_press(Key::F5);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        harness.step();
        let session = harness.state().playtest().session().expect("a session");
        if session.outcome() == Outcome::Won {
            break;
        }
        assert!(Instant::now() < deadline, "the AI did not finish");
        std::thread::sleep(Duration::from_millis(5));
    }
    let session = harness.state().playtest().session().unwrap();
    let rows = session.trajectory().rows;
    // Four pieces, each placed by the AI seat and recorded as an action.
    let placements: Vec<_> = rows
        .iter()
        .filter(|r| r.step.starts_with("PlaceAt"))
        .collect();
    assert_eq!(placements.len(), 4, "{rows:?}");
    assert!(placements.iter().all(|r| r.actor == "ai:solver (seat 1)"));
}
