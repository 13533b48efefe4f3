//! The flow of sand drop: spanning clears, chains, placements during a
//! clear, game over, live score edits and bad input.

use super::sand_support;

use sand_support::*;
use tessera_host::{Game, GameError, LiveScript, Outcome};
use tessera_sand::piece::{Piece, Shape};
use tessera_sand::{ClearPhase, Sand, SandAction};

fn place(slot: usize, x: i32, y: i32) -> SandAction {
    SandAction::Place {
        slot,
        x,
        y,
        rotation: 0,
    }
}

/// Appendix B: red spans both walls and clears; the blue piece resting on
/// it falls to the floor. (Step 3 drops a red I into the gap rather than
/// the appendix's T so the bridge is certain on the 12-column board.)
#[test]
fn appendix_b_red_spans_and_clears_then_blue_falls() {
    let mut game = start(level(12, 22, 10, &[]), 1);
    drop_piece(&mut game, Shape::I, RED, 0, 21);
    game.settle().unwrap();
    drop_piece(&mut game, Shape::I, RED, 8, 21);
    game.settle().unwrap();
    drop_piece(&mut game, Shape::L, BLUE, 9, 19);
    game.settle().unwrap();
    assert!(game.chain_log().is_empty(), "red does not span yet");
    assert_eq!(game.grid().grain_count(), 1200);
    let blue_top_before = (0..220)
        .find(|&y| game.grid().colour_row(y, BLUE) != 0)
        .unwrap();

    drop_piece(&mut game, Shape::I, RED, 4, 19);
    game.settle().unwrap();
    let log = game.chain_log();
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0].chain, 1);
    assert_eq!(log[0].clusters.len(), 1);
    let red = &log[0].clusters[0];
    assert_eq!((red.colour, red.grains), (RED, 1200));
    // floor(10 * sqrt(12)) * 1
    assert_eq!(red.points, 34);
    assert_eq!(game.score(), 34);
    let grid = game.grid();
    assert_eq!(
        count_colour(grid, RED),
        0,
        "exactly the found grains are gone"
    );
    assert_eq!(count_colour(grid, BLUE), 400);
    let blue_top_after = (0..220).find(|&y| grid.colour_row(y, BLUE) != 0).unwrap();
    assert!(blue_top_after > blue_top_before, "blue fell");
    assert_ne!(grid.occupied_row(219), 0, "blue reached the floor");
    assert_eq!(movable_grains(grid), vec![]);
    assert_eq!(game.outcome(), Outcome::Playing);
}

/// Red clears (chain 1); the blue/yellow row above falls onto the bottom
/// row, where blue now reaches from the left wall to the right wall
/// (chain 2); then the yellow on top falls and slides into the gap blue
/// left, joining the yellow below it (chain 3).
const CHAIN_BOARD: [&str; 3] = ["BBBBYY", "RRRRRR", "YYYBBB"];

#[test]
fn a_chain_multiplies_each_further_clear() {
    let mut game = start(level(6, 4, 10, &CHAIN_BOARD), 3);
    game.settle().unwrap();
    let log = game.chain_log();
    assert_eq!(log.len(), 3, "{log:?}");
    assert_eq!(log[0].chain, 1);
    assert_eq!(
        (log[0].clusters[0].colour, log[0].clusters[0].grains),
        (RED, 600)
    );
    // floor(10 * sqrt(6)) * 1
    assert_eq!(log[0].points(), 24);
    assert_eq!(log[1].chain, 2);
    assert_eq!(
        (log[1].clusters[0].colour, log[1].clusters[0].grains),
        (BLUE, 700)
    );
    // floor(10 * sqrt(7)) * 2
    assert_eq!(log[1].points(), 52);
    assert_eq!(log[2].chain, 3);
    assert_eq!(
        (log[2].clusters[0].colour, log[2].clusters[0].grains),
        (YELLOW, 500)
    );
    // floor(10 * sqrt(5)) * 3
    assert_eq!(log[2].points(), 66);
    assert_eq!(game.score(), 24 + 52 + 66);
    assert_eq!(game.chain(), 0, "the chain ended");
    assert!(
        log[1].tick > log[0].tick + 72,
        "flash + burst (12 + 60 ticks) came first"
    );
    assert_eq!(game.grid().grain_count(), 0);
    assert_eq!(game.cleared_grains(), 1800);
}

