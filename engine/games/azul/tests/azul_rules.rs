//! Azul rules: scoring cases, floor overflow, the first-player marker, the
//! bag and lid, game end and tie-breaks, tile conservation and legality.

// Per-colour arrays are indexed side by side in these setups.
#![allow(clippy::needless_range_loop)]

use proptest::prelude::*;
use rand::Rng;
use tessera_azul::rules::{Board, CENTRE, FLOOR, Line, Move, MoveList, Rules, State, wall_column};
use tessera_azul::{Azul, render};
use tessera_host::plugin::Scripted;
use tessera_host::rng::game_rng;
use tessera_host::{Game, LiveScript, Outcome, Script, ScriptLimits, Setup};

fn wall(cells: &[(usize, usize)]) -> u32 {
    cells.iter().map(|&(r, c)| 1u32 << (r * 5 + c)).sum()
}

fn script() -> LiveScript {
    let path = tessera_testkit::repo_path("scripts/azul.lua");
    let schema = <Azul as Scripted>::script_schema();
    LiveScript::new(Script::load_file(&path, Some(&schema), ScriptLimits::default()).unwrap())
}

#[test]
fn placement_scores_single_runs_and_crosses() {
    let mut out = String::new();
    type Case<'a> = (&'a str, &'a [(usize, usize)], (usize, usize));
    let cases: &[Case] = &[
        ("single tile", &[], (2, 2)),
        ("run of 3 horizontal", &[(2, 0), (2, 1)], (2, 2)),
        ("run of 2 vertical", &[(1, 2)], (2, 2)),
        (
            "seed example: 3 horizontal + 2 vertical",
            &[(2, 0), (2, 1), (1, 2)],
            (2, 2),
        ),
        (
            "cross 5 + 5",
            &[
                (2, 0),
                (2, 1),
                (2, 3),
                (2, 4),
                (0, 2),
                (1, 2),
                (3, 2),
                (4, 2),
            ],
            (2, 2),
        ),
        (
            "diagonal neighbours do not count",
            &[(1, 1), (3, 3)],
            (2, 2),
        ),
        ("gap breaks a run", &[(2, 0), (2, 3)], (2, 2)),
    ];
    for (name, cells, (r, c)) in cases {
        let board = Board {
            wall: wall(cells),
            ..Board::default()
        };
        out.push_str(&format!("{name}: {}\n", board.placement_score(*r, *c)));
    }
    assert!(out.contains("seed example: 3 horizontal + 2 vertical: 5"));
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!(out));
}

#[test]
fn end_bonuses_rows_columns_colours() {
    let rules = Rules::default();
    let mut s = State::new(rules, 2);
    // Player 1: row 1 complete, column 1 complete, all five blues.
    let mut cells: Vec<(usize, usize)> = (0..5).map(|c| (0, c)).collect();
    cells.extend((1..5).map(|r| (r, 0)));
    cells.extend((1..5).map(|r| (r, wall_column(r, 0))));
    s.boards[0].wall = wall(&cells);
    let b = s.boards[0];
    let text = format!(
        "rows {} columns {} colours {}\n",
        b.complete_rows(),
        b.complete_columns(),
        b.complete_colours()
    );
    assert_eq!(text, "rows 1 columns 1 colours 1\n");
    // Move the other tiles out of the bag so conservation holds.
    s.bag[0] = 0;
    s.lid = [0; 5];
    let placed = s.boards[0].wall.count_ones() as u8;
    let mut remove = placed;
    for k in 0..5 {
        let take = remove.min(s.bag[k]);
        s.bag[k] -= take;
        remove -= take;
    }
    s.bag[0] = 20 - 5; // five blues on the wall
    let others = placed - 5;
    let mut need = others;
    for k in 1..5 {
        s.bag[k] = 20;
    }
    for k in 1..5 {
        let take = need.min(s.bag[k]);
        s.bag[k] -= take;
        need -= take;
    }
    // One full pattern line to trigger the tiling and the end.
    s.boards[1].lines[0] = Line {
        colour: 1,
        count: 1,
    };
    s.bag[1] -= 1;
    assert_eq!(s.tile_count(), 100, "setup keeps 100 tiles");
    let report = s.tile_walls();
    let out = format!(
        "{text}game over {} bonus {:?} scores {} {}\n{}",
        report.game_over,
        &report.bonus[..2],
        s.boards[0].score,
        s.boards[1].score,
        render(&s)
    );
    assert!(report.game_over);
    assert_eq!(report.bonus[0], 2 + 7 + 10);
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!(out));
}

