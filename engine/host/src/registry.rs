//! The list of game plugins the CLI and the editor know about.

use std::path::Path;

use crate::generate::LevelGenerator;
use crate::level::{Diagnostic, LevelFile, parse_diagnosed, parse_ron, read_text};
use crate::options::{GameSpec, SessionOptions};
use crate::plugin::{GameError, Plugin, Setup};
use crate::replay::{LevelChoice, Replay, ScriptChoice};
use crate::script::{LiveScript, Script, ScriptError, ScriptSchema};
use crate::session::{Recorded, Session};
use crate::sim::figures::{SimLevel, SimOptionSpec, SimStyle};

/// A started session, or why it could not start.
pub type SessionResult = Result<Box<dyn Session>, GameError>;

/// How to run a replay file.
#[derive(Debug, Clone, Default)]
pub struct ReplaySetup {
    /// Which script: the recorded text or the project's current file.
    pub script: ScriptChoice,
    /// Which level: the inline copy or the project's current file.
    pub level: LevelChoice,
    /// Play only the first N steps (the editor opens a replay at a step).
    pub stop_after: Option<usize>,
}

/// A replay that ran, and what it ran with.
pub struct ReplayRun {
    /// The session after the replayed steps.
    pub session: Box<dyn Session>,
    /// Which script and level it used, in words (`script: current
    /// scripts/sand.lua (differs from the recorded one)`).
    pub notes: Vec<String>,
}

/// A plugin as the host sees it: its names and type-erased entry points,
/// grouped by the capability they come from (see [`crate::plugin`]).
#[derive(Clone)]
pub struct PluginEntry {
    /// Plugin id (`sand`, `polycube`, ...).
    pub id: &'static str,
    /// Human title.
    pub title: &'static str,
    play: PlayFns,
    levels: LevelFns,
    script: ScriptFns,
    sim: SimFns,
}

/// How a session of the game starts and replays ([`crate::plugin::Game`],
/// the spec of [`crate::plugin::Players`]).
#[derive(Clone)]
struct PlayFns {
    spec: fn(&Script) -> Result<GameSpec, GameError>,
    start: fn(Option<&Path>, LiveScript, u64, &SessionOptions) -> SessionResult,
    parse_actions: fn(&str, &Path) -> Result<Vec<String>, Diagnostic>,
    replay: fn(&str, &Path, LiveScript, &Path, &ReplaySetup) -> Result<ReplayRun, GameError>,
}

/// The game's level files ([`crate::plugin::LevelFormats`]).
#[derive(Clone)]
struct LevelFns {
    extensions: &'static [&'static str],
    check: fn(&str, &Path, Option<LiveScript>) -> Vec<Diagnostic>,
    template: fn() -> String,
    name_field: Option<&'static str>,
    options: fn(&str, &Path) -> SessionOptions,
}

/// The game's script ([`crate::plugin::Scripted`]).
#[derive(Clone)]
struct ScriptFns {
    default_script: Option<&'static str>,
    schema: fn() -> ScriptSchema,
    check: fn(&Script) -> Result<(), ScriptError>,
}

/// The game's simulations ([`crate::plugin::Simulated`]).
#[derive(Clone)]
struct SimFns {
    style: SimStyle,
    options: &'static [SimOptionSpec],
    start: fn(&SimLevel, LiveScript, u64, &SessionOptions) -> SessionResult,
}

impl PluginEntry {
    /// The entry for game `G`.
    pub fn of<G: Plugin>() -> Self {
        Self {
            id: G::ID,
            title: G::TITLE,
            play: PlayFns {
                spec: G::spec,
                start: start_erased::<G>,
                parse_actions: parse_actions_erased::<G>,
                replay: replay_erased::<G>,
            },
            levels: LevelFns {
                extensions: G::LEVEL_EXTENSIONS,
                check: check_level_erased::<G>,
                template: level_template_erased::<G>,
                name_field: <G::Level as LevelFile>::NAME_FIELD,
                options: level_options_erased::<G>,
            },
            script: ScriptFns {
                default_script: G::DEFAULT_SCRIPT,
                schema: G::script_schema,
                check: G::check_script,
            },
            sim: SimFns {
                style: G::SIM_STYLE,
                options: G::SIM_OPTIONS,
                start: start_sim_erased::<G>,
            },
        }
    }