#[test]
fn several_clusters_in_one_round_score_at_the_same_chain_level() {
    // Two red rows separated by blue: two red clusters, one blue cluster.
    let mut game = start(level(4, 4, 10, &["RRRR", "BBBB", "RRRR"]), 3);
    game.settle().unwrap();
    let log = game.chain_log();
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0].clusters.len(), 3);
    for cluster in &log[0].clusters {
        assert_eq!(cluster.grains, 400);
        // floor(10 * sqrt(4)) * 1 each
        assert_eq!(cluster.points, 20);
    }
    assert_eq!(game.grid().grain_count(), 0);
}

#[test]
fn a_piece_placed_while_a_clear_animates_falls_and_joins_later_checks() {
    let mut game = start(level(6, 5, 10, &CHAIN_BOARD), 3);
    while game.clear_phase().is_none() {
        game.advance(1).unwrap();
    }
    assert!(matches!(game.clear_phase(), Some(ClearPhase::Flash { .. })));
    // The top two rows are free: drop a green O there while red flashes.
    drop_piece(&mut game, Shape::O, GREEN, 0, 0);
    assert_eq!(game.chain_log().len(), 1);
    game.advance(30).unwrap();
    assert!(matches!(game.clear_phase(), Some(ClearPhase::Burst { .. })));
    assert_eq!(
        count_colour(game.grid(), RED),
        600,
        "red stays until the burst ends"
    );
    game.settle().unwrap();
    let log = game.chain_log();
    assert!(log.len() >= 2, "{log:?}");
    assert_eq!(log[1].chain, 2);
    assert_eq!(log[1].clusters[0].grains, 700);
    let grid = game.grid();
    assert_eq!(
        count_colour(grid, GREEN),
        400,
        "green took part in no clear"
    );
    assert_eq!(
        grid.grain_count() as u64,
        1800 + 400 - game.cleared_grains()
    );
    assert_eq!(movable_grains(grid), vec![]);
}

#[test]
fn a_cluster_touching_only_one_wall_does_not_clear() {
    let mut game = start(level(6, 3, 10, &["RRRRR."]), 2);
    game.settle().unwrap();
    assert!(game.chain_log().is_empty());
    assert_eq!(count_colour(game.grid(), RED), 500);
    // The same row reaching the right wall does clear.
    let mut game = start(level(6, 3, 10, &["RRRRRR"]), 2);
    game.settle().unwrap();
    assert_eq!(game.chain_log().len(), 1);
}

#[test]
fn a_bridge_of_falling_grains_does_not_clear_until_it_settles() {
    let mut game = start(level(6, 8, 10, &["RR..RR"]), 4);
    game.settle().unwrap();
    drop_piece(&mut game, Shape::O, RED, 2, 0);
    let mut bridged_while_falling = false;
    while !game.grid().is_settled() {
        game.advance(1).unwrap();
        if !game.grid().is_settled() {
            assert!(game.chain_log().is_empty(), "no clear while grains fall");
            assert!(game.clear_phase().is_none());
            bridged_while_falling |= colour_spans(game.grid(), RED);
        }
    }
    assert!(bridged_while_falling, "the falling O touched both sides");
    game.settle().unwrap();
    assert_eq!(game.chain_log().len(), 1);
    assert_eq!(game.chain_log()[0].clusters[0].grains, 800);
}

#[test]
fn game_over_when_no_slot_piece_fits_anywhere_not_when_one_does() {
    // 4x2 cells of 5 grains, bottom row full: only the top row is free.
    let board = ["RGRG"];
    let mut game = start(level(4, 2, 5, &board), 5);
    let o = Piece {
        shape: Shape::O,
        colour: BLUE,
    };
    let i = Piece {
        shape: Shape::I,
        colour: BLUE,
    };
    game.set_slot(0, o).unwrap();
    game.set_slot(1, o).unwrap();
    game.set_slot(2, i).unwrap();
    game.settle().unwrap();
    assert_eq!(
        game.outcome(),
        Outcome::Playing,
        "the I fits after the first check"
    );
    // A failed attempt checks game over: the I still fits.
    assert!(matches!(
        game.apply(&place(0, 0, 0)),
        Err(GameError::Illegal(_))
    ));
    assert_eq!(game.outcome(), Outcome::Playing);
    assert!(game.fits_anywhere(2));
    assert!(!game.fits_anywhere(0));
    game.set_slot(2, o).unwrap();
    assert!(game.apply(&place(0, 0, 0)).is_err());
    assert_eq!(game.outcome(), Outcome::Lost);
    assert!(game.legal_actions().is_empty());
    assert!(
        matches!(game.apply(&place(2, 0, 0)), Err(GameError::Illegal(m)) if m.contains("over"))
    );
}