/// A table with one factory holding `tiles` (colour indices) and the rest
/// of the tiles in the bag.
fn table_with_factory(tiles: &[u8]) -> State {
    let mut s = State::new(Rules::default(), 2);
    for &c in tiles {
        s.bag[c as usize] -= 1;
        s.factories[0][c as usize] += 1;
        s.on_table += 1;
    }
    s
}

#[test]
fn floor_overflow_goes_to_the_lid_and_penalties_clamp_at_zero() {
    let mut s = table_with_factory(&[0, 0, 0, 0]);
    // Put 4 blue in the centre too, and take the centre (marker first).
    for _ in 0..4 {
        s.bag[0] -= 1;
        s.centre[0] += 1;
        s.on_table += 1;
    }
    s.boards[0].floor_len = 0;
    let mut log = String::new();
    // Player 1 takes 4 blue from factory 1 to the floor.
    s.play(Move {
        source: 0,
        colour: 0,
        target: FLOOR,
    });
    log.push_str(&format!(
        "after factory: floor_len {} lid {:?}\n",
        s.boards[0].floor_len, s.lid
    ));
    // Player 2 takes 4 blue + the marker from the centre to line 1
    // (1 fits, 3 to the floor after the marker).
    let ended = s.play(Move {
        source: CENTRE,
        colour: 0,
        target: 0,
    });
    log.push_str(&format!(
        "after centre: p2 line1 {:?} floor_len {} marker {} next_first {} ended {ended}\n",
        s.boards[1].lines[0], s.boards[1].floor_len, s.boards[1].marker, s.next_first
    ));
    assert_eq!(s.boards[1].floor_len, 4);
    assert!(s.boards[1].marker);
    // Player 1 could overflow: put 4 more on their full-ish floor.
    let report = s.tile_walls();
    log.push_str(&format!(
        "tiling: gained {:?} lost {:?} scores {} {} to_move {} marker_in_centre {}\nlid {:?}\n",
        &report.gained[..2],
        &report.lost[..2],
        s.boards[0].score,
        s.boards[1].score,
        s.to_move,
        s.marker_in_centre,
        s.lid
    ));
    assert_eq!(s.boards[0].score, 0, "penalties never push below 0");
    assert_eq!(s.to_move, 1, "the marker's taker starts the next round");
    assert_eq!(s.tile_count(), 100);
    // Overflow: 9 tiles onto an empty floor keeps 7, 2 go to the lid.
    let mut t = table_with_factory(&[2, 2, 2, 2]);
    t.boards[0].floor_len = 5;
    t.boards[0].floor[3] = 5;
    t.bag[3] -= 5;
    t.play(Move {
        source: 0,
        colour: 2,
        target: FLOOR,
    });
    log.push_str(&format!(
        "overflow: floor_len {} floor {:?} lid {:?} penalty {}\n",
        t.boards[0].floor_len,
        t.boards[0].floor,
        t.lid,
        t.boards[0].floor_penalty(&t.rules)
    ));
    assert_eq!(t.lid[2], 2);
    assert_eq!(t.boards[0].floor_penalty(&t.rules), 14);
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!(log));
}

