//! The plugin through the host's Game API: script settings, actions,
//! hints with a limit, the win with stars, saved games.

use tessera_host::plugin::Scripted;
use tessera_host::{Game, Outcome, Recorded};
use tessera_host::{LiveScript, Script, ScriptLimits};
use tessera_polycube::import::load_any;
use tessera_polycube::{Polycube, PolycubeAction, PolycubeLevel};

use tessera_testkit as common;

fn script(source: Option<&str>) -> LiveScript {
    let path = common::repo_path("scripts/polycube.lua");
    let schema = Polycube::script_schema();
    let script = match source {
        Some(text) => Script::load(&path, text, Some(&schema), ScriptLimits::default()),
        None => Script::load_file(&path, Some(&schema), ScriptLimits::default()),
    };
    LiveScript::new(script.unwrap())
}

fn level(name: &str) -> PolycubeLevel {
    load_any(&common::repo_path(&format!("levels/polycube/{name}")))
        .unwrap()
        .0
}

#[test]
fn a_session_plays_to_a_win_with_hints_and_stars() {
    let mut game =
        Recorded::<Polycube>::start(level("soma.ron"), script(None), 7, &Default::default())
            .unwrap();
    assert_eq!(
        game.game().hints(),
        (0, 3),
        "the script allows 3 for the Soma cube"
    );
    let refused = game.apply(&PolycubeAction::Place {
        piece: "V".into(),
        cells: vec![(1, 1, 2), (2, 1, 2), (1, 2, 2)],
    });
    assert!(refused.unwrap_err().to_string().contains("Floating"));
    assert_eq!(game.game().last_error().map(|e| e.name()), Some("Floating"));
    for _ in 0..3 {
        game.apply(&PolycubeAction::Hint).unwrap();
    }
    assert_eq!(game.game().rules().placed_count(), 3);
    let e = game.apply(&PolycubeAction::Hint).unwrap_err();
    assert!(
        e.to_string().starts_with("illegal action: NoHintsLeft"),
        "{e}"
    );
    // Finish with the solver's moves (the AI's path does not use up hints).
    while game.game().outcome() == Outcome::Playing {
        let solver = game.game().solver().unwrap();
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let action = tessera_polycube::hint_action(game.game().rules(), &solver, &cancel).unwrap();
        game.advance(60).unwrap();
        game.apply(&action).unwrap();
    }
    assert_eq!(game.game().outcome(), Outcome::Won);
    // 7 successful actions: 3 hints and 4 solver moves (the refusal is not one).
    assert_eq!(game.game().moves(), 7);
    assert_eq!(game.game().seconds(), 4.0);
    // 3 stars for speed, minus one per hint, never below one.
    assert_eq!(game.game().stars(), Some(1));
    assert!(
        game.apply(&PolycubeAction::Hint).is_err(),
        "won: no more moves"
    );
    common::snapshots().bind(|| insta::assert_snapshot!("soma_won", game.game().render_text()));
    // The replay reproduces the session.
    let replay = game.replay().clone();
    let again = Recorded::<Polycube>::from_replay(replay, script(None), true, None).unwrap();
    assert_eq!(again.game().render_text(), game.game().render_text());
}

/// The move counter counts the moves on the board: a place then an undo
/// is none (it said "2 moves"), a redo brings the move back.
#[test]
fn an_undo_takes_its_move_off_the_counter() {
    let mut game =
        Recorded::<Polycube>::start(level("soma.ron"), script(None), 7, &Default::default())
            .unwrap();
    game.apply(&PolycubeAction::Hint).unwrap();
    assert_eq!(game.game().moves(), 1);
    game.apply(&PolycubeAction::Undo).unwrap();
    assert_eq!(
        game.game().moves(),
        0,
        "placed and undone: no move on the board"
    );
    game.apply(&PolycubeAction::Redo).unwrap();
    assert_eq!(game.game().moves(), 1, "redone: the move is back");
    assert!(game.apply(&PolycubeAction::Redo).is_err());
    assert_eq!(game.game().moves(), 1, "a refused redo is no move");
}

#[test]
fn the_support_rule_follows_the_script() {
    let off = "return { support_rule = false }";
    let mut game =
        Recorded::<Polycube>::start(level("soma.ron"), script(Some(off)), 0, &Default::default())
            .unwrap();
    assert!(!game.game().settings().support_rule);
    game.apply(&PolycubeAction::PlaceAt {
        piece: "V".into(),
        rotation: 0,
        at: (1, 1, 3),
    })
    .unwrap();
    assert_eq!(game.game().rules().placed_count(), 1);
    assert_eq!(game.game().hints(), (0, 3), "default without the hook");
}

