//! Pocketed cuts of a box over [`POCKET_VOLUME`] cells for a unique
//! design: the small pieces drawn first, no two touching, then what they
//! leave cut into a few large pieces grown together. Each small piece
//! then fills a pocket of the large pieces alone, so where the large
//! pieces go decides where every small one goes; and the large pieces'
//! dents fit together one way. A whole search proves such a cut unique or
//! not in a few thousand nodes (most constrained first at every depth:
//! `depth.rs`, `MIXED_RATIO`), where a skewed 5x5x5 of 25 pieces, its
//! small pieces touching, had hundreds of thousands of packings
//! (docs/perf/polycube-generate.md, "Pocketed cuts").

use rand::Rng;
use rand::seq::SliceRandom;
use tessera_host::ThinkControl;
use tessera_host::rng::GameRng;

use super::design::{Design, FREE, neighbours};

/// Boxes larger than this get pocketed cuts (a 5x5x5, a 4x4x8); a 4x4x6
/// keeps its skewed cut (`skew.rs`), which reaches one packing in seconds.
pub const POCKET_VOLUME: usize = 100;
/// Cells per large piece: four in a 5x5x5.
const LARGE_SHARE: usize = 32;
/// The largest small piece: dominoes and trominoes (and monocubes when
/// the sizes start at 1) pack densely enough that 21 fit apart in a
/// 5x5x5 beside four large pieces.
const SMALL_MAX: usize = 3;
/// The smallest large piece.
const LARGE_MIN: usize = 8;
/// At most one small piece per this many cells: beyond it they do not fit
/// apart.
const CELLS_PER_SMALL: usize = 5;
/// Tries at placing one small piece before the cut starts over.
const SMALL_TRIES: usize = 50;
/// Fresh starts of a cut (small pieces placed again) before the caller
/// moves to its next cut.
const STARTS: usize = 2_000;

/// How a box's pocketed cut is made: `large` large pieces, the rest small.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Plan {
    large: usize,
    small: usize,
}

impl Plan {
    fn new(volume: usize, pieces: usize) -> Option<Self> {
        let large = volume.div_ceil(LARGE_SHARE);
        let small = pieces.checked_sub(large)?;
        (volume > POCKET_VOLUME && small > 0 && small * CELLS_PER_SMALL <= volume)
            .then_some(Self { large, small })
    }

    /// The sizes a large piece may take under the spec's `(min, max)`.
    fn large_sizes(&self, (min, max): (usize, usize)) -> (usize, usize) {
        (min.max(LARGE_MIN), max)
    }
}

/// Whether a pocketed cut of `pieces` pieces in `volume` cells fits the
/// spec's sizes `(min, max)`: small pieces of `min..=3` cubes and large
/// ones of 8 cubes or more, in counts that fill the box.
pub fn fits(volume: usize, pieces: usize, sizes: (usize, usize)) -> bool {
    let Some(plan) = Plan::new(volume, pieces) else {
        return false;
    };
    let (min, max) = sizes;
    let (large_min, large_max) = plan.large_sizes(sizes);
    min <= SMALL_MAX
        && large_min <= large_max
        && volume >= plan.small * min + plan.large * large_min
        && volume <= plan.small * SMALL_MAX.min(max) + plan.large * large_max
}

/// The sizes a unique design of a box over [`POCKET_VOLUME`] cells takes
/// when the user names none: small pieces of 2 and 3 cubes, large ones up
/// to what the small ones leave at their lightest, shared out, plus one
/// (2..22 for a 5x5x5 of 25). `None` when a pocketed cut does not fit.
pub fn default_sizes(volume: usize, pieces: usize) -> Option<(usize, usize)> {
    let plan = Plan::new(volume, pieces)?;
    let max = volume.checked_sub(2 * plan.small)?.div_ceil(plan.large) + 1;
    let sizes = (2, max);
    fits(volume, pieces, sizes).then_some(sizes)
}

