//! `tessera check`: validates level files and scripts without running a game.
//!
//! The checks here are the same ones a game start runs (the registry's
//! `validate_script` for scripts; parse, diagnose and a start with the
//! project's script for levels), so `check` and `play` never disagree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::agent::ThinkControl;
use crate::folders::{SCRIPTS_DIR, project_root};
use crate::generate::Proof;
use crate::level::{Diagnostic, Severity, read_text};
use crate::registry::Registry;
use crate::script::{LiveScript, Script, ScriptError, ScriptLimits};

/// What a walk over the paths found: the files to check (each once) and
/// problems with the paths themselves (links that loop or lead nowhere,
/// folders with nothing to check).
#[derive(Debug, Default)]
pub struct Found {
    /// Checkable files, sorted per folder, each file once.
    pub files: Vec<PathBuf>,
    /// Findings about the paths (not about any file's content).
    pub problems: Vec<Diagnostic>,
}

/// Whether `check` looks at this file when walking a folder: scripts, RON
/// levels, and a game's other level formats inside `levels/<game>/`.
fn is_checkable(registry: &Registry, path: &Path) -> bool {
    let Some(extension) = path.extension().and_then(|e| e.to_str()) else {
        return false;
    };
    if matches!(extension, "lua" | "luau" | "ron") {
        return true;
    }
    folder_game(registry, path).is_some_and(|game| {
        registry
            .get(&game)
            .is_some_and(|entry| entry.level_extensions().contains(&extension))
    })
}

/// Expands folders into the checkable files under them (sorted), keeping
/// plain file arguments as given. Problems with the paths are dropped; see
/// [`find_files`] for them.
pub fn expand_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    find_files(&crate::registry::Registry::empty(), paths).files
}

/// Walks `paths`: files are kept as given, folders searched. Symbolic links
/// are followed once: a link back into a folder being walked is reported as
/// a loop and not followed, a broken link is reported as broken, and a file
/// reached twice (through a link) is checked once. A folder with nothing to
/// check is a problem, not a silent success.
pub fn find_files(registry: &Registry, paths: &[PathBuf]) -> Found {
    let mut found = Found::default();
    let mut seen_files = BTreeSet::new();
    for path in paths {
        if path.is_dir() {
            let before = found.files.len();
            let mut walk = Walk {
                registry,
                found: &mut found,
                seen_files: &mut seen_files,
                ancestors: Vec::new(),
                visited: BTreeSet::new(),
            };
            walk.folder(path);
            if found.files.len() == before {
                found.problems.push(Diagnostic::error(
                    path,
                    "nothing to check: no levels (.ron, or a game's level format in levels/<game>/) or scripts (.lua) in this folder",
                ));
            }
        } else {
            let key = path.canonicalize().unwrap_or_else(|_| path.clone());
            if seen_files.insert(key) {
                found.files.push(path.clone());
            }
        }
    }
    found
}

struct Walk<'a> {
    registry: &'a Registry,
    found: &'a mut Found,
    seen_files: &'a mut BTreeSet<PathBuf>,
    /// Canonical folders on the way down to the current one.
    ancestors: Vec<PathBuf>,
    /// Canonical folders already walked.
    visited: BTreeSet<PathBuf>,
}

impl Walk<'_> {
    fn folder(&mut self, folder: &Path) {
        let Ok(canonical) = folder.canonicalize() else {
            return;
        };
        if !self.visited.insert(canonical.clone()) {
            return;
        }
        let Ok(entries) = std::fs::read_dir(folder) else {
            self.found.problems.push(Diagnostic::error(
                folder,
                "cannot read this folder (permission denied?)",
            ));
            return;
        };
        self.ancestors.push(canonical);
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        let mut files = Vec::new();
        for path in paths {
            let Ok(own) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if own.file_type().is_symlink() {
                match std::fs::metadata(&path) {
                    Err(e) => {
                        // ELOOP: links leading to each other in a circle.
                        let why = if e.raw_os_error() == Some(40) {
                            "a symbolic link loop (the link leads back to itself); not followed"
                        } else {
                            "a broken link (its target does not exist); not followed"
                        };
                        let finding = if is_checkable(self.registry, &path) {
                            Diagnostic::error(&path, why)
                        } else {
                            Diagnostic::warning(&path, why)
                        };
                        self.found.problems.push(finding);
                        continue;
                    }
                    Ok(target) if target.is_dir() => {
                        let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
                        if self.ancestors.contains(&canonical) {
                            self.found.problems.push(Diagnostic::warning(
                                &path,
                                format!(
                                    "a symbolic link loop: it leads back to {}, which is being checked; not followed",
                                    canonical.display()
                                ),
                            ));
                            continue;
                        }
                        self.folder(&path);
                        continue;
                    }
                    Ok(_) => {}
                }
            } else if own.is_dir() {
                self.folder(&path);
                continue;
            }
            if is_checkable(self.registry, &path) {
                let key = path.canonicalize().unwrap_or_else(|_| path.clone());
                if self.seen_files.insert(key) {
                    files.push(path);
                }
            }
        }
        self.found.files.extend(files);
        self.ancestors.pop();
    }
}

