//! Headless feeders for feed mode, from careless to merciless:
//! - `random` gives any offered piece;
//! - `hate` gives the piece whose best landing (by the AI's own ranking)
//!   is the worst, ties going to the first piece in the offer's order;
//! - `hate:P` plays `hate` with probability P and `random` otherwise: a
//!   player of middling skill (`hate:0.5`) for balancing the campaign;
//! - `hatetris` is the published HATETRIS rule, independent of the AI: for
//!   each of the seven, its best landing is the one with the lowest
//!   resulting highest block; it gives the piece whose best is worst, ties
//!   in the order S Z O I L J T (specials are never given).

use rand::Rng;

use super::{Brain, Difficulty, Position};
use crate::ai::metrics::BeforeMove;
use tessera_tetris::board::Board;
use tessera_tetris::movegen::{MoveGen, Placement};
use tessera_tetris::piece::PieceKind;

/// How a headless feeder picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feeder {
    /// Uniformly among the offer.
    Random,
    /// The piece that leaves the AI its worst best move, with this chance
    /// in millionths (1,000,000 = `hate`), else a random piece.
    Hate {
        /// The chance of the hate choice, in millionths.
        per_million: u32,
    },
    /// The HATETRIS rule (AI-independent, the seven only).
    Hatetris,
}

/// HATETRIS's tie order.
pub const HATETRIS_ORDER: [PieceKind; 7] = [
    PieceKind::S,
    PieceKind::Z,
    PieceKind::O,
    PieceKind::I,
    PieceKind::L,
    PieceKind::J,
    PieceKind::T,
];

impl Feeder {
    /// The always-hostile feeder.
    pub const HATE: Feeder = Feeder::Hate {
        per_million: 1_000_000,
    };

    /// The feeders seats may name (`hate:P` takes any P; these are the
    /// strengths menus list).
    pub fn listed() -> Vec<Feeder> {
        vec![
            Feeder::Random,
            Feeder::Hate {
                per_million: 250_000,
            },
            Feeder::Hate {
                per_million: 500_000,
            },
            Feeder::Hate {
                per_million: 750_000,
            },
            Feeder::HATE,
            Feeder::Hatetris,
        ]
    }

    /// The name seats and the command line use (`random`, `hate:0.5`,
    /// `hate`, `hatetris`).
    pub fn name(self) -> String {
        match self {
            Feeder::Random => "random".into(),
            Feeder::Hate {
                per_million: 1_000_000,
            } => "hate".into(),
            Feeder::Hate { per_million } => {
                let p = f64::from(per_million) / 1e6;
                format!("hate:{p}")
            }
            Feeder::Hatetris => "hatetris".into(),
        }
    }

    /// The feeder a name stands for (`hate:P` with 0 <= P <= 1).
    pub fn from_name(name: &str) -> Option<Self> {
        let name = name.trim().to_ascii_lowercase();
        match name.as_str() {
            "random" => return Some(Feeder::Random),
            "hate" => return Some(Feeder::HATE),
            "hatetris" => return Some(Feeder::Hatetris),
            _ => {}
        }
        let p: f64 = name.strip_prefix("hate:")?.parse().ok()?;
        if !(0.0..=1.0).contains(&p) {
            return None;
        }
        Some(Feeder::Hate {
            per_million: (p * 1e6).round() as u32,
        })
    }

    /// What the names look like, for messages.
    pub const NAMES: &'static str = "`random`, `hate`, `hate:P` (0 <= P <= 1) or `hatetris`";
}

/// The piece `feeder` gives from `offer` for `position` (its `piece` is
/// ignored), against an AI playing `against`.
pub fn pick(
    feeder: Feeder,
    brain: &mut Brain,
    position: &Position,
    offer: &[PieceKind],
    against: &Difficulty,
    rng: &mut impl Rng,
) -> Option<PieceKind> {
    if offer.is_empty() {
        return None;
    }
    match feeder {
        Feeder::Random => Some(offer[rng.random_range(0..offer.len())]),
        Feeder::Hate { per_million } => {
            // One draw per turn whatever the outcome, so the stream does
            // not depend on the board.
            let roll = rng.random_range(0..1_000_000u32);
            let other = offer[rng.random_range(0..offer.len())];
            if roll < per_million {
                hate(brain, position, offer, against)
            } else {
                Some(other)
            }
        }
        Feeder::Hatetris => hatetris(brain, position, offer),
    }
}

