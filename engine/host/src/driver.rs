//! The one driver of AI seats, for every game and every caller.
//!
//! An AI seat's decision is built on the session's thread (the agent reads
//! the script there) and run elsewhere: on a worker thread with progress
//! and cancel in the editor ([`Driver`], polled once a frame), or right
//! away on the caller's thread for headless play and simulations
//! ([`play_ai_turns`]). Either way the decision is applied and recorded
//! like a player's move, so replays never re-run an AI.

use std::time::{Duration, Instant};

use crate::agent::{Budget, ThinkControl};
use crate::plugin::{GameError, Turn};
use crate::session::{ErasedDecision, Session};
use crate::worker::{Job, Poll};

/// How a headless run of AI turns ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AiTurnsEnd {
    /// A player (not an AI) is to move, or the game runs in real time.
    PlayerToMove,
    /// The game is over.
    GameOver,
    /// `max_moves` AI moves were played.
    MoveLimit,
    /// `control` was cancelled between two moves.
    Cancelled,
    /// The caller's `on_move` asked to stop (a simulation's cap).
    Stopped,
}

/// One AI move [`play_ai_turns_timed`] applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AiMove {
    /// The seat that moved.
    pub seat: usize,
    /// The action, as RON.
    pub action_ron: String,
    /// The time the decision took (the search alone: not building the
    /// task, not applying the move).
    pub thinking: Duration,
}

/// Plays the AI seats on this thread while one is to move: at most
/// `max_moves` moves, each within `budget`, stopping between moves when
/// `control` is cancelled. `on_move` hears of each applied decision (the
/// CLI prints the game's events there). A seat that finds no move is an
/// error naming the seat.
pub fn play_ai_turns(
    session: &mut dyn Session,
    budget: Budget,
    max_moves: usize,
    control: &ThinkControl,
    on_move: &mut dyn FnMut(&mut dyn Session, &str),
) -> Result<AiTurnsEnd, GameError> {
    play_ai_turns_timed(
        session,
        budget,
        max_moves,
        control,
        &mut |session, ai_move| {
            on_move(session, &ai_move.action_ron);
            true
        },
    )
}

/// [`play_ai_turns`] for callers that measure: `on_move` hears of each
/// applied move with its thinking time, and stops the run by returning
/// `false` ([`AiTurnsEnd::Stopped`]; simulations stop a game at their cap).
pub fn play_ai_turns_timed(
    session: &mut dyn Session,
    budget: Budget,
    max_moves: usize,
    control: &ThinkControl,
    on_move: &mut dyn FnMut(&mut dyn Session, &AiMove) -> bool,
) -> Result<AiTurnsEnd, GameError> {
    for _ in 0..max_moves {
        if session.turn() == Turn::Over {
            return Ok(AiTurnsEnd::GameOver);
        }
        if control.is_cancelled() {
            return Ok(AiTurnsEnd::Cancelled);
        }
        let Some(seat) = session.ai_to_move() else {
            return Ok(AiTurnsEnd::PlayerToMove);
        };
        let task = session.ai_task(seat, budget)?;
        // Each move thinks under its own part of the control, so one
        // move's figures never mix with another's; a cancel reaches the
        // move in progress.
        let started = Instant::now();
        let decision = match task.run(&control.part()) {
            Ok(decision) => decision,
            // The job's cancel reached the decision in progress: the
            // turns end here, as a cancel between two moves ends them.
            Err(GameError::Cancelled) if control.is_cancelled() => {
                return Ok(AiTurnsEnd::Cancelled);
            }
            Err(GameError::Cancelled) => return Err(GameError::Cancelled),
            Err(other) => {
                return Err(GameError::Invalid(format!(
                    "the AI of seat {} found no move: {other}",
                    seat + 1
                )));
            }
        };
        let thinking = started.elapsed();
        let action_ron = decision.action_ron.clone();
        session.apply_ai(decision)?;
        let ai_move = AiMove {
            seat,
            action_ron,
            thinking,
        };
        if !on_move(session, &ai_move) {
            return Ok(AiTurnsEnd::Stopped);
        }
    }
    if session.turn() == Turn::Over {
        Ok(AiTurnsEnd::GameOver)
    } else {
        Ok(AiTurnsEnd::MoveLimit)
    }
}

