//! Feed mode (seed 004, RULINGS "Tetris AI and feed mode"): the player
//! (or a headless feeder) chooses each piece the AI gets from an offer of
//! the seven plus, with the difficulty's chance, one special; the ceiling
//! drops a row every N AI pieces (the level's interval, else the
//! difficulty's); the player wins when a locked AI piece reaches it, the AI
//! on clearing the level's `target_lines`.
//!
//! These are the rules of feed mode and name no bot: the difficulty's feed
//! rules come from the rules' own reader (`crate::feed_rules`), and each
//! piece the player gives is recorded with the position it was given on
//! ([`Given`]), the facts a bot reads the player by.

use tessera_host::plugin::{GameError, GameEvent, Outcome};
use tessera_host::rng::game_rng;
use tessera_host::script::Script;
use tessera_host::text::count;

use crate::Tetris;
use crate::board::Board;
use crate::feed_rules::{self, CeilingClock, FeedRules};
use crate::level::TetrisLevel;
use crate::piece::{PieceKind, RotationSystem};
use crate::rules::Lock;

/// The board feed mode plays on without a level: the seed's 22 x 10, a
/// lowering ceiling, 20 lines for the AI playing `difficulty`.
pub fn default_feed_level(difficulty: &str) -> TetrisLevel {
    TetrisLevel {
        title: "Feed the AI, 22 x 10".into(),
        rows: 22,
        columns: 10,
        feed: Some(crate::level::FeedLevel {
            difficulty: difficulty.into(),
            target_lines: 20,
            lowering_ceiling: true,
            ceiling_every: None,
        }),
        ..TetrisLevel::default()
    }
}

/// Feed mode's state: the ceiling, the offer and the AI's progress.
#[derive(Debug, Clone)]
pub struct FeedState {
    /// The difficulty the AI plays: the name of its row in the script's
    /// `ai.difficulties`, as the script spells it.
    pub difficulty: String,
    /// That row's feed rules (its ceiling interval and special chance;
    /// re-read when the script changes).
    pub rules: FeedRules,
    /// The AI wins on clearing this many lines.
    pub target_lines: u64,
    /// Rows closed off above the ceiling line.
    pub ceiling: usize,
    /// Whether the ceiling comes down at all (the level's switch).
    pub lowering: bool,
    /// AI pieces placed since the ceiling last dropped.
    pub since_drop: u32,
    /// Pieces the AI has placed.
    pub ai_pieces: u64,
    /// What the player may give now.
    pub offer: Vec<PieceKind>,
    /// The level's own ceiling interval (it overrides the difficulty's).
    pub level_ceiling_every: Option<u32>,
    /// Every piece the player has given, first given first, each with the
    /// position it was given on.
    pub given: Vec<Given>,
    pub(crate) specials: Vec<PieceKind>,
    pub(crate) rng: tessera_host::rng::GameRng,
}

/// One piece the player gave, and what it was given on: the facts, as
/// the rules saw them when the player chose (before the piece spawned).
#[derive(Debug, Clone, PartialEq)]
pub struct Given {
    /// The piece given.
    pub kind: PieceKind,
    /// What was on offer.
    pub offer: Vec<PieceKind>,
    /// The locked cells.
    pub board: Board,
    /// The rotation system in force.
    pub rotation: RotationSystem,
    /// The row pieces spawned at.
    pub spawn_row: i32,
    /// Rows from the top where a locked cell topped out.
    pub danger_rows: usize,
    /// When the ceiling was to drop next.
    pub ceiling: CeilingClock,
}

impl FeedState {
    /// AI pieces per ceiling row: the level's interval, else the
    /// difficulty's.
    pub fn ceiling_every(&self) -> u32 {
        self.level_ceiling_every.unwrap_or(self.rules.ceiling_every)
    }
}

/// The refusal of a feed game not played by two seats.
pub fn check_seat_count(options: &tessera_host::options::SessionOptions) -> Result<(), GameError> {
    if options.seats.len() != 2 {
        return Err(GameError::Invalid(format!(
            "feed mode is played by two seats (the feeder, then the AI), not {}",
            options.seats.len()
        )));
    }
    Ok(())
}

/// Feed mode's starting state: the AI seat's difficulty and its feed
/// rules, the level's target, the specials of the script.
pub(crate) fn feed_state(
    level: &TetrisLevel,
    options: &tessera_host::options::SessionOptions,
    script: &Script,
    seed: u64,
) -> Result<FeedState, GameError> {
    check_seat_count(options)?;
    let Some(name) = options.ai_level(1) else {
        return Err(GameError::Invalid(
            "feed mode's second seat is the AI: `ai:LEVEL` (e.g. `ai:god`)".into(),
        ));
    };
    let (difficulty, rules) = feed_rules::for_difficulty(script, name)?.ok_or_else(|| {
        GameError::Invalid(format!(
            "no difficulty `{name}` in the script's `ai.difficulties`"
        ))
    })?;
    let specials = feed_rules::specials(script)?;
    let target_lines = level
        .feed
        .as_ref()
        .map_or(20, |f| u64::from(f.target_lines));
    let mut rng = game_rng(seed);
    // Offers draw from a stream of their own, so they do not shift with
    // the pieces the randomizer would have drawn.
    rng.set_stream(1);
    Ok(FeedState {
        difficulty,
        rules,
        target_lines,
        ceiling: 0,
        lowering: level.feed.as_ref().is_none_or(|f| f.lowering_ceiling),
        since_drop: 0,
        ai_pieces: 0,
        level_ceiling_every: level.feed.as_ref().and_then(|f| f.ceiling_every),
        offer: Vec::new(),
        given: Vec::new(),
        specials,
        rng,
    })
}

