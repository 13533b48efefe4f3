//! Where a game registers what it has: [`Plugin::register`] fills a
//! [`Registrar`], and the host keeps the result as [`Capabilities`], each
//! capability an `Option` with the host's default where it is absent.
//!
//! A capability that is a trait of the game ([`Scripted`],
//! [`LevelFormats`], [`Reports`], [`Moves`], [`Simulated`]) is erased here
//! into function pointers. The players are values: the spec of the seats
//! ([`Registrar::seats`]) and the agent maker ([`Registrar::agents`]), a
//! closure, so a crate that does not own the game's type (an AI crate
//! beside the rules) can register agents for it, which a trait impl could
//! not (the orphan rule).

use std::path::Path;

use crate::agent::{Agent, AgentGame, AgentRng, AiTask};
use crate::generate::LevelGenerator;
use crate::level::Diagnostic;
use crate::options::{GameSpec, SessionOptions};
use crate::plugin::{Game, GameError, LevelFormats, Moves, Reports, Scripted, Setup, Simulated};
use crate::script::{Script, ScriptError, ScriptSchema};
use crate::sim::figures::{SimFigure, SimOptionSpec, SimOptions, SimPlay, SimStyle};

/// A game as the registry takes it: the [`Game`] core and the one step
/// that registers what else it has.
pub trait Plugin: Game {
    /// Registers the game's capabilities, only those it has:
    /// `game.scripted().seats(Self::spec).agents(Self::agent)`, say.
    fn register(game: &mut Registrar<Self>);
}

/// One capability a game may register, for the plain refusal of a command
/// that needs it (`sand has no AI seats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    /// A script schema and check ([`Scripted`]).
    Script,
    /// Modes and seats of its own ([`Registrar::seats`]).
    Seats,
    /// AI players ([`Registrar::agents`]).
    Agents,
    /// Level files beyond plain RON ([`LevelFormats`]).
    LevelFormats,
    /// Scores and reports ([`Reports`]).
    Reports,
    /// Moves of several actions, a settle action ([`Moves`]).
    Moves,
    /// Simulation settings ([`Simulated`]).
    Simulation,
}

impl std::fmt::Display for Capability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Script => "script schema",
            Self::Seats => "modes or seats of its own",
            Self::Agents => "AI seats",
            Self::LevelFormats => "level formats of its own",
            Self::Reports => "reports of its own",
            Self::Moves => "moves of its own",
            Self::Simulation => "simulation settings",
        })
    }
}

/// Builds a game's agent for a seat and level, bound to a snapshot of the
/// game and its stream: the agents capability with the snapshot's type
/// erased.
type AgentMaker<G> = Box<
    dyn Fn(&G, usize, &str, AgentRng) -> Result<AiTask<<G as Game>::Action>, GameError>
        + Send
        + Sync,
>;

/// The modes, seats and AI levels a game offers with a script
/// ([`Registrar::seats`]).
pub type SeatsSpec = fn(&Script) -> Result<GameSpec, GameError>;

/// A check of a game's script added by a crate beside the game
/// ([`Registrar::script_check`]).
pub type ScriptCheck = fn(&Script) -> Result<(), ScriptError>;

/// A check of a game's start added by a crate beside the game
/// ([`Registrar::start_check`]).
pub type StartCheck<L> = fn(&Setup<L>) -> Result<(), GameError>;

/// [`Scripted`], erased.
struct ScriptFns {
    schema: fn() -> ScriptSchema,
    default_script: Option<&'static str>,
    check: fn(&Script) -> Result<(), ScriptError>,
}

/// [`LevelFormats`], erased.
struct LevelFns<G: Game> {
    extensions: &'static [&'static str],
    read: fn(&str, &Path) -> Result<G::Level, Diagnostic>,
    locate: fn(Diagnostic, &str, &Path) -> Diagnostic,
    options: fn(&G::Level) -> SessionOptions,
}

/// [`Reports`], erased.
struct ReportFns<G> {
    scores: fn(&G) -> Vec<i64>,
    text: fn(&G, bool) -> String,
    json: fn(&G) -> serde_json::Value,
    record: fn(&G) -> Option<String>,
}

/// [`Moves`], erased.
struct MoveFns<G: Game> {
    settle: fn(&G) -> Option<G::Action>,
    starts: fn(&G, &G::Action) -> bool,
}

