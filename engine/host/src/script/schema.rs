//! What a game's script must return: a table whose fields have known types.

use mlua::{Table, Value};

/// The Lua type a script field must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// A function (a hook or a formula).
    Function,
    /// Any number.
    Number,
    /// A number with no fractional part.
    Integer,
    /// `true` or `false`.
    Boolean,
    /// A string.
    String,
    /// A table (palette, difficulty table, ...).
    Table,
}

impl FieldKind {
    /// The name a designer reads in an error.
    pub fn name(self) -> &'static str {
        match self {
            FieldKind::Function => "function",
            FieldKind::Number => "number",
            FieldKind::Integer => "integer",
            FieldKind::Boolean => "boolean",
            FieldKind::String => "string",
            FieldKind::Table => "table",
        }
    }

    /// The name with its article: `an integer`, `a table`.
    pub fn with_article(self) -> String {
        match self {
            FieldKind::Integer => "an integer".into(),
            other => format!("a {}", other.name()),
        }
    }

    fn accepts(self, value: &Value) -> bool {
        match self {
            FieldKind::Function => value.is_function(),
            FieldKind::Number => value.is_number() || value.is_integer(),
            FieldKind::Integer => match value {
                Value::Integer(_) => true,
                Value::Number(n) => n.fract() == 0.0 && n.is_finite(),
                _ => false,
            },
            FieldKind::Boolean => value.is_boolean(),
            FieldKind::String => value.is_string(),
            FieldKind::Table => value.is_table(),
        }
    }
}

/// One field of a script's returned table.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSpec {
    /// Key in the returned table.
    pub name: &'static str,
    /// Required type.
    pub kind: FieldKind,
    /// Whether the script must define it (optional fields fall back to the
    /// game's default).
    pub required: bool,
    /// One line for designers: what the field tunes.
    pub doc: &'static str,
    /// For numbers: the inclusive range a value must lie in (NaN and the
    /// infinities never do).
    pub range: Option<(f64, f64)>,
}

impl FieldSpec {
    /// A field the script must define.
    pub const fn required(name: &'static str, kind: FieldKind, doc: &'static str) -> Self {
        Self {
            name,
            kind,
            required: true,
            doc,
            range: None,
        }
    }

    /// A field the script may define.
    pub const fn optional(name: &'static str, kind: FieldKind, doc: &'static str) -> Self {
        Self {
            name,
            kind,
            required: false,
            doc,
            range: None,
        }
    }

    /// The same field, limited to `min..=max` (for number fields).
    pub const fn within(mut self, min: f64, max: f64) -> Self {
        self.range = Some((min, max));
        self
    }

    /// The range in words, for errors and documentation: `1 to 8`.
    pub fn range_text(&self) -> Option<String> {
        self.range.map(|(min, max)| format!("{min} to {max}"))
    }
}

/// Keys the host itself reads from any game's script, known at the top
/// level whatever the game's schema: `game` names the script's game when
/// its file name does not (`tessera check mine.lua`).
pub const HOST_KEYS: &[&str] = &["game"];

/// Most characters of a key a refusal shows: a script's typo is a word,
/// and a key of a million characters is shown cut, not echoed.
const SHOWN_KEY_CHARS: usize = 64;

/// The contract between a game and its script.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptSchema {
    /// The game id the schema belongs to.
    pub game: &'static str,
    /// Fields of the returned table: every key the game reads at the top
    /// level, settings and hooks alike (any other key is refused, see
    /// [`ScriptSchema::known_keys`]).
    pub fields: Vec<FieldSpec>,
}

/// A key of a table that no schema or reader knows: its path from the
/// returned table (to find its line) and the refusal.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StrayKey {
    /// Where the key is: `["slotz"]`, or `["3"]` for a positional entry;
    /// empty when the key cannot be written as a path (`[true] = 1`).
    pub at: Vec<String>,
    /// The refusal, naming the nearest known key when one is close.
    pub message: String,
}

/// At most this many stray keys are gathered from one table before the
/// one written first is refused: enough to report the first typo of a
/// script with several, and a table of a million stray keys costs no more.
const MOST_STRAYS: usize = 16;