/// [`play_ai_turns`] for a person at a terminal: each decision runs on a
/// worker thread (the [`Driver`]) while this thread looks in every
/// `every`: a cancel of `control` (Ctrl+C) reaches the decision in
/// progress at once, not after it, and `on_thinking` hears the decision's
/// status each look (to draw a progress line). A search a script sized
/// for minutes (Azul's `hard.nodes`, `expert.seconds`) can so be watched
/// and stopped; the moves played before the stop stay recorded.
pub fn play_ai_turns_watched(
    session: &mut dyn Session,
    budget: Budget,
    max_moves: usize,
    control: &ThinkControl,
    every: Duration,
    on_thinking: &mut dyn FnMut(&ThinkingStatus),
    on_move: &mut dyn FnMut(&mut dyn Session, &str),
) -> Result<AiTurnsEnd, GameError> {
    let mut driver = Driver::new(budget);
    let mut played = 0;
    loop {
        if session.turn() == Turn::Over {
            return Ok(AiTurnsEnd::GameOver);
        }
        if played >= max_moves {
            return Ok(AiTurnsEnd::MoveLimit);
        }
        if control.is_cancelled() {
            // Dropping the driver cancels the decision in progress.
            return Ok(AiTurnsEnd::Cancelled);
        }
        match driver.poll(session, true, Duration::ZERO) {
            Drive::Idle => return Ok(AiTurnsEnd::PlayerToMove),
            Drive::Thinking => {
                // Short naps while a decision is young (most take
                // milliseconds: 300 moves must not cost 300 looks of
                // `every`), up to `every` for a long one.
                let mut nap = every;
                if let Some(status) = driver.thinking() {
                    on_thinking(&status);
                    nap = (status.elapsed / 8).clamp(Duration::from_micros(200), every);
                }
                std::thread::sleep(nap);
            }
            Drive::Decided(decision) => {
                let action_ron = decision.action_ron.clone();
                session.apply_ai(decision)?;
                played += 1;
                on_move(session, &action_ron);
            }
            Drive::Cancelled | Drive::Paused => return Ok(AiTurnsEnd::Cancelled),
            Drive::Failed(e) => {
                let seat = session.ai_to_move().unwrap_or(0);
                return Err(match e {
                    GameError::Cancelled => GameError::Cancelled,
                    other => GameError::Invalid(format!(
                        "the AI of seat {} found no move: {other}",
                        seat + 1
                    )),
                });
            }
        }
    }
}

/// What one [`Driver::poll`] did.
pub enum Drive {
    /// No AI seat is to move (or the view holds them back).
    Idle,
    /// An AI seat is deciding on its worker.
    Thinking,
    /// A decision is ready: hand it to the view to apply (so it can show
    /// the move), then report the result with [`Driver::applied`].
    Decided(ErasedDecision),
    /// AI seats wait until [`Driver::resume`] (after a cancel or an error).
    Paused,
    /// The decision was cancelled; the seats now wait.
    Cancelled,
    /// The AI failed; the seats now wait.
    Failed(GameError),
}

/// What the "thinking" line shows.
#[derive(Debug, Clone)]
pub struct ThinkingStatus {
    /// Who thinks: `ai:hard (seat 2)`.
    pub label: String,
    /// How long it has been thinking.
    pub elapsed: Duration,
    /// 0..1, or 0 when the AI does not say.
    pub progress: f64,
    /// The AI's own note (`12,000 playouts`).
    pub note: String,
}

/// Runs the AI seats of one session off the caller's thread: polled once a
/// frame, it starts a decision when an AI seat is to move, and hands back
/// the decision when it is ready. Dropping it cancels the decision.
pub struct Driver {
    budget: Budget,
    thinking: Option<Thought>,
    paused: bool,
}

/// A decision in progress, and the record length it was asked at: a
/// decision for a position that has since changed (an undo, a reload of
/// the game) is stale and thrown away.
struct Thought {
    job: Job<Result<ErasedDecision, GameError>>,
    at_step: usize,
    /// The decision, once made, waiting out the reaction time.
    decided: Option<ErasedDecision>,
}

