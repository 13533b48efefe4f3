//! What the game reads from `scripts/sand.lua`: the palette, slot count,
//! timings, the rotation switch, the score function and the flow hooks.
//! Every read happens per event (a placement, a clear), never per grain.

use tessera_host::mlua::{Function, Table, Value};

use tessera_host::script::{
    FieldKind, FieldSpec, Script, ScriptError, ScriptErrorKind, ScriptSchema, list_length,
    show_number,
};

use super::grid::MAX_COLOURS;

/// One palette entry.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PaletteColour {
    /// Name for people ("red").
    pub name: String,
    /// The character used in text pictures and level boards ('R').
    pub letter: char,
    /// sRGB colour for the editor.
    pub rgb: [u8; 3],
}

/// Settings read at the start of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The colours pieces are drawn in.
    pub palette: Vec<PaletteColour>,
    /// Preview slots.
    pub slots: usize,
    /// Physics ticks per second of game time.
    pub ticks_per_second: f64,
    /// Whether a placement may rotate the piece.
    pub rotation: bool,
}

/// Timings of the clear sequence, in ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClearTimings {
    /// Ticks the matched grains flash.
    pub flash: u32,
    /// Ticks they then burst into particles before removal.
    pub burst: u32,
}

/// Defaults: the seed's values.
pub const DEFAULT_SLOTS: usize = 3;
/// Physics rate (seed 13: 1/60 s steps).
pub const DEFAULT_TICKS_PER_SECOND: f64 = 60.0;
/// Flash before the burst (seed 12.2).
pub const DEFAULT_FLASH_SECONDS: f64 = 0.2;
/// Burst animation (seed 8.3, 13).
pub const DEFAULT_CLEAR_SECONDS: f64 = 1.0;

/// The contract `scripts/sand.lua` is checked against.
pub fn schema() -> ScriptSchema {
    ScriptSchema {
        game: "sand",
        fields: vec![
            FieldSpec::required(
                "score",
                FieldKind::Function,
                "score(cells, chain) -> points for one cleared cluster",
            ),
            FieldSpec::optional(
                "palette",
                FieldKind::Table,
                "list of { name = \"red\", letter = \"R\", rgb = {r, g, b} }",
            ),
            FieldSpec::optional("slots", FieldKind::Integer, "preview slots (3)")
                .within(1.0, MAX_SLOTS as f64),
            FieldSpec::optional(
                "ticks_per_second",
                FieldKind::Number,
                "physics ticks per second (60)",
            )
            .within(1.0, MAX_TICKS_PER_SECOND),
            FieldSpec::optional(
                "flash_seconds",
                FieldKind::Number,
                "how long cleared grains flash (0.2)",
            )
            .within(0.0, MAX_PHASE_SECONDS),
            FieldSpec::optional(
                "clear_animation_seconds",
                FieldKind::Number,
                "how long the particle burst lasts before removal (1.0)",
            )
            .within(0.0, MAX_PHASE_SECONDS),
            FieldSpec::optional(
                "rotation",
                FieldKind::Boolean,
                "whether pieces may be rotated while dragged (false)",
            ),
            FieldSpec::optional(
                "on_settle",
                FieldKind::Function,
                "on_settle(score): the board settled with nothing to clear",
            ),
            FieldSpec::optional(
                "on_clear",
                FieldKind::Function,
                "on_clear(chain, clusters, cells, points): a clear round was scored",
            ),
            FieldSpec::optional(
                "on_game_over",
                FieldKind::Function,
                "on_game_over(score): no slot piece fits anywhere",
            ),
        ],
    }
}

/// Most preview slots.
pub const MAX_SLOTS: usize = 8;
/// Fastest physics rate a script may set.
pub const MAX_TICKS_PER_SECOND: f64 = 10_000.0;
/// Longest flash or burst phase, in seconds.
pub const MAX_PHASE_SECONDS: f64 = 60.0;
/// Largest score one cluster may earn: a score function returning more
/// (`1e300`) is clamped to it and reported, so a round's sum and the total
/// can never wrap.
pub const MAX_CLUSTER_SCORE: u64 = 1_000_000_000_000;

/// The four colours of the seed (4.2), used when the script has no palette.
pub fn default_palette() -> Vec<PaletteColour> {
    [
        ("red", 'R', [220, 60, 50]),
        ("blue", 'B', [50, 110, 220]),
        ("green", 'G', [60, 170, 70]),
        ("yellow", 'Y', [230, 200, 50]),
    ]
    .into_iter()
    .map(|(name, letter, rgb)| PaletteColour {
        name: name.to_string(),
        letter,
        rgb,
    })
    .collect()
}

impl Settings {
    /// Reads and checks the settings, through the host's typed reader (the
    /// same words and lines as every game's refusals); read once per script
    /// version and kept ([`Script::cached`]).
    pub fn read(script: &Script) -> Result<Self, ScriptError> {
        script
            .cached(Self::read_uncached)
            .map(|settings| (*settings).clone())
    }

