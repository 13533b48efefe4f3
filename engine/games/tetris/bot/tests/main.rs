//! This crate's tests in one binary: the files of `tests/` are compiled
//! into the crate's unit-test binary as this module (see the `api_tests`
//! declaration in `src/lib.rs`), so the crate links one test executable.
//! They reach the bot only through `tessera_tetris_bot::`, its public API,
//! as integration tests would. A new file in `tests/` is declared here.

// The rules' test helpers (scripts, small levels, boards), shared rather
// than copied; `tetris_support` adds the bot's own.
#[path = "../../tests/tetris_support/mod.rs"]
mod rules_support;
mod tetris_support;

mod tetris_ai;
mod tetris_alloc;
mod tetris_bot_props;
mod tetris_cancel;
mod tetris_check;
mod tetris_feed;
mod tetris_god_walk;
mod tetris_hatetris;
