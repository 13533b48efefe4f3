//! The reader of the AI: the piece a player who reads a difficulty's
//! one-piece ranking gives (the `hate` feeder, and the `own` adversary the
//! expected-line search predicts), found with every landing of every
//! offered piece scored once on a board prepared once
//! ([`PreparedBoard::score_each`]); only the landings a ranking cannot
//! tell apart by score (and top-out) are measured in full. The expected
//! piece's landings and their scores are kept, so the line search takes
//! its children from them instead of weighing that piece again; and
//! [`NodeMemo`] keeps what a board expanded to for the next decision,
//! whose search meets most of the boards again one ply shallower.

use std::collections::HashMap;

use super::best_landing::PreparedBoard;
use super::metrics::{BeforeMove, Metric};
use super::{Candidate, Difficulty, Position};
use tessera_tetris::board::Board;
use tessera_tetris::movegen::{MoveGen, Placement, Surface};
use tessera_tetris::piece::{PieceKind, RotationSystem};

/// The reader's working memory, reused from board to board.
#[derive(Default)]
pub(crate) struct Reader {
    /// One piece's landing scores (and top-outs), in the generator's order.
    scores: Vec<(f64, bool)>,
    /// The landings tied for best on what the scores tell.
    tied: Vec<usize>,
    /// The expected piece's landings, in the move generator's order.
    landings: Vec<Placement>,
    /// Their scores and whether each tops out.
    scored: Vec<(f64, bool)>,
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

impl Reader {
    /// The piece of `pieces` whose best landing on `board` by `one_ply`'s
    /// ranking leaves the highest stack (then the most holes; a piece with
    /// no landing is the worst; ties go to the first in `pieces`). Its
    /// landings and their scores stay in [`Reader::expected`].
    pub(crate) fn choose(
        &mut self,
        movegen: &mut MoveGen,
        position: &Position,
        one_ply: &Difficulty,
        board: &Board,
        pieces: &[PieceKind],
    ) -> Option<PieceKind> {
        let before = BeforeMove::new(board);
        let prepared = PreparedBoard::new(
            &before,
            &one_ply.weights,
            position.board.height(),
            position.danger_rows,
        );
        // What the scores decide: the order's leading criteria among
        // top-out and score (an order without criteria ranks by score).
        let leading = one_ply
            .order
            .iter()
            .take_while(|m| matches!(m, Metric::GameOverAfterMove | Metric::Score))
            .count();
        let by_scores: &[Metric] = if one_ply.order.is_empty() {
            &[Metric::Score]
        } else {
            &one_ply.order[..leading]
        };
        let measured_ties = leading < one_ply.order.len();
        self.landings.clear();
        self.scored.clear();
        let surface = Surface::of(board);
        let mut worst: Option<(PieceKind, HateKey)> = None;
        // Whether the kept landings came in another order than the search's.
        let mut kept_unordered = false;
        for &kind in pieces {
            let spawn = position.spawn(kind);
            let (landings, ordered) =
                movegen.landings_any_order(board, &surface, kind, position.rotation, spawn);
            prepared.score_each(landings, &mut self.scores);
            let key = match self.best(
                landings,
                by_scores,
                measured_ties,
                position,
                one_ply,
                &before,
            ) {
                None => HateKey {
                    no_landing: true,
                    game_over: true,
                    max_height: u32::MAX,
                    holes: u32::MAX,
                },
                Some(best) => {
                    let metrics = position.measure(&before, &landings[best]);
                    HateKey {
                        no_landing: false,
                        game_over: metrics.game_over,
                        max_height: metrics.max_height,
                        holes: metrics.holes,
                    }
                }
            };
            if worst.as_ref().is_none_or(|(_, w)| key > *w) {
                worst = Some((kind, key));
                self.landings.clear();
                self.landings.extend_from_slice(landings);
                std::mem::swap(&mut self.scored, &mut self.scores);
                kept_unordered = !ordered;
            }
        }
        if let (Some((kind, _)), true) = (worst, kept_unordered) {
            // The line search takes the children in the search's order
            // (its ties go to the first): weighed again in that order.
            let landings = movegen.generate(board, kind, position.rotation, position.spawn(kind));
            self.landings.clear();
            self.landings.extend_from_slice(landings);
            prepared.score_each(landings, &mut self.scored);
        }
        worst.map(|(kind, _)| kind)
    }