/// [`Simulated`], erased.
struct SimFns<G: Game> {
    style: SimStyle,
    options: &'static [SimOptionSpec],
    level: fn(&SessionOptions) -> Option<G::Level>,
    setup: fn(&mut G, &SimOptions) -> Result<(), GameError>,
    stopped: fn(&G) -> bool,
    figures: fn(&G, &SimPlay) -> Vec<SimFigure>,
}

/// What a game registered, each capability an `Option`; the readers below
/// answer with the host's default where one is absent. Sessions and the
/// registry hold it behind an `Arc`.
pub struct Capabilities<G: Game> {
    script: Option<ScriptFns>,
    seats: Option<SeatsSpec>,
    agents: Option<AgentMaker<G>>,
    levels: Option<LevelFns<G>>,
    reports: Option<ReportFns<G>>,
    moves: Option<MoveFns<G>>,
    sim: Option<SimFns<G>>,
    /// Checks added beside the game's own (an AI crate's reading of its
    /// settings), in registration order.
    script_checks: Vec<ScriptCheck>,
    start_checks: Vec<StartCheck<G::Level>>,
}

/// Where a game registers its capabilities ([`Plugin::register`]); the
/// registry adds the level generator to its list.
pub struct Registrar<G: Game> {
    capabilities: Capabilities<G>,
    generator: Option<&'static dyn LevelGenerator>,
}

impl<G: Plugin> Registrar<G> {
    /// What `G` registers.
    pub fn of() -> Self {
        let mut registrar = Self::empty();
        G::register(&mut registrar);
        registrar
    }
}

impl<G: Game> Registrar<G> {
    /// Nothing registered yet: the core alone.
    pub fn empty() -> Self {
        Self {
            capabilities: Capabilities {
                script: None,
                seats: None,
                agents: None,
                levels: None,
                reports: None,
                moves: None,
                sim: None,
                script_checks: Vec::new(),
                start_checks: Vec::new(),
            },
            generator: None,
        }
    }

    /// Registers the game's script ([`Scripted`]).
    pub fn scripted(&mut self) -> &mut Self
    where
        G: Scripted,
    {
        self.capabilities.script = Some(ScriptFns {
            schema: G::script_schema,
            default_script: G::DEFAULT_SCRIPT,
            check: G::check_script,
        });
        self
    }

    /// Registers the modes, seat counts and AI levels the game offers (AI
    /// level names may come from the script). Without it: one mode, one
    /// human seat.
    pub fn seats(&mut self, spec: SeatsSpec) -> &mut Self {
        self.capabilities.seats = Some(spec);
        self
    }

    /// Registers the game's AI players: `make(game, seat, level)` builds
    /// the agent for `seat` at `level` (one of the spec's AI levels),
    /// reading every tunable it needs from the script now; the agent it
    /// returns never calls Lua. Any crate may register it: it is a value,
    /// not an impl on the game's type. A later call replaces an earlier.
    pub fn agents<F>(&mut self, make: F) -> &mut Self
    where
        G: AgentGame<Action = <G as Game>::Action>,
        F: Fn(&G, usize, &str) -> Result<Box<dyn Agent<G>>, GameError> + Send + Sync + 'static,
    {
        self.capabilities.agents = Some(Box::new(move |game, seat, level, rng| {
            let agent = make(game, seat, level)?;
            Ok(AiTask::new(
                seat,
                level.to_string(),
                agent,
                game.snapshot(),
                rng,
            ))
        }));
        self
    }

    /// Registers the game's level formats ([`LevelFormats`]).
    pub fn level_formats(&mut self) -> &mut Self
    where
        G: LevelFormats,
    {
        self.capabilities.levels = Some(LevelFns {
            extensions: G::LEVEL_EXTENSIONS,
            read: G::read_level,
            locate: G::locate_finding,
            options: G::level_options,
        });
        self
    }

    /// Registers the game's scores and reports ([`Reports`]).
    pub fn reports(&mut self) -> &mut Self
    where
        G: Reports,
    {
        self.capabilities.reports = Some(ReportFns {
            scores: G::scores,
            text: G::report_text,
            json: G::report_json,
            record: G::game_record,
        });
        self
    }

    /// Registers how the game's actions make moves ([`Moves`]).
    pub fn moves(&mut self) -> &mut Self
    where
        G: Moves,
    {
        self.capabilities.moves = Some(MoveFns {
            settle: G::settle_action,
            starts: G::move_starts,
        });
        self
    }

