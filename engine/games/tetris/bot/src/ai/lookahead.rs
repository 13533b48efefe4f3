//! The lookahead (seed 004, section 6): after a candidate move, the best
//! the next pieces can do, `lookahead` plies deep. Which next piece comes
//! is known (the classic preview), an expectation over the randomizer, or,
//! in feed mode where the player chooses, the worst the player may give:
//! minimax over the offer. Each ply is pruned to the one-ply ranking's best
//! `beam` landings, so a decision stays fast; the buffers are the brain's,
//! reused from decision to decision.

use std::sync::atomic::AtomicBool;

use super::best_landing::PreparedBoard;
use super::metrics::{BeforeMove, Metrics};
use super::{Adversary, Brain, Candidate, Difficulty, Position, UnknownNext, cancelled, compare};
use tessera_tetris::board::Board;
use tessera_tetris::movegen::{MoveGen, Placement, Surface};
use tessera_tetris::piece::PieceKind;

/// One ply's working memory.
#[derive(Default)]
pub(super) struct Ply {
    movegen: MoveGen,
    /// The landings of one piece with their scores, for the beam.
    scored: Vec<(f64, Placement, bool)>,
}

impl Brain {
    /// Gives the best `beam` candidates of the one-piece ranking (by score,
    /// or by the order before the lookahead has values) a lookahead value,
    /// their score plus the best the next pieces can do after them, and
    /// the guard: whether a next piece has no landing that survives.
    /// Stops early, its values partial, once `cancel` is set (the caller
    /// then throws them away).
    pub(super) fn look_ahead(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        candidates: &mut [Candidate],
        cancel: &AtomicBool,
    ) {
        let beam = difficulty.beam.max(1).min(candidates.len());
        // The line searches below take every candidate as a root, in this
        // order; the one-ply lookahead reads only the first `beam`.
        let line_search = matches!(
            (difficulty.adversary, position.next, &position.unknown_next),
            (
                Adversary::Height | Adversary::Own,
                None,
                UnknownNext::Worst(_)
            )
        );
        if difficulty.order.is_empty() && !line_search {
            best_first_by_score(candidates, beam);
        } else if difficulty.order.is_empty() {
            super::sort_by_score(candidates);
        } else {
            // No candidate has lookahead values yet, so the order ranks
            // them by its other criteria: the one-ply ranking.
            candidates.sort_unstable_by(|a, b| compare(a, b, difficulty));
        }
        let depth = usize::from(difficulty.lookahead);
        if let (Adversary::Height, None, UnknownNext::Worst(pieces)) =
            (difficulty.adversary, position.next, &position.unknown_next)
        {
            // HATETRIS's piece is predicted exactly: the plan for the whole
            // game, or the kept line search.
            if difficulty.line_lead > 0 {
                self.planner
                    .search(position, difficulty, candidates, cancel);
            } else {
                self.hatetris
                    .search(position, difficulty, pieces, candidates, cancel);
            }
            return;
        }
        if let (Adversary::Height | Adversary::Own, None, UnknownNext::Worst(pieces)) =
            (difficulty.adversary, position.next, &position.unknown_next)
        {
            // Every candidate is a root: the beam prunes the boards of each
            // ply, all lines together.
            let line_depth = match difficulty.line_depth {
                0 => depth,
                plies => usize::from(plies),
            };
            self.line
                .search(position, difficulty, pieces, candidates, line_depth, cancel);
            return;
        }
        while self.plies.len() < depth {
            self.plies.push(Ply::default());
        }
        for candidate in &mut candidates[..beam] {
            if cancelled(cancel) {
                return;
            }
            if candidate.metrics.game_over {
                candidate.ahead = Some(candidate.score);
                candidate.next_tops_out = Some(true);
                continue;
            }
            let mut after = position.board;
            let p = candidate.placement;
            after.place(p.kind, p.state, p.x, p.y);
            after.clear_full_rows();
            let (value, tops_out) = replies(
                &mut self.plies[..depth],
                position,
                difficulty,
                &after,
                position.next,
                cancel,
            );
            // Both moves count: this one's score (its clears, its landing,
            // the board it leaves) plus the best the next pieces can do.
            candidate.ahead = Some(candidate.score + value);
            candidate.next_tops_out = Some(tops_out);
        }
    }
}

