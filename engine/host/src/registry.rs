//! The list of game plugins the CLI and the editor know about.

use std::path::Path;
use std::sync::Arc;

use crate::generate::LevelGenerator;
use crate::level::{Diagnostic, LevelFile, parse_diagnosed, parse_ron, read_text};
use crate::options::{GameSpec, SessionOptions};
use crate::plugin::{Game, GameError, Setup};
use crate::registrar::{Capabilities, Capability, Plugin, Registrar};
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

/// A plugin as the host sees it: its names, what it registered, and its
/// type-erased entry points (see [`crate::registrar`]).
#[derive(Clone)]
pub struct PluginEntry {
    /// Plugin id (`sand`, `polycube`, ...).
    pub id: &'static str,
    /// Human title.
    pub title: &'static str,
    registered: Vec<Capability>,
    level_extensions: &'static [&'static str],
    level_name_field: Option<&'static str>,
    default_script: Option<&'static str>,
    sim_style: SimStyle,
    sim_options: &'static [SimOptionSpec],
    game: Arc<dyn ErasedGame>,
}

/// A game's entry points with its type erased: how its sessions start and
/// replay, and its level and script checks.
trait ErasedGame: Send + Sync {
    fn spec(&self, script: &Script) -> Result<GameSpec, GameError>;
    fn start(
        &self,
        level: Option<&Path>,
        script: LiveScript,
        seed: u64,
        options: &SessionOptions,
    ) -> SessionResult;
    fn start_sim(
        &self,
        level: &SimLevel,
        script: LiveScript,
        seed: u64,
        options: &SessionOptions,
    ) -> SessionResult;
    fn parse_actions(&self, text: &str, path: &Path) -> Result<Vec<String>, Diagnostic>;
    fn replay(
        &self,
        text: &str,
        path: &Path,
        current_script: LiveScript,
        root: &Path,
        setup: &ReplaySetup,
    ) -> Result<ReplayRun, GameError>;
    fn check_level(&self, text: &str, path: &Path, script: Option<LiveScript>) -> Vec<Diagnostic>;
    fn level_template(&self) -> String;
    fn level_options(&self, text: &str, path: &Path) -> SessionOptions;
    fn script_schema(&self) -> ScriptSchema;
    fn check_script(&self, script: &Script) -> Result<(), ScriptError>;
}

/// Every capability a game may register, for [`PluginEntry::has`].
const CAPABILITIES: [Capability; 7] = [
    Capability::Script,
    Capability::Seats,
    Capability::Agents,
    Capability::LevelFormats,
    Capability::Reports,
    Capability::Moves,
    Capability::Simulation,
];

impl PluginEntry {
    /// The entry for game `G`, with what it registers.
    pub fn of<G: Plugin>() -> Self {
        Self::registered(Capabilities::<G>::of())
    }

    /// The entry for game `G` with `capabilities`.
    pub fn registered<G: Game>(capabilities: Capabilities<G>) -> Self {
        Self {
            id: G::ID,
            title: G::TITLE,
            registered: CAPABILITIES
                .into_iter()
                .filter(|c| capabilities.has(*c))
                .collect(),
            level_extensions: capabilities.level_extensions(),
            level_name_field: <G::Level as LevelFile>::NAME_FIELD,
            default_script: capabilities.default_script(),
            sim_style: capabilities.sim_style(),
            sim_options: capabilities.sim_options(),
            game: Arc::new(Erased(Arc::new(capabilities))),
        }
    }

    /// Whether the game registered `capability`.
    pub fn has(&self, capability: Capability) -> bool {
        self.registered.contains(&capability)
    }

    /// `Ok` when the game registered `capability`; else the plain refusal
    /// a command that needs it prints (`sand has no AI seats`).
    pub fn require(&self, capability: Capability) -> Result<(), String> {
        if self.has(capability) {
            Ok(())
        } else {
            Err(format!("{} has no {capability}", self.id))
        }
    }

