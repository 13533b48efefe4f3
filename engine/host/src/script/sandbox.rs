//! One sandboxed Luau VM per script version.
//!
//! Why a fresh VM per version: a reload can never see (or be broken by) the
//! globals of the version it replaces, and the old version keeps running
//! untouched until the new one has compiled and validated.
//!
//! Why Luau: its `sandbox` mode makes the libraries read-only, and an error
//! raised from its interrupt callback stops a loop even inside `pcall`
//! because the budget stays expired: the next interrupt outside the `pcall`
//! raises again. Lua 5.4's count hook offers no such guarantee.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mlua::{
    FromLua, FromLuaMulti, Function, IntoLuaMulti, Lua, LuaOptions, StdLib, Table, Value, VmState,
};

use super::error::{ScriptError, ScriptErrorKind};
use super::schema::ScriptSchema;

/// Resource limits for one script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptLimits {
    /// Memory cap for the whole VM, in bytes.
    pub memory_bytes: usize,
    /// Wall-clock budget of one call into the script (a hook or formula).
    pub call_budget: Duration,
    /// Budget for running the file's top level when it is loaded.
    pub load_budget: Duration,
}

impl Default for ScriptLimits {
    fn default() -> Self {
        Self {
            memory_bytes: 64 * 1024 * 1024,
            call_budget: Duration::from_millis(250),
            load_budget: Duration::from_millis(500),
        }
    }
}

/// Globals Luau (or mlua) provides that a sandboxed script must not reach:
/// file access (`require`), code loading, environment escapes, debugging.
const REMOVED_GLOBALS: &[&str] = &[
    "io",
    "os",
    "require",
    "load",
    "loadstring",
    "dofile",
    "loadfile",
    "debug",
    "getfenv",
    "setfenv",
    "collectgarbage",
    "coroutine",
    "utf8",
    "bit32",
    "buffer",
    "vector",
];

/// Luau's `string.rep` silently truncates a count beyond 32 bits (so
/// `string.rep("x", 2^40)` returns ""), which hides a memory bomb instead of
/// reporting it. The wrapper refuses any result larger than the memory cap
/// up front, as a memory error located at the caller's line.
const GUARDED_STRING_REP: &str = r#"
local cap = ...
local rep = string.rep
string.rep = function(s, n, sep)
  if type(n) == "number" and n > 0 then
    local total = #tostring(s) * n + (sep ~= nil and #tostring(sep) * (n - 1) or 0)
    if total > cap then
      error(string.format("string.rep would build %.0f bytes, over the memory cap of %.0f", total, cap), 2)
    end
  end
  return rep(s, n, sep)
end
"#;

/// How many interrupts pass between two clock reads; keeps the budget check
/// cheap in tight loops while still reacting within microseconds.
const CLOCK_EVERY: u32 = 256;

/// The deadline shared between the caller and the VM's interrupt callback.
#[derive(Debug)]
struct Budget {
    origin: Instant,
    /// Nanoseconds since `origin`; `u64::MAX` when no call is running.
    deadline: AtomicU64,
    exceeded: AtomicBool,
    ticks: AtomicU32,
    /// The script line running when the budget ran out (0: unknown).
    stopped_at: AtomicU32,
}

impl Budget {
    fn new() -> Self {
        Self {
            origin: Instant::now(),
            deadline: AtomicU64::new(u64::MAX),
            exceeded: AtomicBool::new(false),
            ticks: AtomicU32::new(0),
            stopped_at: AtomicU32::new(0),
        }
    }

    fn arm(&self, budget: Duration) {
        let now = self.origin.elapsed();
        let deadline = now
            .saturating_add(budget)
            .as_nanos()
            .min(u128::from(u64::MAX - 1));
        self.exceeded.store(false, Ordering::Relaxed);
        self.stopped_at.store(0, Ordering::Relaxed);
        self.deadline.store(deadline as u64, Ordering::Relaxed);
    }

    /// Ends a call; true when it ran out of budget (even if the script
    /// caught the error with `pcall`).
    fn disarm(&self) -> bool {
        self.deadline.store(u64::MAX, Ordering::Relaxed);
        self.exceeded.swap(false, Ordering::Relaxed)
    }