    /// File extensions the game's levels come in.
    pub fn level_extensions(&self) -> &'static [&'static str] {
        self.levels.extensions
    }

    /// The game's documented default script, if it ships one.
    pub fn default_script(&self) -> Option<&'static str> {
        self.script.default_script
    }

    /// The RON text of a new level (the game's default level), the
    /// starting point of "New level" in the editor.
    pub fn level_template(&self) -> String {
        (self.levels.template)()
    }

    /// The level field that holds a level's human name
    /// ([`LevelFile::NAME_FIELD`]: `name` or `title`; `None` when its
    /// levels have no name).
    pub fn level_name_field(&self) -> Option<&'static str> {
        self.levels.name_field
    }

    /// What the game's script must return.
    pub fn script_schema(&self) -> ScriptSchema {
        (self.script.schema)()
    }

    /// The modes, seats and AI levels the game offers with this script.
    pub fn spec(&self, script: &Script) -> Result<GameSpec, GameError> {
        (self.play.spec)(script)
    }

    /// Starts a session on the level file at `level` (or the game's default
    /// level when `None`).
    pub fn start(
        &self,
        level: Option<&Path>,
        script: LiveScript,
        seed: u64,
        options: &SessionOptions,
    ) -> Result<Box<dyn Session>, GameError> {
        (self.play.start)(level, script, seed, options)
    }

    /// Starts a simulated game on `level` (a file, a level's text, or the
    /// game's simulation board, [`Simulated::sim_level`](crate::plugin::Simulated::sim_level)); the caller then
    /// prepares it ([`SessionSim::begin_sim`](crate::session::SessionSim::begin_sim)).
    pub fn start_sim(
        &self,
        level: &SimLevel,
        script: LiveScript,
        seed: u64,
        options: &SessionOptions,
    ) -> Result<Box<dyn Session>, GameError> {
        (self.sim.start)(level, script, seed, options)
    }

    /// How the game's simulations are set up ([`Simulated::SIM_STYLE`](crate::plugin::Simulated::SIM_STYLE)).
    pub fn sim_style(&self) -> SimStyle {
        self.sim.style
    }

    /// The options the game's simulations take ([`Simulated::SIM_OPTIONS`](crate::plugin::Simulated::SIM_OPTIONS)).
    pub fn sim_options(&self) -> &'static [SimOptionSpec] {
        self.sim.options
    }

    /// The mode and seats a level asks for ([`LevelFormats::level_options`](crate::plugin::LevelFormats::level_options)); none
    /// when the text does not read as a level (starting it says why).
    pub fn level_options(&self, text: &str, path: &Path) -> SessionOptions {
        (self.levels.options)(text, path)
    }

    /// Every finding about a level file's text (empty when it is fine).
    pub fn check_level(&self, text: &str, path: &Path) -> Vec<Diagnostic> {
        (self.levels.check)(text, path, None)
    }

    /// [`PluginEntry::check_level`], then, when the level is fine, a game
    /// start on it with `script`: what the level needs from the script (a
    /// board letter in the palette) is checked as `play` checks it.
    pub fn check_level_with(&self, text: &str, path: &Path, script: LiveScript) -> Vec<Diagnostic> {
        (self.levels.check)(text, path, Some(script))
    }

    /// The one semantic check of a script for this game: the schema (types
    /// and ranges), then every setting the game reads at start, all under
    /// the script's budget. `check`, `watch`, the editor and game start run
    /// this same check.
    pub fn validate_script(&self, script: &Script) -> Result<(), ScriptError> {
        script.validate(&self.script_schema())?;
        script.guarded(|| (self.script.check)(script))
    }

    /// Reads an action file (a RON list of the game's actions) into one
    /// RON text per action, for [`SessionPlay::apply_ron`](crate::session::SessionPlay::apply_ron); errors name the
    /// line and column.
    pub fn parse_actions(&self, text: &str, path: &Path) -> Result<Vec<String>, Diagnostic> {
        (self.play.parse_actions)(text, path)
    }

    /// Runs a RON replay file's text. `current_script` is the project's
    /// live script (used or not, per `setup`); `root` resolves the
    /// replay's level path.
    pub fn replay(
        &self,
        text: &str,
        path: &Path,
        current_script: LiveScript,
        root: &Path,
        setup: &ReplaySetup,
    ) -> Result<ReplayRun, GameError> {
        (self.play.replay)(text, path, current_script, root, setup)
    }
}

