//! The one typed reader of a script's settings: every game reads its
//! numbers, switches, names and lists through it, so every refusal has the
//! same words and names the line where the script writes the value.
//!
//! ```text
//! let slots = script.setting::<i64>(&["slots"]).within(1..=8).or(3)?;
//! let beam = script.setting::<f64>(&["hard", "potential"]).or(0.5)?;
//! let speeds = script.list::<f64>(&["fall_seconds"]).most(100).within(0.001..=60.0).optional()?;
//! let weights = script.named::<f64>(&["ai", "difficulties", "2", "weights"]).within(-1e3..=1e3).optional()?;
//! script.only_keys(&["feed"], &["specials"])?; // a typo is refused, not ignored
//! let rows = script.rows(&["ai", "difficulties"], 64)?; // a list of tables
//! ```
//!
//! A number must be finite (`0/0` and `1e309` mean nothing), a whole
//! number must have no fraction, a switch must be `true` or `false` (not
//! any value Lua calls truthy), a list has no holes and at most its cap of
//! entries. What a game derives from its settings is read once per script
//! version and kept: [`Script::cached`].

use std::any::{Any, TypeId};
use std::ops::RangeInclusive;
use std::sync::Arc;

use mlua::{Table, Value};

use super::error::ScriptError;
use super::sandbox::Script;
use super::schema::{no_such_setting, show_number};

/// A value a setting may hold, with the words its refusals use.
pub trait SettingValue: Sized + Clone + PartialOrd {
    /// What the value must be, with its article: `a number`.
    const KIND: &'static str;
    /// The value, when `value` is one (`None`: the wrong type).
    fn from_lua(value: &Value) -> Option<Self>;
    /// The value as a designer wrote it, for range refusals.
    fn show(&self) -> String;
    /// Whether the value means something (a number: finite).
    fn meaningful(&self) -> bool {
        true
    }
}

