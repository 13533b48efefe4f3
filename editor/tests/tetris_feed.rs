//! Tetris feed mode in the editor: a feed level starts against its
//! difficulty, a click on an offered piece hands it to the AI, which
//! places it on the playtest area's worker (shown move by move), and the
//! AI log panel (S) shows the decision.

use super::support;

use support::{harness, step_until};

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_editor::EditorApp;
use tessera_host::{Game, Outcome, Seat, Turn};
use tessera_tetris::Tetris;

const FEED_LEVEL: &str = "(\n  version: 1,\n  title: \"Feed test\",\n  rows: 20,\n  columns: 10,\n  hidden_rows: 2,\n  rotation: Some(\"srs\"),\n  feed: Some((difficulty: \"HARD\", target_lines: 3)),\n)\n";

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::create_dir_all(dir.path().join("levels/tetris")).unwrap();
    std::fs::copy(
        tessera_testkit::repo_path("scripts/tetris.lua"),
        dir.path().join("scripts/tetris.lua"),
    )
    .unwrap();
    std::fs::write(dir.path().join("levels/tetris/feed_test.ron"), FEED_LEVEL).unwrap();
    dir
}

/// The running tetris session.
fn game<'a>(harness: &'a Harness<'_, EditorApp>) -> &'a tessera_host::Recorded<Tetris> {
    let session = harness.state().playtest().session().expect("a session");
    tessera_host::session::downcast::<Tetris>(session).expect("a tetris session")
}

fn start_feed_level(dir: &tempfile::TempDir) -> Harness<'static, EditorApp> {
    let root = dir.path().canonicalize().unwrap();
    let mut harness = harness(&root);
    harness.get_by_label_contains("feed_test.ron").click();
    harness.run_steps(3);
    harness.key_press(egui::Key::F5);
    harness.run_steps(3);
    harness
}

#[test]
fn a_feed_level_starts_against_its_difficulty_and_a_given_piece_is_placed_by_the_ai() {
    let dir = project();
    let mut harness = start_feed_level(&dir);
    // The level chose the mode and the AI: the player feeds, HARD places.
    let options = game(&harness).options().clone();
    assert_eq!(options.mode(), "feed");
    assert_eq!(
        options.seats,
        vec![
            Seat::Human,
            Seat::Ai {
                level: "hard".into()
            }
        ]
    );
    assert_eq!(
        game(&harness).turn(),
        Turn::Seat(0),
        "the player feeds first"
    );
    // The seven tetrominoes are offered as buttons.
    for letter in ["I", "O", "T", "S", "Z", "J", "L"] {
        harness.get_by_label(&format!("give {letter}"));
    }
    harness.get_by_label("AI lines 0 / 3");
    let cells_before = game(&harness).game().field().board().count();
    assert_eq!(cells_before, 0);

    harness.get_by_label("give T").click();
    harness.run_steps(2);
    // The T is the AI's now; it decides on the worker and the view shows
    // the move, then the T is locked on the board.
    step_until(&mut harness, "the AI places the T", |h| {
        game(h).game().field().board().count() == 4
            && game(h).turn() == Turn::Seat(0)
            && h.query_by_label_contains("AI: T").is_none()
    });
    let session = game(&harness);
    assert_eq!(session.game().feed_state().unwrap().ai_pieces, 1);
    let rows = session.trajectory().rows;
    assert!(
        rows.iter().any(|r| r.step.starts_with("Feed(T)")),
        "{rows:?}"
    );
    assert!(
        rows.iter()
            .any(|r| r.step.starts_with("Drop") && r.actor.starts_with("ai:hard")),
        "{rows:?}"
    );
    // The player gives the next piece.
    harness.get_by_label("Your turn: choose the AI's next piece");
}

