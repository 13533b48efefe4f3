//! The tetris AI in feed mode: offers, the ceiling, specials, the
//! feeders (`hate`, `hate:P`, `hatetris`), determinism and survival
//! against the hate feeder. Split from `tetris_ai.rs` (metrics, GOD's
//! order, candidates, the AI log).

use super::tetris_support;

use tessera_host::agent::AgentGame;
use tessera_host::agent::{Budget, ThinkControl, Thinking, agent_rng};
use tessera_host::options::{Seat, SessionOptions};
use tessera_host::{Game, Outcome, Setup, Turn};
use tessera_tetris::board::Board;
use tessera_tetris::level::{FeedLevel, TetrisLevel};
use tessera_tetris::movegen::Placement;
use tessera_tetris::piece::{PieceKind, RotationSystem};
use tessera_tetris::{Tetris, TetrisAction};
use tessera_tetris_bot::ai::Brain;
use tessera_tetris_bot::ai::feeder::{Feeder, pick};
use tessera_tetris_bot::ai::metrics::{Metric, Metrics, move_metrics};
use tetris_support::*;

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

/// The AI's move in a feed game, made by the agent the bot registers;
/// its AI log.
fn ai_places(game: &mut Tetris, seed: u64, step: u64) -> String {
    assert_eq!(game.turn(), Turn::Seat(1));
    let mut agent = tessera_tetris_bot::agents::make_agent(game, 1, "god", true).expect("agent");
    let control = ThinkControl::new();
    let mut rng = agent_rng(seed, 1, step);
    let mut thinking = Thinking::new(&mut rng, Budget::unbounded(), &control);
    let decision = agent
        .decide(&game.snapshot(), &mut thinking)
        .expect("decides");
    let log = decision.explanation.unwrap_or_default();
    assert!(log.contains("decidedBy"), "{log}");
    game.apply(&decision.action)
        .expect("the AI's drop is legal");
    log
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
        if game.outcome().is_over() {
            // A lock that tops out ends the game before the ceiling moves.
            break;
        }
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
    // The AI's search is told when the ceiling drops next.
    assert_eq!(snapshot_view.ceiling.every, 2);
    assert!((1..=2).contains(&snapshot_view.ceiling.drops_after));
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
        let mut session = tessera_host::Recorded::start_with(
            std::sync::Arc::new(tessera_tetris_bot::capabilities()),
            level,
            shipped(),
            11,
            &options,
        )
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
            &tessera_tetris_bot::registry(),
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

#[test]
fn the_line_search_sees_the_ceiling_come_down() {
    // GOD follows the expected line `line_depth` pieces deep. On an empty
    // 10 x 8 board a good line outlives them all when the ceiling stays;
    // when it drops a row after every piece, 8 pieces leave no room, and
    // the search must see every line end sooner.
    use tessera_tetris_bot::ai::{CeilingClock, UnknownNext};
    let live = shipped();
    let god = tessera_tetris_bot::ai::settings::difficulty(&live.current(), "god")
        .expect("reads")
        .expect("GOD");
    let depth = god.line_depth;
    assert!(
        depth >= 8,
        "the shipped GOD searches at least 8 pieces deep"
    );
    let longest = |ceiling: CeilingClock| -> u8 {
        let mut p = position(&[".........."; 8], PieceKind::T, RotationSystem::Srs);
        p.unknown_next = UnknownNext::Worst(PieceKind::ALL.to_vec());
        p.ceiling = ceiling;
        // A player who has fed the expected line: GOD follows it.
        p.reader_streak = u32::from(god.line_trust);
        let choice = Brain::new().choose(&p, &god, 0);
        choice
            .candidates
            .iter()
            .map(|c| c.line_plies.expect("the line search followed every move"))
            .max()
            .expect("candidates")
    };
    assert_eq!(longest(CeilingClock::default()), depth);
    let every_piece = CeilingClock {
        drops_after: 1,
        every: 1,
    };
    assert!(
        longest(every_piece) < depth,
        "the ceiling's drops end the lines"
    );
    assert_eq!(every_piece.drops(0), 0);
    assert_eq!(every_piece.drops(3), 3);
    let later = CeilingClock {
        drops_after: 2,
        every: 5,
    };
    assert_eq!(
        (0..=8).map(|n| later.drops(n)).collect::<Vec<_>>(),
        [0, 0, 1, 1, 1, 1, 1, 2, 2]
    );
}

#[test]
fn feed_mode_counts_the_readers_pieces_the_player_gives_in_a_row() {
    // The `hate` feeder's piece is the reader's: giving it grows the
    // streak GOD reads; any other piece sets it back to 0.
    use tessera_tetris_bot::ai::{Position, UnknownNext};
    let live = shipped();
    let god = tessera_tetris_bot::ai::settings::difficulty(&live.current(), "god")
        .expect("reads")
        .expect("GOD");
    let mut game = feed_game(feed_level(100, &[]), live, 4);
    let readers_piece = |game: &Tetris| {
        let view = game.snapshot();
        let position = Position {
            board: view.board,
            piece: PieceKind::I,
            next: None,
            rotation: view.rotation,
            spawn_row: view.spawn_row,
            danger_rows: view.danger_rows,
            ceiling: view.ceiling,
            unknown_next: UnknownNext::Worst(Vec::new()),
            reader_streak: 0,
        };
        let mut rng = agent_rng(0, 0, 0);
        pick(
            Feeder::HATE,
            &mut Brain::new(),
            &position,
            &view.offer,
            &god,
            &mut rng,
        )
        .expect("a piece")
    };
    for step in 0..4 {
        let kind = readers_piece(&game);
        game.apply(&TetrisAction::Feed(kind)).expect("on offer");
        assert_eq!(
            tessera_tetris_bot::agents::reader_streak(&game),
            step + 1,
            "{kind}"
        );
        let log = ai_places(&mut game, 4, u64::from(step));
        assert!(
            log.contains(&format!("readerStreak: {}", step + 1)),
            "the AI reads it: {log}"
        );
    }
    let reader = readers_piece(&game);
    let other = PieceKind::ALL
        .into_iter()
        .find(|&k| k != reader)
        .expect("another piece");
    game.apply(&TetrisAction::Feed(other)).expect("on offer");
    assert_eq!(tessera_tetris_bot::agents::reader_streak(&game), 0);
}