impl SettingValue for f64 {
    const KIND: &'static str = "a finite number";
    fn from_lua(value: &Value) -> Option<Self> {
        match value {
            Value::Integer(n) => Some(*n as f64),
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }
    fn show(&self) -> String {
        show_number(*self)
    }
    fn meaningful(&self) -> bool {
        self.is_finite()
    }
}

impl SettingValue for i64 {
    const KIND: &'static str = "a whole number";
    fn from_lua(value: &Value) -> Option<Self> {
        match value {
            Value::Integer(n) => Some(*n),
            // Beyond 2^53 a float no longer counts units: refused as a
            // number that means nothing.
            Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Some(*n as i64),
            _ => None,
        }
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

impl SettingValue for bool {
    const KIND: &'static str = "a boolean (true or false)";
    fn from_lua(value: &Value) -> Option<Self> {
        value.as_boolean()
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

impl SettingValue for String {
    const KIND: &'static str = "a string";
    fn from_lua(value: &Value) -> Option<Self> {
        match value {
            Value::String(s) => s.to_str().ok().map(|s| s.to_string()),
            _ => None,
        }
    }
    fn show(&self) -> String {
        format!("{self:?}")
    }
}

/// A value in a refusal: numbers shown as written, others by their type.
fn describe(value: &Value) -> String {
    match value {
        Value::Integer(n) => n.to_string(),
        Value::Number(n) => show_number(*n),
        Value::Boolean(b) => b.to_string(),
        other => format!("a {}", other.type_name()),
    }
}

/// `at` as a designer writes it: `colours[2].rgb`, `ai.log_top`.
pub fn dotted(at: &[&str]) -> String {
    let mut out = String::new();
    for part in at {
        if !out.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
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

/// One setting being read: [`Script::setting`].
pub struct Setting<'s, T> {
    script: &'s Script,
    at: Vec<String>,
    range: Option<RangeInclusive<T>>,
}

impl<T: SettingValue> Setting<'_, T> {
    /// Refuses values outside `range` (inclusive).
    pub fn within(mut self, range: RangeInclusive<T>) -> Self {
        self.range = Some(range);
        self
    }

    /// The value, or `default` when the script leaves it out.
    pub fn or(self, default: T) -> Result<T, ScriptError> {
        Ok(self.optional()?.unwrap_or(default))
    }

    /// The value; a script that leaves it out is refused.
    pub fn required(self) -> Result<T, ScriptError> {
        let (script, names) = (self.script, self.at.clone());
        let at: Vec<&str> = names.iter().map(String::as_str).collect();
        match self.optional()? {
            Some(value) => Ok(value),
            None => Err(script.field_error(
                &at,
                format!("missing `{}` ({} expected)", dotted(&at), T::KIND),
            )),
        }
    }

    /// The value, `None` when the script leaves it out.
    pub fn optional(self) -> Result<Option<T>, ScriptError> {
        let at: Vec<&str> = self.at.iter().map(String::as_str).collect();
        let Some(value) = self.script.raw_at(&at)? else {
            return Ok(None);
        };
        let read = checked::<T>(self.script, &at, &value, self.range.as_ref())?;
        Ok(Some(read))
    }
}

/// `value` as a `T` within `range`, or the refusal of it at `at`.
fn checked<T: SettingValue>(
    script: &Script,
    at: &[&str],
    value: &Value,
    range: Option<&RangeInclusive<T>>,
) -> Result<T, ScriptError> {
    // NaN and the infinities are numbers that mean nothing.
    let Some(read) = T::from_lua(value).filter(T::meaningful) else {
        return Err(script.field_error(
            at,
            format!(
                "`{}` must be {}, found {}",
                dotted(at),
                T::KIND,
                describe(value)
            ),
        ));
    };
    if let Some(range) = range
        && !range.contains(&read)
    {
        return Err(script.field_error(
            at,
            format!(
                "`{}` must be {} to {}, not {}",
                dotted(at),
                range.start().show(),
                range.end().show(),
                read.show()
            ),
        ));
    }
    Ok(read)
}

/// A list setting being read: [`Script::list`].
pub struct ListSetting<'s, T> {
    script: &'s Script,
    at: Vec<String>,
    range: Option<RangeInclusive<T>>,
    most: usize,
    least: usize,
}

impl<T: SettingValue> ListSetting<'_, T> {
    /// Refuses entries outside `range` (inclusive).
    pub fn within(mut self, range: RangeInclusive<T>) -> Self {
        self.range = Some(range);
        self
    }

    /// Refuses a list of more than `most` entries (every list has a cap, so
    /// a script cannot make a game read a million of them).
    pub fn most(mut self, most: usize) -> Self {
        self.most = most;
        self
    }

    /// Refuses a list of fewer than `least` entries.
    pub fn least(mut self, least: usize) -> Self {
        self.least = least;
        self
    }

    /// The entries, `None` when the script leaves the list out.
    pub fn optional(self) -> Result<Option<Vec<T>>, ScriptError> {
        let at: Vec<&str> = self.at.iter().map(String::as_str).collect();
        let Some(value) = self.script.raw_at(&at)? else {
            return Ok(None);
        };
        let script = self.script;
        let Value::Table(table) = value else {
            return Err(script.field_error(
                &at,
                format!(
                    "`{}` must be a list, found {}",
                    dotted(&at),
                    describe(&value)
                ),
            ));
        };
        let count = list_length(script, &table, &at, self.most)?;
        if count < self.least {
            return Err(script.field_error(
                &at,
                format!(
                    "`{}` holds {count} entries, at least {} expected",
                    dotted(&at),
                    self.least
                ),
            ));
        }
        let mut out = Vec::with_capacity(count);
        for i in 1..=count {
            let index = i.to_string();
            let entry_at: Vec<&str> = at.iter().copied().chain([index.as_str()]).collect();
            let value: Value = table
                .raw_get(i)
                .map_err(|e| script.field_error(&entry_at, e.to_string()))?;
            out.push(checked::<T>(
                script,
                &entry_at,
                &value,
                self.range.as_ref(),
            )?);
        }
        Ok(Some(out))
    }

    /// The entries, or `default` when the script leaves the list out.
    pub fn or(self, default: Vec<T>) -> Result<Vec<T>, ScriptError> {
        Ok(self.optional()?.unwrap_or(default))
    }
}

/// A table of named settings being read: [`Script::named`]
/// (`weights = { holes = -0.36, bumpiness = -0.18 }`).
pub struct NamedSetting<'s, T> {
    script: &'s Script,
    at: Vec<String>,
    range: Option<RangeInclusive<T>>,
    most: usize,
}

impl<T: SettingValue> NamedSetting<'_, T> {
    /// Refuses values outside `range` (inclusive).
    pub fn within(mut self, range: RangeInclusive<T>) -> Self {
        self.range = Some(range);
        self
    }

    /// Refuses a table of more than `most` names.
    pub fn most(mut self, most: usize) -> Self {
        self.most = most;
        self
    }

