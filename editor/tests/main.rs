//! This crate's tests in one binary: the files of `tests/` are compiled
//! into the crate's unit-test binary as this module (see the `api_tests`
//! declaration in `src/lib.rs`), so the crate links one test executable.
//! They reach the crate only through `tessera_editor::`, its public API, as
//! integration tests would. A new file in `tests/` is declared here.

mod support;

mod ai_seats;
mod azul_table;
mod cancel_sweep;
mod console;
mod documents;
mod editor;
mod f5_games;
mod game_views;
mod generate;
mod layout_sweep;
mod playtest_undo;
mod replay_tests;
mod screen_sweep;
mod tetris_feed;
mod thinking_line;
mod trust;
mod undo_stack;
