//! The search for a design that meets the spec: random cuts of the box,
//! each walked downhill (one cube handed to a neighbouring piece at a time)
//! while that lowers its number of distinct packings, until one is left.
//! The cut itself is always a packing, so the count never reaches zero.

use rand::seq::SliceRandom;
use tessera_host::ThinkControl;
use tessera_host::generate::GenerateError;
use tessera_host::rng::game_rng;

use super::design::{Design, Move, random_sizes};
use crate::solver::{Solution, SolveError, Solver};

/// What the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// Box extents.
    pub size: [usize; 3],
    /// How many pieces.
    pub pieces: usize,
    /// Piece sizes allowed, smallest and largest.
    pub sizes: (usize, usize),
    /// Exactly one distinct packing.
    pub unique: bool,
    /// The packing comes apart along straight lines.
    pub assembly: bool,
}

/// Random cuts tried before the search gives up.
const CUTS: u64 = 4_000;
/// Walls a cut may hit (a piece walled in short of its size) per cut tried.
const REGROWS: usize = 200;
/// Downhill steps from one cut before the next cut.
const STEPS: usize = 24;
/// Moves tried per step before the cut counts as stuck.
const MOVES_PER_STEP: usize = 40;

/// Finds a design for `spec` from `seed`, reporting on `control`.
pub fn find(spec: &Spec, seed: u64, control: &ThinkControl) -> Result<Design, GenerateError> {
    let mut rng = game_rng(seed);
    let volume = spec.size.iter().product();
    for cut in 0..CUTS {
        if control.is_cancelled() {
            return Err(GenerateError::Cancelled);
        }
        control.set_progress(cut as f64 / CUTS as f64);
        let Some(sizes) = random_sizes(volume, spec.pieces, spec.sizes, &mut rng) else {
            return Err(GenerateError::Spec(format!(
                "--pieces {} with --sizes {}..{} cannot fill {volume} cells",
                spec.pieces, spec.sizes.0, spec.sizes.1
            )));
        };
        let Some(design) = (0..REGROWS).find_map(|_| Design::random(spec.size, &sizes, &mut rng))
        else {
            continue;
        };
        control.set_note(format!("cut {}", cut + 1));
        if let Some(found) = walk_down(spec, design, &mut rng, control)? {
            return Ok(found);
        }
    }
    Err(GenerateError::NotFound(format!(
        "{CUTS} random cuts, none walked down to {}",
        if spec.unique {
            "one packing"
        } else {
            "the spec"
        }
    )))
}

/// From `design`, hands cubes across while that lowers the number of
/// distinct packings, until the design meets the spec (`None`: stuck).
///
/// Each step starts from the first packing found, and tries first the
/// moves that can end the most of the others: a move between two pieces
/// that another packing places exactly as the first does leaves that
/// packing standing (the same cube changes hands there too), so only
/// moves touching a piece placed differently can lower the count.
fn walk_down(
    spec: &Spec,
    mut design: Design,
    rng: &mut tessera_host::rng::GameRng,
    control: &ThinkControl,
) -> Result<Option<Design>, GenerateError> {
    let cancel = control.cancel_flag();
    if !spec.unique {
        return Ok(assembles(&design, spec, control)?.then_some(design));
    }
    let mut packings = packings_of(&design, LIMIT, control)?;
    for _ in 0..STEPS {
        if packings.len() == 1 {
            return Ok(assembles(&design, spec, control)?.then_some(design));
        }
        control.set_note(format!(
            "{}{} packings; handing cubes across",
            packings.len(),
            if packings.len() >= LIMIT { "+" } else { "" }
        ));
        let Some(base) = Design::from_solution(design.size, &packings[0]) else {
            return Ok(None);
        };
        let mut moves: Vec<(usize, Move)> = base
            .moves(spec.sizes.0, spec.sizes.1)
            .into_iter()
            .map(|m| {
                let ends = packings[1..]
                    .iter()
                    .filter(|other| {
                        [m.from, m.to]
                            .iter()
                            .any(|&p| other.pieces[p] != packings[0].pieces[p])
                    })
                    .count();
                (ends, m)
            })
            .filter(|(ends, _)| *ends > 0)
            .collect();
        moves.shuffle(rng);
        moves.sort_by_key(|(ends, _)| std::cmp::Reverse(*ends));
        let mut better = None;
        for (_, m) in moves.into_iter().take(MOVES_PER_STEP) {
            if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(GenerateError::Cancelled);
            }
            let next = base.with(m);
            // Stops at as many as now: only "fewer or not" matters.
            let found = packings_of(&next, packings.len(), control)?;
            if found.len() < packings.len() {
                better = Some((next, found));
                break;
            }
        }
        let Some((next, found)) = better else {
            return Ok(None);
        };
        (design, packings) = (next, found);
    }
    Ok(None)
}

/// Distinct packings counted per step, at most.
const LIMIT: usize = 64;

/// The design's distinct packings, up to `limit` of them.
fn packings_of(
    design: &Design,
    limit: usize,
    control: &ThinkControl,
) -> Result<Vec<Solution>, GenerateError> {
    let solver = Solver::new(design.size, &design.shapes()).map_err(solve_error)?;
    solver
        .distinct(limit, control.cancel_flag())
        .map_err(solve_error)
}

/// Distinct packings of the design's pieces, counted up to `limit`.
pub fn distinct(
    design: &Design,
    limit: usize,
    control: &ThinkControl,
) -> Result<usize, GenerateError> {
    Ok(packings_of(design, limit, control)?.len())
}

/// Whether the spec's `--assembly` holds (always, without it).
fn assembles(design: &Design, spec: &Spec, control: &ThinkControl) -> Result<bool, GenerateError> {
    if !spec.assembly {
        return Ok(true);
    }
    let solver = Solver::new(design.size, &design.shapes()).map_err(solve_error)?;
    Ok(solver
        .first_assemblable(control.cancel_flag())
        .map_err(solve_error)?
        .is_some())
}

/// A solver error as the generator reports it.
pub fn solve_error(e: SolveError) -> GenerateError {
    match e {
        SolveError::Cancelled => GenerateError::Cancelled,
        other => GenerateError::Spec(other.to_string()),
    }
}
