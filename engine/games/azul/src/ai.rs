//! The AI ladder: `easy` (a random legal move), `medium` (the seed's
//! one-move evaluation), `hard` (alpha-beta / paranoid search to the end of
//! the round with move ordering and a transposition table) and `expert`
//! (Monte Carlo tree search over the round, with whole-game playouts whose
//! future deals come from the bag through the agent's own random stream).
//!
//! Every weight comes from the script, read once into [`AiSettings`] when
//! the agent is built; no search calls Lua.
//!
//! Grey wall: a column choice ([`State::pending_choice`]) is a decision
//! like any other. `easy` picks a random legal column; `medium` scores
//! each column by its evaluation ([`evaluate_wall_move`]: the placement's
//! points now plus the end-bonus progress of its column and colour);
//! `hard` searches the choices inside its alpha-beta (every remaining
//! choice of the tiling is a node, for every player) and `expert` expands
//! them in its tree. Choices the searches meet beyond the current tiling
//! (the tiling at the end of a searched round, and in playouts) are made
//! by [`crate::rules::Board::target_column`]: the legal column scoring
//! most, then the fullest column.

use std::time::{Duration, Instant};

use rand::Rng;
use tessera_host::{Agent, Considered, Decision, GameError, Thinking};

use crate::rules::{CENTRE, COLOURS, FLOOR, LINES, MAX_PLAYERS, Move, MoveList, State};
use crate::{Azul, AzulView, move_to_action};

/// The medium AI's weights (the seed's evaluation: immediate score + 0.5
/// future potential - floor risk + 0.3 blocking).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MediumWeights {
    /// Points scored at once when the move completes a line.
    pub immediate: f64,
    /// Progress towards the points of an unfinished line.
    pub potential: f64,
    /// Floor penalty the move causes.
    pub floor_risk: f64,
    /// Tiles denied to an opponent who needs that colour.
    pub blocking: f64,
}

impl Default for MediumWeights {
    fn default() -> Self {
        Self {
            immediate: 1.0,
            potential: 0.5,
            floor_risk: 1.0,
            blocking: 0.3,
        }
    }
}

/// The hard AI's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HardSettings {
    /// Most search nodes per move.
    pub nodes: u64,
    /// Weight of the wall potential (rows, columns, colours near complete)
    /// in end-of-round evaluations.
    pub potential: f64,
    /// Weight of unfinished pattern lines carried to the next round.
    pub carry: f64,
}

impl Default for HardSettings {
    fn default() -> Self {
        Self {
            nodes: 200_000,
            potential: 1.0,
            carry: 0.5,
        }
    }
}

/// The expert AI's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExpertSettings {
    /// Most playouts per move.
    pub playouts: u64,
    /// Most thinking time per move.
    pub seconds: f64,
    /// UCT exploration constant.
    pub exploration: f64,
    /// Chance that a playout move is random rather than greedy.
    pub epsilon: f64,
    /// Share of the reward that is win/loss (the rest is score margin).
    pub win_weight: f64,
    /// Points of margin that earn 0.88 of the margin reward (tanh(1)).
    pub margin_scale: f64,
    /// Share of the reward for the player's own score (the rest is the
    /// contest: win/loss and margin). 0 plays only to win, which in
    /// self-play means low-scoring games of mutual blocking; 1 ignores the
    /// opponent's score.
    pub own_weight: f64,
    /// Points that earn the whole own-score reward.
    pub score_scale: f64,
}

impl Default for ExpertSettings {
    fn default() -> Self {
        Self {
            playouts: 1_000_000,
            seconds: 1.0,
            exploration: 0.7,
            epsilon: 0.15,
            win_weight: 0.5,
            margin_scale: 20.0,
            own_weight: 0.7,
            score_scale: 100.0,
        }
    }
}

/// Everything the AIs read from the script.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AiSettings {
    /// The medium AI's weights.
    pub medium: MediumWeights,
    /// The hard AI's settings.
    pub hard: HardSettings,
    /// The expert AI's settings.
    pub expert: ExpertSettings,
}

/// Which AI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Random legal move.
    Easy,
    /// One-move evaluation.
    Medium,
    /// Search to the end of the round.
    Hard,
    /// MCTS over whole games.
    Expert,
}

