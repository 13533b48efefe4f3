//! Every key of every game's script has a schema, the top level included:
//! a misspelt key is refused at its line with the nearest known key, in
//! every registered game, through the one validation path `check`,
//! `watch`, the editor's reload and every game start share
//! (`check::validate_for_game`). The sweep derives its typos from each
//! game's schema, so a game added to the list is swept with no new line
//! here.

use crate::common;

use std::path::Path;

use tessera_host::check::validate_for_game;
use tessera_host::{PluginEntry, Script, ScriptError, ScriptLimits};

/// The shipped `scripts/<id>.lua` of a game, with its path as `check`
/// names it.
fn shipped(entry: &PluginEntry) -> (String, String) {
    let relative = format!("scripts/{}.lua", entry.id);
    let text = std::fs::read_to_string(common::repo_path(&relative))
        .unwrap_or_else(|e| panic!("{relative}: {e} (every game ships its script)"));
    (relative, text)
}

/// `source` as `check` validates it for its game: loaded in the sandbox,
/// then the game's schema and settings readers.
fn validate(relative: &str, source: &str) -> Result<(), ScriptError> {
    let registry = tessera_builtin::registry();
    let path = Path::new(relative);
    let script = Script::load(path, source, None, ScriptLimits::default())?;
    validate_for_game(&registry, path, &script)
}

/// The 1-based line of the top-level `return {` of a shipped script (the
/// last one: a script may build helper tables before it).
fn return_line(relative: &str, source: &str) -> usize {
    source
        .lines()
        .enumerate()
        .filter(|(_, line)| line.trim_start().starts_with("return {"))
        .map(|(i, _)| i + 1)
        .last()
        .unwrap_or_else(|| panic!("{relative}: no top-level `return {{`"))
}

/// `key` misspelt by one appended letter, into a name the schema does not
/// know.
fn misspelt(key: &str, known: &[&str]) -> String {
    ['q', 'z', 'x', 'j']
        .iter()
        .map(|letter| format!("{key}{letter}"))
        .find(|typo| !known.contains(&typo.as_str()))
        .unwrap_or_else(|| panic!("no misspelling of `{key}` is free"))
}

/// Asserts that `result` is the refusal of `typo` at `line`, naming `key`.
fn assert_refused(
    case: &str,
    result: Result<(), ScriptError>,
    relative: &str,
    line: usize,
    typo: &str,
    key: &str,
) {
    let error = match result {
        Ok(()) => panic!("{case}: accepted (the typo `{typo}` was ignored)"),
        Err(error) => error,
    };
    let shown = error.to_string();
    assert_eq!(error.line, Some(line as u32), "{case}: {shown}");
    assert!(
        shown.starts_with(&format!("{relative}:{line}: ")),
        "{case}: {shown}"
    );
    assert!(
        shown.contains(&format!("`{typo}`")),
        "{case}: the refusal does not name `{typo}`: {shown}"
    );
    assert!(
        shown.contains(&format!("did you mean `{key}`?")),
        "{case}: the refusal does not name the nearest key `{key}`: {shown}"
    );
}

#[test]
fn every_shipped_script_passes_its_games_check() {
    for entry in tessera_builtin::registry().iter() {
        let (relative, text) = shipped(entry);
        if let Err(error) = validate(&relative, &text) {
            panic!("{}: the shipped script is refused: {error}", entry.id);
        }
    }
}

#[test]
fn a_misspelt_top_level_key_is_refused_at_its_line_with_the_nearest_key_in_every_game() {
    let registry = tessera_builtin::registry();
    let mut swept = 0;
    for entry in registry.iter() {
        let (relative, text) = shipped(entry);
        let schema = entry.script_schema();
        let known: Vec<&str> = schema.fields.iter().map(|field| field.name).collect();
        let after = return_line(&relative, &text);
        for key in &known {
            let typo = misspelt(key, &known);

            // A new line right after `return {`, beside the real key.
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            lines.insert(after, format!("  {typo} = 1,"));
            let injected = lines.join("\n");
            let case = format!("{}: `{typo}` added", entry.id);
            let result = validate(&relative, &injected);
            assert_refused(&case, result, &relative, after + 1, &typo, key);

            // The real key misspelt where the shipped script writes it (a
            // required hook included: the typo is named, not a `missing`).
            let line = tessera_host::script::field_line(&text, &[key]);
            if let Some(line) = line.filter(|&line| line as usize > after) {
                let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
                let at = line as usize - 1;
                let written = format!("{key} =");
                assert!(
                    lines[at].contains(&written),
                    "{relative}:{line}: `{written}`"
                );
                lines[at] = lines[at].replacen(&written, &format!("{typo} ="), 1);
                let renamed = lines.join("\n");
                let case = format!("{}: `{key}` written `{typo}`", entry.id);
                let result = validate(&relative, &renamed);
                assert_refused(&case, result, &relative, line as usize, &typo, key);
            }
            swept += 1;
        }
    }
    assert!(swept >= 30, "{swept} keys swept");
}
