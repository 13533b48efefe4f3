//! `generate tetris`: every generated level passes `check` (a game start
//! on the shipped script included) and re-proves its claim there; the
//! solver's own solution wins it in the game and needs its T-spin; one
//! seed gives one level; a hand edit that breaks the claim is reported at
//! the claim's line; the census agrees with the solver on the shipped
//! puzzles and finds the T-spin double's spin.

use std::path::Path;

use tessera_host::agent::ThinkControl;
use tessera_host::generate::{GenerateError, Generated, Proof};
use tessera_host::level::{load_level, parse_level};
use tessera_host::{Game, Outcome, Registry};
use tessera_tetris::board::spawn_position;
use tessera_tetris::generate::census::{Puzzle, census};
use tessera_tetris::generate::spin::is_t_spin;
use tessera_tetris::generate::{GENERATOR, claim_text};
use tessera_tetris::level::{Goal, TetrisLevel};
use tessera_tetris::movegen::after_lock;
use tessera_tetris::piece::RotationSystem;
use tessera_tetris::solver::{Verdict, solve};
use tessera_tetris::{Tetris, TetrisAction};

use super::tetris_support::{shipped, start_with};

fn generate(args: &[&str], seed: u64) -> Result<Generated, GenerateError> {
    let matches = clap::Command::new("tetris")
        .args(GENERATOR.arguments())
        .try_get_matches_from(std::iter::once("tetris").chain(args.iter().copied()))
        .map_err(|e| GenerateError::Spec(e.to_string()))?;
    GENERATOR.generate(&matches, seed, &ThinkControl::new())
}

const DONE_WHEN: [&str; 6] = ["--lines", "2", "--pieces", "3", "--tspin", "--unique"];

/// `check` on the text as a level of a project with the shipped script.
fn check(text: &str) -> Vec<String> {
    let mut registry = Registry::empty();
    registry.register::<Tetris>();
    registry.register_generator::<Tetris>(GENERATOR);
    tessera_testkit::check_generated(&registry, "tetris", text)
}

#[test]
fn the_done_when_spec_gives_levels_check_accepts_and_their_wins_need_the_spin() {
    for seed in 1..=3 {
        let made = generate(&DONE_WHEN, seed).expect("a level");
        assert_eq!(check(&made.text), Vec::<String>::new(), "seed {seed}");
        let proof = tessera_host::generate::prove(
            GENERATOR,
            "tetris",
            Path::new("g.ron"),
            &made.text,
            &ThinkControl::new(),
        );
        let Proof::Holds(line) = proof else {
            panic!("seed {seed}: {proof:?}\n{}", made.text);
        };
        assert!(
            line.contains(", 1 final board, every win needs a T-spin"),
            "{line}"
        );
        assert!(
            made.text.contains("--tspin --unique --seed"),
            "{}",
            made.text
        );

        // The solver finds a win; played in the game, it wins, and one of
        // its landings is a T-spin.
        let level: TetrisLevel = parse_level(&made.text, Path::new("g.ron")).unwrap();
        assert_eq!(level.goal, Goal::Lines(2));
        assert_eq!(level.sequence.len(), 3);
        let report = solve(&level, RotationSystem::Srs, &mut |_| true);
        let Verdict::Solvable(solution) = report.verdict else {
            panic!("seed {seed}: {:?}", report.verdict);
        };
        let mut board = level.starting_cells().0;
        let mut spins = 0;
        let mut game = start_with(level.clone(), shipped(), 1);
        for placement in &solution {
            let spawn = spawn_position(placement.kind, board.width());
            spins += usize::from(is_t_spin(&board, RotationSystem::Srs, spawn, placement));
            board = after_lock(&board, placement).0;
            let action = TetrisAction::Drop {
                x: placement.left_column(),
                rotation: placement.state,
                y: Some(placement.top_row()),
            };
            game.apply(&action).expect("a legal drop");
        }
        assert_eq!(game.outcome(), Outcome::Won, "seed {seed}");
        assert_eq!(spins, 1, "seed {seed}: the solution's T-spins");
    }
}

#[test]
fn one_seed_gives_one_level_and_seeds_differ() {
    let a = generate(&DONE_WHEN, 7).unwrap();
    let b = generate(&DONE_WHEN, 7).unwrap();
    assert_eq!(a, b);
    let texts: std::collections::BTreeSet<String> = (1..=5)
        .map(|seed| generate(&DONE_WHEN, seed).unwrap().text)
        .collect();
    assert!(texts.len() >= 4, "{} distinct of 5", texts.len());
}

