//! Reading `scripts/azul.lua` into plain Rust values: the rules' numbers,
//! the palette, the AI levels and their weights. Called per event (game
//! start, wall tiling, an AI asked for a move), never inside a search.

use tessera_host::Script;
use tessera_host::mlua::{FromLua, Table};
use tessera_host::script::{FieldKind, FieldSpec, ScriptError, ScriptSchema, show_number};

use crate::ai::{AiSettings, ExpertSettings, HardSettings, MediumWeights};
use crate::rules::{COLOURS, FLOOR_SLOTS, MAX_FACTORIES, Rules};

/// One tile colour as the script names and paints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColourStyle {
    /// Name (`blue`).
    pub name: String,
    /// One letter for text pictures.
    pub letter: char,
    /// Paint colour.
    pub rgb: [u8; 3],
}

/// What `scripts/azul.lua` must return.
pub fn schema() -> ScriptSchema {
    use FieldKind::*;
    ScriptSchema {
        game: "azul",
        fields: vec![
            FieldSpec::optional("tiles_per_colour", Integer, "tiles of each colour (20)"),
            FieldSpec::optional("colours", Table, "the 5 colours: name, letter, rgb"),
            FieldSpec::optional("factories", Table, "factories per player count"),
            FieldSpec::optional("tiles_per_factory", Integer, "tiles a factory holds (4)"),
            FieldSpec::optional("floor_penalties", Table, "7 floor penalties"),
            FieldSpec::optional("bonus_row", Integer, "bonus per complete row"),
            FieldSpec::optional("bonus_column", Integer, "bonus per complete column"),
            FieldSpec::optional("bonus_colour", Integer, "bonus per complete colour"),
            FieldSpec::optional(
                "grey_wall",
                Boolean,
                "the grey-wall variant: players choose each tile's column",
            ),
            FieldSpec::optional("ai_levels", Table, "AI level names, weakest first"),
            FieldSpec::optional("reaction_seconds", Table, "AI reaction time per level"),
            FieldSpec::optional("medium", Table, "the medium AI's weights"),
            FieldSpec::optional("hard", Table, "the hard AI's search settings"),
            FieldSpec::optional("expert", Table, "the expert AI's MCTS settings"),
        ],
    }
}

/// A refusal of the value at `at` (a path into the returned table,
/// positional entries as `"1"`, `"2"`, ...), located at the line where the
/// script writes it.
fn bad(script: &Script, at: &[&str], message: String) -> ScriptError {
    script.field_error(at, message)
}

