//! Cairns' tests beside its unit tests: one binary, as in every crate of
//! the workspace. `cli` runs the package's own `cairn` program; `replays`
//! re-runs the recorded games against the current script and levels.

mod cli;
mod replays;
