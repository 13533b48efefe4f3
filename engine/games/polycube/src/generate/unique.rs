//! The search for a design that meets the spec: random cuts of the box,
//! each walked downhill (one cube handed to a neighbouring piece at a time)
//! until one distinct packing is left. The cut itself is always a packing,
//! so the count never reaches zero.
//!
//! A step never counts packings: it asks each candidate for up to
//! [`PROBE_LIMIT`] distinct packings within a node budget ([`probe`]),
//! which answers in a few nodes while packings are plenty. The candidates
//! are the moves that break the second packing found (a move between two
//! pieces that packing places as the first does leaves it standing), those
//! that break the most of the others first, less the ones whose
//! neighbouring pieces fill their cells in a second way
//! ([`cut::loose`]: a second packing for certain); the walk takes the one
//! with the most search nodes per packing found: the design with the
//! sparsest packings. A candidate that finds one packing and no second
//! within the budget gets the whole search, which proves it unique or
//! names the packings the walk breaks next.
//!
//! A large box (more than 27 cells) starts from the cut whose pieces fit
//! the fewest places (`cut.rs`): of [`POOL`] stretched cuts, the
//! [`SCREENED`] best that are not loose are probed and the sparsest walked.

use rand::seq::SliceRandom;
use tessera_host::ThinkControl;
use tessera_host::generate::{GenerateError, try_candidates};
use tessera_host::rng::GameRng;

use super::design::{Design, Move, random_sizes};
use super::{cut, difficulty, pocket, skew};
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
const WITNESSES: usize = 16;
/// Packings a probe collects within its budget: the fewer it finds, the
/// sparser the design.
const PROBE_LIMIT: usize = 16;
/// Candidate moves probed per step.
const CANDIDATES: usize = 8;
/// Search nodes a candidate's probe may spend (about a tenth of a second
/// on one core) before it gets the whole search.
const BUDGET: u64 = 1 << 19;
/// Search nodes the whole search of a pocketed cut may spend (a second or
/// two on one core): most cuts are proven in a few thousand; one that is
/// not within this is dropped for the next.
const POCKET_BUDGET: u64 = 1 << 21;
/// Nodes the difficulty's plain searches of a pocketed cut may take in all
/// ([`difficulty_ends`]): they take some 30 an order when they go
/// straight, and millions when they wander.
const DIFFICULTY_LIMIT: u64 = 1 << 16;
/// Boxes larger than this start from a screened cut ([`sparse_cut`]).
pub(super) const SMALL_BOX: usize = 27;
/// Stretched cuts drawn per cut tried in a large box.
const POOL: usize = 1_000;
/// Of those, the ones with the fewest placements probed.
const SCREENED: usize = 16;
/// The node budget of a screening probe.
const SCREEN_BUDGET: u64 = 1 << 20;
/// How strongly a piece of a large box grows away from its first cell.
const STRETCH: f64 = 1.0;

