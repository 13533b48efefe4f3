//! The expert's playouts: whole games played from a tree leaf by a
//! greedy-with-noise policy, future rounds dealt from the bag with the
//! searcher's own random stream, and the reward each player earns.

use rand::Rng;

use super::ExpertSettings;
use crate::rules::{CENTRE, COLOURS, FLOOR, LINES, MAX_PLAYERS, Move, MoveList, State};

/// What the playout policy needs to know of the mover's board, computed
/// once per move decision instead of once per candidate move: per pattern
/// line the room left and, per colour, the bonus for completing the line
/// (2 plus the wall points the tile would score; 2 when no column takes
/// it). The key it gives each move is [`super::hard::quick_key`]'s.
struct LineKeys {
    room: [i32; LINES],
    complete_bonus: [[i32; COLOURS]; LINES],
}

impl LineKeys {
    fn of(state: &State) -> Self {
        let board = &state.boards[state.to_move as usize];
        let mut room = [0; LINES];
        let mut complete_bonus = [[2; COLOURS]; LINES];
        for row in 0..LINES {
            room[row] = row as i32 + 1 - i32::from(board.lines[row].count);
            for (colour, bonus) in complete_bonus[row].iter_mut().enumerate() {
                if let Some(column) = board.target_column(row, colour) {
                    *bonus += board.placement_score(row, column);
                }
            }
        }
        Self {
            room,
            complete_bonus,
        }
    }

    /// The ordering key of a take: tiles placed on the line, the line
    /// completed, tiles dropped on the floor, the marker taken.
    #[inline]
    fn key(&self, state: &State, m: Move) -> i32 {
        let taken = i32::from(state.source_count(m.source, m.colour as usize));
        let mut floored = taken;
        let mut bonus = 0;
        if m.target != FLOOR {
            let row = m.target as usize;
            let room = self.room[row];
            let put = taken.min(room);
            floored = taken - put;
            if put == room {
                bonus = self.complete_bonus[row][m.colour as usize];
            }
            bonus += put;
        }
        let marker = i32::from(m.source == CENTRE && state.marker_in_centre);
        bonus * 4 - floored * 6 - marker * 3
    }
}

/// A greedy-with-noise move for playouts: with chance `eps` a random legal
/// move, else the best by [`LineKeys::key`] with 3 bits of noise to break
/// ties (drawn 21 moves to one `u64`, since the draw would otherwise cost
/// as much as the key).
#[inline]
fn playout_move<R: Rng + ?Sized>(state: &State, moves: &MoveList, rng: &mut R, eps: f64) -> Move {
    let slice = moves.as_slice();
    if rng.random::<f64>() < eps {
        return slice[rng.random_range(0..slice.len())];
    }
    if let Some(row) = slice[0].wall_row() {
        // Grey wall column choices: the most points.
        let board = &state.boards[state.to_move as usize];
        return *slice
            .iter()
            .max_by_key(|m| board.placement_score(row, m.target as usize))
            .unwrap_or(&slice[0]);
    }
    let keys = LineKeys::of(state);
    let mut best = slice[0];
    let mut best_key = i32::MIN;
    let mut noise = 0u64;
    for (i, &m) in slice.iter().enumerate() {
        if i % 21 == 0 {
            noise = rng.random::<u64>();
        }
        let key = keys.key(state, m) * 8 + (noise & 7) as i32;
        noise >>= 3;
        if key > best_key {
            best_key = key;
            best = m;
        }
    }
    best
}

/// Plays `state` to the end with the playout policy, dealing future rounds
/// from the bag with `rng`; returns each player's reward.
pub(super) fn playout<R: Rng + ?Sized>(
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
pub(super) fn rewards(state: &State, s: &ExpertSettings) -> [f64; MAX_PLAYERS] {
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
    fn the_playout_key_is_the_search_ordering_key() {
        let mut rng = tessera_host::rng::game_rng(5);
        let mut moves = MoveList::default();
        for game in 0..20 {
            let mut state = State::new(Rules::default(), 2 + game % 3);
            state.deal(&mut rng, None);
            while !state.over {
                state.legal_moves(&mut moves);
                if !state.tiling {
                    let keys = LineKeys::of(&state);
                    for &m in moves.as_slice() {
                        assert_eq!(
                            keys.key(&state, m),
                            super::super::hard::quick_key(&state, m)
                        );
                    }
                }
                let m = moves.as_slice()[rng.random_range(0..moves.len())];
                state.step(m, &mut rng);
            }
        }
    }

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
