//! `tessera-editor [PROJECT_DIR]`: opens the project (default: the nearest
//! folder at or above the current one holding `scripts/` or `levels/`)
//! with the built-in games. The program is the library's
//! [`tessera_editor::run`]; this binary only passes it the built-in list.

use std::process::ExitCode;

fn main() -> ExitCode {
    tessera_editor::run(tessera_builtin::registry(), tessera_builtin_ui::game_uis())
}
