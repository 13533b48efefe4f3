//! AI agents: the contract every game's AI follows.
//!
//! An agent is built by the agent maker registered for the game
//! (`Registrar::agents`) on the thread that owns
//! the game, where it reads every tunable it needs out of the script into
//! plain Rust values. It then decides on any thread from a read-only
//! snapshot ([`AgentGame::Snapshot`]), never calling Lua, drawing randomness only
//! from its own stream ([`agent_rng`]), within a [`Budget`], and stopping
//! when the [`ThinkControl`] is cancelled. It returns an ordinary action,
//! which the session applies and records like a human's.
//!
//! This module sits below the plugin traits: it knows a game only as an
//! [`AgentGame`] (its snapshot and action), which a game with AI players
//! implements beside `Game`, so the plugin module imports this one and not
//! the other way round.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use serde::Serialize;

use crate::error::GameError;

/// The generator an agent draws from: ChaCha8, like the rules, but its own
/// stream, so an AI's choices never shift the game's random draws.
pub type AgentRng = rand_chacha::ChaCha8Rng;

/// The stream for `seat`'s `decision`-th decision in a session seeded with
/// `seed`: the same every run, and independent of the rules' stream.
pub fn agent_rng(seed: u64, seat: usize, decision: u64) -> AgentRng {
    let mut rng = AgentRng::seed_from_u64(seed);
    // Stream 0 is what `game_rng(seed)` uses; agents take 1 + seat.
    rng.set_stream(1 + seat as u64);
    rng.set_word_pos(u128::from(decision) << 20);
    rng
}

/// How much an agent may think.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Budget {
    /// Most search nodes (or playouts), when bounded.
    pub nodes: Option<u64>,
    /// Most wall-clock time, when bounded. Deadline budgets make a decision
    /// depend on the machine; the action is recorded, so replays do not.
    pub time: Option<Duration>,
}

impl Budget {
    /// No bound but cancellation: the agent's own limits apply.
    pub fn unbounded() -> Self {
        Self::default()
    }

    /// At most `nodes` nodes.
    pub fn nodes(nodes: u64) -> Self {
        Self {
            nodes: Some(nodes),
            time: None,
        }
    }

    /// At most `time`.
    pub fn time(time: Duration) -> Self {
        Self {
            nodes: None,
            time: Some(time),
        }
    }
}

/// Shared between the thread that thinks and the one that waits: cancel,
/// progress, and a short note for a "thinking" indicator.
#[derive(Debug, Default)]
pub struct ThinkControl {
    /// Shared with the controls of the job's parts ([`ThinkControl::part`]),
    /// so one cancel reaches every part.
    cancelled: Arc<AtomicBool>,
    /// Progress in millionths (0 to 1_000_000).
    progress: AtomicU32,
    nodes: AtomicU64,
    note: Mutex<String>,
}

impl ThinkControl {
    /// A fresh control: not cancelled, no progress.
    pub fn new() -> Self {
        Self::default()
    }

    /// A control for one part of this job (an AI's move in a game of a
    /// sim, a proof inside a check): its own progress, nodes and note, so
    /// one part's figures never mix with another's, and the job's cancel,
    /// so Ctrl+C or Cancel reaches the part at once.
    pub fn part(&self) -> ThinkControl {
        ThinkControl {
            cancelled: Arc::clone(&self.cancelled),
            ..ThinkControl::default()
        }
    }

    /// Asks the thinking side to stop as soon as it can.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// The cancel flag itself, for searches that take a plain `&AtomicBool`.
    pub fn cancel_flag(&self) -> &AtomicBool {
        &self.cancelled
    }

    /// Whether [`ThinkControl::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Reports progress as a fraction (clamped to 0..=1).
    pub fn set_progress(&self, fraction: f64) {
        let millionths = (fraction.clamp(0.0, 1.0) * 1_000_000.0) as u32;
        self.progress.store(millionths, Ordering::Relaxed);
    }

    /// Progress so far, 0 to 1.
    pub fn progress(&self) -> f64 {
        f64::from(self.progress.load(Ordering::Relaxed)) / 1_000_000.0
    }

    /// Adds to the node count.
    pub fn add_nodes(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Sets the one-line note shown beside the progress.
    pub fn set_note(&self, note: impl Into<String>) {
        if let Ok(mut guard) = self.note.lock() {
            *guard = note.into();
        }
    }

    /// The current note.
    pub fn note(&self) -> String {
        self.note.lock().map(|g| g.clone()).unwrap_or_default()
    }
}

/// What an agent gets while it decides: its random stream, its budget and
/// the control to watch.
pub struct Thinking<'a> {
    /// The agent's own random stream.
    pub rng: &'a mut AgentRng,
    /// The budget of this decision.
    pub budget: Budget,
    control: &'a ThinkControl,
    started: Instant,
    nodes: u64,
}

impl<'a> Thinking<'a> {
    /// Starts the clock of one decision.
    pub fn new(rng: &'a mut AgentRng, budget: Budget, control: &'a ThinkControl) -> Self {
        Self {
            rng,
            budget,
            control,
            started: Instant::now(),
            nodes: 0,
        }
    }

    /// Counts `n` more nodes (also shown to the waiting side).
    pub fn count_nodes(&mut self, n: u64) {
        self.nodes += n;
        self.control.add_nodes(n);
    }

    /// Nodes counted in this decision.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the agent must stop now: cancelled, out of nodes or out of
    /// time. Cheap enough to call every few hundred nodes.
    pub fn should_stop(&self) -> bool {
        self.control.is_cancelled()
            || self.budget.nodes.is_some_and(|max| self.nodes >= max)
            || self
                .budget
                .time
                .is_some_and(|max| self.started.elapsed() >= max)
    }

