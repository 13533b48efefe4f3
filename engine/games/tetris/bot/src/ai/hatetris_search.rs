//! The line search against HATETRIS (feed mode, `adversary = "height"`),
//! kept from decision to decision.
//!
//! The `hatetris` feeder is deterministic and the `height` adversary
//! predicts its piece exactly, so the game is a one-player search: every
//! line the search follows is a line that can really be played. The
//! search is a beam over those lines: at each ply it keeps the best
//! `line_beam` different boards, ranked by rows cleared since the root
//! first, then by the evaluation of the line's last board (a sum over the
//! boards along a line would favour lines that were good early and bad
//! late).
//!
//! With `line_step > 0` the tree is kept: the next decision's position is
//! one of this tree's children (the move played, then the predicted
//! piece), so its lines are still valid. The next decision keeps the lines
//! that start with the move played, drops the rest, and extends the beam
//! by `line_step` plies' worth of expansions, so each decision's work
//! buys plies on a beam that was built over many decisions. A position
//! the tree does not know (an undo, another feeder, the first move of a
//! game) builds a new tree from that position alone, so a game's first
//! decision never depends on what an earlier game left.
//!
//! Only the deepest ply is kept whole ([`Link`]); every older ply is a
//! list of compact [`Step`]s (the parent and the move, 8 bytes), and a ply
//! is expanded in batches whose children are pruned to the beam as they
//! come, so a wide, deep tree (the rolling beam: tens of thousands of
//! boards a ply, tens of plies ahead of the game) stays inside the
//! search's memory budget (`limits::line_search_bytes` counts it).

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use super::lookahead::fingerprint;
use super::metrics::{BeforeMove, Metric, Metrics};
use super::{Candidate, Difficulty, Position, UnknownNext, cancelled};
use tessera_tetris::board::Board;
use tessera_tetris::movegen::{MoveGen, Placement};
use tessera_tetris::piece::PieceKind;

/// One board of the tree, `k + 1` plies after its root in layer `k`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Link {
    /// Its board's index in the layer before (0 in layer 0).
    pub(super) parent: u32,
    /// The move that made the board.
    pub(super) placement: Placement,
    /// Rows cleared since the root.
    pub(super) lines: u32,
    /// The evaluation of the board (its move's score without the rows
    /// cleared, which `lines` ranks first).
    eval: f64,
}

impl Link {
    /// The line's rank: its rows since the root at `per_line` each (the
    /// difficulty's `linesCleared` weight) plus its last board's
    /// evaluation. A weight far above the evaluation's range ranks by rows
    /// first, then by the board.
    pub(super) fn value(&self, per_line: f64) -> f64 {
        per_line * f64::from(self.lines) + self.eval
    }
}

/// One board of an older ply, compact: its parent in the ply before and
/// the move that made it. 8 bytes (a `Link` is 32), so 64 plies of
/// 65,536 boards are 32 MiB.
#[derive(Debug, Clone, Copy)]
pub(super) struct Step {
    parent: u32,
    kind: PieceKind,
    state: u8,
    // A board is at most 64 x 64, so a piece's box corner fits a byte.
    x: i8,
    y: i8,
}

const _: () = assert!(std::mem::size_of::<Step>() == 8);

impl Step {
    fn of(link: &Link) -> Step {
        let p = link.placement;
        Step {
            parent: link.parent,
            kind: p.kind,
            state: p.state,
            x: p.x as i8,
            y: p.y as i8,
        }
    }

    /// Its board's index in the ply before.
    fn parent(&self) -> usize {
        self.parent as usize
    }

    /// The move that made the board.
    fn placement(&self) -> Placement {
        Placement {
            kind: self.kind,
            state: self.state,
            x: i32::from(self.x),
            y: i32::from(self.y),
        }
    }
}

/// A child found while expanding a ply, before the beam prunes them.
#[derive(Clone, Copy)]
struct Child {
    link: Link,
    /// Its place among the ply's children, for a total order.
    order: u32,
    /// Its board's fingerprint (the table of boards seen is rebuilt from
    /// it when the children are pruned).
    print: u64,
}

/// What the last decision did, for tests and measurements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Whether the decision kept the tree of the one before.
    pub kept: bool,
    /// Boards expanded (one predicted piece's landings each).
    pub expanded: u64,
    /// Pieces the tree looks ahead after the decision (plies past the
    /// candidates' own boards).
    pub depth: usize,
    /// Boards at its deepest ply.
    pub frontier: usize,
}

