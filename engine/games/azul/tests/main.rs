//! This crate's tests in one binary: the files of `tests/` are compiled
//! into the crate's unit-test binary as this module (see the `api_tests`
//! declaration in `src/lib.rs`), so the crate links one test executable.
//! They reach the crate only through `tessera_azul::`, its public API, as
//! integration tests would. A new file in `tests/` is declared here.

mod azul_bad_script;
mod azul_expert;
mod azul_generate;
mod azul_grey;
mod azul_records;
mod azul_rules;
mod azul_scenarios;
