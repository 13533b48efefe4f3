//! The line search against HATETRIS (`adversary = "height"`): the tree
//! kept across decisions decides as a fresh search of the same size on a
//! game's first decision, serves the next position, rebuilds on a position
//! it does not know, and a whole game is the same game every time, whatever
//! the brain played before.

use super::tetris_support;

use tessera_host::agent::agent_rng;
use tessera_tetris::board::Board;
use tessera_tetris::movegen::Placement;
use tessera_tetris::piece::PieceKind;
use tessera_tetris_bot::ai::feeder::{Feeder, pick};
use tessera_tetris_bot::ai::{Adversary, Brain, Candidate, Difficulty, PlanStats, Position};
use tetris_support::*;

/// A small search against HATETRIS: `step` plies of `width` boards a
/// decision (0 = afresh, `depth` plies every decision), the kept tree (no
/// planner).
fn hatetris_row(width: usize, depth: u8, step: u8) -> Difficulty {
    let shipped = tessera_tetris_bot::ai::settings::difficulties(&shipped().current())
        .expect("the shipped table")
        .into_iter()
        .find(|d| d.name == "VS_HATETRIS")
        .expect("a VS_HATETRIS row");
    assert_eq!(shipped.adversary, Adversary::Height);
    Difficulty {
        line_beam: width,
        line_depth: depth,
        line_step: step,
        line_lead: 0,
        ..shipped
    }
}

/// A small planner against HATETRIS: beams of at most `width` boards a
/// ply, `step` plies' worth of them a decision, rooted `lead` moves ahead.
fn planner_row(width: usize, step: u8, lead: u8) -> Difficulty {
    Difficulty {
        line_lead: lead,
        ..hatetris_row(width, 32, step)
    }
}

/// HATETRIS's 10 x 20 well, empty, with `piece` to place.
fn empty_well(piece: PieceKind) -> Position {
    tessera_tetris_bot::ai::hatetris_offline::empty_well(piece)
}

/// `position` with a piece HATETRIS would not give there (a T, or an I
/// where it gives the T).
fn with_another_piece(position: &Position) -> Position {
    let piece = if position.piece == PieceKind::T {
        PieceKind::I
    } else {
        PieceKind::T
    };
    Position {
        piece,
        ..position.clone()
    }
}

/// The ranking's view of a decision: where each candidate lands and its
/// lookahead value, best first.
fn ranked(candidates: &[Candidate]) -> Vec<(Placement, Option<f64>)> {
    candidates.iter().map(|c| (c.placement, c.ahead)).collect()
}

/// The position after `placement` on `position`, with the piece the
/// `hatetris` feeder gives next.
fn after(position: &Position, placement: Placement, brain: &mut Brain) -> Option<Position> {
    let mut board = position.board;
    board.place(placement.kind, placement.state, placement.x, placement.y);
    board.clear_full_rows();
    let mut next = Position {
        board,
        ..position.clone()
    };
    let mut rng = agent_rng(0, 0, 0);
    next.piece = pick(
        Feeder::Hatetris,
        brain,
        &next,
        &PieceKind::ALL,
        &god(),
        &mut rng,
    )?;
    Some(next)
}

/// Plays `pieces` moves against the `hatetris` feeder from an empty well
/// with `brain`: the moves and the rows cleared.
fn play_game(brain: &mut Brain, difficulty: &Difficulty, pieces: usize) -> (Vec<Placement>, u32) {
    let mut moves = Vec::new();
    let lines = play_watched(brain, difficulty, pieces, &mut |_, _, p| moves.push(p));
    (moves, lines)
}

/// [`play_game`], showing `watch` the brain after each decision, the rows
/// cleared before it and its move; the rows cleared.
fn play_watched(
    brain: &mut Brain,
    difficulty: &Difficulty,
    pieces: usize,
    watch: &mut dyn FnMut(&Brain, u32, Placement),
) -> u32 {
    let mut feeder_brain = Brain::new();
    let mut position = empty_well(PieceKind::S);
    let mut lines = 0;
    for _ in 0..pieces {
        let choice = brain.choose(&position, difficulty, 0);
        let Some(best) = choice.best() else { break };
        if best.metrics.game_over {
            break;
        }
        let (placement, cleared) = (best.placement, best.metrics.lines_cleared);
        watch(brain, lines, placement);
        lines += cleared;
        match after(&position, placement, &mut feeder_brain) {
            Some(next) => position = next,
            None => break,
        }
    }
    lines
}

