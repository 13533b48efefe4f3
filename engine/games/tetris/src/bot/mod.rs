//! The Tetris bot: everything that plays the game rather than defines it
//! (issue #48). Its evaluator and searches ([`ai`]), the agents the host
//! hands decisions to ([`agents`]), the campaign sweep ([`campaign`]) and
//! the `tessera tetris ...` commands ([`cli`]).
//!
//! The bot reads the rules (`crate::board`, `crate::piece`, ...); no rules
//! module names `crate::bot` (the crate's test
//! `rules_modules_never_name_the_bot` holds it), except the marked
//! hand-over in `lib.rs`, which a later step moves to the host's registrar
//! so that this folder becomes a crate of its own.

pub mod agents;
pub mod ai;
pub mod campaign;
pub mod cli;
pub mod feed;
pub mod memory;
