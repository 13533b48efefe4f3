//! The command-line capability a plugin may bring: its own subcommands of
//! `tessera` (clap's builder API), the figures of `tessera bench <group>`,
//! and the merge of its sharded partials (`tessera merge`). The `tessera`
//! shell builds its command line from the [`CommandContext`] the builtin
//! list fills ([`CommandContext::commands`]) and names no game.
//!
//! The commands sit above the registry and the project, not inside the
//! registry: a command runs with the project, which holds the registry, so
//! the registry keeping commands would make the two modules import each
//! other.
//!
//! A command is the edge of the program, so this module speaks `anyhow`
//! (as the shell does); the rules below it keep their typed errors.
//! Exit codes: [`Status::Ok`] 0, [`Status::Failed`] 1, a [`Usage`] error 2,
//! any other error 1.

use std::path::{Path, PathBuf};

use crate::bench::Figure;
use crate::partial::Partial;
use crate::plugin::Plugin;
use crate::project::Project;
use crate::registry::Registry;

/// How a finished command ended, mapped onto the exit-code policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Everything passed (exit 0).
    Ok,
    /// A check or rule failed (exit 1).
    Failed,
}

/// A bad command line (an unknown game, a missing option, a bad value):
/// exit 2. Every other error is about an input file or a rule and exits 1.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// Returns early with a [`Usage`] error (exit 2).
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::command::Usage(format!($($arg)*))))
    };
}

/// What a command runs with: the registry the shell was built from, so a
/// game's command opens the project as the shell's own commands do, and
/// every plugin's command-line capability.
pub struct CommandContext {
    registry: Registry,
    commands: Vec<(&'static str, &'static dyn GameCommands)>,
}

impl CommandContext {
    /// A context over `registry` with no plugin's commands yet (the shell
    /// gets the builtin list's, `tessera_builtin::command_context`).
    pub fn new(registry: Registry) -> Self {
        Self {
            registry,
            commands: Vec::new(),
        }
    }

    /// The registry of every plugin.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Adds game `G`'s command-line capability (its subcommands, bench
    /// groups and merges); a later one for the same game replaces it.
    pub fn register_commands<G: Plugin>(
        &mut self,
        commands: &'static dyn GameCommands,
    ) -> &mut Self {
        self.commands.retain(|(id, _)| *id != G::ID);
        self.commands.push((G::ID, commands));
        self
    }

    /// Every plugin's command-line capability, in registration order.
    pub fn commands(&self) -> impl Iterator<Item = &'static dyn GameCommands> + '_ {
        self.commands.iter().map(|(_, commands)| *commands)
    }

    /// The project the current folder belongs to.
    pub fn current_project(&self) -> anyhow::Result<Project> {
        let cwd = std::env::current_dir()?;
        self.open_project(&Project::discover(&cwd))
    }

    /// Opens the project at `root`.
    pub fn open_project(&self, root: &Path) -> anyhow::Result<Project> {
        Project::open(root, self.registry.clone())
            .map_err(|e| anyhow::anyhow!("cannot open project {}: {e}", root.display()))
    }
}

/// A named group of `tessera bench` figures and the function measuring them.
#[derive(Clone, Copy)]
pub struct BenchGroup {
    /// The group's name (`tessera bench NAME` runs it alone).
    pub name: &'static str,
    /// Its place among all groups in `tessera bench`'s output, lowest
    /// first (the order the figures were first published in: the host's
    /// `script` 0, polycube 1, sand 2, tetris 3, azul 4; a new game takes
    /// the next free number).
    pub order: u32,
    /// Measures the group's figures.
    pub figures: fn(&CommandContext) -> anyhow::Result<Vec<Figure>>,
}

/// Partials read by `tessera merge`, each with the file it came from.
pub type NamedPartials = [(PathBuf, Partial)];

/// A plugin's command-line capability, registered beside its game
/// ([`CommandContext::register_commands`]); a plugin implements what it brings
/// (subcommands, bench groups, merges) and leaves the rest to the defaults.
pub trait GameCommands: Sync {
    /// The top-level subcommands this plugin adds, built with clap's
    /// builder API (a derived `Args` gives one through
    /// `clap::Args::augment_args`).
    fn commands(&self) -> Vec<clap::Command> {
        Vec::new()
    }

    /// Runs subcommand `name` (one of [`GameCommands::commands`]) with the
    /// matches clap parsed for it.
    fn run(
        &self,
        name: &str,
        _matches: &clap::ArgMatches,
        _context: &CommandContext,
    ) -> anyhow::Result<Status> {
        anyhow::bail!("no command `{name}`")
    }

    /// The plugin's `tessera bench` groups, in the order printed.
    fn bench_groups(&self) -> &'static [BenchGroup] {
        &[]
    }

    /// Whether a partial's `command` is one of this plugin's (its
    /// partials are merged by [`GameCommands::merge`]).
    fn owns_partial(&self, _command: &str) -> bool {
        false
    }

    /// Why `other` cannot be merged with `first`, both this plugin's
    /// partials, when the plugin knows better words than the host's
    /// field-by-field comparison (which runs after).
    fn partial_mismatch(&self, _first: &Partial, _other: &Partial) -> Option<String> {
        None
    }

    /// Merges the shards of one of this plugin's commands (already checked
    /// to belong together: one command, input, options, every shard once)
    /// and prints the result as the unsharded command does. `context` is
    /// the project, for a merge that replays a shard's result through the
    /// game before trusting it.
    fn merge(
        &self,
        partials: &NamedPartials,
        _json: bool,
        _context: &CommandContext,
    ) -> anyhow::Result<Status> {
        let command = partials.first().map_or("", |(_, p)| p.command.as_str());
        anyhow::bail!("no merge for `{command}` partials")
    }
}