/// A pocketed cut of a box of `size` into `pieces` pieces of `sizes`
/// ([`fits`]): the small pieces first (numbered after the large ones),
/// each in the most confined free cell that touches no small piece and
/// grown into such cells, then the cells left grown into the large pieces
/// from cells far apart, the smallest growing next. `None` after
/// [`STARTS`] fresh starts, or at once when the job is cancelled (polled
/// every start); each start is noted on `control` after the caller's note.
pub fn pocketed(
    size: [usize; 3],
    pieces: usize,
    sizes: (usize, usize),
    rng: &mut GameRng,
    control: &ThinkControl,
) -> Option<Design> {
    let volume = size.iter().product();
    let plan = Plan::new(volume, pieces)?;
    let caller = control.note();
    for start in 0..STARTS {
        if control.is_cancelled() {
            return None;
        }
        if start % 100 == 0 {
            control.set_note(format!(
                "{caller}: drawing a pocketed cut, start {} of {STARTS}",
                start + 1
            ));
        }
        let small: Vec<usize> = (0..plan.small)
            .map(|_| rng.random_range(sizes.0..=SMALL_MAX.min(sizes.1)))
            .collect();
        if let Some(design) = draw(size, &plan, &small, plan.large_sizes(sizes), rng) {
            control.set_note(caller);
            return Some(design);
        }
    }
    control.set_note(caller);
    None
}

/// One try at a pocketed cut with small pieces of the sizes `small`.
fn draw(
    size: [usize; 3],
    plan: &Plan,
    small: &[usize],
    (large_min, large_max): (usize, usize),
    rng: &mut GameRng,
) -> Option<Design> {
    let volume = size[0] * size[1] * size[2];
    let left = volume.checked_sub(small.iter().sum())?;
    if left < plan.large * large_min || left > plan.large * large_max {
        return None;
    }
    let mut owner = vec![FREE; volume];
    for (k, &target) in small.iter().enumerate() {
        let piece = plan.large + k;
        let cells = (0..SMALL_TRIES).find_map(|_| apart(size, &owner, target, rng))?;
        for i in cells {
            owner[i] = piece;
        }
    }
    grow_large(size, &mut owner, plan.large, large_max, rng)?;
    let too_small = (0..plan.large).any(|p| owner.iter().filter(|&&o| o == p).count() < large_min);
    (!too_small).then_some(Design {
        size,
        owner,
        pieces: plan.large + small.len(),
    })
}

/// The cells of a small piece of `target` cubes touching no piece placed
/// so far (all of them small): from the most confined such cell (the
/// fewest such neighbours; filling the crevices first packs the small
/// pieces densely), grown into such cells at random.
fn apart(
    size: [usize; 3],
    owner: &[usize],
    target: usize,
    rng: &mut GameRng,
) -> Option<Vec<usize>> {
    let open = |i: usize| owner[i] == FREE && neighbours(size, i).all(|n| owner[n] == FREE);
    let open_cells: Vec<usize> = (0..owner.len()).filter(|&i| open(i)).collect();
    let confinement = |i: usize| neighbours(size, i).filter(|&n| open(n)).count();
    let fewest = open_cells.iter().map(|&i| confinement(i)).min()?;
    let starts: Vec<usize> = open_cells
        .into_iter()
        .filter(|&i| confinement(i) == fewest)
        .collect();
    let mut cells = vec![starts[rng.random_range(0..starts.len())]];
    while cells.len() < target {
        let mut frontier: Vec<usize> = cells
            .iter()
            .flat_map(|&c| neighbours(size, c))
            .filter(|&n| open(n) && !cells.contains(&n))
            .collect();
        frontier.sort_unstable();
        frontier.dedup();
        if frontier.is_empty() {
            return None;
        }
        cells.push(frontier[rng.random_range(0..frontier.len())]);
    }
    Some(cells)
}

