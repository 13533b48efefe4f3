//! Issue 49's editor sweep: a level edited, played as its unsaved buffer
//! and saved with Ctrl+S during the playtest, for every game. Nothing in
//! the docked playtest may move (the "was saved" banner pushed the game
//! down 27 px and was cut off at the panel's edge), and the header stops
//! saying "(unsaved edits)" once they are saved.

use std::path::Path;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

use super::support;
use tessera_editor::EditorApp;
use tessera_ui_testkit::Sweep;

/// The editor's default window: the playtest docked about 440 px wide.
const SIZE: egui::Vec2 = egui::vec2(1400.0, 900.0);

/// A project holding `game`'s shipped script and its level `level`.
fn project(game: &str, level: &str) -> tempfile::TempDir {
    support::temp_project(&[
        &format!("scripts/{game}.lua"),
        &format!("levels/{game}/{level}"),
    ])
}

/// Opens `level`'s text tab, adds a comment at its end (an unsaved edit)
/// and presses F5: the playtest plays the unsaved buffer.
fn play_an_unsaved_edit(
    harness: &mut Harness<'_, EditorApp>,
    root: &Path,
    game: &str,
    level: &str,
) {
    let path = root.join("levels").join(game).join(level);
    harness
        .state_mut()
        .open_file(&path)
        .expect("the level opens");
    harness.run_steps(3);
    harness.get_by_label("RON text").click();
    harness.run_steps(2);
    harness.get_by_role(Role::MultilineTextInput).focus();
    harness.run_steps(2);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::End);
    harness.run_steps(2);
    harness
        .get_by_role(Role::MultilineTextInput)
        .type_text("\n// edited during the sweep\n");
    harness.run_steps(2);
    harness.key_press(Key::F5);
    harness.run_steps(6);
    assert!(
        harness.state().playtest().plays_unsaved_buffer(),
        "{game}: F5 plays the unsaved buffer"
    );
    assert!(
        unsaved_header(harness).is_some(),
        "{game}: the header says the edits are unsaved"
    );
}

/// The docked playtest's header line, when it says "(unsaved edits)" (the
/// console's start line says it too, and stays).
fn unsaved_header(harness: &Harness<'_, EditorApp>) -> Option<String> {
    let area = support::layout::playtest_area(harness);
    harness
        .query_all_by_label_contains("(unsaved edits)")
        .find(|n| area.contains(n.rect().min))
        .map(|n| {
            let node = n.accesskit_node();
            // A label's text is its accessible value.
            node.label()
                .filter(|l| !l.is_empty())
                .or_else(|| node.value())
                .unwrap_or_default()
        })
}

/// A sweep of the editor's window in which the docked playtest's widgets
/// must stay in view: inside the window and above the console (the
/// playtest's scroll area hides what runs under it).
fn docked_sweep(harness: &Harness<'_, EditorApp>) -> Sweep {
    docked_sweep_of(harness, SIZE)
}

/// [`docked_sweep`] of a window of `size`.
fn docked_sweep_of(harness: &Harness<'_, EditorApp>, size: egui::Vec2) -> Sweep {
    let console = harness.get_by_label("Console").rect().top() - 4.0;
    Sweep::new(size, &[])
        .visible(egui::Rect::from_min_max(
            egui::Pos2::ZERO,
            egui::pos2(size.x, console),
        ))
        .other_panels(harness.get_by_label("Clear").rect())
}

/// Ctrl+S during `game`'s playtest moves nothing in the docked playtest,
/// keeps the restart offer in view and updates the header.
fn save_during_play(game: &str, level: &str) {
    let dir = project(game, level);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = support::sized(EditorApp::open(&root).expect("opens"), SIZE);
    harness.run_steps(3);
    play_an_unsaved_edit(&mut harness, &root, game, level);
    let mut sweep = docked_sweep(&harness);
    sweep.change_in(
        &mut harness,
        &format!("{game}: Ctrl+S during play"),
        support::layout::playtest_area,
        |h| {
            h.key_press_modifiers(Modifiers::COMMAND, Key::S);
            h.run_steps(4);
        },
    );
    assert!(
        harness.state().playtest().offers_restart(),
        "{game}: the save offers a restart"
    );
    let header = unsaved_header(&harness);
    sweep.assert_steady();
    assert_eq!(header, None, "{game}: the header after the save");
}