    /// Registers the game's simulation settings ([`Simulated`]).
    pub fn simulated(&mut self) -> &mut Self
    where
        G: Simulated,
    {
        self.capabilities.sim = Some(SimFns {
            style: G::SIM_STYLE,
            options: G::SIM_OPTIONS,
            level: G::sim_level,
            setup: G::sim_setup,
            stopped: G::sim_stopped,
            figures: G::sim_figures,
        });
        self
    }

    /// Adds a check of the game's script beside its own ([`Scripted`]):
    /// an AI crate's reading of the settings it takes from the script, so
    /// `check`, `watch`, the editor and game start refuse what the AI
    /// cannot read. When several checks refuse, the refusal at the
    /// earliest line of the file is the one reported.
    pub fn script_check(&mut self, check: ScriptCheck) -> &mut Self {
        self.capabilities.script_checks.push(check);
        self
    }

    /// Adds a check the host runs before the game starts (a level's AI
    /// difficulty, the seats an AI crate can play): every start goes
    /// through [`Capabilities::start`], so a level `check` refuses what a
    /// start would. The check sees the resolved setup; it leaves to the
    /// game's own start what the game refuses first.
    pub fn start_check(&mut self, check: StartCheck<G::Level>) -> &mut Self {
        self.capabilities.start_checks.push(check);
        self
    }

    /// Registers the game's level generator (`tessera generate`, the
    /// editor's Generate…).
    pub fn generator(&mut self, generator: &'static dyn LevelGenerator) -> &mut Self {
        self.generator = Some(generator);
        self
    }

    /// The capabilities and the generator registered.
    pub fn finish(self) -> (Capabilities<G>, Option<&'static dyn LevelGenerator>) {
        (self.capabilities, self.generator)
    }
}

impl<G: Plugin> Capabilities<G> {
    /// What `G` registers, without its generator (sessions started
    /// directly, in tests and tools).
    pub fn of() -> Self {
        Registrar::<G>::of().finish().0
    }
}

impl<G: Game> Capabilities<G> {
    /// Whether the game registered `capability`.
    pub fn has(&self, capability: Capability) -> bool {
        match capability {
            Capability::Script => self.script.is_some(),
            Capability::Seats => self.seats.is_some(),
            Capability::Agents => self.agents.is_some(),
            Capability::LevelFormats => self.levels.is_some(),
            Capability::Reports => self.reports.is_some(),
            Capability::Moves => self.moves.is_some(),
            Capability::Simulation => self.sim.is_some(),
        }
    }

    /// What `scripts/<id>.lua` must return. Default: the host's keys only.
    pub fn script_schema(&self) -> ScriptSchema {
        self.script.as_ref().map_or_else(
            || ScriptSchema {
                game: G::ID,
                fields: Vec::new(),
            },
            |script| (script.schema)(),
        )
    }