/// Puts the best `count` of `candidates` (in the move generator's order)
/// first, in [`super::sort_by_score`]'s order (by score, best first, ties
/// in the generator's order); the others follow in no particular order,
/// which no ranking reads (it is a total order, so any order of its input
/// ranks the same). For the lookahead's few: a pass per place, instead of
/// sorting about thirty candidates of some hundred bytes each.
fn best_first_by_score(candidates: &mut [Candidate], count: usize) {
    if count > 8 {
        super::sort_by_score(candidates);
        return;
    }
    // The generator's order: by rotation state, then row, then column.
    let generated = |c: &Candidate| (c.placement.state, c.placement.y, c.placement.x);
    let better = |a: &Candidate, b: &Candidate| {
        a.score
            .total_cmp(&b.score)
            .then_with(|| generated(b).cmp(&generated(a)))
            .is_gt()
    };
    for place in 0..count.min(candidates.len()) {
        let mut best = place;
        for i in place + 1..candidates.len() {
            if better(&candidates[i], &candidates[best]) {
                best = i;
            }
        }
        candidates.swap(place, best);
    }
}

/// The value of the next piece's best landing on `board` (and of the
/// pieces after it, one ply per entry of `plies`): for the known `next`
/// piece, else the average or the worst over the pieces that may come;
/// and whether some of those pieces has no landing that does not top out.
fn replies(
    plies: &mut [Ply],
    position: &Position,
    difficulty: &Difficulty,
    board: &Board,
    next: Option<PieceKind>,
    cancel: &AtomicBool,
) -> (f64, bool) {
    // One prepared board (and, for the last ply, one surface for the
    // hard-drop shortcut and the board prepared for weighing landings)
    // for every piece that may come.
    let before = BeforeMove::new(board);
    let last = (plies.len() == 1).then(|| LastPly {
        surface: Surface::of(board),
        board: PreparedBoard::new(
            &before,
            &difficulty.weights,
            position.board.height(),
            position.danger_rows,
        ),
    });
    let mut reply = |kind| {
        best_reply(
            plies,
            position,
            difficulty,
            (&before, last.as_ref()),
            kind,
            cancel,
        )
    };
    match (next, &position.unknown_next) {
        (Some(next), _) => reply(next),
        (None, UnknownNext::Average(pieces)) => {
            let mut total = 0.0;
            let mut tops_out = false;
            for &k in pieces {
                let (v, t) = reply(k);
                total += v;
                tops_out |= t;
            }
            (total / pieces.len().max(1) as f64, tops_out)
        }
        (None, UnknownNext::Worst(pieces)) => {
            let mut worst = f64::INFINITY;
            let mut tops_out = false;
            for &k in pieces {
                let (v, t) = reply(k);
                worst = worst.min(v);
                tops_out |= t;
            }
            if pieces.is_empty() {
                worst = 0.0;
            }
            (worst, tops_out)
        }
    }
}

/// What the last ply reads of a board, found once for every piece that
/// may come to it.
struct LastPly<'a, 'b> {
    /// For the hard-drop shortcut.
    surface: Surface,
    /// For weighing the landings.
    board: PreparedBoard<'a, 'b>,
}