#[test]
fn saving_during_a_sand_playtest_moves_nothing() {
    save_during_play("sand", "classic.ron");
}

#[test]
fn saving_during_a_tetris_playtest_moves_nothing() {
    save_during_play("tetris", "marathon_20x10.ron");
}

#[test]
fn saving_during_an_azul_playtest_moves_nothing() {
    // Its docked view ran up to 200 px below the window (its controls
    // and messages under the console): it now fits.
    save_during_play("azul", "standard.ron");
}

#[test]
fn saving_during_a_polycube_playtest_moves_nothing() {
    save_during_play("polycube", "01_first_steps.ron");
}

/// The editor on `level` of `game` (its shipped script beside it), the
/// level's playtest started with F5 and docked, in a window of `size`.
fn docked_playtest(game: &str, level: &str, size: egui::Vec2) -> Played {
    let dir = project(game, level);
    let root = dir.path().canonicalize().expect("root");
    let mut harness = support::on_level(&root, game, level, size);
    harness.key_press(Key::F5);
    harness.run_steps(6);
    assert!(
        harness.state().playtest().session().is_some(),
        "{game}: F5 starts {level}"
    );
    Played { _dir: dir, harness }
}

/// A playtest and the project folder it plays from.
struct Played {
    _dir: tempfile::TempDir,
    harness: Harness<'static, EditorApp>,
}

/// Whether the playtest's game is over.
fn over(harness: &Harness<'_, EditorApp>) -> bool {
    harness
        .state()
        .playtest()
        .session()
        .is_some_and(|s| s.outcome().is_over())
}

/// The playtest's toolbar Undo.
fn toolbar_undo(harness: &mut Harness<'_, EditorApp>) {
    support::layout::click_in_playtest(harness, "↶ Undo");
    harness.run_steps(4);
}

/// Sand's docked playtest through a pick (a piece held over the board),
/// its place, the fall, a refused drop (its line) and Undo.
#[test]
fn sands_playtest_holds_still_through_its_states() {
    let Played { _dir, mut harness } = docked_playtest("sand", "classic.ron", SIZE);
    let area = support::layout::playtest_area;
    let mut sweep = docked_sweep(&harness);
    let board = harness.get_by_label("sand board").rect();
    let above = egui::pos2(board.center().x, board.top() - 20.0);
    let below = egui::pos2(board.center().x, board.bottom() + 20.0);
    let slot = harness.get_by_label("slot 1").rect().center();
    sweep.change_in(&mut harness, "sand: pick", area, |h| {
        tessera_ui_testkit::hold(h, slot, above);
    });
    sweep.change_in(&mut harness, "sand: place", area, |h| {
        h.drop_at(above);
        h.run_steps(3);
    });
    harness.get_by_label("pieces placed 1");
    sweep.change_in(&mut harness, "sand: the fall", area, |h| h.run_steps(300));
    sweep.change_in(&mut harness, "sand: a refused drop", area, |h| {
        let slot = h.get_by_label("slot 1").rect().center();
        support::drag(h, slot, below);
        h.run_steps(3);
    });
    support::assert_console_has(&harness, "sand: not placed");
    sweep.change_in(&mut harness, "sand: undo", area, toolbar_undo);
    harness.get_by_label("pieces placed 0");
    assert!(!over(&harness));
    sweep.assert_steady();
}

