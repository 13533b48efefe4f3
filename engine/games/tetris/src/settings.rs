//! What the game reads from `scripts/tetris.lua`: timings in ticks, the
//! speed table, preview, hold, rotation system, randomizer, and the flow
//! functions (score, level, won) with the seed's defaults. Every read
//! happens per event (a spawn, a lock, a clear), never per tick.
//!
//! The script's `ai` table is the bot's, read by the bot's own reader;
//! feed mode's values in it (each row's `special_chance` and
//! `ceiling_every`) and the `feed` table are read by the rules'
//! [`crate::feed_rules`] (the game's `check_script` runs every reader).

use tessera_host::mlua::Value;
use tessera_host::script::{
    FieldKind, FieldSpec, Script, ScriptError, ScriptErrorKind, ScriptSchema, show_number,
};

use crate::piece::RotationSystem;

/// How pieces are drawn when the level gives no sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Randomizer {
    /// Shuffled bags of all seven.
    Bag,
    /// Each piece independently, uniformly.
    Uniform,
}

impl Randomizer {
    /// Reads the script's name for it.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "bag" => Some(Randomizer::Bag),
            "uniform" => Some(Randomizer::Uniform),
            _ => None,
        }
    }

    /// The script's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Randomizer::Bag => "bag",
            Randomizer::Uniform => "uniform",
        }
    }
}

/// The seed's points for 1-4 lines.
pub const DEFAULT_LINE_POINTS: [u64; 4] = [10, 30, 50, 70];
/// Seed: level 0 falls a row every 2 s; 1-9 are ours (the seed leaves "?").
pub const DEFAULT_FALL_SECONDS: [f64; 10] = [2.0, 1.6, 1.3, 1.05, 0.85, 0.7, 0.55, 0.42, 0.3, 0.2];

/// Settings read when a piece spawns (and re-read after a script reload).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Ticks per second of game time.
    pub ticks_per_second: f64,
    /// Ticks per row of gravity, per level (index = level).
    pub fall_ticks: Vec<u32>,
    /// Ticks per row while soft drop is held.
    pub soft_drop_ticks: u32,
    /// Ticks a grounded piece waits before it locks (0 = the seed's
    /// instant lock at the next gravity step).
    pub lock_delay_ticks: u32,
    /// Moves or turns on the ground that restart the lock delay, per piece.
    pub lock_resets: u32,
    /// Delayed auto shift: ticks a held left/right waits before repeating.
    pub das_ticks: u32,
    /// Auto repeat rate: ticks between repeats (0 = straight to the wall).
    pub arr_ticks: u32,
    /// Next pieces shown (1-5).
    pub preview: usize,
    /// Whether the hold box is on.
    pub hold: bool,
    /// How pieces turn.
    pub rotation: RotationSystem,
    /// How pieces are drawn.
    pub randomizer: Randomizer,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            ticks_per_second: 60.0,
            fall_ticks: DEFAULT_FALL_SECONDS
                .iter()
                .map(|s| (s * 60.0_f64).round() as u32)
                .collect(),
            soft_drop_ticks: 2,
            lock_delay_ticks: 0,
            lock_resets: 15,
            das_ticks: 10,
            arr_ticks: 2,
            preview: 1,
            hold: false,
            rotation: RotationSystem::Cycle,
            randomizer: Randomizer::Bag,
        }
    }
}