    /// The expected piece's landings (the move generator's order) and
    /// each one's score and top-out, from the last [`Reader::choose`].
    pub(crate) fn expected(&self) -> impl Iterator<Item = (&Placement, &(f64, bool))> + Clone {
        self.landings.iter().zip(&self.scored)
    }

    /// The index of the best of `landings` by `one_ply`'s ranking
    /// ([`super::compare`]), from their scores in `self.scores`: the best
    /// by the criteria `by_scores` reads, and among landings tied on
    /// those, the rest of the order on their full measurements
    /// (`measured_ties`) or else the first place.
    fn best(
        &mut self,
        landings: &[Placement],
        by_scores: &[Metric],
        measured_ties: bool,
        position: &Position,
        one_ply: &Difficulty,
        before: &BeforeMove,
    ) -> Option<usize> {
        let scores = &self.scores;
        // `Less` when landing `i` ranks before `j` on the scores alone.
        let rank = |i: usize, j: usize| {
            let ((si, oi), (sj, oj)) = (scores[i], scores[j]);
            for m in by_scores {
                let o = match m {
                    Metric::GameOverAfterMove => oi.cmp(&oj),
                    _ => sj.total_cmp(&si),
                };
                if o.is_ne() {
                    return o;
                }
            }
            std::cmp::Ordering::Equal
        };
        self.tied.clear();
        for i in 0..landings.len() {
            match self.tied.first().map(|&b| rank(i, b)) {
                Some(std::cmp::Ordering::Greater) => {}
                Some(std::cmp::Ordering::Equal) => self.tied.push(i),
                _ => {
                    self.tied.clear();
                    self.tied.push(i);
                }
            }
        }
        if !measured_ties || self.tied.len() < 2 {
            // The ranking's last word: the place.
            return self.tied.iter().copied().min_by_key(|&i| landings[i]);
        }
        let candidate = |i: usize| {
            let metrics = position.measure(before, &landings[i]);
            Candidate {
                placement: landings[i],
                metrics,
                score: one_ply.weights.score(&metrics),
                ahead: None,
                next_tops_out: None,
                line_plies: None,
            }
        };
        self.tied
            .iter()
            .map(|&i| (i, candidate(i)))
            .min_by(|(_, a), (_, b)| super::compare(a, b, one_ply))
            .map(|(i, _)| i)
    }
}

/// What a board of the line search expanded to: the reader's piece and
/// the landings of it that do not top out, with their scores.
#[derive(Clone, Copy)]
struct Expanded {
    kind: Option<PieceKind>,
    start: u32,
    len: u32,
}

/// A board as a ply of the line search sees it: its rows (by
/// fingerprint) and where the ceiling has come down to then.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct NodeKey {
    fingerprint: u64,
    spawn_row: i32,
    danger_rows: usize,
}

/// One decision's expansions.
#[derive(Default)]
struct Generation {
    nodes: HashMap<NodeKey, Expanded>,
    /// Every expansion's children, one after the other.
    children: Vec<(f64, Placement)>,
}

impl Generation {
    fn clear(&mut self) {
        self.nodes.clear();
        self.children.clear();
    }
}

/// What the memo's expansions depend on besides the board: the ranking,
/// the offer, the rotation system and the board's size. A decision under
/// other ones starts an empty memo.
#[derive(Clone, PartialEq)]
struct MemoFor {
    weights: super::Weights,
    order: Vec<Metric>,
    pieces: Vec<PieceKind>,
    rotation: RotationSystem,
    size: (usize, usize),
}

/// The line search's expansions of this decision and the last one (a
/// transposition table across decisions): a board the last decision
/// expanded is not weighed again. An expansion is a function of its key
/// and [`MemoFor`], so the search's decisions are the same with it.
/// Each generation holds at most [`MEMO_CHILDREN`] children.
#[derive(Default)]
pub(crate) struct NodeMemo {
    current: Generation,
    previous: Generation,
    made_for: Option<MemoFor>,
    /// An expansion the memo had no room for.
    spill: Vec<(f64, Placement)>,
    /// Expansions found in the memo and weighed afresh, this decision.
    pub(crate) hits: u64,
    pub(crate) misses: u64,
}

/// Most children one generation of the memo keeps (24 bytes each, so
/// 8 MiB a generation); expansions past it are weighed but not kept.
pub(crate) const MEMO_CHILDREN: usize = 8 * 1024 * 1024 / 24;

