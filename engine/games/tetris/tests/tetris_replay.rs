//! The recorded replay in `tests/replays/tetris/` (a keyboard game on the
//! 20 x 10 marathon with tetrises and a level-up) reproduces its game.

mod tetris_support;

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
