//! The Tetris bot: everything that plays the game rather than defines it
//! (issue #48), the way Cold Clear keeps its bot apart from libtetris. Its
//! evaluator and searches ([`ai`]), the agents the host hands decisions to
//! ([`agents`]), its checks of scripts, seats and levels ([`feed`]), its
//! memory of each game ([`memory`]), the campaign sweep ([`campaign`]) and
//! the `tessera tetris ...` commands ([`cli`]).
//!
//! The bot reads the rules (`tessera_tetris`); the rules never name the
//! bot, and Cargo holds the direction (`tessera-tetris` does not depend on
//! this crate). The bot joins the game through the host's registrar
//! ([`register`]): the seats and AI levels, the agents, its reading of the
//! script's `ai` table and its checks before a game starts.

use tessera_host::Registry;
use tessera_host::registrar::{Capabilities, Plugin, Registrar};
use tessera_tetris::Tetris;

pub mod agents;
pub mod ai;
pub mod campaign;
pub mod cli;
pub mod feed;
pub mod memory;

/// Registers Tetris with its bot: the rules' own capabilities
/// ([`Plugin::register`]), then the modes, seats and AI levels, the
/// agents (a placer writes the AI log with each decision, except in
/// simulations, where the log would cost more than the decision), the
/// bot's check of the script's `ai` table and its checks before a game
/// starts (the difficulty a seat or a feed level names, the seats feed
/// mode and classic play take).
pub fn register(game: &mut Registrar<Tetris>) {
    Tetris::register(game);
    game.seats(agents::spec)
        .agents(|game: &Tetris, seat, level| {
            agents::make_agent(game, seat, level, !game.in_simulation())
        })
        .script_check(ai::settings::check_ai)
        .start_check(feed::check_start);
}

/// What Tetris with its bot registers (sessions started directly, in
/// tests and tools).
pub fn capabilities() -> Capabilities<Tetris> {
    let mut registrar = Registrar::empty();
    register(&mut registrar);
    registrar.finish().0
}

/// A registry of Tetris with its bot alone.
pub fn registry() -> Registry {
    let mut registry = Registry::empty();
    registry.register_with::<Tetris>(register);
    registry
}

// One test binary per crate: the tests in `tests/` are a module of the
// unit-test binary rather than integration binaries of their own (each would
// link the whole dependency tree again). They name the crate as
// `tessera_tetris_bot`, like outside code, so they exercise only the public API.
#[cfg(test)]
extern crate self as tessera_tetris_bot;
#[cfg(test)]
#[path = "../tests/main.rs"]
mod api_tests;
