//! The placement pipeline, move rollback, undo/redo, win, and the board
//! invariant under random play.

use proptest::prelude::*;
use tessera_polycube::level::{PieceSpec, PolycubeLevel};
use tessera_polycube::rules::{PlacementError, Rules};

use tessera_testkit as common;

fn piece(id: &str, cells: &[(i64, i64, i64)]) -> PieceSpec {
    PieceSpec {
        id: id.into(),
        cells: cells.to_vec(),
        colour: None,
    }
}

/// A 3x2x2 box (12 cells): I-tromino, L-tetracube, V-tromino, domino.
fn small() -> PolycubeLevel {
    PolycubeLevel {
        version: 1,
        name: "small".into(),
        size: (3, 2, 2),
        pieces: vec![
            piece("I", &[(1, 1, 1), (2, 1, 1), (3, 1, 1)]),
            piece("L", &[(1, 1, 1), (2, 1, 1), (3, 1, 1), (1, 2, 1)]),
            piece("V", &[(1, 1, 1), (2, 1, 1), (1, 2, 1)]),
            piece("O", &[(1, 1, 1), (2, 1, 1)]),
        ],
        assembly: false,
    }
}

fn show(rules: &Rules, error: &PlacementError) -> String {
    format!(
        "{}error: {error}\nname: {}\n",
        rules.render_text(),
        error.name()
    )
}

#[test]
fn every_pipeline_error_on_a_small_box() {
    let mut rules = Rules::new(&small(), true);
    let (i, l, o) = (0, 1, 3);
    rules
        .place_cells(i, &[(1, 1, 1), (2, 1, 1), (3, 1, 1)])
        .unwrap();
    let cases: Vec<(&str, Result<(), PlacementError>)> = vec![
        (
            "wrong_count",
            rules.clone().place_cells(l, &[(1, 2, 1), (2, 2, 1)]),
        ),
        (
            "shape_mismatch",
            rules
                .clone()
                .place_cells(l, &[(1, 2, 1), (2, 2, 1), (3, 2, 1), (2, 2, 2)]),
        ),
        (
            "out_of_bounds",
            rules
                .clone()
                .place_cells(l, &[(2, 2, 1), (3, 2, 1), (4, 2, 1), (2, 2, 2)]),
        ),
        (
            "collision",
            rules
                .clone()
                .place_cells(l, &[(1, 2, 1), (2, 2, 1), (3, 2, 1), (3, 1, 1)]),
        ),
        (
            "floating",
            rules.clone().place_cells(o, &[(1, 2, 2), (2, 2, 2)]),
        ),
    ];
    let expected = [
        "WrongCount",
        "ShapeMismatch",
        "OutOfBounds",
        "Collision",
        "Floating",
    ];
    for ((name, result), want) in cases.into_iter().zip(expected) {
        let error = result.expect_err(name);
        assert_eq!(error.name(), want);
        common::snapshots()
            .bind(|| insta::assert_snapshot!(format!("pipeline_{name}"), show(&rules, &error)));
    }
}

#[test]
fn the_pipeline_checks_in_order() {
    let mut rules = Rules::new(&small(), true);
    rules
        .place_cells(0, &[(1, 1, 1), (2, 1, 1), (3, 1, 1)])
        .unwrap();
    // Wrong count wins over a bad shape, bounds and collisions.
    let e = rules.try_cells(1, &[(0, 0, 0), (9, 9, 9)]).unwrap_err();
    assert_eq!(e.name(), "WrongCount");
    // A bad shape wins over bounds.
    let e = rules
        .try_cells(2, &[(9, 9, 9), (10, 9, 9), (12, 9, 9)])
        .unwrap_err();
    assert_eq!(e.name(), "ShapeMismatch");
    // Bounds win over collision: (1,1,1) is taken, (0,1,1) is outside.
    let e = rules
        .try_cells(2, &[(0, 1, 1), (1, 1, 1), (0, 2, 1)])
        .unwrap_err();
    assert_eq!(e.name(), "OutOfBounds");
    // Collision wins over floating.
    let e = rules
        .try_cells(2, &[(3, 1, 2), (3, 1, 1), (2, 1, 2)])
        .unwrap_err();
    assert_eq!(e.name(), "Collision");
    // Huge coordinates are refused cleanly.
    let e = rules
        .try_cells(2, &[(i32::MAX, 1, 1), (i32::MIN, 1, 1), (1, 1, 1)])
        .unwrap_err();
    assert_eq!(e.name(), "ShapeMismatch");
    let e = rules.try_at(2, 0, (i32::MAX, i32::MIN, 1)).unwrap_err();
    assert_eq!(e.name(), "OutOfBounds");
    assert_eq!(
        rules.try_at(2, 24, (1, 1, 1)).unwrap_err().name(),
        "BadRotation"
    );
}