    fn stopped_line(&self) -> Option<u32> {
        Some(self.stopped_at.load(Ordering::Relaxed)).filter(|line| *line > 0)
    }

    /// Called from the interrupt: once expired it stays expired until the
    /// call ends, so every later interrupt raises again.
    fn expired(&self) -> bool {
        if self.exceeded.load(Ordering::Relaxed) {
            return true;
        }
        if !self
            .ticks
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(CLOCK_EVERY)
        {
            return false;
        }
        let now = self.origin.elapsed().as_nanos();
        if now >= u128::from(self.deadline.load(Ordering::Relaxed)) {
            self.exceeded.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }
}

/// One loaded and validated version of a script file.
pub struct Script {
    path: PathBuf,
    /// The text this version was compiled from (replays record it).
    source: Arc<str>,
    lua: Lua,
    exports: Table,
    budget: Arc<Budget>,
    limits: ScriptLimits,
    printed: Arc<Mutex<Vec<String>>>,
}

impl Script {
    /// Reads and loads a script file; see [`Script::load`].
    pub fn load_file(
        path: &Path,
        schema: Option<&ScriptSchema>,
        limits: ScriptLimits,
    ) -> Result<Self, ScriptError> {
        let source = std::fs::read_to_string(path).map_err(|e| {
            ScriptError::new(path, ScriptErrorKind::Io, format!("cannot read: {e}"))
        })?;
        Self::load(path, &source, schema, limits)
    }

    /// Compiles and runs `source` in a fresh sandbox, then checks that it
    /// returned a table matching `schema` (when given). `path` names the
    /// script in every error.
    pub fn load(
        path: &Path,
        source: &str,
        schema: Option<&ScriptSchema>,
        limits: ScriptLimits,
    ) -> Result<Self, ScriptError> {
        let lua_error =
            |e: mlua::Error| ScriptError::new(path, ScriptErrorKind::Runtime, e.to_string());
        let lua = Lua::new_with(
            StdLib::MATH | StdLib::STRING | StdLib::TABLE,
            LuaOptions::new(),
        )
        .map_err(lua_error)?;
        let printed = Arc::new(Mutex::new(Vec::new()));
        install_engine_api(&lua, &printed, limits.memory_bytes).map_err(lua_error)?;
        lua.sandbox(true).map_err(lua_error)?;
        lua.set_memory_limit(limits.memory_bytes)
            .map_err(lua_error)?;

        let budget = Arc::new(Budget::new());
        let interrupt_budget = Arc::clone(&budget);
        lua.set_interrupt(move |lua| {
            if interrupt_budget.expired() {
                if interrupt_budget.stopped_at.load(Ordering::Relaxed) == 0 {
                    let line = lua.inspect_stack(0, |frame| frame.current_line()).flatten();
                    let line = line.and_then(|l| u32::try_from(l).ok()).unwrap_or(0);
                    interrupt_budget.stopped_at.store(line, Ordering::Relaxed);
                }
                Err(mlua::Error::runtime("time budget exceeded"))
            } else {
                Ok(VmState::Continue)
            }
        });

        budget.arm(limits.load_budget);
        let result = lua
            .load(source)
            .set_name(format!("@{}", path.display()))
            .eval::<Value>();
        let exceeded = budget.disarm();
        let value = match result {
            Ok(_) if exceeded => {
                return Err(budget_error(
                    path,
                    budget.stopped_line(),
                    limits.load_budget,
                ));
            }
            Ok(value) => value,
            Err(e) => {
                return Err(locate_budget(
                    classify(path, &e, exceeded, limits.load_budget),
                    &budget,
                ));
            }
        };
        let Value::Table(exports) = value else {
            return Err(ScriptError::new(
                path,
                ScriptErrorKind::Schema,
                format!(
                    "the script must return a table of settings and hooks, it returned a {}",
                    value.type_name()
                ),
            ));
        };
        if let Some(schema) = schema {
            schema
                .validate(&exports)
                .map_err(|message| ScriptError::new(path, ScriptErrorKind::Schema, message))?;
        }
        Ok(Self {
            path: path.to_path_buf(),
            source: Arc::from(source),
            lua,
            exports,
            budget,
            limits,
            printed,
        })
    }

