//! The built-in games, listed once (`engine/builtin/games.rs`). The CLI
//! (its subcommands and bench groups included), the editor and the test
//! suites all start from [`registry`]; the host, the CLI shell and the
//! editor shell name no game. Their editor UIs come from the same list
//! through `tessera-builtin-ui`.
//!
//! Adding a game: its crate under `engine/games/<id>/`, its dependency in
//! this crate's `Cargo.toml`, one line in `engine/builtin/games.rs`, and
//! with a UI the UI crate's dependency in `engine/builtin/ui/Cargo.toml`
//! (ARCHITECTURE.md, "Adding a game", lists the data and pages too).

use tessera_host::Registry;

/// Reads the list's plugin types (the UIs are `tessera-builtin-ui`'s).
macro_rules! games {
    ($($game:path $({ $($capability:ident: $value:expr),* $(,)? })? $(=> $ui:expr)?),* $(,)?) => {
        /// Every game shipped with Tessera, with the command-line
        /// capability and the level generator of those that bring one.
        pub fn registry() -> Registry {
            let mut registry = Registry::empty();
            $(
                registry.register::<$game>();
                $($(register!(registry, $game, $capability, $value);)*)?
            )*
            registry
        }
    };
}

/// Registers one capability of the list's `{ name: value }` braces.
macro_rules! register {
    ($registry:ident, $game:path, commands, $value:expr) => {
        $registry.register_commands::<$game>($value)
    };
    ($registry:ident, $game:path, generate, $value:expr) => {
        $registry.register_generator::<$game>($value)
    };
}

include!("../games.rs");