#[test]
fn game_over_after_a_placement_has_finished_its_clears() {
    // 5 columns: an I in the top row leaves one cell, where nothing fits.
    let mut game = start(level(5, 2, 5, &["RGRGR"]), 5);
    let i = Piece {
        shape: Shape::I,
        colour: YELLOW,
    };
    for slot in 0..3 {
        game.set_slot(slot, i).unwrap();
    }
    game.settle().unwrap();
    assert_eq!(game.outcome(), Outcome::Playing);
    game.apply(&place(0, 0, 0)).unwrap();
    assert_eq!(game.outcome(), Outcome::Playing, "not before it settles");
    game.settle().unwrap();
    assert!(game.chain_log().is_empty());
    assert_eq!(game.outcome(), Outcome::Lost);
}

#[test]
fn a_placement_refills_only_its_slot_and_a_failed_one_refills_nothing() {
    let mut game = start(level(12, 22, 10, &[]), 9);
    let before = game.slots().to_vec();
    game.apply(&place(1, 0, 10)).unwrap();
    let after = game.slots().to_vec();
    assert_eq!(after[0], before[0]);
    assert_eq!(after[2], before[2]);
    assert_eq!(game.grid().grain_count(), 400);
    assert!(game.apply(&place(0, 11, 0)).is_err() || before[0].shape == Shape::O);
    let again = game.slots().to_vec();
    assert_eq!(again[0], after[0]);
}

#[test]
fn editing_the_score_function_while_playing_changes_the_next_clear() {
    let live: LiveScript = shipped_script();
    let mut game = Sand::start(tessera_host::Setup::new(
        level(6, 4, 10, &CHAIN_BOARD),
        live.clone(),
        3,
    ))
    .unwrap();
    while game.chain_log().is_empty() {
        game.advance(1).unwrap();
    }
    assert_eq!(game.chain_log()[0].points(), 24);
    let source = std::fs::read_to_string(shipped_script_path())
        .unwrap()
        .replace(
            "return math.floor(10 * math.sqrt(cells)) * chain",
            "return cells * 1000 + chain",
        );
    live.replace(script(&source).unwrap());
    game.settle().unwrap();
    let log = game.chain_log();
    assert_eq!(log.len(), 3);
    assert_eq!(log[1].points(), 7002);
    assert_eq!(log[2].points(), 5003);
    assert_eq!(game.score(), 24 + 7002 + 5003);
}

fn script_with_score(body: &str) -> LiveScript {
    let source = format!("return {{\n  score = function(cells, chain)\n    {body}\n  end,\n}}\n");
    LiveScript::new(script(&source).unwrap())
}

#[test]
fn a_failing_score_function_names_its_line_and_the_game_goes_on() {
    for (body, needle) in [
        (
            "error(\"no points today\")",
            "scripts/sand.lua:3: no points today",
        ),
        ("return 0/0", "scripts/sand.lua:2: score(6, 1) returned NaN"),
        ("return -5", "scripts/sand.lua:2: score(6, 1) returned -5"),
        ("return \"lots\"", "returned a string"),
    ] {
        let mut game = Sand::start(tessera_host::Setup::new(
            level(6, 4, 10, &CHAIN_BOARD),
            script_with_score(body),
            3,
        ))
        .unwrap();
        game.settle().unwrap();
        let messages = game.take_events();
        assert!(
            messages
                .iter()
                .any(|m| m.is_error && m.text.contains(needle)),
            "{body}: {messages:?}"
        );
        // Every clear still happened, scoring nothing.
        assert_eq!(game.chain_log().len(), 3, "{body}");
        assert_eq!(game.score(), 0);
        assert_eq!(game.outcome(), Outcome::Playing);
    }
}

