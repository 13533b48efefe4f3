//! Make unique: from a design with several distinct packings, the smallest
//! edits that leave exactly one. An edit hands one cube from a piece to a
//! neighbouring piece in one of the design's packings (both pieces stay
//! connected, none shrinks below two cubes); every edit of one move is
//! tried (from each of the first packings) before any of two moves. The
//! packing edited stays a packing, so an edited design is never unsolvable.
//! A design with no packing is edited in its pieces' shapes instead
//! (`reshape.rs`).

use tessera_host::ThinkControl;
use tessera_host::generate::GenerateError;

use super::design::{Design, Move};
use super::unique::{distinct, solve_error};
use crate::level::PolycubeLevel;
use crate::solver::Solver;

/// Packings of the design that edits start from.
const BASES: usize = 4;
/// Proposals collected before the search stops (the editor's "next").
pub(super) const PROPOSALS: usize = 8;
/// The smallest piece an edit leaves.
pub(super) const SMALLEST: usize = 2;

/// One way to make the design unique.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    /// The edits, in order.
    pub moves: Vec<Move>,
    /// The design with the edits made (pieces in the level's order).
    pub design: Design,
    /// The edits in words, naming the level's pieces.
    pub words: String,
}

/// What the design was before any edit.
#[derive(Debug, Clone, PartialEq)]
pub enum Repair {
    /// Already exactly one distinct packing: nothing to edit.
    AlreadyUnique,
    /// The smallest edits that make it unique, fewest moves first.
    Proposals(Vec<Proposal>),
}

/// Finds the smallest edits of `level` that leave one distinct packing
/// (from no packing, see [`super::reshape`]).
pub fn make_unique(level: &PolycubeLevel, control: &ThinkControl) -> Result<Repair, GenerateError> {
    let size = level.extents();
    let solver = Solver::new(size, &level.shapes()).map_err(solve_error)?;
    let packings = solver
        .distinct(BASES, control.cancel_flag())
        .map_err(solve_error)?;
    match packings.len() {
        0 => {
            let found = super::reshape::reshape(level, control)?;
            if found.is_empty() {
                return Err(GenerateError::NotFound(
                    "the design has no packing, and no cube moved to another place leaves exactly one"
                        .into(),
                ));
            }
            return Ok(Repair::Proposals(found));
        }
        1 => return Ok(Repair::AlreadyUnique),
        _ => {}
    }
    let bases: Vec<Design> = packings
        .iter()
        .filter_map(|p| Design::from_solution(size, p))
        .collect();
    let ids: Vec<&str> = level.pieces.iter().map(|p| p.id.as_str()).collect();
    let volume = size.iter().product();
    let mut found = Vec::new();
    for depth in 1..=2 {
        for (b, base) in bases.iter().enumerate() {
            control.set_note(format!("{depth} move(s) from packing {}", b + 1));
            search(base, depth, volume, &ids, control, &mut found)?;
            control.set_progress(
                ((depth - 1) * bases.len() + b + 1) as f64 / (2 * bases.len()) as f64,
            );
            if found.len() >= PROPOSALS {
                break;
            }
        }
        if !found.is_empty() {
            return Ok(Repair::Proposals(found));
        }
    }
    Err(GenerateError::NotFound(
        "no edit of one or two cubes handed across leaves exactly one packing".into(),
    ))
}

/// Collects the unique designs `depth` moves from `base` into `found`.
fn search(
    base: &Design,
    depth: usize,
    volume: usize,
    ids: &[&str],
    control: &ThinkControl,
    found: &mut Vec<Proposal>,
) -> Result<(), GenerateError> {
    let firsts = base.moves(SMALLEST, volume);
    for &first in &firsts {
        let once = base.with(first);
        let seconds = if depth == 1 {
            vec![None]
        } else {
            once.moves(SMALLEST, volume)
                .into_iter()
                .filter(|m| m.cell != first.cell)
                .map(Some)
                .collect()
        };
        for second in seconds {
            if found.len() >= PROPOSALS {
                return Ok(());
            }
            // Each candidate's proof is a small search that may end
            // before it polls the token: the loop polls it too.
            if control.is_cancelled() {
                return Err(GenerateError::Cancelled);
            }
            let (design, moves) = match second {
                None => (once.clone(), vec![first]),
                Some(m) => (once.with(m), vec![first, m]),
            };
            if found.iter().any(|p: &Proposal| p.design == design) {
                continue;
            }
            if distinct(&design, 2, control)? == 1 {
                let words = moves
                    .iter()
                    .map(|&m| base.describe(m, ids))
                    .collect::<Vec<_>>()
                    .join("; then ");
                found.push(Proposal {
                    moves,
                    design,
                    words,
                });
            }
        }
    }
    Ok(())
}
