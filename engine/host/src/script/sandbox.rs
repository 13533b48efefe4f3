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

use super::engine_api::{Printed, install_engine_api};
use super::error::{ScriptError, ScriptErrorKind};
use super::schema::ScriptSchema;

/// Resource limits for one script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptLimits {
    /// Memory cap for the whole VM, in bytes.
    pub memory_bytes: usize,
    /// CPU-time budget of one call into the script (a hook or formula):
    /// the time the script's thread runs, so a machine's load does not
    /// change which scripts pass.
    pub call_budget: Duration,
    /// CPU-time budget for running the file's top level when it is loaded.
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

/// Largest script source the host compiles. Luau's compiler allocates
/// outside the VM's memory cap, roughly 40 bytes per source byte for a big
/// table literal, so a larger file is refused before compiling; 2 MiB is
/// some 50,000 lines, far beyond any hand-written script.
pub const MAX_SOURCE_BYTES: u64 = 2 * 1024 * 1024;

/// The budget shared between the caller and the VM's interrupt callback.
///
/// The budget is CPU time of the thread running the script (Linux; the
/// wall clock elsewhere): under load a thread waits for a core, and a
/// wall-clock budget then stopped a script that fits on an idle machine.
/// The wall clock stays the cheap trigger: a thread cannot use more CPU
/// time than wall time passes, so the CPU clock (a system call) is read
/// only once the wall-clock deadline has passed, and the deadline moves
/// on by what is left of the budget. A backstop in wall time,
/// [`WALL_BACKSTOP`] times the budget, still ends a script on a machine so
/// loaded that its thread hardly runs (a hook never holds a game longer).
#[derive(Debug)]
struct Budget {
    origin: Instant,
    /// Nanoseconds since `origin`; `u64::MAX` when no call is running.
    deadline: AtomicU64,
    /// The thread's CPU time when the budget was armed, in nanoseconds
    /// (`u64::MAX`: no CPU clock, the wall clock decides).
    cpu_start: AtomicU64,
    /// The budget armed, in nanoseconds.
    allowed: AtomicU64,
    /// Nanoseconds since `origin` past which the script stops whatever
    /// CPU time it used (the backstop).
    wall_limit: AtomicU64,
    exceeded: AtomicBool,
    /// How many guarded sections are open: only the outermost arms and
    /// disarms, so a settings read inside a guarded section shares its
    /// budget instead of restarting it.
    depth: AtomicU32,
    /// The script line running when the budget ran out (0: unknown).
    stopped_at: AtomicU32,
}

impl Budget {
    fn new() -> Self {
        Self {
            origin: Instant::now(),
            deadline: AtomicU64::new(u64::MAX),
            cpu_start: AtomicU64::new(u64::MAX),
            allowed: AtomicU64::new(0),
            wall_limit: AtomicU64::new(u64::MAX),
            exceeded: AtomicBool::new(false),
            depth: AtomicU32::new(0),
            stopped_at: AtomicU32::new(0),
        }
    }

    /// Opens a guarded section: arms the budget unless one is open already.
    fn enter(&self, budget: Duration) {
        if self.depth.fetch_add(1, Ordering::Relaxed) == 0 {
            self.arm(budget);
        }
    }

    /// Closes a guarded section; true when the budget ran out (the
    /// outermost section also disarms).
    fn leave(&self) -> bool {
        if self.depth.fetch_sub(1, Ordering::Relaxed) == 1 {
            self.disarm()
        } else {
            self.exceeded.load(Ordering::Relaxed)
        }
    }

    /// Arms `budget` of CPU time on the calling thread (the thread that
    /// runs the script).
    fn arm(&self, budget: Duration) {
        let allowed = budget.as_nanos().min(u128::from(u64::MAX - 1)) as u64;
        let cpu_start = super::cpu_clock::thread_cpu_nanos().unwrap_or(u64::MAX);
        self.exceeded.store(false, Ordering::Relaxed);
        self.stopped_at.store(0, Ordering::Relaxed);
        self.allowed.store(allowed, Ordering::Relaxed);
        self.cpu_start.store(cpu_start, Ordering::Relaxed);
        let now = self.wall_now();
        self.wall_limit.store(
            now.saturating_add(allowed.saturating_mul(WALL_BACKSTOP)),
            Ordering::Relaxed,
        );
        self.deadline
            .store(now.saturating_add(allowed), Ordering::Relaxed);
    }