impl std::fmt::Debug for PluginEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PluginEntry")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

fn start_erased<G: Plugin>(
    level: Option<&Path>,
    script: LiveScript,
    seed: u64,
    options: &SessionOptions,
) -> Result<Box<dyn Session>, GameError> {
    let Some(path) = level else {
        return Ok(Box::new(Recorded::<G>::start(
            G::Level::default(),
            script,
            seed,
            options,
        )?));
    };
    let text = read_text(path)?;
    start_from_text::<G>(&text, path, script, seed, options)
}

/// Starts `G` on a level's text read from `path` (diagnosed, located).
fn start_from_text<G: Plugin>(
    text: &str,
    path: &Path,
    script: LiveScript,
    seed: u64,
    options: &SessionOptions,
) -> Result<Box<dyn Session>, GameError> {
    let level = read_diagnosed::<G>(text, path)?;
    match Recorded::<G>::start(level.clone(), script.clone(), seed, options) {
        Ok(session) => Ok(Box::new(session)),
        // Seats the level asks for that the game does not offer: the
        // level's fault, at its line, as `check` says.
        Err(GameError::Invalid(why)) => Err(
            match level_options_problem::<G>(&level, text, path, &script) {
                Some(problem) => GameError::Level(problem),
                None => GameError::Invalid(why),
            },
        ),
        // What the level needs from the script (a palette letter) is found
        // at start: name the level file and the line.
        Err(GameError::Level(error)) => Err(GameError::Level(G::locate_finding(
            error.in_file(path),
            text,
            path,
        ))),
        Err(other) => Err(other),
    }
}

/// Why the mode and seats a level asks for cannot be played (seats too few
/// or too many, an AI level the script does not have), at the level's
/// line: `check` and a game start refuse the same levels with the same words.
fn level_options_problem<G: Plugin>(
    level: &G::Level,
    text: &str,
    path: &Path,
    script: &LiveScript,
) -> Option<Diagnostic> {
    let wanted = G::level_options(level);
    if wanted.mode.is_none() && wanted.seats.is_empty() {
        return None;
    }
    let spec = G::spec(&script.current()).ok()?;
    let defaults = crate::session::with_level_defaults::<G>(level, &SessionOptions::default());
    let error = spec.resolve(&defaults).err()?;
    let field = if wanted.seats.is_empty() {
        "mode"
    } else {
        "seats"
    };
    let finding = Diagnostic::error(path, error.to_string()).at(field);
    Some(G::locate_finding(finding, text, path))
}

fn start_sim_erased<G: Plugin>(
    level: &SimLevel,
    script: LiveScript,
    seed: u64,
    options: &SessionOptions,
) -> Result<Box<dyn Session>, GameError> {
    match level {
        SimLevel::Default => {
            // The simulation's board may depend on the mode (tetris).
            let resolved = G::spec(&script.current())?.resolve(options)?;
            let level = G::sim_level(&resolved).unwrap_or_default();
            Ok(Box::new(Recorded::<G>::start(
                level, script, seed, options,
            )?))
        }
        SimLevel::File(path) => start_erased::<G>(Some(path), script, seed, options),
        SimLevel::Text { path, text } => start_from_text::<G>(text, path, script, seed, options),
    }
}

