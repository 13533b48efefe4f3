//! The recorded replay in `tests/replays/tetris/` (a keyboard game on the
//! 20 x 10 marathon with tetrises and a level-up) reproduces its game.

use super::tetris_support;

use std::path::Path;

use tessera_host::PluginEntry;
use tessera_host::registry::ReplaySetup;
use tessera_host::replay::ScriptChoice;
use tessera_tetris::Tetris;

#[test]
fn the_level_up_replay_reproduces_tetrises_and_the_level_up() {
    let root = tessera_testkit::repo_root();
    let path = root.join("tests/replays/tetris/marathon_levelup.replay.ron");
    let text = std::fs::read_to_string(&path).expect("replay file");
    let entry = PluginEntry::of::<Tetris>();
    let setup = ReplaySetup {
        script: ScriptChoice::Recorded,
        ..ReplaySetup::default()
    };
    let run = entry
        .replay(
            &text,
            &path,
            tetris_support::shipped(),
            Path::new(&root),
            &setup,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let session = run.session;
    let game = tessera_host::downcast::<Tetris>(session.as_ref()).expect("a tetris session");
    let game = game.game();
    assert_eq!(game.level_number(), 1, "a level-up");
    assert!(
        game.clear_log().iter().filter(|r| r.lines == 4).count() >= 2,
        "tetrises"
    );
    assert_eq!(game.score(), 1010);
    assert_eq!(game.lines(), 66);
}

#[test]
fn undo_takes_back_one_piece_not_one_key() {
    use tessera_host::{Game, Recorded, SessionOptions};
    use tessera_tetris::TetrisAction::{HardDrop, Left, Right, RotateCw, Tick};
    use tessera_tetris::level::TetrisLevel;
    let mut session = Recorded::<Tetris>::start(
        TetrisLevel::default(),
        tetris_support::shipped(),
        5,
        &SessionOptions::default(),
    )
    .expect("a classic game");
    // Piece 1: turned, moved twice, dropped; time passes.
    for action in [RotateCw, Left, Left, HardDrop, Tick(3)] {
        session.apply(&action).expect("legal");
    }
    let after_first = session.game().render_text();
    assert_eq!(session.game().field().locked(), 1);
    // Piece 2: moved and dropped.
    for action in [Right, Right, HardDrop] {
        session.apply(&action).expect("legal");
    }
    assert_eq!(session.game().field().locked(), 2);
    // One undo takes back the whole second piece, keys and all.
    assert_eq!(session.undo_move().expect("undo"), Some(5));
    assert_eq!(session.game().field().locked(), 1);
    assert_eq!(session.game().render_text(), after_first);
    // The next takes back the first piece: the game as it started.
    assert_eq!(session.undo_move().expect("undo"), Some(0));
    assert_eq!(session.game().field().locked(), 0);
    assert_eq!(session.undo_move().expect("undo"), None);
}
