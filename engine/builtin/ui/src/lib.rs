//! The editor UIs of the built-in games, read from the one list of games
//! (`engine/builtin/games.rs`). A crate of its own, so the command line
//! (`tessera-builtin`) never links egui.

/// Reads the list's UIs (the plugin types are `tessera-builtin`'s).
macro_rules! games {
    ($($game:path $({ $($capability:ident: $value:expr),* $(,)? })? $(=> $ui:expr)?),* $(,)?) => {
        /// The editor UIs of the built-in games that bring one.
        pub fn game_uis() -> Vec<tessera_ui::GameUi> {
            vec![$($($ui,)?)*]
        }
    };
}

include!("../../games.rs");
