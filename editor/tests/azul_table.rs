//! The Azul table in the editor: every player's board in view at the
//! default window size, and the game in progress back after a restart.

use super::support;

use std::path::Path;
use std::time::Duration;

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use support::{console_texts, harness};
use tessera_editor::EditorApp;
use tessera_host::Seat;

/// A project with Azul's script and the four-player level.
fn four_player_project() -> tempfile::TempDir {
    support::temp_project(&["scripts/azul.lua", "levels/azul/four_players.ron"])
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
    support::temp_project(&["scripts/azul.lua", "levels/azul/standard.ron"])
}

/// Issue 35's walk: the docked two-player table (1400 x 900, the playtest
/// 440 px wide) reached past the window's edge, the factory ring most; the
/// factories now sit in a grid as wide as the panel.
#[test]
fn the_docked_two_player_table_fits_the_default_window() {
    let dir = standard_project();
    let mut harness = harness(dir.path());
    harness.run_steps(2);
    harness.get_by_label_contains("standard.ron").click();
    harness.run_steps(2);
    harness.key_press(egui::Key::F5);
    harness.run_steps(6);
    assert!(
        harness
            .query_all_by_label_contains("factory 5 ")
            .next()
            .is_some(),
        "the fifth factory's tiles are drawn"
    );
    harness.get_by_label("player 2 board");
    support::layout::assert_inside_the_window(&harness, 1400.0);
}

/// Issue 35's walk: the docked end card ("Defeat", its words and its ×)
/// reached past the playtest's right edge; it now wraps inside its room.
#[test]
fn the_docked_end_card_fits_the_default_window() {
    let dir = support::temp_project(&["scripts/azul.lua"]);
    let level = dir.path().join("levels/azul/last_move.ron");
    std::fs::create_dir_all(level.parent().expect("a folder")).expect("levels/azul");
    std::fs::write(&level, support::AZUL_LAST_MOVE).expect("the scenario");
    let mut harness = harness(dir.path());
    harness.run_steps(2);
    harness.get_by_label_contains("last_move.ron").click();
    harness.run_steps(2);
    harness.key_press(egui::Key::F5);
    harness.run_steps(6);
    // The move, made in the maximised table (docked, the centre sits
    // under the console); the card is then looked at docked.
    harness.get_by_label("🗖 Maximise").click();
    harness.run_steps(3);
    harness.get_by_label("centre orange x1").click();
    harness.run_steps(2);
    harness.get_by_label("line 1").click();
    harness.run_steps(4);
    harness.get_by_label_contains("Restore layout").click();
    harness.run_steps(6);
    harness.get_by_label("Play the same deal again");
    support::layout::assert_inside_the_window(&harness, 1400.0);
}

fn remembering(root: &Path, state_file: &Path) -> Harness<'static, EditorApp> {
    support::remembering(root, state_file, egui::vec2(1400.0, 900.0))
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
    support::assert_console_has(&harness, "resumed the game in progress (");
    // The Messages log tells the resumed game's moves, the AI's reply too
    // (docked, it is in the tools window).
    harness.run_steps(2);
    harness
        .get_by_label("Record, saves, rules, balance…")
        .click();
    harness.run_steps(3);
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

/// A project with Azul's script and the last-round scenario.
fn endgame_project() -> tempfile::TempDir {
    let dir = support::temp_project(&["scripts/azul.lua", "levels/azul/endgame_win.ron"]);
    // The AI answers at once: the test watches the layout, not the pause.
    let script = dir.path().join("scripts/azul.lua");
    let text = std::fs::read_to_string(&script).expect("script");
    let quick = "reaction_seconds = { easy = 0, medium = 0, hard = 0, expert = 0 }";
    let text = text.replace(
        "reaction_seconds = { easy = 1, medium = 2, hard = 3, expert = 3 }",
        quick,
    );
    assert!(text.contains(quick), "the script names its reaction times");
    std::fs::write(&script, text).expect("write");
    dir
}