#[test]
fn deal_counts_bag_then_lid_then_short_round() {
    let mut log = String::new();
    let mut s = State::new(Rules::default(), 2);
    // Park 86 tiles on walls and lines: 2 players x (wall 20 + lines 14)
    // = 68, plus 18 on... keep it honest: walls of 4 rows (20) and all
    // lines but the one row the wall leaves open.
    let mut parked = [0u8; 5];
    for p in 0..2 {
        // Wall rows 2-5 full except column 5 (4 x 4 = 16 tiles).
        for r in 1..5 {
            for c in 0..4 {
                s.boards[p].wall |= 1 << (r * 5 + c);
                parked[(c + 5 - r) % 5] += 1;
            }
        }
    }
    for k in 0..5 {
        s.bag[k] -= parked[k];
    }
    // Now 100 - 32 = 68 in the bag: move all but 6 to the lid, and all
    // but 8 of those out to player 1's pattern lines... simpler: keep 6 in
    // the bag and the rest in the lid.
    let mut in_bag = [0u8; 5];
    let mut want = 6u8;
    for k in 0..5 {
        let t = want.min(s.bag[k]);
        in_bag[k] = t;
        want -= t;
    }
    for k in 0..5 {
        s.lid[k] = s.bag[k] - in_bag[k];
        s.bag[k] = in_bag[k];
    }
    assert_eq!(s.tile_count(), 100);
    let mut rng = game_rng(9);
    let mut deal = [[255u8; 4]; 9];
    s.deal(&mut rng, Some(&mut deal));
    log.push_str(&format!(
        "bag 6 + lid 62: on table {} bag {:?} lid {:?}\n",
        s.on_table, s.bag, s.lid
    ));
    assert_eq!(s.on_table, 20, "the lid refilled the bag mid-deal");
    assert_eq!(s.lid, [0; 5], "the lid went into the bag");
    // Empty lid: a short round. Four players (9 factories, 36 tiles a
    // deal) whose boards hold 74 tiles leave 26 to deal.
    let mut t = State::new(Rules::default(), 4);
    t.bag = [0; 5];
    for p in 0..4 {
        for r in 1..5 {
            for c in 0..4 {
                t.boards[p].wall |= 1 << (r * 5 + c);
            }
        }
    }
    for r in 1..5 {
        // Lines 2-5 of player 1 hold the colour of their free column 5.
        let colour = (4 + 5 - r) % 5;
        t.boards[0].lines[r] = Line {
            colour: colour as u8,
            count: r as u8,
        };
    }
    let counts = t.colour_counts();
    for k in 0..5 {
        t.bag[k] = (20 - counts[k]) as u8;
    }
    let loose: u32 = t.bag.iter().map(|&n| u32::from(n)).sum();
    assert_eq!((t.tile_count(), loose), (100, 26));
    t.deal(&mut rng, None);
    log.push_str(&format!(
        "4 players, only {loose} loose tiles: on table {} bag {:?} lid {:?} over {}\n",
        t.on_table, t.bag, t.lid, t.over
    ));
    assert_eq!(
        u32::from(t.on_table),
        loose,
        "the round starts with what was dealt"
    );
    assert!(!t.over);
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!(log));
}

#[test]
fn ties_break_on_complete_rows_else_shared() {
    let mut s = State::new(Rules::default(), 2);
    s.boards[0].score = 30;
    s.boards[1].score = 30;
    s.boards[0].wall = wall(&[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]);
    s.boards[1].wall = wall(&[(1, 0)]);
    s.bag[0] -= 2;
    s.bag[1] -= 2;
    s.bag[2] -= 1;
    s.bag[4] -= 1;
    s.over = true;
    let (w, n) = s.winners();
    assert_eq!((w[0], w[1], n), (true, false, 1));
    s.boards[1].wall = wall(&[(1, 0), (1, 1), (1, 2), (1, 3), (1, 4)]);
    let (w, n) = s.winners();
    assert_eq!((w[0], w[1], n), (true, true, 2));
}

#[test]
fn first_player_marker_goes_to_the_first_centre_taker() {
    let mut s = State::new(Rules::default(), 2);
    let mut rng = game_rng(5);
    s.deal(&mut rng, None);
    // Player 1 takes from factory 1 (leftovers to the centre).
    let mut moves = MoveList::default();
    s.legal_moves(&mut moves);
    let m = moves.as_slice()[0];
    s.play(m);
    assert!(s.marker_in_centre);
    s.legal_moves(&mut moves);
    let centre = moves
        .as_slice()
        .iter()
        .copied()
        .find(|m| m.source == CENTRE && m.target != FLOOR)
        .expect("the centre holds leftovers");
    s.play(centre);
    assert!(!s.marker_in_centre);
    assert!(s.boards[1].marker);
    assert_eq!(s.next_first, 1);
    assert!(s.boards[1].floor_len >= 1);
    s.legal_moves(&mut moves);
    if let Some(again) = moves
        .as_slice()
        .iter()
        .copied()
        .find(|m| m.source == CENTRE)
    {
        s.play(again);
        assert!(!s.boards[0].marker, "the marker is taken once per round");
    }
}

