//! `tessera`: the headless command line over the built-in games. The
//! program is the `tessera` library's [`tessera::run`]; this binary only
//! passes it the built-in list, as a downstream crate's binary passes its
//! own (exit codes and Ctrl+C: the library's docs).

use std::process::ExitCode;

fn main() -> ExitCode {
    tessera::run(tessera_builtin::command_context())
}
