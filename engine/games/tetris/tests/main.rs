//! This crate's tests in one binary: the files of `tests/` are compiled
//! into the crate's unit-test binary as this module (see the `api_tests`
//! declaration in `src/lib.rs`), so the crate links one test executable.
//! They reach the crate only through `tessera_tetris::`, its public API, as
//! integration tests would. A new file in `tests/` is declared here.

mod tetris_support;

mod tetris_bad_input;
mod tetris_generate;
mod tetris_levels;
mod tetris_movegen;
mod tetris_props;
mod tetris_replay;
mod tetris_rules;
