//! The whole table as one `Copy` state: boards, factories, centre, bag and
//! lid; the game's full cycle (`step`), winners and tile conservation.

use rand::Rng;

use super::{Board, COLOURS, MAX_FACTORIES, MAX_PLAYERS, Move, Rules};

/// The whole table, `Copy`, with no random generator (dealing takes one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// The numbers in force.
    pub rules: Rules,
    /// Players (2..=4).
    pub players: u8,
    /// Factories in play.
    pub factory_count: u8,
    /// Boards, one per player.
    pub boards: [Board; MAX_PLAYERS],
    /// Factory contents, per colour.
    pub factories: [[u8; COLOURS]; MAX_FACTORIES],
    /// Centre contents, per colour.
    pub centre: [u8; COLOURS],
    /// Whether the first-player marker is still in the centre.
    pub marker_in_centre: bool,
    /// The bag, per colour.
    pub bag: [u8; COLOURS],
    /// The box lid (discards that refill the bag), per colour.
    pub lid: [u8; COLOURS],
    /// Tiles on factories and centre (0 ends the taking phase).
    pub on_table: u8,
    /// The player to move.
    pub to_move: u8,
    /// Who starts the next round (the marker's taker).
    pub next_first: u8,
    /// Round number, from 1.
    pub round: u16,
    /// Whether the game is over.
    pub over: bool,
    /// Grey wall: the tiling waits for `to_move`'s column choice for its
    /// first full line ([`State::pending_choice`]).
    pub tiling: bool,
}

impl State {
    /// A fresh table: every tile in the bag, nothing dealt yet (call
    /// [`State::deal`]).
    pub fn new(rules: Rules, players: usize) -> Self {
        let players = players.clamp(2, MAX_PLAYERS);
        let board = Board {
            grey: rules.grey_wall,
            ..Board::default()
        };
        Self {
            rules,
            players: players as u8,
            factory_count: rules.factories_for(players).min(MAX_FACTORIES) as u8,
            boards: [board; MAX_PLAYERS],
            factories: [[0; COLOURS]; MAX_FACTORIES],
            centre: [0; COLOURS],
            marker_in_centre: true,
            bag: [rules.tiles_per_colour; COLOURS],
            lid: [0; COLOURS],
            on_table: 0,
            to_move: 0,
            next_first: 0,
            round: 1,
            over: false,
            tiling: false,
        }
    }

    /// Plays `m` and, when the round ends, tiles the walls and deals the
    /// next round from `rng` (the whole cycle, for playouts and tests).
    #[inline]
    pub fn step<R: Rng + ?Sized>(&mut self, m: Move, rng: &mut R) {
        if self.play(m) {
            self.tile_walls();
            if !self.over {
                self.deal(rng, None);
            }
        }
    }

    /// The winners: highest score, ties broken by complete rows; several
    /// seats when still tied.
    pub fn winners(&self) -> ([bool; MAX_PLAYERS], usize) {
        let n = self.players as usize;
        let key = |p: usize| (self.boards[p].score, self.boards[p].complete_rows());
        let best = (0..n).map(key).max().unwrap_or((0, 0));
        let mut out = [false; MAX_PLAYERS];
        let mut count = 0;
        for (p, slot) in out.iter_mut().enumerate().take(n) {
            if key(p) == best {
                *slot = true;
                count += 1;
            }
        }
        (out, count)
    }

    /// Every tile counted: bag, lid, factories, centre, and each board.
    pub fn tile_count(&self) -> u32 {
        let sum = |a: &[u8; COLOURS]| a.iter().map(|&n| u32::from(n)).sum::<u32>();
        sum(&self.bag)
            + sum(&self.lid)
            + sum(&self.centre)
            + self.factories.iter().map(sum).sum::<u32>()
            + self.boards[..self.players as usize]
                .iter()
                .map(Board::tiles)
                .sum::<u32>()
    }

    /// Tiles of each colour in play everywhere.
    pub fn colour_counts(&self) -> [u32; COLOURS] {
        let mut out = [0u32; COLOURS];
        for (k, slot) in out.iter_mut().enumerate() {
            *slot = u32::from(self.bag[k]) + u32::from(self.lid[k]) + u32::from(self.centre[k]);
            for f in &self.factories {
                *slot += u32::from(f[k]);
            }
            for b in &self.boards[..self.players as usize] {
                *slot += u32::from(b.floor[k]);
                *slot += b
                    .lines
                    .iter()
                    .filter(|l| l.count > 0 && l.colour as usize == k)
                    .map(|l| u32::from(l.count))
                    .sum::<u32>();
                *slot += b.colour_tiles(k);
            }
        }
        out
    }

    #[inline]
    pub(super) fn debug_check(&self) {
        debug_assert_eq!(
            self.tile_count(),
            self.rules.total_tiles(),
            "tile conservation broken: {self:?}"
        );
    }
}
