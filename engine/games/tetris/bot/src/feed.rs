//! What the bot checks of a game before it is played, and what it reads
//! of the rules' feed facts: a seat or level naming a difficulty the
//! script does not have (or a feeder where the AI plays), a difficulty
//! whose search does not fit the board, and the reader's streak, counted
//! from the pieces the player gave ([`tessera_tetris::feed::Given`]) with the AI's
//! own ranking.

use std::sync::{Arc, Mutex};

use tessera_host::level::{Diagnostic, LevelFile};
use tessera_host::options::SessionOptions;
use tessera_host::plugin::{GameError, Setup};
use tessera_host::script::Script;
use tessera_tetris::TetrisSnapshot;
use tessera_tetris::feed::{FeedState, Given, check_seat_count, default_feed_level};
use tessera_tetris::level::TetrisLevel;
use tessera_tetris::movegen::MoveGen;
use tessera_tetris::piece::PieceKind;
use tessera_tetris::settings::Settings;

use crate::ai::feeder::Feeder;
use crate::ai::settings;
use crate::ai::{Difficulty, Position, UnknownNext};

/// The bot's checks of a game about to start (its registered start
/// check): a difficulty named on the command line for feed mode's own
/// board, a feed level's difficulty, then the seats. Each runs where the
/// rules' own start would have reached it, so a game with several faults
/// is refused at the same first one with or without the bot: what the
/// rules refuse earlier (a broken level or script, a wrong seat count) is
/// left to them.
pub fn check_start(setup: &Setup<TetrisLevel>) -> Result<(), GameError> {
    let script = setup.script.current();
    let options = &setup.options;
    let feed_mode = options.mode() == "feed";
    let mut own_board = None;
    if feed_mode && setup.level == TetrisLevel::default() {
        let ai = options.ai_level(1).unwrap_or("GOD");
        // Named on the command line, not in a level: bad usage, in the
        // seat's words rather than a level field's.
        check_named_difficulty(&script, ai)?;
        own_board = Some(default_feed_level(ai));
    }
    let level = own_board.as_ref().unwrap_or(&setup.level);
    if level.diagnose().iter().any(Diagnostic::is_error) || Settings::read(&script).is_err() {
        return Ok(());
    }
    if let Some(feed_level) = &level.feed {
        check_level_difficulty(level, feed_level, &script)?;
    }
    if feed_mode {
        if check_seat_count(options).is_err() {
            return Ok(());
        }
        check_feed_seats(level, options, &script)
    } else {
        if options.seats.len() > 1 {
            return Ok(());
        }
        check_classic_seat(options)
    }
}

