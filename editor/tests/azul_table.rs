//! The Azul table in the editor: every player's board in view at the
//! default window size, and the game in progress back after a restart.

use super::support;

use std::path::Path;
use std::time::Duration;

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use support::{console_texts, harness};
use tessera_editor::EditorApp;
use tessera_host::Seat;

fn repo_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// A project with Azul's script and the four-player level.
fn four_player_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("scripts")).expect("scripts/");
    std::fs::create_dir_all(dir.path().join("levels/azul")).expect("levels/");
    for file in ["scripts/azul.lua", "levels/azul/four_players.ron"] {
        std::fs::copy(repo_root().join(file), dir.path().join(file)).expect("copy");
    }
    dir
}

#[test]
fn the_docked_table_shows_all_four_boards_at_the_default_size() {
    let dir = four_player_project();
    let mut harness = harness(dir.path());
    harness.run_steps(2);
    harness.get_by_label_contains("four_players.ron").click();
    harness.run_steps(2);
    harness.key_press(egui::Key::F5);
    // The grid settles from the first frame's measured board.
    harness.run_steps(6);
    let console_top = harness.get_by_label("Console").rect().top();
    let window = egui::Rect::from_min_max(egui::Pos2::ZERO, egui::pos2(1400.0, console_top));
    let names = [
        "Player 1 (you)",
        "Player 2 (AI easy)",
        "Player 3 (AI medium)",
        "Player 4 (AI hard)",
    ];
    for name in names {
        let rect = harness.get_by_label(name).rect();
        assert!(
            window.contains_rect(rect),
            "{name} is drawn at {rect:?}, outside the visible {window:?}"
        );
    }
    // Each board's bottom row (its floor) is in view too, not only its name.
    for p in 1..=4 {
        // The human's own floor is just "floor" (a move's target).
        let label = if p == 1 {
            "floor".to_string()
        } else {
            format!("player {p} floor")
        };
        let rect = harness.get_by_label(&label).rect();
        assert!(
            window.contains_rect(rect),
            "player {p}'s floor is drawn at {rect:?}, outside the visible {window:?}"
        );
    }
}

/// A project with Azul's script and its standard table.
fn standard_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("scripts")).expect("scripts/");
    std::fs::create_dir_all(dir.path().join("levels/azul")).expect("levels/");
    for file in ["scripts/azul.lua", "levels/azul/standard.ron"] {
        std::fs::copy(repo_root().join(file), dir.path().join(file)).expect("copy");
    }
    dir
}

fn remembering(root: &Path, state_file: &Path) -> Harness<'static, EditorApp> {
    let mut app = EditorApp::open(root).expect("opens");
    app.remember_in(state_file.to_path_buf());
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .with_context_setup(EditorApp::apply_style)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app)
}

fn steps(harness: &Harness<'_, EditorApp>) -> usize {
    harness
        .state()
        .playtest()
        .session()
        .map_or(0, |s| s.step_count())
}

#[test]
fn a_restart_resumes_the_game_in_progress_with_its_ai_levels() {
    let dir = standard_project();
    let root = dir.path().canonicalize().expect("root");
    let state = tempfile::tempdir().expect("state dir");
    let state_file = state.path().join("editor.ron");
    let easy = Seat::Ai {
        level: "easy".into(),
    };
    let (record, seed) = {
        let mut harness = remembering(&root, &state_file);
        harness.run_steps(2);
        harness.get_by_label_contains("standard.ron").click();
        harness.run_steps(2);
        // The toolbar's choice: seat 2 plays the easy AI.
        harness.get_by_label_contains("Seat 2: ").click();
        harness.run_steps(2);
        harness.get_by_label("ai:easy").click();
        harness.run_steps(2);
        harness.key_press(Key::F5);
        harness.run_steps(3);
        // One move by clicks: a factory's tiles onto line 5; the AI replies.
        harness
            .query_all_by_label_contains("factory 1 ")
            .next()
            .expect("a factory tile")
            .click();
        harness.run_steps(2);
        harness.get_by_label("line 5").click();
        for _ in 0..500 {
            harness.run_steps(2);
            if steps(&harness) >= 2 {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(steps(&harness) >= 2, "the human and the AI moved");
        let ctx = harness.ctx.clone();
        harness.state_mut().persist(&ctx, true);
        let session = harness.state().playtest().session().expect("a game");
        (session.replay_ron().expect("record"), session.seed())
    };

    let mut harness = remembering(&root, &state_file);
    harness.run_steps(2);
    let session = harness
        .state()
        .playtest()
        .session()
        .expect("the game is back");
    assert_eq!(session.seed(), seed);
    assert_eq!(session.options().seats, [Seat::Human, easy.clone()]);
    assert_eq!(
        session.replay_ron().expect("record"),
        record,
        "the same moves, in the same order"
    );
    assert_eq!(
        harness.state().playtest().options_for("azul").seats,
        [Seat::Human, easy],
        "the toolbar's choice for the next game"
    );
    assert!(
        console_texts(&harness)
            .iter()
            .any(|l| l.starts_with("resumed the game in progress (")),
        "{:?}",
        console_texts(&harness)
    );
    // The Messages log tells the resumed game's moves, the AI's reply too.
    harness.run_steps(2);
    assert!(
        harness
            .query_all_by_label_contains("ai:easy (seat 2): ")
            .count()
            >= 1,
        "the AI's reply is in the log"
    );
    drop(harness);

    // A saved game that no longer plays is dropped with a line, and a new
    // game starts on the level.
    let game_file = state.path().join("editor.game.replay.ron");
    assert!(game_file.is_file());
    std::fs::write(&game_file, "(game: \"azul\", steps: [oops").expect("break it");
    let mut harness = remembering(&root, &state_file);
    harness.run_steps(2);
    assert!(
        console_texts(&harness)
            .iter()
            .any(|l| l.starts_with("dropped the saved game in progress (")),
        "{:?}",
        console_texts(&harness)
    );
    assert_eq!(steps(&harness), 0, "a fresh game");
    assert!(!harness.state().console().lines().iter().any(|l| l.is_error));
}

#[test]
fn maximised_the_messages_log_sits_beside_the_table_and_its_last_line_shows() {
    let dir = four_player_project();
    let mut harness = harness(dir.path());
    harness.run_steps(2);
    harness.get_by_label_contains("four_players.ron").click();
    harness.run_steps(2);
    harness.key_press(Key::F5);
    harness.run_steps(2);
    harness.key_press(Key::F11);
    harness.run_steps(6);
    assert!(harness.state().playtest_maximised());
    let window = egui::Rect::from_min_max(egui::Pos2::ZERO, egui::pos2(1400.0, 900.0));
    let messages = harness.get_by_label("Messages").rect();
    // Factory 3 sits at the ring's right-hand side.
    let ring = harness
        .query_all_by_label_contains("factory 3 ")
        .map(|n| n.rect())
        .fold(egui::Rect::NOTHING, |a, b| a.union(b));
    assert!(
        messages.left() > ring.right(),
        "the log has a column of its own: {messages:?}, ring {ring:?}"
    );
    // The log's last line is the prompt to move: wholly in the window.
    let last = harness
        .get_by_label_contains("Your turn: click a colour")
        .rect();
    assert!(window.contains_rect(last), "{last:?}");
}
