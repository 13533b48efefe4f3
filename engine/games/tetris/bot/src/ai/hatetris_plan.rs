//! The planner against HATETRIS (`adversary = "height"`, `line_lead > 0`):
//! a plan for the whole game, improved a few moves ahead while it is
//! played.
//!
//! The `hatetris` feeder is deterministic and the `height` adversary
//! predicts its piece exactly, so a line of moves to the end of the game
//! (the offline search's answer, [`GameBeam`]) is a plan that can really
//! be played. The planner keeps one:
//!
//! - The first decision (or one the plan does not know: an undo, another
//!   feeder) plans afresh, with a whole-game beam as wide as one
//!   decision's budget allows.
//! - Each later decision spends its budget (`line_step` plies' worth of
//!   `line_beam` boards) on a wider whole-game beam rooted at the plan's
//!   position `line_lead` moves ahead, and plays the plan's next move
//!   meanwhile. When that beam is over, or the game reaches its root, its
//!   best line replaces the rest of the plan if it clears more rows (then
//!   lasts longer); the next such beam is rooted `line_lead` moves ahead
//!   again.
//!
//! The plan is only ever replaced by a better one, so the game clears at
//! least the rows the first plan promised; each later beam is rooted
//! deeper in the game, where the same width sees further. Every decision
//! does a bounded amount of work, the same on any machine, so a game is
//! the same game every time.

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;

use super::hatetris_offline::{GameBeam, RootShare};
use super::hatetris_search::same_rules;
use super::{Candidate, Difficulty, Position, UnknownNext, cancelled};
use tessera_tetris::movegen::{MoveGen, Placement, after_lock};

/// The plies a planner's beam may hold, for its memory
/// ([`super::limits`]): a line this long clears far more rows than any
/// game against HATETRIS has. A beam stops there.
pub const PLAN_PLIES: u16 = 256;

/// The game length the first plan's width is sized for: one decision's
/// budget spread over this many plies.
const FIRST_PLAN_PLIES: usize = 128;

/// Plies a planner's beam is expected to add to the plan's rest, when its
/// width is chosen.
const EXPECTED_EXTRA_PLIES: usize = 8;

/// What the last decision did (the AI log and the tests read it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlanStats {
    /// Whether the decision followed the plan (`false`: it planned afresh).
    pub followed: bool,
    /// Boards the decision expanded.
    pub expanded: u64,
    /// Moves left in the plan after this one.
    pub plan_moves: usize,
    /// Rows the plan promises from this decision on.
    pub plan_lines: u32,
    /// Whether this decision's search replaced the rest of the plan.
    pub improved: bool,
}

/// A whole-game beam being built over several decisions.
struct Pending {
    /// Moves of the plan to be played before its root.
    lead: usize,
    /// Rows the plan clears from the next decision's position to the root.
    lines_before: u32,
    /// Boards a ply.
    width: usize,
    beam: GameBeam,
}

/// The plan and the beam that may improve it, kept from decision to
/// decision.
#[derive(Default)]
pub(super) struct HatetrisPlanner {
    /// The position the plan's first move is for, and the difficulty it
    /// was made with.
    at: Option<(Position, Difficulty)>,
    plan: VecDeque<Placement>,
    /// Rows the plan clears from `at`.
    plan_lines: u32,
    pending: Option<Pending>,
    predict: MoveGen,
    stats: PlanStats,
}

impl HatetrisPlanner {
    /// What the last decision did.
    pub(super) fn stats(&self) -> PlanStats {
        self.stats
    }

    /// Ranks the plan's move first: it alone gets a lookahead value (the
    /// rows the plan promises), every other candidate keeps none.
    /// Stops early once `cancel` is set, the plan half-made (the caller
    /// then drops the planner with its brain).
    pub(super) fn search(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        candidates: &mut [Candidate],
        cancel: &AtomicBool,
    ) {
        let width = difficulty.line_beam_on(position.board.width()).max(1);
        let budget = (width * usize::from(difficulty.line_step.max(1))) as u64;
        let followed = self
            .at
            .as_ref()
            .is_some_and(|(at, with)| with == difficulty && same_state(at, position))
            && !self.plan.is_empty();
        let (expanded, improved) = if followed {
            self.improve(position, difficulty, (width, budget), cancel)
        } else {
            (
                self.plan_afresh(position, difficulty, budget, cancel),
                false,
            )
        };
        if cancelled(cancel) {
            return;
        }
        for c in candidates.iter_mut() {
            c.ahead = None;
            c.next_tops_out = None;
        }
        let next = self.plan.front().copied();
        if let Some(c) = next.and_then(|p| candidates.iter_mut().find(|c| c.placement == p)) {
            c.ahead = Some(f64::from(self.plan_lines));
            c.next_tops_out = Some(false);
        }
        self.stats = PlanStats {
            followed,
            expanded,
            plan_moves: self.plan.len().saturating_sub(1),
            plan_lines: self.plan_lines,
            improved,
        };
        self.play_first(position, difficulty);
    }

    /// A new plan from `position`: a whole-game beam of one decision's
    /// budget. Returns the boards expanded.
    fn plan_afresh(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        budget: u64,
        cancel: &AtomicBool,
    ) -> u64 {
        self.at = Some((position.clone(), difficulty.clone()));
        self.plan.clear();
        self.plan_lines = 0;
        self.pending = None;
        let width = (budget as usize / FIRST_PLAN_PLIES).max(1);
        let Some(mut beam) = GameBeam::new(position, difficulty, RootShare::WHOLE) else {
            return 0;
        };
        let expanded = run(&mut beam, difficulty, (width, budget), cancel);
        if let Some((lines, moves)) = beam.line() {
            self.plan.extend(moves);
            self.plan_lines = lines;
        }
        expanded
    }