/// Boards expanded together: their children wait in the expanders' lists
/// until the batch is merged, so this bounds those lists' memory.
pub(super) const BATCH_BOARDS: usize = 1024;

/// Children a ply's merge holds before pruning them to the beam's
/// `width`: twice the width, and never fewer than this floor, which no
/// beam of up to about 3,000 boards reaches on the 10-wide well (its
/// plies are then merged whole, as before batches existed).
pub(super) fn prune_at(width: usize) -> usize {
    (2 * width).max(1 << 17)
}

/// The tree and its buffers, reused from decision to decision.
#[derive(Default)]
pub(super) struct HatetrisSearch {
    /// The position the tree was built from and the difficulty it used.
    root: Option<(Position, Difficulty)>,
    /// The plies before the deepest, compact: `history[k]` the boards
    /// `k + 1` plies after the root (a ring: a re-root drops the front).
    history: VecDeque<Vec<Step>>,
    /// The deepest ply, whole (empty when there is no tree).
    last: Vec<Link>,
    /// The boards of the deepest ply, in its order.
    frontier: Vec<Board>,
    /// The next ply's boards while it is built (its memory reused).
    next_frontier: Vec<Board>,
    /// Plies a re-root dropped, their memory reused.
    spare: Vec<Vec<Step>>,
    /// One per chunk of a batch of boards, expanded in parallel.
    expanders: Vec<Expander>,
    children: Vec<Child>,
    /// Boards already among `children` (by fingerprint) and where.
    seen: HashMap<u64, usize>,
    stats: SearchStats,
}

impl HatetrisSearch {
    /// What the last decision did.
    pub(super) fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Plies the tree holds: 0 none, 1 the candidates' own boards, and
    /// one more for each predicted piece.
    pub(super) fn plies(&self) -> usize {
        if self.last.is_empty() {
            0
        } else {
            self.history.len() + 1
        }
    }

    /// The deepest ply's boards, whole.
    pub(super) fn deepest(&self) -> &[Link] {
        &self.last
    }

    /// The moves from the root to board `index` of ply `ply` (0: the
    /// candidates' boards), read back through the compact plies.
    pub(super) fn line_to(&self, ply: usize, index: usize) -> Vec<Placement> {
        let mut moves = Vec::with_capacity(ply + 1);
        let mut i = index;
        for k in (0..=ply).rev() {
            let (parent, placement) = self.at(k, i);
            moves.push(placement);
            i = parent;
        }
        moves.reverse();
        moves
    }

    /// The parent and the move of board `index` of ply `ply`.
    fn at(&self, ply: usize, index: usize) -> (usize, Placement) {
        if ply + 1 == self.plies() {
            let link = &self.last[index];
            (link.parent as usize, link.placement)
        } else {
            let step = &self.history[ply][index];
            (step.parent(), step.placement())
        }
    }

    /// Gives each candidate (every landing of `position.piece`) its value:
    /// the deepest ply its lines reach, then the best last board there.
    /// Candidates the tree does not hold (they top out, or a kept tree
    /// pruned them) keep no value and rank last. Stops early once
    /// `cancel` is set (the caller then drops the tree with its brain).
    pub(super) fn search(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        pieces: &[PieceKind],
        candidates: &mut [Candidate],
        cancel: &AtomicBool,
    ) {
        let keep = difficulty.line_step > 0;
        let kept = keep && self.reroot(position, difficulty);
        if !kept {
            self.plant(position, difficulty, candidates);
        }
        let target = usize::from(difficulty.line_search().0);
        let width = difficulty.line_beam_on(position.board.width());
        // Kept: `line_step` plies' worth of boards a decision; afresh: the
        // whole depth.
        let plies = if keep {
            usize::from(difficulty.line_step)
        } else {
            target
        };
        let budget = (width * plies.max(1)) as u64;
        let mut expanded = 0u64;
        // The first layer is the candidates' own boards; each ply after it
        // is one predicted piece.
        while self.plies() <= target {
            let cost = self.frontier.len() as u64;
            if expanded > 0 && expanded + cost > budget {
                break;
            }
            expanded += cost;
            if !self.extend(position, difficulty, pieces, width, cancel) {
                break;
            }
        }
        self.stats = SearchStats {
            kept,
            expanded,
            depth: self.plies().saturating_sub(1),
            frontier: self.frontier.len(),
        };
        self.value(candidates, difficulty.weights.get(Metric::LinesCleared));
        if !keep {
            // Nothing is kept: the next decision starts afresh.
            self.root = None;
        }
    }