    /// The game's documented default script, if it ships one.
    pub fn default_script(&self) -> Option<&'static str> {
        self.script.as_ref().and_then(|s| s.default_script)
    }

    /// The game's own check of its script's settings, then the checks
    /// added beside it; of several refusals, the one at the earliest line
    /// (a tie goes to the check registered first). Default: nothing
    /// beyond the schema.
    pub fn check_script(&self, script: &Script) -> Result<(), ScriptError> {
        let own = self.script.as_ref().map_or(Ok(()), |s| (s.check)(script));
        self.script_checks
            .iter()
            .fold(own, |first, check| match (first, check(script)) {
                (Ok(()), later) => later,
                (Err(first), Err(later)) if line_of(&later) < line_of(&first) => Err(later),
                (first, _) => first,
            })
    }

    /// Starts the game: the checks added beside it, in order, then the
    /// game's own [`Game::start`]. Every start of the host comes here.
    pub fn start(&self, setup: Setup<G::Level>) -> Result<G, GameError> {
        for check in &self.start_checks {
            check(&setup)?;
        }
        G::start(setup)
    }

    /// The modes, seats and AI levels the game offers. Default: one mode,
    /// one human seat.
    pub fn spec(&self, script: &Script) -> Result<GameSpec, GameError> {
        self.seats
            .map_or_else(|| Ok(GameSpec::single_player()), |spec| spec(script))
    }

    /// The decision of the AI for `seat` at `level`, detached from the
    /// game: agent, snapshot and stream.
    pub fn ai_task(
        &self,
        game: &G,
        seat: usize,
        level: &str,
        rng: AgentRng,
    ) -> Result<AiTask<G::Action>, GameError> {
        match &self.agents {
            Some(make) => make(game, seat, level, rng),
            None => Err(GameError::Invalid(format!(
                "{} has no AI (asked for level `{level}`)",
                G::ID
            ))),
        }
    }

    /// File extensions the game's levels come in. Default: RON only.
    pub fn level_extensions(&self) -> &'static [&'static str] {
        self.levels.as_ref().map_or(&["ron"], |l| l.extensions)
    }

    /// Parses a level file's text in the game's formats. Default: RON.
    pub fn read_level(&self, text: &str, path: &Path) -> Result<G::Level, Diagnostic> {
        match &self.levels {
            Some(levels) => (levels.read)(text, path),
            None => crate::level::parse_level(text, path),
        }
    }

    /// Puts a level finding at its line in the file's text. Default: the
    /// RON field's line.
    pub fn locate_finding(&self, finding: Diagnostic, text: &str, path: &Path) -> Diagnostic {
        match &self.levels {
            Some(levels) => (levels.locate)(finding, text, path),
            None => finding.locate(text),
        }
    }

    /// The mode and seats a level asks for. Default: none.
    pub fn level_options(&self, level: &G::Level) -> SessionOptions {
        self.levels
            .as_ref()
            .map_or_else(SessionOptions::default, |l| (l.options)(level))
    }

    /// Each seat's score. Default: none.
    pub fn scores(&self, game: &G) -> Vec<i64> {
        self.reports
            .as_ref()
            .map_or_else(Vec::new, |r| (r.scores)(game))
    }

    /// The summary `tessera play` prints. Default: the picture and the
    /// outcome.
    pub fn report_text(&self, game: &G, render: bool) -> String {
        match &self.reports {
            Some(reports) => (reports.text)(game, render),
            None => crate::plugin::plain_report_text(game),
        }
    }

    /// The final state `tessera play --json` prints. Default: the game,
    /// outcome and picture, no scores.
    pub fn report_json(&self, game: &G) -> serde_json::Value {
        match &self.reports {
            Some(reports) => (reports.json)(game),
            None => crate::plugin::plain_report_json(game, &[]),
        }
    }

    /// The game's own record of the session, when it keeps one.
    pub fn game_record(&self, game: &G) -> Option<String> {
        self.reports.as_ref().and_then(|r| (r.record)(game))
    }

    /// The action that lets time run in headless play, if any.
    pub fn settle_action(&self, game: &G) -> Option<G::Action> {
        self.moves.as_ref().and_then(|m| (m.settle)(game))
    }

    /// Whether `action` applied now begins a new move. Default: every
    /// action does.
    pub fn move_starts(&self, game: &G, action: &G::Action) -> bool {
        self.moves.as_ref().is_none_or(|m| (m.starts)(game, action))
    }

    /// How the game's simulations are set up. Default: seat against seat.
    pub fn sim_style(&self) -> SimStyle {
        self.sim.as_ref().map_or(SimStyle::Seats, |s| s.style)
    }

    /// The options the game's simulations take. Default: none.
    pub fn sim_options(&self) -> &'static [SimOptionSpec] {
        self.sim.as_ref().map_or(&[], |s| s.options)
    }

    /// The level a simulation plays when none is named. Default: the
    /// game's default level.
    pub fn sim_level(&self, options: &SessionOptions) -> G::Level {
        self.sim
            .as_ref()
            .and_then(|s| (s.level)(options))
            .unwrap_or_default()
    }

    /// Prepares a started game for a simulation. Default: nothing.
    pub fn sim_setup(&self, game: &mut G, options: &SimOptions) -> Result<(), GameError> {
        self.sim
            .as_ref()
            .map_or(Ok(()), |s| (s.setup)(game, options))
    }

    /// Whether a simulated game stops here though not over. Default: never.
    pub fn sim_stopped(&self, game: &G) -> bool {
        self.sim.as_ref().is_some_and(|s| (s.stopped)(game))
    }

    /// The game's own figures of a simulated game. Default: none.
    pub fn sim_figures(&self, game: &G, play: &SimPlay) -> Vec<SimFigure> {
        self.sim
            .as_ref()
            .map_or_else(Vec::new, |s| (s.figures)(game, play))
    }
}

/// Where a refusal sits in the script, for choosing the earliest; one
/// without a line comes after every refusal that has one (a line is the
/// more useful answer).
fn line_of(error: &ScriptError) -> u32 {
    error.line.unwrap_or(u32::MAX)
}
