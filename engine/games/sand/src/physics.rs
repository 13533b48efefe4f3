//! One physics tick, a whole row of grains at a time.
//!
//! The rule (seed 5.2, RULINGS "Sand drop"): each awake grain moves at most
//! once per tick: straight down if that cell is empty, else to one of the two
//! diagonal cells below in a seeded random order, else it settles. Rows are
//! handled bottom-up, and a grain only ever moves into the row below, which
//! has already been handled this tick: no grain can move twice.
//!
//! Within a row the grains move in phases, each phase a few word operations:
//! 1. every grain whose cell below is empty moves down (their targets are
//!    distinct);
//! 2. the blocked grains each draw a preferred side; grains preferring one
//!    side try it, then grains preferring the other side try theirs, then
//!    each group tries its other side. Which side goes first is drawn per
//!    row, so the whole step is mirror-symmetric in distribution: no
//!    left/right bias (a fixed left-to-right scan would give one).
//!
//! A grain that leaves a cell wakes the three grains above it (the only ones
//! that could move into it); since the row above is handled later in the
//! same tick, they can follow at once.

use rand::RngCore;

use super::grid::GrainGrid;

/// Random bits for the step, drawn from the game's seeded generator 64 at a
/// time (one generator call serves many rows).
pub struct RandomBits<'a> {
    rng: &'a mut dyn RngCore,
    pool: u64,
    left: u32,
}

impl<'a> RandomBits<'a> {
    /// Draws from `rng`.
    pub fn new(rng: &'a mut dyn RngCore) -> Self {
        Self {
            rng,
            pool: 0,
            left: 0,
        }
    }

    /// One random bit.
    fn bit(&mut self) -> bool {
        if self.left == 0 {
            self.pool = self.rng.next_u64();
            self.left = 64;
        }
        let bit = self.pool & 1 == 1;
        self.pool >>= 1;
        self.left -= 1;
        bit
    }

    /// A random word of which the low `width` bits matter.
    fn word(&mut self, width: usize) -> u128 {
        let low = u128::from(self.rng.next_u64());
        if width > 64 {
            low | u128::from(self.rng.next_u64()) << 64
        } else {
            low
        }
    }
}

/// Moves or settles the awake grains `awake` of row `y` (which is not the
/// bottom row). Returns whether any grain moved.
pub(super) fn step_row(
    grid: &mut GrainGrid,
    y: usize,
    awake: u128,
    bits: &mut RandomBits<'_>,
) -> bool {
    let width = grid.width();
    let rows = grid.rows_mut();
    let below = y + 1;
    let mut free = !rows.occupied[below] & rows.full;
    let down = awake & free;
    free &= !down;
    let blocked = awake & !down;
    let mut to_left = 0u128;
    let mut to_right = 0u128;
    if blocked != 0 && free != 0 {
        let prefer_left = blocked & bits.word(width);
        let prefer_right = blocked & !prefer_left;
        // `free << 1` has bit x set when x-1 is free (never bit 0);
        // `free >> 1` has bit x set when x+1 is free (never the last column,
        // since `free` has no bit beyond it).
        if bits.bit() {
            let l1 = prefer_left & free << 1;
            free &= !(l1 >> 1);
            let r1 = prefer_right & free >> 1;
            free &= !(r1 << 1);
            let r2 = prefer_left & !l1 & free >> 1;
            free &= !(r2 << 1);
            let l2 = prefer_right & !r1 & free << 1;
            to_left = l1 | l2;
            to_right = r1 | r2;
        } else {
            let r1 = prefer_right & free >> 1;
            free &= !(r1 << 1);
            let l1 = prefer_left & free << 1;
            free &= !(l1 >> 1);
            let l2 = prefer_right & !r1 & free << 1;
            free &= !(l2 >> 1);
            let r2 = prefer_left & !l1 & free >> 1;
            to_left = l1 | l2;
            to_right = r1 | r2;
        }
    }
    let moved = down | to_left | to_right;
    // Everything awake here either moves (and is awake where it lands) or
    // settles now.
    rows.awake[y] = 0;
    if moved == 0 {
        return false;
    }
    let landed = down | to_left >> 1 | to_right << 1;
    rows.occupied[y] &= !moved;
    rows.occupied[below] |= landed;
    rows.awake[below] |= landed;
    for plane in rows.planes.iter_mut() {
        let source = plane[y];
        plane[below] |= (source & down) | (source & to_left) >> 1 | (source & to_right) << 1;
        plane[y] = source & !moved;
    }
    if y > 0 {
        let reach = (moved | moved << 1 | moved >> 1) & rows.occupied[y - 1];
        rows.awake[y - 1] |= reach;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_host::rng::game_rng;

    fn settle(grid: &mut GrainGrid, seed: u64) -> u32 {
        let mut rng = game_rng(seed);
        let mut ticks = 0;
        while !grid.is_settled() {
            grid.step(&mut RandomBits::new(&mut rng));
            ticks += 1;
            assert!(ticks < 10_000, "never settled");
        }
        ticks
    }

    #[test]
    fn a_lone_grain_falls_one_cell_per_tick() {
        let mut grid = GrainGrid::new(5, 10).unwrap();
        grid.insert(2, 0, 1);
        let mut rng = game_rng(1);
        for y in 1..10 {
            grid.step(&mut RandomBits::new(&mut rng));
            assert_eq!(grid.colour_at(2, y), Some(1), "tick {y}");
            assert_eq!(grid.grain_count(), 1);
        }
        assert!(grid.is_awake(2, 9), "it has not yet found it cannot move");
        grid.step(&mut RandomBits::new(&mut rng));
        assert!(grid.is_settled());
    }

    #[test]
    fn a_grain_on_a_peak_slides_diagonally() {
        let mut grid = GrainGrid::new(3, 3).unwrap();
        grid.insert(1, 2, 0);
        grid.insert(1, 1, 2);
        settle(&mut grid, 5);
        assert_eq!(grid.colour_at(1, 1), None);
        let slid = [grid.colour_at(0, 2), grid.colour_at(2, 2)];
        assert!(slid.contains(&Some(2)), "{slid:?}");
    }

    #[test]
    fn removing_support_wakes_the_column_above() {
        let mut grid = GrainGrid::new(1, 6).unwrap();
        for y in 2..6 {
            grid.insert(0, y, 1);
        }
        settle(&mut grid, 1);
        let mut rows = vec![0u128; 6];
        rows[5] = 1;
        assert_eq!(grid.remove(&rows), 1);
        settle(&mut grid, 1);
        for y in 3..6 {
            assert_eq!(grid.colour_at(0, y), Some(1), "row {y}");
        }
        assert_eq!(grid.colour_at(0, 2), None);
    }
}
