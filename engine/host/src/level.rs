//! RON level files: versioned, strict (`deny_unknown_fields`), with errors
//! that name the file, line, column and field.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

pub use crate::ron_locate::FieldKey;

/// A game's level type. Every level file carries a `version` so the format
/// can evolve; loading refuses versions the engine does not know.
pub trait LevelFile: Serialize + DeserializeOwned + Default + Clone + Send + 'static {
    /// The version this build reads and writes.
    const VERSION: u32;

    /// The field that holds the level's human name (`name`, or `title`
    /// in the games that call it so; `None` when the level has none): a
    /// new level from the editor is named after its file there, the one
    /// path for every game.
    const NAME_FIELD: Option<&'static str> = None;

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
    /// The value the finding is about (`pieces[2].cells`), when it is
    /// about one; [`Diagnostic::locate`] turns it into a line.
    pub field: Vec<FieldKey>,
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
            field: Vec::new(),
        }
    }

    /// The same finding, about field `name` of the value it was about.
    pub fn at(mut self, name: &str) -> Self {
        self.field.push(FieldKey::Name(name.to_string()));
        self
    }

    /// The same finding, about entry `index` (0-based) of the list it was
    /// about.
    pub fn at_index(mut self, index: usize) -> Self {
        self.field.push(FieldKey::Index(index));
        self
    }

    /// Fills in the line and column of the value the finding is about,
    /// found in the file's text, when the finding has none yet.
    pub fn locate(mut self, text: &str) -> Self {
        if self.line.is_some() {
            return self;
        }
        if !self.field.is_empty()
            && let Some((line, col)) = crate::ron_locate::value_position(text, &self.field)
        {
            self.line = Some(line);
            self.col = Some(col);
            return self;
        }
        // Findings that only name their field in words (``field `NAME`: ...``)
        // point at the line of `NAME:`.
        let field = self
            .message
            .strip_prefix("field `")
            .or_else(|| self.message.strip_prefix("fields `"))
            .and_then(|rest| rest.split('`').next());
        self.line = field.and_then(|name| find_field_line(text, name));
        self
    }

    /// The same finding about another file (diagnoses are made without one).
    pub fn in_file(mut self, path: &Path) -> Self {
        self.path = path.to_path_buf();
        self
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
        // A message may quote the value it refuses (a 1 MB tray string):
        // the quote is cut to an excerpt here, where every finding is shown.
        write!(f, ": {}", crate::text::cap_quoted(&self.message))
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

/// Parses a level and diagnoses it: every finding, located in `text` and
/// naming `path`; `Err` holds the first error (a parse error, or the first
/// error of the diagnosis).
pub fn parse_diagnosed<L: LevelFile>(
    text: &str,
    path: &Path,
) -> Result<(L, Vec<Diagnostic>), Diagnostic> {
    diagnosed(parse_level(text, path)?, text, path)
}

/// Diagnoses a level parsed from `text`: every finding located in `text`
/// and naming `path`; `Err` holds the first error.
pub fn diagnosed<L: LevelFile>(
    level: L,
    text: &str,
    path: &Path,
) -> Result<(L, Vec<Diagnostic>), Diagnostic> {
    let findings: Vec<Diagnostic> = level
        .diagnose()
        .into_iter()
        .map(|d| d.in_file(path).locate(text))
        .collect();
    match findings.iter().find(|d| d.is_error()) {
        Some(error) => Err(error.clone()),
        None => Ok((level, findings)),
    }
}

/// Reads and parses a level file.
pub fn load_level<L: LevelFile>(path: &Path) -> Result<L, Diagnostic> {
    let text = read_text(path)?;
    parse_level(&text, path)
}

/// Largest level (or other text input) the host reads: no hand-made or
/// generated level comes near, and a larger file is refused before it can
/// take memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a text file of at most [`MAX_FILE_BYTES`], as a [`Diagnostic`] on
/// failure.
pub fn read_text(path: &Path) -> Result<String, Diagnostic> {
    read_text_capped(path, MAX_FILE_BYTES)
}

/// Reads a regular text file of at most `cap` bytes. A FIFO, a device or a
/// folder is refused before opening (opening a FIFO blocks, reading
/// `/dev/zero` never ends), and the read stops past the cap, so a file that
/// grows while it is read cannot exceed it either.
pub fn read_text_capped(path: &Path, cap: u64) -> Result<String, Diagnostic> {
    let bytes = read_bytes_capped(path, cap)?;
    text_of(bytes, path)
}

/// The bytes of a regular file of at most `cap` bytes: the one capped
/// reader every input goes through (see [`read_text_capped`]).
pub fn read_bytes_capped(path: &Path, cap: u64) -> Result<Vec<u8>, Diagnostic> {
    use std::io::Read;
    let fail = |why: String| Diagnostic::error(path, why);
    let meta = std::fs::metadata(path).map_err(|e| fail(io_reason(&e, path)))?;
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a folder"
        } else {
            "not a regular file (a pipe, socket or device)"
        };
        return Err(fail(format!("cannot read: {kind}")));
    }
    if meta.len() > cap {
        return Err(fail(format!(
            "the file is {} bytes, over the {} limit",
            meta.len(),
            cap_words(cap)
        )));
    }
    let file = std::fs::File::open(path).map_err(|e| fail(io_reason(&e, path)))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(io_reason(&e, path)))?;
    if bytes.len() as u64 > cap {
        return Err(fail(format!(
            "the file grew past the {} limit while being read",
            cap_words(cap)
        )));
    }
    Ok(bytes)
}

