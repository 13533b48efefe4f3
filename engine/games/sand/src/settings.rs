//! What the game reads from `scripts/sand.lua`: the palette, slot count,
//! timings, the rotation switch, the score function and the flow hooks.
//! Every read happens per event (a placement, a clear), never per grain.

use tessera_host::mlua::{Function, Table, Value};

use tessera_host::script::{
    FieldKind, FieldSpec, Script, ScriptError, ScriptErrorKind, ScriptSchema,
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
            FieldSpec::optional("slots", FieldKind::Integer, "preview slots (3)"),
            FieldSpec::optional(
                "ticks_per_second",
                FieldKind::Number,
                "physics ticks per second (60)",
            ),
            FieldSpec::optional(
                "flash_seconds",
                FieldKind::Number,
                "how long cleared grains flash (0.2)",
            ),
            FieldSpec::optional(
                "clear_animation_seconds",
                FieldKind::Number,
                "how long the particle burst lasts before removal (1.0)",
            ),
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

fn schema_error(script: &Script, message: String) -> ScriptError {
    ScriptError::new(script.path(), ScriptErrorKind::Schema, message)
}

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
    /// Reads and checks the settings.
    pub fn read(script: &Script) -> Result<Self, ScriptError> {
        let palette = match script.value::<Table>("palette")? {
            None => default_palette(),
            Some(table) => read_palette(script, &table)?,
        };
        let slots = script.value_or::<i64>("slots", DEFAULT_SLOTS as i64)?;
        if !(1..=8).contains(&slots) {
            return Err(schema_error(
                script,
                format!("`slots` must be 1 to 8, not {slots}"),
            ));
        }
        let ticks_per_second =
            script.value_or::<f64>("ticks_per_second", DEFAULT_TICKS_PER_SECOND)?;
        if !(ticks_per_second.is_finite() && (1.0..=10_000.0).contains(&ticks_per_second)) {
            return Err(schema_error(
                script,
                format!("`ticks_per_second` must be 1 to 10000, not {ticks_per_second}"),
            ));
        }
        let settings = Self {
            palette,
            slots: slots as usize,
            ticks_per_second,
            rotation: script.value_or("rotation", false)?,
        };
        settings.timings(script)?;
        Ok(settings)
    }

    /// The clear timings in ticks, read now so an edit applies to the next
    /// clear.
    pub fn timings(&self, script: &Script) -> Result<ClearTimings, ScriptError> {
        let ticks = |name: &str, default: f64| -> Result<u32, ScriptError> {
            let seconds = script.value_or::<f64>(name, default)?;
            if !(seconds.is_finite() && (0.0..=60.0).contains(&seconds)) {
                return Err(schema_error(
                    script,
                    format!("`{name}` must be 0 to 60 seconds, not {seconds}"),
                ));
            }
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
    let mut palette: Vec<PaletteColour> = Vec::new();
    for (i, entry) in table.clone().sequence_values::<Value>().enumerate() {
        let at = |what: String| schema_error(script, format!("palette[{}]: {what}", i + 1));
        let entry = entry.map_err(|e| at(e.to_string()))?;
        let Value::Table(entry) = entry else {
            return Err(at(format!(
                "must be a table {{ name, letter, rgb }}, found a {}",
                entry.type_name()
            )));
        };
        let name: String = entry
            .get("name")
            .map_err(|e| at(format!("`name` must be a string ({e})")))?;
        let letter: String = entry
            .get("letter")
            .map_err(|e| at(format!("`letter` must be a string ({e})")))?;
        let mut chars = letter.chars();
        let (Some(letter), None) = (chars.next(), chars.next()) else {
            return Err(at(format!(
                "`letter` must be one character, not {letter:?}"
            )));
        };
        if !letter.is_ascii_alphabetic() {
            return Err(at(format!("`letter` must be a letter A-Z, not {letter:?}")));
        }
        if palette.iter().any(|c| c.letter == letter) {
            return Err(at(format!("letter {letter:?} is used twice")));
        }
        let rgb: Vec<i64> = entry
            .get("rgb")
            .map_err(|e| at(format!("`rgb` must be a list of three numbers ({e})")))?;
        let [r, g, b] = rgb[..] else {
            return Err(at(format!(
                "`rgb` needs three numbers, found {}",
                rgb.len()
            )));
        };
        let channel =
            |v: i64| u8::try_from(v).map_err(|_| at(format!("`rgb` channel {v} is outside 0-255")));
        palette.push(PaletteColour {
            name,
            letter,
            rgb: [channel(r)?, channel(g)?, channel(b)?],
        });
    }
    if palette.is_empty() || palette.len() > MAX_COLOURS {
        return Err(schema_error(
            script,
            format!(
                "`palette` must hold 1 to {MAX_COLOURS} colours, it holds {}",
                palette.len()
            ),
        ));
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
    Ok(points.floor().min(u64::MAX as f64) as u64)
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
