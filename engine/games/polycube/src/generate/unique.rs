//! The search for a design that meets the spec: random cuts of the box,
//! each walked downhill (one cube handed to a neighbouring piece at a time)
//! until one distinct packing is left. The cut itself is always a packing,
//! so the count never reaches zero.
//!
//! A step never counts packings: it asks each candidate for two distinct
//! packings within a node budget ([`probe`]), which answers in a few
//! nodes while packings are plenty. The candidates are the moves that
//! break the second packing found (a move between two pieces that packing
//! places as the first does leaves it standing), and the walk takes the
//! one whose second packing took the search longest to find: the design
//! with the sparsest packings. A candidate that finds one packing and no
//! second within the budget gets the whole search, which proves it unique
//! or names the second packing the walk breaks next.

use rand::seq::SliceRandom;
use tessera_host::ThinkControl;
use tessera_host::generate::{GenerateError, try_candidates};
use tessera_host::rng::GameRng;

use super::design::{Design, Move, random_sizes};
use crate::geometry::{Cell, orientations};
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
const CUTS: u32 = 4_000;
/// Walls a cut may hit (a piece walled in short of its size) per cut tried.
const REGROWS: usize = 200;
/// Downhill steps from one cut before the next cut.
const STEPS: usize = 400;
/// Steps in a row that may find no sparser design before the cut is
/// dropped.
const FLAT_STEPS: usize = 10;
/// Packings a whole search collects, for the moves that break most.
const WITNESSES: usize = 8;
/// Candidate moves probed per step.
const CANDIDATES: usize = 8;
/// Search nodes a candidate's probe may spend (about a tenth of a second
/// on one core) before it gets the whole search.
const BUDGET: u64 = 1 << 19;
/// Boxes larger than this are cut with pieces as even as the sizes allow,
/// the least regular of [`DRAWS`] cuts kept: a small, flat or symmetric
/// piece fits in too many places for a large box to be unique.
const SMALL_BOX: usize = 27;
/// Cuts drawn per cut tried in a large box.
const DRAWS: usize = 16;

/// Finds a design for `spec` from `seed`, reporting on `control`.
pub fn find(spec: &Spec, seed: u64, control: &ThinkControl) -> Result<Design, GenerateError> {
    let volume: usize = spec.size.iter().product();
    let large = spec.unique && volume > SMALL_BOX;
    let found = try_candidates(seed, CUTS, control, |cut, rng| {
        let sizes = if large {
            even_sizes(volume, spec, rng)
        } else {
            random_sizes(volume, spec.pieces, spec.sizes, rng)
        };
        let Some(sizes) = sizes else {
            return Err(GenerateError::Spec(format!(
                "--pieces {} with --sizes {}..{} cannot fill {volume} cells",
                spec.pieces, spec.sizes.0, spec.sizes.1
            )));
        };
        let draws = if large { DRAWS } else { 1 };
        let cuts: Vec<Design> = (0..draws)
            .filter_map(|_| (0..REGROWS).find_map(|_| Design::random(spec.size, &sizes, rng)))
            .collect();
        // The first of the least regular: deterministic.
        let Some(design) = cuts.iter().rev().max_by_key(|d| irregularity(d)).cloned() else {
            return Ok(None);
        };
        control.set_note(format!("cut {}", cut + 1));
        let smallest = if large {
            spec.sizes.0.max(volume / spec.pieces)
        } else {
            spec.sizes.0
        };
        walk_down(spec, design, (smallest, spec.sizes.1), rng, control)
    })?;
    found.ok_or_else(|| {
        GenerateError::NotFound(format!(
            "{CUTS} random cuts, none walked down to {}",
            if spec.unique {
                "one packing"
            } else {
                "the spec"
            }
        ))
    })
}

/// Piece sizes as even as `spec.sizes` allow (the volume over the pieces,
/// some one larger), in a random order.
fn even_sizes(volume: usize, spec: &Spec, rng: &mut GameRng) -> Option<Vec<usize>> {
    let base = volume / spec.pieces;
    let larger = volume % spec.pieces;
    let top = base + usize::from(larger > 0);
    if base < spec.sizes.0 || top > spec.sizes.1 {
        return random_sizes(volume, spec.pieces, spec.sizes, rng);
    }
    let mut sizes: Vec<usize> = (0..spec.pieces)
        .map(|i| base + usize::from(i < larger))
        .collect();
    sizes.shuffle(rng);
    Some(sizes)
}

/// How little a cut's pieces repeat themselves: each piece's distinct
/// orientations, twice that for a piece that is not flat (a flat piece
/// lies in a layer, where more of the box takes it).
fn irregularity(design: &Design) -> usize {
    design
        .shapes()
        .iter()
        .map(|cells| {
            let turns = orientations(cells).len();
            if is_flat(cells) { turns } else { 2 * turns }
        })
        .sum()
}

/// Whether every cell lies in one plane of the grid.
fn is_flat(cells: &[Cell]) -> bool {
    (0..3).any(|axis| cells.iter().all(|c| c[axis] == cells[0][axis]))
}

/// What a design's probe found.
enum Probe {
    /// The whole search found one distinct packing: proven unique.
    Unique,
    /// Two distinct packings, found after `nodes` search nodes.
    Two(Vec<Solution>, u64),
    /// One packing at most, and the budget spent: few packings, if any
    /// but the cut's.
    Open,
}