    fn read_uncached(script: &Script) -> Result<Self, ScriptError> {
        let palette = match script.table_at(&["palette"])? {
            None => default_palette(),
            Some(table) => read_palette(script, &table)?,
        };
        let slots = script
            .setting::<i64>(&["slots"])
            .within(1..=MAX_SLOTS as i64)
            .or(DEFAULT_SLOTS as i64)?;
        let ticks_per_second = script
            .setting::<f64>(&["ticks_per_second"])
            .within(1.0..=MAX_TICKS_PER_SECOND)
            .or(DEFAULT_TICKS_PER_SECOND)?;
        let settings = Self {
            palette,
            slots: slots as usize,
            ticks_per_second,
            rotation: script.setting::<bool>(&["rotation"]).or(false)?,
        };
        settings.timings(script)?;
        Ok(settings)
    }

    /// The clear timings in ticks (the script version's values; a reload
    /// applies to the next clear).
    pub fn timings(&self, script: &Script) -> Result<ClearTimings, ScriptError> {
        let ticks = |name: &str, default: f64| -> Result<u32, ScriptError> {
            let seconds = script
                .setting::<f64>(&[name])
                .within(0.0..=MAX_PHASE_SECONDS)
                .or(default)?;
            Ok((seconds * self.ticks_per_second).round() as u32)
        };
        Ok(ClearTimings {
            flash: ticks("flash_seconds", DEFAULT_FLASH_SECONDS)?,
            burst: ticks("clear_animation_seconds", DEFAULT_CLEAR_SECONDS)?,
        })
    }

    /// Letters of the palette, indexed by colour.
    pub fn letters(&self) -> Vec<char> {
        self.palette.iter().map(|c| c.letter).collect()
    }
}

fn read_palette(script: &Script, table: &Table) -> Result<Vec<PaletteColour>, ScriptError> {
    // Every key must be 1..n: a `nil` in the list (`{ red, nil, blue }`)
    // would otherwise cut the palette short without a word.
    let count = list_length(script, table, &["palette"], MAX_COLOURS)?;
    if count == 0 {
        return Err(script.field_error(
            &["palette"],
            format!("`palette` must hold 1 to {MAX_COLOURS} colours, it holds 0"),
        ));
    }
    let mut palette: Vec<PaletteColour> = Vec::new();
    for i in 1..=count {
        let index = i.to_string();
        let at = |field: &'static str| -> Vec<&str> {
            if field.is_empty() {
                vec!["palette", &index]
            } else {
                vec!["palette", &index, field]
            }
        };
        script.table_at(&at(""))?;
        let name = script.setting::<String>(&at("name")).required()?;
        let letter_text = script.setting::<String>(&at("letter")).required()?;
        let mut chars = letter_text.chars();
        let (Some(letter), None) = (chars.next(), chars.next()) else {
            return Err(script.field_error(
                &at("letter"),
                format!("`palette[{i}].letter` must be one character, not {letter_text:?}"),
            ));
        };
        if !letter.is_ascii_alphabetic() {
            return Err(script.field_error(
                &at("letter"),
                format!("`palette[{i}].letter` must be a letter A-Z, not {letter:?}"),
            ));
        }
        if palette.iter().any(|c| c.letter == letter) {
            return Err(script.field_error(
                &at("letter"),
                format!("`palette[{i}].letter` {letter:?} is used twice"),
            ));
        }
        let rgb = script
            .list::<i64>(&at("rgb"))
            .least(3)
            .most(3)
            .within(0..=255)
            .optional()?
            .ok_or_else(|| {
                script.field_error(
                    &at("rgb"),
                    format!("missing `palette[{i}].rgb` (three whole numbers 0 to 255)"),
                )
            })?;
        palette.push(PaletteColour {
            name,
            letter,
            rgb: [rgb[0] as u8, rgb[1] as u8, rgb[2] as u8],
        });
    }
    Ok(palette)
}

/// Calls `score(cells, chain)`. A result that is not a finite number >= 0 is
/// an error naming the line the function is defined on.
pub fn score(script: &Script, cells: f64, chain: u32) -> Result<u64, ScriptError> {
    let value: Value = script.call("score", (cells, chain))?;
    let points = match value {
        Value::Integer(n) => n as f64,
        Value::Number(n) => n,
        other => {
            return Err(bad_score(
                script,
                format!(
                    "score({cells}, {chain}) returned a {}, not a number",
                    other.type_name()
                ),
            ));
        }
    };
    if !points.is_finite() || points < 0.0 {
        return Err(bad_score(
            script,
            format!(
                "score({cells}, {chain}) returned {points}; a score must be a finite number >= 0"
            ),
        ));
    }
    if points > MAX_CLUSTER_SCORE as f64 {
        return Err(bad_score(
            script,
            format!(
                "score({cells}, {chain}) returned {}, over the maximum of {MAX_CLUSTER_SCORE} points for one cluster",
                show_number(points)
            ),
        ));
    }
    Ok(points.floor() as u64)
}

fn bad_score(script: &Script, message: String) -> ScriptError {
    let line = script
        .exports()
        .raw_get::<Function>("score")
        .ok()
        .and_then(|f| f.info().line_defined)
        .and_then(|l| u32::try_from(l).ok());
    ScriptError {
        line,
        ..ScriptError::new(script.path(), ScriptErrorKind::Runtime, message)
    }
}

/// Calls an optional flow hook; a missing hook is fine.
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