/// The label of the first enabled widget of the docked playtest (not the
/// scenario editor beside it) whose label starts with `prefix`.
fn first_enabled(harness: &Harness<'_, EditorApp>, prefix: &str) -> Option<String> {
    let playtest = harness.get_by_label("🗖 Maximise").rect().left() - 12.0;
    harness
        .query_all_by_label_contains(prefix)
        .filter(|n| n.rect().left() >= playtest)
        .map(|n| n.accesskit_node())
        .find(|node| !node.is_disabled() && node.label().is_some_and(|l| l.starts_with(prefix)))
        .and_then(|node| node.label())
}

/// The layout kittest for Azul: picking tiles (their prompt), placing them
/// and the AI's reply move neither the side buttons nor the boards.
#[test]
fn azul_holds_still_through_a_move_and_the_ai_reply() {
    let dir = endgame_project();
    let mut harness = harness(dir.path());
    harness.run_steps(2);
    harness.get_by_label_contains("endgame_win.ron").click();
    harness.run_steps(2);
    harness.key_press(Key::F5);
    harness.run_steps(4);
    // The centre's tiles gather as factories are taken: they reflow.
    let mut watch = support::layout::LayoutWatch::ignoring(&["centre "]);
    watch.look(&harness, "start");
    let deadline = std::time::Instant::now() + Duration::from_secs(40);
    let over = |h: &Harness<'_, EditorApp>| {
        h.state()
            .playtest()
            .session()
            .is_some_and(|s| s.outcome().is_over())
    };
    let mut moves = 0;
    while !over(&harness) && moves < 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the round ends ({moves} human moves so far)"
        );
        let tile =
            first_enabled(&harness, "factory ").or_else(|| first_enabled(&harness, "centre "));
        let Some(tile) = tile else {
            // The AI's turn (or an animation).
            harness.run_steps(2);
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        harness.get_by_label(&tile).click();
        harness.run_steps(3);
        watch.look(&harness, &format!("move {moves}: picked"));
        let target = (1..=5)
            .find_map(|k| first_enabled(&harness, &format!("line {k}")))
            .or_else(|| first_enabled(&harness, "floor"));
        let Some(target) = target else {
            // The pick did not take (an animation still ran): again.
            harness.run_steps(2);
            continue;
        };
        harness.get_by_label(&target).click();
        harness.run_steps(3);
        watch.look(&harness, &format!("move {moves}: placed"));
        moves += 1;
    }
    // The AI's reply: thinking, its move shown.
    for frame in 0..40 {
        harness.run_steps(2);
        std::thread::sleep(Duration::from_millis(10));
        watch.look(&harness, &format!("reply, frame {frame}"));
    }
    assert_eq!(moves, 1, "the human moved");
    watch.assert_still();
}

/// Issue 35: a level's own seats win over a toolbar pick made for another
/// file, and the toolbar shows them as soon as the level is the target.
#[test]
fn a_scenarios_own_seats_win_over_a_pick_made_for_another_level() {
    let dir = endgame_project();
    std::fs::copy(
        support::repo_root().join("levels/azul/standard.ron"),
        dir.path().join("levels/azul/standard.ron"),
    )
    .expect("copy");
    let mut harness = harness(dir.path());
    harness.run_steps(2);
    harness.get_by_label_contains("standard.ron").click();
    harness.run_steps(2);
    harness.get_by_label_contains("Seat 2: ").click();
    harness.run_steps(2);
    harness.get_by_label("ai:easy").click();
    harness.run_steps(2);
    harness.key_press(Key::F5);
    harness.run_steps(3);
    let seats = |h: &Harness<'_, EditorApp>| {
        h.state()
            .playtest()
            .session()
            .map(|s| s.options().seats.clone())
    };
    let easy = Seat::Ai {
        level: "easy".into(),
    };
    let hard = Seat::Ai {
        level: "hard".into(),
    };
    assert_eq!(seats(&harness), Some(vec![Seat::Human, easy]));
    harness.get_by_label_contains("endgame_win.ron").click();
    harness.run_steps(3);
    // Before ▶: the toolbar already shows the scenario's seats.
    harness.get_by_label("Seat 2: ai:hard");
    harness.key_press(Key::F5);
    harness.run_steps(3);
    assert_eq!(seats(&harness), Some(vec![Seat::Human, hard]));
}
