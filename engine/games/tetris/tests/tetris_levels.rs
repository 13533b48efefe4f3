//! Every shipped level loads cleanly; every puzzle level is proven
//! solvable by the search and its solution, played through the game with
//! `Drop` actions, wins. Goals and solutions are snapshot-tested.

use super::tetris_support;

use std::path::Path;

use tessera_host::level::{LevelFile, load_level};
use tessera_host::{Game, Outcome};
use tessera_tetris::TetrisAction;
use tessera_tetris::level::TetrisLevel;
use tessera_tetris::solver::{Verdict, solve};
use tetris_support::*;

fn shipped_levels() -> Vec<(String, TetrisLevel)> {
    let folder = tessera_testkit::repo_path("levels/tetris");
    let mut paths: Vec<_> = std::fs::read_dir(&folder)
        .expect("levels/tetris")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let level = load_level::<TetrisLevel>(&p).unwrap_or_else(|e| panic!("{e}"));
            (name, level)
        })
        .collect()
}

#[test]
fn at_least_eight_levels_with_the_seeds_classic() {
    let levels = shipped_levels();
    assert!(levels.len() >= 8, "{} levels", levels.len());
    let classic = levels
        .iter()
        .find(|(n, _)| n == "classic_18x12.ron")
        .expect("classic");
    assert_eq!((classic.1.rows, classic.1.columns), (18, 12));
    let marathon = levels
        .iter()
        .find(|(n, _)| n == "marathon_20x10.ron")
        .expect("marathon");
    assert_eq!(
        (marathon.1.rows, marathon.1.columns, marathon.1.hidden_rows),
        (20, 10, 2)
    );
    for (name, level) in &levels {
        let found = level.diagnose();
        assert!(found.is_empty(), "{name}: {found:?}");
    }
}

#[test]
fn puzzles_are_solvable_and_their_solutions_win() {
    let mut out = String::new();
    let mut puzzles = 0;
    for (name, level) in shipped_levels() {
        if level.sequence.is_empty() {
            continue;
        }
        puzzles += 1;
        let rotation = level
            .rotation_override()
            .unwrap_or(tessera_tetris::piece::RotationSystem::Cycle);
        let report = solve(&level, rotation, &mut |_| true);
        let Verdict::Solvable(solution) = report.verdict else {
            panic!("{name}: {:?}", report.verdict);
        };
        let mut game = start(level.clone(), 1);
        out.push_str(&format!(
            "{name}: {} ({}), goal {}, sequence {}\n",
            level.title, rotation, level.goal, level.sequence
        ));
        for placement in &solution {
            let action = TetrisAction::Drop {
                x: placement.left_column(),
                rotation: placement.state,
                y: Some(placement.top_row()),
            };
            out.push_str(&format!("  {}\n", ron::to_string(&action).unwrap()));
            play(&mut game, &[action]);
        }
        assert_eq!(game.outcome(), Outcome::Won, "{name}");
        out.push_str(&format!("  -> {}\n", game.over_reason().unwrap_or("")));
        out.push_str(&game.board_text());
        out.push('\n');
    }
    assert!(puzzles >= 6, "{puzzles} puzzle levels");
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!("puzzle_solutions", out));
}

#[test]
fn the_t_spin_puzzles_need_their_spins() {
    // Under the seed's cycle rotation the triple cannot be done.
    let path = tessera_testkit::repo_path("levels/tetris/puzzle_4_tspin_triple.ron");
    let level = load_level::<TetrisLevel>(Path::new(&path)).unwrap();
    let report = solve(
        &level,
        tessera_tetris::piece::RotationSystem::Cycle,
        &mut |_| true,
    );
    assert_eq!(report.verdict, Verdict::Unsolvable);
}

#[test]
fn the_search_can_be_cancelled_and_reports_progress() {
    let path = tessera_testkit::repo_path("levels/tetris/puzzle_6_five_pieces.ron");
    let level = load_level::<TetrisLevel>(Path::new(&path)).unwrap();
    let mut seen = 0;
    let report = solve(
        &level,
        tessera_tetris::piece::RotationSystem::Srs,
        &mut |nodes| {
            seen = nodes;
            nodes < 1000
        },
    );
    assert_eq!(report.verdict, Verdict::Cancelled);
    assert_eq!(seen, 1024);
}
