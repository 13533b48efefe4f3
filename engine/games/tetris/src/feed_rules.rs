//! Feed mode's rules that the script tunes (RULINGS "Tetris AI and feed
//! mode"): per AI difficulty, how often the ceiling drops and the chance
//! that a turn offers a special (`ceiling_every` and `special_chance` in
//! each row of `ai.difficulties`); the specials themselves
//! (`feed.specials`); and the ceiling's clock, what a search many pieces
//! deep needs to know of the ceiling.
//!
//! The rows of `ai.difficulties` are the bot's too (weights, searches):
//! the rules read only their two keys, with this reader, and the bot's
//! reader of the same rows reads those two keys through [`read_row`], so a
//! bad value is refused in the same words at the same line whichever
//! reader meets it first.

use std::ops::RangeInclusive;

use tessera_host::script::{Script, ScriptError};

use crate::piece::PieceKind;

/// `special_chance`: a probability.
pub const SPECIAL_CHANCE: RangeInclusive<f64> = 0.0..=1.0;
/// `ceiling_every`: AI pieces per ceiling row.
pub const CEILING_EVERY: RangeInclusive<f64> = 1.0..=10_000.0;
/// Most rows a difficulty table may hold (the AI level list is shown in
/// menus and `games --details`; thousands would only slow them).
pub const MAX_DIFFICULTIES: usize = 64;
/// The keys of the `feed` table.
pub const FEED_KEYS: [&str; 1] = ["specials"];

/// What feed mode plays by for one difficulty of the script's table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FeedRules {
    /// Chance per turn that the offer holds one special piece.
    pub special_chance: f64,
    /// The ceiling drops one row every this many AI pieces (a feed level
    /// may set its own).
    pub ceiling_every: u32,
}

