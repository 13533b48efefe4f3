//! The medium AI: the seed's one-move evaluation (immediate score, future
//! potential, floor risk, blocking), and its grey-wall column evaluation.

use rand::Rng;
use tessera_host::{Decision, Thinking};

use super::{MediumWeights, top5};
use crate::rules::{FLOOR, LINES, Move, MoveList, State};

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

pub(super) fn medium(
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