#[test]
fn support_needs_a_face_not_an_edge() {
    let mut rules = Rules::new(&small(), true);
    rules.place_cells(3, &[(1, 1, 1), (2, 1, 1)]).unwrap();
    // Edge contact only (with O at (1,1,1)): floating.
    let edge_only = rules
        .try_cells(0, &[(1, 2, 2), (2, 2, 2), (3, 2, 2)])
        .unwrap_err();
    assert_eq!(edge_only.name(), "Floating");
    // With the rule off, the same placement is fine.
    rules.set_support_rule(false);
    assert!(
        rules
            .try_cells(0, &[(1, 2, 2), (2, 2, 2), (3, 2, 2)])
            .is_ok()
    );
}

#[test]
fn a_failed_move_leaves_the_piece_where_it_was_and_undo_redo_cover_all_three() {
    let mut rules = Rules::new(&small(), true);
    rules
        .place_cells(0, &[(1, 1, 1), (2, 1, 1), (3, 1, 1)])
        .unwrap();
    let before = rules.render_text();
    let e = rules
        .move_cells(0, &[(1, 1, 2), (2, 1, 2), (3, 1, 2)])
        .unwrap_err();
    assert_eq!(e.name(), "Floating", "its own cells do not support it");
    assert_eq!(rules.render_text(), before);
    rules.move_at(0, 0, (1, 2, 1)).unwrap();
    let moved = rules.render_text();
    assert_ne!(moved, before);
    rules.pick_up(0).unwrap();
    let empty = rules.render_text();
    assert!(!empty.contains('I'));
    rules.undo().unwrap();
    assert_eq!(rules.render_text(), moved);
    rules.undo().unwrap();
    assert_eq!(rules.render_text(), before);
    rules.undo().unwrap();
    assert_eq!(rules.undo().unwrap_err().name(), "NothingToUndo");
    rules.redo().unwrap();
    rules.redo().unwrap();
    rules.redo().unwrap();
    assert_eq!(rules.render_text(), empty);
    assert_eq!(rules.redo().unwrap_err().name(), "NothingToRedo");
    assert_eq!(rules.place_cells(3, &[]).unwrap_err().name(), "WrongCount");
    assert_eq!(rules.pick_up(1).unwrap_err().name(), "NotPlaced");
}

#[test]
fn filling_the_box_wins() {
    let mut rules = Rules::new(&small(), true);
    rules
        .place_cells(0, &[(1, 1, 1), (2, 1, 1), (3, 1, 1)])
        .unwrap();
    rules
        .place_cells(1, &[(1, 2, 1), (2, 2, 1), (3, 2, 1), (1, 2, 2)])
        .unwrap();
    assert!(!rules.is_won());
    rules
        .place_cells(2, &[(2, 2, 2), (3, 2, 2), (3, 1, 2)])
        .unwrap();
    rules.place_cells(3, &[(1, 1, 2), (2, 1, 2)]).unwrap();
    assert!(rules.is_won());
    common::snapshots().bind(|| insta::assert_snapshot!("won_small_box", rules.render_text()));
}

