//! Headless feeders for feed mode: `random` gives any offered piece;
//! `hate` gives the piece whose best landing (by the AI's own ranking) is
//! the worst, ties going to the first piece in the offer's fixed order.

use rand::Rng;

use super::{Brain, Candidate, Difficulty, Position};
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
    // One piece ahead is what the AI is judged on here; its own lookahead
    // would make the feeder as slow as the AI times seven.
    let one_ply = Difficulty {
        lookahead: 0,
        noise: 0.0,
        ..against.clone()
    };
    let mut worst: Option<(PieceKind, HateKey)> = None;
    for &kind in offer {
        let trial = Position {
            piece: kind,
            ..position.clone()
        };
        let choice = brain.choose_top(&trial, &one_ply, 0, 2);
        let key = HateKey::of(choice.best());
        if worst.as_ref().is_none_or(|(_, w)| key > *w) {
            worst = Some((kind, key));
        }
    }
    worst.map(|(kind, _)| kind)
}

/// How bad the AI's landing leaves the board, as the hate feeder judges
/// it: larger is worse for the AI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct HateKey {
    no_landing: bool,
    game_over: bool,
    max_height: u32,
    holes: u32,
}

impl HateKey {
    fn of(best: Option<&Candidate>) -> Self {
        match best {
            None => Self {
                no_landing: true,
                game_over: true,
                max_height: u32::MAX,
                holes: u32::MAX,
            },
            Some(c) => Self {
                no_landing: false,
                game_over: c.metrics.game_over,
                max_height: c.metrics.max_height,
                holes: c.metrics.holes,
            },
        }
    }
}
