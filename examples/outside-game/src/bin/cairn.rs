//! `cairn`: Tessera's command line with the built-in games and Cairns.
//! The whole program is the `tessera` library's `run`; this binary only
//! hands it a context with one more game, as any crate outside the
//! repository would.

use std::process::ExitCode;

fn main() -> ExitCode {
    tessera::run(cairn::command_context())
}