    /// Checks the returned table against `schema`.
    pub fn validate(&self, schema: &ScriptSchema) -> Result<(), ScriptError> {
        schema
            .validate(&self.exports)
            .map_err(|message| ScriptError::new(&self.path, ScriptErrorKind::Schema, message))
    }

    /// The file this version was loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The source text of this version.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// A content hash of the source (`sha256:<hex>`), stable across
    /// machines and versions: replays record it to tell whether a script
    /// changed since.
    pub fn content_hash(&self) -> String {
        content_hash(&self.source)
    }

    /// The limits this version runs under.
    pub fn limits(&self) -> ScriptLimits {
        self.limits
    }

    /// Whether the returned table defines `name`.
    pub fn has(&self, name: &str) -> bool {
        self.exports
            .raw_get::<Value>(name)
            .is_ok_and(|v| !v.is_nil())
    }

    /// Reads a setting; `None` when the script leaves it out.
    pub fn value<T: FromLua>(&self, name: &str) -> Result<Option<T>, ScriptError> {
        let value: Value = self
            .exports
            .raw_get(name)
            .map_err(|e| self.error(&e, false))?;
        if value.is_nil() {
            return Ok(None);
        }
        T::from_lua(value, &self.lua).map(Some).map_err(|e| {
            ScriptError::new(
                &self.path,
                ScriptErrorKind::Schema,
                format!("`{name}` has the wrong type: {e}"),
            )
        })
    }

    /// Reads a setting, or `default` when the script leaves it out.
    pub fn value_or<T: FromLua>(&self, name: &str, default: T) -> Result<T, ScriptError> {
        Ok(self.value(name)?.unwrap_or(default))
    }

    /// Calls the hook `name` with `args` under the call budget.
    pub fn call<R: FromLuaMulti>(
        &self,
        name: &str,
        args: impl IntoLuaMulti,
    ) -> Result<R, ScriptError> {
        let function: Value = self
            .exports
            .raw_get(name)
            .map_err(|e| self.error(&e, false))?;
        let Value::Function(function) = function else {
            return Err(ScriptError::new(
                &self.path,
                ScriptErrorKind::Schema,
                format!(
                    "`{name}` is not a function (found a {})",
                    function.type_name()
                ),
            ));
        };
        self.call_function(&function, args)
    }

    /// Calls a Lua function that belongs to this script (for example one
    /// stored in a table the script returned) under the call budget.
    pub fn call_function<R: FromLuaMulti>(
        &self,
        function: &Function,
        args: impl IntoLuaMulti,
    ) -> Result<R, ScriptError> {
        self.budget.arm(self.limits.call_budget);
        let result = function.call::<R>(args);
        let exceeded = self.budget.disarm();
        match result {
            Ok(_) if exceeded => Err(budget_error(
                &self.path,
                self.budget.stopped_line(),
                self.limits.call_budget,
            )),
            Ok(value) => Ok(value),
            Err(e) => Err(locate_budget(self.error(&e, exceeded), &self.budget)),
        }
    }

    /// The returned table itself, for games that read nested settings.
    pub fn exports(&self) -> &Table {
        &self.exports
    }

    /// Takes the lines the script printed since the last call.
    pub fn take_printed(&self) -> Vec<String> {
        match self.printed.lock() {
            Ok(mut lines) => std::mem::take(&mut *lines),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        }
    }

    /// Memory the VM uses now, in bytes.
    pub fn used_memory(&self) -> usize {
        self.lua.used_memory()
    }

