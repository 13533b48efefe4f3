//! The object-safe side of sessions: [`Session`] (a [`Recorded<G>`] for
//! code that does not know the game, actions as RON), AI tasks and
//! decisions whose game is erased, and the downcasts back.

use std::any::Any;

use super::{Recorded, replay_to_ron};
use crate::agent::{AiTask, Budget, Considered, Decision, ThinkControl};
use crate::options::{GameSpec, SessionOptions};
use crate::plugin::{GameError, GameEvent, Outcome, Plugin, Turn};
use crate::sim::{SimFigure, SimOptions, SimPlay};
use crate::trajectory::Trajectory;

/// An AI decision whose game is not known to the caller: the action as RON
/// plus what the AI weighed.
pub struct ErasedDecision {
    /// The seat that decided.
    pub seat: usize,
    /// The action, as the game's own value (for [`SessionAi::apply_ai`]).
    action: Box<dyn Any + Send>,
    /// The action as RON.
    pub action_ron: String,
    /// The moves the AI weighed, best first.
    pub considered: Vec<Considered>,
    /// The game's account of the decision (see [`Decision::explanation`]).
    pub explanation: Option<String>,
}

/// An AI decision ready to run on any thread, for callers that do not know
/// the game (the editor's generic worker, the CLI).
pub trait ErasedAiTask: Send {
    /// The seat deciding.
    fn seat(&self) -> usize;
    /// Decides, watching `control` for cancel.
    fn run(self: Box<Self>, control: &ThinkControl) -> Result<ErasedDecision, GameError>;
}

impl<G: Plugin> ErasedAiTask for AiTask<G> {
    fn seat(&self) -> usize {
        self.seat
    }

    fn run(self: Box<Self>, control: &ThinkControl) -> Result<ErasedDecision, GameError> {
        let seat = self.seat;
        let decision = AiTask::run(*self, control)?;
        let action_ron = ron::to_string(&decision.action)
            .map_err(|e| GameError::Invalid(format!("cannot write action: {e}")))?;
        Ok(ErasedDecision {
            seat,
            action_ron,
            considered: decision.considered,
            explanation: decision.explanation,
            action: Box::new(decision.action),
        })
    }
}

/// A running game of any kind, behind one object-safe interface. Actions
/// cross it as RON text; every step is recorded into a replay.
///
/// It is the sum of its parts, one per concern: [`SessionPlay`] (the game
/// as played), [`SessionRecord`] (the record, undo and replay),
/// [`SessionAi`] (AI seats), [`SessionReports`] (what `play` prints),
/// [`SessionSim`] (a simulated game) and [`SessionAny`] (the downcasts).
/// A `dyn Session` answers every part's methods; every [`Recorded<G>`] is
/// one.
pub trait Session:
    SessionPlay + SessionRecord + SessionAi + SessionReports + SessionSim + SessionAny + Send
{
}

impl<S> Session for S where
    S: SessionPlay + SessionRecord + SessionAi + SessionReports + SessionSim + SessionAny + Send
{
}

/// A session's game as played: what it offers, whose turn, actions and
/// time, how it stands.
pub trait SessionPlay {
    /// The plugin id.
    fn game_id(&self) -> &'static str;
    /// What the game offers.
    fn spec(&self) -> &GameSpec;
    /// The resolved options.
    fn options(&self) -> &SessionOptions;
    /// Whose move it is.
    fn turn(&self) -> Turn;
    /// Parses `action` as RON and applies it.
    fn apply_ron(&mut self, action: &str) -> Result<(), GameError>;
    /// Advances time.
    fn advance(&mut self, ticks: u32) -> Result<(), GameError>;
    /// Legal actions as RON text.
    fn legal_actions_ron(&self) -> Vec<String>;
    /// The game's settle action as RON, if it has one.
    fn settle_action_ron(&self) -> Option<String>;
    /// Text picture of the state.
    fn render_text(&self) -> String;
    /// How the session stands.
    fn outcome(&self) -> Outcome;
    /// Each seat's score.
    fn scores(&self) -> Vec<i64>;
    /// Events since the last call.
    fn take_new_events(&mut self) -> Vec<GameEvent>;
}

/// A session's record: its steps, undo, the level and seed it was played
/// on, and the replay they make.
pub trait SessionRecord {
    /// How many steps the record holds (a decision started at one count
    /// is stale once the count changed).
    fn step_count(&self) -> usize;
    /// Whether a player's move can be taken back.
    fn can_undo(&self) -> bool;
    /// Takes back the last player's move and what followed it (see
    /// [`Recorded::undo_move`]); `Ok(None)` when there is none.
    fn undo_move(&mut self) -> Result<Option<usize>, GameError>;
    /// The trajectory so far.
    fn trajectory(&self) -> Trajectory;
    /// Notes the level file played (relative to the project root).
    fn set_level_path(&mut self, path: Option<String>);
    /// The level file played, relative to the project root, if noted.
    fn level_path(&self) -> Option<&str>;
    /// The session's seed.
    fn seed(&self) -> u64;
    /// The replay so far as RON.
    fn replay_ron(&self) -> Result<String, GameError>;
}

/// A session's AI seats: which one is to move, its decision as a task for
/// a worker, and the decision applied.
pub trait SessionAi {
    /// The AI seat to move, if any.
    fn ai_to_move(&self) -> Option<usize>;
    /// The decision of the AI seat `seat`, ready to run on a worker.
    fn ai_task(&self, seat: usize, budget: Budget) -> Result<Box<dyn ErasedAiTask>, GameError>;
    /// Applies an AI decision made by [`SessionAi::ai_task`].
    fn apply_ai(&mut self, decision: ErasedDecision) -> Result<(), GameError>;
}

