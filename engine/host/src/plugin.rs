//! What a game is to the host: the [`Game`] core every game implements
//! (the rules a session plays), and the capability traits a game may
//! implement and register (`registrar.rs`: `Plugin`, the one step that
//! registers what else the game has on a `Registrar`).
//!
//! A capability is registered, not summed: as a Bevy plugin's `build`
//! adds only its own systems, a game's `Plugin::register` adds only the
//! capabilities it has, and a game never mentions one it lacks. Some come
//! from a trait the game implements ([`Scripted`], [`LevelFormats`],
//! [`Reports`], [`Moves`], [`Simulated`]), which registering erases into
//! plain function pointers; the players come as values (the spec of its
//! seats, and agent makers any crate may register, the game's type being
//! an [`AgentGame`](crate::agent::AgentGame)). The host holds each as an
//! `Option` (`Capabilities`) and takes today's default where one is
//! absent (RON levels, every action a move, seat-against-seat sims, no
//! scores). The host's generic code (sessions, the registry) is bound on
//! [`Game`] alone. Its type-erased twin, the recorded
//! [`crate::session::Session`], is what the registry, the CLI, replays and
//! the editor's generic panels use.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use crate::error::GameError;
use crate::level::{Diagnostic, LevelFile};
use crate::options::SessionOptions;
pub use crate::outcome::{Outcome, Turn};
use crate::script::{LiveScript, Script, ScriptError, ScriptSchema};
use crate::sim::figures::{SimFigure, SimOptionSpec, SimOptions, SimPlay, SimStyle};

/// Something that happened in a game, for the console, the replay
/// trajectory and snapshot tests: a clear, a chain, a refused placement
/// and why, an AI's decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEvent {
    /// One line, stable wording (snapshots pin it).
    pub text: String,
    /// Whether it reports a problem (a script error, say).
    pub is_error: bool,
}

impl GameEvent {
    /// An ordinary event.
    pub fn info(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            is_error: false,
        }
    }

    /// A problem worth showing in red.
    pub fn error(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            is_error: true,
        }
    }
}

/// Everything a game starts from.
pub struct Setup<L> {
    /// The level (already checked).
    pub level: L,
    /// The game's live script.
    pub script: LiveScript,
    /// The seed of the rules' random stream.
    pub seed: u64,
    /// Mode and seats, already resolved against the game's registered
    /// seats (`Registrar::seats`).
    pub options: SessionOptions,
}

impl<L> Setup<L> {
    /// A setup with the game's default mode and seats (tests, benches,
    /// single-player tools).
    pub fn new(level: L, script: LiveScript, seed: u64) -> Self {
        Self {
            level,
            script,
            seed,
            options: SessionOptions::default(),
        }
    }
}

/// The rules of one game, driven by actions and ticks: the core every
/// game implements and all a session needs to play it.
///
/// Rules state lives here, in Rust. The script only computes numbers and
/// decisions from it, so a script reload never loses state.
///
/// A game is registered as a `Plugin`: the core plus the capabilities
/// its `Plugin::register` adds; one it does not have it never mentions.
pub trait Game: Sized + Send + 'static {
    /// Stable id: the plugin name, the `levels/<id>/` folder, the
    /// `scripts/<id>.lua` file.
    const ID: &'static str;
    /// Human title for menus.
    const TITLE: &'static str;
    /// The RON level format.
    type Level: LevelFile;
    /// One player move or command, serializable for replays and the CLI.
    type Action: Serialize + DeserializeOwned + Clone + fmt::Debug + Send + 'static;

    /// Starts a session.
    fn start(setup: Setup<Self::Level>) -> Result<Self, GameError>;

    /// Applies one action.
    fn apply(&mut self, action: &Self::Action) -> Result<(), GameError>;

    /// Advances time by `ticks` (games without time ignore it).
    fn advance(&mut self, ticks: u32) -> Result<(), GameError> {
        let _ = ticks;
        Ok(())
    }

    /// Every action that is legal now.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// Whose move it is. Default: seat 0 until the game is over.
    fn turn(&self) -> Turn {
        if self.outcome().is_over() {
            Turn::Over
        } else {
            Turn::Seat(0)
        }
    }

    /// How the session stands.
    fn outcome(&self) -> Outcome;

    /// Takes the events since the last call (clears, refusals, script
    /// errors). The recorded session collects them per step.
    fn take_events(&mut self) -> Vec<GameEvent> {
        Vec::new()
    }

    /// A plain-text picture of the state, stable enough for snapshots.
    fn render_text(&self) -> String;
}

/// Capability: the game's Luau script, `scripts/<id>.lua`: what it must
/// return, the shipped text and the game's own check of its settings.
pub trait Scripted: Game {
    /// What `scripts/<id>.lua` must return.
    fn script_schema() -> ScriptSchema;

    /// The game's documented default script (the text of the shipped
    /// `scripts/<id>.lua`, every tunable at the seed's value): what File ▸
    /// New script writes. Default: none, and the editor writes a skeleton
    /// from [`Scripted::script_schema`].
    const DEFAULT_SCRIPT: Option<&'static str> = None;

    /// Reads every setting the game takes from its script, with the ranges
    /// it accepts, as [`Game::start`] does: the one semantic check `check`,
    /// `watch`, the editor and game start share. Errors name the field (see
    /// [`Script::field_error`]). The host runs it under the script's budget.
    /// Default: nothing beyond the schema.
    fn check_script(script: &Script) -> Result<(), ScriptError> {
        let _ = script;
        Ok(())
    }
}

