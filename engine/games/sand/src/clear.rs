//! Spanning clusters: 4-connected same-colour groups of settled grains that
//! touch both the left column (x = 0) and the right column (x = width - 1).
//!
//! The fill works on grain rows as bit masks (seed 8.2: on the grain grid,
//! never the logical grid). A work list holds rows with pending seed bits;
//! popping a row grows the seeds to the whole runs of the colour mask they
//! sit in, in one go, and passes the grown bits up and down as new seeds.
//! All buffers live in [`ClusterSearch`] and are sized once per grid, so a
//! search allocates nothing.
//!
//! For one colour: fill from every left-wall grain (`from_left`); if that
//! reaches the right wall, fill from the right-wall grains inside it: what
//! both reach is exactly the union of the spanning clusters (fills only ever
//! return whole clusters). That union is then split into its clusters, each
//! scored on its own.

use super::grid::GrainGrid;

/// One spanning cluster found by a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cluster {
    /// Palette index of its grains.
    pub colour: u8,
    /// How many grains it holds.
    pub grains: u32,
    /// Topmost row it reaches.
    pub top: u32,
    /// Bottom row it reaches.
    pub bottom: u32,
}

/// Reusable buffers for spanning-cluster searches on one grid size.
#[derive(Debug, Clone)]
pub struct ClusterSearch {
    height: usize,
    settled: Vec<u128>,
    colour: Vec<u128>,
    from_left: Vec<u128>,
    spanning: Vec<u128>,
    one: Vec<u128>,
    pending: Vec<u128>,
    stack: Vec<u32>,
}

impl ClusterSearch {
    /// Buffers for grids `height` rows high.
    pub fn new(height: usize) -> Self {
        Self {
            height,
            settled: vec![0; height],
            colour: vec![0; height],
            from_left: vec![0; height],
            spanning: vec![0; height],
            one: vec![0; height],
            pending: vec![0; height],
            stack: Vec::with_capacity(height),
        }
    }

    /// Finds every spanning cluster of settled grains of the colours
    /// `0..colours`, skipping grains set in `exclude` (grains already being
    /// cleared). Adds their grains to `found` (one mask per row) and
    /// describes each in `clusters` (which is cleared first).
    pub fn find_spanning(
        &mut self,
        grid: &GrainGrid,
        colours: u8,
        exclude: Option<&[u128]>,
        found: &mut [u128],
        clusters: &mut Vec<Cluster>,
    ) {
        clusters.clear();
        if self.height != grid.height() {
            *self = Self::new(grid.height());
        }
        let left = 1u128;
        let right = 1u128 << (grid.width() - 1);
        grid.settled_rows(&mut self.settled);
        for colour in 0..colours {
            let mut touches_left = false;
            let mut touches_right = false;
            // Rows holding this colour: every later pass stays inside them.
            let mut top = usize::MAX;
            let mut bottom = 0;
            for y in 0..self.height {
                let excluded = exclude.and_then(|rows| rows.get(y)).copied().unwrap_or(0);
                let mask = grid.colour_row(y, colour) & self.settled[y] & !excluded;
                self.colour[y] = mask;
                if mask != 0 {
                    top = top.min(y);
                    bottom = y;
                    touches_left |= mask & left != 0;
                    touches_right |= mask & right != 0;
                }
            }
            if !(touches_left && touches_right) {
                continue;
            }
            let rows = top..bottom + 1;
            // Everything reachable from the left wall. (`from_left` is all
            // zero here: each colour clears the rows it used.)
            for y in rows.clone() {
                self.seed(y, self.colour[y] & left);
            }
            flood(
                &self.colour,
                &mut self.from_left,
                &mut self.pending,
                &mut self.stack,
            );
            if !self.from_left[rows.clone()]
                .iter()
                .any(|row| row & right != 0)
            {
                self.from_left[rows].fill(0);
                continue;
            }
            // The part of it that also reaches the right wall.
            self.spanning[rows.clone()].fill(0);
            for y in rows.clone() {
                self.seed(y, self.from_left[y] & right);
            }
            flood(
                &self.from_left,
                &mut self.spanning,
                &mut self.pending,
                &mut self.stack,
            );
            self.from_left[rows.clone()].fill(0);
            self.split(colour, rows, found, clusters);
        }
    }

