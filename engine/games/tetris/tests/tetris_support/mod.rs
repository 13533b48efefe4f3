//! Helpers shared by the tetris tests: scripts, small levels.
#![allow(dead_code)]

use std::path::Path;
use tessera_host::plugin::Scripted;

use tessera_host::{Game, LiveScript, Script, ScriptLimits};
use tessera_tetris::board::Board;
use tessera_tetris::level::{Goal, TetrisLevel};
use tessera_tetris::{Tetris, TetrisAction};

/// The shipped script's text.
pub fn shipped_source() -> String {
    std::fs::read_to_string(tessera_testkit::repo_path("scripts/tetris.lua"))
        .expect("scripts/tetris.lua")
}

/// A script from source text (as `scripts/tetris.lua`).
pub fn script(source: &str) -> Result<Script, tessera_host::ScriptError> {
    Script::load(
        Path::new("scripts/tetris.lua"),
        source,
        Some(&Tetris::script_schema()),
        ScriptLimits::default(),
    )
}

/// The shipped script with `edit` applied to its text (`from` -> `to`).
pub fn shipped_with(from: &str, to: &str) -> LiveScript {
    let source = shipped_source();
    assert!(source.contains(from), "the shipped script holds {from:?}");
    LiveScript::new(script(&source.replacen(from, to, 1)).expect("edited script loads"))
}

/// The shipped script.
pub fn shipped() -> LiveScript {
    LiveScript::new(script(&shipped_source()).expect("the shipped script loads"))
}

/// A 10-wide level with `rows` visible rows, 2 hidden, garbage, sequence.
pub fn level(rows: u32, garbage: &[&str], sequence: &str, rotation: &str) -> TetrisLevel {
    TetrisLevel {
        version: 1,
        rows,
        columns: 10,
        hidden_rows: 2,
        goal: Goal::Marathon,
        garbage: garbage.iter().map(|s| s.to_string()).collect(),
        sequence: sequence.into(),
        rotation: Some(rotation.into()),
        ..Default::default()
    }
}

/// Starts a game.
pub fn start_with(level: TetrisLevel, script: LiveScript, seed: u64) -> Tetris {
    Tetris::start(tessera_host::Setup::new(level, script, seed)).expect("game starts")
}

/// Starts a game with the shipped script.
pub fn start(level: TetrisLevel, seed: u64) -> Tetris {
    start_with(level, shipped(), seed)
}

/// Applies actions, panicking with the action on failure.
pub fn play(game: &mut Tetris, actions: &[TetrisAction]) {
    for a in actions {
        game.apply(a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }
}

/// Garbage rows of the given count with one hole in column 9.
pub fn well_rows(n: usize) -> Vec<&'static str> {
    vec!["GGGGGGGGG."; n]
}

/// A board from text rows (`#` filled), top row first.
pub fn board(rows: &[&str]) -> Board {
    let mut b = Board::new(rows[0].len(), rows.len());
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            b.set(x, y, c == '#');
        }
    }
    b
}

/// A feed game on `level`: a person feeds (seat 1), GOD places (seat 2),
/// as the editor's playtest of a feed level plays it.
pub fn feed_game(level: TetrisLevel, script: LiveScript, seed: u64) -> Tetris {
    use tessera_host::Setup;
    use tessera_host::options::{Seat, SessionOptions};
    Tetris::start(Setup {
        options: SessionOptions {
            mode: Some("feed".into()),
            seats: vec![
                Seat::Human,
                Seat::Ai {
                    level: "god".into(),
                },
            ],
        },
        ..Setup::new(level, script, seed)
    })
    .expect("feed game starts")
}