impl Level {
    /// The level named `name` (`easy`, `medium`, `hard`, `expert`).
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "easy" => Level::Easy,
            "medium" => Level::Medium,
            "hard" => Level::Hard,
            "expert" => Level::Expert,
            _ => return None,
        })
    }
}

/// An Azul AI player.
pub struct AzulAgent {
    level: Level,
    settings: AiSettings,
}

impl AzulAgent {
    /// An agent at `level` with `settings` already read from the script.
    pub fn new(level: Level, settings: AiSettings) -> Self {
        Self { level, settings }
    }

    /// Decides on a bare state (benches, `tessera sim`, the editor's hint).
    pub fn decide_state(
        &mut self,
        state: &State,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<Move>, GameError> {
        let mut moves = MoveList::default();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(GameError::Illegal("no legal move: the game is over".into()));
        }
        if moves.len() == 1 {
            return Ok(Decision::just(moves.as_slice()[0]));
        }
        Ok(match self.level {
            Level::Easy => {
                thinking.count_nodes(1);
                let m = moves.as_slice()[thinking.rng.random_range(0..moves.len())];
                Decision::just(m)
            }
            Level::Medium => medium(state, &moves, &self.settings.medium, thinking),
            Level::Hard => hard(state, &self.settings.hard, thinking)?,
            Level::Expert => expert(state, &self.settings, thinking)?,
        })
    }
}

impl Agent<Azul> for AzulAgent {
    fn decide(
        &mut self,
        view: &AzulView,
        thinking: &mut Thinking<'_>,
    ) -> Result<Decision<crate::AzulAction>, GameError> {
        let decision = self.decide_state(&view.state, thinking)?;
        Ok(Decision {
            action: move_to_action(decision.action),
            considered: decision.considered,
            explanation: None,
        })
    }
}

/// Words for a move, for the "why" panel.
pub fn describe(m: Move) -> String {
    move_to_action(m).to_string()
}

fn top5(mut scored: Vec<(Move, f64, String)>) -> Decision<Move> {
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    let action = scored[0].0;
    Decision {
        action,
        explanation: None,
        considered: scored
            .into_iter()
            .take(5)
            .map(|(m, value, detail)| Considered {
                action: describe(m),
                value,
                detail,
            })
            .collect(),
    }
}

// ---------------------------------------------------------------- medium

/// The seed's evaluation of one move, with its four parts.
pub fn evaluate_move(state: &State, m: Move, w: &MediumWeights) -> (f64, [f64; 4]) {
    let me = state.to_move as usize;
    let before = state.boards[me];
    let mut after = *state;
    after.play(m);
    let board = after.boards[me];
    let colour = m.colour as usize;
    let mut immediate = 0.0;
    let mut potential = 0.0;
    if m.target != FLOOR
        && let Some(column) = before.target_column(m.target as usize, colour)
    {
        let row = m.target as usize;
        let points = f64::from(board.placement_score(row, column));
        let line = board.lines[row];
        if line.count as usize == row + 1 {
            immediate = points;
        } else {
            potential = points * f64::from(line.count) / (row + 1) as f64;
        }
    }
    let risk = f64::from(board.floor_penalty(&state.rules) - before.floor_penalty(&state.rules));
    // Blocking: tiles of this colour taken that an opponent's open line
    // of that colour still needs.
    let taken = f64::from(state.source_count(m.source, colour));
    let mut blocking = 0.0;
    for p in 0..state.players as usize {
        if p == me {
            continue;
        }
        let need: u32 = state.boards[p]
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.count > 0 && l.colour as usize == colour)
            .map(|(r, l)| (r as u32 + 1) - u32::from(l.count))
            .sum();
        blocking += taken.min(f64::from(need));
    }
    let value = w.immediate * immediate + w.potential * potential - w.floor_risk * risk
        + w.blocking * blocking;
    (value, [immediate, potential, risk, blocking])
}

