//! The expert AI: Monte Carlo tree search over the round, with whole-game
//! playouts whose future deals come from the agent's own random stream.

use std::time::{Duration, Instant};

use rand::Rng;
use tessera_host::{Decision, GameError, Thinking};

use super::hard::{quick_key, search_moves};
use super::{AiSettings, ExpertSettings, top5};
use crate::rules::{MAX_PLAYERS, Move, MoveList, State};

/// One tree node: the move that led here and its statistics, credited to
/// the player who made that move.
struct Node {
    state: State,
    mover: u8,
    mv: Move,
    visits: u32,
    reward: f64,
    children: Vec<u32>,
    expanded: bool,
}

/// A greedy-with-noise move for playouts.
#[inline]
fn playout_move<R: Rng + ?Sized>(state: &State, moves: &MoveList, rng: &mut R, eps: f64) -> Move {
    let slice = moves.as_slice();
    if rng.random::<f64>() < eps {
        return slice[rng.random_range(0..slice.len())];
    }
    let mut best = slice[0];
    let mut best_key = i32::MIN;
    for &m in slice {
        let key = quick_key(state, m) * 8 + rng.random_range(0..8);
        if key > best_key {
            best_key = key;
            best = m;
        }
    }
    best
}

/// Plays `state` to the end with the playout policy, dealing future rounds
/// from the bag with `rng`; returns each player's reward.
fn playout<R: Rng + ?Sized>(
    mut state: State,
    rng: &mut R,
    s: &ExpertSettings,
) -> [f64; MAX_PLAYERS] {
    let mut moves = MoveList::default();
    let mut guard = 0;
    while !state.over && guard < 1000 {
        guard += 1;
        if state.on_table == 0 {
            // Grey wall: a tiling under way goes on by the heuristic.
            state.tile_walls();
            if !state.over {
                state.deal(rng, None);
            }
            continue;
        }
        state.legal_moves(&mut moves);
        let m = playout_move(&state, &moves, rng, s.epsilon);
        state.play(m);
    }
    rewards(&state, s)
}

/// Each player's reward, 0..1, for a finished game: a share `own_weight`
/// for the player's own score (`score_scale` points earn all of it), the
/// rest for the contest: a share `win_weight` for winning (ties shared),
/// the rest for the margin over the best other player, squashed by tanh
/// (`margin_scale` points earn 0.88 of it).
fn rewards(state: &State, s: &ExpertSettings) -> [f64; MAX_PLAYERS] {
    let n = state.players as usize;
    let (winners, count) = state.winners();
    let mut out = [0.0; MAX_PLAYERS];
    for p in 0..n {
        let score = state.boards[p].score;
        let best_other = (0..n)
            .filter(|&q| q != p)
            .map(|q| state.boards[q].score)
            .max()
            .unwrap_or(0);
        let margin = f64::from(score - best_other);
        let margin_part = 0.5 + 0.5 * (margin / s.margin_scale).tanh();
        let win = if winners[p] { 1.0 / count as f64 } else { 0.0 };
        let contest = s.win_weight * win + (1.0 - s.win_weight) * margin_part;
        let own = (f64::from(score) / s.score_scale).clamp(0.0, 1.0);
        out[p] = (1.0 - s.own_weight) * contest + s.own_weight * own;
    }
    out
}