    /// The cancel flag, for searches that take a plain `&AtomicBool`.
    pub fn cancel_flag(&self) -> &AtomicBool {
        self.control.cancel_flag()
    }

    /// Whether the decision was cancelled (as opposed to out of budget).
    pub fn is_cancelled(&self) -> bool {
        self.control.is_cancelled()
    }

    /// Reports progress, 0 to 1.
    pub fn progress(&self, fraction: f64) {
        self.control.set_progress(fraction);
    }

    /// Sets the note shown beside the progress.
    pub fn note(&self, note: impl Into<String>) {
        self.control.set_note(note);
    }

    /// Time spent so far.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// One move an agent considered, for the "why" panel and the logs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Considered {
    /// The move, in words or as RON.
    pub action: String,
    /// Its value to the agent (higher is better).
    pub value: f64,
    /// Anything else worth showing (metrics, visits).
    pub detail: String,
}

/// An agent's answer: the action, and the best moves it weighed (best
/// first, usually the top 5).
#[derive(Debug, Clone)]
pub struct Decision<A> {
    /// What to play.
    pub action: A,
    /// The moves weighed, best first.
    pub considered: Vec<Considered>,
    /// The game's full account of the decision, for its log panel (the
    /// tetris AI log); `None` when the top moves say it all.
    pub explanation: Option<String>,
}

impl<A> Decision<A> {
    /// A decision without an explanation.
    pub fn just(action: A) -> Self {
        Self {
            action,
            considered: Vec::new(),
            explanation: None,
        }
    }
}

/// A game as its agents see it: what they decide from and what they answer.
/// A game with AI players implements it in its own crate (the snapshot is
/// the rules' read-only view); the agents themselves may come from any
/// crate, registered as values (`Registrar::agents`).
pub trait AgentGame {
    /// The read-only view an agent decides from. It holds no script: an
    /// agent never calls Lua.
    type Snapshot: Send + 'static;
    /// The move an agent answers with (the game's action).
    type Action;

    /// The view an agent decides from, taken now.
    fn snapshot(&self) -> Self::Snapshot;
}

/// A game's AI player, ready to decide. Built by the game's registered
/// agent maker with every tunable already read; it never calls Lua.
pub trait Agent<G: AgentGame>: Send {
    /// Picks a move for the snapshot. Returns [`GameError::Cancelled`] when
    /// cancelled before it had any move, and the best move so far when the
    /// budget runs out.
    fn decide(
        &mut self,
        view: &G::Snapshot,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<G::Action>, GameError>;
}

/// An agent bound to the snapshot it decides from: all a task needs of the
/// game, with the snapshot's type erased so sessions bound on the game's
/// core alone can hold it.
type BoundAgent<A> = Box<dyn FnOnce(&mut Thinking<'_>) -> Result<Decision<A>, GameError> + Send>;

/// Everything one decision needs, detached from the game: it can be sent
/// to a worker thread while the game stays where it is. `A` is the game's
/// action.
pub struct AiTask<A> {
    /// The seat deciding.
    pub seat: usize,
    /// The AI level playing it.
    pub level: String,
    agent: BoundAgent<A>,
    rng: AgentRng,
    budget: Budget,
}

impl<A: 'static> AiTask<A> {
    /// Bundles an agent with its snapshot and stream.
    pub fn new<G>(
        seat: usize,
        level: String,
        mut agent: Box<dyn Agent<G>>,
        view: G::Snapshot,
        rng: AgentRng,
    ) -> Self
    where
        G: AgentGame<Action = A> + 'static,
    {
        Self {
            seat,
            level,
            agent: Box::new(move |thinking| agent.decide(&view, thinking)),
            rng,
            budget: Budget::unbounded(),
        }
    }

    /// Replaces the budget.
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// Decides (on whatever thread calls this).
    pub fn run(mut self, control: &ThinkControl) -> Result<Decision<A>, GameError> {
        let mut thinking = Thinking::new(&mut self.rng, self.budget, control);
        let decision = (self.agent)(&mut thinking);
        control.set_progress(1.0);
        decision
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn agent_streams_differ_from_the_rules_and_from_each_other() {
        let rules = crate::rng::game_rng(7).next_u64();
        let seat0 = agent_rng(7, 0, 0).next_u64();
        let seat1 = agent_rng(7, 1, 0).next_u64();
        let seat0_next = agent_rng(7, 0, 1).next_u64();
        assert_ne!(rules, seat0);
        assert_ne!(seat0, seat1);
        assert_ne!(seat0, seat0_next);
        assert_eq!(seat0, agent_rng(7, 0, 0).next_u64(), "reproducible");
    }

    #[test]
    fn thinking_stops_on_cancel_nodes_and_time() {
        let control = ThinkControl::new();
        let mut rng = agent_rng(1, 0, 0);
        let mut t = Thinking::new(&mut rng, Budget::nodes(10), &control);
        assert!(!t.should_stop());
        t.count_nodes(10);
        assert!(t.should_stop());
        assert_eq!(control.nodes(), 10);

        let mut rng = agent_rng(1, 0, 0);
        let t = Thinking::new(&mut rng, Budget::time(Duration::ZERO), &control);
        assert!(t.should_stop());

        let mut rng = agent_rng(1, 0, 0);
        let t = Thinking::new(&mut rng, Budget::unbounded(), &control);
        assert!(!t.should_stop());
        control.cancel();
        assert!(t.should_stop() && t.is_cancelled());
    }
}
