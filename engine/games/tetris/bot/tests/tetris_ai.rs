//! The tetris AI: metrics on hand-drawn boards, GOD's order, reachability
//! of candidates, the AI log round trip and script edits (feed mode and the
//! feeders: `tetris_feed.rs`).

use super::tetris_support;

use tessera_host::agent::AgentGame;
use tessera_host::agent::{Budget, ThinkControl, Thinking, agent_rng};
use tessera_host::options::{Seat, SessionOptions};
use tessera_host::{Game, Setup};
use tessera_tetris::Tetris;
use tessera_tetris::board::Board;
use tessera_tetris::level::TetrisLevel;
use tessera_tetris::movegen::Placement;
use tessera_tetris::piece::{PieceKind, RotationSystem};
use tessera_tetris_bot::ai::metrics::{Metric, Metrics, board_metrics, move_metrics};
use tessera_tetris_bot::ai::settings::difficulties;
use tessera_tetris_bot::ai::{
    Adversary, Brain, Candidate, Difficulty, Position, UnknownNext, log, rank,
};
use tetris_support::*;

fn metrics_text(rows: &[&str]) -> String {
    let m = board_metrics(&board(rows), 1);
    let mut out = rows.join("\n");
    out.push('\n');
    for metric in Metric::ALL {
        if !matches!(
            metric,
            Metric::Score
                | Metric::NetBenefit
                | Metric::HolesCreated
                | Metric::LinesCleared
                | Metric::EdgeDistance
                | Metric::LandingHeight
                | Metric::ErodedCells
                | Metric::HighRows
                | Metric::NextTopOut
                | Metric::Lookahead
        ) {
            out.push_str(&format!("{} = {}\n", metric.name(), m.get(metric)));
        }
    }
    out
}