/// Standard input as text, at most [`MAX_FILE_BYTES`] (the same cap as a
/// file): a pipe that never ends is refused once it passes the cap.
pub fn read_stdin_text() -> Result<String, Diagnostic> {
    use std::io::Read;
    let path = Path::new("<standard input>");
    let fail = |why: String| Diagnostic::error(path, why);
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(fail(format!(
            "over the {} limit",
            cap_words(MAX_FILE_BYTES)
        )));
    }
    text_of(bytes, path)
}

/// A cap in words: `16 MiB`, or bytes under one MiB.
fn cap_words(cap: u64) -> String {
    if cap >= 1024 * 1024 {
        format!("{} MiB", cap / (1024 * 1024))
    } else {
        format!("{cap} bytes")
    }
}

/// `bytes` as text, read the way other editors save files: a UTF-8
/// byte-order mark is dropped, UTF-16 with its mark is decoded, and CRLF
/// line endings read as LF, so such a file reads as the same file. Any
/// other encoding is refused at the line of its first bad byte, in words.
fn text_of(bytes: Vec<u8>, path: &Path) -> Result<String, Diagnostic> {
    let text = match bytes.as_slice() {
        [0xEF, 0xBB, 0xBF, rest @ ..] => utf8_of(rest.to_vec(), path)?,
        [0xFF, 0xFE, rest @ ..] => utf16_of(rest, u16::from_le_bytes, path)?,
        [0xFE, 0xFF, rest @ ..] => utf16_of(rest, u16::from_be_bytes, path)?,
        _ => utf8_of(bytes, path)?,
    };
    // NUL bytes are valid UTF-8 but no level, script or log holds them:
    // most likely UTF-16 saved without its mark (every other byte 0).
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() as u32 + 1;
        return Err(Diagnostic {
            line: Some(line),
            ..Diagnostic::error(
                path,
                format!(
                    "not UTF-8 text (a NUL byte at offset {at}; perhaps saved as UTF-16 without its byte-order mark); save the file as UTF-8"
                ),
            )
        });
    }
    Ok(if text.contains("\r\n") {
        text.replace("\r\n", "\n")
    } else {
        text
    })
}

