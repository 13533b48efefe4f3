//! Driving the polycube views by clicks, as a player and a designer would.

use std::sync::atomic::AtomicBool;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_host::Game;
use tessera_host::Recorded;
use tessera_host::project::Project;
use tessera_polycube::import::load_any;
use tessera_polycube::{Polycube, PolycubeLevel, Solver};

use super::level_editor::PolycubeLevelEditor;
use super::playtest::PolycubePlaytest;
use tessera_ui::{LevelEditor, PlaytestView};
use tessera_ui_testkit::{click_at, repo_root as root, wait_for};

type Playing = tessera_ui_testkit::Playing<PolycubePlaytest>;
type Editing = tessera_ui_testkit::Editing<PolycubeLevelEditor>;

fn level(name: &str) -> PolycubeLevel {
    load_any(&root().join("levels/polycube").join(name))
        .map(|(l, _)| l)
        .expect("level")
}

fn playing(level: PolycubeLevel) -> Harness<'static, Playing> {
    playing_in(level, &Default::default())
}

fn playing_in(
    level: PolycubeLevel,
    options: &tessera_host::SessionOptions,
) -> Harness<'static, Playing> {
    playing_sized(level, options, egui::vec2(1200.0, 900.0))
}

fn playing_sized(
    level: PolycubeLevel,
    options: &tessera_host::SessionOptions,
    size: egui::Vec2,
) -> Harness<'static, Playing> {
    let mut project = Project::open(&root(), crate::registry()).expect("project");
    let script = project
        .script(&project.game_script_path(Polycube::ID))
        .expect("script");
    let game = Recorded::<Polycube>::start(level, script, 1, options).expect("game");
    Playing::new(PolycubePlaytest::new(game), project).harness(size)
}

/// Pieces leaving the tray move neither the other chips nor the buttons
/// below: not when one is placed, not when the last one is and the tray
/// is empty (its row collapsed and the buttons jumped 12 px).
#[test]
fn the_tray_and_its_buttons_hold_still_to_the_last_piece() {
    let mut harness = playing(level("01_first_steps.ron"));
    harness.run();
    let place = harness.get_by_label("Place").rect();
    let chip = harness.get_by_label("B (4)").rect();
    harness.get_by_label("A (4)").click();
    harness.run();
    let mut hints = 3;
    while harness.state().view.game().rules().placed_count() < 2 {
        let placed = harness.state().view.game().rules().placed_count();
        harness
            .get_by_label(&format!("Hint ({hints} left)"))
            .click();
        hints -= 1;
        tessera_ui_testkit::step_until(&mut harness, "the hint's piece", |h| {
            h.state().view.game().rules().placed_count() > placed
        });
        harness.run();
        if harness.state().view.game().rules().placement(1).is_none() {
            assert_eq!(harness.get_by_label("B (4)").rect(), chip, "B moved");
        }
    }
    wait_for(&mut harness, "Solved in");
    assert_eq!(harness.get_by_label("Place").rect(), place, "Place moved");
}

#[test]
fn a_piece_is_placed_by_clicking_its_cells() {
    let level = level("01_first_steps.ron");
    let solution = Solver::new(level.extents(), &level.shapes())
        .expect("solver")
        .first(&AtomicBool::new(false))
        .expect("search")
        .expect("solvable");
    let mut harness = playing(level);
    harness.get_by_label("A (4)").click();
    harness.run();
    // A floating pick first: one cell in the top layer is not the piece.
    harness.get_by_label("cell 1,1,2").click();
    harness.run();
    harness.get_by_label_contains("1/4 cells: piece `A` has 4 cells, 1 was given");
    harness.get_by_label("cell 1,1,2").click();
    harness.run();
    for &c in &solution.pieces[0] {
        let (x, y, z) = tessera_polycube::user_cell(c);
        harness.get_by_label(&format!("cell {x},{y},{z}")).click();
        harness.run();
    }
    harness.get_by_label("Piece A: 4/4 cells, shape matches, legal");
    harness.get_by_label("Place").click();
    harness.run();
    let rules = harness.state().view.game().rules();
    assert_eq!(rules.placed_count(), 1);
    assert_eq!(
        rules.placement(0).map(|p| p.cells.clone()),
        Some(solution.pieces[0].clone())
    );
    // The hint places the other piece and the win screen shows.
    harness.get_by_label("Hint (3 left)").click();
    // The hint is worked out on a worker thread: frames go on meanwhile.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while harness.state().view.game().rules().placed_count() < 2 {
        assert!(std::time::Instant::now() < deadline, "no hint arrived");
        harness.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    harness.run();
    harness.get_by_label_contains("Solved in");
    // Undo (Ctrl+Z reaches the view through the playtest area) takes the
    // hinted piece back out with the rules' own undo, and redo puts it back.
    assert_eq!(harness.state_mut().view.undo().ok(), Some(true));
    harness.run();
    assert_eq!(harness.state().view.game().rules().placed_count(), 1);
    assert_eq!(harness.state_mut().view.redo().ok(), Some(true));
    assert_eq!(harness.state().view.game().rules().placed_count(), 2);
}