#[test]
fn a_kept_search_decides_its_first_move_as_a_fresh_search_of_its_size() {
    let kept = hatetris_row(48, 32, 2);
    let mut brain = Brain::new();
    let position = empty_well(PieceKind::S);
    let first = brain.choose(&position, &kept, 0);
    let stats = brain.hatetris_stats();
    assert!(!stats.kept, "nothing to keep on a new brain");
    assert!(stats.depth >= 2, "{stats:?}");
    // A fresh search as deep as the kept one reached, as wide.
    let fresh = hatetris_row(48, stats.depth as u8, 0);
    let again = Brain::new().choose(&position, &fresh, 0);
    assert_eq!(ranked(&first.candidates), ranked(&again.candidates));
    assert!(first.candidates[0].ahead.is_some());
}

#[test]
fn the_next_position_keeps_the_tree_and_a_position_it_does_not_know_rebuilds() {
    let kept = hatetris_row(48, 32, 1);
    let mut brain = Brain::new();
    let mut feeder_brain = Brain::new();
    let start = empty_well(PieceKind::S);
    let first = brain.choose(&start, &kept, 0);
    let depth = brain.hatetris_stats().depth;
    let best = first.best().expect("a move").placement;
    let next = after(&start, best, &mut feeder_brain).expect("a next piece");
    brain.choose(&next, &kept, 0);
    let stats = brain.hatetris_stats();
    assert!(
        stats.kept,
        "the move played and HATETRIS's piece: {stats:?}"
    );
    // One ply of 48 boards at most, and the tree is a ply deeper than the
    // first decision's was after losing the ply just played.
    assert!(stats.expanded <= 48, "{stats:?}");
    assert_eq!(stats.depth, depth, "{stats:?}");

    // The same board with a piece HATETRIS would not give: rebuilt, and
    // decided as a brain that never saw this game decides.
    let other = with_another_piece(&next);
    let rebuilt = brain.choose(&other, &kept, 0);
    assert!(!brain.hatetris_stats().kept);
    let fresh = Brain::new().choose(&other, &kept, 0);
    assert_eq!(ranked(&rebuilt.candidates), ranked(&fresh.candidates));

    // Another difficulty rebuilds too, even on the tree's own position.
    let wider = hatetris_row(64, 32, 1);
    brain.choose(&other, &wider, 0);
    assert!(!brain.hatetris_stats().kept);
}

#[test]
fn a_game_against_hatetris_is_the_same_game_whatever_the_brain_played_before() {
    let kept = hatetris_row(64, 32, 1);
    let mut brain = Brain::new();
    let (first, lines) = play_game(&mut brain, &kept, 40);
    assert_eq!(first.len(), 40, "the search survives 40 pieces");
    // The same brain, its tree left at the end of the last game.
    let (second, _) = play_game(&mut brain, &kept, 40);
    assert_eq!(first, second);
    // A new brain.
    let (third, again) = play_game(&mut Brain::new(), &kept, 40);
    assert_eq!(first, third);
    assert_eq!(lines, again);
    // Kept and afresh are different searches: the kept one must not be a
    // fresh search in disguise.
    let afresh = hatetris_row(64, 1, 0);
    let (fresh_moves, _) = play_game(&mut Brain::new(), &afresh, 40);
    assert_ne!(first, fresh_moves);
}

#[test]
fn a_rolling_beam_deeper_than_its_first_decisions_plays_one_game() {
    // The rolling beam: the tree kept, 2 plies' worth of boards a decision
    // until it runs 64 plies ahead, so after 36 decisions it looks further
    // than any tree of links did (the older plies are compact steps).
    let rolling = hatetris_row(96, 64, 2);
    let mut brain = Brain::new();
    let (first, lines) = play_game(&mut brain, &rolling, 36);
    assert_eq!(first.len(), 36, "the search survives 36 pieces");
    let stats = brain.hatetris_stats();
    assert!(stats.kept && stats.depth > 32, "{stats:?}");
    let (again, lines_again) = play_game(&mut Brain::new(), &rolling, 36);
    assert_eq!(first, again);
    assert_eq!(lines, lines_again);
    // The rows it claims are the rows its moves clear on the well.
    let mut board = Board::new(10, 20);
    let mut cleared = 0;
    for p in &first {
        assert!(board.fits(p.kind, p.state, p.x, p.y), "{p:?}");
        board.place(p.kind, p.state, p.x, p.y);
        cleared += board.clear_full_rows().count_ones();
    }
    assert_eq!(cleared, lines);
}

