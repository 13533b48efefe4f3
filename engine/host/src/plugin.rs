//! The one trait every game implements, and its type-erased twin that the
//! registry, the CLI, replays and the editor's generic panels use.

use std::any::Any;
use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::level::{Diagnostic, LevelFile};
use crate::replay::{Replay, Step};
use crate::script::{LiveScript, ScriptError, ScriptSchema};

/// How a session stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Still being played.
    Playing,
    /// The (single) player solved or won it.
    Won,
    /// The (single) player lost: game over.
    Lost,
    /// A multi-player game ended with this player (0-based) ahead.
    Winner(usize),
    /// A multi-player game ended level.
    Draw,
}

impl Outcome {
    /// Whether the session has ended.
    pub fn is_over(&self) -> bool {
        !matches!(self, Outcome::Playing)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Playing => write!(f, "playing"),
            Outcome::Won => write!(f, "won"),
            Outcome::Lost => write!(f, "lost"),
            Outcome::Winner(player) => write!(f, "player {} wins", player + 1),
            Outcome::Draw => write!(f, "draw"),
        }
    }
}

/// Why a game refused to start or to take an action.
#[derive(Debug, Clone, thiserror::Error)]
pub enum GameError {
    /// The action breaks a rule; the state is unchanged (games say so where
    /// a failed attempt has consequences, e.g. a game-over check).
    #[error("illegal action: {0}")]
    Illegal(String),
    /// The action text does not parse as this game's action.
    #[error("cannot read action: {0}")]
    BadAction(String),
    /// A number or setting outside what the game accepts.
    #[error("{0}")]
    Invalid(String),
    /// The level cannot be played.
    #[error(transparent)]
    Level(#[from] Diagnostic),
    /// The script failed; the game keeps its state.
    #[error(transparent)]
    Script(#[from] ScriptError),
}

/// A game plugin: the rules of one game, driven by actions and ticks.
///
/// Rules state lives here, in Rust. The script only computes numbers and
/// decisions from it, so a script reload never loses state.
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

    /// What `scripts/<id>.lua` must return.
    fn script_schema() -> ScriptSchema;

    /// Starts a session.
    fn start(level: Self::Level, script: LiveScript, seed: u64) -> Result<Self, GameError>;

    /// Applies one action.
    fn apply(&mut self, action: &Self::Action) -> Result<(), GameError>;

    /// Advances time by `ticks` (games without time ignore it).
    fn advance(&mut self, ticks: u32) -> Result<(), GameError> {
        let _ = ticks;
        Ok(())
    }

    /// Every action that is legal now.
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// The move the game's AI would make now, for games that have one.
    fn ai_action(&mut self) -> Result<Option<Self::Action>, GameError> {
        Ok(None)
    }

    /// A plain-text picture of the state, stable enough for snapshots.
    fn render_text(&self) -> String;

    /// How the session stands.
    fn outcome(&self) -> Outcome;
}

/// A running game of any kind, behind one object-safe interface. Actions
/// cross it as RON text; every step is recorded into a replay.
pub trait Session: Send {
    /// The plugin id.
    fn game_id(&self) -> &'static str;
    /// Parses `action` as RON and applies it.
    fn apply_ron(&mut self, action: &str) -> Result<(), GameError>;
    /// Advances time.
    fn advance(&mut self, ticks: u32) -> Result<(), GameError>;
    /// Legal actions as RON text.
    fn legal_actions_ron(&self) -> Vec<String>;
    /// The AI's move as RON text, if the game has an AI.
    fn ai_action_ron(&mut self) -> Result<Option<String>, GameError>;
    /// Text picture of the state.
    fn render_text(&self) -> String;
    /// How the session stands.
    fn outcome(&self) -> Outcome;
    /// The replay so far (seed, level, steps) as RON.
    fn replay_ron(&self) -> Result<String, GameError>;
    /// For views that know the concrete game: downcast to [`Recorded<G>`].
    fn as_any(&self) -> &dyn Any;
    /// Mutable form of [`Session::as_any`].
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// A game plus the record of everything done to it.
pub struct Recorded<G: Game> {
    game: G,
    replay: Replay<G::Level, G::Action>,
}

impl<G: Game> Recorded<G> {
    /// Starts `G` and begins recording.
    pub fn start(level: G::Level, script: LiveScript, seed: u64) -> Result<Self, GameError> {
        let game = G::start(level.clone(), script, seed)?;
        Ok(Self {
            game,
            replay: Replay {
                game: G::ID.to_string(),
                seed,
                level,
                steps: Vec::new(),
            },
        })
    }

