//! The flow of time: one tick (physics, the clear timer), the spanning
//! check and the clear sequence it starts (scored through the script),
//! game over, and settling.

use std::sync::Arc;

use tessera_host::plugin::{GameError, GameEvent, Outcome};
use tessera_host::script::{Script, ScriptError};
use tessera_host::text::count;

use crate::physics::RandomBits;
use crate::settings::{self, ClearTimings};
use crate::{ClearPhase, ClearRound, SETTLE_LIMIT, Sand, ScoredCluster};

impl Sand {
    /// One tick: physics, the clear timer, then a check when one is due.
    pub(crate) fn tick_once(&mut self) {
        self.tick += 1;
        self.grid.step(&mut RandomBits::new(&mut self.physics_rng));
        match self.phase {
            Some(ClearPhase::Flash { left }) if left > 1 => {
                self.phase = Some(ClearPhase::Flash { left: left - 1 });
            }
            Some(ClearPhase::Flash { .. }) => {
                let total = self.timings_now().burst;
                self.phase = Some(ClearPhase::Burst { left: total, total });
                if total == 0 {
                    self.remove_cleared();
                }
            }
            Some(ClearPhase::Burst { left, total }) if left > 1 => {
                self.phase = Some(ClearPhase::Burst {
                    left: left - 1,
                    total,
                });
            }
            Some(ClearPhase::Burst { .. }) => self.remove_cleared(),
            None => {}
        }
        let mut i = 0;
        while i < self.in_flight.len() {
            let tag = self.in_flight[i];
            if self.grid.any_awake_with_tag(tag) {
                i += 1;
            } else {
                self.grid.clear_tag(tag);
                self.in_flight.swap_remove(i);
                self.piece_check_due = true;
            }
        }
        if self.phase.is_none()
            && (self.piece_check_due || self.check_due && self.grid.is_settled())
        {
            self.run_check();
        }
    }

    fn remove_cleared(&mut self) {
        let removed = self.grid.remove(&self.clearing);
        self.cleared_grains += removed as u64;
        self.clearing.fill(0);
        self.phase = None;
        self.check_due = true;
        self.chain_pending = true;
    }

    fn timings_now(&mut self) -> ClearTimings {
        let script = self.script.current();
        match self.settings.timings(&script) {
            Ok(timings) => timings,
            Err(error) => {
                self.report(&error);
                ClearTimings {
                    flash: (settings::DEFAULT_FLASH_SECONDS * self.settings.ticks_per_second)
                        .round() as u32,
                    burst: (settings::DEFAULT_CLEAR_SECONDS * self.settings.ticks_per_second)
                        .round() as u32,
                }
            }
        }
    }

    fn report(&mut self, error: &ScriptError) {
        self.events.push(GameEvent::error(error.to_string()));
    }

    fn forward_prints(&mut self, script: &Script) {
        for line in script.take_printed() {
            self.events.push(GameEvent::info(format!("script: {line}")));
        }
    }

    /// The spanning check (settled grains only). Runs when a placed piece
    /// has settled, and when the board has settled after a removal.
    fn run_check(&mut self) {
        let board_settled = self.grid.is_settled();
        self.piece_check_due = false;
        if board_settled {
            self.check_due = false;
        }
        let script = self.script.current();
        let colours = self.settings.palette.len() as u8;
        self.clearing.fill(0);
        // Nothing is being cleared while a check runs: nothing to exclude.
        self.search.find_spanning(
            &self.grid,
            colours,
            None,
            &mut self.clearing,
            &mut self.clusters,
        );
        if self.clusters.is_empty() {
            // The chain ends when the board has settled after its last
            // removal without a new clear.
            if board_settled || !self.chain_pending {
                self.chain = 0;
                self.chain_pending = false;
            }
            if board_settled {
                if let Err(error) = settings::hook(&script, "on_settle", self.score) {
                    self.report(&error);
                }
                self.forward_prints(&script);
            }
            self.check_game_over_with(&script);
            return;
        }
        self.chain = if self.chain_pending {
            self.chain + 1
        } else {
            1
        };
        self.chain_pending = false;
        let chain = self.chain;
        let area = (self.cell * self.cell) as f64;
        let mut round = ClearRound {
            tick: self.tick,
            chain,
            clusters: Vec::with_capacity(self.clusters.len()),
        };
        for cluster in self.clusters.clone() {
            let cells = f64::from(cluster.grains) / area;
            let points = match settings::score(&script, cells, chain) {
                Ok(points) => points,
                Err(error) => {
                    self.report(&error);
                    0
                }
            };
            round.clusters.push(ScoredCluster {
                colour: cluster.colour,
                grains: cluster.grains,
                cells,
                points,
            });
        }
        let points = round.points();
        self.score = self.score.saturating_add(points);
        let cells: f64 = round.clusters.iter().map(|c| c.cells).sum();
        if let Err(error) = settings::hook(
            &script,
            "on_clear",
            (chain, round.clusters.len(), cells, points),
        ) {
            self.report(&error);
        }
        self.forward_prints(&script);
        let letters = self.settings.letters();
        for cluster in &round.clusters {
            self.events.push(GameEvent::info(format!(
                "clear chain x{chain}: {} {} ({} cells) +{}",
                letters.get(usize::from(cluster.colour)).unwrap_or(&'?'),
                count(cluster.grains, "grain"),
                cluster.cells,
                cluster.points
            )));
        }
        self.log.push(round);
        if let Some(goal) = self.level.clears
            && self.clears() >= u64::from(goal)
            && !self.outcome.is_over()
        {
            self.outcome = Outcome::Won;
            self.events.push(GameEvent::info(format!(
                "won: {}",
                count(goal, "spanning clear")
            )));
        }
        let timings = self.timings_now();
        if timings.flash > 0 {
            self.phase = Some(ClearPhase::Flash {
                left: timings.flash,
            });
        } else if timings.burst > 0 {
            self.phase = Some(ClearPhase::Burst {
                left: timings.burst,
                total: timings.burst,
            });
        } else {
            self.phase = Some(ClearPhase::Burst { left: 1, total: 1 });
        }
    }

    /// Ends the game when no slot piece fits anywhere (with the current
    /// script for its `on_game_over` hook).
    pub(crate) fn check_game_over(&mut self) {
        let script = self.script.current();
        self.check_game_over_with(&script);
    }

    fn check_game_over_with(&mut self, script: &Arc<Script>) {
        if self.outcome.is_over() {
            return;
        }
        let reason = if self.has_tray() && self.slots.is_empty() {
            // The last pieces may still clear: only a settled board ends it.
            if !self.is_idle() {
                return;
            }
            "game over: the tray is empty"
        } else if (0..self.slots.len()).any(|slot| self.fits_anywhere(slot)) {
            return;
        } else {
            "game over: no slot piece fits anywhere"
        };
        self.outcome = Outcome::Lost;
        self.events.push(GameEvent::info(reason));
        if let Err(error) = settings::hook(script, "on_game_over", self.score) {
            self.report(&error);
        }
        self.forward_prints(script);
    }

    /// Advances until idle (settled, no clear, no check due); returns the
    /// ticks taken.
    pub fn settle(&mut self) -> Result<u64, GameError> {
        let start = self.tick;
        while !self.is_idle() {
            if self.tick - start >= SETTLE_LIMIT {
                return Err(GameError::Invalid(format!(
                    "the board did not settle within {SETTLE_LIMIT} ticks"
                )));
            }
            self.tick_once();
        }
        Ok(self.tick - start)
    }
}