/// Sand's game-over card on the narrow well (its first drop fills it),
/// and Undo back to the game: the slots under the board stayed put (the
/// card's buttons moved the layout's cursor: the slots rose 18 px, over
/// the board's bottom).
#[test]
fn sands_game_over_card_moves_nothing() {
    let Played { _dir, mut harness } = docked_playtest("sand", "narrow_well.ron", SIZE);
    let area = support::layout::playtest_area;
    let mut sweep = docked_sweep(&harness);
    let board = harness.get_by_label("sand board").rect();
    let above = egui::pos2(board.center().x, board.top() - 20.0);
    sweep.change_in(&mut harness, "sand: game over", area, |h| {
        for _ in 0..12 {
            if over(h) {
                break;
            }
            let slot = h.get_by_label("slot 1").rect().center();
            support::drag(h, slot, above);
            h.run_steps(300);
        }
        h.run_steps(3);
    });
    assert!(over(&harness), "the narrow well fills");
    harness.get_by_label("Play again");
    sweep.change_in(&mut harness, "sand: undo the last drop", area, toolbar_undo);
    assert!(!over(&harness), "Undo takes the game back");
    sweep.assert_steady();
}

/// Tetris's docked playtest played to its game-over card by hard drops.
#[test]
fn tetris_game_over_card_moves_nothing() {
    let Played { _dir, mut harness } = docked_playtest("tetris", "marathon_20x10.ron", SIZE);
    let mut sweep = docked_sweep(&harness);
    sweep.change_in(
        &mut harness,
        "tetris: hard drops to the game over",
        support::layout::playtest_area,
        |h| {
            for _ in 0..60 {
                if over(h) {
                    break;
                }
                h.key_press(Key::Space);
                h.run_steps(2);
            }
            h.run_steps(3);
        },
    );
    assert!(over(&harness), "the stack reached the top");
    harness.get_by_label("OVER");
    sweep.assert_steady();
}

/// Polycube's docked playtest through a long refusal (its status line
/// elided at the panel's edge) and the solved line.
#[test]
fn polycube_long_refusal_and_solved_line_move_nothing() {
    let Played { _dir, mut harness } = docked_playtest("polycube", "01_first_steps.ron", SIZE);
    let area = support::layout::playtest_area;
    let click = support::layout::click_in_playtest_and_settle;
    let mut sweep = docked_sweep(&harness);
    sweep.change_in(&mut harness, "polycube: a long refusal", area, |h| {
        click(h, "B (4)");
        click(h, "cell 2,2,2");
        click(h, "Place");
    });
    assert!(
        harness
            .query_all_by_label_contains("has 4 cells, 1 was given")
            .next()
            .is_some(),
        "the refusal is told"
    );
    sweep.change_in(&mut harness, "polycube: solved", area, |h| {
        click(h, "Clear aim");
        for (piece, cells) in [
            ("A (4)", ["1,1,1", "1,1,2", "1,2,2", "2,1,1"]),
            ("B (4)", ["1,2,1", "2,1,2", "2,2,1", "2,2,2"]),
        ] {
            click(h, piece);
            for cell in cells {
                click(h, &format!("cell {cell}"));
            }
            click(h, "Place");
        }
    });
    assert!(over(&harness), "the box is filled");
    harness.get_by_label_contains("Solved in");
    sweep.assert_steady();
}

/// The label of the first enabled widget of the docked playtest whose
/// label starts with `prefix`.
fn first_enabled(harness: &Harness<'_, EditorApp>, prefix: &str) -> Option<String> {
    let area = support::layout::playtest_area(harness);
    harness
        .query_all_by_label_contains(prefix)
        .filter(|n| area.contains(n.rect().min))
        .map(|n| n.accesskit_node())
        .find(|node| !node.is_disabled() && node.label().is_some_and(|l| l.starts_with(prefix)))
        .and_then(|node| node.label())
}

/// Azul's first factory tile the human may pick.
fn a_factory_tile(harness: &Harness<'_, EditorApp>) -> String {
    first_enabled(harness, "factory ").expect("a factory tile to pick")
}

