//! Every code block in README.md works: Lua blocks load in the sandbox and
//! pass the schema of the game their first line names (`-- scripts/<game>.lua`),
//! and each `tessera ...` line of a `sh` block runs successfully on a copy
//! of the project (lines with placeholders such as `PATH`, and `watch`,
//! which runs until interrupted, are skipped).

use crate::common;

use std::path::Path;
use std::process::Command;

use tessera_host::{Script, ScriptLimits};

/// The fenced code blocks of a Markdown text: (language, body).
fn code_blocks(markdown: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if let Some(fence) = trimmed.strip_prefix("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some((fence.trim().to_string(), String::new())),
            }
            continue;
        }
        if let Some((_, body)) = current.as_mut() {
            body.push_str(trimmed);
            body.push('\n');
        }
    }
    blocks
}

/// Whether a command line still holds a placeholder to fill in.
fn has_placeholder(line: &str) -> bool {
    line.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .any(|word| word.len() > 1 && word.chars().all(|c| c.is_ascii_uppercase()))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn every_lua_block_loads_and_passes_its_games_schema() {
    let readme = std::fs::read_to_string(common::repo_path("README.md")).unwrap();
    let registry = tessera_builtin::registry();
    let mut checked = 0;
    for (language, body) in code_blocks(&readme) {
        if language != "lua" {
            continue;
        }
        let path = body
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("-- "))
            .expect("a Lua block starts with `-- scripts/<game>.lua`");
        let script = Script::load(Path::new(path), &body, None, ScriptLimits::default())
            .unwrap_or_else(|e| panic!("README block {path}: {e}"));
        let game = Path::new(path)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap();
        let entry = registry.get(game).expect("the block names a game");
        script
            .validate(&entry.script_schema())
            .unwrap_or_else(|e| panic!("README block {path}: {e}"));
        checked += 1;
    }
    assert!(checked >= 1, "the README shows a script");
}

#[test]
fn every_tessera_command_in_the_readme_runs() {
    let readme = std::fs::read_to_string(common::repo_path("README.md")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for folder in ["scripts", "levels", "tests/replays"] {
        copy_dir(&common::repo_path(folder), &dir.path().join(folder));
    }
    let mut ran = 0;
    for (language, body) in code_blocks(&readme) {
        if language != "sh" {
            continue;
        }
        for line in body.lines() {
            let Some(args) = line.strip_prefix("tessera ") else {
                continue;
            };
            if has_placeholder(line) || args.starts_with("watch") {
                continue;
            }
            let output = Command::new(env!("CARGO_BIN_EXE_tessera"))
                .args(args.split_whitespace())
                .current_dir(dir.path())
                .output()
                .unwrap();
            assert_eq!(
                output.status.code(),
                Some(0),
                "`{line}` failed:\n{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 3, "the README shows runnable commands ({ran} ran)");
}

#[test]
fn placeholders_are_recognised() {
    assert!(has_placeholder("tessera check PATH..."));
    assert!(has_placeholder("tessera play GAME --seed N"));
    assert!(!has_placeholder(
        "tessera replay tests/replays/sand/a.replay.ron"
    ));
}