#[test]
fn the_ghost_names_the_error_in_anchor_mode() {
    let mut harness = playing(level("soma.ron"));
    harness.get_by_label("V (3)").click();
    harness.run();
    assert!(
        harness
            .query_by_label(crate::playtest::ANCHOR_MEANING)
            .is_none()
    );
    harness.get_by_label("Anchor + rotation").click();
    harness.run();
    // The mode says what an anchor is.
    harness.get_by_label(crate::playtest::ANCHOR_MEANING);
    harness.get_by_label("cell 1,1,3").click();
    harness.run();
    harness.get_by_label_contains("Piece V: piece `V` would touch neither the floor");
    harness.get_by_label("cell 3,3,1").click();
    harness.run();
    harness.get_by_label_contains("Piece V: cell ");
    harness.get_by_label_contains("is outside the 3x3x3 box");
    harness.get_by_label("cell 1,1,1").click();
    harness.run();
    harness.get_by_label("Piece V: legal");
    harness.key_press(egui::Key::Enter);
    harness.run();
    assert_eq!(harness.state().view.game().rules().placed_count(), 1);
}

/// The level editor on `level`, in a window wide enough for its rows.
fn level_editor(level: PolycubeLevel) -> Harness<'static, Editing> {
    editing(PolycubeLevelEditor::new(level), egui::vec2(1400.0, 900.0))
}

/// `editor` on the repository's project, in a window of `size`.
fn editing(editor: PolycubeLevelEditor, size: egui::Vec2) -> Harness<'static, Editing> {
    let project = Project::open(&root(), crate::registry()).expect("project");
    Editing::new(editor, project).harness(size)
}

#[test]
fn the_level_editor_adds_a_piece_and_solves_in_the_background() {
    let mut level = level("01_first_steps.ron");
    level.pieces.truncate(1);
    let mut harness = level_editor(level);
    harness.get_by_label("the box cannot be filled: the pieces hold 4 cells, the box has 8");
    // Copy piece A: the duplicate B fills the box too.
    harness.get_by_label("Duplicate").click();
    harness.run();
    assert!(harness.state().editor.is_dirty());
    harness.get_by_label("pieces hold 8 cells, the box has 8");
    // A small box is checked live: the answer comes without a click.
    wait_for(&mut harness, "solvable, unique");
    // With the generator's difficulty estimate beside it.
    harness.get_by_label_contains("(one packing up to symmetry); difficulty ");
    // A rename keeps the answer (it is about the box and the shapes).
    harness.get_by_label("Name").type_text("x");
    harness.run();
    harness.get_by_label_contains("solvable, unique");
    harness.get_by_label("Count all").click();
    // Two copies of A in a 2x2x2 box: the published count is the solver's.
    // The final answer, not the running count ("… solutions so far").
    wait_for(&mut harness, " distinct");
    harness.get_by_label_contains("solvable: ");
    assert!(harness.query_by_label_contains("Cancel").is_none());
    // A cell added in the top layer: a disconnected piece is reported.
    harness.get_by_label("Add piece").click();
    harness.run();
    harness.get_by_label("piece cell 2,2,1").click();
    harness.run();
    harness.get_by_label_contains("not face-connected");
    let ron = harness.state().editor.to_ron().expect("ron");
    assert!(ron.contains("id: \"C\""), "{ron}");
    assert!(ron.contains("(2, 2, 1)"), "{ron}");
}

#[test]
fn the_clock_follows_real_time_not_the_redraw_rate() {
    let mut harness = playing(level("soma.ron"));
    harness.step();
    // The window redraws only twice in 1.5 s (an idle window, a slow
    // machine): the clock still counts the whole time.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    harness.step();
    let seconds = harness.state().view.game().seconds();
    assert!((1.4..3.0).contains(&seconds), "{seconds} s");
}