    /// Drops the tree (its plies' memory kept for the next one).
    fn clear(&mut self) {
        self.root = None;
        self.spare.extend(self.history.drain(..));
        self.last.clear();
        self.frontier.clear();
    }

    /// A new tree whose first layer is every candidate that does not top
    /// out, in the candidates' order.
    pub(super) fn plant(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        candidates: &[Candidate],
    ) {
        self.clear();
        self.root = Some((position.clone(), difficulty.clone()));
        for c in candidates.iter().filter(|c| !c.metrics.game_over) {
            let p = c.placement;
            let mut board = position.board;
            board.place(p.kind, p.state, p.x, p.y);
            board.clear_full_rows();
            self.frontier.push(board);
            self.last.push(Link {
                parent: 0,
                placement: p,
                lines: c.metrics.lines_cleared,
                eval: evaluate(difficulty, &c.metrics),
            });
        }
    }

    /// Boards at ply `ply`.
    fn ply_len(&self, ply: usize) -> usize {
        if ply + 1 == self.plies() {
            self.last.len()
        } else {
            self.history[ply].len()
        }
    }

    /// Re-roots the kept tree at `position` when it is the tree's root or
    /// one of its first boards with the piece the adversary was expected to
    /// give: keeps the lines through that board and drops the rest.
    /// `false` (nothing changed) when the tree cannot serve.
    fn reroot(&mut self, position: &Position, difficulty: &Difficulty) -> bool {
        let Some((root, built_with)) = &self.root else {
            return false;
        };
        if built_with != difficulty || !same_rules(root, position) || self.plies() < 2 {
            return false;
        }
        if root == position {
            return true;
        }
        let root_board = root.board;
        // The board played: one of the first ply's equal to the position's
        // on which the adversary gives the position's piece (the piece of
        // its children's moves).
        let mut played = None;
        for (i, step) in self.history[0].iter().enumerate() {
            let p = step.placement();
            let mut board = root_board;
            board.place(p.kind, p.state, p.x, p.y);
            let cleared = board.clear_full_rows().count_ones();
            if board != position.board {
                continue;
            }
            let child = (0..self.ply_len(1)).find(|&j| self.at(1, j).0 == i);
            if child.is_some_and(|j| self.at(1, j).1.kind == position.piece) {
                played = Some((i, cleared));
                break;
            }
        }
        let Some((played, base_lines)) = played else {
            return false;
        };
        // Which boards of the ply before survive, and where they went.
        let mut survivors: Vec<Option<u32>> = vec![None; self.history[0].len()];
        survivors[played] = Some(0);
        if let Some(first) = self.history.pop_front() {
            self.spare.push(first);
        }
        let mut next = Vec::new();
        let mut alive = true;
        for layer in &mut self.history {
            alive = keep_descendants(layer, &survivors, &mut next, Step::parent, |s, p| {
                s.parent = p
            });
            std::mem::swap(&mut survivors, &mut next);
            if !alive {
                break;
            }
        }
        if alive {
            alive = keep_descendants(
                &mut self.last,
                &survivors,
                &mut next,
                |l| l.parent as usize,
                |l, p| l.parent = p,
            );
            // The boards of the deepest ply go where their links went.
            let mut write = 0;
            for (read, s) in next.iter().enumerate() {
                if s.is_some() {
                    self.frontier[write] = self.frontier[read];
                    write += 1;
                }
            }
            self.frontier.truncate(write);
            for link in &mut self.last {
                link.lines = link.lines.saturating_sub(base_lines);
            }
        }
        if !alive {
            // The move played has no line this deep: start afresh.
            self.clear();
            return false;
        }
        // The new first ply descends from one board: its parent is the root.
        match self.history.front_mut() {
            Some(first) => first.iter_mut().for_each(|s| s.parent = 0),
            None => self.last.iter_mut().for_each(|l| l.parent = 0),
        }
        self.root = Some((position.clone(), difficulty.clone()));
        true
    }

