//! One Monte Carlo search tree of the expert, over the current round.
//!
//! Nodes hold no state: a node's table is its root's table with the moves
//! of its path played, recomputed while descending (a copy and a `play`
//! per level cost less than storing a 300-byte table per node, and keep a
//! node at 20 bytes, so a tree of millions of nodes stays in memory
//! bounds). Children of a node sit side by side in `nodes`.
//!
//! A tree outlives its decision: [`Tree::reroot`] finds the table the
//! game reached since (the expert's move and the replies) among the
//! tree's nodes and keeps that subtree, statistics and all.

use rand::Rng;

use super::ExpertSettings;
use super::hard::search_moves;
use super::playout::playout;
use crate::rules::{Move, MoveList, State};

/// One node: the move that led here, credited to the player who made it.
#[derive(Debug, Clone, Copy)]
struct Node {
    mv: Move,
    /// The player who made `mv` (`u8::MAX` at the root).
    mover: u8,
    expanded: bool,
    child_count: u16,
    first_child: u32,
    visits: u32,
    reward: f32,
}

impl Node {
    fn new(mv: Move, mover: u8) -> Self {
        Self {
            mv,
            mover,
            expanded: false,
            child_count: 0,
            first_child: 0,
            visits: 0,
            reward: 0.0,
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + usize::from(self.child_count)
    }
}

/// One root move's statistics, for merging trees and explaining.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct RootChild {
    pub(super) mv: Move,
    pub(super) visits: u64,
    pub(super) reward: f64,
}

/// A search tree rooted at one table.
pub(super) struct Tree {
    root: State,
    nodes: Vec<Node>,
    /// Most nodes this tree may hold (expansion stops there; playouts go
    /// on from the leaves).
    max_nodes: usize,
    path: Vec<u32>,
    moves: MoveList,
}

impl Tree {
    /// An empty tree at `root`.
    pub(super) fn new(root: State, max_nodes: usize) -> Self {
        let mut nodes = Vec::with_capacity(max_nodes.min(1 << 16));
        nodes.push(Node::new(Move::default(), u8::MAX));
        Self {
            root,
            nodes,
            max_nodes: max_nodes.max(1),
            path: Vec::with_capacity(64),
            moves: MoveList::default(),
        }
    }

    /// The table at the root.
    pub(super) fn root(&self) -> &State {
        &self.root
    }

    /// Nodes held.
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Playouts through the root so far (reused ones included).
    pub(super) fn root_visits(&self) -> u32 {
        self.nodes[0].visits
    }

    /// One iteration: select by UCT, expand a visited leaf inside the
    /// round, play out a whole game from it, credit every node on the path
    /// with its mover's reward. The hot loop of the expert.
    pub(super) fn iterate<R: Rng + ?Sized>(&mut self, rng: &mut R, s: &ExpertSettings) {
        let mut state = self.root;
        self.path.clear();
        let mut at = 0usize;
        self.path.push(0);
        // Selection.
        loop {
            let node = &self.nodes[at];
            if !node.expanded || node.child_count == 0 {
                break;
            }
            let log_n = f64::from(node.visits.max(1)).ln();
            let mut best = node.first_child as usize;
            let mut best_ucb = f64::NEG_INFINITY;
            let widened = if s.widening > 0.0 {
                2 + f64::from(node.visits).powf(s.widening) as usize
            } else {
                usize::MAX
            };
            for c in node.children().take(widened) {
                let child = &self.nodes[c];
                let ucb = if child.visits == 0 {
                    f64::INFINITY
                } else {
                    let visits = f64::from(child.visits);
                    f64::from(child.reward) / visits + s.exploration * (log_n / visits).sqrt()
                };
                if ucb > best_ucb {
                    best_ucb = ucb;
                    best = c;
                }
            }
            at = best;
            state.play(self.nodes[at].mv);
            self.path.push(at as u32);
            if self.nodes[at].visits == 0 {
                break;
            }
        }
        // Expansion: visited nodes inside the round (the round's end is a
        // chance event, left to the playout), while the tree has room.
        let leaf = self.nodes[at];
        if !leaf.expanded
            && leaf.visits > 0
            && (state.on_table > 0 || state.tiling)
            && !state.over
            && self.nodes.len() + crate::rules::MAX_MOVES <= self.max_nodes
        {
            search_moves(&state, &mut self.moves);
            let first = self.nodes.len();
            for &m in self.moves.as_slice() {
                self.nodes.push(Node::new(m, state.to_move));
            }
            let node = &mut self.nodes[at];
            node.expanded = true;
            node.first_child = first as u32;
            node.child_count = self.moves.len() as u16;
            if let Some(&m) = self.moves.as_slice().first() {
                at = first;
                state.play(m);
                self.path.push(at as u32);
            }
        }
        // Simulation from the chosen node, with future deals from our own
        // stream (a fresh determinisation every playout).
        let result = playout(state, rng, s);
        // Backpropagation: each node is credited with its mover's reward.
        for &i in &self.path {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            if node.mover != u8::MAX {
                node.reward += result[node.mover as usize] as f32;
            }
        }
    }