#[test]
fn a_hand_edit_that_breaks_the_claim_is_reported_at_the_claim_line() {
    let made = generate(&DONE_WHEN, 2).unwrap();
    let sequence = made
        .text
        .lines()
        .find(|l| l.trim_start().starts_with("sequence:"))
        .unwrap();
    // One O cannot fill two lines' holes.
    let edited = made.text.replace(sequence, "  sequence: \"O\",");
    let findings = check(&edited);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(
        findings[0].starts_with("generated.ron:2: the claim `1 winning sequence, 1 final board"),
        "{findings:?}"
    );
    assert!(
        findings[0].ends_with(
            "no longer holds: the level now gives `0 winning sequences, 0 final boards`"
        ),
        "{findings:?}"
    );
    // A block whose claim line is gone is no longer what was generated.
    let unclaimed = made.text.replace("// claim:", "// note:");
    let Proof::Broken(finding) = tessera_host::generate::prove(
        GENERATOR,
        "tetris",
        Path::new("g.ron"),
        &unclaimed,
        &ThinkControl::new(),
    ) else {
        panic!("a block without its claim line is refused");
    };
    assert_eq!(finding.line, Some(1), "{finding}");
    // A file without a block is not a generated level.
    let plain = tessera_host::generate::level_body(&made.text);
    assert_eq!(
        tessera_host::generate::prove(
            GENERATOR,
            "tetris",
            Path::new("g.ron"),
            plain,
            &ThinkControl::new()
        ),
        Proof::NoClaim
    );
}

#[test]
fn the_census_agrees_with_the_solver_on_the_shipped_puzzles() {
    let folder = tessera_testkit::repo_path("levels/tetris");
    let mut seen = 0;
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        let level: TetrisLevel = load_level(&path).unwrap();
        let Goal::Lines(lines) = level.goal else {
            continue;
        };
        if level.sequence.is_empty() {
            continue;
        }
        seen += 1;
        let rotation = level.rotation_override().unwrap_or(RotationSystem::Cycle);
        let puzzle = Puzzle {
            board: level.starting_cells().0,
            pieces: level.sequence_pieces(),
            lines,
            rotation,
        };
        let counted = census(&puzzle, 5_000_000, &ThinkControl::new()).unwrap();
        let solvable = matches!(
            solve(&level, rotation, &mut |_| true).verdict,
            Verdict::Solvable(_)
        );
        assert_eq!(counted.wins > 0, solvable, "{}", path.display());
        assert!(counted.chance > 0.0 && counted.chance <= 1.0, "{counted:?}");
        let name = path.file_name().unwrap().to_string_lossy();
        if name.contains("tspin_double") {
            assert!(
                counted.every_win_spins(),
                "{name}: {}",
                claim_text(&counted)
            );
        }
        if name.contains("first_tetris") {
            assert!(
                !counted.every_win_spins(),
                "{name}: {}",
                claim_text(&counted)
            );
        }
    }
    assert!(seen >= 2, "{seen} line puzzles");
    // Under the seed's cycle rotation the T-spin triple has no win.
    let path = tessera_testkit::repo_path("levels/tetris/puzzle_4_tspin_triple.ron");
    let level: TetrisLevel = load_level(Path::new(&path)).unwrap();
    let mut puzzle = Puzzle {
        board: level.starting_cells().0,
        pieces: level.sequence_pieces(),
        lines: 3,
        rotation: RotationSystem::Cycle,
    };
    assert_eq!(
        census(&puzzle, 1_000_000, &ThinkControl::new())
            .unwrap()
            .wins,
        0
    );
    puzzle.rotation = RotationSystem::Srs;
    let counted = census(&puzzle, 1_000_000, &ThinkControl::new()).unwrap();
    assert!(counted.every_win_spins(), "{}", claim_text(&counted));
}

#[test]
fn impossible_specs_are_refused_and_a_cancel_stops_the_search() {
    for (args, words) in [
        (
            vec!["--lines", "5", "--pieces", "1"],
            "needs at least 2 pieces",
        ),
        (
            vec!["--lines", "2", "--pieces", "6", "--columns", "6"],
            "24 cells do not fit in 2 lines of 6 columns",
        ),
        (vec!["--lines", "9"], "9 is not in 1..=6"),
    ] {
        let Err(GenerateError::Spec(message)) = generate(&args, 1) else {
            panic!("{args:?} accepted");
        };
        assert!(message.contains(words), "{args:?}: {message}");
    }
    let control = ThinkControl::new();
    control.cancel();
    let matches = clap::Command::new("tetris")
        .args(GENERATOR.arguments())
        .get_matches_from(["tetris"]);
    assert!(matches!(
        GENERATOR.generate(&matches, 1, &control),
        Err(GenerateError::Cancelled)
    ));
}
