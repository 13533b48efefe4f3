//! Script errors that always name the file and, where Lua knows it, the line.

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a script failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptErrorKind {
    /// The file could not be read.
    Io,
    /// The source does not compile.
    Syntax,
    /// The code raised an error while running.
    Runtime,
    /// The code ran past its time budget (an endless loop, say).
    Budget,
    /// The code asked for more memory than the cap allows.
    Memory,
    /// The returned table lacks a hook or holds a value of the wrong type.
    Schema,
}

/// A script failure, displayed as `path:line: message` (or `path: message`
/// when no line is known).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// The script file.
    pub path: PathBuf,
    /// 1-based line, when the failure has one.
    pub line: Option<u32>,
    /// What kind of failure it is.
    pub kind: ScriptErrorKind,
    /// The cause, without the `path:line:` prefix.
    pub message: String,
}

impl ScriptError {
    /// An error with no line.
    pub fn new(path: &Path, kind: ScriptErrorKind, message: impl Into<String>) -> Self {
        Self {
            path: path.to_path_buf(),
            line: None,
            kind,
            message: message.into(),
        }
    }

    /// Builds an error from Lua's message, lifting the `chunk:line:` prefix
    /// Luau puts in front of it into `line`.
    pub(crate) fn from_lua_message(path: &Path, kind: ScriptErrorKind, raw: &str) -> Self {
        let (line, message) = split_location(path, raw);
        Self {
            path: path.to_path_buf(),
            line,
            kind,
            message,
        }
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.path.display(), line, self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for ScriptError {}

/// Finds the first `<chunk>:<line>:` in a Lua message and returns the line
/// and the text after it. Lua prefixes errors with the chunk name, which is
/// the script's path. A multi-line message is kept whole (a traceback after
/// it is dropped), and a huge one is cut to a readable length.
fn split_location(path: &Path, raw: &str) -> (Option<u32>, String) {
    let raw = raw
        .find("\nstack traceback:")
        .map_or(raw, |at| &raw[..at])
        .trim();
    let (first_line, more) = match raw.split_once('\n') {
        Some((first, more)) => (first.trim(), Some(more)),
        None => (raw, None),
    };
    let whole = |message: &str| {
        let message = match more {
            Some(more) => format!("{message}\n{more}"),
            None => message.to_string(),
        };
        super::engine_api::bounded_message(&message)
    };
    let chunk = path.display().to_string();
    let candidates = [chunk.as_str(), "[string \"", ""];
    for prefix in candidates {
        let Some(start) = first_line.find(prefix) else {
            continue;
        };
        let rest = &first_line[start + prefix.len()..];
        // For the bare-name and `[string "..."]` forms, skip to the ':'.
        let rest = match rest.find(':') {
            Some(colon) if prefix.is_empty() || prefix.starts_with('[') => &rest[colon..],
            _ => rest,
        };
        let Some(after_colon) = rest.strip_prefix(':') else {
            continue;
        };
        let digits: String = after_colon
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if digits.is_empty() {
            continue;
        }
        let Some(message) = after_colon[digits.len()..].strip_prefix(':') else {
            continue;
        };
        if let Ok(line) = digits.parse() {
            return (Some(line), whole(message.trim()));
        }
    }
    (None, whole(first_line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifts_line_from_chunk_prefix() {
        let p = Path::new("scripts/sand.lua");
        let e = ScriptError::from_lua_message(
            p,
            ScriptErrorKind::Runtime,
            "scripts/sand.lua:7: attempt to call a nil value\nstack traceback: ...",
        );
        assert_eq!(e.line, Some(7));
        assert_eq!(e.message, "attempt to call a nil value");
        assert_eq!(
            e.to_string(),
            "scripts/sand.lua:7: attempt to call a nil value"
        );
    }

    #[test]
    fn keeps_every_line_of_a_message() {
        let p = Path::new("a.lua");
        let e = ScriptError::from_lua_message(
            p,
            ScriptErrorKind::Runtime,
            "a.lua:3: line one\nline two\nline three\nstack traceback:\n  [C]: in ?",
        );
        assert_eq!(e.line, Some(3));
        assert_eq!(e.message, "line one\nline two\nline three");
    }

    #[test]
    fn message_without_location_keeps_text() {
        let p = Path::new("a.lua");
        let e = ScriptError::from_lua_message(p, ScriptErrorKind::Memory, "not enough memory");
        assert_eq!(e.line, None);
        assert_eq!(e.to_string(), "a.lua: not enough memory");
    }
}