/// Medium's evaluation of a grey-wall column choice: the placement's
/// points now (immediate), plus the end bonuses its column and colour get
/// closer to (potential: the growth of bonus x (tiles / 5)^2, as the hard
/// AI's wall potential counts them). Floor risk and blocking do not apply.
pub fn evaluate_wall_move(state: &State, m: Move, w: &MediumWeights) -> (f64, [f64; 4]) {
    let board = &state.boards[state.to_move as usize];
    let (Some(row), Some((_, colour, _))) = (m.wall_row(), state.pending_choice()) else {
        return (f64::NEG_INFINITY, [0.0; 4]);
    };
    let column = m.target as usize;
    let immediate = f64::from(board.placement_score(row, column));
    let growth = |n: u32, bonus: i32| f64::from(bonus) * f64::from(2 * n + 1) / 25.0;
    let in_column = (0..LINES).filter(|&r| board.has(r, column)).count() as u32;
    let rules = &state.rules;
    let potential = growth(in_column, rules.column_bonus)
        + growth(board.colour_tiles(colour), rules.colour_bonus);
    let value = w.immediate * immediate + w.potential * potential;
    (value, [immediate, potential, 0.0, 0.0])
}

fn medium(
    state: &State,
    moves: &MoveList,
    w: &MediumWeights,
    thinking: &mut Thinking<'_>,
) -> Decision<Move> {
    thinking.count_nodes(moves.len() as u64);
    let scored = moves
        .as_slice()
        .iter()
        .map(|&m| {
            // During a grey-wall tiling the moves are column choices,
            // weighed by their own evaluation.
            let (value, detail) = if state.tiling {
                let (value, [i, p, _, _]) = evaluate_wall_move(state, m, w);
                (value, format!("immediate {i:.1}, potential {p:.2}"))
            } else {
                let (value, [i, p, r, b]) = evaluate_move(state, m, w);
                let detail =
                    format!("immediate {i:.1}, potential {p:.2}, floor {r:.0}, blocking {b:.0}");
                (value, detail)
            };
            // A hair of noise from the agent's stream breaks ties.
            let jitter = thinking.rng.random::<f64>() * 1e-6;
            (m, value + jitter, detail)
        })
        .collect();
    top5(scored)
}

// ---------------------------------------------------------------- hard

/// Value of a position for `me` once the round is tiled: score plus wall
/// potential, minus the best opponent's.
fn round_end_value(state: &State, me: usize, s: &HardSettings) -> f64 {
    let mut tiled = *state;
    if !tiled.over {
        tiled.tile_walls();
    }
    let value_of = |p: usize| -> f64 {
        let b = &tiled.boards[p];
        let mut v = f64::from(b.score);
        if !tiled.over {
            v += s.potential * wall_potential(&tiled, p) + s.carry * carry_value(&tiled, p);
        }
        v
    };
    let mine = value_of(me);
    let mut best_other = f64::NEG_INFINITY;
    for p in 0..tiled.players as usize {
        if p != me {
            best_other = best_other.max(value_of(p));
        }
    }
    let mut v = mine - best_other;
    if tiled.over {
        // A decided game outweighs any estimate.
        let (winners, _) = tiled.winners();
        v += if winners[me] { 1000.0 } else { -1000.0 };
    }
    v
}

/// Expected end bonuses, weighted by how near each row, column and colour
/// is to complete (squared, so near-complete ones count most).
fn wall_potential(state: &State, p: usize) -> f64 {
    let b = &state.boards[p];
    let rules = &state.rules;
    let mut v = 0.0;
    for r in 0..LINES {
        let n = ((b.wall >> (r * 5)) & 0b11111).count_ones();
        v += f64::from(rules.row_bonus) * f64::from(n * n) / 25.0;
    }
    for c in 0..LINES {
        let n = (0..LINES).filter(|&r| b.has(r, c)).count() as u32;
        v += f64::from(rules.column_bonus) * f64::from(n * n) / 25.0;
    }
    for k in 0..COLOURS {
        let n = b.colour_tiles(k);
        v += f64::from(rules.colour_bonus) * f64::from(n * n) / 25.0;
    }
    v
}

/// Points unfinished lines carry into the next round, by how full they are.
fn carry_value(state: &State, p: usize) -> f64 {
    let b = &state.boards[p];
    let mut v = 0.0;
    for (row, line) in b.lines.iter().enumerate() {
        if line.count > 0
            && let Some(column) = b.target_column(row, line.colour as usize)
        {
            v += f64::from(b.placement_score(row, column)) * f64::from(line.count)
                / (row + 1) as f64;
        }
    }
    v
}

