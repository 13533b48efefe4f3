//! egui_kittest tests of the tetris views: keyboard play, F5 from a level,
//! painting garbage and saving RON that loads, and "Solvable?".

use std::path::Path;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use tessera_host::level::{LevelFile, parse_level};
use tessera_host::project::Project;
use tessera_host::{LiveScript, Recorded, SessionOptions};
use tessera_tetris::level::{Goal, TetrisLevel};
use tessera_tetris::solver::Verdict;

use super::*;
use tessera_ui::LevelEditor;
use tessera_ui_testkit::{Editing, press_release_at as click, repo_root};

type Rig = tessera_ui_testkit::Playing<TetrisPlaytest>;

/// A view on a new game on `level` (its mode and seats) with `seed`.
fn started(level: TetrisLevel, script: LiveScript, seed: u64) -> TetrisPlaytest {
    let capabilities = std::sync::Arc::new(tessera_tetris_bot::capabilities());
    let session = Recorded::start_with(
        capabilities,
        level,
        script,
        seed,
        &SessionOptions::default(),
    )
    .unwrap();
    TetrisPlaytest::from_session(session)
}

/// A project holding the shipped script and an empty `levels/tetris/`.
fn project_dir() -> tempfile::TempDir {
    let dir = tessera_ui_testkit::temp_project(&["scripts/tetris.lua"]);
    std::fs::create_dir_all(dir.path().join("levels/tetris")).unwrap();
    dir
}

fn rig() -> Rig {
    let dir = project_dir();
    let mut project = Project::open(dir.path(), crate::registry()).unwrap();
    let script = project.script(&project.game_script_path("tetris")).unwrap();
    let level = TetrisLevel {
        sequence: "TTT".into(),
        ..TetrisLevel::default()
    };
    let mut view = started(level, script, 7);
    // Time stands still so the test sees exactly what its keys did.
    view.frozen = true;
    Rig::new(view, project).in_folder(dir)
}

fn harness(rig: Rig) -> Harness<'static, Rig> {
    rig.harness(egui::vec2(900.0, 800.0))
}

#[test]
fn keyboard_moves_turns_and_drops_a_piece() {
    let mut harness = harness(rig());
    harness.run_steps(2);
    let start = harness.state().view.game().field().active().unwrap();
    harness.key_press(egui::Key::ArrowLeft);
    harness.run_steps(2);
    harness.key_press(egui::Key::ArrowLeft);
    harness.run_steps(2);
    let moved = harness.state().view.game().field().active().unwrap();
    assert_eq!(moved.x, start.x - 2, "two taps, two columns");
    harness.key_press(egui::Key::ArrowUp);
    harness.run_steps(2);
    assert_eq!(
        harness.state().view.game().field().active().unwrap().state,
        1
    );
    harness.key_press(egui::Key::Space);
    harness.run_steps(2);
    let game = harness.state().view.game();
    assert_eq!(game.field().locked(), 1);
    // The T, upright (stem right), sits on the floor two columns left.
    let board = game.field().board();
    let h = board.height();
    let column = (moved.x + 1) as usize;
    for y in h - 3..h {
        assert!(board.row(y) >> column & 1 == 1, "row {y}");
    }
    harness.get_by_label("Pieces 1");
    // Every key went through the recorded session.
    let steps = harness.state().view.session().replay().steps.len();
    assert!(steps >= 4, "{steps} steps");
}

#[test]
fn p_pauses_and_the_over_screen_shows() {
    let mut harness = harness(rig());
    harness.run_steps(2);
    harness.key_press(egui::Key::P);
    harness.run_steps(2);
    assert!(harness.state().view.game().field().is_paused());
    harness.key_press(egui::Key::P);
    harness.run_steps(2);
    let restart_before = harness.get_by_label("Restart (seed 7)").rect();
    for _ in 0..40 {
        harness.key_press(egui::Key::Space);
        harness.run_steps(1);
    }
    harness.run_steps(2);
    assert!(harness.state().view.game().outcome().is_over());
    harness.get_by_label("Play again");
    // Why the game ended is written on the board, wrapped inside it, and
    // the side panel's buttons stay where they were.
    let board = harness.state().view.board_rect();
    let reason = harness
        .get_by_label_contains("ran out before the goal")
        .rect();
    assert!(board.contains_rect(reason), "{reason:?} inside {board:?}");
    assert_eq!(
        harness.get_by_label("Restart (seed 7)").rect(),
        restart_before,
        "the game over does not shift the panel"
    );
}