#[derive(Debug, Clone)]
enum Op {
    Place(usize, u8, (i32, i32, i32)),
    Move(usize, u8, (i32, i32, i32)),
    PlaceCells(usize, Vec<(i32, i32, i32)>),
    PickUp(usize),
    Undo,
    Redo,
}

fn op() -> impl Strategy<Value = Op> {
    let at = (0..5i32, 0..4i32, 0..4i32);
    prop_oneof![
        (0..4usize, 0..24u8, at.clone()).prop_map(|(p, r, a)| Op::Place(p, r, a)),
        (0..4usize, 0..24u8, at.clone()).prop_map(|(p, r, a)| Op::Move(p, r, a)),
        (0..4usize, proptest::collection::vec(at, 1..5)).prop_map(|(p, c)| Op::PlaceCells(p, c)),
        (0..4usize).prop_map(Op::PickUp),
        Just(Op::Undo),
        Just(Op::Redo),
    ]
}

/// The board seen from the pieces: each placed piece's cells.
fn union_of_pieces(rules: &Rules) -> Vec<Option<usize>> {
    let [a, b, c] = rules.size();
    let mut out = vec![None; a * b * c];
    for p in 0..rules.pieces().len() {
        if let Some(pose) = rules.placement(p) {
            for cell in &pose.cells {
                let i = cell[0] as usize + a * (cell[1] as usize + b * cell[2] as usize);
                assert!(out[i].is_none(), "two pieces share a cell");
                out[i] = Some(p);
            }
        }
    }
    out
}

fn board(rules: &Rules) -> Vec<Option<usize>> {
    let [a, b, c] = rules.size();
    let mut out = Vec::new();
    for z in 0..c as i32 {
        for y in 0..b as i32 {
            for x in 0..a as i32 {
                out.push(rules.owner([x, y, z]));
            }
        }
    }
    out
}

proptest! {
    #[test]
    fn the_board_is_the_union_of_the_placed_pieces(ops in proptest::collection::vec(op(), 1..60)) {
        let mut rules = Rules::new(&small(), true);
        for op in ops {
            let before = board(&rules);
            let result = match op {
                Op::Place(p, r, a) => rules.place_at(p, r, a),
                Op::Move(p, r, a) => rules.move_at(p, r, a),
                Op::PlaceCells(p, c) => rules.place_cells(p, &c),
                Op::PickUp(p) => rules.pick_up(p),
                Op::Undo => rules.undo(),
                Op::Redo => rules.redo(),
            };
            if result.is_err() {
                prop_assert_eq!(board(&rules), before, "a refused action changes nothing");
            }
            prop_assert_eq!(board(&rules), union_of_pieces(&rules));
        }
    }
}

#[test]
fn the_other_hand_of_a_chiral_piece_is_reported_as_its_mirror_image() {
    let level = PolycubeLevel {
        version: 1,
        name: "hands".into(),
        size: (2, 2, 2),
        pieces: vec![piece("A", &[(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 1, 2)])],
        assembly: false,
    };
    let rules = Rules::new(&level, false);
    let e = rules
        .match_cells(0, &[(2, 1, 1), (1, 1, 1), (2, 2, 1), (1, 1, 2)])
        .expect_err("the other hand");
    assert_eq!(e.name(), "ShapeMismatch");
    assert_eq!(
        e.explanation(),
        "those cells are the mirror image of piece `A`; no rotation makes it fit that way (it is the other hand)"
    );
    let e = rules
        .match_cells(0, &[(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1)])
        .expect_err("not the piece at all");
    assert_eq!(
        e.explanation(),
        "those cells are not piece `A` in any of its rotations"
    );
}

#[test]
fn counts_in_messages_read_in_the_singular_for_one() {
    let rules = Rules::new(&small(), true);
    let e = rules.try_cells(3, &[(1, 1, 1)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "WrongCount: piece `O` has 2 cells, 1 was given"
    );
}
