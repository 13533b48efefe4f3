//! The hard AI: paranoid alpha-beta to the end of the round, with move
//! ordering, iterative deepening and a transposition table. Its move
//! ordering ([`quick_key`], [`search_moves`]) also serves the expert.

use tessera_host::{Decision, GameError, Thinking};

use super::{HardSettings, top5};
use crate::rules::{CENTRE, COLOURS, FLOOR, LINES, Move, MoveList, State};

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
pub(super) fn wall_potential(state: &State, p: usize) -> f64 {
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
pub(super) fn carry_value(state: &State, p: usize) -> f64 {
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
pub(super) fn quick_key(state: &State, m: Move) -> i32 {
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
pub(super) fn search_moves(state: &State, out: &mut MoveList) {
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

pub(super) fn hard(
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
