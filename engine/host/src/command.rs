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
use crate::plugin::Game;
use crate::project::Project;
use crate::registrar::Plugin;
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

    /// Adds game `G` to the registry (a game without commands of its own:
    /// a crate outside this repository adds its game to the built-in
    /// list's context, whose games keep their commands); a later
    /// registration of the same id replaces the earlier.
    pub fn register<G: Plugin>(&mut self) -> &mut Self {
        self.registry.register::<G>();
        self
    }

    /// Adds game `G`'s command-line capability (its subcommands, bench
    /// groups and merges); a later one for the same game replaces it.
    pub fn register_commands<G: Game>(&mut self, commands: &'static dyn GameCommands) -> &mut Self {
        self.commands.retain(|(id, _)| *id != G::ID);
        self.commands.push((G::ID, commands));
        self
    }

    /// Every plugin's command-line capability, in registration order.
    pub fn commands(&self) -> impl Iterator<Item = &'static dyn GameCommands> + '_ {
        self.commands.iter().map(|(_, commands)| *commands)
    }

    /// Game `game`'s command-line capability, when it brings one.
    pub fn commands_of<'a>(
        &'a self,
        game: &'a str,
    ) -> impl Iterator<Item = &'static dyn GameCommands> + 'a {
        self.commands
            .iter()
            .filter(move |(id, _)| *id == game)
            .map(|(_, commands)| *commands)
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

/// A heavy run of one of a plugin's long commands, which the Ctrl+C sweep
/// (`tests/interrupt.rs` at the workspace root) starts in a copy of the
/// project and interrupts at several points: every run must stop within
/// [`crate::job::STOP_WITHIN`], exit 1, say `PARTIAL` or `cancelled`, and
/// leave no temporary file. A plugin lists one for each command or
/// capability of its that can run past a second (solves, generation, the
/// re-proof in `check`, sims, searches).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LongRun {
    /// The command line after `tessera`.
    pub args: Vec<String>,
    /// Files written into the project before the run: path relative to
    /// its root, and text (a script with a larger budget, a heavy level).
    pub files: Vec<(String, String)>,
}

impl LongRun {
    /// A run of `args` in the project as shipped.
    pub fn new(args: &[&str]) -> Self {
        Self {
            args: args.iter().map(|a| a.to_string()).collect(),
            files: Vec::new(),
        }
    }

    /// The run with `text` written at `path` first.
    pub fn with_file(mut self, path: &str, text: impl Into<String>) -> Self {
        self.files.push((path.to_string(), text.into()));
        self
    }
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

    /// Heavy runs of every command of this plugin (and of the shell's
    /// commands on its game: `generate`, `sim`, `check`) that can run
    /// past a second, for the Ctrl+C sweep ([`LongRun`]).
    fn long_runs(&self) -> Vec<LongRun> {
        Vec::new()
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