    /// The root's children, in the order they were generated.
    pub(super) fn root_children(&self) -> Vec<RootChild> {
        self.nodes[0]
            .children()
            .map(|c| {
                let n = &self.nodes[c];
                RootChild {
                    mv: n.mv,
                    visits: u64::from(n.visits),
                    reward: f64::from(n.reward),
                }
            })
            .collect()
    }

    /// The subtree of the root move `mv`, as a tree of its own; `None`
    /// when that move is not a root child or its subtree holds more than
    /// `max_len` nodes (counted before anything is copied, so keeping a
    /// subtree never holds two large trees at once).
    pub(super) fn after(&self, mv: Move, max_len: usize) -> Option<Tree> {
        let child = self.nodes[0].children().find(|&c| self.nodes[c].mv == mv)?;
        let mut count = 0;
        let mut stack = vec![child];
        while let Some(i) = stack.pop() {
            count += 1;
            if count > max_len {
                return None;
            }
            stack.extend(self.nodes[i].children());
        }
        let mut state = self.root;
        state.play(mv);
        Some(self.subtree(child, state))
    }

    /// The subtree at the node whose table is `target`, searched up to
    /// `max_depth` moves below the root (the expert's move and each
    /// opponent's reply), as a tree of its own; `None` when no node holds
    /// that table (a new round was dealt, the script changed the rules,
    /// or the replies were never expanded).
    pub(super) fn reroot(&self, target: &State, max_depth: usize) -> Option<Tree> {
        let mut frontier = vec![(0usize, self.root)];
        for _ in 0..max_depth {
            let mut next = Vec::new();
            for (index, state) in frontier {
                for c in self.nodes[index].children() {
                    let mut child = state;
                    child.play(self.nodes[c].mv);
                    if child == *target {
                        return Some(self.subtree(c, child));
                    }
                    if self.nodes[c].expanded {
                        next.push((c, child));
                    }
                }
            }
            if next.is_empty() {
                return None;
            }
            frontier = next;
        }
        None
    }

