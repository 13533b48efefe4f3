//! Feed mode (seed 004, RULINGS "Tetris AI and feed mode"): the player
//! (or a headless feeder) chooses each piece the AI gets from an offer of
//! the seven plus, with the difficulty's chance, one special; the ceiling
//! drops a row every N AI pieces (the level's interval, else the
//! difficulty's); the player wins when a locked AI piece reaches it, the AI
//! on clearing the level's `target_lines`.

use tessera_host::plugin::{GameError, GameEvent, Outcome};
use tessera_host::rng::game_rng;
use tessera_host::script::Script;
use tessera_host::text::count;

use crate::Tetris;
use crate::ai::feeder::Feeder;
use crate::ai::settings::{self, ChosenDifficulty};
use crate::ai::{CeilingClock, Difficulty, Position, UnknownNext};
use crate::level::TetrisLevel;
use crate::piece::PieceKind;
use crate::rules::Lock;

/// Refuses a feed level whose difficulty the script does not have, as a
/// finding about the level's `feed.difficulty` field (so `check` names the
/// level file and line, as `play` would fail on it), and one whose
/// difficulty's line search does not fit its board.
pub(crate) fn check_level_difficulty(
    level: &TetrisLevel,
    feed: &crate::level::FeedLevel,
    script: &Script,
) -> Result<(), GameError> {
    let known = settings::table(script)?;
    if let Some(difficulty) = known
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(&feed.difficulty))
    {
        return search_fits_the_board(difficulty, level);
    }
    Err(GameError::Level(
        tessera_host::level::Diagnostic::error(
            std::path::Path::new(""),
            format!(
                "field `difficulty`: no difficulty `{}` in {}'s `ai.difficulties` (difficulties: {})",
                feed.difficulty,
                script.path().display(),
                known
                    .iter()
                    .map(|d| d.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
        .at("feed")
        .at("difficulty"),
    ))
}

/// Refuses a feed game whose AI row's line search does not fit the
/// memory budget on the level's board: the script's rows are checked for
/// the 10-wide feed board, and a wider level needs more per board. The
/// refusal is a finding about the level's `columns` (so `check`, `play`
/// and the editor all name the level file and line) and says how many
/// boards would fit.
fn search_fits_the_board(difficulty: &Difficulty, level: &TetrisLevel) -> Result<(), GameError> {
    let columns = level.columns as usize;
    let Some(why) = difficulty.search_over_budget_on(columns) else {
        return Ok(());
    };
    Err(GameError::Level(
        tessera_host::level::Diagnostic::error(
            std::path::Path::new(""),
            format!(
                "field `columns`: the AI's difficulty {}: {why}",
                difficulty.name
            ),
        )
        .at("columns"),
    ))
}

/// The refusal of an AI seat naming no difficulty of the script: a feeder
/// named where the AI plays (`--ai hatetris` in feed mode) is told so.
pub(crate) fn not_a_difficulty(name: &str) -> GameError {
    GameError::Invalid(if Feeder::from_name(name).is_some() {
        format!(
            "`{name}` is a feeder; feed mode's second seat is the AI: `ai:LEVEL` with a difficulty (e.g. `ai:god`)"
        )
    } else {
        format!("no difficulty `{name}` in the script's `ai.difficulties`")
    })
}

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
    /// The difficulty the AI plays (its ceiling interval and special
    /// chance come from here; re-read when the script changes), the
    /// script's row shared, not copied.
    pub difficulty: ChosenDifficulty,
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
    /// The reader's pieces in a row the player has given, the last one
    /// included (counted only for a difficulty with an `off_line`
    /// ranking, which reads it).
    pub reader_streak: u32,
    pub(crate) specials: Vec<PieceKind>,
    pub(crate) rng: tessera_host::rng::GameRng,
}

impl FeedState {
    /// AI pieces per ceiling row: the level's interval, else the
    /// difficulty's.
    pub fn ceiling_every(&self) -> u32 {
        self.level_ceiling_every
            .unwrap_or(self.difficulty.ceiling_every)
    }
}

/// Feed mode's starting state: the AI seat's difficulty, the level's
/// target, the specials of the script.
pub(crate) fn feed_state(
    level: &TetrisLevel,
    options: &tessera_host::options::SessionOptions,
    script: &Script,
    seed: u64,
) -> Result<FeedState, GameError> {
    if options.seats.len() != 2 {
        return Err(GameError::Invalid(format!(
            "feed mode is played by two seats (the feeder, then the AI), not {}",
            options.seats.len()
        )));
    }
    if let Some(first) = options.ai_level(0)
        && Feeder::from_name(first).is_none()
    {
        return Err(GameError::Invalid(format!(
            "feed mode's first seat feeds pieces: `human` or `ai:FEEDER` with FEEDER {}, not `ai:{first}`",
            Feeder::NAMES
        )));
    }
    let Some(name) = options.ai_level(1) else {
        return Err(GameError::Invalid(
            "feed mode's second seat is the AI: `ai:LEVEL` (e.g. `ai:god`)".into(),
        ));
    };
    let difficulty =
        settings::chosen_difficulty(script, name)?.ok_or_else(|| not_a_difficulty(name))?;
    search_fits_the_board(&difficulty, level)?;
    let specials = settings::feed_settings(script)?.specials;
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
        target_lines,
        ceiling: 0,
        lowering: level.feed.as_ref().is_none_or(|f| f.lowering_ceiling),
        since_drop: 0,
        ai_pieces: 0,
        level_ceiling_every: level.feed.as_ref().and_then(|f| f.ceiling_every),
        offer: Vec::new(),
        reader_streak: 0,
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
        match settings::chosen_difficulty(script, &name) {
            Ok(Some(difficulty)) => {
                if let Some(feed) = &mut self.feed {
                    feed.difficulty = difficulty;
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
            .map(|f| f.difficulty.name.clone())
            .unwrap_or_default()
    }

    /// The seven, plus one special with the difficulty's chance.
    pub(crate) fn new_offer(&mut self) {
        use rand::Rng;
        let Some(feed) = &mut self.feed else {
            return;
        };
        feed.offer = PieceKind::ALL.to_vec();
        let chance = feed.difficulty.special_chance;
        if !feed.specials.is_empty() && feed.rng.random_bool(chance.clamp(0.0, 1.0)) {
            let special = feed.specials[feed.rng.random_range(0..feed.specials.len())];
            feed.offer.push(special);
            self.events.push(GameEvent::info(format!(
                "special piece on offer: {special}"
            )));
        }
    }

    /// Whether `kind` is the piece a reader of the AI's difficulty would
    /// give on this board from this offer (the `hate` rule).
    fn is_reader_piece(&mut self, kind: PieceKind) -> bool {
        let Some(feed) = &self.feed else {
            return false;
        };
        // Shared, not copied: the row is the script's, the offer 8 pieces.
        let (difficulty, offer) = (feed.difficulty.clone(), feed.offer.clone());
        let position = Position {
            board: *self.field.board(),
            piece: kind,
            next: None,
            rotation: self.rotation(),
            spawn_row: self.field.spawn_row(),
            danger_rows: self.field.danger_rows(),
            ceiling: self.ceiling_clock(),
            unknown_next: UnknownNext::Worst(Vec::new()),
            reader_streak: 0,
        };
        crate::ai::is_reader_piece(&mut self.movegen, &position, &difficulty, &offer, kind)
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
        let (counts, streak) = (feed.difficulty.off_line.is_some(), feed.reader_streak);
        let reader_streak = if counts && self.is_reader_piece(kind) {
            streak.saturating_add(1)
        } else {
            0
        };
        if let Some(feed) = &mut self.feed {
            feed.reader_streak = reader_streak;
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