    /// Adds one ply: the adversary's piece on every board of the last
    /// layer, all its landings that do not top out, each board kept once,
    /// the best `width` kept. `false` when no line survives the ply (the
    /// tree stays as it was).
    ///
    /// The boards are expanded in batches, each cut into chunks expanded
    /// on every core (rayon), each chunk with its own move generators; the
    /// children are merged in the frontier's order, so the ply is the same
    /// whatever the thread count, and pruned to the best `width` whenever
    /// they pass [`prune_at`] (a board pruned can come back only with a
    /// better line, which would not have been pruned).
    ///
    /// `cancel` is read before each batch (some milliseconds of work on
    /// two cores): once set, the ply stops, `false`, the tree as it was.
    pub(super) fn extend(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        pieces: &[PieceKind],
        width: usize,
        cancel: &AtomicBool,
    ) -> bool {
        self.extend_pruning_at(
            position,
            difficulty,
            pieces,
            (width, prune_at(width)),
            cancel,
        )
    }

    /// [`HatetrisSearch::extend`], pruning whenever more than `prune_at`
    /// children are merged (a test prunes far more often).
    fn extend_pruning_at(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        pieces: &[PieceKind],
        (width, prune_at): (usize, usize),
        cancel: &AtomicBool,
    ) -> bool {
        if self.last.is_empty() {
            return false;
        }
        let width = width.max(1);
        if self.expanders.len() < EXPANDERS {
            self.expanders.resize_with(EXPANDERS, Expander::default);
        }
        let per_line = difficulty.weights.get(Metric::LinesCleared);
        self.children.clear();
        self.seen.clear();
        let mut found = 0u32;
        for from in (0..self.frontier.len()).step_by(BATCH_BOARDS) {
            // Only the scratch lists have changed so far: the tree is
            // untouched until the ply is whole.
            if cancelled(cancel) {
                return false;
            }
            let to = (from + BATCH_BOARDS).min(self.frontier.len());
            let (boards, links) = (&self.frontier[from..to], &self.last[from..to]);
            let chunk = boards.len().div_ceil(EXPANDERS).max(1);
            self.expanders
                .par_iter_mut()
                .enumerate()
                .for_each(|(i, expander)| {
                    let a = (i * chunk).min(boards.len());
                    let b = ((i + 1) * chunk).min(boards.len());
                    expander.expand(
                        position,
                        difficulty,
                        pieces,
                        (&boards[a..b], &links[a..b]),
                        from + a,
                    );
                });
            for expander in &self.expanders {
                for &(link, print) in &expander.children {
                    let child = Child {
                        link,
                        order: found,
                        print,
                    };
                    found += 1;
                    match self.seen.entry(print) {
                        Entry::Occupied(at) => {
                            let kept = &mut self.children[*at.get()];
                            if child.link.value(per_line) > kept.link.value(per_line) {
                                kept.link = child.link;
                            }
                        }
                        Entry::Vacant(slot) => {
                            slot.insert(self.children.len());
                            self.children.push(child);
                        }
                    }
                }
            }
            if self.children.len() > prune_at {
                self.prune(width, per_line);
            }
        }
        if self.children.is_empty() {
            return false;
        }
        if self.children.len() > width {
            self.prune(width, per_line);
        }
        // The order they were found in: boards of one parent together.
        self.children.sort_unstable_by_key(|c| c.order);
        self.next_frontier.clear();
        for c in &self.children {
            let p = c.link.placement;
            let mut board = self.frontier[c.link.parent as usize];
            board.place(p.kind, p.state, p.x, p.y);
            board.clear_full_rows();
            self.next_frontier.push(board);
        }
        std::mem::swap(&mut self.frontier, &mut self.next_frontier);
        let mut older = self.spare.pop().unwrap_or_default();
        older.clear();
        older.extend(self.last.iter().map(Step::of));
        self.history.push_back(older);
        self.last.clear();
        self.last.extend(self.children.iter().map(|c| c.link));
        true
    }

    /// Keeps the best `width` children (by rows, then the last board, then
    /// the order found) and the table of boards seen to match.
    fn prune(&mut self, width: usize, per_line: f64) {
        if self.children.len() > width {
            self.children.select_nth_unstable_by(width - 1, |a, b| {
                b.link
                    .value(per_line)
                    .total_cmp(&a.link.value(per_line))
                    .then(a.order.cmp(&b.order))
            });
            self.children.truncate(width);
        }
        self.seen.clear();
        for (i, c) in self.children.iter().enumerate() {
            self.seen.insert(c.print, i);
        }
    }