pub(super) fn expert(
    root: &State,
    settings: &AiSettings,
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
    let started = Instant::now();
    let own_time = Duration::from_secs_f64(s.seconds.max(0.0));
    let mut nodes: Vec<Node> = Vec::with_capacity(1 << 16);
    nodes.push(Node {
        state: *root,
        mover: u8::MAX,
        mv: Move::default(),
        visits: 0,
        reward: 0.0,
        children: Vec::new(),
        expanded: false,
    });
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut playouts = 0u64;
    const MAX_NODES: usize = 2_000_000;
    loop {
        if playouts > 0 && playouts.is_multiple_of(64) {
            thinking.count_nodes(64);
            if thinking.should_stop() || started.elapsed() >= own_time {
                break;
            }
            thinking.progress(started.elapsed().as_secs_f64() / s.seconds.max(1e-9));
        }
        if playouts >= s.playouts {
            break;
        }
        // Selection.
        path.clear();
        let mut at = 0u32;
        path.push(at);
        loop {
            let node = &nodes[at as usize];
            if !node.expanded || node.children.is_empty() {
                break;
            }
            let log_n = f64::from(node.visits.max(1)).ln();
            let mut best = node.children[0];
            let mut best_ucb = f64::NEG_INFINITY;
            for &c in &node.children {
                let child = &nodes[c as usize];
                let ucb = if child.visits == 0 {
                    f64::INFINITY
                } else {
                    child.reward / f64::from(child.visits)
                        + s.exploration * (log_n / f64::from(child.visits)).sqrt()
                };
                if ucb > best_ucb {
                    best_ucb = ucb;
                    best = c;
                }
            }
            at = best;
            path.push(at);
            if nodes[at as usize].visits == 0 {
                break;
            }
        }
        // Expansion: nodes inside the round (the round's end is a chance
        // event, left to the playout).
        let leaf = at as usize;
        if !nodes[leaf].expanded
            && nodes[leaf].visits > 0
            && (nodes[leaf].state.on_table > 0 || nodes[leaf].state.tiling)
            && !nodes[leaf].state.over
            && nodes.len() < MAX_NODES
        {
            let state = nodes[leaf].state;
            search_moves(&state, &mut moves);
            let first = nodes.len() as u32;
            for &m in moves.as_slice() {
                let mut child = state;
                child.play(m);
                nodes.push(Node {
                    state: child,
                    mover: state.to_move,
                    mv: m,
                    visits: 0,
                    reward: 0.0,
                    children: Vec::new(),
                    expanded: false,
                });
            }
            let last = nodes.len() as u32;
            nodes[leaf].children = (first..last).collect();
            nodes[leaf].expanded = true;
            if first < last {
                at = first;
                path.push(at);
            }
        } else if !nodes[leaf].expanded && nodes[leaf].visits == 0 {
            nodes[leaf].expanded = false;
        }
        // Simulation from the chosen node, with future deals from our own
        // stream (a fresh determinisation every playout).
        let result = playout(nodes[at as usize].state, thinking.rng, &s);
        playouts += 1;
        // Backpropagation: each node is credited with its mover's reward.
        for &i in &path {
            let node = &mut nodes[i as usize];
            node.visits += 1;
            if node.mover != u8::MAX {
                node.reward += result[node.mover as usize];
            }
        }
    }
    let root_node = &nodes[0];
    if root_node.children.is_empty() {
        if thinking.is_cancelled() && playouts == 0 {
            return Err(GameError::Cancelled);
        }
        // No time to expand: fall back on the search move ordering.
        search_moves(root, &mut moves);
        return Ok(Decision::just(moves.as_slice()[0]));
    }
    let scored: Vec<(Move, f64, String)> = root_node
        .children
        .iter()
        .map(|&c| {
            let child = &nodes[c as usize];
            let mean = if child.visits > 0 {
                child.reward / f64::from(child.visits)
            } else {
                0.0
            };
            // Most visited first; the value shown is the mean reward.
            (
                child.mv,
                f64::from(child.visits) + mean * 1e-3,
                format!("{} visits, mean reward {mean:.3}", child.visits),
            )
        })
        .collect();
    thinking.note(format!("{playouts} playouts, {} nodes", nodes.len()));
    let mut decision = top5(scored);
    // Show the mean reward as the value (visits decided the order).
    for c in &mut decision.considered {
        if let Some(mean) = c
            .detail
            .split("mean reward ")
            .nth(1)
            .and_then(|v| v.parse::<f64>().ok())
        {
            c.value = mean;
        }
    }
    Ok(decision)
}

/// Plays one whole game with random legal moves from `state` (the speed
/// figure's unit of work). Returns the number of moves played.
pub fn random_playout<R: Rng + ?Sized>(state: &mut State, rng: &mut R) -> u32 {
    let mut played = 0;
    while let Some(m) = state.random_move(rng) {
        state.step(m, rng);
        played += 1;
    }
    played
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn expert_rewards_mix_own_score_and_the_contest() {
        let mut s = State::new(Rules::default(), 2);
        s.boards[0].score = 60;
        s.boards[1].score = 50;
        s.over = true;
        let settings = ExpertSettings::default();
        let r = rewards(&s, &settings);
        // Winner: 0.7 x 0.6 + 0.3 x (0.5 x 1 + 0.5 x (0.5 + 0.5 tanh(0.5))).
        let margin = 0.5 + 0.5 * 0.5f64.tanh();
        assert!((r[0] - (0.42 + 0.3 * (0.5 + 0.5 * margin))).abs() < 1e-12);
        // Loser: 0.7 x 0.5 + 0.3 x 0.5 x (0.5 - 0.5 tanh(0.5)).
        assert!((r[1] - (0.35 + 0.15 * (1.0 - margin))).abs() < 1e-12);
        // Only the contest: the old, win-only expert's rewards.
        let contest = ExpertSettings {
            own_weight: 0.0,
            ..settings
        };
        let r = rewards(&s, &contest);
        assert!((r[0] - (0.5 + 0.5 * margin)).abs() < 1e-12);
        assert!((r[0] + r[1] - 1.0).abs() < 1e-12);
        // Scores past `score_scale` earn no more.
        s.boards[0].score = 130;
        let own = ExpertSettings {
            own_weight: 1.0,
            ..settings
        };
        assert_eq!(rewards(&s, &own)[0], 1.0);
        assert_eq!(rewards(&s, &own)[1], 0.5);
    }
}
