//! The object-safe side of sessions: [`Session`] (a [`Recorded<G>`] for
//! code that does not know the game, actions as RON), AI tasks and
//! decisions whose game is erased, and the downcasts back.

use std::any::Any;

use super::{Recorded, replay_to_ron};
use crate::agent::{AiTask, Budget, Considered, Decision, ThinkControl};
use crate::options::{GameSpec, SessionOptions};
use crate::plugin::{Game, GameError, GameEvent, Outcome, Turn};
use crate::registrar::Capability;
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

impl<A: serde::Serialize + Send + 'static> ErasedAiTask for AiTask<A> {
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
/// It is three parts: [`SessionPlay`] (the game as played),
/// [`SessionRecord`] (the record, undo and replay) and [`SessionFaces`]
/// (the concrete game, and each capability the game registered as an
/// `Option`: [`SessionAi`] its AI players, [`SessionReports`] what `play`
/// prints, [`SessionSim`] its simulation settings). Every [`Recorded<G>`]
/// is one.
pub trait Session: SessionPlay + SessionRecord + SessionFaces + Send {}

impl<S> Session for S where S: SessionPlay + SessionRecord + SessionFaces + Send {}

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
    /// The AI seat to move, if any.
    fn ai_to_move(&self) -> Option<usize>;
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
    /// Stops keeping the record (simulations, see
    /// [`Recorded::stop_recording`]).
    fn stop_recording(&mut self);
}

/// A session's AI players ([`SessionFaces::ai`], when the game registered
/// agents): the decision of the seat to move as a task for a worker, and
/// the decision applied.
pub trait SessionAi {
    /// The decision of the AI seat `seat`, ready to run on a worker.
    fn ai_task(&self, seat: usize, budget: Budget) -> Result<Box<dyn ErasedAiTask>, GameError>;
    /// Applies an AI decision made by [`SessionAi::ai_task`].
    fn apply_ai(&mut self, decision: ErasedDecision) -> Result<(), GameError>;
}

/// What a session reports ([`crate::plugin::Reports`], when the game
/// registered it, [`SessionFaces::reports`]): the summary and JSON
/// `tessera play` prints, the game's own record. A `dyn Session` answers
/// the same questions with the host's defaults for any game.
pub trait SessionReports {
    /// The summary `tessera play` prints.
    fn report_text(&self, render: bool) -> String;
    /// The final state as JSON.
    fn report_json(&self) -> serde_json::Value;
    /// The game's own record as JSON lines, when it keeps one.
    fn game_record(&self) -> Option<String>;
}

/// A session played as a simulated game, by a game that registered
/// simulation settings ([`crate::plugin::Simulated`],
/// [`SessionFaces::sim`]).
pub trait SessionSim {
    /// The game takes the simulation's options
    /// ([`crate::plugin::Simulated::sim_setup`]).
    fn sim_setup(&mut self, options: &SimOptions) -> Result<(), GameError>;
    /// Whether a simulated game stops here though not over
    /// ([`crate::plugin::Simulated::sim_stopped`]).
    fn sim_stopped(&self) -> bool;
    /// The game's figures of a simulated game
    /// ([`crate::plugin::Simulated::sim_figures`]).
    fn sim_figures(&self, play: &SimPlay) -> Vec<SimFigure>;
}

/// A session's other faces: the way back to its concrete game, for views
/// that know it ([`downcast`], [`downcast_mut`], [`downcast_box`]), and
/// each capability its game registered, `None` when it has none.
pub trait SessionFaces {
    /// For views that know the concrete game: downcast to [`Recorded<G>`].
    fn as_any(&self) -> &dyn Any;
    /// Mutable form of [`SessionFaces::as_any`].
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The session as `Box<dyn Any>`, to take back a [`Recorded<G>`] (a
    /// view resuming a replayed session does).
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    /// The AI players, when the game registered agents.
    fn ai(&self) -> Option<&dyn SessionAi>;
    /// Mutable form of [`SessionFaces::ai`].
    fn ai_mut(&mut self) -> Option<&mut dyn SessionAi>;
    /// The game's own reports, when it registered them.
    fn reports(&self) -> Option<&dyn SessionReports>;
    /// The game's simulation settings, when it registered them.
    fn sim(&self) -> Option<&dyn SessionSim>;
    /// Mutable form of [`SessionFaces::sim`].
    fn sim_mut(&mut self) -> Option<&mut dyn SessionSim>;
}

/// What every session answers whatever its game registered: each
/// capability's face where the game has it, else the host's default (a
/// plain refusal for AI moves).
impl<'s> dyn Session + 's {
    /// The decision of the AI seat `seat`, ready to run on a worker;
    /// refused plainly when the game registered no agents.
    pub fn ai_task(&self, seat: usize, budget: Budget) -> Result<Box<dyn ErasedAiTask>, GameError> {
        match self.ai() {
            Some(ai) => ai.ai_task(seat, budget),
            None => Err(self.no_ai_seats()),
        }
    }

    /// Applies an AI decision made by [`ai_task`](Self::ai_task).
    pub fn apply_ai(&mut self, decision: ErasedDecision) -> Result<(), GameError> {
        let refusal = self.no_ai_seats();
        match self.ai_mut() {
            Some(ai) => ai.apply_ai(decision),
            None => Err(refusal),
        }
    }