    /// The names and values in name order, `None` when the script leaves
    /// the table out. A key that is not a name is refused.
    pub fn optional(self) -> Result<Option<Vec<(String, T)>>, ScriptError> {
        let at: Vec<&str> = self.at.iter().map(String::as_str).collect();
        let Some(table) = self.script.table_at(&at)? else {
            return Ok(None);
        };
        let script = self.script;
        let mut out = Vec::new();
        for name in key_names(script, &table, &at, self.most)? {
            let entry_at: Vec<&str> = at.iter().copied().chain([name.as_str()]).collect();
            let value: Value = table
                .raw_get(name.as_str())
                .map_err(|e| script.field_error(&entry_at, e.to_string()))?;
            let read = checked::<T>(script, &entry_at, &value, self.range.as_ref())?;
            out.push((name, read));
        }
        Ok(Some(out))
    }
}

/// The keys of `table` (at `at`), sorted, each a name: a number or other
/// key is refused, and so is a table of more than `most` keys (counting
/// stops there).
fn key_names(
    script: &Script,
    table: &Table,
    at: &[&str],
    most: usize,
) -> Result<Vec<String>, ScriptError> {
    let mut names = Vec::new();
    for pair in table.pairs::<Value, Value>() {
        let (key, _) = pair.map_err(|e| script.field_error(at, e.to_string()))?;
        let Value::String(name) = &key else {
            return Err(script.field_error(
                at,
                format!(
                    "`{}` holds settings by name (`{} = {{ name = value }}`); it has a key {}",
                    dotted(at),
                    at.last().copied().unwrap_or("table"),
                    describe(&key)
                ),
            ));
        };
        names.push(name.to_string_lossy());
        if names.len() > most {
            return Err(script.field_error(
                at,
                format!("`{}` holds over {most} entries, at most {most}", dotted(at)),
            ));
        }
    }
    names.sort();
    Ok(names)
}

/// How many entries a list table holds, refused (at `at`) when it has a
/// key other than 1..n, a hole, or more than `most` entries. The count
/// stops at `most + 1`, so a list of a million entries costs no more than
/// one just over the cap.
pub fn list_length(
    script: &Script,
    table: &Table,
    at: &[&str],
    most: usize,
) -> Result<usize, ScriptError> {
    let mut count = 0usize;
    let mut highest = 0i64;
    for pair in table.pairs::<Value, Value>() {
        let (key, _) = pair.map_err(|e| script.field_error(at, e.to_string()))?;
        count += 1;
        if count > most {
            return Err(script.field_error(
                at,
                format!("`{}` holds over {most} entries, at most {most}", dotted(at)),
            ));
        }
        match key {
            Value::Integer(i) if i >= 1 => highest = highest.max(i),
            Value::Number(n) if n >= 1.0 && n.fract() == 0.0 => highest = highest.max(n as i64),
            other => {
                return Err(script.field_error(
                    at,
                    format!(
                        "`{}` must be a list; it has a key {}",
                        dotted(at),
                        match &other {
                            Value::String(s) => format!("`{}`", s.to_string_lossy()),
                            other => describe(other),
                        }
                    ),
                ));
            }
        }
    }
    if highest as usize != count {
        return Err(script.field_error(
            at,
            format!(
                "`{}` has a hole: {count} entries but the last is number {highest} (a `nil` in the list?)",
                dotted(at)
            ),
        ));
    }
    Ok(count)
}

impl Script {
    /// A typed read of the setting at `at` (a path into the returned
    /// table: `["expert", "seconds"]`), see [`Setting`]. The path's tables
    /// are read raw: no script code runs.
    pub fn setting<T: SettingValue>(&self, at: &[&str]) -> Setting<'_, T> {
        Setting {
            script: self,
            at: at.iter().map(|s| s.to_string()).collect(),
            range: None,
        }
    }