    /// Writes each candidate's value from the tree: the deepest ply its
    /// lines reach (a line alive longer outranks any that ended), then,
    /// for those reaching the deepest ply, its best line's value there
    /// (older plies keep no values: a candidate whose lines end sooner
    /// ranks by how far they reach, then by its own score).
    fn value(&self, candidates: &mut [Candidate], per_line: f64) {
        for c in candidates.iter_mut() {
            c.ahead = None;
            c.next_tops_out = None;
        }
        let plies = self.plies();
        if plies == 0 {
            return;
        }
        // The candidate each board of the first ply is.
        let first = self.ply_len(0);
        let slot: Vec<Option<usize>> = (0..first)
            .map(|j| {
                let placement = self.at(0, j).1;
                candidates.iter().position(|c| c.placement == placement)
            })
            .collect();
        // Per first-ply board: the deepest ply its lines reach.
        let mut deepest = vec![0usize; first];
        let mut ancestor: Vec<u32> = (0..first as u32).collect();
        for k in 1..plies {
            ancestor = (0..self.ply_len(k))
                .map(|j| ancestor[self.at(k, j).0])
                .collect();
            for &a in &ancestor {
                deepest[a as usize] = k;
            }
        }
        // Their best line's value at the deepest ply.
        let mut best: Vec<Option<f64>> = vec![None; first];
        for (link, &a) in self.last.iter().zip(&ancestor) {
            let value = link.value(per_line);
            let entry = &mut best[a as usize];
            if entry.is_none_or(|v| value > v) {
                *entry = Some(value);
            }
        }
        for i in 0..first {
            let Some(at) = slot[i] else {
                continue;
            };
            let value = best[i].unwrap_or(f64::NEG_INFINITY);
            // Plies first, then the value: far enough apart that no value
            // can outweigh a ply.
            let ahead = deepest[i] as f64 * 1e12 + value.clamp(-1e11, 1e11);
            candidates[at].ahead = Some(ahead);
            candidates[at].next_tops_out = Some(deepest[i] == 0 && plies > 1);
        }
    }
}

/// Keeps the entries of `layer` whose parent survived (`survivors[parent]`
/// is its new index), in order, their parents renumbered; `next[i]` is
/// where entry `i` went (`None`: dropped). `false` when none is kept.
fn keep_descendants<T: Copy>(
    layer: &mut Vec<T>,
    survivors: &[Option<u32>],
    next: &mut Vec<Option<u32>>,
    parent: impl Fn(&T) -> usize,
    set_parent: impl Fn(&mut T, u32),
) -> bool {
    next.clear();
    next.resize(layer.len(), None);
    let mut write = 0;
    for read in 0..layer.len() {
        let mut entry = layer[read];
        if let Some(p) = survivors[parent(&entry)] {
            set_parent(&mut entry, p);
            layer[write] = entry;
            next[read] = Some(write as u32);
            write += 1;
        }
    }
    layer.truncate(write);
    write > 0
}

/// Chunks a batch is cut into: more than the cores, so a core slowed by
/// other work does not hold the batch up.
const EXPANDERS: usize = 8;

/// The working memory of one chunk of a batch.
#[derive(Default)]
struct Expander {
    movegen: MoveGen,
    predict: MoveGen,
    /// The children that do not top out, with their boards' fingerprints.
    children: Vec<(Link, u64)>,
}

impl Expander {
    /// Expands `boards` (frontier entries from `offset` on, with their
    /// links): the adversary's piece and all its landings that survive.
    fn expand(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        pieces: &[PieceKind],
        (boards, links): (&[Board], &[Link]),
        offset: usize,
    ) {
        self.children.clear();
        for (k, (board, from)) in boards.iter().zip(links).enumerate() {
            let predicted =
                super::feeder::hatetris_piece(&mut self.predict, position, board, pieces);
            let Some(kind) = predicted else {
                continue;
            };
            let before = BeforeMove::new(board);
            let landings =
                self.movegen
                    .generate(board, kind, position.rotation, position.spawn(kind));
            for p in landings {
                let metrics = position.measure(&before, p);
                if metrics.game_over {
                    continue;
                }
                let mut after = *board;
                after.place(p.kind, p.state, p.x, p.y);
                after.clear_full_rows();
                let link = Link {
                    parent: (offset + k) as u32,
                    placement: *p,
                    lines: from.lines + metrics.lines_cleared,
                    eval: evaluate(difficulty, &metrics),
                };
                self.children.push((link, fingerprint(&after)));
            }
        }
    }
}