/// The best value `kind` reaches on the prepared board `before`: its
/// landing's score, plus, with more plies, the replies after the best
/// `beam` landings. A piece that cannot land scores as a top-out.
/// `last` is the board's, given for the last ply.
fn best_reply(
    plies: &mut [Ply],
    position: &Position,
    difficulty: &Difficulty,
    (before, last): (&BeforeMove, Option<&LastPly>),
    kind: PieceKind,
    cancel: &AtomicBool,
) -> (f64, bool) {
    let Some((ply, deeper)) = plies.split_first_mut() else {
        return (0.0, false);
    };
    let Ply { movegen, scored } = ply;
    let spawn = position.spawn(kind);
    let board = before.board();
    let top_out = || {
        difficulty.weights.score(&Metrics {
            game_over: true,
            ..Metrics::default()
        })
    };
    if let Some(LastPly {
        surface,
        board: prepared,
    }) = last
    {
        if let Some(landings) =
            movegen.hard_drops_unordered(surface, kind, position.rotation, spawn)
            && let (Some(best), survives) = prepared.best_score(landings)
            // The highest of some numbers is the same in any order, but
            // for the sign of a zero (and which NaN): those take the
            // search's order below.
            && best.abs() > 0.0
        {
            return (best, !survives);
        }
        let landings = movegen.generate(board, kind, position.rotation, spawn);
        let (best, survives) = prepared.best_score(landings);
        return (best.unwrap_or_else(top_out), !survives);
    }
    debug_assert!(!deeper.is_empty(), "the last ply comes with its board");
    let landings = movegen.generate(board, kind, position.rotation, spawn);
    let mut survives = false;
    scored.clear();
    for p in landings {
        let metrics = position.measure(before, p);
        survives |= !metrics.game_over;
        scored.push((difficulty.weights.score(&metrics), *p, metrics.game_over));
    }
    if scored.is_empty() {
        return (top_out(), true);
    }
    let beam = difficulty.beam.max(1).min(scored.len());
    scored.select_nth_unstable_by(beam - 1, |a, b| b.0.total_cmp(&a.0));
    // The deeper plies reuse their own buffers; this ply's beam is copied
    // out (at most 64 landings) so they may borrow `plies` again.
    let mut examined = [scored[0]; 64];
    let beam = beam.min(examined.len());
    examined[..beam].copy_from_slice(&scored[..beam]);
    let mut best = f64::NEG_INFINITY;
    for &(score, p, game_over) in &examined[..beam] {
        // A deeper ply is seven pieces' landings a board: the cancel is
        // read before each (the values are thrown away once it is set).
        if cancelled(cancel) {
            break;
        }
        let value = if game_over {
            score
        } else {
            let mut after = *board;
            after.place(p.kind, p.state, p.x, p.y);
            after.clear_full_rows();
            score + replies(deeper, position, difficulty, &after, None, cancel).0
        };
        best = best.max(value);
    }
    (best, !survives)
}

/// One board of the expected-line search.
#[derive(Clone, Copy)]
struct Node {
    board: Board,
    /// The board's [`fingerprint`].
    fingerprint: u64,
    /// The index of the candidate it descends from.
    root: usize,
    /// The sum of the scores of the moves that led here.
    value: f64,
}

/// The expected-line search (feed mode against an `own` adversary):
/// the adversary's piece is predicted for each board, so the search
/// follows one piece per ply and keeps the best `beam` boards of all
/// branches at each ply, `lookahead` plies deep. A board reached by two
/// lines is kept once (the better line), so the beam holds `beam`
/// different boards. Its buffers are reused.
#[derive(Default)]
pub(super) struct LineSearch {
    movegen: MoveGen,
    /// The reader's piece for a board, and its landings' scores.
    reader: super::reader::Reader,
    /// What boards expanded to, this decision and the last.
    memo: super::reader::NodeMemo,
    frontier: Vec<Node>,
    next: Vec<Node>,
    best: Vec<Option<f64>>,
    survived_one: Vec<bool>,
    /// Per root: the last ply after which it still had a board alive
    /// (before the beam kept the best), and the last after which the beam
    /// kept one: a root alive at a ply the beam dropped it from was pruned,
    /// not killed, and counts as lasting as long as the search's deepest
    /// boards (nothing showed it dies sooner).
    alive_ply: Vec<u8>,
    kept_ply: Vec<u8>,
    /// Boards already in `next` (by fingerprint) and where.
    seen: std::collections::HashMap<u64, usize>,
    /// The position as a ply sees it, the ceiling lowered by the drops
    /// the pieces before it bring (reused: `clone_from` keeps its offer).
    at_ply: Option<Position>,
}

/// `position` once `locked` more AI pieces have locked: its spawn row and
/// danger rows brought down by the ceiling's drops (as
/// `Field::set_ceiling` does: at most to the bottom row).
fn lowered(scratch: &mut Option<Position>, position: &Position, locked: u32) {
    let at = scratch.get_or_insert_with(|| position.clone());
    at.clone_from(position);
    let drops = position.ceiling.drops(locked) as usize;
    if drops > 0 {
        let height = position.board.height();
        let rows_above =
            (position.danger_rows.saturating_sub(1) + drops).min(height.saturating_sub(1));
        at.spawn_row = rows_above as i32;
        at.danger_rows = rows_above + 1;
    }
}

/// Whether the ceiling, having come down to leave `danger_rows` rows to the
/// top out, meets a block of `board` (the player wins then).
fn ceiling_meets(board: &Board, danger_rows: usize) -> bool {
    board.rows()[..danger_rows.min(board.height())]
        .iter()
        .any(|&r| r != 0)
}

