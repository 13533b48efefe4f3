//! The move generator: the issue's landing counts on an empty board, and
//! agreement with a plain breadth-first search on many mid-game boards.

use std::collections::BTreeSet;

use tessera_tetris::board::{Board, spawn_position};
use tessera_tetris::movegen::{MoveGen, Placement, find_path, turn};
use tessera_tetris::piece::{PieceKind, RotationSystem};
use tessera_tetris::scenarios;

/// Every landing by a slow, obviously-correct BFS over (x, y, state).
fn slow_landings(board: &Board, kind: PieceKind, system: RotationSystem) -> BTreeSet<Placement> {
    let spawn = spawn_position(kind, board.width());
    let mut seen = BTreeSet::new();
    let mut out = BTreeSet::new();
    if !board.fits(kind, 0, spawn.0, spawn.1) {
        return out;
    }
    let mut stack = vec![(spawn.0, spawn.1, 0u8)];
    seen.insert((spawn.0, spawn.1, 0u8));
    while let Some((x, y, s)) = stack.pop() {
        if !board.fits(kind, s, x, y + 1) {
            out.insert(
                Placement {
                    kind,
                    state: s,
                    x,
                    y,
                }
                .canonical(),
            );
        }
        let mut next = Vec::new();
        for (dx, dy) in [(-1, 0), (1, 0), (0, 1)] {
            if board.fits(kind, s, x + dx, y + dy) {
                next.push((x + dx, y + dy, s));
            }
        }
        for cw in [true, false] {
            if let Some(t) = turn(board, system, kind, s, x, y, cw) {
                next.push(t);
            }
        }
        for n in next {
            if seen.insert(n) {
                stack.push(n);
            }
        }
    }
    out
}

#[test]
fn empty_board_counts_match_the_issue() {
    let board = Board::new(10, 22);
    let mut generator = MoveGen::new();
    for system in [RotationSystem::Srs, RotationSystem::Cycle] {
        let counts: Vec<(char, usize)> = PieceKind::ALL
            .iter()
            .map(|&k| {
                let spawn = spawn_position(k, 10);
                (
                    k.letter(),
                    generator.generate(&board, k, system, spawn).len(),
                )
            })
            .collect();
        assert_eq!(
            counts,
            vec![
                ('I', 17),
                ('O', 9),
                ('T', 34),
                ('S', 17),
                ('Z', 17),
                ('J', 34),
                ('L', 34)
            ],
            "{system}"
        );
    }
}

#[test]
fn fast_generator_agrees_with_bfs_on_mid_game_boards() {
    let mut generator = MoveGen::new();
    for system in [RotationSystem::Srs, RotationSystem::Cycle] {
        for position in scenarios::mid_game(300, 7) {
            for kind in PieceKind::ALL {
                let spawn = spawn_position(kind, 10);
                let fast: BTreeSet<Placement> = generator
                    .generate(&position.board, kind, system, spawn)
                    .iter()
                    .copied()
                    .collect();
                let slow = slow_landings(&position.board, kind, system);
                assert_eq!(fast, slow, "{system} {kind} on\n{:?}", position.board);
            }
        }
    }
}

#[test]
fn every_landing_has_a_path_that_reaches_it() {
    let positions = scenarios::mid_game(20, 3);
    let mut generator = MoveGen::new();
    for position in positions {
        let kind = position.piece;
        let spawn = spawn_position(kind, 10);
        let landings = generator
            .generate(&position.board, kind, RotationSystem::Srs, spawn)
            .to_vec();
        for landing in landings {
            let path = find_path(&position.board, RotationSystem::Srs, spawn, &landing)
                .unwrap_or_else(|| panic!("no path to {landing:?}"));
            // Replay the path by hand.
            let (mut x, mut y, mut s) = (spawn.0, spawn.1, 0u8);
            for step in path {
                use tessera_tetris::movegen::Move;
                match step {
                    Move::Left => x -= 1,
                    Move::Right => x += 1,
                    Move::Down => y += 1,
                    Move::Cw | Move::Ccw => {
                        let t = turn(
                            &position.board,
                            RotationSystem::Srs,
                            kind,
                            s,
                            x,
                            y,
                            step == Move::Cw,
                        )
                        .expect("turn in path");
                        (x, y, s) = t;
                    }
                }
                assert!(position.board.fits(kind, s, x, y));
            }
            let reached = Placement {
                kind,
                state: s,
                x,
                y,
            }
            .canonical();
            assert_eq!(reached, landing);
        }
    }
}

