//! Headless feeders for feed mode: `random` gives any offered piece;
//! `hate` gives the piece whose best landing (by the AI's own ranking) is
//! the worst, ties going to the first piece in the offer's fixed order.

use rand::Rng;

use super::{Brain, Candidate, Difficulty, Position, compare};
use crate::piece::PieceKind;

/// How a headless feeder picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feeder {
    /// Uniformly among the offer.
    Random,
    /// The piece that leaves the AI its worst best move.
    Hate,
}

impl Feeder {
    /// Every feeder, by name.
    pub const ALL: [Feeder; 2] = [Feeder::Random, Feeder::Hate];

    /// The name seats and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            Feeder::Random => "random",
            Feeder::Hate => "hate",
        }
    }

    /// The feeder a name stands for.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }
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
    match feeder {
        Feeder::Random => {
            if offer.is_empty() {
                None
            } else {
                Some(offer[rng.random_range(0..offer.len())])
            }
        }
        Feeder::Hate => hate(brain, position, offer, against),
    }
}

/// The offered piece whose best landing is worst for the AI; a piece that
/// cannot spawn at all is the worst of all.
fn hate(
    brain: &mut Brain,
    position: &Position,
    offer: &[PieceKind],
    against: &Difficulty,
) -> Option<PieceKind> {
    // One piece ahead is what the AI is judged on here; its own lookahead
    // would make the feeder as slow as the AI times seven.
    let one_ply = Difficulty {
        lookahead: 0,
        noise: 0.0,
        ..against.clone()
    };
    let mut worst: Option<(PieceKind, Option<Candidate>)> = None;
    for &kind in offer {
        let trial = Position {
            piece: kind,
            ..position.clone()
        };
        let best = brain
            .choose_top(&trial, &one_ply, 0, 2)
            .candidates
            .into_iter()
            .next();
        let worse = match (&worst, &best) {
            (None, _) => true,
            (Some((_, None)), _) => false,
            (Some((_, Some(_))), None) => true,
            (Some((_, Some(current))), Some(candidate)) => {
                compare(candidate, current, &one_ply) == std::cmp::Ordering::Greater
            }
        };
        if worse {
            worst = Some((kind, best));
        }
    }
    worst.map(|(kind, _)| kind)
}