#[test]
fn the_level_editor_paints_garbage_and_saves_ron_that_loads() {
    let text = "(\n  version: 1,\n  rows: 10,\n  columns: 10,\n)\n";
    let editor = TetrisLevelEditor::open(Path::new("levels/tetris/new.ron"), text).unwrap();
    let dir = project_dir();
    let project = Project::open(dir.path(), crate::registry()).unwrap();
    let mut harness = Editing::new(editor, project)
        .in_folder(dir)
        .harness(egui::vec2(1000.0, 1000.0));
    harness.run_steps(2);
    // Paint two cells of the bottom row, then fill the row above leaving
    // column 4 as its hole.
    for x in [0, 1] {
        let at = harness.state().editor.cell_centre(x, 9);
        click(&mut harness, at);
    }
    harness
        .get_by_label("fill row (clicked cell stays a hole)")
        .click();
    harness.run_steps(2);
    let at = harness.state().editor.cell_centre(4, 8);
    click(&mut harness, at);
    let editor = &harness.state().editor;
    assert!(editor.is_dirty());
    assert_eq!(
        editor.level().garbage,
        vec!["GGGG.GGGGG".to_string(), "GG........".to_string()]
    );
    let ron = editor.to_ron().unwrap();
    let loaded: TetrisLevel = parse_level(&ron, Path::new("new.ron")).unwrap();
    assert_eq!(&loaded, editor.level());
    assert!(loaded.diagnose().is_empty(), "{:?}", loaded.diagnose());
}

#[test]
fn validation_flags_a_full_row_and_solvable_finds_the_triple() {
    let root = repo_root();
    let path = root.join("levels/tetris/puzzle_4_tspin_triple.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut editor = TetrisLevelEditor::open(&path, &text).unwrap();
    assert_eq!(editor.level().goal, Goal::Lines(3));
    editor.start_search();
    editor.wait_for_search();
    let Some(report) = editor.verdict() else {
        panic!("no verdict")
    };
    let Verdict::Solvable(solution) = &report.verdict else {
        panic!("{:?}", report.verdict)
    };
    assert_eq!(solution.len(), 1);
    // Filling the slot's hole makes a full row: flagged at once.
    editor.tool = level_editor::Tool::Paint;
    editor.brush = 'G';
    editor.paint(3, 7);
    assert!(editor.verdict().is_none(), "an edit clears the verdict");
    let findings = editor.level().diagnose();
    assert!(
        findings.iter().any(|d| d.message.contains("already full")),
        "{findings:?}"
    );
}

#[test]
fn the_balance_window_runs_a_small_simulation_and_shows_its_rows() {
    let dir = project_dir();
    let mut project = Project::open(dir.path(), crate::registry()).unwrap();
    let script = project.script(&project.game_script_path("tetris")).unwrap();
    let level = TetrisLevel {
        feed: Some(tessera_tetris::level::FeedLevel {
            difficulty: "EASY".into(),
            target_lines: 2,
            lowering_ceiling: true,
            ceiling_every: None,
        }),
        ..TetrisLevel::default()
    };
    let view = started(level, script, 3);
    let rig = Rig::new(view, project).in_folder(dir);
    let mut harness = harness(rig);
    harness.run_steps(2);
    harness.get_by_label("⚖ Balance").click();
    harness.run_steps(2);
    // The script's difficulties are listed, all chosen.
    for name in ["EASY", "NORMAL", "HARD", "GOD", "MASTER"] {
        harness.get_by_label(name);
    }
    {
        let config = &mut harness.state_mut().view.balance.config;
        config.difficulties = vec!["EASY".into(), "GOD".into()];
        config.games = 2;
        config.feeder = tessera_tetris_bot::ai::feeder::Feeder::Random;
        config.piece_cap = 80;
    }
    harness.get_by_label("▶ Run simulation").click();
    harness.run_steps(2);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while harness.state().view.balance.is_running() {
        assert!(
            std::time::Instant::now() < deadline,
            "the simulation did not finish"
        );
        harness.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    harness.run_steps(2);
    let rows = harness.state().view.balance.rows().to_vec();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0].level, "EASY");
    assert_eq!(rows[1].level, "GOD");
    for row in &rows {
        assert_eq!(row.games, 2);
        assert!(row.mean_pieces > 0.0, "{row:?}");
        assert!((0.0..=1.0).contains(&row.ai_win_rate), "{row:?}");
    }
    // The feed level of the playtest is the board played.
    harness.get_by_label_contains("on 18 x 12");
    // The table shows them.
    harness.get_by_label("AI win rate");
    harness.get_by_label("mean lines per AI");
    assert!(
        harness.query_all_by_label("EASY").count() >= 2,
        "checkbox and row"
    );
}

