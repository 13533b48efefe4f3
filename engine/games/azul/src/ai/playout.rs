//! The expert's playouts: whole games played from a tree leaf by a
//! greedy-with-noise policy, future rounds dealt from the bag with the
//! searcher's own random stream, and the reward each player earns.

use rand::Rng;

use super::ExpertSettings;
use super::hard::{carry_value, wall_potential};
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
    let mut rounds = 0;
    while !state.over && guard < 1000 {
        guard += 1;
        if state.on_table == 0 {
            // Grey wall: a tiling under way goes on by the heuristic.
            state.tile_walls();
            rounds += 1;
            if !state.over {
                if rounds == s.horizon {
                    return estimated_rewards(&state, s);
                }
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
    let (winners, count) = state.winners();
    let scores = std::array::from_fn(|p| f64::from(state.boards[p].score));
    mixed_rewards(&scores, state.players as usize, (winners, count), s)
}

/// Each player's reward for a game cut off after a tiling: the same mix
/// as [`rewards`], with each player's score estimated as hard estimates
/// it (score, plus `potential` x the end bonuses' progress and `carry` x
/// the unfinished lines); the highest estimate wins (ties shared).
fn estimated_rewards(state: &State, s: &ExpertSettings) -> [f64; MAX_PLAYERS] {
    let n = state.players as usize;
    let estimates: [f64; MAX_PLAYERS] = std::array::from_fn(|p| {
        if p < n {
            f64::from(state.boards[p].score)
                + s.potential * wall_potential(state, p)
                + s.carry * carry_value(state, p)
        } else {
            0.0
        }
    });
    let best = estimates[..n]
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let mut winners = [false; MAX_PLAYERS];
    let mut count = 0;
    for p in 0..n {
        if estimates[p] == best {
            winners[p] = true;
            count += 1;
        }
    }
    mixed_rewards(&estimates, n, (winners, count), s)
}

/// The reward mix for `n` players' (final or estimated) scores.
fn mixed_rewards(
    scores: &[f64; MAX_PLAYERS],
    n: usize,
    (winners, count): ([bool; MAX_PLAYERS], usize),
    s: &ExpertSettings,
) -> [f64; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    for p in 0..n {
        let score = scores[p];
        let best_other = (0..n)
            .filter(|&q| q != p)
            .map(|q| scores[q])
            .fold(f64::NEG_INFINITY, f64::max);
        let best_other = if best_other.is_finite() {
            best_other
        } else {
            0.0
        };
        let margin = score - best_other;
        let margin_part = 0.5 + 0.5 * (margin / s.margin_scale).tanh();
        let win = if winners[p] { 1.0 / count as f64 } else { 0.0 };
        let contest = s.win_weight * win + (1.0 - s.win_weight) * margin_part;
        let own = (score / s.score_scale).clamp(0.0, 1.0);
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
    fn a_cut_off_playout_scores_the_estimate_of_the_tiled_table() {
        let settings = ExpertSettings {
            own_weight: 0.0,
            win_weight: 1.0,
            ..ExpertSettings::default()
        };
        // Level scores: the one with more wall potential leads.
        let mut s = State::new(Rules::default(), 2);
        s.boards[0].score = 10;
        s.boards[1].score = 10;
        // A whole row: 2 (its bonus) + 5 x 7/25 (five columns begun) + 5 x
        // 10/25 (five colours begun) = 5.4 points of potential.
        s.boards[0].wall = 0b11111;
        let r = estimated_rewards(&s, &settings);
        assert_eq!((r[0], r[1]), (1.0, 0.0));
        // Equal estimates share the win.
        s.boards[1].wall = 0b11111 << 5;
        let r = estimated_rewards(&s, &settings);
        assert_eq!((r[0], r[1]), (0.5, 0.5));
        // A score 6 points higher outweighs it.
        s.boards[1].wall = 0;
        s.boards[1].score = 16;
        let r = estimated_rewards(&s, &settings);
        assert_eq!((r[0], r[1]), (0.0, 1.0));
    }

    #[test]
    fn a_horizon_of_one_round_ends_the_playout_at_the_first_tiling() {
        let mut rng = tessera_host::rng::game_rng(9);
        let mut state = State::new(Rules::default(), 2);
        state.deal(&mut rng, None);
        let whole = ExpertSettings::default();
        let cut = ExpertSettings {
            horizon: 1,
            ..whole
        };
        // The same stream gives the same round; the cut-off playout draws
        // nothing after its tiling, so the streams part there.
        let mut a = rng.clone();
        let mut b = rng.clone();
        let r_cut = playout(state, &mut a, &cut);
        let r_whole = playout(state, &mut b, &whole);
        for r in [r_cut, r_whole] {
            assert!(r[..2].iter().all(|x| (0.0..=1.0).contains(x)), "{r:?}");
        }
        let mut played = 0;
        let mut probe = rng.clone();
        let mut s = state;
        let mut moves = MoveList::default();
        while s.on_table > 0 {
            s.legal_moves(&mut moves);
            s.play(playout_move(&s, &moves, &mut probe, cut.epsilon));
            played += 1;
        }
        assert!(played > 0);
        // The cut-off playout drew exactly what the round's moves drew.
        assert_eq!(a.random::<u64>(), probe.random::<u64>());
        assert_ne!(b.random::<u64>(), probe.random::<u64>());
    }

    #[test]
    fn expert_rewards_mix_own_score_and_the_contest() {
        let mut s = State::new(Rules::default(), 2);
        s.boards[0].score = 60;
        s.boards[1].score = 50;
        s.over = true;
        let settings = ExpertSettings {
            own_weight: 0.7,
            ..ExpertSettings::default()
        };
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