/// Grows pieces `0..large` over the free cells, from cells far apart, the
/// smallest piece (ties at random) taking a random free neighbour next, up
/// to `max` cubes each; `None` when some free cell could not be reached.
fn grow_large(
    size: [usize; 3],
    owner: &mut [usize],
    large: usize,
    max: usize,
    rng: &mut GameRng,
) -> Option<()> {
    let free: Vec<usize> = (0..owner.len()).filter(|&i| owner[i] == FREE).collect();
    let mut seeds = vec![*free.get(rng.random_range(0..free.len().max(1)))?];
    while seeds.len() < large {
        let far = free
            .iter()
            .copied()
            .filter(|i| !seeds.contains(i))
            .map(|i| {
                let near = seeds.iter().map(|&s| distance(size, s, i)).min();
                (near.unwrap_or(0), rng.random::<u32>(), i)
            })
            .max()?;
        seeds.push(far.2);
    }
    let mut cells: Vec<Vec<usize>> = seeds.iter().map(|&s| vec![s]).collect();
    for (p, &s) in seeds.iter().enumerate() {
        owner[s] = p;
    }
    let mut left = free.len() - large;
    let mut order: Vec<usize> = (0..large).collect();
    while left > 0 {
        order.shuffle(rng);
        order.sort_by_key(|&p| cells[p].len());
        let grown = order.iter().find_map(|&p| {
            if cells[p].len() >= max {
                return None;
            }
            let mut frontier: Vec<usize> = cells[p]
                .iter()
                .flat_map(|&c| neighbours(size, c))
                .filter(|&n| owner[n] == FREE)
                .collect();
            frontier.sort_unstable();
            frontier.dedup();
            (!frontier.is_empty()).then(|| (p, frontier[rng.random_range(0..frontier.len())]))
        });
        let (p, next) = grown?;
        owner[next] = p;
        cells[p].push(next);
        left -= 1;
    }
    Some(())
}

/// The taxicab distance between cells `a` and `b`.
fn distance(size: [usize; 3], a: usize, b: usize) -> usize {
    let at = |i: usize| {
        [
            i % size[0],
            (i / size[0]) % size[1],
            i / (size[0] * size[1]),
        ]
    };
    let (a, b) = (at(a), at(b));
    (0..3).map(|k| a[k].abs_diff(b[k])).sum()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::geometry::is_connected;

    #[test]
    fn a_5x5x5_of_25_takes_pocketed_sizes() {
        assert_eq!(default_sizes(125, 25), Some((2, 22)));
        assert!(fits(125, 25, (2, 22)));
        // A 4x4x6 keeps its skewed cut; small pieces of 4 cubes never pocket.
        assert_eq!(default_sizes(96, 16), None);
        assert!(!fits(125, 25, (4, 22)));
        // Too many small pieces to keep apart.
        assert_eq!(default_sizes(125, 40), None);
    }

    #[test]
    fn a_pocketed_cut_keeps_its_small_pieces_apart() {
        let control = ThinkControl::default();
        let mut rng = GameRng::seed_from_u64(1);
        let design = pocketed([5, 5, 5], 25, (2, 22), &mut rng, &control).expect("a cut");
        assert_eq!(design.pieces, 25);
        assert!(!design.owner.contains(&FREE));
        let shapes = design.shapes();
        for (p, cells) in shapes.iter().enumerate() {
            assert!(is_connected(cells), "piece {p} is in one piece");
            let expected = if p < 4 { 8..=22 } else { 2..=3 };
            assert!(
                expected.contains(&cells.len()),
                "piece {p}: {} cubes",
                cells.len()
            );
        }
        for i in 0..design.owner.len() {
            let p = design.owner[i];
            if p < 4 {
                continue;
            }
            for n in neighbours(design.size, i) {
                let q = design.owner[n];
                assert!(
                    q == p || q < 4,
                    "small pieces {p} and {q} touch at cell {i}"
                );
            }
        }
    }
}
