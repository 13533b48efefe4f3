//! Cairns' tests beside its unit tests: one binary, as in every crate of
//! the workspace. `cli` runs the package's own `cairn` program; `replays`
//! re-runs the recorded games against the current script and levels; `ui`
//! drives the editor view as the playtest panel hosts it.

mod cli;
mod replays;
#[cfg(feature = "ui")]
mod ui;