    /// File extensions the game's levels come in.
    pub fn level_extensions(&self) -> &'static [&'static str] {
        self.level_extensions
    }

    /// The game's documented default script, if it ships one.
    pub fn default_script(&self) -> Option<&'static str> {
        self.default_script
    }

    /// The RON text of a new level (the game's default level), the
    /// starting point of "New level" in the editor.
    pub fn level_template(&self) -> String {
        self.game.level_template()
    }

    /// The level field that holds a level's human name
    /// ([`LevelFile::NAME_FIELD`]: `name` or `title`; `None` when its
    /// levels have no name).
    pub fn level_name_field(&self) -> Option<&'static str> {
        self.level_name_field
    }

    /// What the game's script must return.
    pub fn script_schema(&self) -> ScriptSchema {
        self.game.script_schema()
    }

    /// The modes, seats and AI levels the game offers with this script.
    pub fn spec(&self, script: &Script) -> Result<GameSpec, GameError> {
        self.game.spec(script)
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
        self.game.start(level, script, seed, options)
    }

    /// Starts a simulated game on `level` (a file, a level's text, or the
    /// game's simulation board, [`Simulated::sim_level`](crate::plugin::Simulated::sim_level)); the caller then
    /// prepares it ([`SessionSim::sim_setup`](crate::session::SessionSim::sim_setup)).
    pub fn start_sim(
        &self,
        level: &SimLevel,
        script: LiveScript,
        seed: u64,
        options: &SessionOptions,
    ) -> Result<Box<dyn Session>, GameError> {
        self.game.start_sim(level, script, seed, options)
    }

    /// How the game's simulations are set up ([`Simulated::SIM_STYLE`](crate::plugin::Simulated::SIM_STYLE)).
    pub fn sim_style(&self) -> SimStyle {
        self.sim_style
    }

    /// The options the game's simulations take ([`Simulated::SIM_OPTIONS`](crate::plugin::Simulated::SIM_OPTIONS)).
    pub fn sim_options(&self) -> &'static [SimOptionSpec] {
        self.sim_options
    }

    /// The mode and seats a level asks for ([`LevelFormats::level_options`](crate::plugin::LevelFormats::level_options)); none
    /// when the text does not read as a level (starting it says why).
    pub fn level_options(&self, text: &str, path: &Path) -> SessionOptions {
        self.game.level_options(text, path)
    }

    /// Every finding about a level file's text (empty when it is fine).
    pub fn check_level(&self, text: &str, path: &Path) -> Vec<Diagnostic> {
        self.game.check_level(text, path, None)
    }

    /// [`PluginEntry::check_level`], then, when the level is fine, a game
    /// start on it with `script`: what the level needs from the script (a
    /// board letter in the palette) is checked as `play` checks it.
    pub fn check_level_with(&self, text: &str, path: &Path, script: LiveScript) -> Vec<Diagnostic> {
        self.game.check_level(text, path, Some(script))
    }

    /// The one semantic check of a script for this game: the schema (types
    /// and ranges), then every setting the game reads at start, all under
    /// the script's budget. `check`, `watch`, the editor and game start run
    /// this same check.
    pub fn validate_script(&self, script: &Script) -> Result<(), ScriptError> {
        script.validate(&self.script_schema())?;
        script.guarded(|| self.game.check_script(script))
    }

    /// Reads an action file (a RON list of the game's actions) into one
    /// RON text per action, for [`SessionPlay::apply_ron`](crate::session::SessionPlay::apply_ron); errors name the
    /// line and column.
    pub fn parse_actions(&self, text: &str, path: &Path) -> Result<Vec<String>, Diagnostic> {
        self.game.parse_actions(text, path)
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
        self.game.replay(text, path, current_script, root, setup)
    }
}

/// A game's [`ErasedGame`]: its capabilities, shared with every session it
/// starts.
struct Erased<G: Game>(Arc<Capabilities<G>>);

impl<G: Game> ErasedGame for Erased<G> {
    fn spec(&self, script: &Script) -> Result<GameSpec, GameError> {
        self.0.spec(script)
    }

    fn start(
        &self,
        level: Option<&Path>,
        script: LiveScript,
        seed: u64,
        options: &SessionOptions,
    ) -> SessionResult {
        start_erased(&self.0, level, script, seed, options)
    }

    fn start_sim(
        &self,
        level: &SimLevel,
        script: LiveScript,
        seed: u64,
        options: &SessionOptions,
    ) -> SessionResult {
        start_sim_erased(&self.0, level, script, seed, options)
    }