#[test]
fn a_wrong_handed_piece_is_named_the_mirror_image_in_words() {
    let mut harness = playing(level("soma.ron"));
    harness.get_by_label("A (4)").click();
    harness.run();
    // A's mirror image (x flipped): B's shape, which no rotation of A makes.
    for cell in ["cell 2,1,1", "cell 1,1,1", "cell 2,2,1", "cell 1,1,2"] {
        harness.get_by_label(cell).click();
        harness.run();
    }
    harness
        .get_by_label_contains("Piece A: 4/4 cells: those cells are the mirror image of piece `A`");
    assert!(harness.query_by_label_contains("ShapeMismatch").is_none());
}

#[test]
fn box_extents_read_x_y_z_and_solvable_stays_put_when_a_warning_appears() {
    let level = level("01_first_steps.ron");
    let mut harness = editing(PolycubeLevelEditor::new(level), egui::vec2(1200.0, 900.0));
    harness.run();
    for axis in ["X", "Y", "Z"] {
        harness.get_by_label(axis);
    }
    assert!(harness.query_by_label("A").is_none() && harness.query_by_label("C").is_none());
    let before = harness.get_by_label("Solvable?").rect();
    // An extra piece: the box can no longer be filled, a finding appears.
    harness.get_by_label("Add piece").click();
    harness.run();
    harness.get_by_label_contains("the box cannot be filled");
    assert_eq!(harness.get_by_label("Solvable?").rect(), before);
}

#[test]
fn saving_from_the_visual_editor_keeps_the_header_comment() {
    let path = root().join("levels/polycube/soma.ron");
    let text = std::fs::read_to_string(&path).expect("soma");
    let mut editor = super::level_editor::open(&path, &text).expect("opens");
    let ron = editor.to_ron().expect("ron");
    assert!(
        ron.starts_with(
            "// Piet Hein's Soma cube: seven pieces, 11520 solutions, 240 up to symmetry.\n"
        ),
        "{ron}"
    );
    editor.load(&ron).expect("loads its own text");
    let again = load_any_text(&ron);
    assert_eq!(again.pieces.len(), 7);
}

fn load_any_text(text: &str) -> PolycubeLevel {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("level.ron");
    std::fs::write(&path, text).expect("write");
    load_any(&path).map(|(l, _)| l).expect("level")
}

#[test]
fn clicking_a_placed_piece_in_the_3d_view_selects_it_as_the_slices_do() {
    let mut harness = playing(level("soma.ron"));
    // Place V on the floor by its cells.
    harness.get_by_label("V (3)").click();
    harness.run();
    for cell in ["cell 1,1,1", "cell 2,1,1", "cell 1,2,1"] {
        harness.get_by_label(cell).click();
        harness.run();
    }
    harness.get_by_label("Place").click();
    harness.run();
    assert_eq!(harness.state().view.game().rules().placed_count(), 1);
    assert_eq!(harness.state().view.selected(), None);
    // Empty space in the 3D view selects nothing.
    let drawn = harness.state().view.drawn_3d().expect("3D view drawn");
    click_at(&mut harness, drawn.rect.left_top() + egui::vec2(4.0, 4.0));
    assert_eq!(harness.state().view.selected(), None);
    // The top of V's corner cube: V is chosen to move, as in the slices.
    let drawn = harness.state().view.drawn_3d().expect("3D view drawn");
    click_at(&mut harness, drawn.top_of([0, 0, 0]));
    assert_eq!(harness.state().view.selected(), Some(0));
    harness.get_by_label("Pick up");
    harness.get_by_label("Move");
    // Another piece placed beside it, then clicked in 3D: that one.
    harness.get_by_label("Clear aim").click();
    harness.run();
    harness.get_by_label("L (4)").click();
    harness.run();
    for cell in ["cell 1,3,1", "cell 2,3,1", "cell 3,3,1", "cell 3,2,1"] {
        harness.get_by_label(cell).click();
        harness.run();
    }
    harness.get_by_label("Place").click();
    harness.run();
    assert_eq!(harness.state().view.game().rules().placed_count(), 2);
    let drawn = harness.state().view.drawn_3d().expect("3D view drawn");
    click_at(&mut harness, drawn.top_of([2, 2, 0]));
    assert_eq!(harness.state().view.selected(), Some(1));
    click_at(&mut harness, drawn.top_of([0, 1, 0]));
    assert_eq!(harness.state().view.selected(), Some(0));
}