fn random_game(seed: u64, players: usize, check: &mut dyn FnMut(&State, &MoveList, u64)) {
    let mut rng = game_rng(seed);
    let mut s = State::new(Rules::default(), players);
    s.deal(&mut rng, None);
    let mut moves = MoveList::default();
    while !s.over {
        s.legal_moves(&mut moves);
        check(&s, &moves, rng.random());
        let m = moves.as_slice()[rng.random_range(0..moves.len())];
        s.step(m, &mut rng);
        assert_eq!(s.tile_count(), 100, "conservation after {m:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn tiles_are_conserved_at_every_step(seed in any::<u64>(), players in 2usize..=4) {
        random_game(seed, players, &mut |s, _, _| {
            assert_eq!(s.tile_count(), 100);
            assert_eq!(s.colour_counts(), [20; 5]);
        });
    }

    #[test]
    fn listed_moves_are_accepted_and_every_other_refused(seed in any::<u64>()) {
        random_game(seed, 2, &mut |s, moves, _| {
            let listed = moves.as_slice();
            for source in (0..9u8).chain([CENTRE]) {
                for colour in 0..5u8 {
                    for target in 0..=5u8 {
                        let m = Move { source, colour, target };
                        let refusal = s.refusal(m);
                        if listed.contains(&m) {
                            assert_eq!(refusal, None, "{m:?} is listed");
                        } else {
                            let why = refusal.unwrap_or_else(|| panic!("{m:?} is not listed but accepted"));
                            assert!(!why.is_empty());
                        }
                    }
                }
            }
        });
    }
}

#[test]
fn a_whole_game_through_the_trait_records_and_checks() {
    let mut game = Azul::start(Setup::new(Default::default(), script(), 11)).unwrap();
    let mut rng = game_rng(12);
    while !game.outcome().is_over() {
        let moves = game.legal_actions();
        let a = moves[rng.random_range(0..moves.len())];
        game.apply(&a).unwrap();
    }
    let text: String = game.record().iter().map(|l| l.to_json() + "\n").collect();
    let report = tessera_azul::record::check_record(&text, Rules::default());
    assert_eq!(report.first_difference, None);
    assert_eq!(report.events, game.record().len());
    // Tamper with a tiling score: the checker names that line.
    let tampered: Vec<String> = text
        .lines()
        .map(|l| {
            if l.contains("\"tiling\"") && l.contains("\"round\":2") {
                l.replace("\"scores\":[", "\"scores\":[99")
            } else {
                l.to_string()
            }
        })
        .collect();
    let report = tessera_azul::record::check_record(&tampered.join("\n"), Rules::default());
    let (line, why) = report.first_difference.expect("a difference");
    assert!(tampered[line - 1].contains("\"round\":2"), "{why}");
    assert!(matches!(
        game.outcome(),
        Outcome::Winner(_) | Outcome::Shared(_)
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The playout's shortcut draws only listed moves.
    #[test]
    fn random_moves_are_listed_moves(seed in any::<u64>()) {
        let mut rng = game_rng(seed);
        random_game(seed, 3, &mut |s, moves, _| {
            for _ in 0..8 {
                let m = s.random_move(&mut rng).expect("a move");
                assert!(moves.as_slice().contains(&m), "{m:?}");
            }
        });
    }
}

#[test]
fn the_text_floor_shows_the_marker_in_its_slot_and_never_more_than_seven_slots() {
    let mut s = State::new(Rules::default(), 2);
    s.deal(&mut game_rng(3), None);
    // Player 1 drops two tiles first, then takes the marker: slot 3.
    let b = &mut s.boards[0];
    b.floor[0] = 1;
    b.floor[2] = 1;
    b.floor_len = 3;
    b.marker = true;
    b.marker_slot = 2;
    s.bag[0] -= 1;
    s.bag[2] -= 1;
    let text = render(&s);
    assert!(text.contains("floor [BR1] -4"), "{text}");
    // A floor full of tiles when the marker comes: seven slots drawn, the
    // marker beside them (it costs nothing).
    let b = &mut s.boards[1];
    b.floor = [2, 2, 1, 1, 1];
    b.floor_len = 7;
    b.marker = true;
    b.marker_slot = 7;
    for (k, n) in [2u8, 2, 1, 1, 1].iter().enumerate() {
        s.bag[k] -= n;
    }
    let text = render(&s);
    assert!(text.contains("floor [BBYYRGO] +marker -14"), "{text}");
    // Through the rules: the marker taken by a move lands in the next
    // free slot, after the tiles already there.
    let mut s = State::new(Rules::default(), 2);
    s.deal(&mut game_rng(5), None);
    let mut moves = MoveList::default();
    let mut rng = game_rng(6);
    while !s.boards.iter().any(|b| b.marker) {
        s.legal_moves(&mut moves);
        let m = moves.as_slice()[rng.random_range(0..moves.len())];
        let before = s.boards[s.to_move as usize].floor_len;
        let p = s.to_move as usize;
        s.play(m);
        if s.boards[p].marker {
            assert_eq!(s.boards[p].marker_slot, before);
        }
    }
}
