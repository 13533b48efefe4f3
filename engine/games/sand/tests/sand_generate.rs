//! `generate sand` and the fixed tray: a generated level passes `check` (a
//! game start on the shipped script included) and re-proves its claim;
//! the winning count matches sequences played through the game's own
//! actions; one seed gives one level; a broken claim is reported at its
//! line; a tray empties and ends the game, a `clears` goal wins it.

use std::path::Path;

use tessera_host::generate::{GenerateError, Generated, Proof};
use tessera_host::level::parse_level;
use tessera_host::{Game, Outcome, Registry, ThinkControl};
use tessera_sand::generate::GENERATOR;
use tessera_sand::{Sand, SandAction, SandLevel};

use super::sand_support::start;

fn generate(args: &[&str], seed: u64) -> Result<Generated, GenerateError> {
    let matches = clap::Command::new("sand")
        .args(GENERATOR.arguments())
        .try_get_matches_from(std::iter::once("sand").chain(args.iter().copied()))
        .map_err(|e| GenerateError::Spec(e.to_string()))?;
    GENERATOR.generate(&matches, seed, &ThinkControl::new())
}

fn check(text: &str) -> Vec<String> {
    let mut registry = Registry::empty();
    registry.register::<Sand>();
    registry.register_generator::<Sand>(GENERATOR);
    tessera_testkit::check_generated(&registry, "sand", text)
}

/// Wins and sequences counted by playing every sequence as a player would
/// (a fresh game per sequence, its actions replayed).
fn played(level: &SandLevel) -> (u64, u64) {
    fn walk(level: &SandLevel, prefix: &mut Vec<SandAction>, out: &mut (u64, u64)) {
        let mut game = start(level.clone(), 0);
        game.settle().unwrap();
        for action in prefix.iter() {
            game.apply(action).unwrap();
            game.settle().unwrap();
        }
        let actions = game.legal_placements();
        if game.outcome().is_over() || actions.is_empty() {
            out.1 += 1;
            out.0 += u64::from(game.outcome() == Outcome::Won);
            return;
        }
        for action in actions {
            prefix.push(action);
            walk(level, prefix, out);
            prefix.pop();
        }
    }
    let mut out = (0, 0);
    walk(level, &mut Vec::new(), &mut out);
    out
}

#[test]
fn a_generated_tray_passes_check_and_its_count_is_what_play_gives() {
    let made = generate(&["--clears", "1", "--pieces", "2"], 3).expect("a level");
    assert_eq!(check(&made.text), Vec::<String>::new(), "{}", made.text);
    let Proof::Holds(line) = tessera_host::generate::prove(
        GENERATOR,
        "sand",
        Path::new("g.ron"),
        &made.text,
        &ThinkControl::new(),
    ) else {
        panic!("{}", made.text);
    };
    let level: SandLevel = parse_level(&made.text, Path::new("g.ron")).unwrap();
    assert_eq!(level.tray.len(), 2);
    assert_eq!(level.clears, Some(1));
    let (wins, sequences) = played(&level);
    assert!(wins > 0 && wins < sequences, "{wins} of {sequences}");
    let claim = format!("{wins} of {sequences} placement sequences reach 1 spanning clear");
    assert!(line.starts_with(&claim), "{line} / {claim}");
    assert_eq!(
        made,
        generate(&["--clears", "1", "--pieces", "2"], 3).unwrap()
    );
}

#[test]
fn a_hand_edit_that_breaks_the_claim_is_reported_at_the_claim_line() {
    let made = generate(&["--clears", "1", "--pieces", "2"], 3).unwrap();
    // A tray of one piece is another puzzle.
    let tray = made.text.lines().find(|l| l.contains("tray:")).unwrap();
    let first = tray.split('"').nth(1).unwrap();
    let edited = made
        .text
        .replace(tray, &format!("    tray: [\"{first}\"],"));
    let findings = check(&edited);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(
        findings[0].starts_with("generated.ron:2: the claim `")
            && findings[0].contains("no longer holds: the level now gives `"),
        "{findings:?}"
    );
}

#[test]
fn a_tray_empties_and_ends_the_game_and_a_clears_goal_wins_it() {
    // The blue row spans at the start: its clear counts, and one wins.
    let level = SandLevel {
        columns: 4,
        rows: 4,
        cell: 2,
        board: vec!["....".into(), "BBBB".into()],
        tray: vec!["I R".into(), "O B".into()],
        clears: Some(1),
        physics_seed: Some(1),
        ..SandLevel::default()
    };
    let mut game = start(level.clone(), 9);
    game.settle().unwrap();
    assert_eq!(game.slots().len(), 2);
    assert_eq!(game.outcome(), Outcome::Won, "{}", game.render_text());

    // Nothing spans six columns here: the tray empties short of the goal.
    let no_goal_reached = SandLevel {
        columns: 6,
        board: vec!["R.....".into()],
        tray: vec!["T Y".into(), "O B".into()],
        ..level
    };
    let mut game = start(no_goal_reached, 9);
    game.settle().unwrap();
    game.apply(&SandAction::Place {
        slot: 1,
        x: 4,
        y: 0,
        rotation: 0,
    })
    .unwrap();
    game.settle().unwrap();
    assert_eq!(game.slots().len(), 1, "the placed piece left the tray");
    assert_eq!(game.outcome(), Outcome::Playing);
    game.apply(&SandAction::Place {
        slot: 0,
        x: 0,
        y: 0,
        rotation: 0,
    })
    .unwrap();
    game.settle().unwrap();
    assert!(game.slots().is_empty());
    assert_eq!(game.outcome(), Outcome::Lost, "{}", game.render_text());

    // A bad tray entry is named at its index.
    let bad = SandLevel {
        tray: vec!["T R".into(), "Q R".into()],
        ..SandLevel::default()
    };
    let found = tessera_host::level::LevelFile::diagnose(&bad);
    assert!(
        found
            .iter()
            .any(|d| d.message == "field `tray`, piece 2: \"Q\" is not a shape (I O T L J S Z)"),
        "{found:?}"
    );
}
