//! The Azul table docked in the editor at the default window size: every
//! player's board in view, names readable.

mod support;

use std::path::Path;

use egui_kittest::kittest::Queryable;
use support::harness;

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