/// A cheap ordering key: tiles placed on lines, lines completed, tiles
/// dropped on the floor.
#[inline]
fn quick_key(state: &State, m: Move) -> i32 {
    let board = &state.boards[state.to_move as usize];
    if let Some(row) = m.wall_row() {
        return board.placement_score(row, m.target as usize);
    }
    let taken = i32::from(state.source_count(m.source, m.colour as usize));
    let mut floored = taken;
    let mut bonus = 0;
    if m.target != FLOOR {
        let row = m.target as usize;
        let line = board.lines[row];
        let room = row as i32 + 1 - i32::from(line.count);
        let put = taken.min(room);
        floored = taken - put;
        if put == room {
            bonus = 2 + board
                .target_column(row, m.colour as usize)
                .map_or(0, |column| board.placement_score(row, column));
        }
        bonus += put;
    }
    let marker = i32::from(m.source == CENTRE && state.marker_in_centre);
    bonus * 4 - floored * 6 - marker * 3
}

/// Legal moves for the search, best first, with floor moves only where no
/// line accepts the colour (dropping a whole take on purpose is almost
/// never right, and it halves the branching).
fn search_moves(state: &State, out: &mut MoveList) {
    state.legal_moves(out);
    // Moves come grouped by (source, colour), lines first, floor last; a
    // floor move follows a line move of its group exactly when some line
    // accepts the colour.
    let mut len = 0;
    let mut prev: Option<Move> = None;
    let total = out.len();
    let slice = out.as_mut_slice();
    for i in 0..total {
        let m = slice[i];
        let skip = m.target == FLOOR
            && prev
                .is_some_and(|p| p.source == m.source && p.colour == m.colour && p.target != FLOOR);
        prev = Some(m);
        if !skip {
            slice[len] = m;
            len += 1;
        }
    }
    out.truncate(len);
    out.as_mut_slice()
        .sort_by_cached_key(|&m| std::cmp::Reverse(quick_key(state, m)));
}

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    depth: u8,
    flag: u8,
    best: Move,
    value: f32,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// A hash of everything the search result depends on.
fn state_hash(s: &State) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x0100_0000_01b3).rotate_left(23);
    };
    for b in &s.boards[..s.players as usize] {
        mix(u64::from(b.wall) | (u64::from(b.floor_len) << 25) | ((b.score as u64) << 32));
        if b.grey {
            // The grey wall's colours decide what may go where.
            for pair in b.colours.chunks(2) {
                mix(pair.iter().fold(0u64, |x, &c| x << 32 | u64::from(c)));
            }
        }
        let mut lines = 0u64;
        for l in &b.lines {
            lines = lines << 8 | u64::from(l.colour) << 4 | u64::from(l.count);
        }
        mix(lines);
    }
    for f in &s.factories[..s.factory_count as usize] {
        let mut x = 0u64;
        for &n in f {
            x = x << 8 | u64::from(n);
        }
        mix(x);
    }
    let mut c = 0u64;
    for &n in &s.centre {
        c = c << 8 | u64::from(n);
    }
    mix(c
        | u64::from(s.to_move) << 48
        | u64::from(s.marker_in_centre) << 56
        | u64::from(s.tiling) << 57);
    h
}

struct Search<'t, 'a> {
    me: usize,
    settings: HardSettings,
    tt: Vec<TtEntry>,
    thinking: &'t mut Thinking<'a>,
    node_limit: u64,
    stopped: bool,
    nodes: u64,
}

