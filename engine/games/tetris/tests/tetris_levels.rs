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

/// A feed level's opening comment quotes the numbers the game plays
/// (issue 35: three comments named other targets than their levels): the
/// AI it names, "clearing N lines" its target, and "every N pieces" the
/// ceiling's interval from the script's difficulty table.
#[test]
fn feed_level_comments_quote_the_numbers_the_game_plays() {
    use tessera_host::options::{Seat, SessionOptions};
    use tessera_host::{Game, Setup};
    let folder = tessera_testkit::repo_path("levels/tetris");
    let mut feeds = 0;
    for (name, level) in shipped_levels() {
        let Some(feed) = level.feed.clone() else {
            continue;
        };
        feeds += 1;
        let text = std::fs::read_to_string(folder.join(&name)).expect("level text");
        let comment: Vec<&str> = text
            .lines()
            .take_while(|l| l.starts_with("//"))
            .flat_map(|l| l.trim_start_matches('/').split_whitespace())
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .collect();
        let options = SessionOptions {
            mode: Some("feed".into()),
            seats: vec![
                Seat::Human,
                Seat::Ai {
                    level: feed.difficulty.to_lowercase(),
                },
            ],
        };
        let game = tessera_tetris::Tetris::start(Setup {
            options,
            ..Setup::new(level, shipped(), 4)
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let state = game.feed_state().expect("a feed game");
        let joined = comment.join(" ");
        assert!(
            joined.contains(&format!("every piece {} gets", feed.difficulty)),
            "{name}: {joined}"
        );
        let mut quoted_target = false;
        for words in comment.windows(3) {
            let number = words[1].parse::<u64>();
            match (words[0], number, words[2]) {
                ("clearing", Ok(n), "lines") => {
                    assert_eq!(n, state.target_lines, "{name}: {joined}");
                    quoted_target = true;
                }
                ("every", Ok(n), "pieces") => {
                    assert_eq!(n, u64::from(state.ceiling_every()), "{name}: {joined}");
                }
                _ => {}
            }
        }
        assert!(quoted_target, "{name} names its target: {joined}");
    }
    assert!(feeds >= 8, "{feeds} feed levels");
}
