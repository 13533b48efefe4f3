//! "Best achievable": what the hard AI achieves on a scenario. The goal's
//! seat is played by the hard AI's search; every other seat by the AI the
//! scenario names for it (the hard AI where it names a human). Runs on any
//! thread (the editor's `Job`, tests), honours cancel, reports progress.

use tessera_host::agent::{Budget, ThinkControl, Thinking, agent_rng};
use tessera_host::{
    AgentGame, Game, GameError, LiveScript, Outcome, Reports, Seat, SessionOptions, Setup, Turn,
};

use crate::{Azul, AzulLevel};

/// The AI level that plays the goal's seat.
pub const GOAL_SEAT_AI: &str = "hard";

/// What the hard AI achieved from a scenario's position.
#[derive(Debug, Clone, PartialEq)]
pub struct Achievement {
    /// Whether the goal was met (`None`: the level has no goal).
    pub met: Option<bool>,
    /// The goal seat's points against its goal: gained in the round for a
    /// round goal, else its final score.
    pub progress: i32,
    /// Every seat's score at the end.
    pub scores: Vec<i64>,
    /// The moves played, in words (`player 1: blue from factory 2 to line 3`).
    pub moves: Vec<String>,
    /// The session's outcome.
    pub outcome: Outcome,
}

/// The seats used: the scenario's, with the goal seat (and any human seat)
/// given to the hard AI.
pub fn achieve_seats(level: &AzulLevel) -> Vec<Seat> {
    let players = level.players().unwrap_or(2);
    let goal_seat = level.goal.seat().unwrap_or(0);
    (0..players)
        .map(|p| match level.seats.get(p) {
            Some(Seat::Ai { level }) if p != goal_seat => Seat::Ai {
                level: level.clone(),
            },
            _ => Seat::Ai {
                level: GOAL_SEAT_AI.into(),
            },
        })
        .collect()
}

/// Plays the scenario out with AIs (see the module text). `seed` seeds the
/// deals of later rounds and the AIs' streams; `max_moves` guards against
/// an endless game. Progress: the share of the first round's tiles taken
/// (then of later rounds), with a note naming the round and move.
pub fn achieve(
    level: &AzulLevel,
    script: LiveScript,
    seed: u64,
    control: &ThinkControl,
) -> Result<Achievement, GameError> {
    let seats = achieve_seats(level);
    let options = SessionOptions {
        mode: Some("play".into()),
        seats: seats.clone(),
    };
    let mut game = Azul::start(Setup {
        level: level.clone(),
        script,
        seed,
        options,
    })?;
    let mut agents = Vec::new();
    for (p, seat) in seats.iter().enumerate() {
        let name = seat.ai_level().unwrap_or(GOAL_SEAT_AI);
        agents.push(game.agent(p, name)?);
    }
    let mut moves = Vec::new();
    let mut decision = 0u64;
    let mut round_tiles = u32::from(game.state().on_table).max(1);
    let mut round = game.state().round;
    while let Turn::Seat(p) = game.turn() {
        if control.is_cancelled() {
            return Err(GameError::Cancelled);
        }
        if moves.len() > 2_000 {
            return Err(GameError::Invalid("no end after 2000 moves".into()));
        }
        if game.state().round != round {
            round = game.state().round;
            round_tiles = u32::from(game.state().on_table).max(1);
        }
        let taken = round_tiles.saturating_sub(u32::from(game.state().on_table));
        control.set_progress(f64::from(taken) / f64::from(round_tiles));
        control.set_note(format!("round {round}, move {}", moves.len() + 1));
        let mut rng = agent_rng(seed, p, decision);
        decision += 1;
        let view = game.snapshot();
        let chosen = {
            let mut thinking = Thinking::new(&mut rng, Budget::unbounded(), control);
            agents[p].decide(&view, &mut thinking)?
        };
        if control.is_cancelled() {
            return Err(GameError::Cancelled);
        }
        moves.push(format!("player {}: {}", p + 1, chosen.action));
        game.apply(&chosen.action)?;
        game.take_events();
    }
    control.set_progress(1.0);
    Ok(Achievement {
        met: game.goal_met(),
        progress: game.goal_progress().unwrap_or(0),
        scores: game.scores(),
        moves,
        outcome: game.outcome(),
    })
}