fn level_options_erased<G: Plugin>(text: &str, path: &Path) -> SessionOptions {
    G::read_level(text, path)
        .map(|level| G::level_options(&level))
        .unwrap_or_default()
}

fn level_template_erased<G: Plugin>() -> String {
    let config = ron::ser::PrettyConfig::default().struct_names(false);
    let body = ron::ser::to_string_pretty(&G::Level::default(), config)
        .unwrap_or_else(|e| format!("// the default level did not serialise: {e}\n()"));
    format!("// A new {} level.\n{body}\n", G::TITLE)
}

/// Reads a level in any of `G`'s formats and refuses it when its diagnosis
/// holds an error (located at the offending value's line).
fn read_diagnosed<G: Plugin>(text: &str, path: &Path) -> Result<G::Level, Diagnostic> {
    let level = G::read_level(text, path)?;
    match located_findings::<G>(&level, text, path)
        .into_iter()
        .find(Diagnostic::is_error)
    {
        Some(error) => Err(error),
        None => Ok(level),
    }
}

/// Every finding of a level's diagnosis, naming `path` and located in `text`.
fn located_findings<G: Plugin>(level: &G::Level, text: &str, path: &Path) -> Vec<Diagnostic> {
    level
        .diagnose()
        .into_iter()
        .map(|d| G::locate_finding(d.in_file(path), text, path))
        .collect()
}

/// Parses a level and refuses it when its diagnosis holds an error (located
/// at the offending value's line).
pub fn load_checked<L: LevelFile>(text: &str, path: &Path) -> Result<L, Diagnostic> {
    parse_diagnosed(text, path).map(|(level, _warnings)| level)
}

fn check_level_erased<G: Plugin>(
    text: &str,
    path: &Path,
    script: Option<LiveScript>,
) -> Vec<Diagnostic> {
    let level = match G::read_level(text, path) {
        Ok(level) => level,
        Err(error) => return vec![error],
    };
    let findings = located_findings::<G>(&level, text, path);
    let Some(script) = script.filter(|_| !findings.iter().any(Diagnostic::is_error)) else {
        return findings;
    };
    match G::start(Setup::new(level.clone(), script.clone(), 0)) {
        // The game starts on the level; the seats it asks for are checked
        // as a start from the level file resolves them.
        Ok(_) => match level_options_problem::<G>(&level, text, path, &script) {
            Some(problem) => vec![problem],
            None => findings,
        },
        Err(GameError::Level(error)) => vec![G::locate_finding(error.in_file(path), text, path)],
        Err(GameError::Script(error)) => vec![error.into()],
        Err(other) => vec![Diagnostic::error(path, other.to_string())],
    }
}

fn parse_actions_erased<G: Plugin>(text: &str, path: &Path) -> Result<Vec<String>, Diagnostic> {
    // Capped while parsing: 3 million actions would cost half a GiB.
    let crate::replay::Capped(actions) = parse_ron::<crate::replay::Capped<G::Action>>(text, path)?;
    actions
        .iter()
        .map(|a| {
            ron::to_string(a)
                .map_err(|e| Diagnostic::error(path, format!("cannot write action: {e}")))
        })
        .collect()
}