/// A 64-bit fingerprint of a board's rows (FNV-style mixing): two
/// different boards share one with odds of about 2^-64 per pair.
pub(super) fn fingerprint(board: &Board) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &row in board.rows() {
        h = (h ^ row).wrapping_mul(0x0000_0100_0000_01b3);
        h ^= h >> 29;
    }
    h
}

impl LineSearch {
    /// Gives each of `roots` (every candidate) its value: its score plus
    /// the best sum of scores a line of `depth` expected pieces reaches
    /// after it, keeping the best `beam` boards per ply; `nextTopOut` when
    /// every reply to the first expected piece tops out.
    fn search(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        pieces: &[PieceKind],
        roots: &mut [Candidate],
        depth: usize,
        cancel: &AtomicBool,
    ) {
        let width = difficulty.line_beam_on(position.board.width());
        self.frontier.clear();
        self.best.clear();
        self.best.resize(roots.len(), None);
        self.survived_one.clear();
        self.survived_one.resize(roots.len(), false);
        self.alive_ply.clear();
        self.alive_ply.resize(roots.len(), 0);
        self.kept_ply.clear();
        self.kept_ply.resize(roots.len(), 0);
        self.seen.clear();
        // The `own` adversary reads this difficulty's one-piece ranking.
        debug_assert_eq!(
            difficulty.adversary,
            Adversary::Own,
            "`height` has its own search"
        );
        let one_ply = super::feeder::one_ply(difficulty);
        self.memo.begin(&one_ply, position, pieces);
        for (i, c) in roots.iter().enumerate() {
            // A move that tops out ends its line here.
            self.best[i] = Some(c.score);
            if c.metrics.game_over {
                continue;
            }
            let mut board = position.board;
            let p = c.placement;
            board.place(p.kind, p.state, p.x, p.y);
            board.clear_full_rows();
            // The ceiling may come down onto the board this move leaves.
            lowered(&mut self.at_ply, position, 1);
            if self
                .at_ply
                .as_ref()
                .is_some_and(|at| ceiling_meets(&board, at.danger_rows))
            {
                continue;
            }
            self.frontier.push(Node {
                fingerprint: fingerprint(&board),
                board,
                root: i,
                value: c.score,
            });
        }
        // The plies the search's deepest boards lasted.
        let mut reached = 0;
        for ply in 0..depth {
            self.next.clear();
            self.seen.clear();
            // This ply's piece spawns under the ceiling as it will be after
            // the `ply + 1` pieces before it; after it locks, the ceiling
            // may drop again onto the board it leaves.
            let locked_before = ply as u32 + 1;
            lowered(&mut self.at_ply, position, locked_before + 1);
            let danger_after = self.at_ply.as_ref().map_or(0, |at| at.danger_rows);
            lowered(&mut self.at_ply, position, locked_before);
            let Some(position) = self.at_ply.as_ref() else {
                break;
            };
            let ceiling_drops = danger_after > position.danger_rows;
            for (n, node) in self.frontier.iter().enumerate() {
                // A board is the reader's seven pieces and the predicted
                // piece's landings, some tens of microseconds: the cancel
                // is read every 64 boards. Cut short, the roots keep no
                // values (the caller throws the decision away).
                if n % 64 == 0 && cancelled(cancel) {
                    return;
                }
                let (predicted, children) = self.memo.expand(
                    &mut self.reader,
                    &mut self.movegen,
                    position,
                    &one_ply,
                    (&node.board, node.fingerprint),
                    pieces,
                );
                if predicted.is_none() {
                    continue;
                }
                for &(score, p) in children {
                    let value = node.value + score;
                    let mut board = node.board;
                    board.place(p.kind, p.state, p.x, p.y);
                    board.clear_full_rows();
                    if ceiling_drops && ceiling_meets(&board, danger_after) {
                        continue;
                    }
                    if ply == 0 {
                        self.survived_one[node.root] = true;
                    }
                    let child = Node {
                        board,
                        fingerprint: fingerprint(&board),
                        root: node.root,
                        value,
                    };
                    match self.seen.entry(child.fingerprint) {
                        std::collections::hash_map::Entry::Occupied(at) => {
                            let kept = &mut self.next[*at.get()];
                            if value > kept.value {
                                *kept = child;
                            }
                        }
                        std::collections::hash_map::Entry::Vacant(slot) => {
                            slot.insert(self.next.len());
                            self.next.push(child);
                        }
                    }
                }
            }
            if self.next.is_empty() {
                break;
            }
            reached = ply as u8 + 1;
            for node in &self.next {
                self.alive_ply[node.root] = ply as u8 + 1;
            }
            if self.next.len() > width {
                self.next
                    .select_nth_unstable_by(width - 1, |a, b| b.value.total_cmp(&a.value));
                self.next.truncate(width);
            }
            // Lines still alive after this ply outrank the ones that ended.
            for b in &mut self.best {
                *b = None;
            }
            for node in &self.next {
                self.kept_ply[node.root] = ply as u8 + 1;
                let slot = &mut self.best[node.root];
                *slot = Some(slot.map_or(node.value, |v| v.max(node.value)));
            }
            std::mem::swap(&mut self.frontier, &mut self.next);
        }
        self.give_values(roots, depth, reached);
    }

