//! A decision stops at its cancel (Ctrl+C, the editor's Cancel): every
//! search of the bot (the planner and the kept line search against
//! HATETRIS, the expected-line search against an `own` adversary, the
//! classic lookahead) reads the flag within milliseconds of work, a
//! cancelled decision has no move, and the brain it leaves decides as a
//! new one.

use super::tetris_support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tessera_host::agent::AgentGame;
use tessera_host::agent::{Agent, Budget, ThinkControl, Thinking, agent_rng};
use tessera_host::plugin::GameError;
use tessera_tetris::board::Board;
use tessera_tetris::piece::PieceKind;
use tessera_tetris_bot::agents::PlacerAgent;
use tessera_tetris_bot::ai::limits::beam_within_budget;
use tessera_tetris_bot::ai::{Adversary, Brain, Cancelled, Difficulty, Position};
use tetris_support::*;

/// The shipped VS_HATETRIS row.
fn vs_hatetris() -> Difficulty {
    tessera_tetris_bot::ai::settings::difficulties(&shipped().current())
        .expect("the shipped table")
        .into_iter()
        .find(|d| d.name == "VS_HATETRIS")
        .expect("a VS_HATETRIS row")
}

/// Rows whose first decision on an empty well takes seconds, one per
/// search of the bot.
fn heavy_rows() -> Vec<(&'static str, Difficulty, Position)> {
    let well = Position::shipped(Board::new(10, 20), PieceKind::T);
    let planner = Difficulty {
        line_beam: 16_384,
        line_step: 32,
        ..vs_hatetris()
    };
    let line_search = Difficulty {
        line_beam: 16_384,
        line_depth: 32,
        line_step: 0,
        line_lead: 0,
        ..vs_hatetris()
    };
    let own_depth = 64;
    let own = Difficulty {
        adversary: Adversary::Own,
        order: Vec::new(),
        lookahead: 1,
        line_depth: own_depth,
        line_beam: beam_within_budget(Adversary::Own, u16::from(own_depth), 10),
        ..god()
    };
    // The classic lookahead, two pieces deep over a wide well.
    let classic = Difficulty {
        order: Vec::new(),
        lookahead: 2,
        beam: 4096,
        ..god()
    };
    let wide = Position {
        unknown_next: tessera_tetris_bot::ai::UnknownNext::Average(PieceKind::ALL.to_vec()),
        ..Position::shipped(Board::new(64, 24), PieceKind::T)
    };
    vec![
        ("planner", planner, well.clone()),
        ("line search", line_search, well.clone()),
        ("own", own, well),
        ("classic lookahead", classic, wide),
    ]
}

#[test]
fn every_search_stops_within_a_tenth_of_a_second_of_its_cancel() {
    for (name, difficulty, position) in heavy_rows() {
        assert_eq!(difficulty.problem(), None, "{name}");
        let cancel = AtomicBool::new(false);
        let mut brain = Brain::new();
        let (result, stopped_after) = std::thread::scope(|scope| {
            let canceller = scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(150));
                cancel.store(true, Ordering::Relaxed);
                Instant::now()
            });
            let result = brain
                .choose_top_until(&position, &difficulty, 0, 2, &cancel)
                .map(|c| c.candidates.len());
            let returned = Instant::now();
            let cancelled_at = canceller.join().expect("the canceller");
            (result, returned.saturating_duration_since(cancelled_at))
        });
        assert_eq!(
            result,
            Err(Cancelled),
            "{name}: decided before its cancel: the row is not heavy"
        );
        // 100 ms is the contract; the slack is a loaded test machine's.
        assert!(
            stopped_after < Duration::from_millis(250),
            "{name}: stopped {stopped_after:?} after its cancel"
        );
    }
}

#[test]
fn a_cancelled_decision_leaves_a_brain_that_decides_as_a_new_one() {
    // A small planner: its plan is kept from one decision to the next.
    let planner = Difficulty {
        line_beam: 48,
        line_step: 4,
        line_lead: 2,
        ..vs_hatetris()
    };
    let start = tessera_tetris_bot::ai::hatetris_offline::empty_well(PieceKind::S);
    let mut brain = Brain::new();
    brain.choose(&start, &planner, 0);
    let set = AtomicBool::new(true);
    assert_eq!(
        brain
            .choose_until(&start, &planner, 0, &set)
            .map(|c| c.candidates.len()),
        Err(Cancelled)
    );
    let after = brain.choose(&start, &planner, 0);
    let fresh = Brain::new().choose(&start, &planner, 0);
    assert_eq!(after, fresh);
    assert!(
        !brain.plan_stats().followed,
        "the plan went with the cancel"
    );
    // Not cancelled, the decision is `choose`'s, bit for bit.
    let unset = AtomicBool::new(false);
    assert_eq!(
        Brain::new().choose_until(&start, &planner, 0, &unset),
        Ok(fresh)
    );
}

#[test]
fn a_cancelled_agent_returns_cancelled_not_a_move() {
    let game = start(level(20, &[], "TTT", "srs"), 1);
    let mut agent = PlacerAgent::new(god(), 5);
    let control = ThinkControl::new();
    control.cancel();
    let mut rng = agent_rng(1, 0, 0);
    let mut thinking = Thinking::new(&mut rng, Budget::unbounded(), &control);
    let decided = agent.decide(&game.snapshot(), &mut thinking);
    assert!(
        matches!(decided, Err(GameError::Cancelled)),
        "{:?}",
        decided.map(|d| d.action)
    );
}