/// Steps until the AI seat has replied (at most 30 s).
fn until_the_ai_replied(harness: &mut Harness<'_, EditorApp>, steps: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let done = |h: &Harness<'_, EditorApp>| {
        h.state()
            .playtest()
            .session()
            .is_some_and(|s| s.step_count() >= steps)
    };
    while !done(harness) {
        assert!(std::time::Instant::now() < deadline, "the AI never replied");
        harness.run_steps(2);
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    harness.run_steps(4);
}

/// Azul's docked table through a pick, its place, the AI thinking and
/// its reply, a refused line (its reason) and Undo, all in view above the
/// console (its controls and messages were up to 200 px below it).
#[test]
fn azuls_playtest_holds_still_through_its_states() {
    let Played { _dir, mut harness } = docked_playtest("azul", "standard.ron", SIZE);
    // The centre's tiles gather as the factories are taken (by the rules):
    // a slot declared to grow.
    let mut sweep = docked_sweep(&harness).growing(&["centre "]);
    azul_turn_states(&mut harness, &mut sweep, "azul", 2);
    sweep.assert_steady();
}

/// Writes `text` as `levels/azul/<file>` in the project at `root`, opens
/// it and starts its playtest (F5), replacing the one running.
fn play_azul_level(harness: &mut Harness<'_, EditorApp>, root: &Path, file: &str, text: &str) {
    let root = root.canonicalize().expect("root");
    let level = root.join("levels/azul").join(file);
    std::fs::write(&level, text).expect("the level");
    harness.state_mut().open_file(&level).expect("opens");
    harness.run_steps(3);
    harness.key_press(Key::F5);
    harness.run_steps(6);
}

/// Drives a docked Azul table of `players` through a pick, its place, the
/// AI seats thinking and replying, a pick again, a refused line (its
/// reason) and Undo, each a change `sweep` watches (named `name: ...`).
fn azul_turn_states(
    harness: &mut Harness<'_, EditorApp>,
    sweep: &mut Sweep,
    name: &str,
    players: usize,
) {
    let area = support::layout::playtest_area;
    let click = support::layout::click_in_playtest_and_settle;
    let tile = a_factory_tile(harness);
    sweep.change_in(harness, &format!("{name}: pick"), area, |h| click(h, &tile));
    harness.get_by_label_contains("Picked ");
    sweep.change_in(harness, &format!("{name}: place"), area, |h| {
        click(h, "line 1")
    });
    sweep.change_in(harness, &format!("{name}: the AI thinking"), area, |h| {
        h.run_steps(4)
    });
    harness.get_by_label_contains("is thinking");
    // The human's move and every AI seat's reply.
    sweep.change_in(harness, &format!("{name}: the AI replies"), area, |h| {
        until_the_ai_replied(h, players)
    });
    let tile = a_factory_tile(harness);
    sweep.change_in(harness, &format!("{name}: pick again"), area, |h| {
        click(h, &tile)
    });
    sweep.change_in(harness, &format!("{name}: a refused line"), area, |h| {
        click(h, "line 1")
    });
    harness.get_by_label_contains("Line 1 cannot take it");
    sweep.change_in(harness, &format!("{name}: undo"), area, toolbar_undo);
}

/// Azul's final scores on the docked table: the end card takes the
/// emptied factories' room and everything else stays where it was, in
/// view; closing the card moves nothing either.
#[test]
fn azuls_final_scores_move_nothing() {
    let Played { _dir, mut harness } = docked_playtest("azul", "standard.ron", SIZE);
    play_azul_level(
        &mut harness,
        _dir.path(),
        "last_move.ron",
        support::AZUL_LAST_MOVE,
    );
    let area = support::layout::playtest_area;
    let mut sweep = docked_sweep(&harness);
    sweep.change_in(&mut harness, "azul: the last move", area, |h| {
        support::layout::click_in_playtest(h, "centre orange x1");
        h.run_steps(3);
        support::layout::click_in_playtest(h, "line 1");
        h.run_steps(6);
    });
    assert!(over(&harness), "the game ended");
    harness.get_by_label("Play the same deal again");
    sweep.change_in(&mut harness, "azul: the card closed", area, |h| {
        support::layout::click_in_playtest(h, "×");
        h.run_steps(3);
    });
    sweep.assert_steady();
}

/// Polycube's maximised playtest at 1280 x 800 (the docs' pictures' size
/// and state: two pieces placed by hints), through a pick, an aim and the
/// mode switches: its 3D view stays in the window above the status line
/// (the pictures showed it cut at the bottom).
#[test]
fn polycube_at_1280x800_keeps_its_3d_view_in_the_window() {
    let size = egui::vec2(1280.0, 800.0);
    let Played { _dir, mut harness } = docked_playtest("polycube", "03_little_crate.ron", size);
    for placed in ["1/4 placed", "2/4 placed"] {
        let hint = harness
            .query_all_by_label_contains("Hint (")
            .next()
            .and_then(|n| n.accesskit_node().label())
            .expect("the Hint button");
        support::layout::click_in_playtest(&harness, &hint);
        harness.run_steps(3);
        support::step_until(&mut harness, placed, |h| {
            h.query_by_label_contains(placed).is_some()
        });
        harness.run_steps(3);
    }
    harness.key_press(Key::F11);
    harness.run_steps(6);
    assert!(harness.state().playtest_maximised());
    // Maximised, the full view (not the docked compact one): "Show a
    // solution" in the panel, not in a tool window (it went compact when
    // the compact view began below 600 px).
    harness.get_by_label("Show a solution");
    // The status line's file name, at the window's bottom.
    let status = harness
        .query_all_by_label("levels/polycube/03_little_crate.ron")
        .map(|n| n.rect().top())
        .fold(f32::NEG_INFINITY, f32::max);
    assert!(status > size.y / 2.0, "the status line is at the bottom");
    let mut sweep = Sweep::new(size, &[]).visible(egui::Rect::from_min_max(
        egui::Pos2::ZERO,
        egui::pos2(size.x, status - 2.0),
    ));
    let area = |_: &Harness<'_, EditorApp>| {
        egui::Rect::from_min_max(egui::pos2(0.0, 40.0), egui::pos2(1280.0, 760.0))
    };
    let click = |h: &mut Harness<'_, EditorApp>, label: &str| {
        h.get_by_label(label).click();
        h.run_steps(3);
    };
    sweep.change_in(&mut harness, "polycube: pick", area, |h| click(h, "D (4)"));
    sweep.change_in(&mut harness, "polycube: aim", area, |h| {
        click(h, "cell 2,3,3")
    });
    sweep.change_in(&mut harness, "polycube: Anchor + rotation", area, |h| {
        click(h, "Anchor + rotation")
    });
    sweep.change_in(&mut harness, "polycube: Pick cells", area, |h| {
        click(h, "Pick cells")
    });
    sweep.assert_steady();
}