/// Refuses a feed level whose difficulty the script does not have, as a
/// finding about the level's `feed.difficulty` field (so `check` names the
/// level file and line, as `play` would fail on it), and one whose
/// difficulty's line search does not fit its board.
pub fn check_level_difficulty(
    level: &TetrisLevel,
    feed: &tessera_tetris::level::FeedLevel,
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
pub fn not_a_difficulty(name: &str) -> GameError {
    GameError::Invalid(if Feeder::from_name(name).is_some() {
        format!(
            "`{name}` is a feeder; feed mode's second seat is the AI: `ai:LEVEL` with a difficulty (e.g. `ai:god`)"
        )
    } else {
        format!("no difficulty `{name}` in the script's `ai.difficulties`")
    })
}

/// A difficulty named on the command line for feed mode's own board (no
/// level file): refused in the seat's words rather than a level field's.
pub fn check_named_difficulty(script: &Script, name: &str) -> Result<(), GameError> {
    if settings::chosen_difficulty(script, name)?.is_none() {
        return Err(not_a_difficulty(name));
    }
    Ok(())
}

/// Feed mode's seats as the bot reads them (after the rules counted two):
/// the first feeds (a person or a feeder), the second is an AI playing a
/// difficulty of the script whose search fits the level's board.
pub fn check_feed_seats(
    level: &TetrisLevel,
    options: &SessionOptions,
    script: &Script,
) -> Result<(), GameError> {
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
    search_fits_the_board(&difficulty, level)
}

/// A classic game's AI seat: a feeder plays only feed mode.
pub fn check_classic_seat(options: &SessionOptions) -> Result<(), GameError> {
    if let Some(level_name) = options.ai_level(0)
        && Feeder::from_name(level_name).is_some()
    {
        return Err(GameError::Invalid(format!(
            "`{level_name}` is a feeder for feed mode; a classic AI seat names a difficulty"
        )));
    }
    Ok(())
}

/// The reader's streak of a feed game, counted as the player gives: how
/// many of the pieces given last, in a row, a reader of the AI's
/// difficulty would have given on their boards (the `hate` rule). Kept
/// with the game's other working memory ([`super::memory`]): each piece
/// given is judged once, when a snapshot first sees it.
pub struct StreakMemo {
    /// Pieces given that have been judged.
    judged: usize,
    /// The streak after them.
    streak: u32,
    /// The reader's move generator.
    movegen: Box<MoveGen>,
}

impl Default for StreakMemo {
    fn default() -> Self {
        Self {
            judged: 0,
            streak: 0,
            movegen: Box::new(MoveGen::new()),
        }
    }
}

/// A game's streak memo, shared by its snapshots.
pub type SharedStreak = Arc<Mutex<StreakMemo>>;

/// The reader's streak of `feed` for an AI playing `difficulty`: 0 for a
/// difficulty without an `off_line` ranking (it does not read the streak).
/// The pieces not judged yet are judged by `difficulty` as it is now.
pub fn reader_streak(feed: &FeedState, difficulty: &Difficulty, memo: &SharedStreak) -> u32 {
    let Ok(mut memo) = memo.lock() else {
        return 0;
    };
    let memo = &mut *memo;
    if memo.judged > feed.given.len() {
        // Not this game's record (it cannot shrink): count afresh.
        memo.judged = 0;
        memo.streak = 0;
    }
    let counts = difficulty.off_line.is_some();
    for given in &feed.given[memo.judged..] {
        memo.streak = if counts && is_reader_piece(&mut memo.movegen, given, difficulty) {
            memo.streak.saturating_add(1)
        } else {
            0
        };
    }
    memo.judged = feed.given.len();
    memo.streak
}

/// Whether `given.kind` is the piece a reader of `difficulty` would have
/// given on that board from that offer.
fn is_reader_piece(movegen: &mut MoveGen, given: &Given, difficulty: &Difficulty) -> bool {
    let position = Position {
        board: given.board,
        piece: given.kind,
        next: None,
        rotation: given.rotation,
        spawn_row: given.spawn_row,
        danger_rows: given.danger_rows,
        ceiling: given.ceiling,
        unknown_next: UnknownNext::Worst(Vec::new()),
        reader_streak: 0,
    };
    crate::ai::is_reader_piece(movegen, &position, difficulty, &given.offer, given.kind)
}

/// What the AI decides on, for the piece in play of `snapshot`, with the
/// reader's streak the bot counted for the game ([`crate::agents::reader_streak`]).
pub fn position(snapshot: &TetrisSnapshot, reader_streak: u32) -> Option<Position> {
    let active = snapshot.active?;
    Some(Position {
        board: snapshot.board,
        piece: active.kind,
        next: if snapshot.feed {
            None
        } else {
            snapshot.queue.first().copied()
        },
        rotation: snapshot.rotation,
        spawn_row: snapshot.spawn_row,
        danger_rows: snapshot.danger_rows,
        ceiling: snapshot.ceiling,
        reader_streak,
        // In feed mode the player may give any of the seven, or the
        // special on offer: the lookahead expects the worst of them.
        unknown_next: if snapshot.feed {
            let mut pieces = PieceKind::ALL.to_vec();
            pieces.extend(snapshot.offer.iter().filter(|k| !k.is_tetromino()));
            UnknownNext::Worst(pieces)
        } else {
            UnknownNext::Average(PieceKind::ALL.to_vec())
        },
    })
}
