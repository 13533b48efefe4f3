//! The workspace-level tests in one binary (one test binary per crate keeps
//! the link step, most of a build's time, short): the CLI end to end, the
//! replay suite, the sweep of every game's script keys, the README's code
//! blocks and the hostile-input suite.
//! `tests/tidy.rs` stays a binary of its own so `cargo test --test tidy`
//! checks the architecture alone. Each module below is one former test
//! file; a new file in `tests/` must be declared here (tidy checks it).

mod common;

mod azul_cli;
mod claims;
mod cli;
mod generate_cli;
mod hostile;
mod interrupt;
mod polycube_cli;
mod readme;
mod replays;
mod sand_cli;
mod script_keys;
mod shard_cli;
mod tetris_cli;
