//! This crate's tests in one binary: the files of `tests/` are compiled
//! into the crate's unit-test binary as this module (see the `api_tests`
//! declaration in `src/lib.rs`), so the crate links one test executable.
//! They reach the crate only through `tessera_polycube::`, its public API, as
//! integration tests would. A new file in `tests/` is declared here.

mod polycube_assembly;
mod polycube_count;
mod polycube_cut;
mod polycube_difficulty;
mod polycube_game;
mod polycube_generate;
mod polycube_geometry;
mod polycube_levels;
mod polycube_pocket;
mod polycube_rules;
mod polycube_skew;
mod polycube_solver;