fn editing_text(text: &str) -> Harness<'static, Editing> {
    let path = root().join("levels/polycube/soma.ron");
    let editor = PolycubeLevelEditor::from_text(&path, text).expect("opens");
    editing(editor, egui::vec2(1200.0, 1000.0))
}

#[test]
fn saving_from_the_visual_editor_patches_only_what_changed() {
    let soma = std::fs::read_to_string(root().join("levels/polycube/soma.ron")).expect("soma");
    // The author's comments and layout: a comment between pieces, one at
    // the end of a line, a blank line.
    let text = soma
        .replace(
            "        (id: \"Z\",",
            "\n        // the skew one\n        (id: \"Z\",",
        )
        .replace("size: (3, 3, 3),", "size: (3, 3, 3), // a 3-cube");
    let mut harness = editing_text(&text);
    harness.run();
    // Said before the first edit, so nothing moves when it is made.
    let note = "Saving rewrites only the values you change; the file's comments and layout stay.";
    harness.get_by_label(note);
    // Add a piece and give it a second cube.
    harness.get_by_label("Add piece").click();
    harness.run();
    harness.get_by_label("piece cell 2,1,1").click();
    harness.run();
    harness.get_by_label(note);
    let ron = harness.state().editor.to_ron().expect("ron");
    let expected = text.replace(
        "(1, 2, 1), (1, 1, 2)]),\n    ],",
        "(1, 2, 1), (1, 1, 2)]),\n        (id: \"C\", cells: [(1, 1, 1), (2, 1, 1)]),\n    ],",
    );
    assert_eq!(ron, expected);
    // Loaded again (as the shell does after each edit): the next edit
    // patches the text as written.
    harness.state_mut().editor.load(&ron).expect("loads");
    harness.run();
    harness.get_by_label(note);
    harness.get_by_label("piece cell 2,1,1").click();
    harness.run();
    assert_eq!(
        harness.state().editor.to_ron().expect("ron"),
        expected.replace("cells: [(1, 1, 1), (2, 1, 1)]", "cells: [(1, 1, 1)]")
    );
}

#[test]
fn text_that_cannot_be_patched_is_rewritten_with_its_header_and_the_editor_says_so() {
    let soma = std::fs::read_to_string(root().join("levels/polycube/soma.ron")).expect("soma");
    let header = "// Piet Hein's Soma cube: seven pieces, 11520 solutions, 240 up to symmetry.\n";
    let body = soma.strip_prefix(header).expect("header");
    // A RON attribute the locator does not follow.
    let text = format!("{header}#![enable(implicit_some)]\n{body}");
    let mut harness = editing_text(&text);
    harness.run();
    let warning = "This file's text cannot be patched, so saving rewrites the whole file: only its header comment is kept.";
    // Said before the first edit, and still after it.
    harness.get_by_label(warning);
    harness.get_by_label("Add piece").click();
    harness.run();
    harness.get_by_label(warning);
    let ron = harness.state().editor.to_ron().expect("ron");
    assert!(ron.starts_with(header), "{ron}");
    assert_eq!(load_any_text(&ron).pieces.len(), 8);
}

#[test]
fn a_solution_is_stepped_in_assembly_order_and_a_blocked_ghost_is_named() {
    let mut harness = playing_in(level("03_little_crate.ron"), &assembly_mode());
    harness.run();
    harness.get_by_label_contains("Assembly mode: every piece must slide in");
    harness
        .get_by_label("Show a solution (assembly order)")
        .click();
    wait_for(&mut harness, "Solution step 1/4");
    harness.get_by_label_contains("slides in from the");
    harness.get_by_label("Next ▶").click();
    harness.run();
    harness.get_by_label_contains("Solution step 2/4");
    harness.get_by_label("◀ Prev").click();
    harness.run();
    harness.get_by_label_contains("Solution step 1/4");
    harness.get_by_label("Close").click();
    harness.run();
    assert!(harness.query_by_label_contains("Solution step").is_none());
    assert_eq!(
        harness.state().view.game().rules().placed_count(),
        0,
        "the board is untouched"
    );
}

/// A session in assembly mode (every piece slides in along a line).
fn assembly_mode() -> tessera_host::SessionOptions {
    tessera_host::SessionOptions {
        mode: Some(tessera_polycube::ASSEMBLY_MODE.into()),
        seats: Vec::new(),
    }
}