/// Whether a line searched from `a` plays the same under `b`'s rules: the
/// rotation system, spawn row, danger rows, preview and the tetrominoes
/// HATETRIS chooses among (boards, pieces and ceilings are the caller's).
pub(super) fn same_rules(a: &Position, b: &Position) -> bool {
    a.rotation == b.rotation
        && a.spawn_row == b.spawn_row
        && a.danger_rows == b.danger_rows
        && a.next == b.next
        && same_tetrominoes(&a.unknown_next, &b.unknown_next)
}

/// Whether two positions expect the adversary to choose among the same
/// tetrominoes (HATETRIS never gives a special, so one on offer or not
/// changes no line of the tree).
fn same_tetrominoes(a: &UnknownNext, b: &UnknownNext) -> bool {
    let tetrominoes = |u: &UnknownNext| {
        let (UnknownNext::Worst(pieces) | UnknownNext::Average(pieces)) = u;
        let mut kinds: Vec<PieceKind> = pieces
            .iter()
            .copied()
            .filter(|k| k.is_tetromino())
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        (matches!(u, UnknownNext::Worst(_)), kinds)
    };
    tetrominoes(a) == tetrominoes(b)
}

/// The evaluation of the board a move leaves: its score without the rows
/// it cleared (the ranking counts rows on its own, first).
fn evaluate(difficulty: &Difficulty, metrics: &Metrics) -> f64 {
    difficulty.weights.score(metrics)
        - difficulty.weights.get(Metric::LinesCleared) * f64::from(metrics.lines_cleared)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::HatetrisSearch;
    use crate::ai::hatetris_offline::{RootShare, empty_well, first_landings};
    use crate::ai::metrics::Metric;
    use crate::ai::{Adversary, Difficulty, settings};
    use tessera_tetris::piece::PieceKind;

    /// The values of the deepest ply's boards, sorted, and their boards'
    /// fingerprints, sorted.
    fn kept(search: &HatetrisSearch, per_line: f64) -> (Vec<u64>, Vec<u64>) {
        let mut values: Vec<f64> = search.last.iter().map(|l| l.value(per_line)).collect();
        values.sort_by(f64::total_cmp);
        let mut prints: Vec<u64> = search
            .frontier
            .iter()
            .map(crate::ai::lookahead::fingerprint)
            .collect();
        prints.sort_unstable();
        (values.iter().map(|v| v.to_bits()).collect(), prints)
    }

    /// A ply whose children are pruned to the beam while they merge keeps
    /// boards of the same values as a ply merged whole (a board pruned
    /// comes back only with a better line); plies are compared while the
    /// two kept the same boards (equal values at the cut may differ).
    #[test]
    fn a_ply_pruned_while_it_merges_keeps_what_a_whole_merge_keeps() {
        let difficulty = Difficulty {
            adversary: Adversary::Height,
            ..settings::default_difficulties()[0].clone()
        };
        let per_line = difficulty.weights.get(Metric::LinesCleared);
        let position = empty_well(PieceKind::S);
        let roots = first_landings(&position, &difficulty, RootShare::WHOLE);
        let (mut whole, mut pruned) = (HatetrisSearch::default(), HatetrisSearch::default());
        whole.plant(&position, &difficulty, &roots);
        pruned.plant(&position, &difficulty, &roots);
        let width = 48;
        let never = AtomicBool::new(false);
        for ply in 1..=4 {
            let pieces = &PieceKind::ALL;
            assert!(whole.extend_pruning_at(
                &position,
                &difficulty,
                pieces,
                (width, usize::MAX),
                &never
            ));
            assert!(pruned.extend_pruning_at(
                &position,
                &difficulty,
                pieces,
                (width, width + 1),
                &never
            ));
            let (a, b) = (kept(&whole, per_line), kept(&pruned, per_line));
            assert_eq!(whole.last.len(), width, "ply {ply}: the beam is full");
            assert_eq!(a.0, b.0, "ply {ply}: the values kept");
            if a.1 != b.1 {
                break;
            }
        }
    }
}
