//! The list of game plugins the CLI and the editor know about.

use std::path::Path;

use crate::level::{Diagnostic, LevelFile, parse_level, parse_ron, read_text};
use crate::plugin::{Game, GameError, Recorded, Session};
use crate::replay::Replay;
use crate::script::{LiveScript, ScriptSchema};

/// A started session, or why it could not start.
pub type SessionResult = Result<Box<dyn Session>, GameError>;

/// A plugin as the host sees it: its names and type-erased entry points.
#[derive(Clone)]
pub struct PluginEntry {
    /// Plugin id (`sand`, `polycube`, ...).
    pub id: &'static str,
    /// Human title.
    pub title: &'static str,
    schema: fn() -> ScriptSchema,
    start: fn(Option<&Path>, LiveScript, u64) -> SessionResult,
    check_level: fn(&str, &Path) -> Vec<Diagnostic>,
    replay: fn(&str, &Path, LiveScript) -> SessionResult,
}

impl PluginEntry {
    /// The entry for game `G`.
    pub fn of<G: Game>() -> Self {
        Self {
            id: G::ID,
            title: G::TITLE,
            schema: G::script_schema,
            start: start_erased::<G>,
            check_level: check_level_erased::<G>,
            replay: replay_erased::<G>,
        }
    }

    /// What the game's script must return.
    pub fn script_schema(&self) -> ScriptSchema {
        (self.schema)()
    }

    /// Starts a session on the level file at `level` (or the game's default
    /// level when `None`).
    pub fn start(
        &self,
        level: Option<&Path>,
        script: LiveScript,
        seed: u64,
    ) -> Result<Box<dyn Session>, GameError> {
        (self.start)(level, script, seed)
    }

    /// Every finding about a level file's text (empty when it is fine).
    pub fn check_level(&self, text: &str, path: &Path) -> Vec<Diagnostic> {
        (self.check_level)(text, path)
    }

    /// Replays a RON replay file's text.
    pub fn replay(
        &self,
        text: &str,
        path: &Path,
        script: LiveScript,
    ) -> Result<Box<dyn Session>, GameError> {
        (self.replay)(text, path, script)
    }
}

impl std::fmt::Debug for PluginEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PluginEntry")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

fn start_erased<G: Game>(
    level: Option<&Path>,
    script: LiveScript,
    seed: u64,
) -> Result<Box<dyn Session>, GameError> {
    let level = match level {
        Some(path) => {
            let text = read_text(path)?;
            load_checked::<G::Level>(&text, path)?
        }
        None => G::Level::default(),
    };
    Ok(Box::new(Recorded::<G>::start(level, script, seed)?))
}

/// Parses a level and refuses it when its diagnosis holds an error.
fn load_checked<L: LevelFile>(text: &str, path: &Path) -> Result<L, Diagnostic> {
    let level: L = parse_level(text, path)?;
    if let Some(error) = level.diagnose().into_iter().find(Diagnostic::is_error) {
        return Err(Diagnostic {
            path: path.to_path_buf(),
            ..error
        });
    }
    Ok(level)
}

fn check_level_erased<G: Game>(text: &str, path: &Path) -> Vec<Diagnostic> {
    match parse_level::<G::Level>(text, path) {
        Ok(level) => level
            .diagnose()
            .into_iter()
            .map(|d| Diagnostic {
                path: path.to_path_buf(),
                ..d
            })
            .collect(),
        Err(error) => vec![error],
    }
}

fn replay_erased<G: Game>(
    text: &str,
    path: &Path,
    script: LiveScript,
) -> Result<Box<dyn Session>, GameError> {
    let replay: Replay<G::Level, G::Action> = parse_ron(text, path)?;
    Ok(Box::new(Recorded::<G>::from_replay(replay, script)?))
}

/// The set of plugins.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    entries: Vec<PluginEntry>,
}

impl Registry {
    /// No plugins (tests add their own).
    pub fn empty() -> Self {
        Self::default()
    }

    /// Adds `G`; a later registration of the same id replaces the earlier.
    pub fn register<G: Game>(&mut self) -> &mut Self {
        self.entries.retain(|e| e.id != G::ID);
        self.entries.push(PluginEntry::of::<G>());
        self
    }

    /// The plugin with this id.
    pub fn get(&self, id: &str) -> Option<&PluginEntry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// All plugins, in registration order.
    pub fn iter(&self) -> impl Iterator<Item = &PluginEntry> {
        self.entries.iter()
    }
}
