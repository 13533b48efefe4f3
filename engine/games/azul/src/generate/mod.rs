//! `tessera generate azul --endgame [--seats N]`: a last-round scenario
//! (the factories dealt, the game surely ending at this round's tiling)
//! in which the player to move has exactly one move that wins against
//! best defence, proven by searching the rest of the round exhaustively
//! ([`endgame`]). Candidates come from the medium AI's play ([`build`]).
//!
//! The claim names the winning move (`one winning move: red from factory
//! 2 to line 4 (of 23 legal moves, against best defence)`); `tessera
//! check` searches the round again and compares. The difficulty is the
//! winning move's rank in the medium AI's one-move ordering: 1 when the
//! move that looks best wins, larger when the win hides behind moves that
//! look better.

use std::path::Path;

use tessera_host::agent::ThinkControl;
use tessera_host::generate::{
    Claim, GenerateError, Generated, LevelGenerator, Proof, Restated, claim_block, claimed_level,
    command_line, spec_arguments, spec_of, try_candidates,
};
use tessera_host::level::to_ron_string;
use tessera_host::options::Seat;
use tessera_host::text::count;

use crate::AzulLevel;
use crate::ai::describe;
use crate::rules::{Rules, State};
use crate::scenario::{Goal, check_position, position_of};

pub mod build;
pub mod endgame;

use endgame::{RoundProof, SearchStop, prove_round, ranked_moves};

/// Azul's level generator, registered in `engine/builtin/games.rs`.
pub static GENERATOR: &dyn LevelGenerator = &AzulGenerator;

/// Games played per seed for candidates before giving up.
pub const MAX_GAMES: u32 = 600;

/// Positions one proof may search (a candidate past it is dropped; a
/// level past it is reported by `check` as too large to re-prove).
pub const SEARCH_BUDGET: u64 = 1_000_000;

/// The AI the defending seats of a generated scenario play at.
pub const DEFENCE_AI: &str = "hard";

struct AzulGenerator;

/// The spec's options of `tessera generate azul`.
#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// A last-round scenario where the player to move has exactly one
    /// winning move against best defence (the only kind so far).
    // Required (not checked in `generate`), so the command line names the
    // kind and the editor's form of the options opens with it ticked.
    #[arg(long, required = true)]
    endgame: bool,
    /// Players at the table, 2 to 4 (the others defend together).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    seats: u8,
}

impl LevelGenerator for AzulGenerator {
    fn arguments(&self) -> Vec<clap::Arg> {
        spec_arguments::<GenerateArgs>()
    }

    fn generate(
        &self,
        matches: &clap::ArgMatches,
        seed: u64,
        control: &ThinkControl,
    ) -> Result<Generated, GenerateError> {
        let args: GenerateArgs = spec_of(matches)?;
        let players = usize::from(args.seats);
        let mut proven = 0u32;
        let found = try_candidates(seed, MAX_GAMES, control, |game, rng| {
            for state in build::candidates(players, rng) {
                if control.is_cancelled() {
                    return Err(GenerateError::Cancelled);
                }
                let proof = match prove_round(&state, SEARCH_BUDGET, control) {
                    Ok(proof) => proof,
                    Err(SearchStop::Cancelled) => return Err(GenerateError::Cancelled),
                    Err(_) => continue,
                };
                proven += 1;
                control.set_note(format!(
                    "game {}, candidate {proven}: {}",
                    game + 1,
                    claim_text(&proof)
                ));
                if proof.winning.len() == 1 {
                    let command = command_line("azul", &self.arguments(), matches, seed);
                    return generated(&command, &state, &proof).map(Some);
                }
            }
            Ok(None)
        })?;
        if let Some(level) = found {
            return Ok(level);
        }
        Err(GenerateError::NotFound(format!(
            "{} played, {} proven, none with exactly one winning move; try another seed",
            count(MAX_GAMES, "game"),
            count(proven, "candidate")
        )))
    }

