//! The rotation group and shape signatures.

use std::collections::HashSet;

use tessera_polycube::geometry::{
    Rotation, normalize, orientations, rotations, signature, transform,
};
use tessera_polycube::import::load_any;

use tessera_testkit as common;

#[test]
fn rotations_are_24_distinct_proper_and_closed_under_composition() {
    let all = rotations();
    assert_eq!(all.len(), 24);
    let set: HashSet<Rotation> = all.iter().copied().collect();
    assert_eq!(set.len(), 24, "all distinct");
    assert!(all.iter().all(|r| r.determinant() == 1));
    for a in all {
        // Closure, and every element has an inverse in the set.
        for b in all {
            assert!(set.contains(&a.then(b)), "{a:?} then {b:?}");
        }
        assert!(all.iter().any(|b| a.then(b) == Rotation::IDENTITY));
    }
    // An asymmetric cube arrangement has 24 different images.
    let chiral = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [0, 0, 1]];
    assert_eq!(orientations(&chiral).len(), 24);
}

#[test]
fn every_rotation_of_every_starter_piece_round_trips_through_its_signature() {
    let folder = common::repo_path("levels/polycube");
    let mut pieces = 0;
    for entry in std::fs::read_dir(folder).unwrap() {
        let (level, _) = load_any(&entry.unwrap().path()).unwrap();
        for shape in level.shapes() {
            let sig = signature(&shape);
            let mut seen = HashSet::new();
            for (i, r) in rotations().iter().enumerate() {
                let turned = transform(&shape, r);
                // Normalised, rotated: same signature, same cell count.
                assert_eq!(signature(&turned), sig, "rotation {i}");
                assert_eq!(turned.len(), shape.len());
                assert_eq!(normalize(&turned), turned);
                seen.insert(turned.clone());
                // Translation does not change it either.
                let moved: Vec<_> = turned
                    .iter()
                    .map(|c| [c[0] + 3, c[1] - 2, c[2] + 7])
                    .collect();
                assert_eq!(signature(&moved), sig);
                // The shape is found among the orientations, with a rotation
                // that reproduces it.
                let o = orientations(&shape);
                let found = o.iter().find(|o| o.cells == turned).unwrap();
                assert_eq!(
                    transform(&shape, &rotations()[found.rotation as usize]),
                    turned
                );
            }
            assert_eq!(seen.len(), orientations(&shape).len());
            assert_eq!(24 % seen.len(), 0, "orbit size divides the group order");
            pieces += 1;
        }
    }
    assert!(pieces > 60, "starter pieces checked: {pieces}");
}

#[test]
fn mirror_images_are_different_pieces() {
    let a = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 1]];
    let b = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]];
    assert_ne!(signature(&a), signature(&b));
    let flat_l = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]];
    let flat_j = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]];
    assert_eq!(
        signature(&flat_l),
        signature(&flat_j),
        "flat pieces flip in 3D"
    );
}