    /// Splits `spanning` into clusters (it is consumed).
    fn split(
        &mut self,
        colour: u8,
        rows: std::ops::Range<usize>,
        found: &mut [u128],
        clusters: &mut Vec<Cluster>,
    ) {
        let start = rows.start;
        while let Some(offset) = self.spanning[rows.clone()].iter().position(|&row| row != 0) {
            let y = start + offset;
            let seed = self.spanning[y] & self.spanning[y].wrapping_neg();
            self.one[rows.clone()].fill(0);
            self.seed(y, seed);
            flood(
                &self.spanning,
                &mut self.one,
                &mut self.pending,
                &mut self.stack,
            );
            let mut cluster = Cluster {
                colour,
                grains: 0,
                top: u32::MAX,
                bottom: 0,
            };
            for (row, (&grains, (span, out))) in self.one[rows.clone()]
                .iter()
                .zip(
                    self.spanning[rows.clone()]
                        .iter_mut()
                        .zip(found[rows.clone()].iter_mut()),
                )
                .enumerate()
            {
                let row = start + row;
                if grains == 0 {
                    continue;
                }
                *span &= !grains;
                *out |= grains;
                cluster.grains += grains.count_ones();
                cluster.top = cluster.top.min(row as u32);
                cluster.bottom = cluster.bottom.max(row as u32);
            }
            clusters.push(cluster);
        }
    }

    fn seed(&mut self, y: usize, bits: u128) {
        if bits == 0 {
            return;
        }
        if self.pending[y] == 0 {
            self.stack.push(y as u32);
        }
        self.pending[y] |= bits;
    }
}

/// Grows `reached` from the seeds in `pending` (rows listed in `stack`)
/// through the cells of `mask`, 4-connected.
fn flood(mask: &[u128], reached: &mut [u128], pending: &mut [u128], stack: &mut Vec<u32>) {
    let height = mask.len();
    while let Some(y) = stack.pop() {
        let y = y as usize;
        let open = mask[y] & !reached[y];
        let seeds = pending[y] & open;
        pending[y] = 0;
        if seeds == 0 {
            continue;
        }
        let grown = fill_runs(seeds, open);
        reached[y] |= grown;
        if y > 0 {
            pass(y - 1, grown, mask, reached, pending, stack);
        }
        if y + 1 < height {
            pass(y + 1, grown, mask, reached, pending, stack);
        }
    }
}

#[inline]
fn pass(
    y: usize,
    bits: u128,
    mask: &[u128],
    reached: &[u128],
    pending: &mut [u128],
    stack: &mut Vec<u32>,
) {
    let seeds = bits & mask[y] & !reached[y];
    if seeds != 0 {
        if pending[y] == 0 {
            stack.push(y as u32);
        }
        pending[y] |= seeds;
    }
}