impl Tetris {
    /// Feed mode after an AI lock: the AI's target, the ceiling, the next
    /// offer.
    pub(crate) fn feed_after_lock(&mut self, lock: &Lock, script: &Script) {
        let lines = self.lines();
        let Some(feed) = &mut self.feed else {
            return;
        };
        feed.ai_pieces += 1;
        feed.since_drop += 1;
        if lock.topped_out {
            let reason = "player wins: the AI's piece reached the ceiling".to_string();
            self.end(Outcome::Winner(0), reason, script);
            return;
        }
        if lines >= feed.target_lines {
            let reason = format!(
                "AI wins: it cleared {} (target {})",
                count(lines, "line"),
                feed.target_lines
            );
            self.end(Outcome::Winner(1), reason, script);
            return;
        }
        if feed.lowering && feed.since_drop >= feed.ceiling_every() {
            feed.since_drop = 0;
            feed.ceiling += 1;
            let ceiling = feed.ceiling;
            let touches = self.field.set_ceiling(ceiling);
            self.events.push(GameEvent::info(format!(
                "the ceiling drops: {} closed",
                count(ceiling, "row")
            )));
            if touches {
                let reason = "player wins: the ceiling came down onto the AI's stack".to_string();
                self.end(Outcome::Winner(0), reason, script);
                return;
            }
        }
        self.new_offer();
    }

    /// When the ceiling drops next, for the AI's search: never in classic
    /// play or on a level whose ceiling stays.
    pub(crate) fn ceiling_clock(&self) -> CeilingClock {
        match &self.feed {
            Some(feed) if feed.lowering => {
                let every = feed.ceiling_every().max(1);
                CeilingClock {
                    drops_after: every.saturating_sub(feed.since_drop).max(1),
                    every,
                }
            }
            _ => CeilingClock::default(),
        }
    }

    /// Feed mode's ceiling interval and special chance follow script
    /// edits, read once per script version like the settings (the flow's
    /// `refresh_settings` asks after a reload).
    pub(crate) fn refresh_feed_difficulty(&mut self, script: &Script) {
        let name = self.feed_difficulty_name();
        if name.is_empty() {
            return;
        }
        match feed_rules::for_difficulty(script, &name) {
            Ok(Some((difficulty, rules))) => {
                if let Some(feed) = &mut self.feed {
                    feed.difficulty = difficulty;
                    feed.rules = rules;
                }
            }
            Ok(None) => self.events.push(GameEvent::error(format!(
                "{}: the difficulty `{name}` is gone from `ai.difficulties` (keeping its last values)",
                script.path().display()
            ))),
            Err(error) => self.report(&error, "keeping the AI's last values"),
        }
    }

    pub(crate) fn feed_difficulty_name(&self) -> String {
        self.feed
            .as_ref()
            .map(|f| f.difficulty.clone())
            .unwrap_or_default()
    }

    /// The seven, plus one special with the difficulty's chance.
    pub(crate) fn new_offer(&mut self) {
        use rand::Rng;
        let Some(feed) = &mut self.feed else {
            return;
        };
        feed.offer = PieceKind::ALL.to_vec();
        let chance = feed.rules.special_chance;
        if !feed.specials.is_empty() && feed.rng.random_bool(chance.clamp(0.0, 1.0)) {
            let special = feed.specials[feed.rng.random_range(0..feed.specials.len())];
            feed.offer.push(special);
            self.events.push(GameEvent::info(format!(
                "special piece on offer: {special}"
            )));
        }
    }

    /// Feed mode: the player gives `kind`.
    pub(crate) fn feed_piece(&mut self, kind: PieceKind) -> Result<(), GameError> {
        let Some(feed) = &self.feed else {
            return Err(GameError::Illegal(
                "Feed is for feed mode; this is a classic game".into(),
            ));
        };
        if self.field.active().is_some() {
            return Err(GameError::Illegal(
                "the AI is still placing the last piece".into(),
            ));
        }
        if !feed.offer.contains(&kind) {
            return Err(GameError::Illegal(format!(
                "{kind} is not on offer (offer: {})",
                feed.offer.iter().map(|k| k.letter()).collect::<String>()
            )));
        }
        let given = Given {
            kind,
            offer: feed.offer.clone(),
            board: *self.field.board(),
            rotation: self.rotation(),
            spawn_row: self.field.spawn_row(),
            danger_rows: self.field.danger_rows(),
            ceiling: self.ceiling_clock(),
        };
        if let Some(feed) = &mut self.feed {
            feed.given.push(given);
        }
        self.events
            .push(GameEvent::info(format!("the player gives {kind}")));
        if !self.field.feed(kind) {
            let script = self.script.current();
            self.end(
                Outcome::Winner(0),
                format!("player wins: the AI's {kind} cannot spawn under the ceiling"),
                &script,
            );
        }
        Ok(())
    }
}