impl Search<'_, '_> {
    /// Paranoid alpha-beta: `me` maximises, every other seat minimises
    /// (plain alpha-beta with 2 players). Leaves are the end of the round.
    fn search(&mut self, state: &State, depth: u8, mut alpha: f64, mut beta: f64) -> f64 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) {
            self.thinking.count_nodes(1024);
            if self.thinking.should_stop() || self.nodes >= self.node_limit {
                self.stopped = true;
            }
        }
        if self.stopped {
            return 0.0;
        }
        if (state.on_table == 0 && !state.tiling) || state.over || depth == 0 {
            return round_end_value(state, self.me, &self.settings);
        }
        let key = state_hash(state);
        let slot = (key as usize) & (self.tt.len() - 1);
        let entry = self.tt[slot];
        let mut tt_move = None;
        if entry.key == key && entry.flag != 0 {
            tt_move = Some(entry.best);
            if entry.depth >= depth {
                let v = f64::from(entry.value);
                match entry.flag {
                    EXACT => return v,
                    LOWER if v >= beta => return v,
                    UPPER if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let mut moves = MoveList::default();
        search_moves(state, &mut moves);
        if let Some(best) = tt_move
            && let Some(i) = moves.as_slice().iter().position(|&m| m == best)
        {
            moves.as_mut_slice()[..=i].rotate_right(1);
        }
        let maximising = state.to_move as usize == self.me;
        let (alpha0, beta0) = (alpha, beta);
        let mut best_value = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_move = moves.as_slice()[0];
        for &m in moves.as_slice() {
            let mut child = *state;
            child.play(m);
            let v = self.search(&child, depth - 1, alpha, beta);
            if self.stopped {
                return 0.0;
            }
            if maximising {
                if v > best_value {
                    best_value = v;
                    best_move = m;
                }
                alpha = alpha.max(v);
            } else {
                if v < best_value {
                    best_value = v;
                    best_move = m;
                }
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        let flag = if best_value <= alpha0 {
            UPPER
        } else if best_value >= beta0 {
            LOWER
        } else {
            EXACT
        };
        self.tt[slot] = TtEntry {
            key,
            depth,
            flag,
            best: best_move,
            value: best_value as f32,
        };
        best_value
    }
}

fn hard(
    state: &State,
    settings: &HardSettings,
    thinking: &mut Thinking<'_>,
) -> Result<Decision<Move>, GameError> {
    let me = state.to_move as usize;
    let mut root_moves = MoveList::default();
    search_moves(state, &mut root_moves);
    // The plies left in the round: a take per tile group at most, or while
    // tiling one per full line still to place.
    let remaining_moves = if state.tiling {
        let full: usize = state.boards[..state.players as usize]
            .iter()
            .map(|b| {
                b.lines
                    .iter()
                    .enumerate()
                    .filter(|(r, l)| l.count as usize == r + 1)
                    .count()
            })
            .sum();
        u8::try_from(full).unwrap_or(u8::MAX)
    } else {
        u8::try_from(root_moves.len()).unwrap_or(u8::MAX)
    };
    let mut search = Search {
        me,
        settings: *settings,
        tt: vec![TtEntry::default(); 1 << 18],
        thinking,
        node_limit: settings.nodes.max(1),
        stopped: false,
        nodes: 0,
    };
    // Iterative deepening: the last finished depth decides. A round has
    // at most one move per tile group, so depth `remaining` reaches the end.
    let mut best: Vec<(Move, f64, String)> = Vec::new();
    let mut order: Vec<Move> = root_moves.as_slice().to_vec();
    let mut depth = 1u8;
    loop {
        let mut scored = Vec::with_capacity(order.len());
        let mut alpha = f64::NEG_INFINITY;
        for &m in &order {
            let mut child = *state;
            child.play(m);
            // A null-window-free root: each move gets its exact value above
            // the best so far, which is what the top-5 panel shows.
            let v = search.search(&child, depth - 1, alpha - 1e-9, f64::INFINITY);
            if search.stopped {
                break;
            }
            alpha = alpha.max(v);
            scored.push((m, v, format!("depth {depth}")));
        }
        if search.stopped && !best.is_empty() {
            break;
        }
        if !scored.is_empty() && (!search.stopped || best.is_empty()) {
            // Keep the unsearched moves behind, in their old order.
            let done: Vec<Move> = scored.iter().map(|s| s.0).collect();
            for &m in &order {
                if !done.contains(&m) {
                    scored.push((m, f64::NEG_INFINITY, "not searched".into()));
                }
            }
            scored.sort_by(|a, b| b.1.total_cmp(&a.1));
            order = scored.iter().map(|s| s.0).collect();
            best = scored;
        }
        if search.stopped || depth >= remaining_moves.max(1) || depth >= 40 {
            break;
        }
        depth += 1;
    }
    if best.is_empty() {
        if search.thinking.is_cancelled() {
            return Err(GameError::Cancelled);
        }
        best.push((root_moves.as_slice()[0], 0.0, "no search".into()));
    }
    let nodes = search.nodes;
    search.thinking.count_nodes(nodes % 1024);
    search
        .thinking
        .note(format!("depth {depth}, {nodes} nodes"));
    Ok(top5(best))
}

// ---------------------------------------------------------------- expert

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

fn expert(
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
