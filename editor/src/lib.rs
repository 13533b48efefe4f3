//! Tessera's desktop editor: a project tree, script and level tabs with
//! live reload, a console, and a playtest area hosting each game's view.
//!
//! The editor depends on the engine, never the reverse; rules stay in the
//! engine, and game views only draw state and turn input into actions.

pub mod app;
pub mod code_editor;
pub mod console;
pub mod disk_watch;
pub mod document;
pub mod files;
pub mod frame_log;
pub mod generate_dialog;
pub mod generic_view;
pub mod highlight;
pub mod home;
pub mod plain_words;
pub mod playtest_area;
pub mod prompts;
pub mod restore;
mod run;
pub mod search;
pub mod tabs;
pub mod tests_panel;
pub mod tree;

pub use app::EditorApp;
pub use run::run;
/// The contract a game's UI implements (the `tessera-ui` crate, shared with
/// the games' UI crates).
pub use tessera_ui as playtest;
pub use tessera_ui::{ConsoleLine, GameUi, LevelEditor, PlaytestContext, PlaytestView};

// One test binary per crate: the tests in `tests/` are a module of the
// unit-test binary rather than integration binaries of their own (each would
// link the whole dependency tree again). They name the crate as
// `tessera_editor`, like outside code, so they exercise only the public API.
#[cfg(test)]
extern crate self as tessera_editor;
#[cfg(test)]
#[path = "../tests/main.rs"]
mod api_tests;