/// What a session reports ([`crate::plugin::Reports`]): the summary and
/// JSON `tessera play` prints, the game's own record.
pub trait SessionReports {
    /// The summary `tessera play` prints.
    fn report_text(&self, render: bool) -> String;
    /// The final state as JSON.
    fn report_json(&self) -> serde_json::Value;
    /// The game's own record as JSON lines, when it keeps one.
    fn game_record(&self) -> Option<String>;
}

/// A session played as a simulated game ([`crate::plugin::Simulated`]).
pub trait SessionSim {
    /// Prepares the session for a simulation: it stops recording
    /// ([`Recorded::stop_recording`]) and the game takes the simulation's
    /// options ([`crate::plugin::Simulated::sim_setup`]).
    fn begin_sim(&mut self, options: &SimOptions) -> Result<(), GameError>;
    /// Whether a simulated game stops here though not over
    /// ([`crate::plugin::Simulated::sim_stopped`]).
    fn sim_stopped(&self) -> bool;
    /// The game's figures of a simulated game
    /// ([`crate::plugin::Simulated::sim_figures`]).
    fn sim_figures(&self, play: &SimPlay) -> Vec<SimFigure>;
}

/// The way back from a session to its concrete game, for views that know
/// it ([`downcast`], [`downcast_mut`], [`downcast_box`]).
pub trait SessionAny {
    /// For views that know the concrete game: downcast to [`Recorded<G>`].
    fn as_any(&self) -> &dyn Any;
    /// Mutable form of [`SessionAny::as_any`].
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The session as `Box<dyn Any>`, to take back a [`Recorded<G>`] (a
    /// view resuming a replayed session does).
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<G: Plugin> SessionPlay for Recorded<G> {
    fn game_id(&self) -> &'static str {
        G::ID
    }

    fn spec(&self) -> &GameSpec {
        &self.spec
    }

    fn options(&self) -> &SessionOptions {
        Recorded::options(self)
    }

    fn turn(&self) -> Turn {
        self.game.turn()
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

    fn settle_action_ron(&self) -> Option<String> {
        self.game
            .settle_action()
            .and_then(|a| ron::to_string(&a).ok())
    }

    fn render_text(&self) -> String {
        self.game.render_text()
    }

    fn outcome(&self) -> Outcome {
        self.game.outcome()
    }

    fn scores(&self) -> Vec<i64> {
        self.game.scores()
    }

    fn take_new_events(&mut self) -> Vec<GameEvent> {
        Recorded::take_new_events(self)
    }
}

impl<G: Plugin> SessionRecord for Recorded<G> {
    fn step_count(&self) -> usize {
        Recorded::step_count(self)
    }

    fn can_undo(&self) -> bool {
        Recorded::can_undo(self)
    }

    fn undo_move(&mut self) -> Result<Option<usize>, GameError> {
        Recorded::undo_move(self)
    }

    fn trajectory(&self) -> Trajectory {
        Recorded::trajectory(self)
    }

    fn set_level_path(&mut self, path: Option<String>) {
        Recorded::set_level_path(self, path);
    }

    fn level_path(&self) -> Option<&str> {
        self.replay.level_path.as_deref()
    }

    fn seed(&self) -> u64 {
        self.replay.seed
    }

    fn replay_ron(&self) -> Result<String, GameError> {
        replay_to_ron(&self.replay)
    }
}

impl<G: Plugin> SessionAi for Recorded<G> {
    fn ai_to_move(&self) -> Option<usize> {
        Recorded::ai_to_move(self)
    }

    fn ai_task(&self, seat: usize, budget: Budget) -> Result<Box<dyn ErasedAiTask>, GameError> {
        Ok(Box::new(Recorded::ai_task(self, seat)?.with_budget(budget)))
    }

    fn apply_ai(&mut self, decision: ErasedDecision) -> Result<(), GameError> {
        let Ok(action) = decision.action.downcast::<G::Action>() else {
            return Err(GameError::Invalid(format!(
                "this decision is not a {} action",
                G::ID
            )));
        };
        self.apply_decision(&Decision {
            action: *action,
            considered: decision.considered,
            explanation: decision.explanation,
        })
    }
}

impl<G: Plugin> SessionReports for Recorded<G> {
    fn report_text(&self, render: bool) -> String {
        self.game.report_text(render)
    }

    fn report_json(&self) -> serde_json::Value {
        self.game.report_json()
    }

    fn game_record(&self) -> Option<String> {
        self.game.game_record()
    }
}

impl<G: Plugin> SessionSim for Recorded<G> {
    fn begin_sim(&mut self, options: &SimOptions) -> Result<(), GameError> {
        self.stop_recording();
        self.game.sim_setup(options)
    }

    fn sim_stopped(&self) -> bool {
        self.game.sim_stopped()
    }

    fn sim_figures(&self, play: &SimPlay) -> Vec<SimFigure> {
        self.game.sim_figures(play)
    }
}

impl<G: Plugin> SessionAny for Recorded<G> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// The concrete game behind a session, if it is a `G`.
pub fn downcast<G: Plugin>(session: &dyn Session) -> Option<&Recorded<G>> {
    session.as_any().downcast_ref()
}

/// Takes a boxed session back as the concrete [`Recorded<G>`], or returns
/// it unchanged when it is another game.
pub fn downcast_box<G: Plugin>(
    session: Box<dyn Session>,
) -> Result<Box<Recorded<G>>, Box<dyn Any>> {
    session.into_any().downcast::<Recorded<G>>()
}

/// Mutable form of [`downcast`].
pub fn downcast_mut<G: Plugin>(session: &mut dyn Session) -> Option<&mut Recorded<G>> {
    session.as_any_mut().downcast_mut()
}
