//! The tetris AI: metrics on hand-drawn boards, GOD's order, reachability
//! of candidates, the AI log round trip, feed mode's rules, determinism.

mod tetris_support;

use tessera_host::agent::{Budget, ThinkControl, Thinking, agent_rng};
use tessera_host::options::{Seat, SessionOptions};
use tessera_host::{Game, Outcome, Setup, Turn};
use tessera_tetris::ai::feeder::{Feeder, pick};
use tessera_tetris::ai::metrics::{Metric, Metrics, board_metrics, move_metrics};
use tessera_tetris::ai::{Brain, Candidate, Difficulty, Position, UnknownNext, log, rank};
use tessera_tetris::board::Board;
use tessera_tetris::level::{FeedLevel, TetrisLevel};
use tessera_tetris::movegen::Placement;
use tessera_tetris::piece::{PieceKind, RotationSystem};
use tessera_tetris::settings::{default_difficulties, difficulties};
use tessera_tetris::{Tetris, TetrisAction};
use tetris_support::*;

/// A board from text rows (`#` filled), top row first.
fn board(rows: &[&str]) -> Board {
    let mut b = Board::new(rows[0].len(), rows.len());
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            b.set(x, y, c == '#');
        }
    }
    b
}

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
    }
}

fn god() -> Difficulty {
    default_difficulties()
        .into_iter()
        .find(|d| d.name == "GOD")
        .expect("GOD")
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
        assert_eq!(by.as_deref(), Some(metric.name()));
        decided.push(format!("{}. {}", i + 1, metric.name()));
    }
    snapshot("tetris_ai_god_order", decided.join("\n"));
}

