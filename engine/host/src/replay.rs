//! Replays: everything a session started from, and every step taken.
//! Because rules draw randomness only from the seeded
//! [`crate::rng::GameRng`], replaying the steps on the same level, options,
//! seed and script reproduces the session exactly, reloads included.

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::level::{Diagnostic, FieldKey};
use crate::options::SessionOptions;
use crate::script::{Script, ScriptError, ScriptLimits, ScriptSchema};

/// One recorded step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Step<A> {
    /// A player (or AI) action.
    Act(A),
    /// Time passing.
    Tick(u32),
    /// The script was reloaded here; the new text, whole.
    Reload(String),
}

/// The script a session was played with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptRecord {
    /// The script's path, relative to the project root.
    pub path: String,
    /// [`crate::script::content_hash`] of the text at the start.
    pub hash: String,
    /// The text at the start, whole.
    pub source: String,
}

/// A whole session's record, stored as RON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay<L, A> {
    /// Plugin id.
    pub game: String,
    /// The session's seed.
    pub seed: u64,
    /// Mode and seats (resolved: complete).
    #[serde(default)]
    pub options: SessionOptions,
    /// The level file it was played on, relative to the project root
    /// (`None` for a game's default level or an unsaved buffer).
    #[serde(default)]
    pub level_path: Option<String>,
    /// The level as it was played (inline, so a later edit of the level file
    /// cannot change the replay unless asked to).
    pub level: L,
    /// The script at the start (`None` in replays written before scripts
    /// were recorded).
    #[serde(default)]
    pub script: Option<ScriptRecord>,
    /// Everything done, in order (at most [`MAX_STEPS`]).
    #[serde(
        deserialize_with = "capped_steps",
        bound(deserialize = "A: Deserialize<'de>")
    )]
    pub steps: Vec<Step<A>>,
}

/// Just the header of a replay: which game it belongs to and the script it
/// recorded.
#[derive(Debug, Deserialize)]
pub struct ReplayHeader {
    /// Plugin id.
    pub game: String,
    /// The script the session started with, when recorded.
    #[serde(default)]
    pub script: Option<ScriptRecord>,
}

/// Which script a replay runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScriptChoice {
    /// The text recorded in the replay, reloads applied as recorded.
    Recorded,
    /// The project's current script file, throughout (recorded reloads are
    /// skipped): what a rule-change test wants.
    #[default]
    Current,
}

/// Which level a replay runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LevelChoice {
    /// The level stored inline.
    Recorded,
    /// The project's current file at `level_path`, when there is one.
    #[default]
    Current,
}

/// Most steps a replay (or actions an action file) may hold. A session
/// keeps its record and each step's events, some 300 bytes a step, so
/// 250,000 steps stay far below the 256 MiB an input may cost; hours of
/// play are a few thousand steps (ticks merge).
pub const MAX_STEPS: usize = 250_000;

/// Most `Reload` steps a replay may hold: each one compiles and runs a
/// whole script (up to its load budget).
pub const MAX_RELOADS: usize = 100;

/// Longest time a replay's recorded reloads may spend loading scripts, all
/// together: a replay of many slow-but-legal scripts would otherwise take
/// minutes (a 4 KB file, 20 s).
pub const RELOADS_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// A list read with a cap: more than [`MAX_STEPS`] entries are refused at
/// the first entry past the cap (so the parse error names its line), before
/// they cost memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Capped<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Capped<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<T> {
            type Value = Capped<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "a list of at most {MAX_STEPS} entries")
            }
            fn visit_seq<S: serde::de::SeqAccess<'de>>(
                self,
                mut seq: S,
            ) -> Result<Self::Value, S::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(entry) = seq.next_element()? {
                    if out.len() == MAX_STEPS {
                        return Err(serde::de::Error::custom(format!(
                            "more than {MAX_STEPS} entries: a replay or action file holds at most {MAX_STEPS} steps"
                        )));
                    }
                    out.push(entry);
                }
                Ok(Capped(out))
            }
        }
        deserializer.deserialize_seq(Visitor(std::marker::PhantomData))
    }
}

fn capped_steps<'de, D, A>(deserializer: D) -> Result<Vec<Step<A>>, D::Error>
where
    D: serde::Deserializer<'de>,
    A: Deserialize<'de>,
{
    Ok(Capped::deserialize(deserializer)?.0)
}