#[test]
fn s_opens_the_ai_log_with_the_decision_and_copy() {
    let dir = project();
    let mut harness = start_feed_level(&dir);
    harness.get_by_label("give I").click();
    harness.run_steps(2);
    step_until(&mut harness, "the AI places the I", |h| {
        game(h).game().field().board().count() == 4 && game(h).turn() == Turn::Seat(0)
    });
    assert!(harness.query_by_label_contains("decidedBy").is_none());
    harness.key_press(egui::Key::S);
    harness.run_steps(3);
    // The window's headline says what decided; the log body below it.
    harness.get_by_label_contains("decidedBy ");
    let log = harness.get_by_label_contains("tessera tetris ai log");
    let text = log.value().unwrap_or_default();
    assert!(text.contains("difficulty: HARD"), "{text}");
    assert!(text.contains("turn: 1"), "{text}");
    assert!(text.contains("top("), "{text}");
    harness.get_by_label("📋 Copy").click();
    harness.run_steps(2);
    harness.get_by_label("copied");
    // S again closes it; the toolbar button opens it too.
    harness.key_press(egui::Key::S);
    harness.run_steps(2);
    assert!(harness.query_by_label_contains("decidedBy").is_none());
    harness.get_by_label("📜 AI log (S)").click();
    harness.run_steps(2);
    harness.get_by_label_contains("tessera tetris ai log");

    // D: the debug HUD, with the AI's predicted landing; V: the version.
    assert!(harness.query_by_label_contains("HOLES ").is_none());
    harness.key_press(egui::Key::D);
    harness.key_press(egui::Key::V);
    harness.run_steps(2);
    harness.get_by_label("HOLES 0(+0)  BLOCK 0  WELLS 0");
    let pred = harness
        .get_by_label_contains("PRED I")
        .value()
        .unwrap_or_default();
    let landing = pred.trim_start_matches("PRED ");
    assert!(
        text.contains(&format!("best: {landing} |")),
        "{pred} / {text}"
    );
    harness.get_by_label(&format!("v{}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn a_feed_game_ends_on_its_end_screen() {
    let dir = project();
    let mut harness = start_feed_level(&dir);
    // Only I pieces, until one side wins (today HARD stacks them flat to
    // the ceiling and the player wins; a stronger AI would clear its 3).
    let deadline = Instant::now() + Duration::from_secs(60);
    while !game(&harness).game().outcome().is_over() {
        assert!(Instant::now() < deadline, "the game did not end");
        if game(&harness).turn() == Turn::Seat(0)
            && harness.query_by_label_contains("AI: ").is_none()
        {
            harness.get_by_label("give I").click();
        }
        harness.step();
        std::thread::sleep(Duration::from_millis(1));
    }
    let outcome = game(&harness).game().outcome();
    // The last move is shown before the end screen.
    step_until(&mut harness, "the last move is shown", |h| {
        h.query_by_label_contains("AI: ").is_none()
    });
    harness.run_steps(2);
    match outcome {
        Outcome::Winner(0) => harness.get_by_label_contains("player wins"),
        Outcome::Winner(1) => harness.get_by_label_contains("AI wins"),
        other => panic!("a feed game ends with a winner, not {other:?}"),
    };
    harness.get_by_label("Game over");
    harness.get_by_label("Play again").click();
    harness.run_steps(3);
    let again = game(&harness);
    assert!(!again.game().outcome().is_over());
    assert_eq!(again.options().mode(), "feed", "Play again keeps the mode");
    assert_eq!(again.game().field().board().count(), 0);
}

#[test]
fn the_pickers_choose_feed_mode_and_the_ai_difficulty() {
    let dir = project();
    std::fs::copy(
        tessera_testkit::repo_path("levels/tetris/marathon_20x10.ron"),
        dir.path().join("levels/tetris/marathon_20x10.ron"),
    )
    .unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut harness = harness(&root);
    harness.get_by_label_contains("marathon_20x10.ron").click();
    harness.run_steps(3);
    // Each label reads before its picker, on the same row.
    for label in ["Mode", "Seat 1"] {
        let text = harness.get_by_label(label).rect();
        let picker = harness.get_by_label_contains(&format!("{label}: ")).rect();
        assert!(
            text.right() <= picker.left()
                && text.center().y > picker.top()
                && text.center().y < picker.bottom(),
            "{label}: label {text:?}, picker {picker:?}"
        );
    }
    // No choice yet: the level decides (a classic level plays classic).
    harness.get_by_label_contains("Mode: ").click();
    harness.run_steps(2);
    harness.get_by_label("Feed the AI").click();
    harness.run_steps(2);
    // Feed mode's seats: the player feeds, an AI places.
    harness.get_by_label_contains("Seat 2: ").click();
    harness.run_steps(2);
    harness.get_by_label("ai:easy").click();
    harness.run_steps(2);
    harness.key_press(egui::Key::F5);
    harness.run_steps(3);
    let options = game(&harness).options().clone();
    assert_eq!(options.mode(), "feed");
    assert_eq!(
        options.seats,
        vec![
            Seat::Human,
            Seat::Ai {
                level: "easy".into()
            }
        ]
    );
    harness.get_by_label("Feed the AI · EASY");
    harness.get_by_label_contains("feed: human, ai:easy");
}

#[test]
fn classic_with_an_ai_seat_plays_and_logs_its_decisions() {
    let dir = project();
    std::fs::copy(
        tessera_testkit::repo_path("levels/tetris/marathon_20x10.ron"),
        dir.path().join("levels/tetris/marathon_20x10.ron"),
    )
    .unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut harness = harness(&root);
    harness.get_by_label_contains("marathon_20x10.ron").click();
    harness.run_steps(3);
    harness.state_mut().playtest_mut().set_options(
        "tetris",
        tessera_host::SessionOptions {
            mode: Some("classic".into()),
            seats: vec![Seat::Ai {
                level: "god".into(),
            }],
        },
    );
    harness.key_press(egui::Key::F5);
    harness.run_steps(3);
    step_until(&mut harness, "GOD places three pieces", |h| {
        game(h).game().field().locked() >= 3
    });
    let rows = game(&harness).trajectory().rows;
    assert!(
        rows.iter()
            .filter(|r| r.step.starts_with("Drop"))
            .all(|r| r.actor.starts_with("ai:god")),
        "{rows:?}"
    );
    // AI play is turn by turn: no ticks recorded between its drops.
    assert!(rows.iter().all(|r| !r.step.starts_with("Tick")), "{rows:?}");
    // S, not the toolbar button: the AI keeps playing on its worker
    // thread, and the toolbar's layout may shift between the frame a
    // click is aimed in and the frame it lands in.
    harness.key_press(egui::Key::S);
    step_until(&mut harness, "the AI log shows a decision", |h| {
        h.query_by_label_contains("tessera tetris ai log").is_some()
    });
    let text = harness
        .get_by_label_contains("tessera tetris ai log")
        .value()
        .unwrap_or_default();
    assert!(text.contains("difficulty: GOD"), "{text}");
    // GOD ranks by a lexicographic order; the key that decided is one of it.
    let order: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("order: "))
        .expect("GOD's log names its order")
        .split(" > ")
        .collect();
    assert_eq!(order.first(), Some(&"gameOverAfterMove"), "{text}");
    let decided = text
        .lines()
        .find_map(|l| l.strip_prefix("decidedBy: "))
        .expect("the log says which key decided");
    assert!(
        order.contains(&decided) || decided == "tie",
        "{decided} not in {order:?}"
    );
}

/// The layout kittest for Tetris feed mode: giving pieces, the AI's
/// thinking line, its move shown and the end screen move neither the
/// offer buttons nor the board.
#[test]
fn the_feed_panel_holds_still_while_the_ai_thinks_and_plays() {
    let dir = project();
    let mut harness = start_feed_level(&dir);
    let mut watch = support::layout::LayoutWatch::default();
    watch.look(&harness, "start");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut given = 0;
    let mut frame = 0;
    while !game(&harness).game().outcome().is_over() && given < 12 {
        assert!(Instant::now() < deadline, "the AI kept placing");
        if game(&harness).turn() == Turn::Seat(0)
            && harness.query_by_label_contains("AI: ").is_none()
        {
            harness.get_by_label("give I").click();
            given += 1;
        }
        harness.step();
        frame += 1;
        // Every few frames: while the AI thinks, while its move is shown,
        // while the player chooses.
        if frame % 3 == 0 {
            watch.look(&harness, &format!("frame {frame}, {given} given"));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    step_until(&mut harness, "the last move is shown", |h| {
        h.query_by_label_contains("AI: ").is_none()
    });
    harness.run_steps(2);
    watch.look(&harness, "end");
    assert!(watch.watched() >= 8, "the rig saw the offer and the board");
    watch.assert_still();
}

/// Issue 35's walk: with the HUD open (D) its wide lines widened the
/// board's column and pushed the feed panel past the window's edge; they
/// now wrap under the board.
#[test]
fn the_hud_under_the_board_keeps_the_feed_panel_in_the_window() {
    let dir = project();
    let mut harness = start_feed_level(&dir);
    harness.get_by_label("🔍 HUD (D)").click();
    harness.run_steps(2);
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut given = 0;
    while given < 3 {
        assert!(Instant::now() < deadline, "the AI kept placing");
        if game(&harness).turn() == Turn::Seat(0)
            && harness.query_by_label_contains("AI: ").is_none()
        {
            harness.get_by_label("give S").click();
            given += 1;
        }
        harness.step();
        std::thread::sleep(Duration::from_millis(1));
    }
    step_until(&mut harness, "the last move is shown", |h| {
        h.query_by_label_contains("AI: ").is_none()
    });
    harness.run_steps(2);
    assert!(
        harness.query_by_label_contains("HOLES ").is_some(),
        "the HUD is shown"
    );
    support::layout::assert_inside_the_window(&harness, 1400.0);
}

/// Waiting for the feeder's next piece nothing moves, so the editor asks
/// for no frames (with a software renderer each costs about 20 ms of a
/// core, taken from the AI's search).
#[test]
fn the_feed_asks_for_no_frames_while_it_waits_for_the_player() {
    let dir = project();
    let mut harness = start_feed_level(&dir);
    harness.get_by_label("give I").click();
    step_until(&mut harness, "the AI's move is shown", |h| {
        h.query_by_label_contains("AI: ").is_some()
    });
    step_until(&mut harness, "the player's turn again", |h| {
        game(h).turn() == Turn::Seat(0) && h.query_by_label_contains("AI: ").is_none()
    });
    let settled = harness.try_run();
    assert!(
        settled.is_ok(),
        "waiting for the feeder, the editor kept asking for frames: {settled:?}"
    );
}

/// Run ▸ Playtest starts the game again; the tool windows the designer
/// opened (the AI log, Balance) stay open in the new game.
#[test]
fn run_playtest_again_keeps_the_open_tool_windows_open() {
    let dir = project();
    let mut harness = start_feed_level(&dir);
    harness.get_by_label("📜 AI log (S)").click();
    harness.get_by_label("⚖ Balance").click();
    harness.run_steps(3);
    harness.get_by_label("📜 AI log");
    harness.get_by_label("AI ladder");
    harness.get_by_label("Run").click();
    harness.run_steps(2);
    harness.get_by_label("Playtest F5").click();
    harness.run_steps(3);
    let starts = support::console_texts(&harness)
        .iter()
        .filter(|l| l.starts_with("playtest tetris on"))
        .count();
    assert_eq!(starts, 2, "{:?}", support::console_texts(&harness));
    assert!(
        harness.query_by_label("📜 AI log").is_some(),
        "the AI log stays open"
    );
    assert!(
        harness.query_by_label("AI ladder").is_some(),
        "the Balance window stays open"
    );
}
