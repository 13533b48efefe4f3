//! The built-in games, listed once (`engine/builtin/games.rs`). The CLI,
//! the editor, the bench command and the test suites all start from
//! [`registry`]; the host and the editor shell name no game. Their editor
//! UIs come from the same list through `tessera-builtin-ui`.
//!
//! Adding a game: its crate under `engine/games/<id>/`, its dependency in
//! this crate's `Cargo.toml`, and one line in `engine/builtin/games.rs`.

use tessera_host::Registry;

/// Reads the list's plugin types (the UIs are `tessera-builtin-ui`'s).
macro_rules! games {
    ($($game:path $(=> $ui:expr)?),* $(,)?) => {
        /// Every game shipped with Tessera.
        pub fn registry() -> Registry {
            let mut registry = Registry::empty();
            $(registry.register::<$game>();)*
            registry
        }
    };
}

include!("../games.rs");
