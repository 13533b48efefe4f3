//! The plugin host, proven with the Nim test game: sessions through the
//! registry, actions as RON, the AI, replays that reproduce a session.

use tessera_testkit as common;

use std::path::Path;

use common::nim::{NIM_SCRIPT, Nim, NimAction, NimLevel};
use tessera_host::plugin::{Recorded, downcast};
use tessera_host::replay::Step;
use tessera_host::{Game, GameError, LiveScript, Outcome, Registry, Script, ScriptLimits};

fn nim_script() -> LiveScript {
    let schema = Nim::script_schema();
    let script = Script::load(
        Path::new("scripts/nim.lua"),
        NIM_SCRIPT,
        Some(&schema),
        ScriptLimits::default(),
    )
    .expect("the test script is valid");
    LiveScript::new(script)
}

fn registry() -> Registry {
    let mut registry = Registry::empty();
    registry.register::<Nim>();
    registry
}

#[test]
fn registry_starts_a_session_from_a_level_file_and_plays_it() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("five.ron");
    std::fs::write(&level, "(version: 1, stones: 5)").unwrap();
    let registry = registry();
    let entry = registry.get("nim").expect("nim is registered");
    assert_eq!(entry.title, "Nim (test game)");

    let mut session = entry.start(Some(&level), nim_script(), 7).unwrap();
    assert_eq!(session.game_id(), "nim");
    assert_eq!(
        session.legal_actions_ron(),
        vec!["Take(1)", "Take(2)", "Take(3)"]
    );
    session.apply_ron("Take(3)").unwrap();
    session.apply_ron("Take(2)").unwrap();
    assert_eq!(session.outcome(), Outcome::Winner(1));
    let nim = downcast::<Nim>(session.as_ref()).expect("a nim session");
    assert_eq!(nim.game().scores(), [6, 4]);
    assert_eq!(
        session.render_text(),
        "pile   0 ||\nto move: player 1\nscores: 6 / 4\n"
    );
}

#[test]
fn illegal_and_unreadable_actions_are_refused_without_changing_state() {
    let mut session = Recorded::<Nim>::start(NimLevel::default(), nim_script(), 1).unwrap();
    let err = session.apply(&NimAction::Take(4)).unwrap_err();
    assert!(matches!(err, GameError::Illegal(_)), "{err}");
    assert_eq!(
        err.to_string(),
        "illegal action: take 4: must take 1 to 3 stones"
    );
    assert_eq!(session.game().pile(), 10);

    let mut erased: Box<dyn tessera_host::Session> = Box::new(session);
    let err = erased.apply_ron("Grab(2)").unwrap_err();
    assert!(matches!(err, GameError::BadAction(_)), "{err}");
    assert!(err.to_string().contains("Grab"), "{err}");
}

#[test]
fn ai_plays_the_winning_move() {
    let mut session = Recorded::<Nim>::start(NimLevel::default(), nim_script(), 1).unwrap();
    // 10 stones, take at most 3: leaving a multiple of 4 means taking 2.
    assert_eq!(
        session.game_mut().ai_action().unwrap(),
        Some(NimAction::Take(2))
    );
}

#[test]
fn a_replay_reproduces_the_session_exactly() {
    let level = NimLevel {
        version: 1,
        stones: 20,
        random_extra: 30,
    };
    let mut session = Recorded::<Nim>::start(level, nim_script(), 99).unwrap();
    // Both sides play the AI, whose moves in lost positions come from the RNG.
    while !session.game().outcome().is_over() {
        let action = session
            .game_mut()
            .ai_action()
            .unwrap()
            .expect("a move while playing");
        session.apply(&action).unwrap();
        session.advance(2).unwrap();
    }
    let text = tessera_host::level::to_ron_string(session.replay()).unwrap();
    assert!(text.contains("seed: 99"), "{text}");
    assert!(matches!(session.replay().steps[1], Step::Tick(2)));

    let entry = registry();
    let replayed = entry
        .get("nim")
        .unwrap()
        .replay(&text, Path::new("game.replay.ron"), nim_script())
        .unwrap();
    assert_eq!(replayed.render_text(), session.game().render_text());
    assert_eq!(replayed.outcome(), session.game().outcome());
    assert_eq!(replayed.replay_ron().unwrap(), text);
}

#[test]
fn the_seed_decides_the_random_start() {
    let level = NimLevel {
        version: 1,
        stones: 1,
        random_extra: 1000,
    };
    let piles: Vec<u32> = (0..5)
        .map(|seed| {
            Recorded::<Nim>::start(level.clone(), nim_script(), seed)
                .unwrap()
                .game()
                .pile()
        })
        .collect();
    let again: Vec<u32> = (0..5)
        .map(|seed| {
            Recorded::<Nim>::start(level.clone(), nim_script(), seed)
                .unwrap()
                .game()
                .pile()
        })
        .collect();
    assert_eq!(piles, again);
    assert!(
        piles.windows(2).any(|w| w[0] != w[1]),
        "different seeds give different piles: {piles:?}"
    );
}

#[test]
fn a_level_that_breaks_a_rule_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("empty.ron");
    std::fs::write(&level, "(version: 1, stones: 0)").unwrap();
    let err = registry()
        .get("nim")
        .unwrap()
        .start(Some(&level), nim_script(), 0)
        .err()
        .expect("a pile of 0 cannot be played");
    assert!(err.to_string().contains("empty.ron"), "{err}");
    assert!(err.to_string().contains("`stones`"), "{err}");
}