/// Every finding about one file; no errors means the file is fine
/// (warnings may remain).
pub fn check_file(registry: &Registry, path: &Path, limits: ScriptLimits) -> Vec<Diagnostic> {
    Checker::new(registry, limits).check_file(path)
}

/// Checks many files, loading each project's game scripts once.
pub struct Checker<'a> {
    registry: &'a Registry,
    limits: ScriptLimits,
    /// Game scripts by path; `None` when the script does not load (its own
    /// check reports why).
    scripts: BTreeMap<PathBuf, Option<LiveScript>>,
    /// What the last level's generator claim re-proved ([`Proof::Holds`]).
    proven: Option<String>,
    /// The job's control the re-proofs poll (the command line's Ctrl+C);
    /// none: a fresh one each proof, never cancelled.
    control: Option<&'a ThinkControl>,
}

impl<'a> Checker<'a> {
    /// A checker using `registry`'s games and `limits` for scripts.
    pub fn new(registry: &'a Registry, limits: ScriptLimits) -> Self {
        Self {
            registry,
            limits,
            scripts: BTreeMap::new(),
            proven: None,
            control: None,
        }
    }

    /// The checker with its re-proofs polling `control`: a cancel stops
    /// the proof in progress, which then reports nothing (the file is not
    /// checked, rather than found broken).
    pub fn with_control(mut self, control: &'a ThinkControl) -> Self {
        self.control = Some(control);
        self
    }

    /// What re-proving the last checked level's generator claim found, when
    /// it carried one that holds (`unique (1 distinct packing)`); taken,
    /// so the next file starts without one.
    pub fn take_proven(&mut self) -> Option<String> {
        self.proven.take()
    }

    /// Every finding about one file.
    pub fn check_file(&mut self, path: &Path) -> Vec<Diagnostic> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("lua" | "luau") => match check_script(self.registry, path, self.limits) {
                Ok(()) => Vec::new(),
                Err(e) => vec![e.into()],
            },
            Some(_) if folder_game(self.registry, path).is_some() => self.check_level(path),
            Some("ron") => self.check_level(path),
            _ => vec![Diagnostic::error(
                path,
                "not a level (.ron) or a script (.lua): nothing to check",
            )],
        }
    }

    /// Validates a level file against its game's format and, when the
    /// project has the game's script, starts a game on it as `play` would.
    pub fn check_level(&mut self, path: &Path) -> Vec<Diagnostic> {
        self.proven = None;
        let text = match read_text(path) {
            Ok(text) => text,
            Err(e) => return vec![e],
        };
        let game = match level_game(self.registry, path, &text) {
            Ok(game) => game,
            Err(e) => return vec![e],
        };
        let Some(entry) = self.registry.get(&game) else {
            return vec![Diagnostic::error(
                path,
                format!(
                    "unknown game `{game}` (known: {})",
                    known_games(self.registry)
                ),
            )];
        };
        let mut findings = match self.game_script(path, &game) {
            Some(script) => entry.check_level_with(&text, path, script),
            None => entry.check_level(&text, path),
        };
        let valid = !findings.iter().any(|f| f.severity == Severity::Error);
        if let (true, Some(generator)) = (valid, self.registry.generator(&game)) {
            // A generated level's claim (unique, one winning move...) is
            // re-proven here, so a hand edit that breaks it is reported.
            let fresh;
            let control = match self.control {
                Some(control) => control,
                None => {
                    fresh = ThinkControl::new();
                    &fresh
                }
            };
            match crate::generate::prove(generator, &game, path, &text, control) {
                // A stopped proof proves nothing either way.
                _ if control.is_cancelled() => {}
                Proof::Broken(finding) => findings.push(finding),
                Proof::Holds(what) => self.proven = Some(what),
                Proof::NoClaim => {}
            }
        }
        findings
    }

    /// The project's script for `game`, next to the level's `levels/`.
    fn game_script(&mut self, level: &Path, game: &str) -> Option<LiveScript> {
        let folder = level.canonicalize().ok()?.parent()?.to_path_buf();
        let root = project_root(&folder);
        let script_path = root.join(SCRIPTS_DIR).join(format!("{game}.lua"));
        if let Some(known) = self.scripts.get(&script_path) {
            return known.clone();
        }
        let loaded = script_path
            .is_file()
            .then(|| {
                let script = Script::load_file(&script_path, None, self.limits).ok()?;
                let entry = self.registry.get(game)?;
                entry.validate_script(&script).ok()?;
                Some(LiveScript::new(script))
            })
            .flatten();
        self.scripts.insert(script_path, loaded.clone());
        loaded
    }
}

