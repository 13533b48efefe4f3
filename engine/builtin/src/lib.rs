//! The built-in games, listed once (`engine/builtin/games.rs`). The editor
//! and the test suites start from [`registry`], the CLI from
//! [`command_context`] (the registry and every game's subcommands, bench
//! groups and merges); the host, the CLI shell and the
//! editor shell name no game. Their editor UIs come from the same list
//! through `tessera-builtin-ui`.
//!
//! Adding a game: its crate under `engine/games/<id>/`, its dependency in
//! this crate's `Cargo.toml`, one line in `engine/builtin/games.rs`, and
//! with a UI the UI crate's dependency in `engine/builtin/ui/Cargo.toml`
//! (ARCHITECTURE.md, "Adding a game", lists the data and pages too).

use tessera_host::Registry;
use tessera_host::command::CommandContext;

/// Reads the list's plugin types (the UIs are `tessera-builtin-ui`'s).
macro_rules! games {
    ($($game:path $({ $($capability:ident: $value:expr),* $(,)? })? $(=> $ui:expr)?),* $(,)?) => {
        /// Every game shipped with Tessera, each with what it registers
        /// (its level generator among them).
        pub fn registry() -> Registry {
            let mut registry = Registry::empty();
            $(
                register!(registry, $game $(, $($capability: $value),*)?);
            )*
            registry
        }

        /// What the `tessera` shell runs with: [`registry`] and the
        /// command-line capability of every game that brings one.
        pub fn command_context() -> CommandContext {
            let mut context = CommandContext::new(registry());
            $($($(commands!(context, $game, $capability, $value);)*)?)*
            context
        }
    };
}

/// Adds a game to the registry: by its own `Plugin::register`, or by the
/// list's `registered_by:` function when a crate beside the game adds to
/// it (Tetris's bot: `tessera_tetris_bot::register` registers the rules,
/// then the seats, agents and checks).
macro_rules! register {
    ($registry:ident, $game:path) => {
        $registry.register::<$game>()
    };
    ($registry:ident, $game:path, registered_by: $by:expr $(, $($rest:tt)*)?) => {
        $registry.register_with::<$game>($by)
    };
    ($registry:ident, $game:path, $other:ident: $value:expr $(, $($rest:tt)*)?) => {
        register!($registry, $game $(, $($rest)*)?)
    };
}

/// Registers the list's `commands:` capability with the command context
/// (the other capabilities go elsewhere).
macro_rules! commands {
    ($context:ident, $game:path, commands, $value:expr) => {
        $context.register_commands::<$game>($value)
    };
    ($context:ident, $game:path, $other:ident, $value:expr) => {};
}

include!("../games.rs");