/// Capability: the files a game's levels come in, beyond RON, and what a
/// level asks of the session. Default: RON levels that ask for nothing.
pub trait LevelFormats: Game {
    /// File extensions this game's levels come in (`check` looks for these
    /// under `levels/<id>/`). Default: RON only.
    const LEVEL_EXTENSIONS: &'static [&'static str] = &["ron"];

    /// Parses a level file's text (before diagnosis); `path` names the file
    /// in errors and tells the format by its extension. Default: RON.
    fn read_level(text: &str, path: &std::path::Path) -> Result<Self::Level, Diagnostic> {
        crate::level::parse_level(text, path)
    }

    /// Puts a finding of [`LevelFile::diagnose`] at its line in the file's
    /// text (a game with several formats maps its field names). Default:
    /// [`Diagnostic::locate`] in RON.
    fn locate_finding(finding: Diagnostic, text: &str, path: &std::path::Path) -> Diagnostic {
        let _ = path;
        finding.locate(text)
    }

    /// The mode and seats a level asks for where the session names none
    /// (a tetris feed level names its mode and the AI it is played
    /// against). Seats apply only when the session plays that mode.
    /// Default: none.
    fn level_options(level: &Self::Level) -> SessionOptions {
        let _ = level;
        SessionOptions::default()
    }
}

/// Capability: what a game reports about a session: scores, the summary
/// and JSON `tessera play` prints, its own record. Default: no scores, the
/// picture and the outcome.
pub trait Reports: Game {
    /// Each seat's score (empty for games without one).
    fn scores(&self) -> Vec<i64> {
        Vec::new()
    }

    /// The summary `tessera play` prints: by default the picture and the
    /// outcome. `render` asks for the full board where the summary would
    /// otherwise leave it out.
    fn report_text(&self, render: bool) -> String {
        let _ = render;
        plain_report_text(self)
    }

    /// The final state `tessera play --json` prints.
    fn report_json(&self) -> serde_json::Value {
        plain_report_json(self, &self.scores())
    }

    /// The game's own record of the session so far, as JSON lines (one
    /// object per event), for games that define one (`tessera play
    /// --record FILE`). Default: none.
    fn game_record(&self) -> Option<String> {
        None
    }
}

/// Capability: how a player's actions make moves: the unit an undo takes
/// back, and the action that lets time run in headless play. Default:
/// every action is a move; no settle action.
pub trait Moves: Game {
    /// For headless random play: the action that lets time run until the
    /// game waits for input again (sand's `Settle`), if the game has one.
    fn settle_action(&self) -> Option<Self::Action> {
        None
    }

    /// Whether a player's action applied now begins a new move, the unit
    /// an undo takes back (the host's undo replays the record up to just
    /// before it). Default: every action does. A game whose moves take
    /// several actions (tetris: the key presses that steer one piece) says
    /// yes only to the first.
    fn move_starts(&self, action: &Self::Action) -> bool {
        let _ = action;
        true
    }
}

/// Capability: what a game brings to `tessera sim` and the Balance panels.
/// Default: seat against seat on the game's default level, no options, no
/// figures beyond win rates and scores.
pub trait Simulated: Game {
    /// How `tessera sim` and the Balance panels set this game's
    /// simulations up: seat against seat, or a ladder of AI levels.
    /// Default: [`SimStyle::Seats`].
    const SIM_STYLE: SimStyle = SimStyle::Seats;

    /// The options this game's simulations take beyond mode and seats
    /// (tetris: `pieces`, `preview`); the CLI refuses any other. Default:
    /// none.
    const SIM_OPTIONS: &'static [SimOptionSpec] = &[];

    /// The level a simulation plays when none is named, for the resolved
    /// `options` (tetris: its self-play and feeder benchmark boards).
    /// Default: `None`, the game's default level.
    fn sim_level(options: &SessionOptions) -> Option<Self::Level> {
        let _ = options;
        None
    }

    /// Prepares a started game for a simulation: the options of
    /// [`Simulated::SIM_OPTIONS`] (checked by the CLI to be listed), and
    /// whatever a headless run leaves out (tetris: its AI log). Default:
    /// nothing.
    fn sim_setup(&mut self, options: &SimOptions) -> Result<(), GameError> {
        let _ = options;
        Ok(())
    }

    /// Whether a simulated game that is not over stops here (tetris: the
    /// piece cap); it then counts as played, with its figures. Default:
    /// never.
    fn sim_stopped(&self) -> bool {
        false
    }

    /// The game's own figures of a simulated game that ended or stopped
    /// (tetris: lines, pieces, whether the AI won, time per decision),
    /// folded by the host into each line-up's summary. `play` holds what
    /// the host measured per seat. Default: none (the host reports win
    /// rates and scores only).
    fn sim_figures(&self, play: &SimPlay) -> Vec<SimFigure> {
        let _ = play;
        Vec::new()
    }
}

/// The summary of a game that reports nothing of its own: the picture and
/// the outcome (the default of [`Reports::report_text`], and what a game
/// without reports prints).
pub fn plain_report_text<G: Game>(game: &G) -> String {
    format!("{}outcome: {}\n", game.render_text(), game.outcome())
}

/// The final state as JSON of a game that reports nothing of its own
/// beyond `scores` (the default of [`Reports::report_json`]).
pub fn plain_report_json<G: Game>(game: &G, scores: &[i64]) -> serde_json::Value {
    serde_json::json!({
        "game": G::ID,
        "outcome": game.outcome().to_string(),
        "scores": scores,
        "board": game.render_text().lines().collect::<Vec<_>>(),
    })
}
