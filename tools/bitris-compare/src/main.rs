use std::hint::black_box;
use std::str::FromStr;
use std::time::{Duration, Instant};

use bitris::prelude::*;
use tessera_tetris::board::{Board, spawn_position};
use tessera_tetris::movegen::MoveGen;
use tessera_tetris::piece::{PieceKind, RotationSystem};
use tessera_tetris::scenarios;

fn shape(kind: PieceKind) -> Shape {
    match kind.letter() {
        'T' => Shape::T,
        'I' => Shape::I,
        'O' => Shape::O,
        'L' => Shape::L,
        'J' => Shape::J,
        'S' => Shape::S,
        'Z' => Shape::Z,
        other => panic!("{other}"),
    }
}

/// The same 10-wide board for bitris (its text form lists the top row first).
fn bitris_board(board: &Board) -> Board64 {
    let mut text = String::new();
    for y in 0..board.height() {
        let row = board.row(y);
        for x in 0..10 {
            text.push(if row >> x & 1 == 1 { '#' } else { '.' });
        }
    }
    Board64::from_str(&text).expect("a 10-wide board")
}

/// Tessera's spawn (box at the top, centred) in bitris's coordinates: the
/// rotation centre at column 4, row 20 of a 22-row board counted from the
/// bottom.
fn bitris_spawn(kind: PieceKind) -> BlPlacement {
    CcPlacement::new(Piece::new(shape(kind), Orientation::North), cc(4, 20)).into()
}

fn main() {
    let positions = scenarios::mid_game(1000, 1);
    let boards: Vec<(Board64, BlPlacement)> = positions
        .iter()
        .map(|p| (bitris_board(&p.board), bitris_spawn(p.piece)))
        .collect();
    let mut generator = MoveGen::new();
    // The landing sets must have the same size.
    let mut differ = 0;
    for (p, (board, spawn)) in positions.iter().zip(&boards) {
        let ours = generator
            .generate(
                &p.board,
                p.piece,
                RotationSystem::Srs,
                spawn_position(p.piece, 10),
            )
            .len();
        let theirs = srs::generate_minimized_moves(AllowMove::Softdrop, *board, *spawn).len();
        if ours != theirs {
            differ += 1;
        }
    }
    println!(
        "positions {} landing counts differ on {differ}",
        positions.len()
    );
    // `sets N SEED`: the landing cell sets must be equal, position by position.
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("sets") {
        let count: usize = args[2].parse().expect("count");
        let seed: u64 = args[3].parse().expect("seed");
        let mut differ = 0;
        let mut cases = 0;
        for p in scenarios::mid_game(count, seed) {
            for kind in PieceKind::ALL {
                let h = p.board.height() as i32;
                let mut ours: Vec<Vec<(i32, i32)>> = generator
                    .generate(
                        &p.board,
                        kind,
                        RotationSystem::Srs,
                        spawn_position(kind, 10),
                    )
                    .iter()
                    .map(|pl| {
                        let mut c: Vec<(i32, i32)> =
                            pl.cells().map(|(x, y)| (x, h - 1 - y)).collect();
                        c.sort();
                        c
                    })
                    .collect();
                let (board, spawn) = (bitris_board(&p.board), bitris_spawn(kind));
                let mut theirs: Vec<Vec<(i32, i32)>> =
                    srs::generate_minimized_moves(AllowMove::Softdrop, board, spawn)
                        .iter()
                        .map(|pl| {
                            let mut c: Vec<(i32, i32)> =
                                pl.locations().iter().map(|l| (l.x, l.y)).collect();
                            c.sort();
                            c
                        })
                        .collect();
                ours.sort();
                theirs.sort();
                cases += 1;
                if ours != theirs {
                    differ += 1;
                }
            }
        }
        println!("sets: {cases} cases, {differ} differ");
        return;
    }
    // `cycles MODE N`: only N passes of one side, for `perf stat -e
    // task-clock` (CPU time of this process: not shared with other load).
    if args.get(1).map(String::as_str) == Some("cycles") {
        let passes: usize = args[3].parse().expect("passes");
        let mut total = 0usize;
        for _ in 0..passes {
            match args[2].as_str() {
                "ours" => {
                    for p in &positions {
                        total += generator
                            .generate(
                                &p.board,
                                p.piece,
                                RotationSystem::Srs,
                                spawn_position(p.piece, 10),
                            )
                            .len();
                    }
                }
                "bitris" => {
                    for (board, spawn) in &boards {
                        total += srs::generate_minimized_moves(AllowMove::Softdrop, *board, *spawn)
                            .len();
                    }
                }
                _ => {}
            }
        }
        println!("{total}");
        return;
    }
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(15);
    let mut ours_t = Vec::new();
    let mut theirs_t = Vec::new();
    for _ in 0..rounds {
        // Interleaved, so load hits both alike; each batch about 0.1 s+.
        let start = Instant::now();
        let mut total = 0usize;
        for _ in 0..20 {
            for p in &positions {
                total += generator
                    .generate(
                        &p.board,
                        p.piece,
                        RotationSystem::Srs,
                        spawn_position(p.piece, 10),
                    )
                    .len();
            }
        }
        black_box(total);
        ours_t.push(start.elapsed() / 20_000);
        let start = Instant::now();
        let mut total = 0usize;
        for _ in 0..20 {
            for (board, spawn) in &boards {
                total += srs::generate_minimized_moves(AllowMove::Softdrop, *board, *spawn).len();
            }
        }
        black_box(total);
        theirs_t.push(start.elapsed() / 20_000);
    }
    ours_t.sort();
    theirs_t.sort();
    let show = |v: &[Duration]| format!("min {:?} median {:?}", v[0], v[v.len() / 2]);
    println!("tessera per piece: {}", show(&ours_t));
    println!("bitris  per piece: {}", show(&theirs_t));
    println!(
        "ratio tessera/bitris: min {:.2} median {:.2}",
        ours_t[0].as_secs_f64() / theirs_t[0].as_secs_f64(),
        ours_t[rounds / 2].as_secs_f64() / theirs_t[rounds / 2].as_secs_f64()
    );
}