/// docs/games/sand.md's first level: a red floor one cell short, a blue
/// ledge, one red O in the tray, won at the first clear.
const SAND_FIRST_TRAY: &str = r#"(
    version: 1,
    columns: 6,
    rows: 8,
    cell: 10,
    board: ["BBB...", "RRRRR."],
    tray: ["O R"],
    clears: Some(1),
)
"#;

/// Sand's tray level won (the page's first level): the playtest says so
/// on a card over the board, as it says a game is over, and nothing
/// moves. It said "settled", as if the game went on.
#[test]
fn sands_won_card_moves_nothing() {
    let Played { _dir, mut harness } = docked_playtest("sand", "classic.ron", SIZE);
    let root = _dir.path().canonicalize().expect("root");
    let level = root.join("levels/sand/first_tray.ron");
    std::fs::write(&level, SAND_FIRST_TRAY).expect("the level");
    harness.state_mut().open_file(&level).expect("opens");
    harness.run_steps(3);
    harness.key_press(Key::F5);
    harness.run_steps(6);
    let area = support::layout::playtest_area;
    let mut sweep = docked_sweep(&harness);
    let board = harness.get_by_label("sand board").rect();
    let at_the_right_wall = egui::pos2(board.right() - 2.0, board.top() - 20.0);
    sweep.change_in(&mut harness, "sand: the one clear", area, |h| {
        let slot = h.get_by_label("slot 1").rect().center();
        support::drag(h, slot, at_the_right_wall);
        h.run_steps(400);
    });
    assert!(over(&harness), "the level's one clear wins it");
    assert!(
        harness
            .query_all_by_label_contains("level won")
            .next()
            .is_some(),
        "the state line says the level is won"
    );
    harness.get_by_label("Play again");
    sweep.assert_steady();
}