/// `bytes` as UTF-8; an invalid byte is refused at its line, with a guess
/// at what the file is.
fn utf8_of(bytes: Vec<u8>, path: &Path) -> Result<String, Diagnostic> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let before = std::str::from_utf8(&e.as_bytes()[..at]).unwrap_or("");
        let line = before.matches('\n').count() as u32 + 1;
        let guess = if e.as_bytes().contains(&0) {
            "perhaps saved as UTF-16 without its byte-order mark"
        } else {
            "perhaps saved as Latin-1 or Windows-1252"
        };
        Diagnostic {
            line: Some(line),
            ..Diagnostic::error(
                path,
                format!(
                    "not UTF-8 text (an invalid byte at offset {at}; {guess}); save the file as UTF-8"
                ),
            )
        }
    })
}

/// UTF-16 text after its byte-order mark, each unit read by `unit`.
fn utf16_of(bytes: &[u8], unit: fn([u8; 2]) -> u16, path: &Path) -> Result<String, Diagnostic> {
    let refuse = |why: &str| {
        Diagnostic::error(
            path,
            format!("UTF-16 text that {why}; save the file as UTF-8"),
        )
    };
    if bytes.len() % 2 == 1 {
        return Err(refuse("ends in half a character"));
    }
    let units = bytes.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
    let mut text = String::with_capacity(bytes.len() / 2);
    for c in char::decode_utf16(units) {
        match c {
            Ok(c) => text.push(c),
            Err(_) => {
                let line = text.matches('\n').count() as u32 + 1;
                return Err(Diagnostic {
                    line: Some(line),
                    ..refuse("holds half of a character pair")
                });
            }
        }
    }
    Ok(text)
}

/// Why a file cannot be read, in words.
fn io_reason(error: &std::io::Error, path: &Path) -> String {
    use std::io::ErrorKind;
    match error.kind() {
        ErrorKind::NotFound if path.is_symlink() => {
            "cannot read: a broken link (its target does not exist)".into()
        }
        ErrorKind::NotFound => "cannot read: no such file".into(),
        ErrorKind::PermissionDenied => "cannot read: permission denied".into(),
        _ if error.raw_os_error() == Some(40) => {
            "cannot read: a symbolic link loop (the link points back at itself)".into()
        }
        _ => format!("cannot read: {error}"),
    }
}

/// Parses any RON value, with the error located at line and column and put
/// in words a designer can act on.
pub fn parse_ron<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, Diagnostic> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .map_err(|e| Diagnostic {
            line: u32::try_from(e.span.start.line).ok(),
            col: u32::try_from(e.span.start.col).ok(),
            ..Diagnostic::error(path, ron_message(&e.code))
        })
}

/// ron's error in a designer's words: no Rust type names, no advice about
/// Rust crates or `Some(...)`.
fn ron_message(code: &ron::Error) -> String {
    use ron::Error as E;
    let names = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match code {
        E::Eof => "the file ends too early (a bracket or string is not closed)".into(),
        E::ExceededRecursionLimit => {
            "values are nested too deeply (more than 128 levels of brackets)".into()
        }
        E::NoSuchStructField {
            expected, found, ..
        } => format!(
            "unknown field `{found}` (known fields: {})",
            names(expected)
        ),
        E::MissingStructField { field, .. } => format!("missing field `{field}`"),
        E::DuplicateStructField { field, .. } => format!("field `{field}` is given twice"),
        E::NoSuchEnumVariant {
            expected, found, ..
        } => format!("unknown `{found}` (expected one of: {})", names(expected)),
        E::InvalidValueForType { expected, found } => {
            format!("expected {expected}, found {found}")
        }
        E::ExpectedOption => "expected a value or `None`".into(),
        E::IntegerOutOfBounds => "the number is out of range for this field".into(),
        E::TrailingCharacters => "unexpected text after the end of the value".into(),
        E::ExpectedComma => "expected a comma between two values".into(),
        E::ExpectedStructLike | E::ExpectedNamedStructLike(_) => {
            "expected `(` opening a group of fields".into()
        }
        E::ExpectedStructLikeEnd | E::ExpectedOptionEnd => "expected a closing `)`".into(),
        E::ExpectedDifferentLength { expected, found } => {
            format!("expected {expected}, found {found} values")
        }
        // A name before `(` that is not the value's own (a Rust type name
        // is no business of a designer's): say what to write instead.
        E::ExpectedDifferentStructName { found, .. } => format!(
            "unexpected name `{found}` before `(`: write the group of fields without a name"
        ),
        E::Message(message) => message.clone(),
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => text,
            }
        }
    }
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