    fn error(&self, e: &mlua::Error, exceeded: bool) -> ScriptError {
        classify(&self.path, e, exceeded, self.limits.call_budget)
    }
}

/// The content hash [`Script::content_hash`] uses, for any text.
pub fn content_hash(text: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// Removes every global outside the allowed set and adds the engine API:
/// `print` goes to the host's console, `collectgarbage("count")` reports
/// memory (and nothing else of the collector is reachable).
fn install_engine_api(
    lua: &Lua,
    printed: &Arc<Mutex<Vec<String>>>,
    memory_cap: usize,
) -> mlua::Result<()> {
    let globals = lua.globals();
    for name in REMOVED_GLOBALS {
        globals.raw_set(*name, Value::Nil)?;
    }
    let sink = Arc::clone(printed);
    let print = lua.create_function(move |_, args: mlua::Variadic<Value>| {
        let line = args
            .iter()
            .map(|v| {
                v.to_string()
                    .unwrap_or_else(|_| format!("<{}>", v.type_name()))
            })
            .collect::<Vec<_>>()
            .join("\t");
        if let Ok(mut lines) = sink.lock() {
            // Bounded so a printing loop cannot grow the host's memory.
            if lines.len() < 1000 {
                lines.push(line);
            }
        }
        Ok(())
    })?;
    globals.raw_set("print", print)?;
    let collectgarbage =
        lua.create_function(|lua, option: Option<String>| match option.as_deref() {
            Some("count") => Ok(lua.used_memory() as f64 / 1024.0),
            other => Err(mlua::Error::runtime(format!(
                "collectgarbage({}) is not available in scripts; only \"count\" is",
                other.map(|o| format!("\"{o}\"")).unwrap_or_default()
            ))),
        })?;
    globals.raw_set("collectgarbage", collectgarbage)?;
    lua.load(GUARDED_STRING_REP)
        .set_name("=engine")
        .call::<()>(memory_cap as f64)?;
    Ok(())
}

/// Gives a budget error the line the interrupt saw, when Lua had none.
fn locate_budget(mut error: ScriptError, budget: &Budget) -> ScriptError {
    if error.kind == ScriptErrorKind::Budget && error.line.is_none() {
        error.line = budget.stopped_line();
    }
    error
}

fn budget_error(path: &Path, line: Option<u32>, budget: Duration) -> ScriptError {
    ScriptError {
        path: path.to_path_buf(),
        line,
        kind: ScriptErrorKind::Budget,
        message: format!(
            "stopped: ran past its time budget of {} ms (an endless loop?)",
            budget.as_millis()
        ),
    }
}

/// Turns an mlua error into a [`ScriptError`] of the right kind.
fn classify(path: &Path, error: &mlua::Error, exceeded: bool, budget: Duration) -> ScriptError {
    match error {
        mlua::Error::CallbackError { cause, traceback } => {
            let mut error = classify(path, cause, exceeded, budget);
            if error.line.is_none() {
                error.line = line_in_traceback(path, traceback);
            }
            error
        }
        mlua::Error::WithContext { cause, .. } => classify(path, cause, exceeded, budget),
        _ if exceeded => {
            let located =
                ScriptError::from_lua_message(path, ScriptErrorKind::Budget, &error.to_string());
            budget_error(path, located.line, budget)
        }
        mlua::Error::SyntaxError { message, .. } => {
            ScriptError::from_lua_message(path, ScriptErrorKind::Syntax, message)
        }
        mlua::Error::MemoryError(message) => memory_error(path, message),
        mlua::Error::RuntimeError(message) if is_memory_message(message) => {
            memory_error(path, message)
        }
        mlua::Error::RuntimeError(message) => {
            ScriptError::from_lua_message(path, ScriptErrorKind::Runtime, message)
        }
        mlua::Error::FromLuaConversionError { from, to, message } => ScriptError::new(
            path,
            ScriptErrorKind::Runtime,
            format!(
                "returned a {from} where a {to} was expected{}",
                message
                    .as_deref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default()
            ),
        ),
        other => ScriptError::from_lua_message(path, ScriptErrorKind::Runtime, &other.to_string()),
    }
}

/// The innermost line of `path` in a Lua traceback: where the script was
/// when a Rust callback (an engine function, the budget check) failed.
fn line_in_traceback(path: &Path, traceback: &str) -> Option<u32> {
    let chunk = format!("{}:", path.display());
    traceback.lines().find_map(|line| {
        let rest = &line[line.find(&chunk)? + chunk.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

/// Luau refuses oversized strings up front ("resulting string too large")
/// instead of trying the allocation; both are the memory cap at work.
fn is_memory_message(message: &str) -> bool {
    message.contains("not enough memory")
        || message.contains("too large")
        || message.contains("over the memory cap")
}

fn memory_error(path: &Path, raw: &str) -> ScriptError {
    let located = ScriptError::from_lua_message(path, ScriptErrorKind::Memory, raw);
    ScriptError {
        message: format!("out of memory: {}", located.message),
        ..located
    }
}
