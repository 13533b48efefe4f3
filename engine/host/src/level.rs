//! RON level files: versioned, strict (`deny_unknown_fields`), with errors
//! that name the file, line, column and field.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// A game's level type. Every level file carries a `version` so the format
/// can evolve; loading refuses versions the engine does not know.
pub trait LevelFile: Serialize + DeserializeOwned + Default + Clone + Send + 'static {
    /// The version this build reads and writes.
    const VERSION: u32;

    /// The version stored in the file.
    fn version(&self) -> u32;

    /// Checks beyond the syntax: impossible sizes, broken pieces. Returns
    /// every finding; errors stop the level from loading, warnings do not.
    fn diagnose(&self) -> Vec<Diagnostic> {
        Vec::new()
    }
}

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The file loads, but a designer should look (e.g. "cannot be filled").
    Warning,
    /// The file cannot be used.
    Error,
}

/// A finding about a file, displayed as `path:line:col: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file.
    pub path: PathBuf,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// 1-based column, when known.
    pub col: Option<u32>,
    /// Error or warning.
    pub severity: Severity,
    /// The cause, naming the field where there is one.
    pub message: String,
}

impl Diagnostic {
    /// An error with no position.
    pub fn error(path: &Path, message: impl Into<String>) -> Self {
        Self {
            path: path.to_path_buf(),
            line: None,
            col: None,
            severity: Severity::Error,
            message: message.into(),
        }
    }

    /// A warning with no position.
    pub fn warning(path: &Path, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::error(path, message)
        }
    }

    /// Whether this finding stops the file from being used.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.col {
                write!(f, ":{col}")?;
            }
        }
        if self.severity == Severity::Warning {
            write!(f, ": warning")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// Parses a level from RON text; `path` names the file in errors.
pub fn parse_level<L: LevelFile>(text: &str, path: &Path) -> Result<L, Diagnostic> {
    let level: L = parse_ron(text, path)?;
    if level.version() != L::VERSION {
        return Err(Diagnostic {
            line: find_field_line(text, "version"),
            col: None,
            ..Diagnostic::error(
                path,
                format!(
                    "field `version`: this engine reads version {}, the file says {}",
                    L::VERSION,
                    level.version()
                ),
            )
        });
    }
    Ok(level)
}

/// Reads and parses a level file.
pub fn load_level<L: LevelFile>(path: &Path) -> Result<L, Diagnostic> {
    let text = read_text(path)?;
    parse_level(&text, path)
}

/// Reads a text file, as a [`Diagnostic`] on failure.
pub fn read_text(path: &Path) -> Result<String, Diagnostic> {
    std::fs::read_to_string(path).map_err(|e| Diagnostic::error(path, format!("cannot read: {e}")))
}

/// Parses any RON value, with the error located at line and column.
pub fn parse_ron<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, Diagnostic> {
    ron::Options::default()
        .from_str(text)
        .map_err(|e| Diagnostic {
            path: path.to_path_buf(),
            line: u32::try_from(e.span.start.line).ok(),
            col: u32::try_from(e.span.start.col).ok(),
            severity: Severity::Error,
            message: e.code.to_string(),
        })
}

/// Serialises a level as pretty RON, the form the editor saves.
pub fn to_ron_string<T: Serialize>(value: &T) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(4)
        .struct_names(false)
        .separate_tuple_members(false)
        .compact_arrays(true);
    ron::ser::to_string_pretty(value, config).map(|mut s| {
        s.push('\n');
        s
    })
}

/// Writes `contents` to `path` atomically: a temporary file in the same
/// folder, flushed, then renamed over the target. A crash leaves either the
/// old file or the new one, never half of each.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temp = folder.join(format!(".{name}.tessera-tmp"));
    {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(contents)?;
        file.sync_all()?;
    }
    std::fs::rename(&temp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}

/// Gives a finding from [`LevelFile::diagnose`] its line: a message that
/// starts with ``field `NAME` `` points at the line of `NAME:` in `text`
/// (diagnosis sees the parsed level only, not the text).
pub fn locate(diagnostic: Diagnostic, text: &str) -> Diagnostic {
    if diagnostic.line.is_some() {
        return diagnostic;
    }
    let field = diagnostic
        .message
        .strip_prefix("field `")
        .or_else(|| diagnostic.message.strip_prefix("fields `"))
        .and_then(|rest| rest.split('`').next());
    let line = field.and_then(|name| find_field_line(text, name));
    Diagnostic { line, ..diagnostic }
}

/// Line (1-based) of the first `field:` in RON text, for errors about a
/// value that parsed but is not acceptable.
pub fn find_field_line(text: &str, field: &str) -> Option<u32> {
    text.lines().enumerate().find_map(|(i, line)| {
        let trimmed = line.trim_start();
        let rest = trimmed.strip_prefix(field)?;
        rest.trim_start().starts_with(':').then(|| (i + 1) as u32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Demo {
        version: u32,
        #[serde(default)]
        size: u32,
    }

    impl LevelFile for Demo {
        const VERSION: u32 = 1;
        fn version(&self) -> u32 {
            self.version
        }
    }

    #[test]
    fn unknown_field_is_named_with_position() {
        let text = "(\n  version: 1,\n  sise: 3,\n)";
        let err = parse_level::<Demo>(text, Path::new("levels/demo/a.ron")).unwrap_err();
        assert_eq!(err.line, Some(3));
        assert_eq!(err.col, Some(3));
        assert!(err.message.contains("sise"), "{err}");
        assert!(
            err.to_string().starts_with("levels/demo/a.ron:3:3: "),
            "{err}"
        );
    }

    #[test]
    fn wrong_version_points_at_the_field() {
        let text = "(\n  version: 7,\n)";
        let err = parse_level::<Demo>(text, Path::new("x.ron")).unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.message.contains("version 1"), "{err}");
    }

    #[test]
    fn atomic_write_replaces_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ron");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }
}
