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

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use rayon::prelude::*;

use super::lookahead::fingerprint;
use super::metrics::{BeforeMove, Metric, Metrics};
use super::{Candidate, Difficulty, Position, UnknownNext};
use crate::board::Board;
use crate::movegen::{MoveGen, Placement};
use crate::piece::PieceKind;

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
    /// The piece the adversary gives on this board, once it was expanded.
    next: Option<PieceKind>,
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

/// A child found while expanding a ply, before the beam prunes them.
#[derive(Clone, Copy)]
struct Child {
    link: Link,
    /// Its place among the ply's children, for a total order.
    order: u32,
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

/// The tree and its buffers, reused from decision to decision.
#[derive(Default)]
pub(super) struct HatetrisSearch {
    /// The position the tree was built from and the difficulty it used.
    root: Option<(Position, Difficulty)>,
    /// `layers[k]`: the boards `k + 1` plies after the root.
    layers: Vec<Vec<Link>>,
    /// The boards of the last layer, in its order.
    frontier: Vec<Board>,
    /// One per chunk of a ply's boards, expanded in parallel.
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

    /// The tree's layers (`layers[k]`: the boards `k + 1` plies after the
    /// root), for the offline search, which keeps its own compact copy of
    /// the older ones and empties them here.
    pub(super) fn layers_mut(&mut self) -> &mut [Vec<Link>] {
        &mut self.layers
    }

    /// Gives each candidate (every landing of `position.piece`) its value:
    /// the deepest ply its lines reach, then the most rows and the best
    /// last board there. Candidates the tree does not hold (they top out,
    /// or a kept tree pruned them) keep no value and rank last.
    pub(super) fn search(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        pieces: &[PieceKind],
        candidates: &mut [Candidate],
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
        while self.layers.len() <= target {
            let cost = self.frontier.len() as u64;
            if expanded > 0 && expanded + cost > budget {
                break;
            }
            expanded += cost;
            if !self.extend(position, difficulty, pieces, width) {
                break;
            }
        }
        self.stats = SearchStats {
            kept,
            expanded,
            depth: self.layers.len().saturating_sub(1),
            frontier: self.frontier.len(),
        };
        self.value(candidates, difficulty.weights.get(Metric::LinesCleared));
        if !keep {
            // Nothing is kept: the next decision starts afresh.
            self.root = None;
        }
    }