    fn restate(
        &self,
        path: &Path,
        text: &str,
        _claim: &Claim,
        control: &ThinkControl,
    ) -> Result<Restated, Proof> {
        let (claim, level): (_, AzulLevel) = claimed_level(path, text)?;
        let Some(position) = &level.position else {
            return Err(claim.broken(path, "the level has no position to search"));
        };
        // Both count seats from 1, as written.
        let hero = position.to_move;
        if level.goal != (Goal::Win { seat: hero }) {
            return Err(claim.broken(
                path,
                format!(
                    "it is about player {hero} (to move) winning, the goal is now: {}",
                    level.goal.describe()
                ),
            ));
        }
        let rules = Rules {
            grey_wall: level.grey(),
            ..Rules::default()
        };
        let check = check_position(position, Some(&rules), None);
        let Some(state) = check.state else {
            return Err(claim.broken(path, "the position does not build a table"));
        };
        match prove_round(&state, SEARCH_BUDGET, control) {
            Ok(proof) => Ok(Restated {
                claim: claim_text(&proof),
                difficulty: difficulty_text(&state, &proof),
                proven: format!(
                    "{} (the round searched: {})",
                    claim_text(&proof),
                    count(proof.nodes, "position")
                ),
            }),
            Err(stop) => Err(claim.broken(path, format!("not re-proven: {}", stop_words(&stop)))),
        }
    }
}

fn stop_words(stop: &SearchStop) -> String {
    match stop {
        SearchStop::Cancelled => "cancelled".into(),
        SearchStop::TooLarge(budget) => {
            format!(
                "the round has more than {} to search",
                count(*budget, "position")
            )
        }
        SearchStop::NotLastRound => {
            "the game does not surely end this round (no full pattern line completes a wall row)"
                .into()
        }
        SearchStop::NotATakingPosition => {
            "the position is not a printed-wall table with tiles to take".into()
        }
    }
}

/// The claim in words: the winning move, or how many there are.
pub fn claim_text(proof: &RoundProof) -> String {
    let of = count(proof.moves, "legal move");
    match proof.winning.as_slice() {
        [] => format!("no winning move (of {of}, against best defence)"),
        [m] => format!(
            "one winning move: {} (of {of}, against best defence)",
            describe(*m)
        ),
        _ => format!("at least two winning moves (of {of}, against best defence)"),
    }
}

/// The difficulty: the winning move's rank in the medium AI's one-move
/// ordering (1 when the first move it looks at wins), and its word.
fn difficulty(state: &State, proof: &RoundProof) -> (usize, &'static str) {
    let rank = proof.winning.first().map_or(proof.moves, |winning| {
        ranked_moves(state)
            .iter()
            .position(|m| m == winning)
            .map_or(proof.moves, |i| i + 1)
    });
    let label = match rank {
        1 => "easy",
        2..=4 => "medium",
        _ => "hard",
    };
    (rank, label)
}

/// The difficulty line: the rank, its word, and the search behind it (a
/// fixed ordering and an exhaustive count, not time, so a re-proof gives
/// the same line).
fn difficulty_text(state: &State, proof: &RoundProof) -> String {
    let (rank, label) = difficulty(state, proof);
    format!(
        "{rank} ({label}): the winning move is the medium AI's choice {rank} of {}; {} searched",
        proof.moves,
        count(proof.nodes, "position")
    )
}

/// The level file of a proven endgame.
fn generated(command: &str, state: &State, proof: &RoundProof) -> Result<Generated, GenerateError> {
    let (rank, label) = difficulty(state, proof);
    let claim = claim_text(proof);
    let hero = state.to_move + 1;
    let players = usize::from(state.players);
    let level = AzulLevel {
        title: format!("Endgame: the one winning move ({players} players)"),
        description: format!(
            "Round {}, the last: player {hero} to move has exactly one move that wins against best defence. Find it.",
            state.round
        ),
        seats: (0..players)
            .map(|p| {
                if p == usize::from(state.to_move) {
                    Seat::Human
                } else {
                    Seat::Ai {
                        level: DEFENCE_AI.into(),
                    }
                }
            })
            .collect(),
        goal: Goal::Win { seat: hero },
        position: Some(position_of(state)),
        ..AzulLevel::default()
    };
    let body = to_ron_string(&level)
        .map_err(|error| GenerateError::NotFound(format!("the level did not write: {error}")))?;
    let block = claim_block(command, &claim, &difficulty_text(state, proof));
    Ok(Generated {
        text: block + &body,
        extension: "ron",
        name: format!("endgame_{players}p_round_{}", state.round),
        difficulty: rank as f64,
        difficulty_label: label.into(),
        summary: claim,
    })
}
