//! This crate's tests in one binary: the files of `tests/` are compiled
//! into the crate's unit-test binary as this module (see the `api_tests`
//! declaration in `src/lib.rs`), so the crate links one test executable.
//! They reach the crate only through `tessera_sand::`, its public API, as
//! integration tests would. A new file in `tests/` is declared here.

mod sand_support;

mod sand_alloc;
mod sand_generate;
mod sand_physics;
mod sand_rules;
