//! Dealing a round: factories filled from the bag, the lid refilling it.

use rand::Rng;

use super::{COLOURS, MAX_FACTORIES, MAX_FACTORY_TILES, State, TilingReport};

/// One deal: per factory, its tiles in the order drawn (255 = empty slot).
pub type Deal = [[u8; MAX_FACTORY_TILES]; MAX_FACTORIES];

impl State {
    /// Fills the factories from the bag (refilling the bag from the lid
    /// when it runs out; both empty: the round starts with what was
    /// dealt). Writes the draw order into `deal` when given. Ends the game
    /// when nothing at all could be dealt (no move would exist).
    pub fn deal<R: Rng + ?Sized>(&mut self, rng: &mut R, mut deal: Option<&mut Deal>) {
        let mut bag_total: u32 = self.bag.iter().map(|&n| u32::from(n)).sum();
        let per_factory = (self.rules.tiles_per_factory as usize).min(MAX_FACTORY_TILES);
        if let Some(d) = deal.as_deref_mut() {
            *d = [[255; MAX_FACTORY_TILES]; MAX_FACTORIES];
        }
        'factories: for f in 0..self.factory_count as usize {
            for slot in 0..per_factory {
                if bag_total == 0 {
                    self.bag = self.lid;
                    self.lid = [0; COLOURS];
                    bag_total = self.bag.iter().map(|&n| u32::from(n)).sum();
                    if bag_total == 0 {
                        break 'factories;
                    }
                }
                let pick = rng.random_range(0..bag_total);
                // The colour whose run of the bag's tiles holds `pick`
                // (branch-free: draws are unpredictable by design).
                let mut edge = 0u32;
                let mut colour = 0usize;
                for k in 0..COLOURS - 1 {
                    edge += u32::from(self.bag[k]);
                    colour += usize::from(pick >= edge);
                }
                self.bag[colour] -= 1;
                bag_total -= 1;
                self.factories[f][colour] += 1;
                self.on_table += 1;
                if let Some(d) = deal.as_deref_mut() {
                    d[f][slot] = colour as u8;
                }
            }
        }
        if self.on_table == 0 {
            // Every tile sits on walls and pattern lines: no move exists,
            // so the game cannot go on.
            self.finish_game(&mut TilingReport::default());
        }
        self.debug_check();
    }
}
