//! The flow of a game through the script, per event: settings re-read
//! after a reload, scoring and levels at each lock, goals, the end of the
//! game and its hooks. Lua is called here per lock, never per tick.

use tessera_host::plugin::{GameEvent, Outcome};
use tessera_host::script::{Script, ScriptError};
use tessera_host::text::count;

use crate::level::Goal;
use crate::rules::Lock;
use crate::settings::{self, Settings};
use crate::{ClearRecord, Tetris, config_of};

impl Tetris {
    /// Re-reads the settings when the script changed since the last read;
    /// a bad value is reported and the last good settings stay.
    pub(crate) fn refresh_settings(&mut self, script: &Script) {
        let generation = self.script.generation();
        if generation == self.generation {
            return;
        }
        self.generation = generation;
        match Settings::read(script) {
            Ok(settings) => {
                self.settings = settings;
                if let Some(r) = self.level.randomizer_override() {
                    self.field.set_randomizer(r);
                } else {
                    self.field.set_randomizer(self.settings.randomizer);
                }
                self.field
                    .set_config(config_of(&self.settings, &self.level, self.level_no));
            }
            Err(error) => self.report(&error, "keeping the last good settings"),
        }
        // Feed mode's difficulty follows script edits too (feed.rs).
        self.refresh_feed_difficulty(script);
    }

    pub(crate) fn report(&mut self, error: &ScriptError, what: &str) {
        self.events
            .push(GameEvent::error(format!("{error} ({what})")));
    }

    pub(crate) fn forward_prints(&mut self, script: &Script) {
        for line in script.take_printed() {
            self.events.push(GameEvent::info(format!("script: {line}")));
        }
    }

    /// Scores a lock through the script and decides the outcome.
    pub(crate) fn on_lock(&mut self, lock: Lock) {
        let script = self.script.current();
        self.refresh_settings(&script);
        let tick = self.field.ticks();
        let p = lock.placement;
        self.events.push(GameEvent::info(format!(
            "lock {} at column {}, row {}",
            p.kind,
            p.left_column(),
            p.top_row()
        )));
        if lock.lines > 0 {
            let points = match settings::score(&script, lock.lines, self.level_no) {
                Ok(points) => points,
                Err(error) => {
                    self.report(&error, "this clear scores 0");
                    0
                }
            };
            self.score = self.score.saturating_add(points);
            let level = match settings::level_for(&script, self.score) {
                Ok(level) => level,
                Err(error) => {
                    self.report(&error, "the level stays");
                    self.level_no
                }
            };
            self.events.push(GameEvent::info(format!(
                "clear {} +{points} (score {})",
                count(lock.lines, "line"),
                self.score
            )));
            if level != self.level_no {
                self.level_no = level;
                self.events.push(GameEvent::info(format!("level {level}")));
                if let Err(error) = settings::hook(&script, "on_level_up", level) {
                    self.report(&error, "hook failed");
                }
                self.field
                    .set_config(config_of(&self.settings, &self.level, self.level_no));
            }
            self.log.push(ClearRecord {
                tick,
                lines: lock.lines,
                points,
                level: self.level_no,
            });
        }
        if let Err(error) = settings::hook(
            &script,
            "on_lock",
            (p.kind.letter().to_string(), lock.lines, self.score),
        ) {
            self.report(&error, "hook failed");
        }
        if self.feed.is_some() {
            self.feed_after_lock(&lock, &script);
            self.forward_prints(&script);
            return;
        }
        if lock.topped_out {
            let reason = if self.field.board().row(0) != 0 {
                "OVER: a block locked in the top row"
            } else {
                "OVER: the next piece cannot spawn"
            };
            self.end(Outcome::Lost, reason.into(), &script);
        } else if self.goal_met(&script) {
            self.end(Outcome::Won, format!("won: {}", self.level.goal), &script);
        } else if lock.out_of_pieces {
            self.end(
                Outcome::Lost,
                format!(
                    "OVER: the sequence ran out before the goal ({})",
                    self.level.goal
                ),
                &script,
            );
        }
        self.forward_prints(&script);
    }

    pub(crate) fn goal_met(&mut self, script: &Script) -> bool {
        match self.level.goal {
            Goal::Marathon => {
                match settings::won(script, self.score, self.level_no, self.lines()) {
                    Ok(won) => won,
                    Err(error) => {
                        self.report(&error, "not won");
                        false
                    }
                }
            }
            Goal::Score(n) => self.score >= n,
            Goal::Lines(n) => self.lines() >= n,
            Goal::ClearGarbage => self.field.garbage().is_empty(),
            Goal::Survive(n) => self.field.locked() >= n,
        }
    }

    pub(crate) fn end(&mut self, outcome: Outcome, reason: String, script: &Script) {
        self.field.finish();
        let won = outcome == Outcome::Won;
        self.outcome = outcome;
        self.events.push(GameEvent::info(reason.clone()));
        self.over_reason = Some(reason);
        if let Err(error) = settings::hook(script, "on_game_over", (self.score, won)) {
            self.report(&error, "hook failed");
        }
    }

    pub(crate) fn after(&mut self, lock: Option<Lock>) {
        if let Some(lock) = lock {
            self.on_lock(lock);
        }
    }
}