/// The little crate in assembly mode, played in a short (docked) panel,
/// 440 x 520: the compact layout with its tool window.
fn compact_assembly_playtest() -> Harness<'static, Playing> {
    let mut harness = playing_sized(
        level("03_little_crate.ron"),
        &assembly_mode(),
        egui::vec2(440.0, 520.0),
    );
    harness.run();
    harness
}

/// A short (docked) playtest keeps the assembly note and "Show a solution"
/// in its tool window: the solution is stepped there, the 3D view shows
/// it, and the window stays open while it is shown.
#[test]
fn a_compact_playtest_shows_a_solution_from_its_tool_window() {
    let mut harness = compact_assembly_playtest();
    assert!(
        harness
            .query_by_label("Show a solution (assembly order)")
            .is_none(),
        "in the tool window, not the panel"
    );
    harness.get_by_label(crate::playtest::TOOLS).click();
    harness.run();
    harness.get_by_label_contains("Assembly mode: every piece must slide in");
    harness
        .get_by_label("Show a solution (assembly order)")
        .click();
    wait_for(&mut harness, "Solution step 1/4");
    harness.get_by_label("Next ▶").click();
    harness.run();
    harness.get_by_label_contains("Solution step 2/4");
}

/// Closing the compact tool window while its solution is searched for
/// does not lose the search: the window stays while the job runs (its
/// progress and Cancel are there), and the solution comes. It was polled
/// only while the window was open, so a closed window left it unseen.
#[test]
fn closing_the_tool_window_while_a_solution_is_searched_keeps_the_search() {
    let mut harness = compact_assembly_playtest();
    harness.get_by_label(crate::playtest::TOOLS).click();
    harness.run();
    harness
        .get_by_label("Show a solution (assembly order)")
        .click();
    harness.step();
    // The toggle beside Hint (the window's title has the same words).
    use egui_kittest::kittest::by;
    harness
        .get(
            by().label(crate::playtest::TOOLS)
                .predicate(|n| n.role() != egui::accesskit::Role::Window),
        )
        .click();
    wait_for(&mut harness, "Solution step 1/4");
}