    /// Copies the subtree at `top` (whose table is `state`) into a tree of
    /// its own, breadth first so children stay side by side.
    fn subtree(&self, top: usize, state: State) -> Tree {
        let mut tree = Tree::new(state, self.max_nodes);
        tree.nodes[0] = Node {
            mover: u8::MAX,
            ..self.nodes[top]
        };
        let mut queue = std::collections::VecDeque::from([(top, 0usize)]);
        while let Some((old, new)) = queue.pop_front() {
            let children = self.nodes[old].children();
            if children.is_empty() {
                continue;
            }
            let first = tree.nodes.len();
            tree.nodes[new].first_child = first as u32;
            for (k, c) in children.enumerate() {
                tree.nodes.push(self.nodes[c]);
                queue.push_back((c, first + k));
            }
        }
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn dealt(seed: u64) -> State {
        let mut state = State::new(Rules::default(), 2);
        state.deal(&mut tessera_host::rng::game_rng(seed), None);
        state
    }

    #[test]
    fn a_rerooted_subtree_keeps_the_statistics_of_the_moves_played() {
        let settings = ExpertSettings::default();
        let mut rng = tessera_host::rng::game_rng(1);
        let root = dealt(3);
        let mut tree = Tree::new(root, 1 << 20);
        for _ in 0..3000 {
            tree.iterate(&mut rng, &settings);
        }
        assert_eq!(tree.root_visits(), 3000);
        // The most visited move, then the opponent's most visited reply.
        let best = |t: &Tree, at: usize| {
            t.nodes[at]
                .children()
                .max_by_key(|&c| t.nodes[c].visits)
                .expect("expanded")
        };
        let mine = best(&tree, 0);
        let reply = best(&tree, mine);
        let mut state = root;
        state.play(tree.nodes[mine].mv);
        state.play(tree.nodes[reply].mv);
        let kept = tree.reroot(&state, 2).expect("the reply's node");
        assert_eq!(*kept.root(), state);
        assert_eq!(kept.root_visits(), tree.nodes[reply].visits);
        // Every node of the subtree came along, children side by side.
        let mut count = 0;
        let mut stack = vec![reply];
        while let Some(i) = stack.pop() {
            count += 1;
            stack.extend(tree.nodes[i].children());
        }
        assert_eq!(kept.len(), count);
        for (i, node) in kept.nodes.iter().enumerate() {
            for c in node.children() {
                assert!(c > i && c < kept.len());
            }
        }
        // Kept after the decision: the played move's subtree, from which
        // the reply is found the same.
        let after = tree
            .after(tree.nodes[mine].mv, usize::MAX)
            .expect("an expanded move");
        assert!(tree.after(tree.nodes[mine].mv, after.len() - 1).is_none());
        assert_eq!(after.root_visits(), tree.nodes[mine].visits);
        assert!(after.len() < tree.len());
        let again = after.reroot(&state, 2).expect("the reply's node");
        assert_eq!(again.len(), kept.len());
        assert_eq!(again.root_visits(), kept.root_visits());
        // A table the tree never saw is not found.
        assert!(tree.reroot(&dealt(4), 2).is_none());
        // The kept tree searches on from its statistics.
        let mut kept = kept;
        let before = kept.root_visits();
        kept.iterate(&mut rng, &settings);
        assert_eq!(kept.root_visits(), before + 1);
    }

    #[test]
    fn progressive_widening_keeps_the_playouts_on_the_first_children() {
        let settings = ExpertSettings {
            widening: 0.3,
            ..ExpertSettings::default()
        };
        let mut rng = tessera_host::rng::game_rng(3);
        let mut tree = Tree::new(dealt(6), 1 << 20);
        for _ in 0..1000 {
            tree.iterate(&mut rng, &settings);
        }
        // 2 + 1000^0.3 = 9.9: the root chose among its first 9 children at
        // most (fewer while it had fewer visits).
        let children = tree.root_children();
        assert!(children.len() > 9, "{}", children.len());
        assert!(children[..9].iter().all(|c| c.visits > 0));
        assert!(children[9..].iter().all(|c| c.visits == 0));
        // Without widening every child is tried.
        let mut tree = Tree::new(dealt(6), 1 << 20);
        for _ in 0..1000 {
            tree.iterate(&mut rng, &ExpertSettings::default());
        }
        assert!(tree.root_children().iter().all(|c| c.visits > 0));
    }

    #[test]
    fn a_node_is_20_bytes() {
        // The memory bound of a move (`expert.max_nodes` x this) rests on it.
        assert_eq!(std::mem::size_of::<Node>(), 20);
    }

    #[test]
    fn a_full_tree_stops_growing_and_keeps_playing() {
        let settings = ExpertSettings::default();
        let mut rng = tessera_host::rng::game_rng(2);
        let mut tree = Tree::new(dealt(5), 2000);
        for _ in 0..2000 {
            tree.iterate(&mut rng, &settings);
        }
        assert!(tree.len() <= 2000, "{}", tree.len());
        assert_eq!(tree.root_visits(), 2000);
    }
}
