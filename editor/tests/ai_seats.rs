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

/// The frame log (`TESSERA_FRAME_LOG`) the frame-time figure is measured
/// from: a line per frame, starts in order, and the AI column set while an
/// AI seat's decision is computed on its worker, clear once the game stops.
#[test]
fn the_frame_log_marks_the_frames_drawn_while_an_ai_computes() {
    let dir = support::temp_project(&["scripts/azul.lua"]);
    let log = dir.path().join("frames.log");
    let mut harness = harness(dir.path());
    harness.state_mut().log_frames_to(&log).expect("a log");
    let expert = Seat::Ai {
        level: "expert".into(),
    };
    harness.state_mut().playtest_mut().set_options(
        "azul",
        SessionOptions {
            mode: None,
            seats: vec![expert.clone(), expert],
        },
    );
    harness.get_by_label_contains("azul.lua").click();
    harness.run_steps(2);
    harness.key_press(Key::F5);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !harness.state().playtest().ai_computing() {
        assert!(Instant::now() < deadline, "the expert never started");
        harness.step();
    }
    for _ in 0..5 {
        harness.step();
        std::thread::sleep(Duration::from_millis(2));
    }
    harness.state_mut().playtest_mut().stop();
    harness.run_steps(3);
    let text = std::fs::read_to_string(&log).expect("the log");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(tessera_editor::frame_log::HEADER));
    let frames: Vec<(f64, f64, u8)> = lines
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            assert_eq!(fields.len(), 3, "{line:?}");
            (
                fields[0].parse().expect("a start"),
                fields[1].parse().expect("a length"),
                fields[2].parse().expect("0 or 1"),
            )
        })
        .collect();
    assert!(frames.len() >= 10, "{text}");
    assert!(
        frames.windows(2).all(|w| w[0].0 <= w[1].0),
        "starts in order: {text}"
    );
    assert!(frames.iter().all(|f| f.1 >= 0.0 && f.2 <= 1));
    assert!(
        frames.iter().filter(|f| f.2 == 1).count() >= 5,
        "the frames while the expert thinks are marked: {text}"
    );
    assert_eq!(frames.last().map(|f| f.2), Some(0), "stopped: {text}");
}

/// Where the seats shown come from is said truly: a level without seats
/// (04_tower.ron) plays the game's, and the toolbar does not call them
/// "the level's".
#[test]
fn the_seats_of_a_level_without_seats_are_not_called_the_levels() {
    let dir = project();
    let root = dir.path().canonicalize().unwrap();
    let mut harness = harness(&root);
    harness.get_by_label_contains("04_tower.ron").click();
    harness.run_steps(3);
    harness.get_by_label_contains("Seat 1: ");
    assert!(
        harness.query_by_label("(the level's)").is_none(),
        "a level with no seats shows \"(the level's)\""
    );
    harness.get_by_label("(the game's)");
}
