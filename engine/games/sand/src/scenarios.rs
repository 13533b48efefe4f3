//! Boards for benchmarks and stress tests (shared by the criterion benches
//! and `tessera bench sand`, so both measure the same thing).

use super::grid::GrainGrid;

/// Default board size in grains.
pub const WIDTH: usize = 120;
/// Default board height in grains.
pub const HEIGHT: usize = 220;

/// Every cell filled, colours in a checker of 10x10 cells over `colours`
/// colours, every grain awake: the most grains a tick can visit.
pub fn full_board_awake(colours: u8) -> GrainGrid {
    let mut grid = filled(|x, y| ((x / 10 + y / 10) % usize::from(colours.max(1))) as u8);
    grid.wake_all();
    grid
}

/// The top half full and awake over an empty bottom half: every grain
/// moves every tick (the most moves a tick can make).
pub fn half_board_falling() -> GrainGrid {
    let mut grid = GrainGrid::new(WIDTH, HEIGHT).unwrap_or_else(|_| unreachable_grid());
    for y in 0..HEIGHT / 2 {
        grid.fill_area(0, y, WIDTH, 1, ((y / 10) % 4) as u8);
    }
    grid
}

/// One colour fills the board, settled: the largest spanning cluster.
pub fn one_colour_settled() -> GrainGrid {
    settle_full(filled(|_, _| 0))
}

/// Four horizontal bands of one colour each (55 rows), settled: four
/// spanning clusters.
pub fn four_bands_settled() -> GrainGrid {
    settle_full(filled(|_, y| (y * 4 / HEIGHT) as u8))
}

/// Four vertical bands (30 columns each), settled: nothing spans, but the
/// left band is filled before that is known.
pub fn four_columns_settled() -> GrainGrid {
    settle_full(filled(|x, _| (x * 4 / WIDTH) as u8))
}

/// A full board settled without moving anything: all grains asleep.
pub fn settled(mut grid: GrainGrid) -> GrainGrid {
    let mut rng = tessera_host::rng::game_rng(0);
    while !grid.is_settled() {
        grid.step(&mut super::physics::RandomBits::new(&mut rng));
    }
    grid
}

fn settle_full(grid: GrainGrid) -> GrainGrid {
    settled(grid)
}

fn filled(colour: impl Fn(usize, usize) -> u8) -> GrainGrid {
    let mut grid = GrainGrid::new(WIDTH, HEIGHT).unwrap_or_else(|_| unreachable_grid());
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            grid.insert(x, y, colour(x, y));
        }
    }
    grid
}

/// The constants above are a valid size; this only satisfies the types.
fn unreachable_grid() -> GrainGrid {
    panic!("{WIDTH}x{HEIGHT} is a valid grain grid")
}