    /// Spends `budget` on the pending beam (starting one first when there
    /// is none) and splices its line into the plan when it is over.
    /// Returns the boards expanded and whether the plan changed.
    fn improve(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        (width, budget): (usize, u64),
        cancel: &AtomicBool,
    ) -> (u64, bool) {
        if self.pending.is_none() {
            self.pending = self.start_pending(position, difficulty, (width, budget));
        }
        let Some(pending) = &mut self.pending else {
            return (0, false);
        };
        let expanded = run(
            &mut pending.beam,
            difficulty,
            (pending.width, budget),
            cancel,
        );
        if cancelled(cancel) {
            return (expanded, false);
        }
        if !(pending.beam.over()
            || pending.lead == 0
            || pending.beam.plies() >= usize::from(PLAN_PLIES))
        {
            return (expanded, false);
        }
        let Some(done) = self.pending.take() else {
            return (expanded, false);
        };
        let Some((lines, moves)) = done.beam.line() else {
            return (expanded, false);
        };
        let rest = (
            self.plan_lines.saturating_sub(done.lines_before),
            self.plan.len().saturating_sub(done.lead),
        );
        if (lines, moves.len()) <= rest {
            return (expanded, false);
        }
        self.plan.truncate(done.lead);
        self.plan.extend(moves);
        self.plan_lines = done.lines_before + lines;
        (expanded, true)
    }

    /// A beam rooted at the plan's position `line_lead` moves ahead (fewer
    /// when the plan is shorter: its last move's position at most), as
    /// wide as the decisions before its root can build over the plies the
    /// plan has left there (a quarter more, and some), `max_width` at
    /// most: the shorter the game left, the wider the beam.
    fn start_pending(
        &mut self,
        position: &Position,
        difficulty: &Difficulty,
        (max_width, budget): (usize, u64),
    ) -> Option<Pending> {
        let lead = usize::from(difficulty.line_lead).min(self.plan.len().saturating_sub(1));
        let UnknownNext::Worst(pieces) = &position.unknown_next else {
            return None;
        };
        let mut root = position.clone();
        let mut lines_before = 0;
        for p in self.plan.iter().take(lead) {
            let (board, cleared) = after_lock(&root.board, p);
            lines_before += cleared;
            root.piece = super::feeder::hatetris_piece(&mut self.predict, &root, &board, pieces)?;
            root.board = board;
        }
        let beam = GameBeam::new(&root, difficulty, RootShare::WHOLE)?;
        let plies_left = self.plan.len() - lead;
        let expected = plies_left + plies_left / 4 + EXPECTED_EXTRA_PLIES;
        let decisions = (lead + 1) as u64;
        let width = usize::try_from(budget * decisions / expected as u64)
            .unwrap_or(usize::MAX)
            .clamp(1, max_width);
        Some(Pending {
            lead,
            lines_before,
            width,
            beam,
        })
    }

    /// Plays the plan's first move: the next decision is expected at the
    /// board it leaves with HATETRIS's piece there.
    fn play_first(&mut self, position: &Position, difficulty: &Difficulty) {
        let (Some(p), UnknownNext::Worst(pieces)) = (self.plan.pop_front(), &position.unknown_next)
        else {
            self.at = None;
            return;
        };
        let (board, cleared) = after_lock(&position.board, &p);
        self.plan_lines = self.plan_lines.saturating_sub(cleared);
        let piece = super::feeder::hatetris_piece(&mut self.predict, position, &board, pieces);
        self.at = piece.map(|piece| {
            (
                Position {
                    board,
                    piece,
                    ..position.clone()
                },
                difficulty.clone(),
            )
        });
        // The pending beam's root is a move nearer, and the rows before it
        // are counted from the next position.
        if let Some(pending) = &mut self.pending {
            pending.lead = pending.lead.saturating_sub(1);
            pending.lines_before = pending.lines_before.saturating_sub(cleared);
        }
    }
}

/// Whether the game is where the plan expects it: the same board and
/// piece under the same rules (a feed game's count of the reader's pieces,
/// which HATETRIS's lines do not read, may differ).
fn same_state(expected: &Position, position: &Position) -> bool {
    expected.board == position.board
        && expected.piece == position.piece
        && expected.ceiling == position.ceiling
        && same_rules(expected, position)
}

/// Adds plies of `width` boards to `beam` while its work stays within
/// `budget` boards (at least one ply), until it is over or holds
/// [`PLAN_PLIES`], or `cancel` is set. Returns the boards expanded.
fn run(
    beam: &mut GameBeam,
    difficulty: &Difficulty,
    (width, budget): (usize, u64),
    cancel: &AtomicBool,
) -> u64 {
    let mut expanded = 0u64;
    while !beam.over() && beam.plies() < usize::from(PLAN_PLIES) && !cancelled(cancel) {
        let cost = beam.frontier() as u64;
        if expanded > 0 && expanded + cost > budget {
            break;
        }
        expanded += cost;
        if !beam.advance(difficulty, width, cancel) {
            break;
        }
    }
    expanded
}
