//! `tessera check`: validates level files and scripts without running a game.

use std::path::{Path, PathBuf};

use crate::level::{Diagnostic, read_text};
use crate::registry::Registry;
use crate::script::{Script, ScriptError, ScriptLimits};

/// File kinds `check` understands.
fn is_checkable(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("lua" | "luau" | "ron")
    )
}

/// Expands folders into the checkable files under them (sorted), keeping
/// plain file arguments as given.
pub fn expand_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found);
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    files
}

fn walk(folder: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, found);
        } else if is_checkable(&path) {
            found.push(path);
        }
    }
}

/// Every finding about one file; no errors means the file is fine
/// (warnings may remain).
pub fn check_file(registry: &Registry, path: &Path, limits: ScriptLimits) -> Vec<Diagnostic> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("lua" | "luau") => match check_script(registry, path, limits) {
            Ok(()) => Vec::new(),
            Err(e) => vec![e.into()],
        },
        Some("ron") => check_level(registry, path),
        _ => vec![Diagnostic::error(
            path,
            "not a level (.ron) or a script (.lua): nothing to check",
        )],
    }
}

/// Runs a script in the sandbox and, when its game is known, validates its
/// table against the game's schema.
pub fn check_script(
    registry: &Registry,
    path: &Path,
    limits: ScriptLimits,
) -> Result<(), ScriptError> {
    let script = Script::load_file(path, None, limits)?;
    let game = script_game(registry, path, &script);
    if let Some(entry) = game.and_then(|id| registry.get(&id)) {
        script.validate(&entry.script_schema())?;
    }
    Ok(())
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
    let text = match read_text(path) {
        Ok(text) => text,
        Err(e) => return vec![e],
    };
    match level_game(registry, path, &text) {
        Ok(id) => match registry.get(&id) {
            Some(entry) => entry.check_level(&text, path),
            None => vec![Diagnostic::error(
                path,
                format!("unknown game `{id}` (known: {})", known_games(registry)),
            )],
        },
        Err(e) => vec![e],
    }
}

/// The game a level belongs to: its folder (`levels/<game>/`), else a
/// `game` field in the file.
pub fn level_game(registry: &Registry, path: &Path, text: &str) -> Result<String, Diagnostic> {
    let folder = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str());
    if let Some(folder) = folder.filter(|f| registry.get(f).is_some()) {
        return Ok(folder.to_string());
    }
    let value: ron::Value = crate::level::parse_ron(text, path)?;
    if let ron::Value::Map(map) = &value
        && let Some(ron::Value::String(game)) = map.get(&ron::Value::String("game".into()))
    {
        return Ok(game.clone());
    }
    Err(Diagnostic::error(
        path,
        format!(
            "cannot tell which game this level is for: put it in levels/<game>/ or add a `game` field (known: {})",
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
