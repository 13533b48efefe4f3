//! This crate's tests in one binary: the files of `tests/` are compiled
//! into the crate's unit-test binary as this module (see the `api_tests`
//! declaration in `src/lib.rs`), so the crate links one test executable.
//! They reach the crate only through `tessera_host::`, its public API, as
//! integration tests would. A new file in `tests/` is declared here.

// The shared test helpers and Nim, compiled against this very crate: as a
// dependency, tessera-testkit would link a second copy of the host whose
// `Game` trait Nim would implement instead of this one.
#[allow(dead_code)]
#[path = "../../testkit/src/lib.rs"]
mod testkit;

mod generate;
mod host;
mod hot_reload;
mod sandbox;
mod settings;