#[test]
fn legal_actions_are_all_accepted() {
    let game = Recorded::<Polycube>::start(
        level("01_first_steps.ron"),
        script(None),
        0,
        &Default::default(),
    )
    .unwrap();
    let actions = game.game().legal_actions();
    assert!(!actions.is_empty());
    for action in &actions {
        let mut copy = Recorded::<Polycube>::start(
            level("01_first_steps.ron"),
            script(None),
            0,
            &Default::default(),
        )
        .unwrap();
        copy.apply(action).unwrap();
    }
    // Every placement on the floor layer of a 2x2x2 box, nothing floating.
    assert!(actions.iter().all(|a| match a {
        PolycubeAction::PlaceAt { at, .. } => at.2 == 1,
        _ => false,
    }));
}

#[test]
fn a_saved_game_resumes_with_its_pieces_and_history() {
    let mut game =
        Recorded::<Polycube>::start(level("soma.ron"), script(None), 0, &Default::default())
            .unwrap();
    game.apply(&PolycubeAction::Hint).unwrap();
    game.apply(&PolycubeAction::Hint).unwrap();
    game.apply(&PolycubeAction::Undo).unwrap();
    game.advance(120).unwrap();
    let saved = game.game().save();
    let text = tessera_host::level::to_ron_string(&saved).unwrap();
    let back: tessera_polycube::SavedGame =
        tessera_host::level::parse_ron(&text, std::path::Path::new("save.ron")).unwrap();
    let mut resumed = Polycube::resume(back, script(None)).unwrap();
    assert_eq!(resumed.render_text(), game.game().render_text());
    // Two hints, one undone: one move on the board.
    assert_eq!(
        (resumed.moves(), resumed.seconds(), resumed.hints()),
        (1, 2.0, (2, 3))
    );
    // Redo and undo still work after resuming.
    resumed.apply(&PolycubeAction::Redo).unwrap();
    assert_eq!(resumed.rules().placed_count(), 2);
    resumed.apply(&PolycubeAction::Undo).unwrap();
    resumed.apply(&PolycubeAction::Undo).unwrap();
    assert_eq!(resumed.rules().placed_count(), 0);

    // A tampered save is refused: a pose given to a piece of another shape,
    // or a history that does not lead to the saved board.
    let mut bad = game.game().save();
    bad.history.clear();
    bad.future.clear();
    let i = bad.placed.iter().position(Option::is_some).unwrap();
    let j = (i + 1) % bad.placed.len();
    bad.placed[j] = bad.placed[i].take();
    assert!(Polycube::resume(bad, script(None)).is_err());
    let mut bad = game.game().save();
    bad.future[0].after = bad.history[0].after.clone();
    assert!(Polycube::resume(bad, script(None)).is_err());
}

#[test]
fn a_hint_offered_from_another_thread_is_used_only_for_its_board() {
    use tessera_polycube::{PlacedPiece, board_key};
    let mut game =
        Recorded::<Polycube>::start(level("soma.ron"), script(None), 0, &Default::default())
            .unwrap();
    let solver = game.game().solver().unwrap();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let action = tessera_polycube::hint_action(game.game().rules(), &solver, &cancel).unwrap();
    // Offered for this board: the Hint action places exactly that.
    let key = board_key(game.game().rules());
    game.game_mut().offer_hint(key.clone(), action.clone());
    game.apply(&PolycubeAction::Hint).unwrap();
    let PolycubeAction::PlaceAt { piece, .. } = &action else {
        panic!("a hint places a piece: {action:?}");
    };
    let index = game.game().rules().piece_index(piece).unwrap();
    assert!(game.game().rules().placement(index).is_some());
    // Offered for a board that is gone: ignored, the game solves afresh.
    let stale_key: Vec<Option<PlacedPiece>> = key;
    let bogus = PolycubeAction::PlaceAt {
        piece: piece.clone(),
        rotation: 0,
        at: (1, 1, 1),
    };
    game.game_mut().offer_hint(stale_key, bogus);
    game.apply(&PolycubeAction::Hint).unwrap();
    assert_eq!(game.game().rules().placed_count(), 2);
}