/// One game of `difficulty` against the `hatetris` feeder from an empty
/// well with a new brain, to its end: each decision's plan figures, the
/// rows cleared before it, and its move; and the game's rows.
fn play_planned(difficulty: &Difficulty) -> (Vec<(PlanStats, u32, Placement)>, u32) {
    let mut decisions = Vec::new();
    let lines = play_watched(
        &mut Brain::new(),
        difficulty,
        1000,
        &mut |brain, before, p| decisions.push((brain.plan_stats(), before, p)),
    );
    (decisions, lines)
}

#[test]
fn the_planner_keeps_its_word_and_only_ever_raises_it() {
    let row = planner_row(48, 2, 4);
    let budget = 48 * 2;
    let (decisions, lines) = play_planned(&row);
    assert!(decisions.len() > 20, "{} decisions", decisions.len());
    // The first decision plans; every later one follows the plan, which
    // knows HATETRIS's piece, and works within its budget of boards.
    assert!(!decisions[0].0.followed);
    for (stats, _, _) in &decisions[1..] {
        assert!(stats.followed, "{stats:?}");
    }
    for (stats, _, _) in &decisions {
        assert!(stats.expanded <= budget, "{stats:?}");
    }
    // The rows promised (cleared so far plus the plan's) never fall, rise
    // when a beam finds a better line, and the game clears exactly the
    // last promise: the plan is played as planned.
    let promised: Vec<u32> = decisions
        .iter()
        .map(|(s, before, _)| before + s.plan_lines)
        .collect();
    assert!(promised.windows(2).all(|w| w[0] <= w[1]), "{promised:?}");
    assert!(
        decisions.iter().any(|(s, _, _)| s.improved),
        "no beam improved the first plan"
    );
    assert!(promised[promised.len() - 1] > promised[0], "{promised:?}");
    assert_eq!(lines, promised[promised.len() - 1]);
    // The moves fit the well and clear the rows counted.
    let mut board = Board::new(10, 20);
    let mut cleared = 0;
    for (_, _, p) in &decisions {
        assert!(board.fits(p.kind, p.state, p.x, p.y), "{p:?}");
        board.place(p.kind, p.state, p.x, p.y);
        cleared += board.clear_full_rows().count_ones();
    }
    assert_eq!(cleared, lines);
    // The same game again with a new brain; another lead is another game.
    let (again, lines_again) = play_planned(&row);
    assert_eq!(decisions, again);
    assert_eq!(lines, lines_again);
    let (other, _) = play_planned(&planner_row(48, 2, 6));
    let moves = |d: &[(PlanStats, u32, Placement)]| d.iter().map(|x| x.2).collect::<Vec<_>>();
    assert_ne!(moves(&decisions), moves(&other));
}

#[test]
fn a_position_off_the_plan_plans_afresh_as_a_new_brain_would() {
    let row = planner_row(48, 2, 4);
    let mut brain = Brain::new();
    let mut feeder_brain = Brain::new();
    let start = empty_well(PieceKind::S);
    let first = brain.choose(&start, &row, 0);
    let best = first.best().expect("a move").placement;
    assert_eq!(first.candidates[0].placement, best);
    assert!(first.candidates[0].ahead.is_some());
    assert!(first.candidates[1..].iter().all(|c| c.ahead.is_none()));
    let next = after(&start, best, &mut feeder_brain).expect("a next piece");
    brain.choose(&next, &row, 0);
    assert!(brain.plan_stats().followed);
    // A piece HATETRIS would not give there: not the plan's position.
    let other = with_another_piece(&next);
    let replanned = brain.choose(&other, &row, 0);
    assert!(!brain.plan_stats().followed);
    let fresh = Brain::new().choose(&other, &row, 0);
    assert_eq!(ranked(&replanned.candidates), ranked(&fresh.candidates));
}