/// The feed rules of a script without `ai.difficulties`: the seed's four
/// levels' special chances and ceiling intervals, by difficulty name.
pub fn default_rows() -> [(&'static str, FeedRules); 4] {
    let rules = |special_chance, ceiling_every| FeedRules {
        special_chance,
        ceiling_every,
    };
    [
        ("EASY", rules(0.10, 5)),
        ("NORMAL", rules(0.08, 8)),
        ("HARD", rules(0.06, 12)),
        ("GOD", rules(0.04, 15)),
    ]
}

/// Reads `special_chance` and `ceiling_every` of row `index` (1-based) of
/// `ai.difficulties`, the row named `name` (the name ends each refusal, for
/// people). Left out: no specials, a row every 10 pieces.
pub fn read_row(script: &Script, index: &str, name: &str) -> Result<FeedRules, ScriptError> {
    let at = |key: &'static str| ["ai", "difficulties", index, key];
    let named = |error: ScriptError| ScriptError {
        message: format!("{} ({name})", error.message),
        ..error
    };
    let special_chance = script
        .setting::<f64>(&at("special_chance"))
        .within(SPECIAL_CHANCE)
        .or(0.0)
        .map_err(named)?;
    let every = *CEILING_EVERY.start() as i64..=*CEILING_EVERY.end() as i64;
    let ceiling_every = script
        .setting::<i64>(&at("ceiling_every"))
        .within(every)
        .or(10)
        .map_err(named)? as u32;
    Ok(FeedRules {
        special_chance,
        ceiling_every,
    })
}

/// Every row's name and feed rules, as the script holds them (the cache's
/// key is this type).
struct FeedTable(Vec<(String, FeedRules)>);

fn read_table(script: &Script) -> Result<FeedTable, ScriptError> {
    script.guarded(|| {
        let at = ["ai", "difficulties"];
        let Some(rows) = script.rows(&at, MAX_DIFFICULTIES)? else {
            return Ok(FeedTable(
                default_rows()
                    .into_iter()
                    .map(|(name, rules)| (name.to_string(), rules))
                    .collect(),
            ));
        };
        if rows == 0 {
            return Err(script.field_error(&at, "`ai.difficulties` is empty; give at least one"));
        }
        let mut out = Vec::new();
        for i in 1..=rows {
            let index = i.to_string();
            let name = script
                .setting::<String>(&["ai", "difficulties", &index, "name"])
                .required()?;
            let rules = read_row(script, &index, &name)?;
            out.push((name, rules));
        }
        Ok(FeedTable(out))
    })
}

/// The difficulty named `name` (any case; the first such row): its name
/// as the script spells it, and its feed rules. Read once per script
/// version ([`Script::cached`]); `None` when the table has no such row.
pub fn for_difficulty(
    script: &Script,
    name: &str,
) -> Result<Option<(String, FeedRules)>, ScriptError> {
    let table = script.cached(read_table)?;
    Ok(table
        .0
        .iter()
        .find(|(row, _)| row.eq_ignore_ascii_case(name))
        .cloned())
}

/// The special pieces a turn may offer (the cache's key is this type).
struct Specials(Vec<PieceKind>);

/// The special pieces a turn may offer (`feed.specials`, by letter; the
/// seed's X, U and W when left out), read once per script version.
pub fn specials(script: &Script) -> Result<Vec<PieceKind>, ScriptError> {
    script
        .cached(read_specials_table)
        .map(|specials| specials.0.clone())
}

fn read_specials_table(script: &Script) -> Result<Specials, ScriptError> {
    script.guarded(|| {
        script.only_keys(&["feed"], &FEED_KEYS)?;
        // At most one of each special: a list of a million is refused
        // after the ninth entry, not read whole.
        let letters = script
            .list::<String>(&["feed", "specials"])
            .most(PieceKind::SPECIALS.len())
            .optional()?;
        match letters {
            Some(letters) => read_specials(script, &letters).map(Specials),
            None => Ok(Specials(vec![PieceKind::X, PieceKind::U, PieceKind::W])),
        }
    })
}

/// The special pieces `feed.specials` names by letter.
fn read_specials(script: &Script, letters: &[String]) -> Result<Vec<PieceKind>, ScriptError> {
    let all = || {
        PieceKind::SPECIALS
            .iter()
            .map(|k| k.letter())
            .collect::<String>()
    };
    let mut out = Vec::new();
    for (i, name) in letters.iter().enumerate() {
        let index = (i + 1).to_string();
        let at = ["feed", "specials", index.as_str()];
        let piece = name
            .chars()
            .next()
            .filter(|_| name.chars().count() == 1)
            .and_then(PieceKind::from_letter)
            .filter(|k| !k.is_tetromino())
            .ok_or_else(|| {
                script.field_error(
                    &at,
                    format!("special `{name}` is not a pentomino: one of {}", all()),
                )
            })?;
        if out.contains(&piece) {
            return Err(script.field_error(&at, format!("special `{name}` is listed twice")));
        }
        out.push(piece);
    }
    Ok(out)
}

/// Reads every feed rule of the script, as a feed game's start would.
pub fn check(script: &Script) -> Result<(), ScriptError> {
    script.cached(read_table)?;
    specials(script)?;
    Ok(())
}

/// Feed mode's lowering ceiling as a search sees it: the ceiling drops
/// one row once `drops_after` more AI pieces have locked (the one being
/// placed counts), then one row every `every` pieces; `every = 0` (the
/// default, and classic play) means it never drops.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CeilingClock {
    /// AI pieces still to lock, this one included, before the next drop.
    pub drops_after: u32,
    /// AI pieces per row after that (0 = the ceiling stays).
    pub every: u32,
}

impl CeilingClock {
    /// Rows the ceiling has come down once `locked` more AI pieces have
    /// locked (0 for the piece being placed, before it locks).
    #[inline]
    pub fn drops(self, locked: u32) -> u32 {
        if self.every == 0 || locked < self.drops_after.max(1) {
            0
        } else {
            1 + (locked - self.drops_after.max(1)) / self.every
        }
    }
}
