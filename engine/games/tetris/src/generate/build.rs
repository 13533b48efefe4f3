//! A candidate puzzle, built backwards: a band of full rows at the bottom
//! (the rows to clear), a sparse roof of overhangs above it and a few rows
//! with one hole below it; then, from the last piece to the first, each
//! piece's landing is carved out of what is left of the band. A landing is
//! carved only where the move generator reaches it on the board as it will
//! be when that piece comes (the band without the cells of this piece and
//! of every later one), so the pieces, played in order, can fill the band
//! again. With `--tspin` the last T is carved only where it lands by a
//! T-spin. The census ([`super::census`]) then proves what the candidate
//! is; this builder only makes likely ones.

use rand::Rng;
use rand::seq::IndexedRandom;

use tessera_host::rng::GameRng;

use super::spin::is_t_spin;
use crate::board::{Board, spawn_position};
use crate::movegen::{MoveGen, Placement};
use crate::piece::{PieceKind, RotationSystem, orientation};

/// Visible rows of a generated level.
pub const ROWS: usize = 10;
/// Hidden rows above them (the spawn has room to turn).
pub const HIDDEN_ROWS: usize = 2;
/// Most rows of garbage (band, roof and floor), so the spawn stays clear.
const MAX_GARBAGE_ROWS: usize = 8;
/// The rotation system generated levels ask for: SRS, whose kicks make
/// T-spins.
pub const ROTATION: RotationSystem = RotationSystem::Srs;

/// What a designer asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// Lines to clear (the band's rows).
    pub lines: usize,
    /// Pieces in the sequence.
    pub pieces: usize,
    /// Board width.
    pub columns: usize,
    /// Every win must need a T-spin.
    pub tspin: bool,
    /// Every win must end on one board.
    pub unique: bool,
}

/// A built candidate: the garbage and the sequence.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The starting board (garbage only).
    pub board: Board,
    /// The fixed sequence.
    pub pieces: Vec<PieceKind>,
}

/// Builds one candidate from `rng`, or `None` when the carving got stuck
/// (no piece fits what is left, a band row kept no hole, no T-spin slot).
pub fn candidate(spec: &Spec, rng: &mut GameRng) -> Option<Candidate> {
    let width = spec.columns;
    let height = ROWS + HIDDEN_ROWS;
    let floor = rng.random_range(0..=2.min(MAX_GARBAGE_ROWS - spec.lines));
    let roof = 2.min(MAX_GARBAGE_ROWS - spec.lines - floor);
    let band_bottom = height - floor;
    let band_top = band_bottom - spec.lines;
    let mut board = Board::new(width, height);
    for y in band_bottom..height {
        let hole = rng.random_range(0..width);
        (0..width)
            .filter(|&x| x != hole)
            .for_each(|x| board.set(x, y, true));
    }
    for y in band_top..band_bottom {
        (0..width).for_each(|x| board.set(x, y, true));
    }
    add_roof(&mut board, band_top, roof, rng);

    let mut pieces: Vec<PieceKind> = (0..spec.pieces)
        .map(|_| *PieceKind::ALL.choose(rng).unwrap_or(&PieceKind::T))
        .collect();
    if spec.tspin && !pieces.contains(&PieceKind::T) {
        let at = rng.random_range(0..pieces.len());
        pieces[at] = PieceKind::T;
    }
    let band = band_top..band_bottom;
    let mut movegen = MoveGen::new();
    let mut spin_carved = !spec.tspin;
    for &kind in pieces.iter().rev() {
        let want_spin = !spin_carved && kind == PieceKind::T;
        let choices = carvings(&board, kind, &band, want_spin, &mut movegen);
        let landing = choices.choose(rng)?;
        for (x, y) in landing.cells() {
            board.set(x as usize, y as usize, false);
        }
        spin_carved |= want_spin;
    }
    // A band row the pieces never touch would be full from the start.
    let every_row_open = band.clone().all(|y| board.row(y) != board.full_row());
    (spin_carved && every_row_open).then_some(Candidate { board, pieces })
}

/// Overhangs above the band: a few cells in the row over it, and a few on
/// top of those in the row above, never half a row.
fn add_roof(board: &mut Board, band_top: usize, rows: usize, rng: &mut GameRng) {
    let width = board.width();
    for level in 1..=rows {
        let y = band_top - level;
        let mut placed = 0;
        for x in 0..width {
            let supported = level == 1 || board.filled(x as i32, y as i32 + 1);
            if supported && placed < width / 3 && rng.random_bool(0.3) {
                board.set(x, y, true);
                placed += 1;
            }
        }
    }
}

/// Every landing of `kind` whose cells are all still-filled cells of the
/// band and that the move generator reaches once they are emptied (a
/// T-spin when `spin`).
fn carvings(
    board: &Board,
    kind: PieceKind,
    band: &std::ops::Range<usize>,
    spin: bool,
    movegen: &mut MoveGen,
) -> Vec<Placement> {
    let spawn = spawn_position(kind, board.width());
    let mut found = Vec::new();
    let box_size = kind.box_size();
    for state in 0..ROTATION.states(kind) {
        if orientation(kind, state).canonical != state {
            continue;
        }
        for y in band.start as i32 - box_size..band.end as i32 {
            for x in -box_size..board.width() as i32 {
                let landing = Placement { kind, state, x, y };
                let inside = landing.cells().all(|(cx, cy)| {
                    cy >= 0
                        && band.contains(&(cy as usize))
                        && (0..board.width() as i32).contains(&cx)
                        && board.filled(cx, cy)
                });
                if !inside {
                    continue;
                }
                let mut carved = *board;
                for (cx, cy) in landing.cells() {
                    carved.set(cx as usize, cy as usize, false);
                }
                let reached = movegen
                    .generate(&carved, kind, ROTATION, spawn)
                    .contains(&landing);
                if reached && (!spin || is_t_spin(&carved, ROTATION, spawn, &landing)) {
                    found.push(landing);
                }
            }
        }
    }
    found
}