/// The AI's moves of one game of `vs_hatetris` against the `hatetris`
/// feeder, started through the project as `tessera tetris hatetris` and
/// `sim` start it, stopped after `pieces` pieces.
fn session_moves(pieces: u64) -> Vec<String> {
    use tessera_host::driver::play_ai_turns_timed;
    use tessera_host::options::{Seat, SessionOptions};
    use tessera_host::sim::{SimLevel, SimOptions};
    let mut project = tessera_host::project::Project::open(
        &tessera_testkit::repo_path(""),
        tessera_tetris_bot::registry(),
    )
    .expect("the repository's project");
    let options = SessionOptions {
        mode: Some("feed".into()),
        seats: vec![
            Seat::Ai {
                level: "hatetris".into(),
            },
            Seat::Ai {
                level: "vs_hatetris".into(),
            },
        ],
    };
    let mut sim = SimOptions::default();
    sim.set("pieces", pieces);
    let mut session = project
        .start_sim_session("tetris", &SimLevel::Default, 0, &options, &sim)
        .expect("starts");
    let mut moves = Vec::new();
    play_ai_turns_timed(
        session.as_mut(),
        tessera_host::Budget::unbounded(),
        usize::MAX,
        &tessera_host::ThinkControl::new(),
        &mut |session, ai_move| {
            if ai_move.seat == 1 {
                moves.push(ai_move.action_ron.clone());
            }
            !session.sim_stopped()
        },
    )
    .expect("plays");
    moves
}

#[test]
fn the_shipped_row_plays_the_same_game_twice_through_the_host() {
    // The kept tree lives on the game's brain shelf: two games started the
    // same way are the same game, move for move.
    let first = session_moves(6);
    assert_eq!(first.len(), 6, "{first:?}");
    assert_eq!(first, session_moves(6));
}

/// The HATETRIS rule measured the long way: every landing of each of the
/// seven measured in full, the lowest highest block per piece, the piece
/// whose lowest is highest, ties in S Z O I L J T order.
fn hatetris_piece_in_full(position: &Position) -> Option<PieceKind> {
    use tessera_tetris::movegen::MoveGen;
    use tessera_tetris_bot::ai::metrics::BeforeMove;
    let before = BeforeMove::new(&position.board);
    let mut movegen = MoveGen::searching_only();
    let mut worst: Option<(PieceKind, u32)> = None;
    for kind in tessera_tetris_bot::ai::feeder::HATETRIS_ORDER {
        let best = movegen
            .generate(
                &position.board,
                kind,
                position.rotation,
                position.spawn(kind),
            )
            .iter()
            .map(|p| before.metrics(p, position.danger_rows).max_height)
            .min()
            .unwrap_or(u32::MAX);
        if worst.is_none_or(|(_, w)| best > w) {
            worst = Some((kind, best));
        }
    }
    worst.map(|(kind, _)| kind)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// The feeder measures only the moves that clear a row in full and
    /// stops measuring a piece once it cannot be the worst: the same piece
    /// as the rule measured the long way, on wells with holes, overhangs,
    /// rows one cell short and stacks up to the top.
    #[test]
    fn the_hatetris_feeder_gives_the_piece_the_rule_measured_in_full_gives(
        height in 0usize..=20,
        cells in proptest::collection::vec(proptest::prelude::any::<u8>(), 200),
    ) {
        let mut position = empty_well(PieceKind::T);
        for y in (20 - height)..20 {
            for x in 0..10 {
                // About three cells in four, and never a full row.
                if cells[y * 10 + x] % 4 != 0 && x != cells[y * 10] as usize % 10 {
                    position.board.set(x, y, true);
                }
            }
        }
        let mut rng = agent_rng(0, 0, 0);
        let given = pick(
            Feeder::Hatetris,
            &mut Brain::new(),
            &position,
            &PieceKind::ALL,
            &god(),
            &mut rng,
        );
        proptest::prop_assert_eq!(given, hatetris_piece_in_full(&position));
    }
}