/// Runs a script in the sandbox and, when its game is known, validates it
/// as a game start would: schema types and ranges, then every setting the
/// game reads.
pub fn check_script(
    registry: &Registry,
    path: &Path,
    limits: ScriptLimits,
) -> Result<(), ScriptError> {
    let script = Script::load_file(path, None, limits)?;
    validate_for_game(registry, path, &script)
}

/// Validates a loaded script against its game (see [`check_script`]); a
/// `game` field naming no known game is an error at its line.
pub fn validate_for_game(
    registry: &Registry,
    path: &Path,
    script: &Script,
) -> Result<(), ScriptError> {
    match script_game(registry, path, script) {
        Some(id) => match registry.get(&id) {
            Some(entry) => entry.validate_script(script),
            None => Err(script.field_error(
                &["game"],
                format!("unknown game `{id}` (known: {})", known_games(registry)),
            )),
        },
        None => Ok(()),
    }
}

/// The game a script belongs to: its file name (`sand.lua`), else a `game`
/// field in its table.
pub fn script_game(registry: &Registry, path: &Path, script: &Script) -> Option<String> {
    let stem = path.file_stem().and_then(|s| s.to_str())?;
    if registry.get(stem).is_some() {
        return Some(stem.to_string());
    }
    script.value::<String>("game").ok().flatten()
}

/// Validates a level file against its game's format.
pub fn check_level(registry: &Registry, path: &Path) -> Vec<Diagnostic> {
    Checker::new(registry, ScriptLimits::default()).check_level(path)
}

/// The findings about a level's text as `check` reports them (the editor's
/// live validation): its game from its folder, its format and diagnosis,
/// and a start with the project's script. `display` names the file.
pub fn check_level_text(
    registry: &Registry,
    path: &Path,
    display: &Path,
    text: &str,
) -> Vec<Diagnostic> {
    let game = match level_game(registry, path, text) {
        Ok(game) => game,
        Err(e) => return vec![e.in_file(display)],
    };
    let Some(entry) = registry.get(&game) else {
        return vec![Diagnostic::error(display, format!("unknown game `{game}`"))];
    };
    let mut checker = Checker::new(registry, ScriptLimits::default());
    match checker.game_script(path, &game) {
        Some(script) => entry.check_level_with(text, display, script),
        None => entry.check_level(text, display),
    }
}

/// The game of a file inside `levels/<game>/`, after resolving the path
/// (so `check soma.ron` run inside `levels/polycube/` knows its game).
fn folder_game(registry: &Registry, path: &Path) -> Option<String> {
    let resolved = std::path::absolute(path).ok()?;
    let folder = resolved.parent()?.file_name()?.to_str()?;
    registry.get(folder).map(|_| folder.to_string())
}

/// The game a level belongs to: its folder (`levels/<game>/`, resolved
/// against the current folder), or for a generated level the game its
/// `generated by` line names.
pub fn level_game(registry: &Registry, path: &Path, text: &str) -> Result<String, Diagnostic> {
    if let Some(game) = folder_game(registry, path) {
        return Ok(game);
    }
    // A generated level names its game in its first line, `generated by`
    // (read alone: the rest of the block may be gone or broken).
    if let Some(game) = crate::generate::Claim::game_of(text)
        && registry.get(&game).is_some()
    {
        return Ok(game);
    }
    // Outside a game's folder a syntax error still names its line.
    crate::level::parse_ron::<ron::Value>(text, path)?;
    Err(Diagnostic::error(
        path,
        format!(
            "cannot tell which game this level is for: put it in levels/<game>/ (known games: {})",
            known_games(registry)
        ),
    ))
}

fn known_games(registry: &Registry) -> String {
    let ids: Vec<_> = registry.iter().map(|e| e.id).collect();
    if ids.is_empty() {
        "none".into()
    } else {
        ids.join(", ")
    }
}

impl From<ScriptError> for Diagnostic {
    fn from(e: ScriptError) -> Self {
        Diagnostic {
            line: e.line,
            ..Diagnostic::error(&e.path, e.message)
        }
    }
}