    /// The summary `tessera play` prints: the game's report, or the
    /// picture and the outcome.
    pub fn report_text(&self, render: bool) -> String {
        match self.reports() {
            Some(reports) => reports.report_text(render),
            None => format!("{}outcome: {}\n", self.render_text(), self.outcome()),
        }
    }

    /// The final state as JSON: the game's report, or the game, outcome,
    /// scores and picture.
    pub fn report_json(&self) -> serde_json::Value {
        match self.reports() {
            Some(reports) => reports.report_json(),
            None => serde_json::json!({
                "game": self.game_id(),
                "outcome": self.outcome().to_string(),
                "scores": self.scores(),
                "board": self.render_text().lines().collect::<Vec<_>>(),
            }),
        }
    }

    /// The game's own record as JSON lines, when it keeps one.
    pub fn game_record(&self) -> Option<String> {
        self.reports().and_then(SessionReports::game_record)
    }

    /// Whether a simulated game stops here though not over. Default: never.
    pub fn sim_stopped(&self) -> bool {
        self.sim().is_some_and(SessionSim::sim_stopped)
    }

    /// The game's figures of a simulated game. Default: none.
    pub fn sim_figures(&self, play: &SimPlay) -> Vec<SimFigure> {
        self.sim()
            .map_or_else(Vec::new, |sim| sim.sim_figures(play))
    }

    /// The refusal of an AI move in a game that registered no agents.
    fn no_ai_seats(&self) -> GameError {
        GameError::Invalid(format!("{} has no AI seats", self.game_id()))
    }
}

/// The `Option` a face accessor answers: the session itself when the game
/// registered `capability`.
fn face<G: Game, T: ?Sized>(
    session: &Recorded<G>,
    capability: Capability,
    as_face: impl FnOnce(&Recorded<G>) -> &T,
) -> Option<&T> {
    session
        .capabilities
        .has(capability)
        .then(|| as_face(session))
}

impl<G: Game> SessionPlay for Recorded<G> {
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
        self.capabilities
            .settle_action(&self.game)
            .and_then(|a| ron::to_string(&a).ok())
    }

    fn render_text(&self) -> String {
        self.game.render_text()
    }

    fn outcome(&self) -> Outcome {
        self.game.outcome()
    }

    fn scores(&self) -> Vec<i64> {
        self.capabilities.scores(&self.game)
    }

    fn take_new_events(&mut self) -> Vec<GameEvent> {
        Recorded::take_new_events(self)
    }

    fn ai_to_move(&self) -> Option<usize> {
        Recorded::ai_to_move(self)
    }
}

impl<G: Game> SessionRecord for Recorded<G> {
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

    fn stop_recording(&mut self) {
        Recorded::stop_recording(self);
    }
}

impl<G: Game> SessionAi for Recorded<G> {
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

impl<G: Game> SessionReports for Recorded<G> {
    fn report_text(&self, render: bool) -> String {
        self.capabilities.report_text(&self.game, render)
    }

    fn report_json(&self) -> serde_json::Value {
        self.capabilities.report_json(&self.game)
    }

    fn game_record(&self) -> Option<String> {
        self.capabilities.game_record(&self.game)
    }
}

impl<G: Game> SessionSim for Recorded<G> {
    fn sim_setup(&mut self, options: &SimOptions) -> Result<(), GameError> {
        self.capabilities.sim_setup(&mut self.game, options)
    }

    fn sim_stopped(&self) -> bool {
        self.capabilities.sim_stopped(&self.game)
    }

    fn sim_figures(&self, play: &SimPlay) -> Vec<SimFigure> {
        self.capabilities.sim_figures(&self.game, play)
    }
}

impl<G: Game> SessionFaces for Recorded<G> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }

    fn ai(&self) -> Option<&dyn SessionAi> {
        face(self, Capability::Agents, |s| s as &dyn SessionAi)
    }

    fn ai_mut(&mut self) -> Option<&mut dyn SessionAi> {
        let has = self.capabilities.has(Capability::Agents);
        has.then_some(self as &mut dyn SessionAi)
    }

    fn reports(&self) -> Option<&dyn SessionReports> {
        face(self, Capability::Reports, |s| s as &dyn SessionReports)
    }

    fn sim(&self) -> Option<&dyn SessionSim> {
        face(self, Capability::Simulation, |s| s as &dyn SessionSim)
    }

    fn sim_mut(&mut self) -> Option<&mut dyn SessionSim> {
        let has = self.capabilities.has(Capability::Simulation);
        has.then_some(self as &mut dyn SessionSim)
    }
}

/// The concrete game behind a session, if it is a `G`.
pub fn downcast<G: Game>(session: &dyn Session) -> Option<&Recorded<G>> {
    session.as_any().downcast_ref()
}

/// Takes a boxed session back as the concrete [`Recorded<G>`], or returns
/// it unchanged when it is another game.
pub fn downcast_box<G: Game>(session: Box<dyn Session>) -> Result<Box<Recorded<G>>, Box<dyn Any>> {
    session.into_any().downcast::<Recorded<G>>()
}

/// Mutable form of [`downcast`].
pub fn downcast_mut<G: Game>(session: &mut dyn Session) -> Option<&mut Recorded<G>> {
    session.as_any_mut().downcast_mut()
}