/// Finds a design for `spec` from `seed`, reporting on `control`.
pub fn find(spec: &Spec, seed: u64, control: &ThinkControl) -> Result<Design, GenerateError> {
    let volume: usize = spec.size.iter().product();
    let large = spec.unique && volume > SMALL_BOX;
    let found = try_candidates(seed, CUTS, control, |cut, rng| {
        control.set_note(format!("cut {}", cut + 1));
        // A pocketed cut is proven unique or dropped, never walked: a
        // cube handed across would join two pockets. Its small pieces
        // sit inside the box, so an assembly takes the skewed cut.
        if large && !spec.assembly && pocket::fits(volume, spec.pieces, spec.sizes) {
            let Some(design) = pocket::pocketed(spec.size, spec.pieces, spec.sizes, rng, control)
            else {
                return Ok(None);
            };
            control.set_note(format!("cut {}: proving", cut + 1));
            let proven = matches!(
                probe(&design, PROBE_LIMIT, POCKET_BUDGET, control)?,
                Probe::Unique
            );
            if !proven {
                return Ok(None);
            }
            control.set_note(format!("cut {}: its difficulty", cut + 1));
            return Ok(difficulty_ends(&design, control)?.then_some(design));
        }
        if large && skew::fits(volume, spec.pieces, spec.sizes) {
            let Some(design) = skew::skewed(spec.size, spec.pieces, spec.sizes, rng, control)
            else {
                return Ok(None);
            };
            let here = probe(&design, PROBE_LIMIT, BUDGET, control)?;
            return walk_from(spec, design, here, spec.sizes, rng, control);
        }
        if large {
            let Some((design, here)) = sparse_cut(spec, rng, control)? else {
                return Ok(None);
            };
            return walk_from(spec, design, here, spec.sizes, rng, control);
        }
        let Some(sizes) = random_sizes(volume, spec.pieces, spec.sizes, rng) else {
            return Err(unfillable(spec, volume));
        };
        let Some(design) = (0..REGROWS).find_map(|_| Design::random(spec.size, &sizes, rng)) else {
            return Ok(None);
        };
        walk_down(spec, design, spec.sizes, rng, control)
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

/// The spec's sizes cannot fill the box.
fn unfillable(spec: &Spec, volume: usize) -> GenerateError {
    GenerateError::Spec(format!(
        "--pieces {} with --sizes {}..{} cannot fill {volume} cells",
        spec.pieces, spec.sizes.0, spec.sizes.1
    ))
}

/// Of [`POOL`] stretched cuts of a large box, the [`SCREENED`] whose pieces
/// fit the fewest places and that are not loose, each probed; the
/// sparsest, with its probe.
fn sparse_cut(
    spec: &Spec,
    rng: &mut GameRng,
    control: &ThinkControl,
) -> Result<Option<(Design, Probe)>, GenerateError> {
    let volume: usize = spec.size.iter().product();
    let mut pool: Vec<(f64, Design)> = Vec::with_capacity(POOL);
    for _ in 0..POOL * REGROWS {
        if pool.len() == POOL {
            break;
        }
        if control.is_cancelled() {
            return Err(GenerateError::Cancelled);
        }
        let sizes = random_sizes(volume, spec.pieces, spec.sizes, rng)
            .ok_or_else(|| unfillable(spec, volume))?;
        if let Some(design) = cut::stretched(spec.size, &sizes, STRETCH, rng) {
            pool.push((cut::score(&design), design));
        }
    }
    // A stable sort: ties keep the order drawn, so a seed keeps its cut.
    pool.sort_by(|a, b| a.0.total_cmp(&b.0));
    let screened: Vec<Design> = pool
        .into_iter()
        .map(|(_, d)| d)
        .filter(|d| !cut::loose(d))
        .take(SCREENED)
        .collect();
    let probes = probe_all(&screened, SCREEN_BUDGET, control)?;
    let mut sparsest: Option<(Design, Probe)> = None;
    for (design, probe) in screened.into_iter().zip(probes) {
        if sparsest
            .as_ref()
            .is_none_or(|(_, best)| probe.sparseness() > best.sparseness())
        {
            sparsest = Some((design, probe));
        }
    }
    Ok(sparsest)
}

/// What a design's probe found.
enum Probe {
    /// The whole search found one distinct packing: proven unique.
    Unique,
    /// Two distinct packings or more (up to the limit asked), found in
    /// `nodes` search nodes.
    Two(Vec<Solution>, u64),
    /// One packing at most, and the budget spent: few packings, if any
    /// but the cut's.
    Open,
}

impl Probe {
    /// How sparse the design's packings look: search nodes per packing
    /// found past the first (more is sparser); open is sparser than any
    /// two found.
    fn sparseness(&self) -> u64 {
        match self {
            Probe::Unique | Probe::Open => u64::MAX,
            Probe::Two(found, nodes) => *nodes / (found.len() as u64 - 1).max(1),
        }
    }
}

/// Distinct packings of `design` within `budget` search nodes, up to
/// `limit` of them; with no budget, the whole search on every core.
fn probe(
    design: &Design,
    limit: usize,
    budget: u64,
    control: &ThinkControl,
) -> Result<Probe, GenerateError> {
    let solver = Solver::new(design.size, &design.shapes()).map_err(solve_error)?;
    let cancel = control.cancel_flag();
    let within = match budget {
        u64::MAX => solver.distinct_parallel(limit, 0, cancel),
        _ => solver.distinct_within(limit, budget, cancel),
    }
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
fn probe_all(
    designs: &[Design],
    budget: u64,
    control: &ThinkControl,
) -> Result<Vec<Probe>, GenerateError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut out = Vec::with_capacity(designs.len());
    for chunk in designs.chunks(threads.max(1)) {
        let probes: Vec<Result<Probe, GenerateError>> = std::thread::scope(|scope| {
            let running: Vec<_> = chunk
                .iter()
                .map(|d| scope.spawn(move || probe(d, PROBE_LIMIT, budget, control)))
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
    let here = probe(&design, PROBE_LIMIT, BUDGET, control)?;
    walk_from(spec, design, here, sizes, rng, control)
}

/// The walk of [`walk_down`] from `design`, whose probe is `here`.
fn walk_from(
    spec: &Spec,
    design: Design,
    here: Probe,
    sizes: (usize, usize),
    rng: &mut GameRng,
    control: &ThinkControl,
) -> Result<Option<Design>, GenerateError> {
    let (mut design, mut here) = (design, here);
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
        let locally = skew::Plan::for_volume(design.owner.len()).tests_locally();
        // The moves start from the first packing found; when that one
        // re-tiles somewhere (a large box's cut has many small pieces),
        // from the design walked to instead, which never does, with every
        // packing found as one to break.
        let own;
        let (first, others) = match Design::from_solution(design.size, &packings[0]) {
            Some(base) if !(locally && cut::loose(&base)) => (&packings[0], &packings[1..]),
            _ => {
                own = Solution {
                    pieces: (0..design.pieces)
                        .map(|p| {
                            let mut cells = design.cells_of(p);
                            cells.sort_unstable();
                            cells
                        })
                        .collect(),
                };
                (&own, &packings[..])
            }
        };
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
        let all = base.moves(sizes.0, sizes.1);
        let covers = covers(&all, first, others, rng);
        let mut moves: Vec<(usize, Move)> = all
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
        // A candidate some of whose neighbouring pieces fill their cells
        // in a second way has a second packing: never probed.
        // Several moves that break every packing found come first.
        let mut seen = std::collections::HashSet::new();
        // In a box whose cuts are tested piece by piece (`skew::Plan`),
        // only the pieces a candidate's moves touch are tested (the base
        // is not loose: the rest of it cannot be).
        let loose = |d: &Design, moved: &[Move]| {
            if locally {
                moved
                    .iter()
                    .flat_map(|m| [m.from, m.to])
                    .any(|p| cut::loose_around(d, p))
            } else {
                cut::loose(d)
            }
        };
        let mut fresh = covers
            .iter()
            .map(|set| {
                (
                    set.iter().fold(base.clone(), |d, &m| d.with(m)),
                    set.clone(),
                )
            })
            .chain(moves.iter().map(|&m| (base.with(m), vec![m])))
            .filter(|(d, moved)| {
                let canonical = d.canonical();
                !visited.contains(&canonical) && seen.insert(canonical) && !loose(d, moved)
            })
            .map(|(d, _)| d);
        loop {
            let candidates: Vec<Design> = fresh.by_ref().take(CANDIDATES).collect();
            if candidates.is_empty() {
                break;
            }
            let probes = probe_all(&candidates, BUDGET, control)?;
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

/// Up to [`CANDIDATES`] sets of moves, each between pieces no other move
/// of its set touches (so they stay legal together), that together break
/// every packing of `others`: greedy, the move that breaks the most of
/// those left first, ties broken at random. Sets of one move are left to
/// the single moves.
fn covers(
    moves: &[Move],
    first: &Solution,
    others: &[Solution],
    rng: &mut GameRng,
) -> Vec<Vec<Move>> {
    let breaks = |m: &Move, other: &Solution| {
        [m.from, m.to]
            .iter()
            .any(|&p| other.pieces[p] != first.pieces[p])
    };
    let mut out: Vec<Vec<Move>> = Vec::new();
    let mut order = moves.to_vec();
    for _ in 0..2 * CANDIDATES {
        order.shuffle(rng);
        let mut left: Vec<&Solution> = others.iter().collect();
        let mut chosen: Vec<Move> = Vec::new();
        while !left.is_empty() {
            let free = |m: &&Move| {
                chosen
                    .iter()
                    .all(|c| ![c.from, c.to].contains(&m.from) && ![c.from, c.to].contains(&m.to))
            };
            let Some((ends, m)) = order
                .iter()
                .filter(free)
                .map(|m| (left.iter().filter(|o| breaks(m, o)).count(), *m))
                .max_by_key(|(ends, _)| *ends)
            else {
                break;
            };
            if ends == 0 {
                break;
            }
            chosen.push(m);
            left.retain(|o| !breaks(&m, o));
        }
        if chosen.len() > 1 && !out.contains(&chosen) {
            out.push(chosen);
        }
        if out.len() == CANDIDATES {
            break;
        }
    }
    out
}

/// Whether the difficulty's plain searches of `design`'s level (its pieces
/// as the level lists them) end within [`DIFFICULTY_LIMIT`] nodes: the
/// level's difficulty line is then exact, and `check` repeats it as fast.
fn difficulty_ends(design: &Design, control: &ThinkControl) -> Result<bool, GenerateError> {
    let level = design.to_level(String::new(), false);
    let work = difficulty::work_within(
        level.extents(),
        &level.shapes(),
        DIFFICULTY_LIMIT,
        control.cancel_flag(),
    )
    .map_err(solve_error)?;
    Ok(work.is_some())
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
