//! The large box's cuts: how many places a piece fits, stretched cuts,
//! and loose cuts (neighbouring pieces that fill their cells a second way).

use tessera_host::ThinkControl;
use tessera_host::level::parse_level;
use tessera_host::rng::game_rng;
use tessera_polycube::PolycubeLevel;
use tessera_polycube::generate::GENERATOR;
use tessera_polycube::generate::cut::{loose, placements, score, stretched};
use tessera_polycube::generate::design::{Design, random_sizes};
use tessera_polycube::solver::{Solver, Verdict};

const BOX: [usize; 3] = [4, 4, 4];

#[test]
fn a_piece_fits_as_many_places_as_its_turns_and_positions_allow() {
    assert_eq!(placements(BOX, &[[0, 0, 0]]), 64);
    // Three turns, each in 4 x 4 rows.
    let line: Vec<_> = (0..4).map(|x| [x, 0, 0]).collect();
    assert_eq!(placements(BOX, &line), 48);
    let cube: Vec<_> = (0..8).map(|i| [i & 1, (i >> 1) & 1, i >> 2]).collect();
    assert_eq!(placements(BOX, &cube), 27);
    // Twelve turns of the L tromino, each in a 2 x 2 x 1 box: 3 x 3 x 4.
    assert_eq!(placements(BOX, &[[0, 0, 0], [1, 0, 0], [0, 1, 0]]), 12 * 36);
    // Too long for the box: nowhere.
    let long: Vec<_> = (0..5).map(|x| [x, 0, 0]).collect();
    assert_eq!(placements(BOX, &long), 0);
}

#[test]
fn a_stretched_cut_fills_the_box_with_the_sizes_asked_and_fits_fewer_places() {
    let mut rng = game_rng(3);
    let (mut long, mut plain) = (Vec::new(), Vec::new());
    for _ in 0..20_000 {
        if long.len() == 60 && plain.len() == 60 {
            break;
        }
        let sizes = random_sizes(64, 13, (3, 8), &mut rng).expect("sizes");
        if long.len() < 60
            && let Some(cut) = stretched(BOX, &sizes, 1.0, &mut rng)
        {
            for (p, &size) in sizes.iter().enumerate() {
                let cells = cut.cells_of(p);
                assert_eq!(cells.len(), size);
                assert!(tessera_polycube::geometry::is_connected(&cells));
            }
            long.push(score(&cut));
        }
        if plain.len() < 60
            && let Some(cut) = Design::random(BOX, &sizes, &mut rng)
        {
            plain.push(score(&cut));
        }
    }
    assert_eq!((long.len(), plain.len()), (60, 60));
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    assert!(
        mean(&long) < mean(&plain),
        "stretched {} against plain {}",
        mean(&long),
        mean(&plain)
    );
    let again = |seed| {
        let mut rng = game_rng(seed);
        (0..50).find_map(|_| stretched(BOX, &[8; 8], 1.0, &mut rng))
    };
    assert_eq!(again(9), again(9));
}

fn design(size: [usize; 3], owner: &[usize]) -> Design {
    Design {
        size,
        owner: owner.to_vec(),
        pieces: owner.iter().max().map_or(0, |m| m + 1),
    }
}

#[test]
fn neighbours_that_fill_their_cells_a_second_way_make_a_cut_loose() {
    // Two dominoes side by side also lie side by side the other way.
    assert!(loose(&design([2, 2, 1], &[0, 0, 1, 1])));
    // A domino and a cube in a row: the cube at either end.
    assert!(loose(&design([3, 1, 1], &[0, 0, 1])));
    // Three single cubes: swapping two is the same packing.
    assert!(!loose(&design([3, 1, 1], &[0, 1, 2])));
    // An L tromino and a cube in a 2 x 2 square: the cube at any corner.
    assert!(loose(&design([2, 2, 1], &[0, 0, 0, 1])));
}

#[test]
fn a_unique_design_is_never_loose() {
    let matches = clap::Command::new("polycube")
        .args(GENERATOR.arguments())
        .try_get_matches_from(["polycube", "--box", "3x3x3", "--pieces", "6", "--unique"])
        .expect("the spec parses");
    for seed in 1..=3 {
        let made = GENERATOR
            .generate(&matches, seed, &ThinkControl::new())
            .expect("a level");
        let level: PolycubeLevel =
            parse_level(&made.text, std::path::Path::new("g.ron")).expect("a level");
        let solver = Solver::new(level.extents(), &level.shapes()).expect("solver");
        let Verdict::Unique(packing) = solver
            .verdict(&std::sync::atomic::AtomicBool::new(false))
            .expect("verdict")
        else {
            panic!("seed {seed}: not unique")
        };
        let design = Design::from_solution(level.extents(), &packing).expect("fills");
        assert!(!loose(&design), "seed {seed}");
    }
}