#[test]
fn bad_placements_are_refused_with_reasons() {
    let mut game = start(level(6, 4, 10, &["RRR..."]), 1);
    game.settle().unwrap();
    let o = Piece {
        shape: Shape::O,
        colour: BLUE,
    };
    game.set_slot(0, o).unwrap();
    let err = game.apply(&place(7, 0, 0)).unwrap_err();
    assert!(
        matches!(err, GameError::Invalid(ref m) if m.contains("slot 7")),
        "{err}"
    );
    let err = game.apply(&place(0, 5, 0)).unwrap_err();
    assert!(err.to_string().contains("leave the 6x4 board"), "{err}");
    let err = game.apply(&place(0, -1, 0)).unwrap_err();
    assert!(err.to_string().contains("leave"), "{err}");
    // Positions count from 1 in messages: cell (0,3) is "cell 1,4".
    let err = game.apply(&place(0, 0, 2)).unwrap_err();
    assert!(
        err.to_string().contains("overlaps grains in cell 1,4"),
        "{err}"
    );
    let err = game
        .apply(&SandAction::Place {
            slot: 0,
            x: 3,
            y: 0,
            rotation: 1,
        })
        .unwrap_err();
    assert!(
        err.to_string().contains("rotation is switched off"),
        "{err}"
    );
    assert_eq!(game.grid().grain_count(), 300, "nothing changed");
    assert_eq!(game.outcome(), Outcome::Playing);
}

#[test]
fn bad_levels_and_scripts_are_refused_with_reasons() {
    let err = Sand::start(tessera_host::Setup::new(
        level(13, 22, 10, &[]),
        shipped_script(),
        1,
    ))
    .unwrap_err();
    assert!(err.to_string().contains("130 grains wide"), "{err}");
    let err = Sand::start(tessera_host::Setup::new(
        level(6, 4, 10, &["RRXR.."]),
        shipped_script(),
        1,
    ))
    .unwrap_err();
    assert!(
        err.to_string().contains("'X' is not a palette letter"),
        "{err}"
    );
    let err = Sand::start(tessera_host::Setup::new(
        level(6, 4, 10, &["RRR"]),
        shipped_script(),
        1,
    ))
    .unwrap_err();
    assert!(
        err.to_string().contains("3 cells, the board has 6 columns"),
        "{err}"
    );
    let source = "return { score = function() return 1 end, palette = { { name = \"red\", letter = \"RR\", rgb = {1,2,3} } } }";
    let err = Sand::start(tessera_host::Setup::new(
        level(6, 4, 10, &[]),
        LiveScript::new(script(source).unwrap()),
        1,
    ))
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("`palette[1].letter` must be one character, not \"RR\""),
        "{err}"
    );
    let err = script("return { palette = {} }").unwrap_err();
    assert!(err.to_string().contains("missing `score`"), "{err}");
}

#[test]
fn a_six_colour_palette_is_one_edit_away() {
    let source = std::fs::read_to_string(shipped_script_path())
        .unwrap()
        .replace("-- { name = \"purple\"", "{ name = \"purple\"")
        .replace("-- { name = \"white\"", "{ name = \"white\"");
    let game = Sand::start(tessera_host::Setup::new(
        level(12, 22, 10, &[]),
        LiveScript::new(script(&source).unwrap()),
        1,
    ))
    .unwrap();
    assert_eq!(game.palette().len(), 6);
    assert_eq!(game.palette()[5].letter, 'W');
}

#[test]
fn the_same_seed_and_actions_give_the_same_game() {
    let run = |seed| {
        let mut game = start(level(12, 22, 10, &[]), seed);
        for turn in 0..12 {
            let moves = game.legal_placements();
            let action = moves[(turn * 37) % moves.len()];
            game.apply(&action).unwrap();
            game.advance(40).unwrap();
        }
        game.settle().unwrap();
        (game.render_text(), game.score())
    };
    assert_eq!(run(21), run(21));
    assert_ne!(run(21).0, run(22).0);
}