fn position(rows: &[&str], piece: PieceKind, rotation: RotationSystem) -> Position {
    Position {
        board: board(rows),
        piece,
        next: None,
        rotation,
        spawn_row: 0,
        danger_rows: 1,
        unknown_next: UnknownNext::Average(PieceKind::ALL.to_vec()),
    }
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
    assert_eq!(choice.decided_by.as_deref(), Some("netBenefit"));
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
    let master = tessera_tetris::settings::difficulty(&script, "master")
        .expect("reads")
        .expect("MASTER");
    let easy = tessera_tetris::settings::difficulty(&script, "easy")
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
        let mut agent = game.agent(0, "hard").expect("agent");
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

fn feed_level(target: u32, garbage: &[&str]) -> TetrisLevel {
    TetrisLevel {
        rows: 22,
        columns: 10,
        garbage: garbage.iter().map(|s| s.to_string()).collect(),
        feed: Some(FeedLevel {
            difficulty: "GOD".into(),
            target_lines: target,
            lowering_ceiling: true,
            ceiling_every: None,
        }),
        ..TetrisLevel::default()
    }
}

fn feed_game(level: TetrisLevel, script: tessera_host::LiveScript, seed: u64) -> Tetris {
    Tetris::start(Setup {
        options: SessionOptions {
            mode: Some("feed".into()),
            seats: vec![
                Seat::Human,
                Seat::Ai {
                    level: "god".into(),
                },
            ],
        },
        ..Setup::new(level, script, seed)
    })
    .expect("feed game starts")
}

/// The AI's move in a feed game.
fn ai_places(game: &mut Tetris, seed: u64, step: u64) {
    assert_eq!(game.turn(), Turn::Seat(1));
    let mut agent = game.agent(1, "god").expect("agent");
    let control = ThinkControl::new();
    let mut rng = agent_rng(seed, 1, step);
    let mut thinking = Thinking::new(&mut rng, Budget::unbounded(), &control);
    let decision = agent
        .decide(&game.snapshot(), &mut thinking)
        .expect("decides");
    assert!(
        decision
            .explanation
            .as_deref()
            .is_some_and(|l| l.contains("decidedBy"))
    );
    game.apply(&decision.action)
        .expect("the AI's drop is legal");
}

#[test]
fn feed_mode_turns_offer_and_the_ai_reaching_its_target() {
    // Four rows with column 9 open: one I from the player, four lines.
    let mut game = feed_game(feed_level(4, &["GGGGGGGGG."; 4]), shipped(), 1);
    assert_eq!(game.turn(), Turn::Seat(0), "the player gives first");
    let offer = game.feed_state().expect("feed").offer.clone();
    assert_eq!(&offer[..7], &PieceKind::ALL, "the seven, in order");
    let err = game
        .apply(&TetrisAction::Drop {
            x: 0,
            rotation: 0,
            y: None,
        })
        .expect_err("no piece yet");
    assert!(err.to_string().contains("no piece"), "{err}");
    game.apply(&TetrisAction::Feed(PieceKind::I)).expect("fed");
    let err = game
        .apply(&TetrisAction::Feed(PieceKind::O))
        .expect_err("one at a time");
    assert!(err.to_string().contains("still placing"), "{err}");
    ai_places(&mut game, 1, 1);
    assert_eq!(game.lines(), 4);
    assert_eq!(
        game.outcome(),
        Outcome::Winner(1),
        "{:?}",
        game.over_reason()
    );
}

#[test]
fn the_ceiling_drops_every_n_ai_pieces_and_the_player_wins_at_it() {
    let script = shipped_with(
        "name = \"GOD\", decision_ms = 200, special_chance = 0.04, ceiling_every = 15",
        "name = \"GOD\", decision_ms = 200, special_chance = 0.04, ceiling_every = 2",
    );
    let mut game = feed_game(feed_level(50, &[]), script, 3);
    let mut step = 0;
    let mut ceilings = Vec::new();
    while !game.outcome().is_over() {
        step += 1;
        // The player gives only S: holes pile up.
        game.apply(&TetrisAction::Feed(PieceKind::S)).expect("fed");
        if game.outcome().is_over() {
            break;
        }
        ai_places(&mut game, 3, step);
        ceilings.push(game.feed_state().expect("feed").ceiling);
        assert!(step < 200, "the game ends");
    }
    assert_eq!(
        game.outcome(),
        Outcome::Winner(0),
        "{:?}",
        game.over_reason()
    );
    // One row every two AI pieces.
    for (i, &c) in ceilings.iter().enumerate() {
        assert_eq!(c, i.div_ceil(2), "after {} pieces", i + 1);
    }
    let snapshot_view = game.snapshot();
    assert_eq!(
        snapshot_view.spawn_row as usize,
        *ceilings.last().unwrap_or(&0)
    );
}

#[test]
fn a_special_is_offered_with_the_difficultys_chance() {
    let always = shipped_with(
        "name = \"GOD\", decision_ms = 200, special_chance = 0.04, ceiling_every = 15",
        "name = \"GOD\", decision_ms = 200, special_chance = 1.0, ceiling_every = 15",
    );
    let game = feed_game(feed_level(50, &[]), always, 5);
    let offer = &game.feed_state().expect("feed").offer;
    assert_eq!(offer.len(), 8);
    assert!(!offer[7].is_tetromino(), "{offer:?}");
    let never = shipped_with(
        "name = \"GOD\", decision_ms = 200, special_chance = 0.04, ceiling_every = 15",
        "name = \"GOD\", decision_ms = 200, special_chance = 0.0, ceiling_every = 15",
    );
    let game = feed_game(feed_level(50, &[]), never, 5);
    assert_eq!(game.feed_state().expect("feed").offer.len(), 7);
}

#[test]
fn the_hate_feeder_gives_the_piece_whose_best_is_worst() {
    // A one-wide well: an I clears four lines, an O cannot go in. Hate
    // must never give the I; among the rest it gives the first of the
    // equally worst in the fixed order.
    let mut rows = vec![".........."; 16];
    rows.extend(["#########."; 4]);
    let p = position(&rows, PieceKind::I, RotationSystem::Cycle);
    let mut rng = agent_rng(0, 0, 0);
    let given = pick(
        Feeder::HATE,
        &mut Brain::new(),
        &p,
        &PieceKind::ALL,
        &god(),
        &mut rng,
    )
    .expect("a piece");
    assert_ne!(given, PieceKind::I);
    // The same position and offer always give the same piece.
    for seed in 1..5 {
        let mut rng = agent_rng(seed, 0, 0);
        let again = pick(
            Feeder::HATE,
            &mut Brain::new(),
            &p,
            &PieceKind::ALL,
            &god(),
            &mut rng,
        );
        assert_eq!(again, Some(given));
    }
}

#[test]
fn the_same_seed_and_feeder_play_the_same_game() {
    let play = || {
        let level_text = std::fs::read_to_string(tessera_testkit::repo_path(
            "levels/tetris/feed_3_normal.ron",
        ))
        .expect("level");
        let level: TetrisLevel = ron::from_str(&level_text).expect("reads");
        let options = SessionOptions {
            mode: Some("feed".into()),
            seats: vec![
                Seat::Ai {
                    level: "hate".into(),
                },
                Seat::Ai {
                    level: "normal".into(),
                },
            ],
        };
        let mut session = tessera_host::Recorded::<Tetris>::start(level, shipped(), 11, &options)
            .expect("starts");
        let mut moves = 0;
        while session.game().outcome() == Outcome::Playing && moves < 400 {
            session.play_ai_turn(Budget::unbounded()).expect("plays");
            moves += 1;
        }
        (session.game().render_text(), moves)
    };
    let (a, n) = play();
    let (b, m) = play();
    assert_eq!((a.clone(), n), (b, m));
    assert!(n > 4, "{a}");
}

#[test]
fn a_stack_that_blocks_a_spawn_is_game_over_before_it_reaches_the_top_row() {
    // A vertical I in column 4, rows 1-4 of a 5-row board: row 0 is still
    // empty, but the T (and others) could no longer spawn.
    let upright_i = Placement {
        kind: PieceKind::I,
        state: 1,
        x: 2,
        y: 1,
    };
    let (after, m) = move_metrics(&Board::new(10, 5), &upright_i, 1);
    assert_eq!(after.row(0), 0);
    assert!(m.game_over);
    // The same I at the side leaves every spawn free.
    let side = Placement { x: -2, ..upright_i };
    let (_, m) = move_metrics(&Board::new(10, 5), &side, 1);
    assert!(!m.game_over);
}

/// `Metrics::values` (the hot paths' straight-line copy) agrees with
/// `Metrics::get` on every metric.
#[test]
fn metric_values_agree_with_get() {
    let m = Metrics {
        game_over: true,
        lines_cleared: 2,
        holes: 3,
        holes_created: 1,
        blockades: 4,
        well_sums: 5,
        max_height: 6,
        aggregate_height: 7,
        bumpiness: 8,
        edge_distance: 9,
        row_transitions: 10,
        column_transitions: 11,
        landing_height_x2: 13,
        eroded_cells: 12,
        high_rows: 14,
    };
    let values = m.values();
    for metric in Metric::ALL {
        assert_eq!(values[metric as usize], m.get(metric), "{}", metric.name());
    }
    assert_eq!(values[Metric::NetBenefit as usize], 5.0);
    assert_eq!(values[Metric::LandingHeight as usize], 6.5);
}

#[test]
fn feeder_names_read_back() {
    for feeder in Feeder::listed() {
        assert_eq!(Feeder::from_name(&feeder.name()), Some(feeder));
    }
    assert_eq!(Feeder::from_name("hate:1"), Some(Feeder::HATE));
    assert_eq!(
        Feeder::from_name("hate:0.5"),
        Some(Feeder::Hate {
            per_million: 500_000
        })
    );
    assert_eq!(Feeder::from_name("HATETRIS"), Some(Feeder::Hatetris));
    for bad in [
        "hate:1.5",
        "hate:-0.1",
        "hate:x",
        "hate:",
        "hat",
        "hate:NaN",
    ] {
        assert_eq!(Feeder::from_name(bad), None, "{bad}");
    }
}

#[test]
fn hatetris_gives_the_piece_whose_lowest_stack_is_highest() {
    // On an empty board every piece but the I lies two rows high at best:
    // the tie goes to S, first in S Z O I L J T.
    let p = position(&[".........."; 20], PieceKind::I, RotationSystem::Cycle);
    let mut rng = agent_rng(0, 0, 0);
    let mut brain = Brain::new();
    let given = pick(
        Feeder::Hatetris,
        &mut brain,
        &p,
        &PieceKind::ALL,
        &god(),
        &mut rng,
    );
    assert_eq!(given, Some(PieceKind::S));
    // A one-wide well three deep: the I fills it (a tetris is impossible
    // with three rows), S and Z stick up two rows above the floor rows,
    // the O cannot enter. Whatever the rule, it never gives the I, and it
    // ignores specials on offer.
    let mut rows = vec![".........."; 17];
    rows.extend(["#########."; 3]);
    let p = position(&rows, PieceKind::I, RotationSystem::Cycle);
    let mut offer = PieceKind::ALL.to_vec();
    offer.push(PieceKind::X);
    let given = pick(Feeder::Hatetris, &mut brain, &p, &offer, &god(), &mut rng).expect("a piece");
    assert_ne!(given, PieceKind::I);
    assert!(given.is_tetromino());
}

#[test]
fn hate_half_mixes_hate_and_random() {
    // hate:0 is random, hate:1 is hate; hate:0.5 gives the hate piece in
    // about half the turns of a fixed position.
    let mut rows = vec![".........."; 16];
    rows.extend(["#########."; 4]);
    let p = position(&rows, PieceKind::I, RotationSystem::Cycle);
    let mut brain = Brain::new();
    let hate_piece = pick(
        Feeder::HATE,
        &mut brain,
        &p,
        &PieceKind::ALL,
        &god(),
        &mut agent_rng(0, 0, 0),
    )
    .expect("a piece");
    let half = Feeder::from_name("hate:0.5").expect("hate:0.5");
    let turns = 400;
    let hated = (0..turns)
        .filter(|&t| {
            let mut rng = agent_rng(7, 0, t);
            pick(half, &mut brain, &p, &PieceKind::ALL, &god(), &mut rng) == Some(hate_piece)
        })
        .count();
    // Half hate, plus a seventh of the random half: about 57%.
    let share = hated as f64 / turns as f64;
    assert!((0.45..0.70).contains(&share), "{share}");
}

#[test]
fn feed_mode_without_a_level_plays_the_22_by_10_feed_board() {
    let options = SessionOptions {
        mode: Some("feed".into()),
        seats: vec![
            Seat::Human,
            Seat::Ai {
                level: "god".into(),
            },
        ],
    };
    let game = Tetris::start(Setup {
        level: TetrisLevel::default(),
        script: shipped(),
        seed: 1,
        options,
    })
    .expect("starts");
    let board = game.field().board();
    assert_eq!(board.width(), 10);
    assert_eq!(game.level().rows, 22);
    let summary = game.summary(false);
    assert!(summary.contains("feed: AI GOD"), "{summary}");
    assert!(!summary.contains("marathon"), "{summary}");
}

#[test]
fn god_outlives_the_seeds_literal_order_against_hate() {
    // The seed's order stacks S pieces in one column against `hate`; GOD's
    // guards keep the stack low (10 x 22, ceiling every 15, 3 games).
    // Through the host's simulation, as `tessera sim tetris` plays them.
    use tessera_host::sim::{Lineup, SimConfig, SimLevel, SimOptions, run_sim};
    let pieces = |ai: &str| -> f64 {
        let mut options = SimOptions::default();
        options.set("pieces", 400);
        let config = SimConfig {
            game: "tetris".into(),
            mode: Some("feed".into()),
            lineups: vec![Lineup {
                label: ai.into(),
                seats: vec![
                    "ai:hate".parse().unwrap(),
                    format!("ai:{ai}").parse().unwrap(),
                ],
                rotate: false,
            }],
            games: 3,
            seed: 0,
            only: None,
            budget: tessera_host::Budget::unbounded(),
            threads: 1,
            max_moves: usize::MAX,
            level: SimLevel::File(tessera_testkit::repo_path("levels/tetris/feed_7_god.ron")),
            options,
        };
        let report = run_sim(
            &tessera_testkit::repo_path(""),
            tessera_host::Registry::of::<Tetris>,
            &config,
            &ThinkControl::new(),
            &mut |_, _, _| {},
        )
        .expect("runs");
        assert_eq!(report.games, 3);
        report.tallies[0]
            .figure("pieces")
            .expect("pieces")
            .stat
            .value()
    };
    let (seed, god) = (pieces("god_seed"), pieces("god"));
    assert!(god > 1.5 * seed, "GOD {god} vs GOD_SEED {seed}");
}