impl NodeMemo {
    /// Starts a decision: the last decision's expansions stay readable, an
    /// older one's go; a decision under another ranking, offer or board
    /// starts empty.
    pub(crate) fn begin(
        &mut self,
        one_ply: &Difficulty,
        position: &Position,
        pieces: &[PieceKind],
    ) {
        let made_for = MemoFor {
            weights: one_ply.weights.clone(),
            order: one_ply.order.clone(),
            pieces: pieces.to_vec(),
            rotation: position.rotation,
            size: (position.board.width(), position.board.height()),
        };
        if self.made_for.as_ref() == Some(&made_for) {
            std::mem::swap(&mut self.current, &mut self.previous);
        } else {
            self.previous.clear();
            self.made_for = Some(made_for);
        }
        self.current.clear();
        self.hits = 0;
        self.misses = 0;
    }

    /// The reader's piece for `board` at `position` (the ply's ceiling),
    /// and its landings that do not top out with their scores, in the
    /// move generator's order: from this decision's or the last one's
    /// memo, else weighed by `reader` and kept.
    pub(crate) fn expand(
        &mut self,
        reader: &mut Reader,
        movegen: &mut MoveGen,
        position: &Position,
        one_ply: &Difficulty,
        (board, fingerprint): (&Board, u64),
        pieces: &[PieceKind],
    ) -> (Option<PieceKind>, &[(f64, Placement)]) {
        let key = NodeKey {
            fingerprint,
            spawn_row: position.spawn_row,
            danger_rows: position.danger_rows,
        };
        let found = if let Some(&e) = self.current.nodes.get(&key) {
            Some(e)
        } else if let Some(&e) = self.previous.nodes.get(&key) {
            let range = e.start as usize..(e.start + e.len) as usize;
            let children = self.previous.children[range].iter().copied();
            keep(&mut self.current, key, e.kind, children)
        } else {
            None
        };
        if let Some(e) = found {
            self.hits += 1;
            let range = e.start as usize..(e.start + e.len) as usize;
            return (e.kind, &self.current.children[range]);
        }
        self.misses += 1;
        let kind = reader.choose(movegen, position, one_ply, board, pieces);
        let children = reader
            .expected()
            .filter(|(_, (_, tops_out))| !tops_out)
            .map(|(p, &(score, _))| (score, *p));
        match keep(&mut self.current, key, kind, children.clone()) {
            Some(e) => {
                let range = e.start as usize..(e.start + e.len) as usize;
                (kind, &self.current.children[range])
            }
            None => {
                // Over the memo's size: handed out once, not kept.
                self.spill.clear();
                self.spill.extend(children);
                (kind, &self.spill)
            }
        }
    }
}