/// The docs' pictures' window: 1280 x 800.
const SMALL: egui::Vec2 = egui::vec2(1280.0, 800.0);

/// Sand's docked playtest at 1280 x 800 on the cascade (docs/img/sand.png:
/// three clears by themselves): its "Recent clears" lines stay above the
/// console (they ran under it, the third cut in half).
#[test]
fn sands_recent_clears_stay_above_the_console_at_1280x800() {
    let Played { _dir, mut harness } = docked_playtest("sand", "cascade.ron", SMALL);
    // The list, newest first, is a slot declared to grow (its lines move
    // down as clears come); it must stay in view.
    let mut sweep = docked_sweep_of(&harness, SMALL).growing(&["tick "]);
    sweep.change_in(
        &mut harness,
        "sand: the cascade's three clears",
        support::layout::playtest_area,
        |h| h.run_steps(400),
    );
    harness.get_by_label("Score 142");
    sweep.assert_steady();
    // The three clears are all listed, in view above the console (one
    // line had room: the debug overlays' check boxes took the rest).
    let console = harness.get_by_label("Console").rect().top();
    let left = support::layout::playtest_area(&harness).left();
    let clears: Vec<egui::Rect> = harness
        .query_all_by_label_contains(" grains  +")
        .map(|n| n.rect())
        .filter(|r| r.left() >= left && r.bottom() <= console)
        .collect();
    assert!(
        clears.len() >= 3,
        "the recent clears in view: {clears:?} (the console's top at {console})"
    );
}

/// Polycube's docked (not maximised) playtest at 1280 x 800, through a
/// pick and an aim: its grids (the slices) and its main controls stay
/// above the console (its controls alone took the panel's height, the
/// slices were under the console).
#[test]
fn polycubes_docked_playtest_fits_at_1280x800() {
    let Played { _dir, mut harness } = docked_playtest("polycube", "03_little_crate.ron", SMALL);
    let area = support::layout::playtest_area;
    let click = support::layout::click_in_playtest_and_settle;
    let mut sweep = docked_sweep_of(&harness, SMALL);
    sweep.change_in(&mut harness, "polycube: pick", area, |h| click(h, "D (4)"));
    sweep.change_in(&mut harness, "polycube: aim", area, |h| {
        click(h, "cell 2,3,3")
    });
    sweep.change_in(&mut harness, "polycube: Place", area, |h| click(h, "Place"));
    sweep.assert_steady();
    // Not a sliver: the 3D view has room beside or below the slices.
    let left = support::layout::playtest_area(&harness).left();
    let view = harness
        .query_all_by_label("3D view")
        .map(|n| n.rect())
        .find(|r| r.left() >= left)
        .expect("the playtest's 3D view");
    assert!(view.height() >= 80.0, "the 3D view at {view:?}");
}

/// A four-player last round: the player's one move (the centre's orange
/// to line 1) completes a wall row, so the game ends at once.
const AZUL_FOUR_LAST_MOVE: &str = r#"(
    version: 1,
    title: "Four players, last move",
    description: "One move left.",
    seats: [Human, Ai(level: "easy"), Ai(level: "medium"), Ai(level: "hard")],
    position: Some((
        round: 5,
        to_move: 1,
        boards: [
            (score: 10, wall: ["BYRG.", ".....", ".....", ".....", "....."], lines: ["", "", "", "", ""]),
            (score: 41, wall: ["B.RGO", "OBYR.", ".OBY.", "..OB.", "....."], lines: ["", "", "", "", ""]),
            (score: 20, wall: ["..R..", ".....", ".....", ".....", "....."], lines: ["", "", "", "", ""]),
            (score: 30, wall: ["...G.", "...R.", ".....", ".....", "....."], lines: ["", "", "", "", ""]),
        ],
        factories: ["", "", "", "", "", "", "", "", ""],
        centre: "O",
    )),
)
"#;

