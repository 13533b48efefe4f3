//! Rules through the game: orientations, kicks, scoring, levels, top-out,
//! auto-repeat, lock delay, hold, and bad input.

use super::tetris_support;

use tessera_host::plugin::Reports;
use tessera_host::{Game, Outcome};
use tessera_tetris::TetrisAction::{self, *};
use tessera_tetris::board::{Board, spawn_position};
use tessera_tetris::movegen::turn;
use tessera_tetris::piece::{PieceKind, RotationSystem, orientation};
use tessera_tetris::rules::Key;
use tetris_support::*;

fn snap(name: &str, text: String) {
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn every_orientation_on_an_empty_board() {
    let mut out = String::new();
    for kind in PieceKind::ALL {
        for state in 0..4u8 {
            let o = orientation(kind, state);
            let mut board = Board::new(4, 4);
            board.place(kind, state, 0, 0);
            let distinct = if o.canonical == state {
                "distinct".to_string()
            } else {
                format!("same cells as state {}", o.canonical)
            };
            out.push_str(&format!(
                "{kind} state {state} ({distinct})\n{}\n",
                board.to_text()
            ));
        }
    }
    snap("orientations", out);
}

#[test]
fn srs_turns_an_i_next_to_each_wall() {
    let board = Board::new(10, 22);
    let mut out = String::new();
    // Vertical I against the left wall (state L at box x = -1) and the
    // right wall (state R at box x = 7), turned both ways.
    for (state, x, wall) in [(3u8, -1, "left"), (1u8, 7, "right")] {
        for clockwise in [true, false] {
            let result = turn(
                &board,
                RotationSystem::Srs,
                PieceKind::I,
                state,
                x,
                5,
                clockwise,
            );
            let mut shown = Board::new(10, 10);
            if let Some((nx, ny, ns)) = result {
                shown.place(PieceKind::I, ns, nx, ny);
            }
            out.push_str(&format!(
                "I state {state} at the {wall} wall, turned {}: {:?}\n{}\n",
                if clockwise { "cw" } else { "ccw" },
                result,
                shown.to_text()
            ));
            // Without kicks the same turn would leave the board.
            assert!(
                turn(
                    &board,
                    RotationSystem::Cycle,
                    PieceKind::I,
                    state % 2,
                    x,
                    5,
                    clockwise
                )
                .is_none_or(|(nx, _, ns)| board.fits(PieceKind::I, ns, nx, 5)),
            );
        }
    }
    snap("srs_i_walls", out);
}

const TST: [&str; 5] = [
    "GGGG......",
    "GGG.......",
    "GGG.GGGGGG",
    "GGG..GGGGG",
    "GGG.GGGGGG",
];

#[test]
fn t_spin_triple_needs_srs_kicks() {
    let mut game = start(level(10, &TST, "TT", "srs"), 1);
    // The T's stem fills column 3 from row 9 down (the highest landing
    // in that column and rotation sits on the roof).
    let drop = Drop {
        x: 3,
        rotation: 1,
        y: Some(9),
    };
    play(&mut game, &[drop]);
    assert_eq!(game.lines(), 3);
    assert_eq!(game.score(), 50);
    let mut text = game.render_text();

    let mut cycle = start(level(10, &TST, "TT", "cycle"), 1);
    let refused = cycle.apply(&drop).unwrap_err().to_string();
    assert!(refused.contains("cannot reach"), "{refused}");
    text.push_str(&format!("under cycle: {refused}\n"));
    snap("t_spin_triple", text);
}

#[test]
fn t_spin_triple_by_keys() {
    // The same triple played with inputs: the path the generator found.
    let mut game = start(level(10, &TST, "TT", "srs"), 1);
    let board = *game.field().board();
    let spawn = spawn_position(PieceKind::T, 10);
    let target = game.find_drop(3, 1, Some(9)).expect("reachable");
    let path = tessera_tetris::movegen::find_path(&board, RotationSystem::Srs, spawn, &target)
        .expect("path");
    let actions: Vec<TetrisAction> = path
        .iter()
        .map(|m| match m {
            tessera_tetris::movegen::Move::Left => Left,
            tessera_tetris::movegen::Move::Right => Right,
            tessera_tetris::movegen::Move::Down => SoftDrop,
            tessera_tetris::movegen::Move::Cw => RotateCw,
            tessera_tetris::movegen::Move::Ccw => RotateCcw,
        })
        .chain([HardDrop])
        .collect();
    play(&mut game, &actions);
    assert_eq!(game.lines(), 3, "{path:?}");
    snap(
        "t_spin_triple_path",
        format!("{path:?}\n{}", game.render_text()),
    );
}

#[test]
fn scoring_one_to_four_lines() {
    let mut out = String::new();
    for lines in 1..=4usize {
        let rows = well_rows(lines);
        let mut game = start(level(10, &rows, "II", "srs"), 1);
        // A vertical I in column 9 reaches the bottom.
        play(
            &mut game,
            &[Drop {
                x: 9,
                rotation: 1,
                y: None,
            }],
        );
        out.push_str(&format!("{lines} lines: score {}\n", game.score()));
        assert_eq!(game.score(), [10, 30, 50, 70][lines - 1]);
    }
    snap("scoring", out);
}

#[test]
fn script_edit_changes_the_next_tetris() {
    let rows = well_rows(4);
    let script = shipped();
    let mut game = start_with(
        level(10, &[&rows[..], &rows[..]].concat(), "II", "srs"),
        script.clone(),
        1,
    );
    play(
        &mut game,
        &[Drop {
            x: 9,
            rotation: 1,
            y: None,
        }],
    );
    assert_eq!(game.score(), 70);
    let edited = shipped_source().replace("{ 10, 30, 50, 70 }", "{ 10, 30, 50, 800 }");
    script.replace(script_from(&edited));
    play(
        &mut game,
        &[Drop {
            x: 9,
            rotation: 1,
            y: None,
        }],
    );
    assert_eq!(game.score(), 870);
}

fn script_from(source: &str) -> tessera_host::Script {
    tetris_support::script(source).expect("loads")
}

#[test]
fn level_thresholds_and_fall_speed() {
    let script = shipped().current();
    let mut out = String::new();
    for score in [0u64, 999, 1000, 1999, 2000, 8999, 9000, 20000] {
        let level = tessera_tetris::settings::level_for(&script, score).unwrap();
        let won = tessera_tetris::settings::won(&script, score, level, 0).unwrap();
        out.push_str(&format!("score {score}: level {level}, won {won}\n"));
    }
    let settings = tessera_tetris::settings::Settings::read(&script).unwrap();
    out.push_str(&format!(
        "fall ticks per level: {:?}\n",
        settings.fall_ticks
    ));
    assert_eq!(
        settings.fall_ticks[0], 120,
        "level 0: a row every 2 s at 60 ticks/s"
    );
    snap("levels", out);

    // A level-up in play: 1000 points per tetris with an edited table.
    let rows = well_rows(4);
    let mut game = start_with(
        level(10, &rows, "II", "srs"),
        shipped_with("{ 10, 30, 50, 70 }", "{ 10, 30, 50, 1000 }"),
        1,
    );
    play(
        &mut game,
        &[Drop {
            x: 9,
            rotation: 1,
            y: None,
        }],
    );
    assert_eq!(game.level_number(), 1);
    assert_eq!(game.field().config().fall_ticks, 96);
    let events: Vec<String> = game.take_events().into_iter().map(|e| e.text).collect();
    assert!(events.contains(&"level 1".to_string()), "{events:?}");
}

#[test]
fn gravity_takes_two_seconds_per_row_at_level_0() {
    let mut game = start(level(18, &[], "", "cycle"), 3);
    let y0 = game.field().active().unwrap().y;
    play(&mut game, &[Tick(119)]);
    assert_eq!(game.field().active().unwrap().y, y0);
    play(&mut game, &[Tick(1)]);
    assert_eq!(game.field().active().unwrap().y, y0 + 1);
}

#[test]
fn instant_lock_at_the_next_gravity_step() {
    let mut game = start(level(6, &[], "OO", "cycle"), 3);
    // Fall to the bottom (8 rows incl. hidden; O is 2 tall).
    play(&mut game, &[Tick(120 * 6)]);
    assert_eq!(game.field().locked(), 0);
    play(&mut game, &[Tick(120)]);
    assert_eq!(game.field().locked(), 1);
}

#[test]
fn das_and_arr_in_ticks() {
    let mut game = start(level(18, &[], "", "cycle"), 3);
    let x0 = game.field().active().unwrap().x;
    play(&mut game, &[Press(Key::Left)]);
    assert_eq!(game.field().active().unwrap().x, x0 - 1, "one move at once");
    play(&mut game, &[Tick(9)]);
    assert_eq!(
        game.field().active().unwrap().x,
        x0 - 1,
        "nothing before DAS"
    );
    play(&mut game, &[Tick(1)]);
    assert_eq!(
        game.field().active().unwrap().x,
        x0 - 2,
        "first repeat at DAS"
    );
    play(&mut game, &[Tick(2)]);
    assert_eq!(game.field().active().unwrap().x, x0 - 3, "then every ARR");
    play(&mut game, &[Release(Key::Left), Tick(10)]);
    assert_eq!(game.field().active().unwrap().x, x0 - 3);
}

#[test]
fn lock_delay_and_resets_from_the_script() {
    let script = shipped_with("lock_delay_ticks = 0", "lock_delay_ticks = 30");
    let mut game = start_with(level(6, &[], "OOO", "srs"), script, 3);
    play(
        &mut game,
        &[SoftDrop, SoftDrop, SoftDrop, SoftDrop, SoftDrop, SoftDrop],
    );
    play(&mut game, &[Tick(29)]);
    assert_eq!(game.field().locked(), 0);
    play(&mut game, &[Left, Tick(29)]);
    assert_eq!(
        game.field().locked(),
        0,
        "a move on the ground restarts the delay"
    );
    play(&mut game, &[Tick(1)]);
    assert_eq!(game.field().locked(), 1);
}

#[test]
fn hold_swaps_once_per_piece() {
    let script = shipped_with("hold = false", "hold = true");
    let mut game = start_with(level(18, &[], "TIO", "srs"), script, 1);
    play(&mut game, &[Hold]);
    assert_eq!(game.field().active().unwrap().kind, PieceKind::I);
    assert_eq!(game.field().held_piece(), Some(PieceKind::T));
    assert!(game.apply(&Hold).is_err());
    play(&mut game, &[HardDrop, Hold]);
    assert_eq!(game.field().active().unwrap().kind, PieceKind::T);
    let off = start(level(18, &[], "TIO", "srs"), 1);
    let mut off = off;
    let refused = off.apply(&Hold).unwrap_err().to_string();
    assert!(refused.contains("hold = false"), "{refused}");
}

#[test]
fn pause_stops_time() {
    let mut game = start(level(18, &[], "", "cycle"), 3);
    let y0 = game.field().active().unwrap().y;
    play(&mut game, &[Pause, Tick(500)]);
    assert_eq!(game.field().active().unwrap().y, y0);
    assert!(game.apply(&Left).is_err());
    play(&mut game, &[Pause, Tick(120)]);
    assert_eq!(game.field().active().unwrap().y, y0 + 1);
}

#[test]
fn top_out_is_over() {
    let mut game = start(tessera_tetris::level::TetrisLevel::default(), 5);
    let mut drops = 0;
    while !game.outcome().is_over() && drops < 200 {
        play(&mut game, &[HardDrop]);
        drops += 1;
    }
    assert_eq!(game.outcome(), Outcome::Lost);
    assert_eq!(
        game.over_reason(),
        Some("OVER: the next piece cannot spawn")
    );
    snap("top_out", game.report_text(true));
}

#[test]
fn bag_randomizer_deals_each_piece_once_per_seven() {
    let mut game = start(level(20, &[], "", "srs"), 11);
    let mut seen = Vec::new();
    for _ in 0..14 {
        seen.push(game.field().active().unwrap().kind);
        // Drop each piece flat somewhere; the board is wide enough for 14.
        let landing = game.landings().into_iter().max_by_key(|p| p.y).unwrap();
        play(
            &mut game,
            &[Drop {
                x: landing.left_column(),
                rotation: landing.state,
                y: Some(landing.top_row()),
            }],
        );
        if game.outcome().is_over() {
            break;
        }
    }
    for bag in seen.chunks(7) {
        let mut sorted = bag.to_vec();
        sorted.sort();
        if bag.len() == 7 {
            assert_eq!(sorted, PieceKind::ALL.to_vec());
        }
    }
}

#[test]
fn same_seed_same_game() {
    let run = |seed| {
        let mut game = start(tessera_tetris::level::TetrisLevel::default(), seed);
        for _ in 0..30 {
            let _ = game.apply(&HardDrop);
        }
        game.render_text()
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(10));
}