/// Writes `contents` to `path`, atomically for a regular file: a temporary
/// file in the same folder, flushed, then renamed over the target, so a
/// crash leaves either the old file or the new one, never half of each.
/// A symbolic link is followed (its target is written the same way, the
/// link stays), and a device or FIFO (`/dev/stdout`, a pipe) is written
/// through: renaming over it would replace it with a regular file.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(resolved) => resolved,
            // A dangling link: create its target through it.
            Err(_) => return std::fs::write(path, contents),
        },
        _ => path.to_path_buf(),
    };
    match std::fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a folder",
        )),
        // A write into a pipe waits for a reader, maybe for ever, and
        // nothing can cancel it: refused, as `check_writable` refuses it
        // before the work.
        Ok(meta) if is_pipe(&meta) => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            PIPE_REFUSED,
        )),
        Ok(meta) if !meta.is_file() => std::fs::write(&target, contents),
        _ => replace_file(&target, contents),
    }
}

/// The atomic write of a regular file (or a new one): temporary file, then
/// rename.
fn replace_file(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let temp = temp_path(folder, name);
    let written = std::fs::File::create(&temp).and_then(|mut file| {
        file.write_all(contents)?;
        file.sync_all()
    });
    // A failed write (a full disk) or rename leaves no temporary behind.
    written
        .and_then(|()| std::fs::rename(&temp, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&temp);
        })
}

/// The temporary file an atomic write of `name` in `folder` goes through.
fn temp_path(folder: &Path, name: &str) -> PathBuf {
    folder.join(format!(".{name}.tessera-tmp"))
}

