//! The offline search against HATETRIS (`tessera tetris hatetris
//! --offline`): the whole game as one beam, with no time limit a decision.
//!
//! The `hatetris` feeder's piece is a function of the well, so the game is
//! a one-player tree and a line of moves is a whole game. A round is one
//! beam over that tree from the first piece to the last ply any line
//! survives: the ply's boards are expanded with the kept search's own
//! step ([`HatetrisSearch::extend`]: HATETRIS's piece on each board, all
//! its landings, each board once, the best `width` kept by rows cleared
//! then the board's evaluation), and nothing is decided until the beam
//! dies. The rounds widen (each twice the one before), and the line that
//! cleared the most rows in any round is the answer.
//!
//! The tree keeps its older plies as compact steps (the parent and the
//! move), so a wide beam keeps its whole history for the line's moves. A shard takes
//! every `of`-th landing of the first piece; the shards' best lines
//! together are the unsharded search's best line whenever the first move
//! of that line is kept in its shard's beam.

use std::sync::atomic::AtomicBool;

use super::hatetris_search::HatetrisSearch;
use super::metrics::{BeforeMove, Metric};
use super::{Candidate, Difficulty, Position, UnknownNext};
use tessera_tetris::movegen::{MoveGen, Placement};

/// Which landings of the first piece a search takes: the `index`-th of
/// every `of` (1-based), in the move generator's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootShare {
    /// 1-based.
    pub index: usize,
    /// Shares in all.
    pub of: usize,
}

impl RootShare {
    /// Every landing.
    pub const WHOLE: RootShare = RootShare { index: 1, of: 1 };

    fn takes(&self, landing: usize) -> bool {
        landing % self.of.max(1) == self.index.saturating_sub(1)
    }
}

/// The best line a search found: the moves from the first piece on.
#[derive(Debug, Clone, PartialEq)]
pub struct OfflineLine {
    /// Rows the line clears.
    pub lines: u32,
    /// Its moves, one a piece, the first for the position searched from.
    pub moves: Vec<Placement>,
    /// The beam width of the round that found it.
    pub width: usize,
}

/// Where a search is, for a progress line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OfflineProgress {
    /// The round's beam width.
    pub width: usize,
    /// Plies the round's beam has reached.
    pub ply: usize,
    /// Boards at that ply.
    pub frontier: usize,
    /// The most rows any line of this round cleared so far.
    pub round_best: u32,
    /// The most rows of any round so far.
    pub best: u32,
}

/// Runs rounds of widths `first_width`, twice that, ... up to
/// `max_width`, from `position`, taking the landings `share` names of its
/// piece, until the last round ends or `stop` says so (checked between
/// plies); the best line of them all (most rows, then the longest).
/// `None` when no landing of the first piece survives.
pub fn search(
    position: &Position,
    difficulty: &Difficulty,
    (first_width, max_width): (usize, usize),
    share: RootShare,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(&OfflineProgress),
) -> Option<OfflineLine> {
    let mut best: Option<OfflineLine> = None;
    let mut width = first_width.max(1);
    loop {
        let known = best.as_ref().map_or(0, |b| b.lines);
        let found = round(position, difficulty, width, share, stop, &mut |p| {
            progress(&OfflineProgress {
                best: p.round_best.max(known),
                ..*p
            })
        });
        if let Some(line) = found
            && best
                .as_ref()
                .is_none_or(|b| (line.lines, line.moves.len()) > (b.lines, b.moves.len()))
        {
            best = Some(line);
        }
        if stop() || width >= max_width {
            return best;
        }
        width = width.saturating_mul(2).min(max_width);
    }
}

/// One beam of `width` boards a ply over the whole game.
fn round(
    position: &Position,
    difficulty: &Difficulty,
    width: usize,
    share: RootShare,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(&OfflineProgress),
) -> Option<OfflineLine> {
    let mut beam = GameBeam::new(position, difficulty, share)?;
    // The offline search stops between plies by `stop` (its deadline and
    // Ctrl+C), so its plies run whole.
    let whole = AtomicBool::new(false);
    while !stop() && beam.advance(difficulty, width, &whole) {
        progress(&OfflineProgress {
            width,
            ply: beam.ply,
            frontier: beam.frontier(),
            round_best: beam.best_lines(),
            best: 0,
        });
    }
    let (lines, moves) = beam.line()?;
    Some(OfflineLine {
        lines,
        moves,
        width,
    })
}

/// One beam over the whole game from a position, a ply at a time: the
/// offline search's round, and the planner's searches
/// (`hatetris_plan.rs`), which each decision advances by its budget.
pub(super) struct GameBeam {
    /// The position the lines start at.
    root: Position,
    tree: HatetrisSearch,
    /// The best board so far: its rows, its ply, its index there (the
    /// tree keeps every ply, older ones compact, for its line's moves).
    best: Option<(u32, usize, usize)>,
    /// Plies added to the first one (the first piece's landings).
    ply: usize,
    /// Whether a ply can still be added (some line survived the last).
    alive: bool,
}