#[test]
fn a_balance_run_can_be_cancelled() {
    let dir = project_dir();
    let mut panel = balance::BalancePanel::default();
    panel.config = balance::BalanceConfig {
        feed: false,
        difficulties: vec!["GOD".into()],
        games: 1000,
        piece_cap: 1_000_000,
        ..balance::BalanceConfig::default()
    };
    panel.run(&TetrisLevel::default(), dir.path());
    assert!(panel.is_running());
    panel.cancel();
    panel.wait(std::time::Duration::from_secs(30));
    assert!(!panel.is_running());
    let message = panel.message().unwrap_or_default();
    assert!(message.starts_with("cancelled after"), "{message}");
}

/// A project with the shipped script and the shipped feed levels whose
/// names `keep` accepts.
fn campaign_project(keep: impl Fn(&str) -> bool) -> tempfile::TempDir {
    let dir = project_dir();
    let levels = repo_root().join("levels/tetris");
    for entry in std::fs::read_dir(&levels).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with("feed_") && keep(&name) {
            std::fs::copy(&path, dir.path().join("levels/tetris").join(&name)).unwrap();
        }
    }
    dir
}

/// Steps the harness until the campaign run ends (at most a minute).
fn finish_campaign(harness: &mut Harness<'static, Rig>) {
    let limit = std::time::Duration::from_secs(120);
    tessera_ui_testkit::step_until_within(harness, "the campaign's end", limit, |h| {
        !h.state().view.balance.campaign.is_running()
    });
    harness.run_steps(2);
}

#[test]
fn the_campaign_plots_one_curve_per_feeder_strength_over_the_feed_levels() {
    let dir = campaign_project(|_| true);
    let mut project = Project::open(dir.path(), crate::registry()).unwrap();
    let script = project.script(&project.game_script_path("tetris")).unwrap();
    let view = started(TetrisLevel::default(), script, 3);
    let rig = Rig::new(view, project).in_folder(dir);
    let mut harness = harness(rig);
    harness.run_steps(2);
    harness.get_by_label("⚖ Balance").click();
    harness.run_steps(2);
    harness.get_by_label("Campaign").click();
    harness.run_steps(2);
    harness.get_by_label_contains("No campaign run yet");
    // The three middling strengths are chosen; one checkbox each so far.
    for name in ["hate:0.25", "hate:0.5", "hate:0.75"] {
        assert_eq!(harness.query_all_by_label(name).count(), 1, "{name}");
    }
    harness.state_mut().view.balance.campaign.config.games = 2;
    harness.get_by_label("▶ Run campaign").click();
    harness.run_steps(2);
    assert!(harness.state().view.balance.campaign.is_running());
    finish_campaign(&mut harness);
    let campaign = &harness.state().view.balance.campaign;
    assert_eq!(campaign.message(), None);
    let curves = campaign.curves().to_vec();
    let feeders: Vec<&str> = curves.iter().map(|c| c.feeder.as_str()).collect();
    assert_eq!(feeders, ["hate:0.25", "hate:0.5", "hate:0.75"]);
    for curve in &curves {
        let levels: Vec<usize> = curve.points.iter().map(|p| p.level).collect();
        assert_eq!(levels, (1..=8).collect::<Vec<_>>(), "{curve:?}");
        assert!(curve.points[0].file.starts_with("feed_1_"), "{curve:?}");
        for point in &curve.points {
            assert_eq!(point.games, 2, "{curve:?}");
            assert!((0.0..=1.0).contains(&point.player_win), "{curve:?}");
        }
    }
    // The plot's legend names each curve: its checkbox and its legend
    // entry; a feeder not chosen has its checkbox only.
    harness.get_by_label("player win rate per feed level (%)");
    for name in ["hate:0.25", "hate:0.5", "hate:0.75"] {
        assert_eq!(harness.query_all_by_label(name).count(), 2, "{name}");
    }
    assert_eq!(harness.query_all_by_label("random").count(), 1);
}

