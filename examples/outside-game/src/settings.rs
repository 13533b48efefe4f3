//! What the game reads from `scripts/cairn.lua`: the move cap, how often
//! each AI level errs, and the `score` hook. Every value goes through the
//! host's typed settings reader, so a wrong type, a value out of range or
//! a misspelt key is refused at its line in the same words as every
//! built-in game's.

use tessera_host::script::{FieldKind, FieldSpec, Script, ScriptError, ScriptSchema};

/// The game's id, as the script's file name and the schema name it.
const GAME: &str = "cairn";

/// Most stones one move may take when the script says nothing.
pub const DEFAULT_MAX_TAKE: u32 = 3;
/// The largest move cap a script may set.
pub const MOST_MAX_TAKE: u32 = 8;
/// The AI levels, weakest first: the keys of the script's `mistakes`.
pub const AI_LEVELS: [&str; 2] = ["easy", "hard"];
/// How often each AI level plays a random move when the script says
/// nothing: `easy` always, `hard` never.
pub const DEFAULT_MISTAKES: [f64; 2] = [1.0, 0.0];
/// The most points one move may score: a `score` hook returning more is
/// refused, so a total can never wrap.
pub const MOST_POINTS: i64 = 1_000_000;

/// The contract `scripts/cairn.lua` is checked against: every top-level key
/// it may hold (any other is refused with the nearest known key).
pub fn schema() -> ScriptSchema {
    ScriptSchema {
        game: GAME,
        fields: vec![
            FieldSpec::required(
                "score",
                FieldKind::Function,
                "score(taken, left) -> points for a move taking `taken` stones and leaving `left` in its row",
            ),
            FieldSpec::optional(
                "max_take",
                FieldKind::Integer,
                "most stones one move may take from a row (3)",
            )
            .within(1.0, f64::from(MOST_MAX_TAKE)),
            FieldSpec::optional(
                "mistakes",
                FieldKind::Table,
                "{ easy = 1.0, hard = 0.0 }: how often each AI level plays a random move",
            ),
        ],
    }
}

/// The settings a game reads from its script version.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Most stones one move may take from a row.
    pub max_take: u32,
    /// How often each AI level of [`AI_LEVELS`] plays a random move, 0 to 1.
    pub mistakes: [f64; 2],
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            max_take: DEFAULT_MAX_TAKE,
            mistakes: DEFAULT_MISTAKES,
        }
    }
}

impl Settings {
    /// Reads and checks the settings; read once per script version and
    /// kept ([`Script::cached`]), so a move costs no table walk.
    pub fn read(script: &Script) -> Result<Self, ScriptError> {
        script.cached(Self::read_uncached).map(|settings| *settings)
    }

    fn read_uncached(script: &Script) -> Result<Self, ScriptError> {
        let max_take = script
            .setting::<i64>(&["max_take"])
            .within(1..=i64::from(MOST_MAX_TAKE))
            .or(i64::from(DEFAULT_MAX_TAKE))?;
        // `mistakes` has a fixed set of keys: `mistakes = { hrad = 0 }` is
        // refused (did you mean `hard`?) instead of quietly playing the
        // default.
        script.only_keys(&["mistakes"], &AI_LEVELS)?;
        let mut mistakes = DEFAULT_MISTAKES;
        for (slot, level) in mistakes.iter_mut().zip(AI_LEVELS) {
            *slot = script
                .setting::<f64>(&["mistakes", level])
                .within(0.0..=1.0)
                .or(*slot)?;
        }
        Ok(Self {
            // Within 1..=MOST_MAX_TAKE, so it fits.
            max_take: u32::try_from(max_take).unwrap_or(DEFAULT_MAX_TAKE),
            mistakes,
        })
    }

    /// How often AI level `level` errs, or `None` for a level the game
    /// does not have.
    pub fn mistake(&self, level: &str) -> Option<f64> {
        AI_LEVELS
            .iter()
            .position(|l| *l == level)
            .map(|index| self.mistakes[index])
    }
}

/// The points of a move, from the script's `score` hook: a whole number
/// within ±[`MOST_POINTS`], or the hook's error at its line.
pub fn score(script: &Script, taken: u32, left: u32) -> Result<i64, ScriptError> {
    let points: i64 = script.call_typed("score", (taken, left))?;
    if points.abs() > MOST_POINTS {
        return Err(script.field_error(
            &["score"],
            format!(
                "`score` returned {points}; a move scores at most {MOST_POINTS} points either way"
            ),
        ));
    }
    Ok(points)
}

/// The whole check of a script: its settings and one call of its hook.
pub fn check(script: &Script) -> Result<(), ScriptError> {
    Settings::read(script)?;
    score(script, 1, 0).map(|_| ())
}
