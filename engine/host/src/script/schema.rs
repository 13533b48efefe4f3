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

/// The contract between a game and its script.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptSchema {
    /// The game id the schema belongs to.
    pub game: &'static str,
    /// Fields of the returned table.
    pub fields: Vec<FieldSpec>,
}

impl ScriptSchema {
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
