//! The expert AI: Monte Carlo tree search over the round, with whole-game
//! playouts whose future deals come from the agent's own random stream.
//!
//! **Root parallelism.** The expert grows `threads` independent trees
//! (0: one per core), one per thread, and plays the move with the most
//! visits summed over all of them. Each tree draws from its own ChaCha8
//! stream, seeded from the decision's agent stream in tree order, and
//! gets an equal share of the playout budget; the trees never share
//! anything while they search. So for a given seed, playout budget and
//! tree count the decision is the same however the threads are scheduled
//! (a time budget, as ever, depends on the machine).
//!
//! **Tree reuse.** After deciding, the trees are kept in the seat's
//! [`ExpertMemory`] (the game holds it). At the seat's next decision each
//! tree is re-rooted at the table the game reached (the expert's move and
//! every opponent's reply), keeping that subtree's playouts; a new round,
//! a script change or replies the tree never expanded start fresh. Reuse
//! depends only on the previous decisions, so it keeps the determinism.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tessera_host::{Decision, GameError, Thinking};

use super::hard::search_moves;
use super::tree::{RootChild, Tree};
use super::{AiSettings, ExpertSettings, top5};
use crate::rules::{MAX_PLAYERS, Move, MoveList, State};

/// The trees each seat's expert kept from its last decision, shared
/// between the game (which outlives agents) and the agents it builds.
#[derive(Clone, Default)]
pub struct ExpertMemory {
    seats: Arc<Mutex<[Vec<Tree>; MAX_PLAYERS]>>,
}

impl ExpertMemory {
    /// Takes `seat`'s trees (none when another decision holds them).
    fn take(&self, seat: usize) -> Vec<Tree> {
        match self.seats.lock() {
            Ok(mut seats) => seats.get_mut(seat).map(std::mem::take).unwrap_or_default(),
            Err(_) => Vec::new(),
        }
    }

    fn put(&self, seat: usize, trees: Vec<Tree>) {
        if let Ok(mut seats) = self.seats.lock()
            && let Some(slot) = seats.get_mut(seat)
        {
            *slot = trees;
        }
    }

    /// Forgets every seat's trees (a new game on the same table).
    pub fn clear(&self) {
        if let Ok(mut seats) = self.seats.lock() {
            *seats = Default::default();
        }
    }
}

/// How many trees (and threads) the expert's settings ask for.
pub fn tree_count(s: &ExpertSettings) -> usize {
    if s.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        s.threads as usize
    }
}

/// One tree's share of the search, run on its own thread.
struct Share {
    tree: Tree,
    rng: ChaCha8Rng,
    /// Playouts this tree may still make in this decision.
    playouts: u64,
    /// Playouts it made.
    made: u64,
}