    fn parse_actions(&self, text: &str, path: &Path) -> Result<Vec<String>, Diagnostic> {
        parse_actions_erased::<G>(text, path)
    }

    fn replay(
        &self,
        text: &str,
        path: &Path,
        current_script: LiveScript,
        root: &Path,
        setup: &ReplaySetup,
    ) -> Result<ReplayRun, GameError> {
        replay_erased(&self.0, text, path, current_script, root, setup)
    }

    fn check_level(&self, text: &str, path: &Path, script: Option<LiveScript>) -> Vec<Diagnostic> {
        check_level_erased(&self.0, text, path, script)
    }

    fn level_template(&self) -> String {
        level_template_erased::<G>()
    }

    fn level_options(&self, text: &str, path: &Path) -> SessionOptions {
        self.0
            .read_level(text, path)
            .map(|level| self.0.level_options(&level))
            .unwrap_or_default()
    }

    fn script_schema(&self) -> ScriptSchema {
        self.0.script_schema()
    }

    fn check_script(&self, script: &Script) -> Result<(), ScriptError> {
        self.0.check_script(script)
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
    capabilities: &Arc<Capabilities<G>>,
    level: Option<&Path>,
    script: LiveScript,
    seed: u64,
    options: &SessionOptions,
) -> Result<Box<dyn Session>, GameError> {
    let Some(path) = level else {
        return Ok(Box::new(Recorded::start_with(
            Arc::clone(capabilities),
            G::Level::default(),
            script,
            seed,
            options,
        )?));
    };
    let text = read_text(path)?;
    start_from_text(capabilities, &text, path, script, seed, options)
}

/// Starts `G` on a level's text read from `path` (diagnosed, located).
fn start_from_text<G: Game>(
    capabilities: &Arc<Capabilities<G>>,
    text: &str,
    path: &Path,
    script: LiveScript,
    seed: u64,
    options: &SessionOptions,
) -> Result<Box<dyn Session>, GameError> {
    let level = read_diagnosed(capabilities, text, path)?;
    let started = Recorded::start_with(
        Arc::clone(capabilities),
        level.clone(),
        script.clone(),
        seed,
        options,
    );
    match started {
        Ok(session) => Ok(Box::new(session)),
        // Seats the level asks for that the game does not offer: the
        // level's fault, at its line, as `check` says.
        Err(GameError::Invalid(why)) => Err(
            match level_options_problem(capabilities, &level, text, path, &script) {
                Some(problem) => GameError::Level(problem),
                None => GameError::Invalid(why),
            },
        ),
        // What the level needs from the script (a palette letter) is found
        // at start: name the level file and the line.
        Err(GameError::Level(error)) => Err(GameError::Level(capabilities.locate_finding(
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
fn level_options_problem<G: Game>(
    capabilities: &Capabilities<G>,
    level: &G::Level,
    text: &str,
    path: &Path,
    script: &LiveScript,
) -> Option<Diagnostic> {
    let wanted = capabilities.level_options(level);
    if wanted.mode.is_none() && wanted.seats.is_empty() {
        return None;
    }
    let spec = capabilities.spec(&script.current()).ok()?;
    let defaults =
        crate::session::with_level_defaults(capabilities, level, &SessionOptions::default());
    let error = spec.resolve(&defaults).err()?;
    let field = if wanted.seats.is_empty() {
        "mode"
    } else {
        "seats"
    };
    let finding = Diagnostic::error(path, error.to_string()).at(field);
    Some(capabilities.locate_finding(finding, text, path))
}

fn start_sim_erased<G: Game>(
    capabilities: &Arc<Capabilities<G>>,
    level: &SimLevel,
    script: LiveScript,
    seed: u64,
    options: &SessionOptions,
) -> Result<Box<dyn Session>, GameError> {
    match level {
        SimLevel::Default => {
            // The simulation's board may depend on the mode (tetris).
            let resolved = capabilities.spec(&script.current())?.resolve(options)?;
            let level = capabilities.sim_level(&resolved);
            Ok(Box::new(Recorded::start_with(
                Arc::clone(capabilities),
                level,
                script,
                seed,
                options,
            )?))
        }
        SimLevel::File(path) => start_erased(capabilities, Some(path), script, seed, options),
        SimLevel::Text { path, text } => {
            start_from_text(capabilities, text, path, script, seed, options)
        }
    }
}

fn level_template_erased<G: Game>() -> String {
    let config = ron::ser::PrettyConfig::default().struct_names(false);
    let body = ron::ser::to_string_pretty(&G::Level::default(), config)
        .unwrap_or_else(|e| format!("// the default level did not serialise: {e}\n()"));
    format!("// A new {} level.\n{body}\n", G::TITLE)
}

/// Reads a level in any of `G`'s formats and refuses it when its diagnosis
/// holds an error (located at the offending value's line).
fn read_diagnosed<G: Game>(
    capabilities: &Capabilities<G>,
    text: &str,
    path: &Path,
) -> Result<G::Level, Diagnostic> {
    let level = capabilities.read_level(text, path)?;
    match located_findings(capabilities, &level, text, path)
        .into_iter()
        .find(Diagnostic::is_error)
    {
        Some(error) => Err(error),
        None => Ok(level),
    }
}

/// Every finding of a level's diagnosis, naming `path` and located in `text`.
fn located_findings<G: Game>(
    capabilities: &Capabilities<G>,
    level: &G::Level,
    text: &str,
    path: &Path,
) -> Vec<Diagnostic> {
    level
        .diagnose()
        .into_iter()
        .map(|d| capabilities.locate_finding(d.in_file(path), text, path))
        .collect()
}

/// Parses a level and refuses it when its diagnosis holds an error (located
/// at the offending value's line).
pub fn load_checked<L: LevelFile>(text: &str, path: &Path) -> Result<L, Diagnostic> {
    parse_diagnosed(text, path).map(|(level, _warnings)| level)
}

fn check_level_erased<G: Game>(
    capabilities: &Capabilities<G>,
    text: &str,
    path: &Path,
    script: Option<LiveScript>,
) -> Vec<Diagnostic> {
    let level = match capabilities.read_level(text, path) {
        Ok(level) => level,
        Err(error) => return vec![error],
    };
    let findings = located_findings(capabilities, &level, text, path);
    let Some(script) = script.filter(|_| !findings.iter().any(Diagnostic::is_error)) else {
        return findings;
    };
    match capabilities.start(Setup::new(level.clone(), script.clone(), 0)) {
        // The game starts on the level; the seats it asks for are checked
        // as a start from the level file resolves them.
        Ok(_) => match level_options_problem(capabilities, &level, text, path, &script) {
            Some(problem) => vec![problem],
            None => findings,
        },
        Err(GameError::Level(error)) => {
            vec![capabilities.locate_finding(error.in_file(path), text, path)]
        }
        Err(GameError::Script(error)) => vec![error.into()],
        Err(other) => vec![Diagnostic::error(path, other.to_string())],
    }
}

fn parse_actions_erased<G: Game>(text: &str, path: &Path) -> Result<Vec<String>, Diagnostic> {
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

fn replay_erased<G: Game>(
    capabilities: &Arc<Capabilities<G>>,
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
            let schema = capabilities.script_schema();
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
    let capabilities = Arc::clone(capabilities);
    let session = Recorded::from_replay_with(
        capabilities,
        replay,
        script,
        apply_reloads,
        setup.stop_after,
    )
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

    /// Adds `G` with what it registers; a later registration of the same
    /// id replaces the earlier.
    pub fn register<G: Plugin>(&mut self) -> &mut Self {
        self.register_with::<G>(G::register)
    }

    /// Adds `G` with the capabilities `build` registers: the game's own
    /// [`Plugin::register`] and more from crates beside it (an AI crate's
    /// agents), say. A later registration of the same id replaces the
    /// earlier.
    pub fn register_with<G: Game>(&mut self, build: impl FnOnce(&mut Registrar<G>)) -> &mut Self {
        let mut registrar = Registrar::empty();
        build(&mut registrar);
        let (capabilities, generator) = registrar.finish();
        self.entries.retain(|e| e.id != G::ID);
        self.entries.push(PluginEntry::registered(capabilities));
        self.generators.retain(|(id, _)| *id != G::ID);
        if let Some(generator) = generator {
            self.register_generator::<G>(generator);
        }
        self
    }

    /// Adds game `G`'s level generator (`tessera generate`, the editor's
    /// Generate…); a later one for the same game replaces it.
    pub fn register_generator<G: Game>(
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
