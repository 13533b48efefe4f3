//! Sand drop in the editor: the playtest view (F5).
//!
//! The view only draws the engine's state and turns mouse input into
//! `Place` actions; the rules (and time, in ticks) stay in the engine.
//! Flashes, particles and pop-ups are presentation: they use their own
//! little random generator, never the game's.

pub mod level_editor;
mod view;

use tessera_host::project::Project;
use tessera_host::{Game, Session};
use tessera_sand::Sand;

use tessera_ui::{GameUi, PlaytestView};

pub use view::SandPlaytest;

/// Sand drop's contribution to the editor.
pub fn game_ui() -> GameUi {
    GameUi {
        id: Sand::ID,
        view: open_view,
        level_editor: Some(level_editor::open),
    }
}

/// Shows a sand session (started by the host, or replayed) in the view.
pub fn open_view(
    _project: &mut Project,
    session: Box<dyn Session>,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    Ok(Box::new(SandPlaytest::from_session(
        tessera_ui::recorded::<Sand>(session)?,
    )))
}

/// A registry of this game alone, for the projects its UI opens on worker
/// threads and in its tests (a game's UI needs no other game).
pub fn registry() -> tessera_host::Registry {
    tessera_host::Registry::of::<tessera_sand::Sand>()
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use std::path::Path;

    use tessera_host::level::load_level;
    use tessera_host::project::Project;
    use tessera_sand::SandLevel;
    use tessera_sand::piece::{Piece, Shape};

    use super::*;
    use tessera_ui_testkit::{drag, hold};

    /// A view on a new game on `level` with `seed`.
    fn started(level: SandLevel, script: tessera_host::LiveScript, seed: u64) -> SandPlaytest {
        let session = tessera_host::Recorded::start(
            level,
            script,
            seed,
            &tessera_host::SessionOptions::default(),
        )
        .unwrap();
        SandPlaytest::from_session(session)
    }

    type Rig = tessera_ui_testkit::Playing<SandPlaytest>;
    type Painting = tessera_ui_testkit::Editing<level_editor::SandLevelEditor>;

    fn rig() -> Rig {
        rig_with(|script| script)
    }

    /// A rig whose script is the shipped one passed through `edit`, with an
    /// `shape` piece in slot 1.
    fn rig_with(edit: impl Fn(String) -> String) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("scripts")).unwrap();
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../../scripts/sand.lua");
        let text = edit(std::fs::read_to_string(shipped).unwrap());
        std::fs::write(dir.path().join("scripts/sand.lua"), text).unwrap();
        let mut project = Project::open(dir.path(), crate::registry()).unwrap();
        let script = project.script(&project.game_script_path("sand")).unwrap();
        let mut view = started(SandLevel::default(), script, 7);
        // Time stands still so the test sees the piece where it was dropped.
        view.paused = true;
        view.game_mut()
            .set_slot(
                0,
                Piece {
                    shape: Shape::O,
                    colour: 2,
                },
            )
            .unwrap();
        Rig::new(view, project).in_folder(dir)
    }

    fn harness(rig: Rig) -> Harness<'static, Rig> {
        rig.harness(egui::vec2(1000.0, 1100.0))
    }

    #[test]
    fn dragging_a_piece_onto_the_board_places_it_where_the_ghost_snapped() {
        let mut harness = harness(rig());
        harness.run_steps(2);
        let slot = harness.get_by_label("slot 1").rect().center();
        let view = &harness.state().view;
        let cell = view.cell_centre(1, 1) - view.cell_centre(0, 0);
        // The pointer holds an O by its middle: the corner shared by cells
        // (5,3), (6,3), (5,4) and (6,4) snaps the O onto exactly those.
        let target = view.board_rect().min + egui::vec2(6.0 * cell.x, 4.0 * cell.y);
        drag(&mut harness, slot, target);
        let game = harness.state().view.game();
        assert_eq!(game.placed(), 1);
        assert_eq!(game.grid().grain_count(), 400);
        let n = game.cell_size();
        for (cx, cy) in [(5, 3), (6, 3), (5, 4), (6, 4)] {
            assert!(
                !game.grid().area_is_empty(cx * n, cy * n, n, n),
                "cell {cx},{cy}"
            );
        }
        assert!(game.grid().area_is_empty(4 * n, 3 * n, n, n));
        assert_ne!(
            game.slots()[0],
            Piece {
                shape: Shape::O,
                colour: 2
            },
            "refilled"
        );
    }

    #[test]
    fn a_drop_at_an_edge_lands_at_the_nearest_position_that_fits() {
        let mut harness = harness(rig());
        harness.run_steps(2);
        let slot = harness.get_by_label("slot 1").rect().center();
        let view = &harness.state().view;
        let board = view.board_rect();
        // Half the O would hang over the right wall: the ghost is clamped
        // inside, so nothing is refused there.
        let at_wall = egui::pos2(board.right() - 1.0, board.center().y);
        hold(&mut harness, slot, at_wall);
        assert_eq!(harness.state().view.ghost_refusal(at_wall), None);
        // Over the top edge, the same.
        let at_top = egui::pos2(board.center().x, board.top() + 1.0);
        harness.hover_at(at_top);
        harness.step();
        assert_eq!(harness.state().view.ghost_refusal(at_top), None);
        // Released at the top-left corner, the O lands in the corner cells.
        harness.drop_at(board.left_top() + egui::vec2(1.0, 1.0));
        harness.step();
        harness.step();
        let game = harness.state().view.game();
        assert_eq!(game.placed(), 1, "the corner drop was placed");
        let n = game.cell_size();
        for (cx, cy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            assert!(
                !game.grid().area_is_empty(cx * n, cy * n, n, n),
                "cell {cx},{cy}"
            );
        }
    }

    #[test]
    fn a_refusal_names_positions_as_the_editor_counts_them() {
        let rig = rig();
        let game = rig.view.game();
        // Column 12 is the last of 12: an O there reaches column 13.
        let refusal = game
            .check_placement(0, 11, 9, 0)
            .map(|_| ())
            .map_err(|e| match e {
                tessera_host::GameError::Illegal(reason) => reason,
                other => other.to_string(),
            });
        assert_eq!(
            refusal,
            Err("the O piece at column 12, row 10 would leave the 12x22 board: one of its cells is past the right wall".into())
        );
    }

    #[test]
    fn r_turns_the_held_piece_when_the_script_allows_rotation() {
        let mut rig = rig_with(|s| s.replace("rotation = false", "rotation = true"));
        rig.view
            .game_mut()
            .set_slot(
                0,
                Piece {
                    shape: Shape::I,
                    colour: 2,
                },
            )
            .unwrap();
        let mut harness = harness(rig);
        harness.run_steps(2);
        let slot = harness.get_by_label("slot 1").rect().center();
        let target = harness.state().view.cell_centre(5, 10);
        hold(&mut harness, slot, target);
        harness.key_press(egui::Key::R);
        harness.step();
        assert_eq!(harness.state().view.drag_rotation(), 1);
        harness.drop_at(target);
        harness.step();
        harness.step();
        let game = harness.state().view.game();
        assert_eq!(game.placed(), 1);
        // Upright: four cells in one column.
        let n = game.cell_size();
        let filled: Vec<(usize, usize)> = (0..12)
            .flat_map(|x| (0..22).map(move |y| (x, y)))
            .filter(|&(x, y)| !game.grid().area_is_empty(x * n, y * n, n, n))
            .collect();
        assert_eq!(filled.len(), 4, "{filled:?}");
        assert!(filled.iter().all(|c| c.0 == filled[0].0), "{filled:?}");
    }

    #[test]
    fn a_sand_level_is_designed_by_painting_with_brush_fill_and_erase() {
        use tessera_ui::LevelEditor as _;
        let text = "// My level: keep this comment.\n(version: 1, columns: 6, rows: 4, cell: 10)\n";
        let mut harness = painting_sized(text, egui::vec2(900.0, 700.0));
        harness.run();
        harness.get_by_label("✔ level is valid");
        assert!(!harness.state().editor.is_dirty());
        // Brush: blue in the bottom-left cell.
        harness.get_by_label("B blue").click();
        harness.run();
        let at = harness.state().editor.cell_centre(0, 3);
        harness.hover_at(at);
        harness.drag_at(at);
        harness.drop_at(at);
        harness.run();
        assert_eq!(harness.state().editor.cell(0, 3), Some('B'));
        // Fill: the rest of the bottom row's empty region turns yellow.
        harness.get_by_label("Fill").click();
        harness.get_by_label("Y yellow").click();
        harness.run();
        let at = harness.state().editor.cell_centre(0, 0);
        harness.hover_at(at);
        harness.drag_at(at);
        harness.drop_at(at);
        harness.run();
        assert_eq!(harness.state().editor.cell(5, 3), Some('Y'));
        assert_eq!(harness.state().editor.cell(0, 3), Some('B'));
        // Erase the top row back.
        harness.get_by_label("Erase").click();
        harness.run();
        for x in 0..6 {
            let at = harness.state().editor.cell_centre(x, 0);
            harness.hover_at(at);
            harness.drag_at(at);
            harness.drop_at(at);
            harness.run();
        }
        let ron = harness.state().editor.to_ron().unwrap();
        assert_eq!(
            ron,
            // The file's one line stays one line, the board added to it.
            "// My level: keep this comment.\n(version: 1, columns: 6, rows: 4, cell: 10, board: [\"YYYYYY\", \"YYYYYY\", \"BYYYYY\"])\n"
        );
        assert!(harness.state().editor.is_dirty());
        // The engine reads it back as the same level.
        let level = load_sand_level_text(&ron);
        assert_eq!(level.board.len(), 3);
        // A board too wide for the engine is flagged live.
        let path = harness.state().project.root().join("levels/sand/level.ron");
        harness.state_mut().editor = level_editor::SandLevelEditor::from_file(
            &path,
            "(version: 1, columns: 64, rows: 4, cell: 64)",
        )
        .unwrap();
        harness.run();
        assert!(harness.query_by_label("✔ level is valid").is_none());
        harness.get_by_label_contains("grains wide");
    }

    /// The painted level's file, written with `text`: in the rig's
    /// `levels/sand/`, so the editor's validation (`tessera check`'s) knows
    /// its game and finds the project's script, as for an open file.
    fn level_path(rig: &Rig, text: &str) -> std::path::PathBuf {
        let folder = rig.project.root().join("levels/sand");
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("level.ron");
        std::fs::write(&path, text).unwrap();
        path
    }

    fn painting(text: &str) -> Harness<'static, Painting> {
        painting_sized(text, egui::vec2(900.0, 900.0))
    }

    /// The level editor on `text`, saved in the rig's project, in a window
    /// of `size`.
    fn painting_sized(text: &str, size: egui::Vec2) -> Harness<'static, Painting> {
        let rig = rig();
        let editor =
            level_editor::SandLevelEditor::from_file(&level_path(&rig, text), text).unwrap();
        let mut painting = Painting::new(editor, rig.project);
        painting.folder = rig.folder;
        painting.harness(size)
    }

    /// Replaces a text field's contents by typing, as a user does.
    fn retype(harness: &mut Harness<'static, Painting>, label: &str, text: &str) {
        harness.get_by_label(label).focus();
        harness.run();
        harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        harness.run();
        harness.get_by_label(label).type_text(text);
        harness.run();
    }

    #[test]
    fn a_level_palette_overrides_the_scripts_with_live_validation() {
        use tessera_ui::LevelEditor as _;
        let text = "(version: 1, columns: 4, rows: 4, cell: 10, board: [\"RB..\", \"BRRB\"])\n";
        let mut harness = painting(text);
        harness.run();
        harness.get_by_label("✔ level is valid");
        // Own colours, starting from the script's four.
        harness
            .get_by_label("Level palette (overrides the script's)")
            .click();
        harness.run();
        harness.get_by_label("Colour 4 name");
        harness.get_by_label("Remove colour 4").click();
        harness.run();
        harness.get_by_label("Remove colour 3").click();
        harness.run();
        assert!(harness.query_by_label("Colour 3 name").is_none());
        // Blue becomes purple `P`: the cells painted blue follow.
        retype(&mut harness, "Colour 2 letter", "P");
        retype(&mut harness, "Colour 2 name", "purple");
        assert_eq!(harness.state().editor.cell(1, 2), Some('P'));
        harness.get_by_label("✔ level is valid");
        harness.get_by_label("P purple");
        // Two colours with one letter: flagged at once.
        harness.get_by_label("Add colour").click();
        harness.run();
        retype(&mut harness, "Colour 3 letter", "R");
        harness.get_by_label_contains("field `palette`, colour 3: letter 'R' is already colour 1");
        harness.get_by_label("Remove colour 3").click();
        harness.run();
        harness.get_by_label("✔ level is valid");
        // Saved, it reads back, and a game plays in the level's colours.
        let ron = harness.state().editor.to_ron().unwrap();
        assert!(
            ron.contains("palette: Some([\n        (name: \"red\", letter: 'R', rgb: (220, 60, 50)),\n        (name: \"purple\", letter: 'P', rgb: (50, 110, 220)),\n    ])"),
            "{ron}"
        );
        let level = load_sand_level_text(&ron);
        let path = harness.state().project.game_script_path("sand");
        let script = harness.state_mut().project.script(&path).unwrap();
        let view = started(level, script, 1);
        let letters: Vec<char> = view.game().palette().iter().map(|c| c.letter).collect();
        assert_eq!(letters, ['R', 'P']);
        // Back to the script's palette: `P` is not one of its letters.
        harness
            .get_by_label("Level palette (overrides the script's)")
            .click();
        harness.run();
        harness.get_by_label_contains(
            "field `board`, row 1, column 2: 'P' is not a palette letter (the script's palette: RBGY)",
        );
    }

    /// A starting board that already spans wall to wall is warned about
    /// live, as `tessera check` warns (file and line), and painting the
    /// band apart clears the warning.
    #[test]
    fn a_board_that_already_spans_is_warned_about_with_its_file_and_line() {
        let text = "(\n    version: 1,\n    columns: 4,\n    rows: 4,\n    cell: 10,\n    board: [\n        \"B...\",\n        \"RRRR\",\n    ],\n)\n";
        let mut harness = painting(text);
        harness.run();
        assert!(harness.query_by_label("✔ level is valid").is_none());
        harness.get_by_label(
            "levels/sand/level.ron:8:9: warning: field `board`, row 2: the starting board already holds a red cluster spanning wall to wall; it clears and scores before the first move",
        );
        // Erase one red cell: the band no longer spans.
        harness.get_by_label("Erase").click();
        harness.run();
        let at = harness.state().editor.cell_centre(2, 3);
        harness.hover_at(at);
        harness.drag_at(at);
        harness.drop_at(at);
        harness.run();
        assert_eq!(harness.state().editor.cell(2, 3), Some('.'));
        harness.get_by_label("✔ level is valid");
    }

    fn load_sand_level_text(text: &str) -> SandLevel {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.ron");
        std::fs::write(&path, text).unwrap();
        load_level(&path).unwrap()
    }

    /// The note under a slot's piece (its accessible value).
    fn slot_note(harness: &Harness<'_, Rig>, slot: usize) -> Option<String> {
        harness.get_by_label(&format!("slot {slot}")).value()
    }

    #[test]
    fn slots_wait_only_while_rows_clear() {
        let mut harness = harness(rig());
        harness.run_steps(2);
        // An empty board, nothing clearing: the O fits and says nothing.
        assert_eq!(slot_note(&harness, 1), None);

        // A bottom row of one colour spans wall to wall: it clears, and
        // while it does the slots wait.
        let level = load_sand_level_text(
            "(version: 1, columns: 6, rows: 6, cell: 10, board: [\"RRRRRR\"])",
        );
        let project = &mut harness.state_mut().project;
        let script = project.script(&project.game_script_path("sand")).unwrap();
        harness.state_mut().view = started(level, script, 7);
        harness.state_mut().view.paused = true;
        let mut saw_wait = false;
        for _ in 0..400 {
            let clearing = harness
                .state()
                .view
                .game()
                .clearing_rows()
                .iter()
                .any(|&row| row != 0);
            harness.run_steps(1);
            if clearing {
                assert_eq!(slot_note(&harness, 1).as_deref(), Some("wait…"));
                saw_wait = true;
            } else {
                assert_ne!(slot_note(&harness, 1).as_deref(), Some("wait…"));
            }
            tessera_host::Game::advance(harness.state_mut().view.game_mut(), 1).unwrap();
        }
        assert!(saw_wait, "the spanning row cleared within 400 ticks");
        assert_eq!(harness.state().view.game().grid().grain_count(), 0);
        assert_eq!(
            slot_note(&harness, 1),
            None,
            "after the clear the slots are ready"
        );
    }

    #[test]
    fn a_drop_beside_the_board_lands_where_the_ghost_shows() {
        // Issue 35: a drop with the pointer off the board is clamped to the
        // nearest legal place, like one on the board, not refused.
        let mut harness = harness(rig());
        harness.run_steps(2);
        let slot = harness.get_by_label("slot 1").rect().center();
        let outside = harness.state().view.board_rect().right_top() + egui::vec2(100.0, 0.0);
        drag(&mut harness, slot, outside);
        let game = harness.state().view.game();
        assert_eq!(game.placed(), 1, "the piece is placed at the right wall");
        assert!(game.grid().grain_count() > 0);
    }
}
