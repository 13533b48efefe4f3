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
#[derive(Debug, Clone, PartialEq, Eq)]
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
}

impl FieldSpec {
    /// A field the script must define.
    pub const fn required(name: &'static str, kind: FieldKind, doc: &'static str) -> Self {
        Self {
            name,
            kind,
            required: true,
            doc,
        }
    }

    /// A field the script may define.
    pub const fn optional(name: &'static str, kind: FieldKind, doc: &'static str) -> Self {
        Self {
            name,
            kind,
            required: false,
            doc,
        }
    }
}

/// The contract between a game and its script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptSchema {
    /// The game id the schema belongs to.
    pub game: &'static str,
    /// Fields of the returned table.
    pub fields: Vec<FieldSpec>,
}

impl ScriptSchema {
    /// Checks a returned table; the error names the first missing or
    /// mistyped field.
    pub(crate) fn validate(&self, table: &Table) -> Result<(), String> {
        for field in &self.fields {
            let value: Value = table
                .raw_get(field.name)
                .map_err(|e| format!("cannot read field `{}`: {e}", field.name))?;
            if value.is_nil() {
                if field.required {
                    return Err(format!(
                        "missing `{}` ({} expected): {}",
                        field.name,
                        field.kind.name(),
                        field.doc
                    ));
                }
                continue;
            }
            if !field.kind.accepts(&value) {
                return Err(format!(
                    "`{}` must be a {}, found a {}",
                    field.name,
                    field.kind.name(),
                    value.type_name()
                ));
            }
        }
        Ok(())
    }
}