#[test]
fn a_changed_difficulty_table_moves_a_campaign_point() {
    // The first two levels (EASY) are enough to see a table move.
    let dir = campaign_project(|name| name.starts_with("feed_1_") || name.starts_with("feed_2_"));
    let mut panel = crate::campaign::CampaignPanel::default();
    panel.config.games = 6;
    let wait = std::time::Duration::from_secs(120);
    panel.run(dir.path());
    panel.wait(wait);
    let before = panel.curves().to_vec();
    assert_eq!(before.len(), 3, "{:?}", panel.message());
    assert!(before.iter().all(|c| c.points.len() == 2), "{before:?}");
    // The same run again plays the same games: the same points.
    panel.run(dir.path());
    panel.wait(wait);
    assert_eq!(panel.curves(), &before[..]);
    // A designer gives EASY a ceiling that barely drops: the player wins
    // less often on its levels.
    let script = dir.path().join("scripts/tetris.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    let easy = r#"{ name = "EASY", noise = 2.0, decision_ms = 800, special_chance = 0.10, ceiling_every = 5,"#;
    assert!(text.contains(easy), "the shipped script's EASY row");
    std::fs::write(
        &script,
        text.replacen(
            easy,
            &easy.replace("ceiling_every = 5", "ceiling_every = 500"),
            1,
        ),
    )
    .unwrap();
    panel.run(dir.path());
    panel.wait(wait);
    let after = panel.curves().to_vec();
    assert_eq!(after.len(), 3, "{:?}", panel.message());
    let moved: Vec<(String, usize, f64, f64)> = before
        .iter()
        .zip(&after)
        .flat_map(|(b, a)| {
            b.points
                .iter()
                .zip(&a.points)
                .filter(|(pb, pa)| pb.player_win != pa.player_win)
                .map(|(pb, pa)| (b.feeder.clone(), pb.level, pb.player_win, pa.player_win))
        })
        .collect();
    assert!(!moved.is_empty(), "no point moved: {before:?} / {after:?}");
    // Every point that moved went down: a slower ceiling helps the AI.
    assert!(moved.iter().all(|(_, _, b, a)| a < b), "{moved:?}");
}

/// Issue 49: a game played to its end in a docked panel's room moves no
/// widget (the side panel, the toolbar, the board), and the card drawn
/// over the board keeps its title, the reason and the new-game buttons
/// apart: the reason wrapped over "OVER" in a small board.
#[test]
fn the_game_over_card_keeps_its_reason_clear_of_the_title() {
    use tessera_ui_testkit::{Layout, Sweep, layout::assert_apart};
    let size = egui::vec2(560.0, 520.0);
    let mut harness = rig().harness(size);
    harness.run_steps(2);
    let mut sweep = Sweep::new(size, &[]);
    sweep.change(&mut harness, "play until the game is over", |h| {
        for _ in 0..40 {
            h.key_press(egui::Key::Space);
            h.run_steps(1);
        }
        h.run_steps(2);
    });
    assert!(harness.state().view.game().outcome().is_over());
    let reason = harness
        .state()
        .view
        .game()
        .over_reason()
        .expect("a reason")
        .to_string();
    let board = harness.state().view.board_rect();
    let card = Layout::of(&harness, board);
    assert!(card.find("OVER").is_some(), "the title is a widget");
    assert!(
        card.find(&reason).is_some(),
        "the reason {reason:?} is shown"
    );
    assert_apart(&card, &["OVER", &reason, "Play again", "New seed"]);
    sweep.assert_steady();
}
