//! A project folder (`scripts/`, `levels/`) as a running host sees it: the
//! live scripts games hold, and what to do when a file changes on disk.
//!
//! The CLI's `watch` and the editor share this, so a change is reported the
//! same way everywhere:
//! `reloaded PATH` or `error PATH:LINE: message (keeping last good version)`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::check;
use crate::level::{Diagnostic, read_text};
use crate::options::{GameSpec, SessionOptions};
use crate::plugin::GameError;
use crate::registry::{PluginEntry, Registry, ReplayRun, ReplaySetup};
use crate::replay::{ReplayHeader, ScriptChoice};
use crate::script::{LiveScript, Script, ScriptError, ScriptErrorKind, ScriptLimits};
use crate::session::Session;
use crate::sim::figures::{SimLevel, SimOptions};

pub use crate::folders::{LEVELS_DIR, SCRIPTS_DIR};

/// What happened to one changed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeReport {
    /// The file, relative to the project root where possible.
    pub path: PathBuf,
    /// `Ok` when the new version is in use; the error otherwise.
    pub result: Result<(), Diagnostic>,
    /// Whether an earlier good version keeps running after an error.
    pub kept_last_good: bool,
    /// The file is gone (deleted or renamed away).
    pub removed: bool,
}

impl fmt::Display for ChangeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.removed {
            return write!(
                f,
                "removed {} (running games keep the version they have)",
                self.path.display()
            );
        }
        match &self.result {
            Ok(()) => write!(f, "reloaded {}", self.path.display()),
            Err(e) if self.kept_last_good => write!(f, "error {e} (keeping last good version)"),
            Err(e) => write!(f, "error {e}"),
        }
    }
}

/// A project on disk plus the scripts loaded from it.
pub struct Project {
    root: PathBuf,
    registry: Registry,
    limits: ScriptLimits,
    /// Loaded scripts by absolute path; games hold clones of these slots.
    scripts: BTreeMap<PathBuf, LiveScript>,
}

impl Project {
    /// Opens the project at `root` with the given plugins.
    pub fn open(root: &Path, registry: Registry) -> std::io::Result<Self> {
        Ok(Self {
            root: root.canonicalize()?,
            registry,
            limits: ScriptLimits::default(),
            scripts: BTreeMap::new(),
        })
    }

    /// The nearest folder at or above `start` holding `scripts/` or
    /// `levels/`; `start` itself when none does.
    pub fn discover(start: &Path) -> PathBuf {
        crate::folders::project_root(start)
    }

    /// The project folder (absolute).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The plugins.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Script limits used for every load.
    pub fn limits(&self) -> ScriptLimits {
        self.limits
    }

    /// Changes the script limits for later loads.
    pub fn set_limits(&mut self, limits: ScriptLimits) {
        self.limits = limits;
    }

    /// The folders a watcher should watch.
    pub fn watched_folders(&self) -> Vec<PathBuf> {
        vec![self.root.join(SCRIPTS_DIR), self.root.join(LEVELS_DIR)]
    }

    /// `path` relative to the root, for messages.
    pub fn display_path(&self, path: &Path) -> PathBuf {
        let absolute = self.absolute(path);
        absolute
            .strip_prefix(&self.root)
            .map(Path::to_path_buf)
            .unwrap_or(absolute)
    }

