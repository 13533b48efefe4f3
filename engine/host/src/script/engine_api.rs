//! The engine API every script VM starts with: the globals a sandboxed
//! script may not reach are removed, `print` goes to the host's console
//! (bounded), `collectgarbage` only reports memory, `string.rep` refuses
//! memory bombs, and every call runs inside one error handler that names
//! the script's line.

use std::path::Path;
use std::sync::{Arc, Mutex};

use mlua::{Function, Lua, Value};

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
  -- A numeric string ("4294967297") is a count too: Lua coerces it.
  local count = tonumber(n)
  if count ~= nil and count > 0 then
    local total = #tostring(s) * count + (sep ~= nil and #tostring(sep) * (count - 1) or 0)
    if total > cap then
      error(string.format("string.rep would build %.0f bytes, over the memory cap of %.0f", total, cap), 2)
    end
  end
  return rep(s, n, sep)
end
"#;

/// Longest line `print` keeps, in bytes; a longer one is cut with a note.
const MAX_PRINTED_LINE: usize = 1000;
/// Most lines kept between two [`super::Script::take_printed`] calls.
const MAX_PRINTED_LINES: usize = 1000;
/// Longest error message kept, in bytes (a script can raise a 60 MiB one).
const MAX_MESSAGE: usize = 2000;

/// The message handler every call into the script runs under. It turns any
/// error value into a readable message with the script line it was raised
/// on: a table is rendered (`{code = 42}`), `nil` says so, a `__tostring`
/// that fails is not called again, and an error raised inside a library
/// function (`rawset` on a read-only table) gets the line of the script's
/// own frame. Errors the host raised (the budget) pass through untouched.
const PROTECTED_CALL: &str = r#"
local source_name, chunk = ...
local info = debug.info
local type, tostring, pairs, pcall, select, unpack = type, tostring, pairs, pcall, select, unpack
local xpcall, error, concat, sort = xpcall, error, table.concat, table.sort
local getmetatable, rawget, pack = getmetatable, rawget, table.pack

local function render(value, depth)
  local kind = type(value)
  if kind == "string" then
    return string.format("%q", value)
  elseif kind ~= "table" then
    return tostring(value)
  end
  if depth > 2 then
    return "{...}"
  end
  local keys = {}
  for key in pairs(value) do
    keys[#keys + 1] = key
    if #keys > 8 then break end
  end
  sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for i, key in keys do
    if i > 8 then
      parts[#parts + 1] = "..."
      break
    end
    local name = type(key) == "string" and key or "[" .. render(key, depth + 1) .. "]"
    parts[#parts + 1] = name .. " = " .. render(value[key], depth + 1)
  end
  return "{" .. concat(parts, ", ") .. "}"
end

local function script_line()
  for level = 3, 40 do
    local source, line = info(level, "sl")
    if source == nil then break end
    if (source == chunk or source == source_name) and line ~= nil and line > 0 then
      return line
    end
  end
  return nil
end

local function handler(value)
  local kind = type(value)
  if kind == "userdata" then
    return value -- raised by the host (budget, a callback): keep it
  end
  local message
  if kind == "string" then
    if value:find("^" .. chunk:gsub("%p", "%%%0") .. ":%d+:") then
      return value
    end
    message = value
  elseif kind == "nil" then
    message = "error(nil) raised, with no message"
  elseif kind == "table" then
    local ok, text = pcall(function()
      local meta = getmetatable(value)
      if type(meta) == "table" and rawget(meta, "__tostring") ~= nil then
        return tostring(value)
      end
      return nil
    end)
    if ok and type(text) == "string" then
      message = "error value " .. text
    else
      local rendered, shown = pcall(render, value, 0)
      message = "error value " .. (rendered and shown or "a table")
      if not ok then
        message = message .. " (its __tostring failed too)"
      end
    end
  else
    message = "error value " .. tostring(value)
  end
  local line = script_line()
  if line then
    return chunk .. ":" .. line .. ": " .. message
  end
  return message
end

return function(f, ...)
  local result = pack(xpcall(f, handler, ...))
  if result[1] then
    return unpack(result, 2, result.n)
  end
  error(result[2], 0)
end
"#;

/// What the script printed since the host last looked, bounded so a
/// printing loop cannot grow the host's memory.
#[derive(Debug, Default)]
pub(super) struct Printed {
    lines: Vec<String>,
    /// Lines dropped since the last take, reported once.
    dropped: usize,
}

impl Printed {
    /// The lines printed since the last take, with a note of how many
    /// were dropped.
    pub(super) fn take(&mut self) -> Vec<String> {
        let mut lines = std::mem::take(&mut self.lines);
        let dropped = std::mem::take(&mut self.dropped);
        if dropped > 0 {
            lines.push(format!(
                "({dropped} more printed lines dropped: at most {MAX_PRINTED_LINES} are kept)"
            ));
        }
        lines
    }
}

/// Removes every global outside the allowed set and adds the engine API:
/// `print` goes to the host's console, `collectgarbage("count")` reports
/// memory (and nothing else of the collector is reachable).
///
/// Returns the protected-call wrapper (see `PROTECTED_CALL`), built while
/// `debug.info` is still reachable; scripts never see `debug`.
pub(super) fn install_engine_api(
    lua: &Lua,
    printed: &Arc<Mutex<Printed>>,
    memory_cap: usize,
    path: &Path,
) -> mlua::Result<Function> {
    let globals = lua.globals();
    let protected: Function = lua
        .load(PROTECTED_CALL)
        .set_name("=engine")
        .call((format!("@{}", path.display()), path.display().to_string()))?;
    for name in REMOVED_GLOBALS {
        globals.raw_set(*name, Value::Nil)?;
    }
    let sink = Arc::clone(printed);
    let print = lua.create_function(move |_, args: mlua::Variadic<Value>| {
        let Ok(mut printed) = sink.lock() else {
            return Ok(());
        };
        // Bounded so a printing loop cannot grow the host's memory: whole
        // lines past the count are dropped (and counted), long lines cut
        // without copying the rest of a huge string.
        if printed.lines.len() >= MAX_PRINTED_LINES {
            printed.dropped += 1;
            return Ok(());
        }
        let mut line = String::new();
        let mut cut = 0usize;
        for (i, value) in args.iter().enumerate() {
            if i > 0 {
                line.push('\t');
            }
            let room = MAX_PRINTED_LINE.saturating_sub(line.len());
            match value {
                Value::String(s) => {
                    let bytes = s.as_bytes();
                    let shown = &bytes[..bytes.len().min(room)];
                    line.push_str(&String::from_utf8_lossy(shown));
                    cut += bytes.len() - shown.len();
                }
                other => {
                    let text = other
                        .to_string()
                        .unwrap_or_else(|_| format!("<{}>", other.type_name()));
                    let shown = floor_char_boundary(&text, room);
                    line.push_str(&text[..shown]);
                    cut += text.len() - shown;
                }
            }
        }
        if cut > 0 {
            line.push_str(&format!(" ... ({cut} more bytes not shown)"));
        }
        printed.lines.push(line);
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
    Ok(protected)
}

/// The largest char boundary at or below `at`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Cuts a message to [`MAX_MESSAGE`] bytes, saying how much was left out.
pub(crate) fn bounded_message(message: &str) -> String {
    if message.len() <= MAX_MESSAGE {
        return message.to_string();
    }
    let shown = floor_char_boundary(message, MAX_MESSAGE);
    format!(
        "{} ... ({} more bytes not shown)",
        &message[..shown],
        message.len() - shown
    )
}