#[test]
fn a_json_level_is_edited_and_saved_as_the_seeds_json() {
    let path = root().join("levels/polycube/sandwich.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let editor = PolycubeLevelEditor::from_text(&path, &text).expect("imports");
    assert_eq!(editor.level().name, "Sandwich (seed JSON)");
    let saved = editor.to_ron().unwrap();
    // Saved back as JSON the importer reads, not RON.
    let back = tessera_polycube::import::import_json(&saved, &path).expect("JSON");
    assert_eq!(&back, editor.level());
    assert!(!editor.is_dirty());
}

#[test]
fn in_anchor_mode_a_tray_piece_aims_at_a_cell_a_placed_piece_holds() {
    let mut harness = playing(level("soma.ron"));
    harness.run();
    harness.get_by_label_contains("Hint (").click();
    wait_for(&mut harness, "1/7 placed");
    let rules = harness.state().view.game().rules();
    let placed = (0..7).find(|&i| rules.placement(i).is_some()).unwrap();
    let tray = (0..7).find(|&i| rules.placement(i).is_none()).unwrap();
    let cell = rules.placement(placed).unwrap().cells[0];
    let tray_label = format!(
        "{} ({})",
        rules.pieces()[tray].id,
        rules.pieces()[tray].shape.len()
    );
    harness.get_by_label(&tray_label).click();
    harness.run();
    harness.get_by_label("Anchor + rotation").click();
    harness.run();
    let (x, y, z) = tessera_polycube::user_cell(cell);
    harness.get_by_label(&format!("cell {x},{y},{z}")).click();
    harness.run();
    assert_eq!(
        harness.state().view.selected(),
        Some(tray),
        "the tray piece stays chosen"
    );
    harness.get_by_label_contains("Nearest legal");
}

/// The status line keeps its place: a refusal's message appearing does not
/// move the tray or the board under the mouse.
#[test]
fn a_message_appearing_does_not_move_the_tray() {
    let mut harness = playing(level("soma.ron"));
    harness.get_by_label("V (3)").click();
    harness.run();
    harness.get_by_label("Anchor + rotation").click();
    harness.run();
    harness.get_by_label("cell 1,1,3").click();
    harness.run();
    let before = harness.get_by_label("V (3)").rect();
    let board_before = harness.get_by_label("cell 1,1,3").rect();
    harness.key_press(egui::Key::Enter);
    harness.run();
    harness.get_by_label_contains("Floating");
    assert_eq!(harness.get_by_label("V (3)").rect(), before);
    assert_eq!(harness.get_by_label("cell 1,1,3").rect(), board_before);
}

/// In a narrow docked playtest the texts (the level's name, the time,
/// moves and pieces of the header) stay inside the panel, elided or
/// wrapped, instead of running past its edge where they were clipped.
#[test]
fn the_header_stays_inside_a_narrow_panel() {
    let width = 330.0;
    let mut harness = playing_sized(
        level("soma.ron"),
        &Default::default(),
        egui::vec2(width, 900.0),
    );
    harness.run();
    let outside = past_the_edge(&harness, width, &[egui::accesskit::Role::Label]);
    assert!(outside.is_empty(), "past the panel's edge: {outside:?}");
}

/// The widgets of one of `roles` that end right of `width`, with where.
fn past_the_edge<S>(
    harness: &Harness<'_, S>,
    width: f32,
    roles: &[egui::accesskit::Role],
) -> Vec<String> {
    use egui_kittest::kittest::{NodeT, by};
    harness
        .query_all(by().predicate(|node| roles.contains(&node.role())))
        .filter(|node| node.rect().max.x > width + 0.5)
        .map(|node| {
            format!(
                "{:?} ends at {}",
                node.accesskit_node().label().unwrap_or_default(),
                node.rect().max.x
            )
        })
        .collect()
}

/// Issue 35: the validator's answer with its difficulty wraps inside the
/// documents' room (about 560 px beside a docked playtest on a small
/// window), never clipped at its edge.
#[test]
fn the_validators_answer_wraps_inside_a_narrow_editor() {
    let width = 560.0;
    let mut harness = editing(
        PolycubeLevelEditor::new(level("01_first_steps.ron")),
        egui::vec2(width, 900.0),
    );
    wait_for(&mut harness, "solvable, unique");
    harness.get_by_label_contains("; difficulty ");
    let roles = [egui::accesskit::Role::Label, egui::accesskit::Role::Button];
    let outside = past_the_edge(&harness, width, &roles);
    assert!(outside.is_empty(), "past the editor's edge: {outside:?}");
}

/// A 3x3x3 cut of six pieces with 5 distinct packings (the generator's
/// seed 9 without `--unique`).
const FIVE_PACKINGS: &str = r#"(
    version: 1,
    name: "Five packings",
    size: (3, 3, 3),
    pieces: [
        (id: "A", cells: [(1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 2, 1), (1, 2, 2)]),
        (id: "B", cells: [(1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 2, 1), (2, 1, 1), (2, 2, 1)]),
        (id: "C", cells: [(1, 1, 1), (1, 1, 2), (1, 2, 1), (2, 1, 2)]),
        (id: "D", cells: [(1, 1, 1), (1, 1, 2), (1, 2, 1), (2, 1, 2)]),
        (id: "E", cells: [(1, 1, 1), (1, 1, 2), (1, 2, 2), (1, 2, 3)]),
        (id: "F", cells: [(1, 1, 1), (1, 1, 2), (1, 2, 2), (1, 2, 3)]),
    ],
)"#;

#[test]
fn make_unique_proposes_an_edit_the_designer_accepts() {
    let level: PolycubeLevel =
        tessera_host::level::parse_level(FIVE_PACKINGS, std::path::Path::new("five.ron")).unwrap();
    let mut harness = level_editor(level);
    wait_for(&mut harness, "not unique");
    harness.get_by_label("Make unique").click();
    wait_for(&mut harness, "Proposal 1 of ");
    harness.get_by_label_contains("moves from piece `");
    // The proposal is drawn before it is taken: the pieces it edits.
    harness.get_by_label_contains("Preview: pieces `");
    // Beside the piece's own view, the preview's.
    assert_eq!(harness.query_all_by_label("3D view").count(), 2);
    // Cancel drops the proposals and leaves the level as it was.
    harness.get_by_label("Cancel").click();
    harness.run();
    assert!(harness.query_by_label_contains("Proposal 1 of ").is_none());
    assert!(harness.query_by_label_contains("Preview: pieces").is_none());
    assert_eq!(harness.query_all_by_label("3D view").count(), 1);
    assert!(!harness.state().editor.is_dirty());
    harness.get_by_label("Make unique").click();
    wait_for(&mut harness, "Proposal 1 of ");
    harness.get_by_label("Accept").click();
    harness.run();
    assert!(harness.state().editor.is_dirty());
    let edited = harness.state().editor.level().clone();
    let verdict = Solver::new(edited.extents(), &edited.shapes())
        .unwrap()
        .verdict(&AtomicBool::new(false))
        .unwrap();
    assert!(matches!(verdict, tessera_polycube::Verdict::Unique(_)));
    // The edited level is unique now: the row asks again and says so.
    wait_for(&mut harness, "solvable, unique");
}