    /// `path` made absolute against the root.
    pub fn absolute(&self, path: &Path) -> PathBuf {
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.root.join(path)
        }
    }

    /// The default script of a game: `scripts/<id>.lua`.
    pub fn game_script_path(&self, game: &str) -> PathBuf {
        self.root.join(SCRIPTS_DIR).join(format!("{game}.lua"))
    }

    /// The live slot of the script at `path`, loading it on first use.
    pub fn script(&mut self, path: &Path) -> Result<LiveScript, ScriptError> {
        let absolute = self.absolute(path);
        if let Some(live) = self.scripts.get(&absolute) {
            return Ok(live.clone());
        }
        let script = self.load_script(&absolute)?;
        let live = LiveScript::new(script);
        self.scripts.insert(absolute, live.clone());
        Ok(live)
    }

    /// Starts a session of `game` on a level file (or the default level),
    /// with the game's live script.
    pub fn start_session(
        &mut self,
        game: &str,
        level: Option<&Path>,
        seed: u64,
        options: &SessionOptions,
    ) -> Result<Box<dyn Session>, GameError> {
        let entry = self.entry(game)?;
        let script = self.script(&self.game_script_path(game))?;
        let level = level.map(|l| self.absolute(l));
        let mut session = entry
            .start(level.as_deref(), script, seed, options)
            .map_err(|e| match e {
                GameError::Level(d) => {
                    let display = self.display_path(&d.path);
                    GameError::Level(d.in_file(&display))
                }
                other => other,
            })?;
        let inside = level
            .as_deref()
            .and_then(|l| l.strip_prefix(&self.root).ok());
        session.set_level_path(inside.map(|p| p.display().to_string()));
        Ok(session)
    }

    /// Starts a simulated game of `game` ([`crate::sim`]): the same start
    /// as [`Project::start_session`] (level read with the cap and
    /// diagnosed, script checked, options resolved), on the simulation's
    /// level, then prepared for the simulation: unrecorded, with the
    /// game's own settings when it registered them
    /// ([`SessionSim::sim_setup`](crate::session::SessionSim::sim_setup)).
    pub fn start_sim_session(
        &mut self,
        game: &str,
        level: &SimLevel,
        seed: u64,
        options: &SessionOptions,
        sim: &SimOptions,
    ) -> Result<Box<dyn Session>, GameError> {
        let entry = self.entry(game)?;
        let script = self.script(&self.game_script_path(game))?;
        let level = match level {
            SimLevel::File(path) => SimLevel::File(self.absolute(path)),
            other => other.clone(),
        };
        let mut session = entry
            .start_sim(&level, script, seed, options)
            .map_err(|e| match e {
                GameError::Level(d) => {
                    let display = self.display_path(&d.path);
                    GameError::Level(d.in_file(&display))
                }
                other => other,
            })?;
        if let SimLevel::File(path) = &level {
            let inside = path.strip_prefix(&self.root).ok();
            session.set_level_path(inside.map(|p| p.display().to_string()));
        }
        session.stop_recording();
        if let Some(game_sim) = session.sim_mut() {
            game_sim.sim_setup(sim)?;
        }
        Ok(session)
    }

    /// The mode and seats the level file asks for (none for the default
    /// level or a file that does not read).
    pub fn level_options(&self, game: &str, level: Option<&Path>) -> SessionOptions {
        let (Ok(entry), Some(level)) = (self.entry(game), level) else {
            return SessionOptions::default();
        };
        let path = self.absolute(level);
        match crate::level::read_text(&path) {
            Ok(text) => entry.level_options(&text, &path),
            Err(_) => SessionOptions::default(),
        }
    }

    /// What `game` offers (modes, seats, AI levels) with its current script.
    pub fn spec(&mut self, game: &str) -> Result<GameSpec, GameError> {
        let entry = self.entry(game)?;
        let script = self.script(&self.game_script_path(game))?;
        entry.spec(&script.current())
    }

    /// Runs a replay file (`.replay.ron`) with the script and level `setup`
    /// asks for; the notes say which were used.
    pub fn replay(&mut self, path: &Path, setup: &ReplaySetup) -> Result<ReplayRun, GameError> {
        let absolute = self.absolute(path);
        let display = self.display_path(&absolute);
        let text = read_text(&absolute).map_err(|e| Diagnostic {
            path: display.clone(),
            ..e
        })?;
        let header: ReplayHeader = crate::level::parse_ron(&text, &display)?;
        let entry = self.entry(&header.game)?;
        let script = match (setup.script, &header.script) {
            // Run with its recorded script, a replay is self-contained: the
            // project's current script may be missing or broken.
            (ScriptChoice::Recorded, Some(recorded)) => {
                let schema = entry.script_schema();
                LiveScript::new(crate::replay::load_recorded_script(
                    recorded,
                    &schema,
                    self.limits,
                    &text,
                    &display,
                )?)
            }
            _ => self.script(&self.game_script_path(&header.game))?,
        };
        let root = self.root.clone();
        entry.replay(&text, &display, script, &root, setup)
    }

    fn entry(&self, game: &str) -> Result<PluginEntry, GameError> {
        self.registry.get(game).cloned().ok_or_else(|| {
            let known: Vec<&str> = self.registry.iter().map(|e| e.id).collect();
            GameError::Invalid(format!(
                "unknown game `{game}` (known: {})",
                known.join(", ")
            ))
        })
    }

    /// Reacts to changed files: scripts are reloaded (swapped into running
    /// games when they validate), levels are re-validated.
    pub fn handle_changes(&mut self, paths: &[PathBuf]) -> Vec<ChangeReport> {
        paths.iter().map(|p| self.handle_change(p)).collect()
    }

    /// Reacts to one changed file.
    pub fn handle_change(&mut self, path: &Path) -> ChangeReport {
        let absolute = self.absolute(path);
        let display = self.display_path(&absolute);
        let is_script = matches!(
            absolute.extension().and_then(|e| e.to_str()),
            Some("lua" | "luau")
        );
        if !absolute.exists() {
            return ChangeReport {
                path: display,
                result: Ok(()),
                kept_last_good: true,
                removed: true,
            };
        }
        if !is_script {
            let diagnostics = check::check_file(&self.registry, &absolute, self.limits);
            let result = match diagnostics.into_iter().find(Diagnostic::is_error) {
                Some(error) => Err(Diagnostic {
                    path: display.clone(),
                    ..error
                }),
                None => Ok(()),
            };
            return ChangeReport {
                path: display,
                result,
                kept_last_good: false,
                removed: false,
            };
        }
        let live = self.scripts.get(&absolute).cloned();
        match self.load_script(&absolute) {
            Ok(script) => {
                match live {
                    Some(live) => live.replace(script),
                    None => {
                        self.scripts.insert(absolute, LiveScript::new(script));
                    }
                }
                ChangeReport {
                    path: display,
                    result: Ok(()),
                    kept_last_good: false,
                    removed: false,
                }
            }
            Err(error) => ChangeReport {
                path: display,
                result: Err(error.into()),
                kept_last_good: live.is_some(),
                removed: false,
            },
        }
    }

    /// Loads a script, validated against its game's schema when the game is
    /// known; errors name the file relative to the root.
    fn load_script(&self, absolute: &Path) -> Result<Script, ScriptError> {
        let display = self.display_path(absolute);
        let source = crate::level::read_text_capped(absolute, crate::script::MAX_SOURCE_BYTES)
            .map_err(|e| ScriptError {
                line: e.line,
                ..ScriptError::new(&display, ScriptErrorKind::Io, e.message)
            })?;
        let script = Script::load(&display, &source, None, self.limits)?;
        check::validate_for_game(&self.registry, absolute, &script)?;
        Ok(script)
    }
}