fn replay_erased<G: Plugin>(
    text: &str,
    path: &Path,
    current_script: LiveScript,
    root: &Path,
    setup: &ReplaySetup,
) -> Result<ReplayRun, GameError> {
    let mut replay: Replay<G::Level, G::Action> = parse_ron(text, path)?;
    let mut notes = Vec::new();
    if let Some(recorded) = &replay.script {
        crate::replay::check_script_hash(recorded, text, path)?;
    }

    let current = current_script.current();
    let current_hash = current.content_hash();
    let script = match (&replay.script, setup.script) {
        (Some(recorded), ScriptChoice::Recorded) => {
            let schema = G::script_schema();
            let script = crate::replay::load_recorded_script(
                recorded,
                &schema,
                current.limits(),
                text,
                path,
            )?;
            notes.push(format!("script: recorded {}", recorded.path));
            LiveScript::new(script)
        }
        (recorded, choice) => {
            let status = match recorded {
                None => "the replay records no script",
                Some(r) if r.hash == current_hash => "same as recorded",
                Some(_) => "differs from the recorded one",
            };
            let forced = if choice == ScriptChoice::Recorded {
                " (asked for the recorded one)"
            } else {
                ""
            };
            notes.push(format!(
                "script: current {} ({status}){forced}",
                current.path().display()
            ));
            current_script
        }
    };

    if setup.level == LevelChoice::Current
        && let Some(level_path) = &replay.level_path
    {
        let file = crate::replay::level_file_inside(root, level_path, text, path)?;
        let text = read_text(&file)?;
        let level = load_checked::<G::Level>(&text, &file)?;
        let same = ron::to_string(&level).ok() == ron::to_string(&replay.level).ok();
        notes.push(format!(
            "level: current {level_path} ({})",
            if same {
                "same as recorded"
            } else {
                "differs from the recorded one"
            }
        ));
        replay.level = level;
    } else {
        // The inline level is diagnosed like a level file, its findings
        // named at the replay's lines.
        if let Some(error) = replay
            .level
            .diagnose()
            .into_iter()
            .find(Diagnostic::is_error)
        {
            return Err(crate::replay::level_finding_in_replay(error, text, path).into());
        }
        notes.push("level: recorded (inline)".into());
    }

    let apply_reloads = setup.script == ScriptChoice::Recorded;
    let session = Recorded::<G>::from_replay(replay, script, apply_reloads, setup.stop_after)
        .map_err(|error| crate::replay::located_replay_error(error, text, path))?;
    Ok(ReplayRun {
        session: Box::new(session),
        notes,
    })
}

/// The set of plugins, and the level generators they registered.
#[derive(Clone, Default)]
pub struct Registry {
    entries: Vec<PluginEntry>,
    generators: Vec<(&'static str, &'static dyn LevelGenerator)>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("entries", &self.entries)
            .field(
                "generators",
                &self.generators.iter().map(|(id, _)| id).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Registry {
    /// No plugins (tests add their own).
    pub fn empty() -> Self {
        Self::default()
    }

    /// A registry of `G` alone (a game's UI opening projects on worker
    /// threads and in its tests needs no other game).
    pub fn of<G: Plugin>() -> Self {
        let mut registry = Self::empty();
        registry.register::<G>();
        registry
    }

    /// Adds `G`; a later registration of the same id replaces the earlier.
    pub fn register<G: Plugin>(&mut self) -> &mut Self {
        self.entries.retain(|e| e.id != G::ID);
        self.entries.push(PluginEntry::of::<G>());
        self
    }

    /// Adds game `G`'s level generator (`tessera generate`, the editor's
    /// Generate…); a later one for the same game replaces it.
    pub fn register_generator<G: Plugin>(
        &mut self,
        generator: &'static dyn LevelGenerator,
    ) -> &mut Self {
        self.generators.retain(|(id, _)| *id != G::ID);
        self.generators.push((G::ID, generator));
        self
    }

    /// The level generator of game `id`, when it brings one.
    pub fn generator(&self, id: &str) -> Option<&'static dyn LevelGenerator> {
        self.generators
            .iter()
            .find(|(game, _)| *game == id)
            .map(|(_, generator)| *generator)
    }

    /// Every game that brings a level generator, with it, in registration
    /// order.
    pub fn generators(
        &self,
    ) -> impl Iterator<Item = (&'static str, &'static dyn LevelGenerator)> + '_ {
        self.generators.iter().copied()
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
