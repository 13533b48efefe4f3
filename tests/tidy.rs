//! Tidy: the architecture's invariants (ARCHITECTURE.md) as tests that fail
//! when the code breaks them, in the manner of rust-analyzer's tidy tests.
//!
//! - The host and the editor shell name no game: games come from the one
//!   list in `engine/builtin`.
//! - Every registered game has a UI (its own or the editor's generic view),
//!   at least three replays in `tests/replays/<id>/`, and the inputs the
//!   hostile suite mutates (its levels and its script).
//! - Every input file is read through the host's capped reader.
//! - Typed errors are not flattened into strings (`anyhow!("{e}")`).

mod common;

use std::path::{Path, PathBuf};

/// The ids of the built-in games.
fn game_ids() -> Vec<&'static str> {
    tessera_builtin::registry().iter().map(|e| e.id).collect()
}

/// Every `.rs` file under `dir`, recursively, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The lines of product code in a file, numbered from 1: comments and the
/// test module (from `#[cfg(test)]` on) left out.
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .map(|(i, line)| (i + 1, line))
        .collect()
}

/// Where `text` names one of the games in code: a string literal `"id"` or
/// the game's crate `tessera_id`.
fn games_named(text: &str, ids: &[&str]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (line_number, line) in code_lines(text) {
        for id in ids {
            if line.contains(&format!("\"{id}\"")) || line.contains(&format!("tessera_{id}")) {
                found.push((line_number, (*id).to_string()));
            }
        }
    }
    found
}

/// The files of the host and the editor shell (a game's UI lives with the
/// game, not in the shell).
fn shell_files(root: &Path) -> Vec<PathBuf> {
    let mut files = rust_files(&root.join("engine/host/src"));
    files.extend(rust_files(&root.join("editor/src")));
    // The CLI's commands that drive any game through the host.
    for generic in ["play", "replay", "check", "watch", "games", "mod"] {
        files.push(root.join(format!("src/commands/{generic}.rs")));
    }
    files
}

#[test]
fn the_host_and_the_editor_shell_name_no_game() {
    let root = common::repo_root();
    let ids = game_ids();
    let mut found = Vec::new();
    for file in shell_files(&root) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (line, id) in games_named(&text, &ids) {
            let shown = file.strip_prefix(&root).unwrap_or(&file).display();
            found.push(format!("{shown}:{line}: names the game `{id}`"));
        }
    }
    assert!(
        found.is_empty(),
        "the host and the editor shell must not name a game (the list is \
         engine/builtin's; game code lives in the game's crates):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_game_name_check_sees_literals_and_crates_but_not_comments() {
    let ids = ["tetris", "azul"];
    let text = "// tetris in a comment is fine\nlet id = \"tetris\";\nuse tessera_azul::Azul;\nlet t = \"tetrises\";\n#[cfg(test)]\nlet x = \"azul\";\n";
    assert_eq!(
        games_named(text, &ids),
        vec![(2, "tetris".to_string()), (3, "azul".to_string())]
    );
}

