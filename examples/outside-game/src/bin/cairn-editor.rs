//! `cairn-editor [PROJECT_DIR]`: Tessera's editor with the built-in games
//! and Cairns, its playtest view included. The whole program is the
//! editor library's `run`; this binary only hands it the games and their
//! views.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut views = tessera_builtin_ui::game_uis();
    views.push(cairn::ui::game_ui());
    tessera_editor::run(cairn::registry(), views)
}