    /// Plays a replay back, step by step. Steps that failed when recorded
    /// fail again the same way; that is part of the record.
    pub fn from_replay(
        replay: Replay<G::Level, G::Action>,
        script: LiveScript,
    ) -> Result<Self, GameError> {
        if replay.game != G::ID {
            return Err(GameError::Invalid(format!(
                "this replay is for `{}`, not `{}`",
                replay.game,
                G::ID
            )));
        }
        let mut session = Self::start(replay.level, script, replay.seed)?;
        for step in replay.steps {
            let _ = match step {
                Step::Act(action) => session.apply(&action),
                Step::Tick(ticks) => session.advance(ticks),
            };
        }
        Ok(session)
    }

    /// The game, for views that read its concrete state.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game, mutable, for settings that are not moves (view options,
    /// say). Moves go through [`Recorded::apply`] so they are recorded.
    pub fn game_mut(&mut self) -> &mut G {
        &mut self.game
    }

    /// Applies and records an action (also when it fails: a failed attempt
    /// can have consequences, such as a game-over check).
    pub fn apply(&mut self, action: &G::Action) -> Result<(), GameError> {
        self.replay.steps.push(Step::Act(action.clone()));
        self.game.apply(action)
    }

    /// Advances and records time.
    pub fn advance(&mut self, ticks: u32) -> Result<(), GameError> {
        if ticks == 0 {
            return Ok(());
        }
        match self.replay.steps.last_mut() {
            Some(Step::Tick(n)) => *n = n.saturating_add(ticks),
            _ => self.replay.steps.push(Step::Tick(ticks)),
        }
        self.game.advance(ticks)
    }

    /// The record so far.
    pub fn replay(&self) -> &Replay<G::Level, G::Action> {
        &self.replay
    }
}

impl<G: Game> Session for Recorded<G> {
    fn game_id(&self) -> &'static str {
        G::ID
    }

    fn apply_ron(&mut self, action: &str) -> Result<(), GameError> {
        let action: G::Action =
            ron::from_str(action).map_err(|e| GameError::BadAction(format!("{e}")))?;
        self.apply(&action)
    }

    fn advance(&mut self, ticks: u32) -> Result<(), GameError> {
        Recorded::advance(self, ticks)
    }

    fn legal_actions_ron(&self) -> Vec<String> {
        self.game
            .legal_actions()
            .iter()
            .filter_map(|a| ron::to_string(a).ok())
            .collect()
    }

    fn ai_action_ron(&mut self) -> Result<Option<String>, GameError> {
        let Some(action) = self.game.ai_action()? else {
            return Ok(None);
        };
        ron::to_string(&action)
            .map(Some)
            .map_err(|e| GameError::Invalid(format!("cannot write action: {e}")))
    }

    fn render_text(&self) -> String {
        self.game.render_text()
    }

    fn outcome(&self) -> Outcome {
        self.game.outcome()
    }

    fn replay_ron(&self) -> Result<String, GameError> {
        crate::level::to_ron_string(&self.replay)
            .map_err(|e| GameError::Invalid(format!("cannot write replay: {e}")))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The concrete game behind a session, if it is a `G`.
pub fn downcast<G: Game>(session: &dyn Session) -> Option<&Recorded<G>> {
    session.as_any().downcast_ref()
}

/// Mutable form of [`downcast`].
pub fn downcast_mut<G: Game>(session: &mut dyn Session) -> Option<&mut Recorded<G>> {
    session.as_any_mut().downcast_mut()
}

/// An action list as stored in files: RON `[ ... ]` of actions and ticks.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ActionList<A>(pub Vec<Step<A>>);