/// A board of `width` x `height` whose columns stand `heights` tall, and,
/// when `hole` is set, one empty cell under the surface of that column.
fn stacked(width: usize, height: usize, heights: &[usize], hole: Option<usize>) -> Board {
    let mut board = Board::new(width, height);
    for (x, &h) in heights.iter().enumerate() {
        for y in height - h..height {
            board.set(x, y, true);
        }
    }
    if let Some(x) = hole
        && heights[x] >= 2
    {
        board.set(x, height - 1, false);
    }
    board
}

#[test]
fn the_hard_drop_shortcut_lists_what_the_search_lists_in_its_order() {
    use rand::Rng;
    let mut rng = tessera_host::rng::game_rng(20);
    let mut shortcut = MoveGen::new();
    let mut search = MoveGen::searching_only();
    let mut compared = 0;
    for round in 0..400 {
        let (width, height) = board_size(round);
        // Mostly low stacks (the shortcut's boards), some reaching the
        // spawn rows and some with a hole (the search's).
        let tallest = if round % 5 == 0 { height } else { height / 2 };
        let heights: Vec<usize> = (0..width).map(|_| rng.random_range(0..=tallest)).collect();
        let hole = (round % 7 == 0).then(|| rng.random_range(0..width));
        let board = stacked(width, height, &heights, hole);
        for kind in PieceKind::EVERY {
            for system in [RotationSystem::Srs, RotationSystem::Cycle] {
                let spawn = spawn_position(kind, width);
                for spawn in [spawn, (spawn.0, spawn.1 + 1)] {
                    let quick = shortcut.generate(&board, kind, system, spawn).to_vec();
                    let full = search.generate(&board, kind, system, spawn).to_vec();
                    assert_eq!(quick, full, "{system} {kind} at {spawn:?} on\n{board:?}");
                    compared += 1;
                }
            }
        }
        if round < 40 && width == 10 {
            // And both agree with the plain breadth-first search.
            for kind in PieceKind::ALL {
                let spawn = spawn_position(kind, width);
                let quick: BTreeSet<Placement> = shortcut
                    .generate(&board, kind, RotationSystem::Srs, spawn)
                    .iter()
                    .copied()
                    .collect();
                assert_eq!(quick, slow_landings(&board, kind, RotationSystem::Srs));
            }
        }
    }
    assert_eq!(compared, 400 * 15 * 2 * 2);
}

#[test]
fn the_unordered_hard_drops_are_the_searchs_landings_in_another_order() {
    use rand::Rng;
    use tessera_tetris::movegen::Surface;
    let mut rng = tessera_host::rng::game_rng(21);
    let mut shortcut = MoveGen::new();
    let mut search = MoveGen::searching_only();
    let (mut taken, mut declined) = (0, 0);
    for round in 0..400 {
        let (width, height) = board_size(round);
        let tallest = if round % 5 == 0 { height } else { height / 2 };
        let heights: Vec<usize> = (0..width).map(|_| rng.random_range(0..=tallest)).collect();
        let hole = (round % 7 == 0).then(|| rng.random_range(0..width));
        let board = stacked(width, height, &heights, hole);
        let surface = Surface::of(&board);
        for kind in PieceKind::EVERY {
            for system in [RotationSystem::Srs, RotationSystem::Cycle] {
                let spawn = spawn_position(kind, width);
                for spawn in [spawn, (spawn.0, spawn.1 + 1)] {
                    let full = search.generate(&board, kind, system, spawn).to_vec();
                    let Some(unordered) =
                        shortcut.hard_drops_unordered(&surface, kind, system, spawn)
                    else {
                        // A hole, a spawn outside open air or a piece
                        // that does not turn in place: the caller searches.
                        declined += 1;
                        continue;
                    };
                    let mut sorted = unordered.to_vec();
                    sorted.sort_by_key(|p| (p.state, p.y, p.x));
                    assert_eq!(sorted, full, "{system} {kind} at {spawn:?} on\n{board:?}");
                    // Each landing once.
                    let distinct: BTreeSet<Placement> = unordered.iter().copied().collect();
                    assert_eq!(distinct.len(), unordered.len());
                    taken += 1;
                }
            }
        }
    }
    // Most of these boards are hole-free with the spawn in open air.
    assert!(taken > 2 * declined, "taken {taken}, declined {declined}");
    assert_eq!(taken + declined, 400 * 15 * 2 * 2);
}