/// The contract `scripts/tetris.lua` is checked against.
pub fn schema() -> ScriptSchema {
    ScriptSchema {
        game: "tetris",
        fields: vec![
            FieldSpec::required(
                "score",
                FieldKind::Function,
                "score(lines, level) -> points for one lock that cleared 1-4 lines",
            ),
            FieldSpec::optional(
                "level_for",
                FieldKind::Function,
                "level_for(score) -> level (0-based)",
            ),
            FieldSpec::optional(
                "won",
                FieldKind::Function,
                "won(score, level, lines) -> true when a marathon game is won",
            ),
            FieldSpec::optional(
                "ticks_per_second",
                FieldKind::Number,
                "game ticks per second (60)",
            ),
            FieldSpec::optional(
                "fall_seconds",
                FieldKind::Table,
                "seconds per row of gravity for levels 0, 1, 2, ... (decreasing)",
            ),
            FieldSpec::optional(
                "soft_drop_ticks",
                FieldKind::Integer,
                "ticks per row while down is held (2)",
            ),
            FieldSpec::optional(
                "lock_delay_ticks",
                FieldKind::Integer,
                "ticks on the ground before locking (0)",
            ),
            FieldSpec::optional(
                "lock_resets",
                FieldKind::Integer,
                "moves on the ground that restart the lock delay (15)",
            ),
            FieldSpec::optional(
                "das_ticks",
                FieldKind::Integer,
                "ticks before a held left/right repeats (10)",
            ),
            FieldSpec::optional(
                "arr_ticks",
                FieldKind::Integer,
                "ticks between repeats (2; 0 = to the wall)",
            ),
            FieldSpec::optional("preview", FieldKind::Integer, "next pieces shown, 1-5 (1)"),
            FieldSpec::optional("hold", FieldKind::Boolean, "hold box on (false)"),
            FieldSpec::optional(
                "rotation",
                FieldKind::String,
                "\"cycle\" (the seed) or \"srs\"",
            ),
            FieldSpec::optional(
                "randomizer",
                FieldKind::String,
                "\"bag\" (7-bag) or \"uniform\"",
            ),
            FieldSpec::optional(
                "on_lock",
                FieldKind::Function,
                "on_lock(piece, lines, score)",
            ),
            FieldSpec::optional("on_level_up", FieldKind::Function, "on_level_up(level)"),
            FieldSpec::optional(
                "on_game_over",
                FieldKind::Function,
                "on_game_over(score, won)",
            ),
            // The AI's and feed mode's tables, read by their own readers
            // (the bot's and `crate::feed_rules`, which refuse any key of
            // theirs they do not know): declared here so the top level
            // knows them.
            FieldSpec::optional(
                "ai",
                FieldKind::Table,
                "the AI: `difficulties` (its levels) and `log_top`",
            ),
            FieldSpec::optional(
                "feed",
                FieldKind::Table,
                "feed mode: `specials`, the pieces a feed may deal",
            ),
        ],
    }
}

/// The line of `name = ...` in the script's source, for errors about a
/// value that has the right type but is not acceptable.
pub fn line_of(script: &Script, name: &str) -> Option<u32> {
    script.source().lines().enumerate().find_map(|(i, line)| {
        let rest = line.trim_start().strip_prefix(name)?;
        let rest = rest.trim_start();
        (rest.starts_with('=') && !rest.starts_with("==")).then(|| (i + 1) as u32)
    })
}

fn bad(script: &Script, field: &str, message: String) -> ScriptError {
    ScriptError {
        line: line_of(script, field),
        ..ScriptError::new(script.path(), ScriptErrorKind::Schema, message)
    }
}