/// Whether two output paths name the same file (the same file through
/// different spellings or a link included), so a command can refuse to
/// write two results into one.
pub fn same_file(a: &Path, b: &Path) -> bool {
    // The file itself may not exist yet: compare its resolved folder and
    // its name, after following a link to an existing file.
    let resolved = |p: &Path| -> Option<PathBuf> {
        if let Ok(real) = p.canonicalize() {
            return Some(real);
        }
        let folder = p.parent().filter(|f| !f.as_os_str().is_empty());
        let folder = folder.unwrap_or(Path::new(".")).canonicalize().ok()?;
        Some(folder.join(p.file_name()?))
    };
    match (resolved(a), resolved(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

/// Why an output that is a named pipe or a socket is refused.
const PIPE_REFUSED: &str =
    "it is a pipe or socket, not a regular file (a write would wait for a reader); write to a file";

/// Whether `meta` is a named pipe or a socket: outputs refused before the
/// work, as inputs are (a device such as `/dev/null` is written through).
fn is_pipe(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        meta.file_type().is_fifo() || meta.file_type().is_socket()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// Whether `path` can be written, checked before work whose result goes
/// there (a whole game, a long simulation), so a bad path fails at once
/// instead of after the work: its folder must exist, and an existing
/// target must not be a folder or read-only.
pub fn check_writable(path: &Path) -> Result<(), Diagnostic> {
    let fail = |why: &str| Diagnostic::error(path, format!("cannot write: {why}"));
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Err(fail("it is a folder")),
        Ok(meta) if meta.is_file() && meta.permissions().readonly() => {
            return Err(fail("the file is read-only"));
        }
        Ok(meta) if is_pipe(&meta) => return Err(fail(PIPE_REFUSED)),
        // A device (`/dev/null`) is written through, not replaced.
        Ok(meta) if !meta.is_file() => return Ok(()),
        _ => {}
    }
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match std::fs::metadata(folder) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(fail("its folder is not a folder")),
        Err(_) => return Err(fail(&format!("no folder {}", folder.display()))),
    }
    // The write goes through a temporary file in the folder: try creating
    // it now, so a read-only file system or folder fails before the work.
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let probe = temp_path(folder, name);
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        // A temporary left by another write in progress: the folder takes files.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::ReadOnlyFilesystem => {
            Err(fail("the file system is read-only"))
        }
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => Err(fail(&format!(
            "no permission to write in {}",
            folder.display()
        ))),
        Err(e) => Err(fail(&e.to_string())),
    }
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
    #[test]
    fn a_save_through_a_link_writes_its_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.ron");
        std::fs::write(&target, "old").unwrap();
        let link = dir.path().join("link.ron");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        super::write_atomic(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    }

    #[test]
    fn a_save_path_is_checked_before_the_work() {
        let dir = tempfile::tempdir().unwrap();
        assert!(super::check_writable(&dir.path().join("new.ron")).is_ok());
        let missing = super::check_writable(&dir.path().join("no/such/new.ron")).unwrap_err();
        assert!(missing.message.contains("no folder"), "{missing}");
        let folder = super::check_writable(dir.path()).unwrap_err();
        assert!(folder.message.contains("folder"), "{folder}");
    }

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

    #[test]
    fn files_as_other_editors_save_them_read_as_the_same_text() {
        let dir = tempfile::tempdir().unwrap();
        let text = "(\n  version: 1, // caf\u{e9}\n)\n";
        let utf16 = |big: bool| {
            let mark: &[u8] = if big { &[0xFE, 0xFF] } else { &[0xFF, 0xFE] };
            let units = text.encode_utf16().flat_map(move |u| {
                if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            });
            mark.iter().copied().chain(units).collect::<Vec<u8>>()
        };
        let saved: [(&str, Vec<u8>); 5] = [
            ("plain", text.as_bytes().to_vec()),
            (
                "bom",
                [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat(),
            ),
            ("crlf", text.replace('\n', "\r\n").into_bytes()),
            ("utf16le", utf16(false)),
            ("utf16be", utf16(true)),
        ];
        for (name, bytes) in saved {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            assert_eq!(super::read_text(&path).unwrap(), text, "{name}");
        }
    }

    #[test]
    fn other_encodings_are_refused_at_their_line_in_words() {
        let dir = tempfile::tempdir().unwrap();
        let latin1 = dir.path().join("latin1");
        std::fs::write(&latin1, b"ok\ncaf\xE9\n").unwrap();
        let error = super::read_text(&latin1).unwrap_err();
        assert_eq!(error.line, Some(2));
        assert!(error.message.contains("Latin-1"), "{}", error.message);
        let no_mark = dir.path().join("utf16");
        std::fs::write(&no_mark, b"(\0\n\0)\0").unwrap();
        let error = super::read_text(&no_mark).unwrap_err();
        assert!(error.message.contains("UTF-16"), "{}", error.message);
        let odd = dir.path().join("odd");
        std::fs::write(&odd, b"\xFF\xFE(\0)").unwrap();
        assert!(
            super::read_text(&odd)
                .unwrap_err()
                .message
                .contains("half a character")
        );
    }

    #[test]
    fn two_spellings_of_one_output_are_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let plain = dir.path().join("x.out");
        let round = dir.path().join("sub/../x.out");
        assert!(super::same_file(&plain, &round), "not yet written");
        std::fs::write(&plain, "x").unwrap();
        let link = dir.path().join("link.out");
        std::os::unix::fs::symlink(&plain, &link).unwrap();
        assert!(super::same_file(&link, &plain), "through a link");
        assert!(!super::same_file(&plain, &dir.path().join("y.out")));
    }

    #[test]
    fn a_writable_check_leaves_nothing_behind_and_refuses_what_takes_no_files() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("game.jsonl");
        super::check_writable(&target).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let refused =
            super::check_writable(std::path::Path::new("/proc/tessera-probe")).unwrap_err();
        assert!(
            refused.message.starts_with("cannot write: "),
            "{}",
            refused.message
        );
    }
}