/// Issue 49: Make unique's Accept rewrites only the pieces the edit hands
/// cubes between. Every piece's `cells` line was rewritten (turned as the
/// packing holds it) and a list written over several lines collapsed to
/// one, against the guide's "only changed values are rewritten".
#[test]
fn accepting_make_unique_rewrites_only_the_pieces_it_edits() {
    use tessera_polycube::generate::repair::{Repair, make_unique};
    let level: PolycubeLevel =
        tessera_host::level::parse_level(FIVE_PACKINGS, std::path::Path::new("five.ron")).unwrap();
    // The proposal the row shows first, worked out here to know its pieces.
    let Ok(Repair::Proposals(proposals)) = make_unique(&level, &tessera_host::ThinkControl::new())
    else {
        panic!("five packings have proposals");
    };
    let edited: Vec<&str> = proposals[0]
        .moves
        .iter()
        .flat_map(|m| [m.from, m.to])
        .map(|p| level.pieces[p].id.as_str())
        .collect();
    let line_of = |id: &str| format!("(id: \"{id}\", cells: [");
    let untouched = level
        .pieces
        .iter()
        .find(|p| !edited.contains(&p.id.as_str()))
        .expect("a piece the edit leaves alone");
    // That piece's list one cube a line, as an author may write it.
    let one_line = FIVE_PACKINGS
        .lines()
        .find(|l| l.contains(&line_of(&untouched.id)))
        .expect("the piece's line");
    let text = FIVE_PACKINGS.replace(
        one_line,
        &one_line
            .replace("[(", "[\n            (")
            .replace("), (", "),\n            (")
            .replace(")]", "),\n        ]"),
    );
    let mut harness = editing_text(&text);
    wait_for(&mut harness, "not unique");
    harness.get_by_label("Make unique").click();
    wait_for(&mut harness, "Proposal 1 of ");
    harness.get_by_label("Accept").click();
    harness.run();
    let saved = harness.state().editor.to_ron().expect("ron");
    let (before, after): (Vec<&str>, Vec<&str>) = (text.lines().collect(), saved.lines().collect());
    assert_eq!(before.len(), after.len(), "lines gained or lost:\n{saved}");
    for (was, now) in before.iter().zip(&after) {
        if edited.iter().any(|id| was.contains(&line_of(id))) {
            assert_ne!(was, now, "an edited piece's line is rewritten");
        } else {
            assert_eq!(was, now, "a line outside the edited pieces changed");
        }
    }
}

/// The layout sweep's window: narrower than the docked playtest in the
/// default 1400 x 900 editor window (440 px), where help lines wrap and
/// rows reach the panel's edge.
const SWEEP_SIZE: egui::Vec2 = egui::vec2(330.0, 900.0);

/// Clicks the widget labelled `label` and lets the frame settle.
fn click(harness: &mut Harness<'static, Playing>, label: &str) {
    harness.get_by_label(label).click();
    harness.run();
}

/// Issue 49: the playtest driven through its states (pick, aim, place,
/// refuse, undo, the two aiming modes) moves no widget by a pixel: a
/// player's pointer rests on a cell or a button while the game changes.
#[test]
fn the_playtest_holds_still_through_its_states() {
    let level = level("01_first_steps.ron");
    let solution = Solver::new(level.extents(), &level.shapes())
        .expect("solver")
        .first(&AtomicBool::new(false))
        .expect("search")
        .expect("solvable");
    let mut harness = playing_sized(level, &Default::default(), SWEEP_SIZE);
    harness.run();
    let mut sweep = tessera_ui_testkit::Sweep::new(SWEEP_SIZE, &[]);
    sweep.change(&mut harness, "pick A", |h| click(h, "A (4)"));
    let cells: Vec<String> = solution.pieces[0]
        .iter()
        .map(|&c| {
            let (x, y, z) = tessera_polycube::user_cell(c);
            format!("cell {x},{y},{z}")
        })
        .collect();
    sweep.change(&mut harness, "aim one cell", |h| click(h, &cells[0]));
    sweep.change(&mut harness, "aim the rest", |h| {
        for cell in &cells[1..] {
            click(h, cell);
        }
    });
    sweep.change(&mut harness, "place", |h| click(h, "Place"));
    sweep.change(&mut harness, "pick B", |h| click(h, "B (4)"));
    // One of B's cells alone: a piece of four given one cell is refused.
    let lone = solution.pieces[1]
        .iter()
        .max_by_key(|c| c[2])
        .map(|&c| tessera_polycube::user_cell(c))
        .map(|(x, y, z)| format!("cell {x},{y},{z}"))
        .expect("B has cells");
    sweep.change(&mut harness, "aim one cell of four", |h| click(h, &lone));
    sweep.change(&mut harness, "refused", |h| click(h, "Place"));
    sweep.change(&mut harness, "undo", |h| click(h, "Undo"));
    sweep.change(&mut harness, "Anchor + rotation", |h| {
        click(h, "Anchor + rotation")
    });
    sweep.change(&mut harness, "anchor aim", |h| click(h, "cell 1,1,1"));
    sweep.change(&mut harness, "Pick cells", |h| click(h, "Pick cells"));
    sweep.assert_steady();
}