/// The whole runs of set bits of `open` that contain a bit of `seeds`.
///
/// Downwards (towards bit 0) it is a doubling fill; then each run holds one
/// block that starts at the run's lowest bit, and adding that lowest bit to
/// `open` carries through exactly the run.
#[inline]
pub fn fill_runs(seeds: u128, open: u128) -> u128 {
    if seeds & open == 0 {
        return 0;
    }
    // One run (the common case on packed boards): it is the answer.
    if open.wrapping_add(open & open.wrapping_neg()) & open == 0 {
        return open;
    }
    let mut g = seeds & open;
    let mut p = open;
    g |= p & g >> 1;
    p &= p >> 1;
    g |= p & g >> 2;
    p &= p >> 2;
    g |= p & g >> 4;
    p &= p >> 4;
    g |= p & g >> 8;
    p &= p >> 8;
    g |= p & g >> 16;
    p &= p >> 16;
    g |= p & g >> 32;
    p &= p >> 32;
    g |= p & g >> 64;
    let starts = g & !(g << 1);
    (open.wrapping_add(starts) ^ open) & open
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_runs_takes_whole_runs_with_seeds() {
        let open = 0b1111_0011_1110_1111u128;
        assert_eq!(fill_runs(0b0100, open), 0b1111);
        assert_eq!(fill_runs(0b0101, open), 0b1111);
        assert_eq!(fill_runs(1 << 6, open), 0b11_1110_0000);
        assert_eq!(fill_runs(1 << 13, open), 0b1111_0000_0000_0000);
        assert_eq!(fill_runs(0, open), 0);
        assert_eq!(fill_runs(1 << 127, u128::MAX), u128::MAX);
        assert_eq!(fill_runs(1, u128::MAX), u128::MAX);
        let top = u128::MAX << 100;
        assert_eq!(fill_runs(1 << 110, top | 0b11), top);
    }

    /// A full board from a picture of colour digits, settled.
    fn settled(text: &[&str]) -> GrainGrid {
        let mut grid = GrainGrid::new(text[0].len(), text.len()).unwrap();
        for (y, row) in text.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                grid.insert(x, y, c.to_digit(10).unwrap() as u8);
            }
        }
        let mut rng = tessera_host::rng::game_rng(0);
        // A full board settles in one tick without a move.
        grid.step(&mut super::super::physics::RandomBits::new(&mut rng));
        assert!(grid.is_settled());
        grid
    }

    fn search(grid: &GrainGrid) -> (Vec<Cluster>, Vec<u128>) {
        let mut s = ClusterSearch::new(grid.height());
        let mut found = vec![0; grid.height()];
        let mut clusters = Vec::new();
        s.find_spanning(grid, 4, None, &mut found, &mut clusters);
        (clusters, found)
    }

    #[test]
    fn a_winding_cluster_spans_and_a_one_wall_cluster_does_not() {
        let grid = settled(&[
            "11111220", "22221220", "11111220", "12222222", "11111111", "33333333",
        ]);
        let (clusters, found) = search(&grid);
        // Colour 1 winds from the left wall to the right wall; colour 2 has
        // one part on each wall that never meet; colour 0 touches one wall.
        let found_colours: Vec<(u8, u32)> = clusters.iter().map(|c| (c.colour, c.grains)).collect();
        assert_eq!(found_colours, vec![(1, 5 + 1 + 5 + 1 + 8), (3, 8)]);
        assert_eq!(found[5], 0xff);
        assert_eq!(found[1], 1 << 4);
        assert_eq!(found[0], 0b1_1111);
    }

    #[test]
    fn two_clusters_of_one_colour_are_told_apart() {
        let grid = settled(&["1111", "2222", "1111", "3113"]);
        let (clusters, _) = search(&grid);
        let ones: Vec<u32> = clusters
            .iter()
            .filter(|c| c.colour == 1)
            .map(|c| c.grains)
            .collect();
        assert_eq!(ones, vec![4, 6]);
    }

    #[test]
    fn a_one_wall_cluster_is_not_found() {
        let grid = settled(&["1110", "1100", "1000", "2222"]);
        let (clusters, found) = search(&grid);
        assert_eq!(clusters.len(), 1);
        assert_eq!(clusters[0].colour, 2);
        assert_eq!(found[..3], [0, 0, 0]);
    }

    #[test]
    fn benchmark_boards_give_the_expected_clusters() {
        use super::super::scenarios;
        let (clusters, _) = search(&scenarios::one_colour_settled());
        assert_eq!(clusters.len(), 1);
        assert_eq!(clusters[0].grains, 120 * 220);
        let (clusters, found) = search(&scenarios::four_bands_settled());
        let sizes: Vec<(u8, u32, u32, u32)> = clusters
            .iter()
            .map(|c| (c.colour, c.grains, c.top, c.bottom))
            .collect();
        assert_eq!(
            sizes,
            vec![
                (0, 55 * 120, 0, 54),
                (1, 55 * 120, 55, 109),
                (2, 55 * 120, 110, 164),
                (3, 55 * 120, 165, 219)
            ]
        );
        assert!(found.iter().all(|&row| row == (1u128 << 120) - 1));
        let (clusters, _) = search(&scenarios::four_columns_settled());
        assert!(clusters.is_empty());
    }
}