impl ScriptSchema {
    /// Every key the returned table may hold: the schema's fields, then
    /// the host's own ([`HOST_KEYS`]).
    pub fn known_keys(&self) -> Vec<&'static str> {
        self.fields
            .iter()
            .map(|field| field.name)
            .chain(HOST_KEYS.iter().copied())
            .collect()
    }

    /// The keys of the returned table that no field of the schema and no
    /// host key names (up to [`MOST_STRAYS`] of them, in no particular
    /// order: the caller refuses the one written first). Known keys are
    /// distinct, so the scan stops within `known + MOST_STRAYS` pairs.
    pub(crate) fn stray_keys(&self, table: &Table) -> mlua::Result<Vec<StrayKey>> {
        let known = self.known_keys();
        let mut strays = Vec::new();
        for pair in table.pairs::<Value, Value>() {
            let (key, _) = pair?;
            let stray = match &key {
                Value::String(name) => {
                    let name = name.to_string_lossy();
                    if known.contains(&name.as_str()) {
                        continue;
                    }
                    StrayKey {
                        message: no_such_setting("the script", &name, &known),
                        at: vec![name],
                    }
                }
                other => StrayKey {
                    at: match other {
                        Value::Integer(n) => vec![n.to_string()],
                        _ => Vec::new(),
                    },
                    message: format!(
                        "the script's table has a key {}; its settings are named: {}",
                        describe(other),
                        known.join(", ")
                    ),
                },
            };
            strays.push(stray);
            if strays.len() >= MOST_STRAYS {
                break;
            }
        }
        Ok(strays)
    }

    /// Checks a returned table; the error names the first missing,
    /// mistyped or out-of-range field (and is returned with that field's
    /// name, so the caller can find its line).
    pub(crate) fn validate(&self, table: &Table) -> Result<(), (&'static str, String)> {
        for field in &self.fields {
            let value: Value = table.raw_get(field.name).map_err(|e| {
                (
                    field.name,
                    format!("cannot read field `{}`: {e}", field.name),
                )
            })?;
            if value.is_nil() {
                if field.required {
                    return Err((
                        field.name,
                        format!(
                            "missing `{}` ({} expected): {}",
                            field.name,
                            field.kind.name(),
                            field.doc
                        ),
                    ));
                }
                continue;
            }
            if !field.kind.accepts(&value) {
                return Err((
                    field.name,
                    format!(
                        "`{}` must be {}, found {}",
                        field.name,
                        field.kind.with_article(),
                        describe(&value)
                    ),
                ));
            }
            if let (Some((min, max)), Some(number)) = (field.range, as_number(&value))
                && !(min..=max).contains(&number)
            {
                return Err((
                    field.name,
                    format!(
                        "`{}` must be {min} to {max}, not {}",
                        field.name,
                        show_number(number)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The refusal of a key `name` that the table `owner` (`the script`,
/// `` `ai` ``) does not have, in the words every such refusal uses: the
/// nearest of `known` when one is close (a typo), else the whole list.
pub(crate) fn no_such_setting(owner: &str, name: &str, known: &[&str]) -> String {
    let shown = show_key(name);
    match nearest_key(name, known) {
        Some(near) => format!("{owner} has no setting `{shown}`; did you mean `{near}`?"),
        None => format!(
            "{owner} has no setting `{shown}` (settings: {})",
            known.join(", ")
        ),
    }
}

/// A key as a refusal shows it: cut at [`SHOWN_KEY_CHARS`] characters.
fn show_key(name: &str) -> String {
    match name.char_indices().nth(SHOWN_KEY_CHARS) {
        Some((cut, _)) => format!("{}...", &name[..cut]),
        None => name.to_string(),
    }
}

/// The key of `known` nearest to `name` (a misspelling of it), `None` when
/// none is close: at most a third of `name`'s length away (at least one
/// edit), counting a swap of two neighbours as one edit and ignoring case,
/// so `slotz`, `slost` and `Slots` all find `slots` while `zzz` finds
/// nothing. Ties go to the key listed first.
pub fn nearest_key<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    let name: Vec<char> = name.to_lowercase().chars().collect();
    let most = (name.len() / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for &key in known {
        let candidate: Vec<char> = key.to_lowercase().chars().collect();
        // The distance is at least the difference in length: a key of a
        // million characters is not compared character by character.
        if candidate.len().abs_diff(name.len()) > most {
            continue;
        }
        let distance = edit_distance(&name, &candidate);
        if distance <= most && best.is_none_or(|(shortest, _)| distance < shortest) {
            best = Some((distance, key));
        }
    }
    best.map(|(_, key)| key)
}

/// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`:
/// the optimal string alignment distance.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let width = b.len() + 1;
    let mut rows = vec![0usize; (a.len() + 1) * width];
    for (j, cell) in rows.iter_mut().take(width).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        rows[i * width] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut distance = (rows[(i - 1) * width + j] + 1)
                .min(rows[i * width + j - 1] + 1)
                .min(rows[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                distance = distance.min(rows[(i - 2) * width + j - 2] + 1);
            }
            rows[i * width + j] = distance;
        }
    }
    rows[a.len() * width + b.len()]
}

fn as_number(value: &Value) -> Option<f64> {
    match value {
        Value::Integer(n) => Some(*n as f64),
        Value::Number(n) => Some(*n),
        _ => None,
    }
}

/// A value in an error: numbers shown (`a number, 1.5`), others by type.
fn describe(value: &Value) -> String {
    match as_number(value) {
        Some(n) => show_number(n),
        None => format!("a {}", value.type_name()),
    }
}

/// A number as a designer wrote it: `0`, `1.5`, `1e300`, `nan`.
pub fn show_number(n: f64) -> String {
    if n.is_nan() {
        "nan (0/0)".into()
    } else if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else if n.is_finite() && (n.abs() >= 1e15 || n.abs() < 1e-6) {
        format!("{n:e}")
    } else {
        format!("{n}")
    }
}