/// Issue 49: the same level in assembly mode lays out as in free play:
/// the mode's note has a slot of its own in both, so the board is at the
/// same place whichever mode was chosen.
#[test]
fn assembly_mode_lays_out_as_free_play() {
    let assembly = tessera_host::SessionOptions {
        mode: Some(tessera_polycube::ASSEMBLY_MODE.into()),
        seats: Vec::new(),
    };
    let area = egui::Rect::from_min_size(egui::Pos2::ZERO, SWEEP_SIZE);
    let mut free = playing_sized(
        level("03_little_crate.ron"),
        &Default::default(),
        SWEEP_SIZE,
    );
    free.run();
    let mut slides = playing_sized(level("03_little_crate.ron"), &assembly, SWEEP_SIZE);
    slides.run();
    let mut sweep = tessera_ui_testkit::Sweep::new(SWEEP_SIZE, &[]);
    sweep.compare(
        &tessera_ui_testkit::Layout::of(&free, area),
        &tessera_ui_testkit::Layout::of(&slides, area),
        "free play -> assembly mode",
    );
    sweep.assert_steady();
}

/// Issue 49: on a board whose cells are at their smallest, aiming outlines
/// cells without making them larger: the columns and rows stay put.
#[test]
fn aiming_on_a_big_board_moves_no_cell() {
    let mut harness = playing_sized(
        level("pentominoes_6x10.ron"),
        &Default::default(),
        SWEEP_SIZE,
    );
    harness.run();
    let first = harness.state().view.game().rules().pieces()[0].clone();
    let chip = format!("{} ({})", first.id, first.shape.len());
    let mut sweep = tessera_ui_testkit::Sweep::new(SWEEP_SIZE, &[]);
    sweep.change(&mut harness, "pick", |h| click(h, &chip));
    sweep.change(&mut harness, "aim one cell", |h| click(h, "cell 1,1,1"));
    sweep.change(&mut harness, "aim two", |h| click(h, "cell 2,1,1"));
    sweep.change(&mut harness, "clear the aim", |h| click(h, "Clear aim"));
    sweep.assert_steady();
}

/// A refused Place changes nothing, so it leaves no undo point (Undo was
/// enabled, then said "nothing to undo") and no step in the record a
/// resume or "Save as test" writes; the ghost still names why.
#[test]
fn a_refused_place_reaches_neither_undo_nor_the_record() {
    let mut harness = playing(level("soma.ron"));
    harness.get_by_label("V (3)").click();
    harness.run();
    harness.get_by_label("Anchor + rotation").click();
    harness.run();
    harness.get_by_label("cell 1,1,3").click();
    harness.run();
    harness.get_by_label_contains("Piece V: piece `V` would touch neither the floor");
    harness.key_press(egui::Key::Enter);
    harness.run();
    let view = &harness.state().view;
    assert_eq!(view.game().rules().placed_count(), 0);
    let Some(session) = view.session() else {
        panic!("a session");
    };
    assert!(!session.can_undo(), "a refused Place enabled Undo");
    // Ticks of the clock are recorded; the refused placement is not.
    let rows = session.trajectory().rows;
    assert!(
        rows.iter().all(|r| !r.step.starts_with("PlaceAt")),
        "a refused Place was recorded: {rows:?}"
    );
    // The refusal is still told.
    assert!(
        harness
            .query_all_by_label_contains("would touch neither the floor")
            .next()
            .is_some()
    );
}
