//! Tessera's desktop editor: a project tree, script and level tabs with
//! live reload, a console, and a playtest area hosting each game's view.
//!
//! The editor depends on the engine, never the reverse; rules stay in the
//! engine, and game views only draw state and turn input into actions.

pub mod games;
pub mod playtest;
