//! Sand drop in the editor: the playtest view (F5).
//!
//! The view only draws the engine's state and turns mouse input into
//! `Place` actions; the rules (and time, in ticks) stay in the engine.
//! Flashes, particles and pop-ups are presentation: they use their own
//! little random generator, never the game's.

mod view;

use std::path::Path;

use tessera_host::level::{Diagnostic, LevelFile, load_level};
use tessera_host::project::Project;
use tessera_host::session::downcast_box;
use tessera_host::{Game, Recorded, Session, SessionOptions};
use tessera_sand::{Sand, SandLevel};

use crate::playtest::{GameUi, PlaytestView};

pub use view::SandPlaytest;

/// Sand drop's contribution to the editor.
pub fn game_ui() -> GameUi {
    GameUi {
        id: Sand::ID,
        playtest: start_playtest,
        resume: Some(resume_playtest),
        level_editor: None,
    }
}

/// Reads a sand level file (or the default level), refusing one with errors.
pub fn load_sand_level(level: Option<&Path>) -> anyhow::Result<SandLevel> {
    let Some(path) = level else {
        return Ok(SandLevel::default());
    };
    let parsed: SandLevel = load_level(path)?;
    if let Some(error) = parsed.diagnose().into_iter().find(Diagnostic::is_error) {
        return Err(Diagnostic {
            path: path.to_path_buf(),
            ..error
        }
        .into());
    }
    Ok(parsed)
}

/// Starts the playtest view on a level with the project's live script.
pub fn start_playtest(
    project: &mut Project,
    level: Option<&Path>,
    seed: u64,
    options: &SessionOptions,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    let level = load_sand_level(level)?;
    let script = project
        .script(&project.game_script_path(Sand::ID))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let session =
        Recorded::start(level, script, seed, options).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(Box::new(SandPlaytest::from_session(session)))
}

/// Shows a replayed sand session in the playtest view.
pub fn resume_playtest(
    _project: &mut Project,
    session: Box<dyn Session>,
) -> anyhow::Result<Box<dyn PlaytestView>> {
    let session = downcast_box::<Sand>(session)
        .map_err(|_| anyhow::anyhow!("this session is not a sand game"))?;
    Ok(Box::new(SandPlaytest::from_session(*session)))
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use tessera_host::project::Project;
    use tessera_sand::piece::{Piece, Shape};

    use super::*;
    use crate::playtest::{ConsoleLine, PlaytestContext};

    struct Rig {
        project: Project,
        console: Vec<ConsoleLine>,
        view: SandPlaytest,
        _dir: tempfile::TempDir,
    }

    fn rig() -> Rig {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("scripts")).unwrap();
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/sand.lua");
        std::fs::copy(shipped, dir.path().join("scripts/sand.lua")).unwrap();
        let mut project = Project::open(dir.path(), tessera_builtin::registry()).unwrap();
        let script = project.script(&project.game_script_path("sand")).unwrap();
        let mut view = SandPlaytest::new(SandLevel::default(), script, 7).unwrap();
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
        Rig {
            project,
            console: Vec::new(),
            view,
            _dir: dir,
        }
    }

    fn harness(rig: Rig) -> Harness<'static, Rig> {
        Harness::builder()
            .with_size(egui::vec2(1000.0, 1100.0))
            .build_ui_state(
                |ui, rig: &mut Rig| {
                    let mut cx = PlaytestContext {
                        project: &mut rig.project,
                        console: &mut rig.console,
                    };
                    rig.view.ui(ui, &mut cx);
                },
                rig,
            )
    }

    /// Drags from `from` and releases at `to`, a step per pointer event.
    fn drag<S>(harness: &mut Harness<'_, S>, from: egui::Pos2, to: egui::Pos2) {
        harness.hover_at(from);
        harness.step();
        harness.drag_at(from);
        harness.step();
        harness.hover_at(from + (to - from) * 0.5);
        harness.step();
        harness.hover_at(to);
        harness.step();
        harness.drop_at(to);
        harness.step();
        harness.step();
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
    fn an_illegal_drop_returns_the_piece_to_its_slot() {
        let mut harness = harness(rig());
        harness.run_steps(2);
        let slot = harness.get_by_label("slot 1").rect().center();
        let outside = harness.state().view.board_rect().right_top() + egui::vec2(100.0, 0.0);
        drag(&mut harness, slot, outside);
        let game = harness.state().view.game();
        assert_eq!(game.placed(), 0);
        assert_eq!(game.grid().grain_count(), 0);
        assert_eq!(
            game.slots()[0],
            Piece {
                shape: Shape::O,
                colour: 2
            },
            "still there"
        );
    }

    #[test]
    fn f5_in_the_editor_starts_sand_and_a_piece_can_be_dragged_onto_the_board() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
        std::fs::create_dir_all(dir.path().join("levels/sand")).unwrap();
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/sand.lua");
        std::fs::copy(shipped, dir.path().join("scripts/sand.lua")).unwrap();
        let app = crate::EditorApp::open(dir.path()).unwrap();
        let mut harness = Harness::builder()
            .with_size(egui::vec2(1600.0, 1200.0))
            .with_context_setup(crate::EditorApp::apply_style)
            .build_ui_state(|ui, app: &mut crate::EditorApp| app.ui(ui), app);
        harness.run_steps(3);
        harness.get_by_label("📜 sand.lua").click();
        harness.run_steps(3);
        harness.key_press(egui::Key::F5);
        // The view animates (it asks for a repaint every frame): step, not run.
        harness.run_steps(5);
        harness.get_by_label("pieces placed 0");
        let slot = harness.get_by_label("slot 1").rect().center();
        let board = harness.get_by_label("sand board").rect();
        // Mid-air, in the middle of the empty board: legal for every shape.
        drag(&mut harness, slot, board.center());
        harness.get_by_label("pieces placed 1");
    }
}