fn snapshot(name: &str, text: String) {
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn metrics_of_a_small_board_by_hand() {
    let m = board_metrics(&board(&[".....", "#....", "#.#..", "##.##"]), 1);
    assert_eq!(
        (m.max_height, m.aggregate_height, m.bumpiness),
        (3, 8, 4),
        "heights 3 1 2 1 1"
    );
    assert_eq!(m.holes, 1, "the cell under column 2's block");
    assert_eq!(m.blockades, 1, "column 2's block over the hole");
    assert_eq!(m.well_sums, 1, "column 1 between two blocks in row 2");
    assert_eq!(m.row_transitions, 10);
    assert_eq!(m.column_transitions, 7);
    assert!(!m.game_over);
    snapshot(
        "tetris_ai_metrics_small",
        metrics_text(&[".....", "#....", "#.#..", "##.##"]),
    );
}

#[test]
fn a_well_against_the_wall_counts_its_depth() {
    // Column 0 is open three deep between the left wall and column 1: the
    // seed's "一侧是墙" case, 1 + 2 + 3.
    let m = board_metrics(&board(&[".#...", ".#...", ".#...", "##..."]), 1);
    assert_eq!(m.well_sums, 6);
    // Both walls: a one-wide board column is a well all the way down.
    let right = board_metrics(&board(&["...#.", "...#.", "....."]), 1);
    assert_eq!(
        right.well_sums,
        1 + 2,
        "column 4 against the right wall, two deep"
    );
    snapshot(
        "tetris_ai_metrics_wall_well",
        metrics_text(&[".#...", ".#...", ".#...", "##..."]),
    );
}

#[test]
fn blockades_count_every_block_over_a_hole() {
    // Column 2: three blocks over one hole; column 4: one block over two.
    let rows = [".....", "..#..", "..#.#", "..#..", "##..."];
    let m = board_metrics(&board(&rows), 1);
    assert_eq!(m.holes, 1 + 2, "one under column 2, two under column 4");
    assert_eq!(m.blockades, 3 + 1);
    snapshot("tetris_ai_metrics_blockades", metrics_text(&rows));
}

#[test]
fn holes_created_ignore_rows_that_moved_down_with_a_clear() {
    // An old hole in column 0 under the bottom row's neighbour; the I
    // completes row 3 and the rows above move down: no new holes.
    let before = board(&["....", "#...", ".#..", "###."]);
    let i_vertical = Placement {
        kind: PieceKind::I,
        state: 1,
        x: 1,
        y: 0,
    };
    let (_, m) = move_metrics(&before, &i_vertical, 0);
    assert_eq!((m.lines_cleared, m.holes, m.holes_created), (1, 1, 0));
    let flat_o = Board::new(4, 4);
    let (_, m) = move_metrics(
        &flat_o,
        &Placement {
            kind: PieceKind::O,
            state: 0,
            x: -1,
            y: 2,
        },
        1,
    );
    assert_eq!((m.holes, m.holes_created), (0, 0));
    // A hole made on purpose: a flat I over an empty cell.
    let gap = board(&[".....", ".....", ".....", "##.##"]);
    let (_, m) = move_metrics(
        &gap,
        &Placement {
            kind: PieceKind::I,
            state: 0,
            x: 0,
            y: 1,
        },
        1,
    );
    assert_eq!((m.holes, m.holes_created), (1, 1));
}

#[test]
fn landing_height_and_eroded_cells_by_hand() {
    // An I standing in the right column: its lowest cell on the floor
    // (height 0), its highest at height 3, so it lands at 1.5; it
    // completes the three bottom rows with three of its own cells.
    let before = board(&[".....", ".....", "#....", "####.", "####.", "####."]);
    let i_vertical = Placement {
        kind: PieceKind::I,
        state: 1,
        x: 2,
        y: 2,
    };
    let (_, m) = move_metrics(&before, &i_vertical, 0);
    assert_eq!(m.lines_cleared, 3);
    assert_eq!(m.get(Metric::LandingHeight), 1.5);
    assert_eq!(m.get(Metric::ErodedCells), 9.0, "3 rows x 3 own cells");
    // Lying flat on the floor of an empty 5-wide board: height 0, nothing
    // cleared.
    let (_, m) = move_metrics(
        &Board::new(5, 4),
        &Placement {
            kind: PieceKind::I,
            state: 0,
            x: 0,
            y: 2,
        },
        1,
    );
    assert_eq!((m.get(Metric::LandingHeight), m.eroded_cells), (0.0, 0));
}

fn candidate(metrics: Metrics, score: f64) -> Candidate {
    Candidate {
        placement: Placement {
            kind: PieceKind::T,
            state: 0,
            x: 0,
            y: 0,
        },
        metrics,
        score,
        ahead: None,
        next_tops_out: None,
        line_plies: None,
    }
}

#[test]
fn gods_order_each_priority_decides_in_turn() {
    let god = god();
    let mut decided = Vec::new();
    for (i, &metric) in god.order.iter().enumerate() {
        // Equal on every earlier metric; `better` wins on this one.
        let base = Metrics {
            holes: 3,
            blockades: 3,
            well_sums: 3,
            aggregate_height: 30,
            bumpiness: 6,
            edge_distance: 2,
            lines_cleared: 1,
            holes_created: 1,
            ..Metrics::default()
        };
        let mut better = base;
        let mut better_score = 0.0;
        match metric {
            Metric::GameOverAfterMove => {}
            Metric::NetBenefit => better.holes_created = 0,
            Metric::LinesCleared => {
                // More lines at the same net benefit: 2 lines, 4 new holes.
                better.lines_cleared = 2;
                better.holes_created = 4;
            }
            Metric::Holes => better.holes = 2,
            Metric::Blockades => better.blockades = 2,
            Metric::WellSums => better.well_sums = 2,
            Metric::AggregateHeight => better.aggregate_height = 29,
            Metric::Bumpiness => better.bumpiness = 5,
            Metric::EdgeDistance => better.edge_distance = 1,
            Metric::Score => better_score = 1.0,
            other => panic!("GOD's order names {other:?}"),
        }
        let mut worse = base;
        if metric == Metric::GameOverAfterMove {
            worse.game_over = true;
        }
        // The worse one first, so a tie would keep it in front.
        let mut list = vec![candidate(worse, 0.0), candidate(better, better_score)];
        let by = rank(&mut list, &god);
        assert_eq!(
            list[0].metrics,
            better,
            "priority {} ({})",
            i + 1,
            metric.name()
        );
        assert_eq!(by, Some(metric.name()));
        decided.push(format!("{}. {}", i + 1, metric.name()));
    }
    snapshot("tetris_ai_god_order", decided.join("\n"));
}

#[test]
fn candidates_include_a_tuck_and_leave_out_what_no_input_reaches() {
    // An overhang over columns 5-9 at row 4: a flat I tucks under it by
    // dropping on the left and sliding right. Under the full roof of row
    // 6 (a single gap at column 9) a flat I fits but cannot get in.
    let rows = [
        "..........",
        "..........",
        "..........",
        "..........",
        ".....#####",
        "..........",
        "#########.",
        "..........",
        "#.#.#.#.#.",
    ];
    let landings_under = |rotation| -> Vec<(u8, i32, i32)> {
        let p = position(&rows, PieceKind::I, rotation);
        Brain::new()
            .choose(&p, &god(), 0)
            .candidates
            .iter()
            .map(|c| {
                (
                    c.placement.state,
                    c.placement.left_column(),
                    c.placement.top_row(),
                )
            })
            .collect()
    };
    // Under SRS the I falls through the gap upright and its kicks turn it
    // flat under the roof: reachable after all.
    assert!(landings_under(RotationSystem::Srs).contains(&(0, 0, 7)));
    let p = position(&rows, PieceKind::I, RotationSystem::Cycle);
    let landings = landings_under(RotationSystem::Cycle);
    assert!(
        landings.iter().any(|&(_, left, top)| left == 6 && top == 5),
        "the tuck under the overhang (flat, columns 6-9, row 5): {landings:?}"
    );
    let fits_under_roof = p.board.fits(PieceKind::I, 0, 0, 6);
    assert!(fits_under_roof, "a flat I fits under the roof (row 7)");
    assert!(
        !landings.iter().any(|&(_, _, top)| top == 7),
        "nothing reaches row 7 under the roof: {landings:?}"
    );
}

#[test]
fn a_t_spin_slot_is_a_candidate_only_with_kicks() {
    // The T-spin triple setup of the classic issue's tests: the slot is
    // reached by a kick under SRS and by no input under the seed's cycle.
    let mut rows = vec![".........."; 7];
    rows.extend([
        "####......",
        "###.......",
        "###.######",
        "###..#####",
        "###.######",
    ]);
    let land = |rotation| {
        let p = position(&rows, PieceKind::T, rotation);
        Brain::new()
            .choose(&p, &god(), 0)
            .candidates
            .iter()
            .any(|c| {
                let cells: Vec<(i32, i32)> = c.placement.cells().collect();
                cells.contains(&(3, 11)) && cells.contains(&(4, 10))
            })
    };
    assert!(
        land(RotationSystem::Srs),
        "SRS kicks reach the bottom of the slot"
    );
    assert!(!land(RotationSystem::Cycle), "the cycle system cannot");
}

#[test]
fn gods_choice_on_a_board_takes_the_clear() {
    // Four rows with a one-wide well in column 9: the vertical I clears
    // them all (net benefit 12), which GOD prefers over everything.
    let mut rows = vec![".........."; 6];
    rows.extend(["#########."; 4]);
    let p = position(&rows, PieceKind::I, RotationSystem::Cycle);
    let choice = Brain::new().choose(&p, &god(), 0);
    let best = choice.best().expect("a move");
    assert_eq!(best.metrics.lines_cleared, 4);
    assert_eq!(choice.decided_by, Some("netBenefit"));
}

fn mid_game() -> Board {
    board(&[
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "......#...",
        "#....##...",
        "##..####.#",
        "###.####.#",
        "####.#####",
        "#.########",
    ])
}

#[test]
fn an_ai_log_round_trips_through_explain() {
    let script = shipped().current();
    let master = tessera_tetris_bot::ai::settings::difficulty(&script, "master")
        .expect("reads")
        .expect("MASTER");
    let easy = tessera_tetris_bot::ai::settings::difficulty(&script, "easy")
        .expect("reads")
        .expect("EASY");
    for difficulty in [god(), master, easy] {
        let p = Position {
            board: mid_game(),
            next: Some(PieceKind::L),
            ..position(&["."], PieceKind::T, RotationSystem::Srs)
        };
        let input = log::DecisionInput {
            position: p.clone(),
            difficulty: difficulty.clone(),
            noise_seed: 99,
            turn: 12,
        };
        let choice = Brain::new().choose(&p, &difficulty, 99);
        let text = log::write(&input, &choice, 5);
        assert!(text.contains("decidedBy: "), "{text}");
        let pasted = format!("from the S panel:\n{text}\nthanks");
        let parsed = log::parse(&pasted).expect("the log reads back");
        assert_eq!(parsed.input, input, "{}", difficulty.name);
        let (again, differences) = log::explain(&parsed, &difficulty);
        assert!(
            differences.is_empty(),
            "{}: {differences:?}",
            difficulty.name
        );
        assert_eq!(again.best(), choice.best());
        // A changed weight is reported, and here it changes the choice.
        let mut edited = difficulty.clone();
        edited.order.clear();
        edited.lookahead = 0;
        edited.noise = 0.0;
        edited.weights.set(Metric::EdgeDistance, 1000.0);
        let (_, differences) = log::explain(&parsed, &edited);
        assert!(
            differences.iter().any(|d| d.contains("edgeDistance")),
            "{differences:?}"
        );
        assert!(
            differences.iter().any(|d| d.starts_with("best:")),
            "{differences:?}"
        );
    }
    let p = Position {
        board: mid_game(),
        ..position(&["."], PieceKind::T, RotationSystem::Srs)
    };
    let choice = Brain::new().choose(&p, &god(), 0);
    let input = log::DecisionInput {
        position: p,
        difficulty: god(),
        noise_seed: 0,
        turn: 1,
    };
    snapshot(
        "tetris_ai_log_god_mid_game",
        log::write(&input, &choice, 5).replace(env!("CARGO_PKG_VERSION"), "X"),
    );
}

#[test]
fn a_broken_log_says_which_line() {
    let e = log::parse("hello").expect_err("no header");
    assert!(e.message.contains("not a tessera AI log"), "{e}");
    let p = position(&["....", "...."], PieceKind::O, RotationSystem::Cycle);
    let choice = Brain::new().choose(&p, &god(), 0);
    let input = log::DecisionInput {
        position: p,
        difficulty: god(),
        noise_seed: 0,
        turn: 1,
    };
    let text = log::write(&input, &choice, 3).replace("piece: O", "piece: Q");
    let e = log::parse(&text).expect_err("bad piece");
    assert_eq!(e.line, 5, "{e}");
    assert!(e.message.contains("`Q`"), "{e}");
}

#[test]
fn a_weight_edit_in_the_script_reaches_the_next_decision() {
    let rows_board = mid_game();
    let decide = |script: tessera_host::LiveScript| {
        let level = TetrisLevel {
            rows: 20,
            columns: 10,
            sequence: "TTTT".into(),
            ..TetrisLevel::default()
        };
        let game = Tetris::start(Setup {
            options: SessionOptions {
                mode: Some("classic".into()),
                seats: vec![Seat::Ai {
                    level: "hard".into(),
                }],
            },
            ..Setup::new(level, script, 1)
        })
        .expect("starts");
        let mut view = game.snapshot();
        view.board = rows_board;
        let mut agent =
            tessera_tetris_bot::agents::make_agent(&game, 0, "hard", true).expect("agent");
        let control = ThinkControl::new();
        let mut rng = agent_rng(1, 0, 0);
        let mut thinking = Thinking::new(&mut rng, Budget::unbounded(), &control);
        agent.decide(&view, &mut thinking).expect("decides").action
    };
    let before = decide(shipped());
    let after = decide(shipped_with(
        // HARD's own row: no noise or lookahead, ranked by edge distance.
        "ceiling_every = 12, lookahead = 1, beam = 2, noise = 2.0,",
        "ceiling_every = 12, lookahead = 0, beam = 2, noise = 0, order = { \"edgeDistance\" },",
    ));
    assert_ne!(before, after, "ranking by edge distance moves the T");
}

#[test]
fn a_bad_weight_name_is_refused_with_its_line() {
    let source = shipped_source().replacen("holes = -0.36,", "hole = -0.36,", 1);
    let script = script(&source).expect("loads");
    let e = difficulties(&script).expect_err("unknown metric");
    let line = source
        .lines()
        .position(|l| l.contains("hole = -0.36"))
        .map(|i| i as u32 + 1);
    assert_eq!(e.line, line, "{e}");
    assert!(e.to_string().contains("no metric `hole`"), "{e}");
}

/// A weighted difficulty that reads the next piece as a player who reads
/// it would give it (`adversary = "own"`), with the line search's size.
fn reader_difficulty(lookahead: u8, line_depth: u8, line_beam: usize) -> Difficulty {
    let mut d = god();
    d.order.clear();
    d.lookahead = lookahead;
    d.beam = 3;
    d.adversary = Adversary::Own;
    d.line_depth = line_depth;
    d.line_beam = line_beam;
    d
}

fn feed_position(unknown_next: UnknownNext) -> Position {
    Position {
        board: mid_game(),
        piece: PieceKind::S,
        next: None,
        rotation: RotationSystem::Srs,
        spawn_row: 0,
        danger_rows: 1,
        ceiling: Default::default(),
        unknown_next,
        reader_streak: 0,
    }
}

#[test]
fn the_own_adversary_follows_a_line_and_decides_the_same_way_twice() {
    let p = feed_position(UnknownNext::Worst(PieceKind::ALL.to_vec()));
    let d = reader_difficulty(1, 4, 16);
    let first = Brain::new().choose(&p, &d, 0);
    let again = Brain::new().choose(&p, &d, 0);
    assert_eq!(first.candidates, again.candidates, "deterministic");
    let best = first.best().expect("a move");
    assert!(best.ahead.is_some(), "the chosen move was followed");
    assert_eq!(best.next_tops_out, Some(false));
    // The line's value is more than the move's own score (four more
    // pieces were weighed after it), so the search changed the ranking
    // key of the winner.
    assert_ne!(best.ahead, Some(best.score));
}

#[test]
fn line_depth_and_beam_default_to_lookahead_and_beam_and_stay_out_of_classic_play() {
    let feed = feed_position(UnknownNext::Worst(PieceKind::ALL.to_vec()));
    // 0 = the row's lookahead and beam.
    let mut by_lookahead = reader_difficulty(4, 0, 0);
    by_lookahead.beam = 16;
    let mut by_line = reader_difficulty(1, 4, 16);
    by_line.beam = 3;
    assert_eq!(
        Brain::new().choose(&feed, &by_lookahead, 0).candidates,
        Brain::new().choose(&feed, &by_line, 0).candidates
    );
    // Classic play (an expectation over the randomizer) ignores them: a
    // deep feed-mode search costs classic play nothing.
    let classic = feed_position(UnknownNext::Average(PieceKind::ALL.to_vec()));
    assert_eq!(
        Brain::new()
            .choose(&classic, &reader_difficulty(1, 0, 0), 0)
            .candidates,
        Brain::new()
            .choose(&classic, &reader_difficulty(1, 8, 64), 0)
            .candidates
    );
}

/// The shipped GOD: its own order follows the expected line; its
/// `off_line` ranking guards against a player who does not feed it.
fn shipped_god() -> Difficulty {
    tessera_tetris_bot::ai::settings::difficulty(&shipped().current(), "god")
        .expect("reads")
        .expect("GOD")
}

#[test]
fn god_follows_its_expected_line_only_after_line_trust_readers_pieces_in_a_row() {
    let god = shipped_god();
    let trust = god.line_trust;
    assert!(trust >= 2, "one reader's piece by chance is not trust");
    let off = god
        .off_line
        .as_deref()
        .expect("GOD has an off_line ranking");
    assert_eq!(
        off.adversary,
        Adversary::Score,
        "the worst case over the offer"
    );
    assert!(off.order.contains(&Metric::HighRows), "{:?}", off.order);
    assert!(!off.order.contains(&Metric::LinePlies));
    let own = Difficulty {
        off_line: None,
        line_trust: 0,
        ..god.clone()
    };
    let best = |d: &Difficulty, p: &Position| Brain::new().choose(p, d, 0);
    // A piece the two rankings place differently, so the test can tell
    // which one decided.
    let mut p = PieceKind::ALL
        .into_iter()
        .map(|piece| Position {
            piece,
            ..feed_position(UnknownNext::Worst(PieceKind::ALL.to_vec()))
        })
        .find(|p| {
            best(off, p).best().map(|c| c.placement) != best(&own, p).best().map(|c| c.placement)
        })
        .expect("a position where following the line and guarding differ");
    for streak in 0..=u32::from(trust) + 1 {
        p.reader_streak = streak;
        let choice = best(&god, &p);
        let trusted = streak >= u32::from(trust);
        let expected = if trusted {
            best(&own, &p)
        } else {
            best(off, &p)
        };
        assert_eq!(choice.candidates, expected.candidates, "streak {streak}");
        assert_eq!(choice.decided_by, expected.decided_by, "streak {streak}");
        assert_eq!(choice.off_line, !trusted, "streak {streak}");
    }
    // Classic play has no player to trust: the row's own order.
    let classic = Position {
        reader_streak: 0,
        ..feed_position(UnknownNext::Average(PieceKind::ALL.to_vec()))
    };
    assert_eq!(
        best(&god, &classic).candidates,
        best(&own, &classic).candidates
    );
    assert!(!best(&god, &classic).off_line);
}

#[test]
fn a_log_of_gods_feed_decision_carries_the_streak_and_replays() {
    let god = shipped_god();
    // GOD's decision in feed mode after `streak` reader's pieces, logged.
    let logged = |streak: u32| {
        let p = Position {
            reader_streak: streak,
            ..feed_position(UnknownNext::Worst(PieceKind::ALL.to_vec()))
        };
        let choice = Brain::new().choose(&p, &god, 5);
        let input = log::DecisionInput {
            position: p,
            difficulty: god.clone(),
            noise_seed: 5,
            turn: 3,
        };
        let text = log::write(&input, &choice, 5);
        (input, choice, text)
    };
    for streak in [0, u32::from(god.line_trust)] {
        let (input, choice, text) = logged(streak);
        assert!(
            text.contains(&format!("readerStreak: {streak}\n")),
            "{text}"
        );
        let ranking = if choice.off_line {
            "off_line_order ranks"
        } else {
            "order ranks"
        };
        assert!(text.contains(ranking), "{text}");
        // The candidate table's columns are the ranking's that decided.
        let header = text
            .lines()
            .find(|l| l.trim_start().starts_with('#') && l.contains("landing"))
            .expect("the table's header");
        assert_eq!(header.contains("linePlies"), !choice.off_line, "{header}");
        assert_eq!(header.contains("highRows"), choice.off_line, "{header}");
        let parsed = log::parse(&text).expect("reads back");
        assert_eq!(parsed.input, input, "streak {streak}");
        let (again, differences) = log::explain(&parsed, &god);
        assert!(differences.is_empty(), "{differences:?}");
        assert_eq!(again.off_line, choice.off_line);
    }
    // A hostile streak is refused at its line.
    let text = logged(0).2.replace("readerStreak: 0", "readerStreak: -1");
    let e = log::parse(&text).expect_err("a negative streak");
    assert!(
        e.to_string()
            .contains("`readerStreak` must be a whole number"),
        "{e}"
    );
}

/// The line search keeps what each board expanded to for the next
/// decision (a transposition table across decisions): a brain that made
/// the decisions before decides as a fresh brain does, candidate for
/// candidate, through a game of MASTER's against the `hate:0.5` feeder.
#[test]
fn a_brain_that_searched_before_decides_as_a_fresh_one() {
    use tessera_tetris_bot::ai::feeder::{Feeder, pick};
    let master = tessera_tetris_bot::ai::settings::difficulty(&shipped().current(), "master")
        .expect("reads")
        .expect("MASTER");
    let offer = PieceKind::ALL.to_vec();
    let mut position = Position {
        board: Board::new(10, 22),
        piece: PieceKind::T,
        danger_rows: 2,
        ..feed_position(UnknownNext::Worst(offer.clone()))
    };
    let (mut kept, mut feeder) = (Brain::new(), Brain::new());
    let mut rng = tessera_host::rng::game_rng(7);
    for step in 0..12 {
        let reused = kept.choose(&position, &master, 0);
        let fresh = Brain::new().choose(&position, &master, 0);
        assert_eq!(reused.candidates, fresh.candidates, "decision {step}");
        let p = reused.best().expect("a move").placement;
        position.board.place(p.kind, p.state, p.x, p.y);
        position.board.clear_full_rows();
        let half = Feeder::Hate {
            per_million: 500_000,
        };
        position.piece =
            pick(half, &mut feeder, &position, &offer, &master, &mut rng).expect("a piece");
    }
}