impl Default for Driver {
    fn default() -> Self {
        Self::new(Budget::unbounded())
    }
}

impl Driver {
    /// A driver giving each decision `budget` (the AI's own limits from
    /// the script apply too).
    pub fn new(budget: Budget) -> Self {
        Self {
            budget,
            thinking: None,
            paused: false,
        }
    }

    /// One step, never blocking. `may_move`: the view is ready for an AI
    /// move (it is not still showing the last one); `min_think`: a
    /// decision is handed over no sooner than this after it was asked
    /// (an AI's "reaction time", presentation only).
    pub fn poll(&mut self, session: &dyn Session, may_move: bool, min_think: Duration) -> Drive {
        if self
            .thinking
            .as_ref()
            .is_some_and(|t| t.at_step != session.step_count())
        {
            self.thinking = None;
        }
        if let Some(thought) = self.thinking.as_mut() {
            if thought.decided.is_none() {
                match thought.job.poll() {
                    Poll::Running => return Drive::Thinking,
                    Poll::Done(Ok(_)) | Poll::Done(Err(GameError::Cancelled))
                        if thought.job.is_cancelled() =>
                    {
                        return self.stop(Drive::Cancelled);
                    }
                    Poll::Done(Ok(decision)) => thought.decided = Some(decision),
                    Poll::Done(Err(e)) => return self.stop(Drive::Failed(e)),
                    Poll::Lost => {
                        let lost = GameError::Invalid("the AI stopped unexpectedly".into());
                        return self.stop(Drive::Failed(lost));
                    }
                }
            }
            if thought.job.elapsed() < min_think {
                return Drive::Thinking;
            }
            return match self.thinking.take().and_then(|t| t.decided) {
                Some(decision) => Drive::Decided(decision),
                None => Drive::Idle,
            };
        }
        let Some(seat) = session.ai_to_move() else {
            return Drive::Idle;
        };
        if self.paused {
            return Drive::Paused;
        }
        if !may_move {
            return Drive::Idle;
        }
        let level = session.options().ai_level(seat).unwrap_or("ai").to_string();
        match session.ai_task(seat, self.budget) {
            Ok(task) => {
                self.thinking = Some(Thought {
                    job: Job::spawn(format!("ai:{level} (seat {})", seat + 1), move |control| {
                        task.run(control)
                    }),
                    at_step: session.step_count(),
                    decided: None,
                });
                Drive::Thinking
            }
            Err(e) => {
                self.paused = true;
                Drive::Failed(e)
            }
        }
    }

    /// Ends the decision in progress and pauses the seats.
    fn stop(&mut self, drive: Drive) -> Drive {
        self.thinking = None;
        self.paused = true;
        drive
    }

    /// Reports how applying a [`Drive::Decided`] went: an error pauses the
    /// seats, so a refused AI move is not asked for again and again.
    pub fn applied(&mut self, result: &Result<(), GameError>) {
        if result.is_err() {
            self.paused = true;
        }
    }

    /// The decision in progress, for a "thinking" line.
    pub fn thinking(&self) -> Option<ThinkingStatus> {
        let thought = self.thinking.as_ref()?;
        let control = thought.job.control();
        Some(ThinkingStatus {
            label: thought.job.label().to_string(),
            elapsed: thought.job.elapsed(),
            progress: control.progress(),
            note: control.note(),
        })
    }

    /// Whether a decision is being computed now (asked and not yet made;
    /// not while a made one waits out the reaction time).
    pub fn is_computing(&self) -> bool {
        self.thinking.as_ref().is_some_and(|t| t.decided.is_none())
    }

    /// Whether the seats wait for [`Driver::resume`].
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Lets the AI seats play on.
    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// Cancels the decision in progress; the seats then wait.
    pub fn cancel(&mut self) {
        if let Some(thought) = &self.thinking {
            thought.job.cancel();
        }
    }

    /// Forgets the decision in progress without pausing (the position is
    /// about to change: an undo, a new game).
    pub fn forget(&mut self) {
        self.thinking = None;
    }
}