impl Probe {
    /// How sparse the design's packings look: more nodes to the second
    /// packing is sparser; open is sparser than any two found.
    fn sparseness(&self) -> u64 {
        match self {
            Probe::Unique | Probe::Open => u64::MAX,
            Probe::Two(_, nodes) => *nodes,
        }
    }
}

/// Two distinct packings of `design` within `budget` search nodes (up to
/// `limit` of them).
fn probe(
    design: &Design,
    limit: usize,
    budget: u64,
    control: &ThinkControl,
) -> Result<Probe, GenerateError> {
    let solver = Solver::new(design.size, &design.shapes()).map_err(solve_error)?;
    let within = solver
        .distinct_within(limit, budget, control.cancel_flag())
        .map_err(solve_error)?;
    Ok(match within.found.len() {
        2.. => Probe::Two(within.found, within.nodes),
        _ if within.complete => Probe::Unique,
        _ => Probe::Open,
    })
}

/// The probes of `designs`, in their order, on as many threads as there
/// are cores (each probe alone on its thread, so the answers do not depend
/// on the threads).
fn probe_all(designs: &[Design], control: &ThinkControl) -> Result<Vec<Probe>, GenerateError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut out = Vec::with_capacity(designs.len());
    for chunk in designs.chunks(threads.max(1)) {
        let probes: Vec<Result<Probe, GenerateError>> = std::thread::scope(|scope| {
            let running: Vec<_> = chunk
                .iter()
                .map(|d| scope.spawn(move || probe(d, 2, BUDGET, control)))
                .collect();
            running
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(GenerateError::NotFound("a probe's thread panicked".into()))
                    })
                })
                .collect()
        });
        for probe in probes {
            out.push(probe?);
        }
    }
    Ok(out)
}

/// From `design`, hands cubes across (pieces kept within `sizes`) towards
/// sparser packings until one is left (`None`: stuck, the next cut).
fn walk_down(
    spec: &Spec,
    design: Design,
    sizes: (usize, usize),
    rng: &mut GameRng,
    control: &ThinkControl,
) -> Result<Option<Design>, GenerateError> {
    if !spec.unique {
        return Ok(assembles(&design, spec, control)?.then_some(design));
    }
    let mut design = design;
    let mut here = probe(&design, 2, BUDGET, control)?;
    let mut flat = 0;
    // The designs walked through (by their pieces): never walked again.
    let mut visited = std::collections::HashSet::from([design.canonical()]);
    for step in 0..STEPS {
        let sparseness = here.sparseness();
        let packings = match here {
            Probe::Unique => return Ok(assembles(&design, spec, control)?.then_some(design)),
            // Few packings: the whole search says which.
            Probe::Open => {
                control.set_note(format!("step {}: proving", step + 1));
                here = probe(&design, WITNESSES, u64::MAX, control)?;
                continue;
            }
            Probe::Two(packings, nodes) => {
                control.set_note(format!(
                    "step {}: a second packing after {nodes} nodes; handing cubes across",
                    step + 1
                ));
                packings
            }
        };
        let (first, others) = (&packings[0], &packings[1..]);
        let Some(base) = Design::from_solution(design.size, first) else {
            return Ok(None);
        };
        // The moves that break the second packing, those that break the
        // most of the others first.
        let breaks = |m: &Move, other: &Solution| {
            [m.from, m.to]
                .iter()
                .any(|&p| other.pieces[p] != first.pieces[p])
        };
        let mut moves: Vec<(usize, Move)> = base
            .moves(sizes.0, sizes.1)
            .into_iter()
            .filter(|m| breaks(m, &others[0]))
            .map(|m| (others.iter().filter(|o| breaks(&m, o)).count(), m))
            .collect();
        moves.shuffle(rng);
        moves.sort_by_key(|(ends, _)| std::cmp::Reverse(*ends));
        let moves: Vec<Move> = moves.into_iter().map(|(_, m)| m).collect();
        // Batches of candidates until one is sparser than here; when none
        // is, the sparsest of all (a step sideways or back).
        let mut best: Option<(Design, Probe)> = None;
        let fresh: Vec<Design> = moves
            .iter()
            .map(|&m| base.with(m))
            .filter(|d| !visited.contains(&d.canonical()))
            .collect();
        for candidates in fresh.chunks(CANDIDATES) {
            let candidates = candidates.to_vec();
            let probes = probe_all(&candidates, control)?;
            for (candidate, probe) in candidates.into_iter().zip(probes) {
                if matches!(probe, Probe::Unique) {
                    return Ok(assembles(&candidate, spec, control)?.then_some(candidate));
                }
                if best
                    .as_ref()
                    .is_none_or(|(_, b)| probe.sparseness() > b.sparseness())
                {
                    best = Some((candidate, probe));
                }
            }
            if best
                .as_ref()
                .is_some_and(|(_, b)| b.sparseness() > sparseness)
            {
                break;
            }
        }
        let Some((next, probe)) = best else {
            return Ok(None);
        };
        flat = if probe.sparseness() > sparseness {
            0
        } else {
            flat + 1
        };
        if flat > FLAT_STEPS {
            return Ok(None);
        }
        visited.insert(next.canonical());
        (design, here) = (next, probe);
    }
    Ok(None)
}

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