/// The level file a replay names (`level_path`), resolved inside the
/// project `root` only: an absolute path, a `..` or a link out of the
/// project is refused at the replay's `level_path` line, before anything
/// is read (a replay must not read `/etc/passwd` and echo it in an error).
pub fn level_file_inside(
    root: &Path,
    level_path: &str,
    replay_text: &str,
    replay_path: &Path,
) -> Result<PathBuf, Diagnostic> {
    let refuse = |why: &str| {
        Diagnostic::error(
            replay_path,
            format!(
                "`level_path` {level_path:?} {why}: a replay names levels inside the project only"
            ),
        )
        .at("level_path")
        .locate(replay_text)
    };
    let relative = Path::new(level_path);
    if level_path.is_empty()
        || !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(refuse("is not a path inside the project"));
    }
    let file = root.join(relative);
    // A link inside the project may point out of it.
    if let (Ok(real_root), Ok(real_file)) = (root.canonicalize(), file.canonicalize())
        && !real_file.starts_with(&real_root)
    {
        return Err(refuse("leads out of the project"));
    }
    Ok(file)
}

/// Refuses a script record whose hash is not its text's: the replay was
/// edited by hand or damaged, and the note "same as recorded" would lie.
pub fn check_script_hash(
    record: &ScriptRecord,
    replay_text: &str,
    replay_path: &Path,
) -> Result<(), Diagnostic> {
    let actual = crate::script::content_hash(&record.source);
    if actual == record.hash {
        return Ok(());
    }
    Err(Diagnostic::error(
        replay_path,
        format!(
            "the recorded script's hash {} is not its text's ({}): the replay was edited or damaged",
            short_hash(&record.hash),
            short_hash(&actual)
        ),
    )
    .at("script")
    .at("hash")
    .locate(replay_text))
}

/// Loads a replay's recorded script; an error in it is reported against
/// the replay (its `source:` line), quoting the script's own line, not
/// against the project's script file the record names.
pub fn load_recorded_script(
    record: &ScriptRecord,
    schema: &ScriptSchema,
    limits: ScriptLimits,
    replay_text: &str,
    replay_path: &Path,
) -> Result<Script, Diagnostic> {
    check_script_hash(record, replay_text, replay_path)?;
    Script::load(
        Path::new(&record.path),
        &record.source,
        Some(schema),
        limits,
    )
    .map_err(|error| recorded_script_error(&error, replay_text, replay_path))
}

/// A script error of a replay's recorded script (at the start or in a
/// `Reload` step, `field`), as a finding about the replay.
pub fn recorded_script_error(
    error: &ScriptError,
    replay_text: &str,
    replay_path: &Path,
) -> Diagnostic {
    let within = match error.line {
        Some(line) => format!("{}:{line}", error.path.display()),
        None => error.path.display().to_string(),
    };
    Diagnostic::error(
        replay_path,
        format!("the recorded script ({within}): {}", error.message),
    )
    .at("script")
    .at("source")
    .locate(replay_text)
}

/// A finding about a replay's inline level (made without a file) as a
/// finding about the replay: its path, the field under `level`, its line
/// (the `level:` line when the field is not written out).
pub fn level_finding_in_replay(
    finding: Diagnostic,
    replay_text: &str,
    replay_path: &Path,
) -> Diagnostic {
    let mut field = vec![FieldKey::Name("level".into())];
    field.extend(finding.field.iter().cloned());
    let located = Diagnostic {
        path: replay_path.to_path_buf(),
        line: None,
        col: None,
        field,
        ..finding
    }
    .locate(replay_text);
    Diagnostic {
        line: located
            .line
            .or_else(|| crate::level::find_field_line(replay_text, "level")),
        ..located
    }
}

/// An error of a replay run (from [`crate::session::Recorded::from_replay`])
/// as a finding about the replay file: a finding about its `steps` or its
/// inline level (made without a file) is located in the replay's text.
pub fn located_replay_error(
    error: crate::error::GameError,
    replay_text: &str,
    replay_path: &Path,
) -> crate::error::GameError {
    use crate::error::GameError;
    match error {
        GameError::Level(finding)
            if finding.field.first() == Some(&FieldKey::Name("steps".into())) =>
        {
            GameError::Level(finding.in_file(replay_path).locate(replay_text))
        }
        GameError::Level(finding)
            if finding.path.as_os_str().is_empty() || finding.line.is_none() =>
        {
            GameError::Level(level_finding_in_replay(finding, replay_text, replay_path))
        }
        other => other,
    }
}

/// The first 12 hex digits of a content hash, for messages.
pub fn short_hash(hash: &str) -> &str {
    let hex = hash.strip_prefix("sha256:").unwrap_or(hash);
    hex.get(..12).unwrap_or(hex)
}