/// The offered piece whose best landing is worst for the AI; a piece that
/// cannot spawn at all is the worst of all.
///
/// The AI picks its landing for each piece by its own ranking; the
/// feeder judges those landings with one yardstick for every difficulty
/// (HATETRIS's: the higher the stack after the move, the worse, then more
/// holes), so the difficulties are measured against the same adversary.
fn hate(
    brain: &mut Brain,
    position: &Position,
    offer: &[PieceKind],
    against: &Difficulty,
) -> Option<PieceKind> {
    let one_ply = one_ply(against);
    // The reader's rule ([`super::reader::Reader`]), on the brain's
    // buffers.
    brain.reader.choose(
        &mut brain.movegen,
        position,
        &one_ply,
        &position.board,
        offer,
    )
}

/// `difficulty` as the `hate` feeder reads it: its one-piece ranking,
/// without noise, lookahead or the guards that look ahead. One piece
/// ahead is what the AI is judged on; its own lookahead would make the
/// feeder as slow as the AI times seven. Where an order ranks by the
/// lookahead's value (this move's score plus what comes after), the
/// one-piece ranking takes this move's score in its place: the value
/// with nothing after it.
pub(crate) fn one_ply(difficulty: &Difficulty) -> Difficulty {
    use super::Metric;
    let mut order = Vec::with_capacity(difficulty.order.len());
    for &m in &difficulty.order {
        let m = match m {
            Metric::NextTopOut | Metric::LinePlies => continue,
            Metric::Lookahead => Metric::Score,
            other => other,
        };
        if !order.contains(&m) {
            order.push(m);
        }
    }
    Difficulty {
        lookahead: 0,
        noise: 0.0,
        order,
        ..difficulty.clone()
    }
}

/// HATETRIS: among the seven (whatever else is on offer), the piece whose
/// lowest reachable "highest block" is highest; ties in S Z O I L J T
/// order. A piece with no landing at all is the worst.
fn hatetris(brain: &mut Brain, position: &Position, offer: &[PieceKind]) -> Option<PieceKind> {
    hatetris_piece(&mut brain.movegen, position, &position.board, offer)
}

/// The HATETRIS rule's piece for `board` among the tetrominoes of
/// `pieces` (spawn row, rotation and danger rows from `position`): what the
/// `hatetris` feeder gives, and what the `height` adversary of the
/// lookahead expects.
pub(crate) fn hatetris_piece(
    movegen: &mut MoveGen,
    position: &Position,
    board: &Board,
    pieces: &[PieceKind],
) -> Option<PieceKind> {
    // Measured in full only for the moves that clear a row (prepared on
    // the first of them): the others add to the stack, not take from it.
    let mut before: Option<BeforeMove> = None;
    let top = stack_height(board);
    let mut worst: Option<(PieceKind, u32)> = None;
    for kind in HATETRIS_ORDER {
        if !pieces.contains(&kind) {
            continue;
        }
        let spawn = position.spawn(kind);
        let mut best = u32::MAX;
        for p in movegen.generate(board, kind, position.rotation, spawn) {
            let height = height_after(board, top, p).unwrap_or_else(|| {
                before
                    .get_or_insert_with(|| BeforeMove::new(board))
                    .metrics(p, position.danger_rows)
                    .max_height
            });
            best = best.min(height);
            // Only a piece whose best is strictly higher replaces the
            // worst so far: this one no longer can.
            if worst.is_some_and(|(_, w)| best <= w) {
                break;
            }
        }
        // Strictly higher replaces: ties keep the earlier piece.
        if worst.is_none_or(|(_, w)| best > w) {
            worst = Some((kind, best));
        }
    }
    worst.map(|(kind, _)| kind)
}

/// The highest block of `board`, in rows from the floor (the metrics'
/// `max_height`).
fn stack_height(board: &Board) -> u32 {
    (board.height() - tessera_tetris::movegen::first_filled_row(board)) as u32
}

/// The highest block once `p` locks on `board` (whose own is `top`), the
/// metrics' `max_height`, when the move clears no row and lies inside the
/// board; `None` otherwise (the caller measures it in full).
fn height_after(board: &Board, top: u32, p: &Placement) -> Option<u32> {
    let o = tessera_tetris::piece::orientation(p.kind, p.state);
    let (left, upper) = (p.x + i32::from(o.left), p.y + i32::from(o.top));
    let inside = left >= 0
        && upper >= 0
        && left + i32::from(o.width) <= board.width() as i32
        && upper + i32::from(o.height) <= board.height() as i32;
    if !inside {
        return None;
    }
    let full = board.full_row();
    let clears = o.rows[..o.height as usize]
        .iter()
        .enumerate()
        .any(|(i, &row)| board.row(upper as usize + i) | row << left == full);
    (!clears).then(|| top.max(board.height() as u32 - upper as u32))
}