    /// A typed read of the list at `at`, see [`ListSetting`] (at most 64
    /// entries unless [`ListSetting::most`] says otherwise).
    pub fn list<T: SettingValue>(&self, at: &[&str]) -> ListSetting<'_, T> {
        ListSetting {
            script: self,
            at: at.iter().map(|s| s.to_string()).collect(),
            range: None,
            most: 64,
            least: 0,
        }
    }

    /// A typed read of the named values of the table at `at`, see
    /// [`NamedSetting`] (at most 64 names unless it says otherwise).
    pub fn named<T: SettingValue>(&self, at: &[&str]) -> NamedSetting<'_, T> {
        NamedSetting {
            script: self,
            at: at.iter().map(|s| s.to_string()).collect(),
            range: None,
            most: 64,
        }
    }

    /// Refuses a key of the table at `at` that is not one of `allowed`: a
    /// typo such as `ceilng_every` would otherwise be ignored and its
    /// default played. The refusal names the nearest allowed key when one
    /// is close (did you mean `ceiling_every`?), in the words the top
    /// level's refusal uses ([`Script::validate`]). A script without the
    /// table passes.
    pub fn only_keys(&self, at: &[&str], allowed: &[&str]) -> Result<(), ScriptError> {
        let Some(table) = self.table_at(at)? else {
            return Ok(());
        };
        // Allowed keys are distinct, so a stray key shows up within the
        // first `allowed.len() + 1` pairs: a table of a million keys stops
        // there.
        for pair in table.pairs::<Value, Value>() {
            let (key, _) = pair.map_err(|e| self.field_error(at, e.to_string()))?;
            let name = match &key {
                Value::String(s) => s.to_string_lossy(),
                other => {
                    return Err(self.field_error(
                        at,
                        format!(
                            "`{}` has a key {}; its settings are {}",
                            dotted(at),
                            describe(other),
                            allowed.join(", ")
                        ),
                    ));
                }
            };
            if !allowed.contains(&name.as_str()) {
                let entry_at: Vec<&str> = at.iter().copied().chain([name.as_str()]).collect();
                return Err(self.field_error(
                    &entry_at,
                    no_such_setting(&format!("`{}`", dotted(at)), &name, allowed),
                ));
            }
        }
        Ok(())
    }

    /// How many rows the list at `at` holds (`None` when the script leaves
    /// it out), each a table: `difficulties = { { name = "EASY" }, ... }`.
    /// Refused with the list's line when it is not a list, holds more than
    /// `most` rows, or a row is not a table.
    pub fn rows(&self, at: &[&str], most: usize) -> Result<Option<usize>, ScriptError> {
        let Some(table) = self.table_at(at)? else {
            return Ok(None);
        };
        let count = list_length(self, &table, at, most)?;
        for i in 1..=count {
            let index = i.to_string();
            let row_at: Vec<&str> = at.iter().copied().chain([index.as_str()]).collect();
            let row: Value = table
                .raw_get(i)
                .map_err(|e| self.field_error(&row_at, e.to_string()))?;
            if !row.is_table() {
                return Err(self.field_error(
                    &row_at,
                    format!(
                        "`{}` must be a table, found {}",
                        dotted(&row_at),
                        describe(&row)
                    ),
                ));
            }
        }
        Ok(Some(count))
    }

    /// The table at `at`, `None` when the script leaves it out; refused
    /// when it is another type.
    pub fn table_at(&self, at: &[&str]) -> Result<Option<Table>, ScriptError> {
        match self.raw_at(at)? {
            None => Ok(None),
            Some(Value::Table(table)) => Ok(Some(table)),
            Some(other) => Err(self.field_error(
                at,
                format!(
                    "`{}` must be a table, found {}",
                    dotted(at),
                    describe(&other)
                ),
            )),
        }
    }

    /// The raw value at `at`; `None` when it or a table on the way is nil.
    fn raw_at(&self, at: &[&str]) -> Result<Option<Value>, ScriptError> {
        self.guarded(|| {
            let mut value = Value::Table(self.exports().clone());
            for (depth, key) in at.iter().enumerate() {
                let Value::Table(table) = value else {
                    let parent = &at[..depth];
                    return Err(self.field_error(
                        parent,
                        format!(
                            "`{}` must be a table, found {}",
                            dotted(parent),
                            describe(&value)
                        ),
                    ));
                };
                value = match key.parse::<i64>() {
                    Ok(index) if !key.starts_with(['+', '-']) => table.raw_get(index),
                    _ => table.raw_get(*key),
                }
                .map_err(|e| self.field_error(at, e.to_string()))?;
                if value.is_nil() {
                    return Ok(None);
                }
            }
            Ok(Some(value))
        })
    }

    /// Calls the hook `name` and reads its result as a `T`: a `won()` that
    /// returns a table is refused at the hook's line, not taken for `true`
    /// because Lua calls a table truthy.
    pub fn call_typed<T: SettingValue>(
        &self,
        name: &str,
        args: impl mlua::IntoLuaMulti,
    ) -> Result<T, ScriptError> {
        let value: Value = self.call(name, args)?;
        T::from_lua(&value).filter(T::meaningful).ok_or_else(|| {
            self.field_error(
                &[name],
                format!("`{name}` returned {}, not {}", describe(&value), T::KIND),
            )
        })
    }

    /// `read(self)` once per script version: the first call reads, later
    /// calls (every event of every game on this version) get the kept
    /// result, refusal included. One reader per type `T`.
    pub fn cached<T: Any + Send + Sync>(
        &self,
        read: impl FnOnce(&Script) -> Result<T, ScriptError>,
    ) -> Result<Arc<T>, ScriptError> {
        type Kept<T> = Result<Arc<T>, ScriptError>;
        let key = TypeId::of::<T>();
        let find = |cache: &[(TypeId, Arc<dyn Any + Send + Sync>)]| {
            cache
                .iter()
                .find(|(id, _)| *id == key)
                .and_then(|(_, kept)| kept.downcast_ref::<Kept<T>>().cloned())
        };
        if let Some(kept) = find(&self.cache.lock_or_recover()) {
            return kept;
        }
        // Read outside the lock: a reader may read other cached settings.
        let kept: Kept<T> = read(self).map(Arc::new);
        let mut cache = self.cache.lock_or_recover();
        if let Some(earlier) = find(&cache) {
            return earlier;
        }
        cache.push((key, Arc::new(kept.clone())));
        kept
    }
}