/// The board size of a property test's `round`: mostly 10-wide play
/// fields, then narrow, wide and 64-column boards.
fn board_size(round: usize) -> (usize, usize) {
    const SIZES: [(usize, usize); 8] = [
        (10, 20),
        (10, 22),
        (10, 20),
        (4, 8),
        (5, 10),
        (7, 12),
        (12, 18),
        (64, 24),
    ];
    SIZES[round % SIZES.len()]
}

/// A board of `width` x `height` whose columns stand `heights` tall, with
/// `holes` random cells knocked out under the surfaces: some sealed (the
/// shortcut's boards, under the cycle system), some beside a lower column
/// (an overhang a piece may slide or turn into: the search's).
fn holed(
    width: usize,
    height: usize,
    heights: &[usize],
    holes: usize,
    rng: &mut impl rand::Rng,
) -> Board {
    let mut board = stacked(width, height, heights, None);
    for _ in 0..holes {
        let x = rng.random_range(0..width);
        if heights[x] >= 2 {
            let depth = rng.random_range(1..heights[x]);
            board.set(x, height - heights[x] + depth, false);
        }
    }
    board
}

/// Whether some empty cell of `board` lies under a filled one.
fn has_hole(board: &Board) -> bool {
    let mut above = 0u64;
    board.rows()[..board.height()].iter().any(|&row| {
        let hole = above & !row != 0;
        above |= row;
        hole
    })
}

#[test]
fn the_hard_drop_shortcut_on_boards_with_sealed_holes_lists_what_the_search_lists() {
    use rand::Rng;
    use tessera_tetris::movegen::Surface;
    let mut rng = tessera_host::rng::game_rng(22);
    let mut shortcut = MoveGen::new();
    let mut search = MoveGen::searching_only();
    let (mut taken, mut compared) = (0, 0);
    for round in 0..600 {
        let (width, height) = board_size(round);
        // Even stacks (holes deep under every neighbour) and ragged ones.
        let base = rng.random_range(0..=height * 2 / 3);
        let spread = [1, 3, height][round % 3];
        let heights: Vec<usize> = (0..width)
            .map(|_| (base + rng.random_range(0..spread)).min(height))
            .collect();
        let mut board = holed(width, height, &heights, rng.random_range(1..6), &mut rng);
        if round % 4 == 3 && base >= 3 {
            // A cavity a piece fits, one to three rows under a roof: SRS
            // kicks drop pieces through such a roof; the cycle system's
            // turns in place cannot.
            let (mut x, mut y) = (
                rng.random_range(0..width),
                height - base + rng.random_range(1..3),
            );
            for _ in 0..rng.random_range(4..8) {
                board.set(x, y.min(height - 1), false);
                match rng.random_range(0..3) {
                    0 => x = (x + 1).min(width - 1),
                    1 => x = x.saturating_sub(1),
                    _ => y += 1,
                }
            }
        }
        let surface = Surface::of(&board);
        for kind in PieceKind::EVERY {
            for system in [RotationSystem::Srs, RotationSystem::Cycle] {
                let spawn = spawn_position(kind, width);
                let full = search.generate(&board, kind, system, spawn).to_vec();
                let quick = shortcut.generate(&board, kind, system, spawn).to_vec();
                assert_eq!(quick, full, "{system} {kind} on\n{board:?}");
                compared += 1;
                if let Some(unordered) =
                    shortcut.hard_drops_unordered(&surface, kind, system, spawn)
                {
                    let mut sorted = unordered.to_vec();
                    sorted.sort_by_key(|p| (p.state, p.y, p.x));
                    assert_eq!(sorted, full, "{system} {kind} unordered on\n{board:?}");
                    if has_hole(&board) {
                        taken += 1;
                    }
                }
                if width == 10 && round < 120 && PieceKind::ALL.contains(&kind) {
                    let quick: BTreeSet<Placement> = quick.iter().copied().collect();
                    assert_eq!(
                        quick,
                        slow_landings(&board, kind, system),
                        "{system} {kind}"
                    );
                }
            }
        }
    }
    assert_eq!(compared, 600 * 15 * 2);
    // The comparison is not empty: the shortcut takes boards with holes.
    assert!(taken > 200, "took {taken} boards with holes");
}