#[test]
fn a_piece_that_settles_is_checked_while_another_still_falls() {
    let mut game = start(level(6, 10, 10, &["RR..RR"]), 6);
    game.settle().unwrap();
    drop_piece(&mut game, Shape::I, BLUE, 1, 0);
    drop_piece(&mut game, Shape::O, RED, 2, 7);
    for _ in 0..40 {
        if !game.chain_log().is_empty() {
            break;
        }
        game.advance(1).unwrap();
    }
    let log = game.chain_log();
    assert_eq!(log.len(), 1, "the red O was checked as soon as it settled");
    assert_eq!(
        (log[0].clusters[0].colour, log[0].clusters[0].grains),
        (RED, 800)
    );
    assert!(!game.grid().is_settled(), "the blue I is still falling");
    game.settle().unwrap();
    assert_eq!(count_colour(game.grid(), BLUE), 400);
    assert_eq!(count_colour(game.grid(), RED), 0);
    assert_eq!(movable_grains(game.grid()), vec![]);
}

#[test]
fn a_level_palette_replaces_the_scripts_and_is_checked() {
    use tessera_host::level::LevelFile;
    use tessera_sand::LevelColour;
    let colour = |letter: char, name: &str| LevelColour {
        name: name.into(),
        letter,
        rgb: (10, 20, 30),
    };
    let mut level = level(4, 4, 10, &["PQ..", "QPPQ"]);
    // The script's palette has no P or Q.
    assert!(Sand::start(tessera_host::Setup::new(level.clone(), shipped_script(), 1)).is_err());
    level.palette = Some(vec![colour('P', "pink"), colour('Q', "teal")]);
    assert!(level.diagnose().is_empty(), "{:?}", level.diagnose());
    let game = start(level.clone(), 1);
    let letters: Vec<char> = game.palette().iter().map(|c| c.letter).collect();
    assert_eq!(letters, ['P', 'Q']);
    // Pieces come in the level's colours only.
    assert!(game.slots().iter().all(|p| usize::from(p.colour) < 2));
    // A repeated letter, an empty cell's letter, a board letter it lacks.
    level.palette = Some(vec![
        colour('P', "pink"),
        colour('P', "again"),
        colour('.', "dot"),
    ]);
    let messages: Vec<String> = level.diagnose().into_iter().map(|d| d.message).collect();
    assert_eq!(
        messages,
        [
            "field `palette`, colour 2: letter 'P' is already colour 1",
            "field `palette`, colour 3: '.' cannot be a colour's letter (`.` is an empty cell)",
            "field `board`, row 1, column 2: 'Q' is not a palette letter (the level's palette: PP.)",
        ]
    );
    level.palette = Some(Vec::new());
    assert!(
        level.diagnose()[0]
            .message
            .contains("holds 1 to 8 colours, this one 0")
    );
}

/// The level diagnosis warns about a starting board that already spans
/// wall to wall, and the warning is true: that board clears and scores
/// before the first move. A band that stops one cell short or is cut by
/// another colour gets no warning and does not clear.
#[test]
fn a_starting_board_that_already_spans_is_warned_about_and_does_clear() {
    use tessera_host::level::LevelFile;
    let spanning = level(6, 6, 10, &["BB....", "RRRBRR", "RRRRRR"]);
    let warnings: Vec<String> = spanning
        .diagnose()
        .iter()
        .map(|d| {
            assert!(!d.is_error(), "{d}");
            d.message.clone()
        })
        .collect();
    assert_eq!(
        warnings,
        vec![
            "field `board`, row 2: the starting board already holds a red cluster spanning wall to wall; it clears and scores before the first move"
        ]
    );
    let mut game = start(spanning, 1);
    game.settle().unwrap();
    assert!(game.score() > 0, "it cleared before any move");
    assert!(!game.chain_log().is_empty());

    for board in [
        // One cell short of the right wall.
        &["RRRRR."][..],
        // Blue cuts the red band. (One row on the floor: nothing can
        // fall or slide, so the quiet boards stay as drawn.)
        &["RRBRRR"][..],
    ] {
        let quiet = level(6, 6, 10, board);
        assert_eq!(quiet.diagnose(), vec![], "{board:?}");
        let mut game = start(quiet, 1);
        game.settle().unwrap();
        assert_eq!(game.score(), 0, "{board:?}");
    }
}