impl GameBeam {
    /// The first ply: the landings of `position.piece` that `share` takes.
    /// `None` when the position does not expect HATETRIS's piece
    /// (`unknown_next` is not `Worst`).
    pub(super) fn new(
        position: &Position,
        difficulty: &Difficulty,
        share: RootShare,
    ) -> Option<Self> {
        if !matches!(position.unknown_next, UnknownNext::Worst(_)) {
            return None;
        }
        let roots = first_landings(position, difficulty, share);
        let mut tree = HatetrisSearch::default();
        tree.plant(position, difficulty, &roots);
        let mut beam = GameBeam {
            root: position.clone(),
            tree,
            best: None,
            ply: 0,
            alive: true,
        };
        beam.note_best(difficulty);
        Some(beam)
    }

    /// Adds one ply of at most `width` boards; `false` (nothing added)
    /// when no line survives it, or when `cancel` stopped the ply (the
    /// beam as it was, still alive).
    pub(super) fn advance(
        &mut self,
        difficulty: &Difficulty,
        width: usize,
        cancel: &AtomicBool,
    ) -> bool {
        let UnknownNext::Worst(pieces) = &self.root.unknown_next else {
            return false;
        };
        if !self.alive {
            return false;
        }
        let grown = self
            .tree
            .extend(&self.root, difficulty, pieces, width, cancel);
        if !grown && super::cancelled(cancel) {
            // Cut short, not over.
            return false;
        }
        self.alive = grown;
        if self.alive {
            self.ply += 1;
            self.note_best(difficulty);
        }
        self.alive
    }

    /// Boards the next ply expands (those of the deepest ply).
    pub(super) fn frontier(&self) -> usize {
        self.tree.deepest().len()
    }

    /// Plies added to the first.
    pub(super) fn plies(&self) -> usize {
        self.ply
    }

    /// Whether no line survives the next ply (the beam is over).
    pub(super) fn over(&self) -> bool {
        !self.alive || self.tree.deepest().is_empty()
    }

    /// The most rows a line has cleared so far.
    pub(super) fn best_lines(&self) -> u32 {
        self.best.map_or(0, |b| b.0)
    }

    /// The best line so far: its rows and its moves from the root (most
    /// rows, then the deepest; at one ply, the best board's).
    pub(super) fn line(&self) -> Option<(u32, Vec<Placement>)> {
        let (lines, at, index) = self.best?;
        Some((lines, self.tree.line_to(at, index)))
    }

    fn note_best(&mut self, difficulty: &Difficulty) {
        let per_line = difficulty.weights.get(Metric::LinesCleared);
        let top = self
            .tree
            .deepest()
            .iter()
            .enumerate()
            .max_by(|(i, a), (j, b)| {
                a.lines
                    .cmp(&b.lines)
                    .then(a.value(per_line).total_cmp(&b.value(per_line)))
                    .then(j.cmp(i))
            });
        if let Some((i, link)) = top
            && self.best.is_none_or(|(lines, _, _)| link.lines >= lines)
        {
            self.best = Some((link.lines, self.ply, i));
        }
    }
}

/// The landings of the first piece this share takes, measured, in the
/// move generator's order (those that top out are not counted).
pub(super) fn first_landings(
    position: &Position,
    difficulty: &Difficulty,
    share: RootShare,
) -> Vec<Candidate> {
    let before = BeforeMove::new(&position.board);
    let mut movegen = MoveGen::new();
    let spawn = position.spawn(position.piece);
    movegen
        .generate(&position.board, position.piece, position.rotation, spawn)
        .iter()
        .map(|p| {
            let metrics = position.measure(&before, p);
            Candidate {
                placement: *p,
                score: difficulty.weights.score(&metrics),
                metrics,
                ahead: None,
                next_tops_out: None,
                line_plies: None,
            }
        })
        .filter(|c| !c.metrics.game_over)
        .enumerate()
        .filter_map(|(i, c)| share.takes(i).then_some(c))
        .collect()
}

/// HATETRIS's 10 x 20 well, empty, with `piece` to place: where the
/// tests' games against the `hatetris` feeder start.
#[cfg(test)]
pub(crate) fn empty_well(piece: tessera_tetris::piece::PieceKind) -> Position {
    Position {
        board: tessera_tetris::board::Board::new(10, 20),
        piece,
        next: None,
        rotation: tessera_tetris::piece::RotationSystem::Srs,
        spawn_row: 0,
        danger_rows: 1,
        ceiling: Default::default(),
        reader_streak: 0,
        unknown_next: UnknownNext::Worst(tessera_tetris::piece::PieceKind::ALL.to_vec()),
    }
}