fn integer(
    script: &Script,
    name: &str,
    default: i64,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, ScriptError> {
    script.setting::<i64>(&[name]).within(range).or(default)
}

/// Most levels `fall_seconds` may list (`level_for` stops at 1000; a
/// longer table only costs memory and time).
pub const MAX_SPEED_LEVELS: usize = 100;
/// Fastest gravity a level may have, seconds per row: a tick at the
/// fastest `ticks_per_second` (1000).
pub const MIN_FALL_SECONDS: f64 = 0.001;
/// Slowest gravity a level may have, seconds per row (`1e300` means
/// nothing: it would wrap the ticks).
pub const MAX_FALL_SECONDS: f64 = 60.0;

impl Settings {
    /// Reads and checks every setting; the error names the line.
    pub fn read(script: &Script) -> Result<Self, ScriptError> {
        let ticks_per_second = script
            .setting::<f64>(&["ticks_per_second"])
            .within(1.0..=1000.0)
            .or(60.0)?;
        let seconds = read_speeds(script)?;
        let fall_ticks = seconds
            .iter()
            .map(|s| ((s * ticks_per_second).round() as u32).max(1))
            .collect();
        let rotation_name = script.setting::<String>(&["rotation"]).or("cycle".into())?;
        let rotation = RotationSystem::from_name(&rotation_name).ok_or_else(|| {
            bad(
                script,
                "rotation",
                format!("`rotation` must be \"cycle\" or \"srs\", not {rotation_name:?}"),
            )
        })?;
        let randomizer_name = script.setting::<String>(&["randomizer"]).or("bag".into())?;
        let randomizer = Randomizer::from_name(&randomizer_name).ok_or_else(|| {
            bad(
                script,
                "randomizer",
                format!("`randomizer` must be \"bag\" or \"uniform\", not {randomizer_name:?}"),
            )
        })?;
        Ok(Self {
            ticks_per_second,
            fall_ticks,
            soft_drop_ticks: integer(script, "soft_drop_ticks", 2, 1..=600)? as u32,
            lock_delay_ticks: integer(script, "lock_delay_ticks", 0, 0..=600)? as u32,
            lock_resets: integer(script, "lock_resets", 15, 0..=1000)? as u32,
            das_ticks: integer(script, "das_ticks", 10, 0..=600)? as u32,
            arr_ticks: integer(script, "arr_ticks", 2, 0..=600)? as u32,
            preview: integer(script, "preview", 1, 1..=5)? as usize,
            hold: script.setting::<bool>(&["hold"]).or(false)?,
            rotation,
            randomizer,
        })
    }

    /// Gravity ticks per row at `level` (the last entry beyond the table).
    pub fn fall_ticks_at(&self, level: u32) -> u32 {
        let i = (level as usize).min(self.fall_ticks.len().saturating_sub(1));
        self.fall_ticks.get(i).copied().unwrap_or(120)
    }
}

/// `fall_seconds`: one entry per level from level 0, each from [`MIN_FALL_SECONDS`]
/// to [`MAX_FALL_SECONDS`], never slower than the level before.
fn read_speeds(script: &Script) -> Result<Vec<f64>, ScriptError> {
    let Some(seconds) = script
        .list::<f64>(&["fall_seconds"])
        .most(MAX_SPEED_LEVELS)
        .least(1)
        .within(MIN_FALL_SECONDS..=MAX_FALL_SECONDS)
        .optional()?
    else {
        return Ok(DEFAULT_FALL_SECONDS.to_vec());
    };
    for (level, pair) in seconds.windows(2).enumerate() {
        if pair[1] > pair[0] {
            let entry = (level + 2).to_string();
            return Err(script.field_error(
                &["fall_seconds", &entry],
                format!(
                    "`fall_seconds` must be decreasing: level {} falls slower ({} s) than level {level} ({} s)",
                    level + 1,
                    show_number(pair[1]),
                    show_number(pair[0])
                ),
            ));
        }
    }
    Ok(seconds)
}

/// Calls `score(lines, level)`; the result must be a whole number >= 0.
pub fn score(script: &Script, lines: u32, level: u32) -> Result<u64, ScriptError> {
    let value: Value = script.call("score", (lines, level))?;
    number(script, "score", value, &format!("score({lines}, {level})"))
}

/// Calls `level_for(score)` when the script has it; the seed's 1000 points
/// per level otherwise.
pub fn level_for(script: &Script, score: u64) -> Result<u32, ScriptError> {
    if !script.has("level_for") {
        return Ok((score / 1000).min(9) as u32);
    }
    let value: Value = script.call("level_for", score)?;
    let level = number(script, "level_for", value, &format!("level_for({score})"))?;
    Ok(level.min(1000) as u32)
}

/// Calls `won(score, level, lines)` when the script has it; the seed's
/// rule otherwise (level 9 passed: 9000 points).
pub fn won(script: &Script, score: u64, level: u32, lines: u64) -> Result<bool, ScriptError> {
    if !script.has("won") {
        return Ok(score >= 9000);
    }
    script.call_typed("won", (score, level, lines))
}

fn number(script: &Script, name: &str, value: Value, call: &str) -> Result<u64, ScriptError> {
    let n = match value {
        Value::Integer(n) => n as f64,
        Value::Number(n) => n,
        other => {
            return Err(bad(
                script,
                name,
                format!("{call} returned a {}, not a number", other.type_name()),
            ));
        }
    };
    if !n.is_finite() || n < 0.0 {
        return Err(bad(
            script,
            name,
            format!("{call} returned {n}; it must be a number >= 0"),
        ));
    }
    Ok(n.floor().min(u64::MAX as f64) as u64)
}

/// Calls an optional hook; a missing hook is fine.
pub fn hook(
    script: &Script,
    name: &str,
    args: impl tessera_host::mlua::IntoLuaMulti,
) -> Result<(), ScriptError> {
    if !script.has(name) {
        return Ok(());
    }
    script.call::<()>(name, args)
}