pub(super) fn expert(
    root: &State,
    settings: &AiSettings,
    memory: Option<(&ExpertMemory, usize)>,
    thinking: &mut Thinking<'_>,
) -> Result<Decision<Move>, GameError> {
    let s = settings.expert;
    let mut moves = MoveList::default();
    search_moves(root, &mut moves);
    if moves.len() == 1 {
        // The search would only ever visit this move (the others it skips
        // are dominated): no time spent.
        return Ok(Decision::just(moves.as_slice()[0]));
    }
    let trees = tree_count(&s).max(1);
    let max_nodes = (s.max_nodes as usize / trees).max(crate::rules::MAX_MOVES + 1);
    let budget = thinking
        .budget
        .nodes
        .map_or(s.playouts, |n| n.min(s.playouts));
    let mut kept = memory.map(|(m, seat)| m.take(seat)).unwrap_or_default();
    // A seat with fewer kept trees than asked for (or none) starts the
    // missing ones fresh: an empty two-player table matches no root.
    kept.resize_with(trees, || Tree::new(State::new(root.rules, 2), 0));
    let players = usize::from(root.players);
    let mut reused = 0u64;
    let mut shares: Vec<Share> = kept
        .into_iter()
        .enumerate()
        .map(|(k, old)| {
            let tree = old
                .reroot(root, players)
                .filter(|t| t.root() == root)
                .unwrap_or_else(|| Tree::new(*root, max_nodes));
            reused += u64::from(tree.root_visits());
            // Budget shares: equal, the first trees taking the remainder.
            let playouts = budget / trees as u64 + u64::from((k as u64) < budget % trees as u64);
            Share {
                tree,
                rng: ChaCha8Rng::seed_from_u64(thinking.rng.random()),
                playouts,
                made: 0,
            }
        })
        .collect();
    let own_time = Duration::from_secs_f64(s.seconds.max(0.0));
    let think: &Thinking<'_> = thinking;
    std::thread::scope(|scope| {
        let (first, rest) = shares.split_at_mut(1);
        for share in rest {
            scope.spawn(move || search(share, &s, think, own_time, false));
        }
        search(&mut first[0], &s, think, own_time, true);
    });
    let made: u64 = shares.iter().map(|sh| sh.made).sum();
    thinking.count_nodes(made);
    let decision = decide(&shares, root, &mut moves, thinking.is_cancelled(), made)?;
    let nodes: usize = shares.iter().map(|sh| sh.tree.len()).sum();
    thinking.note(format!(
        "{made} playouts ({reused} reused) on {trees} trees, {nodes} nodes"
    ));
    if let Some((memory, seat)) = memory {
        // Keep only the subtree of the move played (the replies are all
        // below it), and none beyond a seat's share of the node bound, so
        // the trees every seat keeps between its moves stay within memory
        // bounds while another seat thinks.
        let keep = s.max_nodes as usize / MAX_PLAYERS / trees;
        let played = decision.action;
        let kept = shares
            .iter()
            .map(|sh| {
                sh.tree
                    .after(played, keep)
                    .unwrap_or_else(|| Tree::new(State::new(root.rules, 2), 0))
            })
            .collect();
        drop(shares);
        memory.put(seat, kept);
    }
    Ok(decision)
}

/// Grows one tree until its share of playouts, the time or the budget is
/// spent, or the decision is cancelled. `main` reports progress.
fn search(
    share: &mut Share,
    s: &ExpertSettings,
    thinking: &Thinking<'_>,
    own_time: Duration,
    main: bool,
) {
    while share.made < share.playouts {
        if share.made > 0 && share.made.is_multiple_of(64) {
            let elapsed = thinking.elapsed();
            if thinking.is_cancelled()
                || elapsed >= own_time
                || thinking.budget.time.is_some_and(|max| elapsed >= max)
            {
                return;
            }
            if main {
                let limit = thinking
                    .budget
                    .time
                    .map_or(own_time, |t| t.min(own_time))
                    .as_secs_f64();
                thinking.progress(elapsed.as_secs_f64() / limit.max(1e-9));
            }
        }
        share.tree.iterate(&mut share.rng, s);
        share.made += 1;
    }
}

/// The most visited root move over all trees, and the top five for the
/// "why" panel (value: the mean reward).
fn decide(
    shares: &[Share],
    root: &State,
    moves: &mut MoveList,
    cancelled: bool,
    made: u64,
) -> Result<Decision<Move>, GameError> {
    let mut merged: Vec<RootChild> = Vec::new();
    for share in shares {
        for child in share.tree.root_children() {
            match merged.iter_mut().find(|m| m.mv == child.mv) {
                Some(m) => {
                    m.visits += child.visits;
                    m.reward += child.reward;
                }
                None => merged.push(child),
            }
        }
    }
    if merged.is_empty() {
        if cancelled && made == 0 {
            return Err(GameError::Cancelled);
        }
        // No time to expand: fall back on the search move ordering.
        search_moves(root, moves);
        return Ok(Decision::just(moves.as_slice()[0]));
    }
    let scored: Vec<(Move, f64, String)> = merged
        .iter()
        .map(|c| {
            let mean = if c.visits > 0 {
                c.reward / c.visits as f64
            } else {
                0.0
            };
            // Most visited first (the mean breaks ties).
            (
                c.mv,
                c.visits as f64 + mean * 1e-3,
                format!("{} visits, mean reward {mean:.3}", c.visits),
            )
        })
        .collect();
    let means: Vec<(Move, f64)> = merged
        .iter()
        .map(|c| (c.mv, c.reward / c.visits.max(1) as f64))
        .collect();
    let mut decision = top5(scored);
    // Show the mean reward as the value (visits decided the order).
    for c in &mut decision.considered {
        if let Some(&(_, mean)) = means.iter().find(|(m, _)| super::describe(*m) == c.action) {
            c.value = mean;
        }
    }
    Ok(decision)
}