/// Keeps an expansion in `generation`, if it has room.
fn keep(
    generation: &mut Generation,
    key: NodeKey,
    kind: Option<PieceKind>,
    children: impl Iterator<Item = (f64, Placement)>,
) -> Option<Expanded> {
    let start = generation.children.len();
    generation.children.extend(children);
    let len = generation.children.len() - start;
    if generation.children.len() > MEMO_CHILDREN {
        generation.children.truncate(start);
        return None;
    }
    let e = Expanded {
        kind,
        start: start as u32,
        len: len as u32,
    };
    generation.nodes.insert(key, e);
    Some(e)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};

    use super::Reader;
    use crate::ai::metrics::{BeforeMove, Metric};
    use crate::ai::{Candidate, Difficulty, Position, UnknownNext, Weights, compare, feeder};
    use tessera_tetris::board::Board;
    use tessera_tetris::movegen::MoveGen;
    use tessera_tetris::piece::{PieceKind, RotationSystem};

    /// The reader as it was before the prepared board: every landing of
    /// every piece measured in full and ranked with [`compare`]; and the
    /// expected piece's landings with their full scores.
    fn measured(
        position: &Position,
        one_ply: &Difficulty,
        pieces: &[PieceKind],
    ) -> (
        Option<PieceKind>,
        Vec<(tessera_tetris::movegen::Placement, u64, bool)>,
    ) {
        let mut movegen = MoveGen::new();
        let board = &position.board;
        let before = BeforeMove::new(board);
        let mut worst: Option<(PieceKind, (bool, bool, u32, u32))> = None;
        for &kind in pieces {
            let mut best: Option<Candidate> = None;
            for p in movegen.generate(board, kind, position.rotation, position.spawn(kind)) {
                let metrics = position.measure(&before, p);
                let candidate = Candidate {
                    placement: *p,
                    metrics,
                    score: one_ply.weights.score(&metrics),
                    ahead: None,
                    next_tops_out: None,
                    line_plies: None,
                };
                if best
                    .as_ref()
                    .is_none_or(|b| compare(&candidate, b, one_ply).is_lt())
                {
                    best = Some(candidate);
                }
            }
            let key = best.map_or((true, true, u32::MAX, u32::MAX), |c| {
                (
                    false,
                    c.metrics.game_over,
                    c.metrics.max_height,
                    c.metrics.holes,
                )
            });
            if worst.is_none_or(|(_, w)| key > w) {
                worst = Some((kind, key));
            }
        }
        let kind = worst.map(|(kind, _)| kind);
        let landings = kind.map_or_else(Vec::new, |kind| {
            movegen
                .generate(board, kind, position.rotation, position.spawn(kind))
                .iter()
                .map(|p| {
                    let m = position.measure(&before, p);
                    (*p, one_ply.weights.score(&m).to_bits(), m.game_over)
                })
                .collect()
        });
        (kind, landings)
    }

    /// A feed board: random column heights, some cells knocked out (holes
    /// that take the search, or none: the hard drops), rows one cell short.
    fn board(seed: u64, holes: bool) -> Board {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut board = Board::new(10, 22);
        let low = rng.random_range(2..22);
        for x in 0..10 {
            let top = rng.random_range(low..=22);
            for y in top..22 {
                board.set(x, y, !holes || rng.random_range(0..6) != 0);
            }
        }
        board.clear_full_rows();
        board
    }

    /// Weights with few distinct values (so landings tie on score, and
    /// the order's later criteria or the place decide) or MASTER's.
    fn weights(seed: u64) -> Weights {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut w = Weights::default();
        for metric in [
            Metric::Holes,
            Metric::MaxHeight,
            Metric::Bumpiness,
            Metric::LandingHeight,
            Metric::ErodedCells,
            Metric::RowTransitions,
        ] {
            let value = match rng.random_range(0..3) {
                0 => 0.0,
                1 => f64::from(rng.random_range(-2..=2)),
                _ => rng.random_range(-9.0..9.0),
            };
            w.set(metric, value);
        }
        w.set(Metric::GameOverAfterMove, -1e6);
        w
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The reader's piece and the expected piece's landings (in the
        /// search's order, their scores bit for bit, their top-outs) are
        /// the full measurement's, under a weighted ranking and under
        /// orders that score and top-out decide in part or alone, on boards
        /// with and without holes, near the top and far from it.
        #[test]
        fn the_readers_piece_is_the_full_measures(
            seed in 0u64..1_000_000,
            holes in any::<bool>(),
            order in 0usize..4,
            danger_rows in 1usize..4,
            special in any::<bool>(),
        ) {
            let orders = [
                vec![],
                vec![Metric::Score],
                vec![Metric::GameOverAfterMove, Metric::Score, Metric::NetBenefit,
                     Metric::Holes, Metric::AggregateHeight],
                vec![Metric::Holes, Metric::Score],
            ];
            let difficulty = Difficulty {
                weights: weights(seed),
                order: orders[order].clone(),
                ..crate::ai::settings::default_difficulties()[0].clone()
            };
            let one_ply = feeder::one_ply(&difficulty);
            let mut pieces = PieceKind::ALL.to_vec();
            if special {
                pieces.push(PieceKind::SPECIALS[0]);
            }
            let position = Position {
                board: board(seed, holes),
                piece: PieceKind::T,
                next: None,
                rotation: RotationSystem::Srs,
                spawn_row: danger_rows as i32 - 1,
                danger_rows,
                ceiling: Default::default(),
                unknown_next: UnknownNext::Worst(pieces.clone()),
                reader_streak: 0,
            };
            let (kind, landings) = measured(&position, &one_ply, &pieces);
            let mut reader = Reader::default();
            let chosen = reader.choose(
                &mut MoveGen::new(), &position, &one_ply, &position.board, &pieces);
            prop_assert_eq!(chosen, kind);
            let expected: Vec<_> = reader
                .expected()
                .map(|(p, &(score, tops_out))| (*p, score.to_bits(), tops_out))
                .collect();
            prop_assert_eq!(expected, landings);
        }
    }
}