/// `at` as the script's reader would write it: `colours[2].rgb`.
fn dotted(at: &[&str]) -> String {
    let mut out = String::new();
    for part in at {
        if part.bytes().all(|b| b.is_ascii_digit()) && !out.is_empty() {
            out.push_str(&format!("[{part}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(part);
        }
    }
    out
}

fn field<T: FromLua>(
    script: &Script,
    table: &Table,
    at: &[&str],
    key: &str,
) -> Result<Option<T>, ScriptError> {
    let at: Vec<&str> = at.iter().copied().chain([key]).collect();
    table.raw_get::<Option<T>>(key).map_err(|e| {
        bad(
            script,
            &at,
            format!("`{}` has the wrong type: {e}", dotted(&at)),
        )
    })
}

fn sub_table(script: &Script, name: &str) -> Result<Option<Table>, ScriptError> {
    script.value::<Table>(name)
}

fn int_in(script: &Script, at: &[&str], value: i64, lo: i64, hi: i64) -> Result<i64, ScriptError> {
    if value < lo || value > hi {
        return Err(bad(
            script,
            at,
            format!("`{}` must be {lo} to {hi}, it is {value}", dotted(at)),
        ));
    }
    Ok(value)
}

/// A number of `table` at `at`/`key`, `default` when absent, refused
/// (at its line) outside `range`.
fn number_in(
    script: &Script,
    table: &Table,
    at: &[&str],
    key: &str,
    default: f64,
    range: std::ops::RangeInclusive<f64>,
) -> Result<f64, ScriptError> {
    let value = field::<f64>(script, table, at, key)?.unwrap_or(default);
    if !range.contains(&value) {
        let at: Vec<&str> = at.iter().copied().chain([key]).collect();
        return Err(bad(
            script,
            &at,
            format!(
                "`{}` must be {} to {}, it is {}",
                dotted(&at),
                show_number(*range.start()),
                show_number(*range.end()),
                show_number(value)
            ),
        ));
    }
    Ok(value)
}

/// The rules' numbers.
pub fn rules(script: &Script) -> Result<Rules, ScriptError> {
    let mut rules = Rules::default();
    let per_colour = script.value_or::<i64>("tiles_per_colour", 20)?;
    rules.tiles_per_colour = int_in(script, &["tiles_per_colour"], per_colour, 1, 40)? as u8;
    let per_factory = script.value_or::<i64>("tiles_per_factory", 4)?;
    rules.tiles_per_factory = int_in(script, &["tiles_per_factory"], per_factory, 1, 4)? as u8;
    if let Some(table) = sub_table(script, "floor_penalties")? {
        let at = ["floor_penalties"];
        let values: Vec<i64> = table
            .sequence_values::<i64>()
            .collect::<Result<_, _>>()
            .map_err(|e| {
                bad(
                    script,
                    &at,
                    format!("`floor_penalties` must list numbers: {e}"),
                )
            })?;
        if values.len() != FLOOR_SLOTS {
            return Err(bad(
                script,
                &at,
                format!(
                    "`floor_penalties` must list {FLOOR_SLOTS} penalties, it lists {}",
                    values.len()
                ),
            ));
        }
        for (slot, v) in values.iter().enumerate() {
            let slot_name = (slot + 1).to_string();
            rules.floor_penalties[slot] =
                int_in(script, &["floor_penalties", &slot_name], *v, 0, 100)? as i32;
        }
    }
    let bonus = |name: &str, default: i64| -> Result<i32, ScriptError> {
        let value = script.value_or(name, default)?;
        Ok(int_in(script, &[name], value, 0, 1000)? as i32)
    };
    rules.row_bonus = bonus("bonus_row", 2)?;
    rules.column_bonus = bonus("bonus_column", 7)?;
    rules.colour_bonus = bonus("bonus_colour", 10)?;
    rules.grey_wall = script.value_or::<bool>("grey_wall", false)?;
    if let Some(table) = sub_table(script, "factories")? {
        for players in 2..=4usize {
            let key = players.to_string();
            let at = ["factories", key.as_str()];
            let n = table.raw_get::<Option<i64>>(players as i64).map_err(|e| {
                bad(
                    script,
                    &at,
                    format!("`factories[{players}]` must be a number: {e}"),
                )
            })?;
            if let Some(n) = n {
                rules.factories[players - 2] =
                    int_in(script, &at, n, 1, MAX_FACTORIES as i64)? as u8;
            }
        }
    }
    Ok(rules)
}

/// The palette (the seed's five colours when the script has none).
pub fn colours(script: &Script) -> Result<Vec<ColourStyle>, ScriptError> {
    let defaults = [
        ("blue", 'B', [0x34, 0x98, 0xDB]),
        ("yellow", 'Y', [0xF1, 0xC4, 0x0F]),
        ("red", 'R', [0xE7, 0x4C, 0x3C]),
        ("green", 'G', [0x2E, 0xCC, 0x71]),
        ("orange", 'O', [0xE6, 0x7E, 0x22]),
    ];
    let mut out: Vec<ColourStyle> = defaults
        .iter()
        .map(|(n, l, rgb)| ColourStyle {
            name: (*n).into(),
            letter: *l,
            rgb: *rgb,
        })
        .collect();
    let Some(table) = sub_table(script, "colours")? else {
        return Ok(out);
    };
    let entries: Vec<Table> = table
        .sequence_values::<Table>()
        .collect::<Result<_, _>>()
        .map_err(|e| {
            bad(
                script,
                &["colours"],
                format!("`colours` must list tables: {e}"),
            )
        })?;
    if entries.len() != COLOURS {
        return Err(bad(
            script,
            &["colours"],
            format!(
                "`colours` must list {COLOURS} colours, it lists {}",
                entries.len()
            ),
        ));
    }
    for (i, entry) in entries.iter().enumerate() {
        let index = (i + 1).to_string();
        let at = ["colours", index.as_str()];
        if let Some(name) = field::<String>(script, entry, &at, "name")? {
            out[i].name = name;
        }
        if let Some(letter) = field::<String>(script, entry, &at, "letter")?
            && let Some(c) = letter.chars().next()
        {
            out[i].letter = c;
        }
        if let Some(rgb) = field::<String>(script, entry, &at, "rgb")? {
            out[i].rgb = parse_hex(&rgb).ok_or_else(|| {
                bad(
                    script,
                    &["colours", &index, "rgb"],
                    format!("`colours[{index}].rgb` must look like #3498DB, it is `{rgb}`"),
                )
            })?;
        }
    }
    Ok(out)
}

fn parse_hex(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// The AI level names, weakest first.
pub fn ai_levels(script: &Script) -> Result<Vec<String>, ScriptError> {
    let Some(table) = sub_table(script, "ai_levels")? else {
        return Ok(["easy", "medium", "hard", "expert"]
            .map(String::from)
            .to_vec());
    };
    let at = ["ai_levels"];
    let names: Vec<String> = table
        .sequence_values::<String>()
        .collect::<Result<_, _>>()
        .map_err(|e| bad(script, &at, format!("`ai_levels` must list names: {e}")))?;
    for name in &names {
        if crate::ai::Level::parse(name).is_none() {
            return Err(bad(
                script,
                &at,
                format!("`ai_levels`: no AI named `{name}` (easy, medium, hard, expert)"),
            ));
        }
    }
    if names.is_empty() {
        return Err(bad(script, &at, "`ai_levels` is empty".into()));
    }
    Ok(names)
}

/// The reaction time of an AI level, in seconds (presentation only).
pub fn reaction_seconds(script: &Script, level: &str) -> Result<f64, ScriptError> {
    let default = match level {
        "easy" => 1.0,
        "medium" => 2.0,
        _ => 3.0,
    };
    let Some(table) = sub_table(script, "reaction_seconds")? else {
        return Ok(default);
    };
    number_in(
        script,
        &table,
        &["reaction_seconds"],
        level,
        default,
        0.0..=60.0,
    )
}

/// The AIs' weights and budgets. Weights may be any finite number;
/// budgets, shares and scales are refused outside their ranges.
pub fn ai_settings(script: &Script) -> Result<AiSettings, ScriptError> {
    const ANY: std::ops::RangeInclusive<f64> = -1e6..=1e6;
    let mut s = AiSettings::default();
    if let Some(t) = sub_table(script, "medium")? {
        let w = s.medium;
        let get = |k: &str, d: f64| number_in(script, &t, &["medium"], k, d, ANY);
        s.medium = MediumWeights {
            immediate: get("immediate", w.immediate)?,
            potential: get("potential", w.potential)?,
            floor_risk: get("floor_risk", w.floor_risk)?,
            blocking: get("blocking", w.blocking)?,
        };
    }
    if let Some(t) = sub_table(script, "hard")? {
        let h = s.hard;
        let get = |k: &str, d: f64, range| number_in(script, &t, &["hard"], k, d, range);
        s.hard = HardSettings {
            nodes: get("nodes", h.nodes as f64, 1.0..=1e10)? as u64,
            potential: get("potential", h.potential, ANY)?,
            carry: get("carry", h.carry, ANY)?,
        };
    }
    if let Some(t) = sub_table(script, "expert")? {
        let e = s.expert;
        let get = |k: &str, d: f64, range| number_in(script, &t, &["expert"], k, d, range);
        s.expert = ExpertSettings {
            playouts: get("playouts", e.playouts as f64, 1.0..=1e12)? as u64,
            seconds: get("seconds", e.seconds, 0.0..=3600.0)?,
            exploration: get("exploration", e.exploration, 0.0..=100.0)?,
            epsilon: get("epsilon", e.epsilon, 0.0..=1.0)?,
            win_weight: get("win_weight", e.win_weight, 0.0..=1.0)?,
            margin_scale: get("margin_scale", e.margin_scale, 0.001..=1e6)?,
            own_weight: get("own_weight", e.own_weight, 0.0..=1.0)?,
            score_scale: get("score_scale", e.score_scale, 1.0..=1e6)?,
            threads: get("threads", f64::from(e.threads), 0.0..=256.0)? as u32,
            max_nodes: get("max_nodes", e.max_nodes as f64, 10_000.0..=100_000_000.0)? as u64,
        };
    }
    Ok(s)
}

/// Every setting the game reads, as game start and the AIs read them: the
/// one check `check`, `watch`, the editor and game start share.
pub fn check(script: &Script) -> Result<(), ScriptError> {
    rules(script)?;
    colours(script)?;
    for level in ai_levels(script)? {
        reaction_seconds(script, &level)?;
    }
    ai_settings(script)?;
    Ok(())
}