/// Issue 49: the four-player table docked at the default window (three
/// AI seats, nine factories) through a pick, its place, the three AIs
/// thinking and replying, a refused line, Undo and the final scores:
/// every widget stays in the window above the console and still (the
/// table ran under the console).
#[test]
fn azuls_four_player_table_fits_and_holds_still_docked() {
    let Played { _dir, mut harness } = docked_playtest("azul", "four_players.ron", SIZE);
    let area = support::layout::playtest_area;
    let mut sweep = docked_sweep(&harness).growing(&["centre "]);
    azul_turn_states(&mut harness, &mut sweep, "azul 4p", 4);
    // Every board's floor (its lowest row) was among the widgets watched.
    let layout = tessera_ui_testkit::Layout::of(&harness, area(&harness));
    for floor in [
        "floor",
        "player 2 floor",
        "player 3 floor",
        "player 4 floor",
    ] {
        assert!(layout.find(floor).is_some(), "{floor} is drawn");
    }
    sweep.assert_steady();
}

/// The four-player table's final scores, docked: the end card takes the
/// emptied factories' room, in view above the console, and nothing else
/// moves; closing it moves nothing either.
#[test]
fn azuls_four_player_final_scores_fit_docked() {
    let Played { _dir, mut harness } = docked_playtest("azul", "four_players.ron", SIZE);
    play_azul_level(
        &mut harness,
        _dir.path(),
        "four_last_move.ron",
        AZUL_FOUR_LAST_MOVE,
    );
    let area = support::layout::playtest_area;
    let mut sweep = docked_sweep(&harness);
    sweep.change_in(&mut harness, "azul 4p: the last move", area, |h| {
        support::layout::click_in_playtest(h, "centre orange x1");
        h.run_steps(3);
        support::layout::click_in_playtest(h, "line 1");
        h.run_steps(6);
    });
    assert!(over(&harness), "the game ended");
    // The card keeps to its room: its button above the table's buttons,
    // not drawn over them.
    let again = harness.get_by_label("Play the same deal again").rect();
    let left = area(&harness).left();
    let buttons = harness
        .query_all_by_label("New game")
        .map(|n| n.rect())
        .find(|r| r.left() >= left)
        .expect("the table's New game");
    assert!(
        again.bottom() <= buttons.top(),
        "the card's button {again:?} runs over the table's buttons {buttons:?}"
    );
    sweep.change_in(&mut harness, "azul 4p: the card closed", area, |h| {
        support::layout::click_in_playtest(h, "×");
        h.run_steps(3);
    });
    sweep.assert_steady();
}

/// A three-player table: its player's board beside the other two, one
/// above the other (the crowded docked layout's other case).
const AZUL_THREE_PLAYERS: &str = r#"(
    version: 1,
    title: "Three players",
    description: "You against the easy and medium AIs.",
    seats: [Human, Ai(level: "easy"), Ai(level: "medium")],
)
"#;

/// The three-player table docked at the default window through a pick,
/// its place and the two AIs' replies: in view above the console, still.
#[test]
fn azuls_three_player_table_fits_docked() {
    let Played { _dir, mut harness } = docked_playtest("azul", "four_players.ron", SIZE);
    play_azul_level(
        &mut harness,
        _dir.path(),
        "three_players.ron",
        AZUL_THREE_PLAYERS,
    );
    harness.get_by_label("Player 3 (AI medium)");
    let area = support::layout::playtest_area;
    let click = support::layout::click_in_playtest_and_settle;
    let mut sweep = docked_sweep(&harness).growing(&["centre "]);
    let tile = a_factory_tile(&harness);
    sweep.change_in(&mut harness, "azul 3p: pick", area, |h| click(h, &tile));
    sweep.change_in(&mut harness, "azul 3p: place", area, |h| click(h, "line 1"));
    sweep.change_in(&mut harness, "azul 3p: the AIs' replies", area, |h| {
        until_the_ai_replied(h, 3)
    });
    let layout = tessera_ui_testkit::Layout::of(&harness, area(&harness));
    for floor in ["floor", "player 2 floor", "player 3 floor", "factory 7 "] {
        assert!(layout.find(floor).is_some(), "{floor} is drawn");
    }
    sweep.assert_steady();
}