    /// Nanoseconds since `origin`, below the `u64::MAX` that means idle.
    fn wall_now(&self) -> u64 {
        self.origin
            .elapsed()
            .as_nanos()
            .min(u128::from(u64::MAX - 1)) as u64
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
    /// call ends, so every later interrupt raises again. The wall clock is
    /// read on every interrupt (about 25 ns): reading it only every Nth
    /// time let a loop of a few slow iterations (each building a huge
    /// string) run seconds past its budget.
    fn expired(&self) -> bool {
        if self.exceeded.load(Ordering::Relaxed) {
            return true;
        }
        let now = self.wall_now();
        if now < self.deadline.load(Ordering::Relaxed) {
            return false;
        }
        let allowed = self.allowed.load(Ordering::Relaxed);
        let cpu_start = self.cpu_start.load(Ordering::Relaxed);
        let used = match super::cpu_clock::thread_cpu_nanos() {
            Some(cpu_now) if cpu_start != u64::MAX => cpu_now.saturating_sub(cpu_start),
            _ => allowed,
        };
        let wall_limit = self.wall_limit.load(Ordering::Relaxed);
        if used >= allowed || now >= wall_limit {
            self.exceeded.store(true, Ordering::Relaxed);
            return true;
        }
        // The thread waited for a core: the rest of its CPU time is still
        // its own, at the earliest that much wall time from now.
        self.deadline.store(
            now.saturating_add(allowed - used).min(wall_limit),
            Ordering::Relaxed,
        );
        false
    }
}

/// How many times its CPU budget a script may take in wall time before
/// it is stopped anyway: on a machine loaded past this (a thread getting
/// under a quarter of a core) the wall clock decides, so a hook that
/// never returns holds a game at most a second (250 ms x 4).
const WALL_BACKSTOP: u64 = 4;

/// One loaded and validated version of a script file.
pub struct Script {
    path: PathBuf,
    /// The text this version was compiled from (replays record it).
    source: Arc<str>,
    lua: Lua,
    exports: Table,
    budget: Arc<Budget>,
    limits: ScriptLimits,
    printed: Arc<Mutex<Printed>>,
    /// `PROTECTED_CALL` bound to this script's name: every call runs in it.
    protected: Function,
    /// Set by the first call (or settings read) that ran past its budget:
    /// this version is stopped, every later call fails at once with the
    /// same error instead of costing another budget, and a session stops
    /// its game (see [`Script::stopped`]). A reload brings a fresh version.
    stopped: Mutex<Option<ScriptError>>,
    /// Settings read once per version (see [`Script::settings`]).
    pub(super) cache: super::cache::Cache,
}

impl Script {
    /// Reads and loads a script file; see [`Script::load`].
    pub fn load_file(
        path: &Path,
        schema: Option<&ScriptSchema>,
        limits: ScriptLimits,
    ) -> Result<Self, ScriptError> {
        let source =
            crate::level::read_text_capped(path, MAX_SOURCE_BYTES).map_err(|e| ScriptError {
                line: e.line,
                ..ScriptError::new(path, ScriptErrorKind::Io, e.message)
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
        if source.len() as u64 > MAX_SOURCE_BYTES {
            return Err(ScriptError::new(
                path,
                ScriptErrorKind::Memory,
                format!(
                    "the script is {} bytes, over the {} MiB limit for a script; refused before compiling",
                    source.len(),
                    MAX_SOURCE_BYTES / (1024 * 1024)
                ),
            ));
        }
        let lua = Lua::new_with(
            // `debug` only so the engine's error handler can read lines;
            // it is removed from the globals before any script code runs.
            StdLib::MATH | StdLib::STRING | StdLib::TABLE | StdLib::DEBUG,
            LuaOptions::new(),
        )
        .map_err(lua_error)?;
        let printed = Arc::new(Mutex::new(Printed::default()));
        let protected =
            install_engine_api(&lua, &printed, limits.memory_bytes, path).map_err(lua_error)?;
        lua.sandbox(true).map_err(lua_error)?;
        lua.set_memory_limit(limits.memory_bytes)
            .map_err(lua_error)?;

        let budget = Arc::new(Budget::new());
        let interrupt_budget = Arc::clone(&budget);
        let chunk = format!("@{}", path.display());
        lua.set_interrupt(move |lua| {
            if interrupt_budget.expired() {
                if interrupt_budget.stopped_at.load(Ordering::Relaxed) == 0 {
                    // The innermost frame of the script itself: the budget
                    // may run out in the engine's own wrapper code.
                    let line = (0..64)
                        .map_while(|level| {
                            lua.inspect_stack(level, |frame| {
                                let own = frame.source().source.as_deref() == Some(chunk.as_str());
                                own.then(|| frame.current_line()).flatten()
                            })
                        })
                        .flatten()
                        .next();
                    let line = line.and_then(|l| u32::try_from(l).ok()).unwrap_or(0);
                    interrupt_budget.stopped_at.store(line, Ordering::Relaxed);
                }
                Err(mlua::Error::runtime("time budget exceeded"))
            } else {
                Ok(VmState::Continue)
            }
        });

        let chunk = lua
            .load(source)
            .set_name(format!("@{}", path.display()))
            .into_function()
            .map_err(|e| classify(path, &e, false, limits.load_budget))?;
        budget.arm(limits.load_budget);
        let result = protected.call::<Value>(chunk);
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
            // The end of the file is where the `return` was expected.
            let last_line = source
                .lines()
                .enumerate()
                .filter(|(_, line)| !line.trim().is_empty())
                .last()
                .map_or(1, |(i, _)| i + 1);
            return Err(ScriptError {
                line: u32::try_from(last_line).ok(),
                ..ScriptError::new(
                    path,
                    ScriptErrorKind::Schema,
                    format!(
                        "the script must end by returning a table of settings and hooks, it returned a {}",
                        value.type_name()
                    ),
                )
            });
        };
        let script = Self {
            path: path.to_path_buf(),
            source: Arc::from(source),
            lua,
            exports,
            budget,
            limits,
            printed,
            protected,
            stopped: Mutex::new(None),
            cache: super::cache::Cache::default(),
        };
        if let Some(schema) = schema {
            script.validate(schema)?;
        }
        Ok(script)
    }

    /// Checks the returned table against `schema`: first that every key is
    /// one the schema (or the host) knows, so a typo is refused at its line
    /// with the nearest known key rather than ignored for a default; then
    /// types, then ranges. The error names the line of the offending field
    /// where the source shows it.
    pub fn validate(&self, schema: &ScriptSchema) -> Result<(), ScriptError> {
        self.guarded(|| {
            let strays = schema
                .stray_keys(&self.exports)
                .map_err(|e| self.field_error(&[], e.to_string()))?;
            // Of several typos, the one written first: the order Lua's
            // `pairs` yields them in says nothing to the designer.
            let first = strays
                .into_iter()
                .map(|stray| {
                    let at: Vec<&str> = stray.at.iter().map(String::as_str).collect();
                    self.field_error(&at, stray.message)
                })
                .min_by_key(|error| error.line.unwrap_or(u32::MAX));
            if let Some(error) = first {
                return Err(error);
            }
            schema
                .validate(&self.exports)
                .map_err(|(field, message)| self.field_error(&[field], message))
        })
    }

    /// A schema error about the value at `field` (a path into the returned
    /// table: `["palette", "2", "rgb"]`), located at the line where the
    /// source writes it (or the closest enclosing field it can find).
    pub fn field_error(&self, field: &[&str], message: impl Into<String>) -> ScriptError {
        ScriptError {
            line: super::locate::field_line(&self.source, field),
            ..ScriptError::new(&self.path, ScriptErrorKind::Schema, message)
        }
    }

    /// Runs `read` (which reads values from the script's tables: metatables
    /// may run code on a plain index) under the call budget. Nested guarded
    /// sections and calls share the outermost budget. When the budget runs
    /// out, the result is the budget error, whatever `read` returned.
    pub fn guarded<R>(
        &self,
        read: impl FnOnce() -> Result<R, ScriptError>,
    ) -> Result<R, ScriptError> {
        if let Some(error) = self.stopped() {
            return Err(error);
        }
        self.budget.enter(self.limits.call_budget);
        let result = read();
        if self.budget.leave() {
            return Err(self.stop(budget_error(
                &self.path,
                self.budget.stopped_line(),
                self.limits.call_budget,
            )));
        }
        result
    }

    /// The budget error that stopped this version, when a call or a
    /// settings read ran past its time budget: a hook that never returns
    /// would cost the budget at every call (250 ms per lock, a default game
    /// running for tens of minutes), so the version stops at the first
    /// overrun and a session refuses further steps until a reload.
    pub fn stopped(&self) -> Option<ScriptError> {
        match self.stopped.lock() {
            Ok(stopped) => stopped.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Marks this version stopped by `error` (the first overrun is kept)
    /// and returns the error.
    fn stop(&self, error: ScriptError) -> ScriptError {
        let mut stopped = match self.stopped.lock() {
            Ok(stopped) => stopped,
            Err(poisoned) => poisoned.into_inner(),
        };
        stopped.get_or_insert_with(|| error.clone());
        error
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
        self.guarded(|| {
            let value: Value = self
                .exports
                .raw_get(name)
                .map_err(|e| self.error(&e, false))?;
            if value.is_nil() {
                return Ok(None);
            }
            let found = value.type_name();
            T::from_lua(value, &self.lua).map(Some).map_err(|e| {
                let wanted = match &e {
                    mlua::Error::FromLuaConversionError { to, .. } => to.to_string(),
                    _ => e.to_string(),
                };
                self.field_error(
                    &[name],
                    format!("`{name}` must be a {wanted}, found a {found}"),
                )
            })
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
        // A result of the wrong type (a table for a number, `inf` for an
        // integer) has no line of its own: name the hook and its line.
        self.invoke(&function, args).map_err(|error| {
            if error.kind == ScriptErrorKind::Budget && self.stopped().is_none() {
                let error = ScriptError {
                    line: error
                        .line
                        .or_else(|| super::locate::field_line(&self.source, &[name])),
                    message: format!("`{name}` {}", error.message),
                    ..error
                };
                return self.stop(error);
            }
            if error.kind == ScriptErrorKind::Budget {
                return error;
            }
            if error.line.is_some() || !error.message.starts_with("returned a ") {
                return error;
            }
            ScriptError {
                line: super::locate::field_line(&self.source, &[name]),
                message: format!("`{name}` {}", error.message),
                ..error
            }
        })
    }

    /// Calls a Lua function that belongs to this script (for example one
    /// stored in a table the script returned) under the call budget.
    pub fn call_function<R: FromLuaMulti>(
        &self,
        function: &Function,
        args: impl IntoLuaMulti,
    ) -> Result<R, ScriptError> {
        self.invoke(function, args).map_err(|error| {
            if error.kind == ScriptErrorKind::Budget {
                return self.stop(error);
            }
            error
        })
    }

    /// One call under the budget (the caller decides whether an overrun
    /// stops this version, see [`Script::stopped`]).
    fn invoke<R: FromLuaMulti>(
        &self,
        function: &Function,
        args: impl IntoLuaMulti,
    ) -> Result<R, ScriptError> {
        if let Some(error) = self.stopped() {
            return Err(error);
        }
        let mut args = args
            .into_lua_multi(&self.lua)
            .map_err(|e| self.error(&e, false))?;
        args.push_front(Value::Function(function.clone()));
        self.budget.enter(self.limits.call_budget);
        let result = self.protected.call::<R>(args);
        let exceeded = self.budget.leave();
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
    /// At most 1000 lines of at most 1000 bytes each are kept between two
    /// takes; the rest is dropped, with a note saying how much.
    pub fn take_printed(&self) -> Vec<String> {
        match self.printed.lock() {
            Ok(mut printed) => printed.take(),
            Err(poisoned) => poisoned.into_inner().take(),
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

#[cfg(test)]
mod budget_tests {
    use std::time::{Duration, Instant};

    use super::Budget;

    /// A thread that waits for a core (here: sleeps) spends none of its
    /// budget; a thread that runs spends it. The wall-clock budget this
    /// replaced expired during the wait, so a script passed or failed by
    /// the machine's load.
    #[test]
    fn the_budget_counts_the_scripts_cpu_time_not_the_wait_for_a_core() {
        let budget = Budget::new();
        budget.arm(Duration::from_millis(100));
        std::thread::sleep(Duration::from_millis(200));
        assert!(!budget.expired(), "200 ms asleep spent a 100 ms CPU budget");
        let start = Instant::now();
        while !budget.expired() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "a busy thread never spent its 100 ms"
            );
            std::hint::black_box(start.elapsed());
        }
        assert!(budget.disarm(), "the budget ran out and says so");
    }

    /// A thread that hardly runs is stopped anyway once the wall clock
    /// passes four times its budget.
    #[test]
    fn a_starved_script_stops_at_the_wall_clock_backstop() {
        let budget = Budget::new();
        budget.arm(Duration::from_millis(20));
        std::thread::sleep(Duration::from_millis(100));
        assert!(budget.expired(), "past 4 x 20 ms of wall time");
    }
}