    /// A new tree whose first layer is every candidate that does not top
    /// out, in the candidates' order.
    pub(super) fn plant(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        candidates: &[Candidate],
    ) {
        self.root = Some((position.clone(), difficulty.clone()));
        self.layers.clear();
        self.frontier.clear();
        let mut first = Vec::with_capacity(candidates.len());
        for c in candidates.iter().filter(|c| !c.metrics.game_over) {
            let p = c.placement;
            let mut board = position.board;
            board.place(p.kind, p.state, p.x, p.y);
            board.clear_full_rows();
            self.frontier.push(board);
            first.push(Link {
                parent: 0,
                placement: p,
                lines: c.metrics.lines_cleared,
                eval: evaluate(difficulty, &c.metrics),
                next: None,
            });
        }
        if !first.is_empty() {
            self.layers.push(first);
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
        let same_rules = built_with == difficulty
            && root.rotation == position.rotation
            && root.spawn_row == position.spawn_row
            && root.danger_rows == position.danger_rows
            && root.next == position.next
            && same_tetrominoes(&root.unknown_next, &position.unknown_next);
        if !same_rules || self.layers.len() < 2 {
            return false;
        }
        if root == position {
            return true;
        }
        let played = self.layers[0].iter().position(|link| {
            let p = link.placement;
            let mut board = root.board;
            board.place(p.kind, p.state, p.x, p.y);
            board.clear_full_rows();
            link.next == Some(position.piece) && board == position.board
        });
        let Some(played) = played else {
            return false;
        };
        let base_lines = self.layers[0][played].lines;
        // Which boards of the layer before survive, and where they went.
        let mut survivors: Vec<Option<u32>> = vec![None; self.layers[0].len()];
        survivors[played] = Some(0);
        let old = std::mem::take(&mut self.layers);
        let deepest = old.len() - 1;
        for (k, layer) in old.into_iter().enumerate().skip(1) {
            let mut kept = Vec::new();
            let mut next_survivors = vec![None; layer.len()];
            for (i, mut link) in layer.into_iter().enumerate() {
                if let Some(parent) = survivors[link.parent as usize] {
                    link.parent = parent;
                    link.lines -= base_lines;
                    next_survivors[i] = Some(kept.len() as u32);
                    kept.push(link);
                }
            }
            if kept.is_empty() {
                // The move played has no line this deep: start afresh.
                self.layers.clear();
                return false;
            }
            if k == deepest {
                let boards = std::mem::take(&mut self.frontier);
                self.frontier = boards
                    .into_iter()
                    .zip(&next_survivors)
                    .filter_map(|(board, s)| s.map(|_| board))
                    .collect();
            }
            self.layers.push(kept);
            survivors = next_survivors;
        }
        // The new first layer descends from one board: its parent is the root.
        for link in &mut self.layers[0] {
            link.parent = 0;
        }
        self.root = Some((position.clone(), difficulty.clone()));
        true
    }

    /// Adds one ply: the adversary's piece on every board of the last
    /// layer, all its landings that do not top out, each board kept once,
    /// the best `width` kept. `false` when no line survives the ply (the
    /// tree stays as it was).
    ///
    /// The boards are expanded in chunks on every core (rayon), each chunk
    /// with its own move generators; the children are then merged in the
    /// frontier's order, so the ply is the same whatever the thread count.
    pub(super) fn extend(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        pieces: &[PieceKind],
        width: usize,
    ) -> bool {
        let Some(last) = self.layers.last_mut() else {
            return false;
        };
        let chunk = self.frontier.len().div_ceil(EXPANDERS).max(1);
        if self.expanders.len() < EXPANDERS {
            self.expanders.resize_with(EXPANDERS, Expander::default);
        }
        let boards = &self.frontier;
        let links: &[Link] = last;
        self.expanders
            .par_iter_mut()
            .enumerate()
            .for_each(|(i, expander)| {
                let from = (i * chunk).min(boards.len());
                let to = ((i + 1) * chunk).min(boards.len());
                expander.expand(position, difficulty, pieces, &boards[from..to], links, from);
            });
        let per_line = difficulty.weights.get(Metric::LinesCleared);
        self.children.clear();
        self.seen.clear();
        for expander in &self.expanders {
            for (k, predicted) in expander.predicted.iter().enumerate() {
                last[expander.offset + k].next = *predicted;
            }
            for &(link, print) in &expander.children {
                let child = Child {
                    link,
                    order: self.children.len() as u32,
                };
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
        if self.children.is_empty() {
            return false;
        }
        let ranking = |a: &Child, b: &Child| {
            b.link
                .value(per_line)
                .total_cmp(&a.link.value(per_line))
                .then(a.order.cmp(&b.order))
        };
        if self.children.len() > width {
            self.children.select_nth_unstable_by(width - 1, ranking);
            self.children.truncate(width);
        }
        // The order they were found in: boards of one parent together.
        self.children.sort_unstable_by_key(|c| c.order);
        let mut boards = Vec::with_capacity(self.children.len());
        for c in &self.children {
            let p = c.link.placement;
            let mut board = self.frontier[c.link.parent as usize];
            board.place(p.kind, p.state, p.x, p.y);
            board.clear_full_rows();
            boards.push(board);
        }
        self.frontier = boards;
        self.layers
            .push(self.children.iter().map(|c| c.link).collect());
        true
    }

    /// Writes each candidate's value from the tree: the deepest ply its
    /// lines reach (a line alive longer outranks any that ended), then its
    /// best line's value there.
    fn value(&self, candidates: &mut [Candidate], per_line: f64) {
        for c in candidates.iter_mut() {
            c.ahead = None;
            c.next_tops_out = None;
        }
        let Some(first) = self.layers.first() else {
            return;
        };
        // The candidate each board of the first layer is.
        let slot: Vec<Option<usize>> = first
            .iter()
            .map(|link| {
                candidates
                    .iter()
                    .position(|c| c.placement == link.placement)
            })
            .collect();
        // Per first-layer board: the deepest layer reached, its best value.
        let mut best: Vec<Option<(usize, f64)>> = vec![None; first.len()];
        let mut ancestor: Vec<u32> = (0..first.len() as u32).collect();
        for (k, layer) in self.layers.iter().enumerate() {
            if k > 0 {
                ancestor = layer
                    .iter()
                    .map(|link| ancestor[link.parent as usize])
                    .collect();
            }
            for (link, &a) in layer.iter().zip(&ancestor) {
                let entry = &mut best[a as usize];
                let value = link.value(per_line);
                if entry.is_none_or(|(deepest, v)| k > deepest || value > v) {
                    *entry = Some((k, value));
                }
            }
        }
        for (i, found) in best.iter().enumerate() {
            let (Some(at), Some((deepest, value))) = (slot[i], found) else {
                continue;
            };
            // Plies first, then the value: far enough apart that no value
            // can outweigh a ply.
            let ahead = *deepest as f64 * 1e12 + value.clamp(-1e11, 1e11);
            candidates[at].ahead = Some(ahead);
            candidates[at].next_tops_out = Some(*deepest == 0 && self.layers.len() > 1);
        }
    }
}

/// Chunks a ply is cut into: more than the cores, so a core slowed by
/// other work does not hold the ply up.
const EXPANDERS: usize = 8;

/// The working memory of one chunk of a ply.
#[derive(Default)]
struct Expander {
    movegen: MoveGen,
    predict: MoveGen,
    /// The index of the chunk's first board in the frontier.
    offset: usize,
    /// The adversary's piece for each board of the chunk.
    predicted: Vec<Option<PieceKind>>,
    /// The children that do not top out, with their boards' fingerprints.
    children: Vec<(Link, u64)>,
}

impl Expander {
    /// Expands `boards` (frontier entries from `offset` on, their links in
    /// `links`): the adversary's piece and all its landings that survive.
    fn expand(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        pieces: &[PieceKind],
        boards: &[Board],
        links: &[Link],
        offset: usize,
    ) {
        self.offset = offset;
        self.predicted.clear();
        self.children.clear();
        for (k, board) in boards.iter().enumerate() {
            let i = offset + k;
            let predicted =
                super::feeder::hatetris_piece(&mut self.predict, position, board, pieces);
            self.predicted.push(predicted);
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
                    parent: i as u32,
                    placement: *p,
                    lines: links[i].lines + metrics.lines_cleared,
                    eval: evaluate(difficulty, &metrics),
                    next: None,
                };
                self.children.push((link, fingerprint(&after)));
            }
        }
    }
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