    /// Writes what the search found into each root: its best line's
    /// value, whether the first expected piece left it no landing, and
    /// `linePlies` (a root the beam dropped while alive lasts as long as
    /// the deepest boards, `reached` plies).
    fn give_values(&self, roots: &mut [Candidate], depth: usize, reached: u8) {
        for (i, c) in roots.iter_mut().enumerate() {
            c.ahead = self.best[i];
            c.next_tops_out = Some(depth > 0 && !self.survived_one[i]);
            let pruned_alive = self.alive_ply[i] > self.kept_ply[i];
            c.line_plies = Some(if pruned_alive {
                reached
            } else {
                self.alive_ply[i]
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{best_first_by_score, fingerprint};
    use crate::ai::{Candidate, Metrics, sort_by_score};
    use tessera_tetris::board::Board;
    use tessera_tetris::movegen::Placement;
    use tessera_tetris::piece::PieceKind;

    proptest! {
        /// The lookahead's few best candidates are the full sort's, in its
        /// order: scores with many ties (zeros of both signs, NaN among
        /// them), candidates in the move generator's order, every count.
        #[test]
        fn the_best_first_are_the_sorts_first(
            picks in proptest::collection::btree_set((0u8..4, 0i32..20, -2i32..10), 0..60),
            scores in proptest::collection::vec(0usize..6, 60),
            count in 1usize..12,
        ) {
            let values = [-1.5, 0.0, -0.0, 2.0, f64::NAN, -7.25];
            // A set of (state, row, column) is in the generator's order.
            let candidates: Vec<Candidate> = picks
                .iter()
                .zip(&scores)
                .map(|(&(state, y, x), &score)| Candidate {
                    placement: Placement { kind: PieceKind::T, state, x, y },
                    metrics: Metrics::default(),
                    score: values[score],
                    ahead: None,
                    next_tops_out: None,
                    line_plies: None,
                })
                .collect();
            let mut sorted = candidates.clone();
            sort_by_score(&mut sorted);
            let mut fast = candidates.clone();
            best_first_by_score(&mut fast, count);
            let n = count.min(candidates.len());
            let key = |c: &Candidate| (c.placement, c.score.to_bits());
            prop_assert_eq!(
                fast[..n].iter().map(key).collect::<Vec<_>>(),
                sorted[..n].iter().map(key).collect::<Vec<_>>()
            );
            // The others are all still there.
            let mut rest: Vec<_> = fast[n..].iter().map(key).collect();
            let mut expected: Vec<_> = sorted[n..].iter().map(key).collect();
            rest.sort();
            expected.sort();
            prop_assert_eq!(rest, expected);
        }
    }

    #[test]
    fn a_fingerprint_tells_boards_apart_and_equal_boards_match() {
        let mut a = Board::new(10, 20);
        let mut b = Board::new(10, 20);
        assert_eq!(fingerprint(&a), fingerprint(&b));
        a.set(3, 19, true);
        assert_ne!(fingerprint(&a), fingerprint(&b));
        b.set(3, 19, true);
        assert_eq!(fingerprint(&a), fingerprint(&b));
        // The same cells one row higher is another board.
        let mut c = Board::new(10, 20);
        c.set(3, 18, true);
        assert_ne!(fingerprint(&a), fingerprint(&c));
    }
}