#[test]
fn every_game_has_three_replays_and_the_inputs_the_hostile_suite_mutates() {
    let root = common::repo_root();
    let mut missing = Vec::new();
    for id in game_ids() {
        let replays = std::fs::read_dir(root.join("tests/replays").join(id))
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| e.file_name().to_string_lossy().ends_with(".replay.ron"))
                    .count()
            })
            .unwrap_or(0);
        if replays < 3 {
            missing.push(format!(
                "{id}: {replays} replays in tests/replays/{id}/ (at least 3: play it in the editor and press Save as test)"
            ));
        }
        let levels = std::fs::read_dir(root.join("levels").join(id))
            .map(|entries| entries.flatten().count())
            .unwrap_or(0);
        if levels == 0 {
            missing.push(format!(
                "{id}: no level in levels/{id}/ for the hostile suite"
            ));
        }
        if !root.join(format!("scripts/{id}.lua")).is_file() {
            missing.push(format!("{id}: no scripts/{id}.lua"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Reads that bypass the host's capped reader (`tessera_host::level`).
const UNCAPPED_READS: &[&str] = &[
    "fs::read_to_string(",
    "fs::read(",
    "File::open(",
    "io::read_to_string(",
];

#[test]
fn every_input_is_read_through_the_hosts_capped_reader() {
    let root = common::repo_root();
    let mut files = rust_files(&root.join("src"));
    files.extend(rust_files(&root.join("editor/src")));
    files.extend(rust_files(&root.join("engine")));
    let reader = root.join("engine/host/src/level.rs");
    let mut found = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&root).unwrap_or(&file).to_path_buf();
        let is_test = relative.components().any(|c| {
            matches!(
                c.as_os_str().to_str(),
                Some("tests" | "benches" | "testkit")
            )
        }) || relative.file_name().is_some_and(|n| n == "tests.rs");
        if file == reader || is_test {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (line, code) in code_lines(&text) {
            if let Some(call) = UNCAPPED_READS.iter().find(|call| code.contains(*call)) {
                found.push(format!("{}:{line}: `{call}`", relative.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "inputs are read through tessera_host::level::read_text / read_bytes_capped \
         (16 MiB cap, regular files only):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn typed_errors_are_not_flattened_into_strings() {
    let root = common::repo_root();
    let mut files = rust_files(&root.join("src"));
    files.extend(rust_files(&root.join("editor")));
    files.extend(rust_files(&root.join("engine")));
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (line, code) in code_lines(&text) {
            if code.contains("anyhow!(\"{e}\")") || code.contains("anyhow!(\"{e:#}\")") {
                let shown = file.strip_prefix(&root).unwrap_or(&file).display();
                found.push(format!("{shown}:{line}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "keep the error's type (`?`, `anyhow::Error::from`, `.context(..)`) instead of \
         `anyhow!(\"{{e}}\")`:\n  {}",
        found.join("\n  ")
    );
}

/// The `mod name;` declarations of a Rust file (with an optional `#[path]`
/// attribute on the line before), as the files they load.
fn declared_module_files(file: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    // A `mod.rs`, `main.rs` or `lib.rs` declares its children beside it;
    // `name.rs` declares them in `name/`.
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let folder = file.parent().unwrap_or(Path::new("."));
    let children = if matches!(stem, "mod" | "main" | "lib") {
        folder.to_path_buf()
    } else {
        folder.join(stem)
    };
    let mut out = Vec::new();
    let mut path_attribute: Option<String> = None;
    for line in text.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
        if let Some(rest) = line.strip_prefix("#[path = \"") {
            path_attribute = rest.strip_suffix("\"]").map(str::to_string);
            continue;
        }
        let declaration = line.strip_prefix("pub ").unwrap_or(line);
        let Some(name) = declaration
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(';'))
        else {
            if !line.starts_with("#[") {
                path_attribute = None;
            }
            continue;
        };
        match path_attribute.take() {
            Some(path) => out.push(folder.join(path)),
            None => {
                let flat = children.join(format!("{name}.rs"));
                out.push(if flat.exists() {
                    flat
                } else {
                    children.join(name).join("mod.rs")
                });
            }
        }
    }
    out
}

/// One test binary per crate: every `.rs` file in a `tests/` folder is a
/// module of that folder's test binary (`tests/main.rs`, compiled into the
/// crate's unit tests or, at the root, the `workspace` binary) or the root's
/// own `tests/tidy.rs`. A file nobody declares would silently never run.
#[test]
fn every_test_file_is_compiled_into_its_crates_one_test_binary() {
    let root = common::repo_root();
    let mut test_folders = vec![root.join("tests"), root.join("editor/tests")];
    for parent in ["engine", "engine/games"] {
        for entry in std::fs::read_dir(root.join(parent))
            .into_iter()
            .flatten()
            .flatten()
        {
            if entry.path().join("tests").is_dir() {
                test_folders.push(entry.path().join("tests"));
            }
        }
    }
    let mut stray = Vec::new();
    for folder in test_folders {
        let mut reached = std::collections::BTreeSet::new();
        let mut todo = vec![folder.join("main.rs"), folder.join("tidy.rs")];
        while let Some(file) = todo.pop() {
            let Ok(file) = file.canonicalize() else {
                continue;
            };
            if reached.insert(file.clone()) {
                todo.extend(declared_module_files(&file));
            }
        }
        for file in rust_files(&folder) {
            let canonical = file.canonicalize().unwrap_or(file.clone());
            if !reached.contains(&canonical) {
                stray.push(
                    file.strip_prefix(&root)
                        .unwrap_or(&file)
                        .display()
                        .to_string(),
                );
            }
        }
    }
    assert!(
        stray.is_empty(),
        "test files no test binary compiles (declare each as `mod` in its tests/main.rs): {stray:?}"
    );
}
