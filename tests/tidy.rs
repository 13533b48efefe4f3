//! Tidy: the architecture's invariants (ARCHITECTURE.md) as tests that fail
//! when the code breaks them, in the manner of rust-analyzer's tidy tests.
//!
//! - Dependencies run the way ARCHITECTURE.md draws them (read from `cargo
//!   metadata`): the CLI and the editor depend on no game crate, a game's
//!   crate on the host only, its UI crate on the host, the UI contract and
//!   its own game, and only UI crates on egui.
//! - No code outside a game's folder and `engine/builtin` names a game: the
//!   host, the UI contract, the testkit, the CLI shell and the editor shell
//!   (their test modules excepted: fixtures); and no test outside the
//!   game's own fixtures ([`GAME_FIXTURES`]) names a game's crate.
//! - Source files and functions stay small ([`MAX_FILE_LINES`],
//!   [`MAX_FN_LINES`]).
//! - Every registered game has a UI (its own or the editor's generic view),
//!   at least three replays in `tests/replays/<id>/`, and the inputs the
//!   hostile suite mutates (its levels and its script).
//! - Every input file is read through the host's capped reader.
//! - Typed errors are not flattened into strings (`anyhow!("{e}")`).
//! - No import circle in the host, and no import that runs back up its
//!   layers ([`imports`]).
//! - No trait in the host has more than fifteen items, none sums more than
//!   three host traits, and no type implements a host capability it lacks
//!   (an empty impl) ([`traits`]).
//! - The Tetris rules never import the Tetris AI ([`tetris_layers`]).
//! - Rules use no clock and no unseeded randomness, an agent decides
//!   without Lua, every game start goes through the project
//!   ([`invariants`]).

mod common;
#[path = "tidy/imports.rs"]
mod imports;
#[path = "tidy/invariants.rs"]
mod invariants;
#[path = "tidy/tetris_layers.rs"]
mod tetris_layers;
#[path = "tidy/traits.rs"]
mod traits;

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

/// The folders whose product code must name no game: every source folder
/// outside a game's folder (`engine/games/<id>/`) and the one list
/// (`engine/builtin`). Their test modules may use a game's id as data, but
/// not its crate.
const GAME_FREE: &[&str] = &[
    "src",
    "editor/src",
    "engine/host/src",
    "engine/ui/src",
    "engine/ui/testkit/src",
    "engine/testkit/src",
];

/// The test folders outside a game's folder: a game's id is data there
/// (a replay's folder, a command line), its crate only in [`GAME_FIXTURES`].
const GAME_FREE_TESTS: &[&str] = &[
    "tests",
    "editor/tests",
    "engine/host/tests",
    "engine/host/benches",
];

/// The tests that may name a game's crate: a game's own fixtures, each with
/// why. Game ids as data (`tests/replays/<id>/`, `levels/<id>/`, a
/// command line such as `sim azul`) are fixtures anywhere under `tests/`.
const GAME_FIXTURES: &[(&str, &str)] = &[
    (
        "tests/tetris_cli.rs",
        "`tessera tetris explain` needs AI logs built by the game",
    ),
    (
        "tests/hostile/generated.rs",
        "mutates a Tetris AI log for `tessera tetris explain`",
    ),
    (
        "tests/hostile/reproducers/",
        "each reproducer is one game's hostile input",
    ),
    (
        "editor/tests/tetris_feed.rs",
        "the Tetris playtest's feed mode",
    ),
    (
        "editor/tests/playtest_undo.rs",
        "undo checked on a Tetris session's concrete state",
    ),
    ("tests/tidy.rs", "this file's own check of the check"),
    (
        "tests/tidy/tetris_layers.rs",
        "checks what the Tetris bot may name of the rules' crate",
    ),
];

/// Code lines naming a game's crate (`tessera_<id>`), numbered from 1.
fn game_crates_named(text: &str, ids: &[&str]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for id in ids {
            if line.contains(&format!("tessera_{id}")) {
                found.push((number + 1, format!("tessera_{id}")));
            }
        }
    }
    found
}

#[test]
fn no_code_outside_a_games_folder_names_a_game() {
    let root = common::repo_root();
    let ids = game_ids();
    let shown = |file: &Path| {
        file.strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string()
    };
    let mut found = Vec::new();
    for folder in GAME_FREE {
        for file in rust_files(&root.join(folder)) {
            let text = std::fs::read_to_string(&file).expect("a source file");
            for (line, id) in games_named(&text, &ids) {
                found.push(format!("{}:{line}: names the game `{id}`", shown(&file)));
            }
            // The test module (after the product code): ids are data there.
            let product_end = code_lines(&text).last().map_or(0, |(line, _)| *line);
            for (line, name) in game_crates_named(&text, &ids) {
                if line > product_end {
                    found.push(format!(
                        "{}:{line}: names the game crate `{name}`",
                        shown(&file)
                    ));
                }
            }
        }
    }
    for folder in GAME_FREE_TESTS {
        for file in rust_files(&root.join(folder)) {
            let relative = shown(&file);
            if GAME_FIXTURES
                .iter()
                .any(|(fixture, _)| relative.starts_with(fixture))
            {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("a source file");
            for (line, name) in game_crates_named(&text, &ids) {
                found.push(format!("{relative}:{line}: names the game crate `{name}`"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "only a game's folder and engine/builtin name a game (the list is \
         engine/builtin/games.rs; a game's code, its commands included, lives in \
         engine/games/<id>/; a test that needs a game's crate is one of GAME_FIXTURES):\n  {}",
        found.join("\n  ")
    );
}

/// Every workspace package: its name, its manifest's folder relative to
/// the root, and the names of its normal (not dev, not build) dependencies.
fn workspace_packages() -> Vec<(String, String, Vec<String>)> {
    let root = common::repo_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(&root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    let mut packages = Vec::new();
    for package in metadata["packages"].as_array().expect("a package list") {
        let name = package["name"].as_str().unwrap_or_default().to_string();
        let manifest = Path::new(package["manifest_path"].as_str().unwrap_or_default());
        let folder = manifest
            .parent()
            .and_then(|folder| folder.strip_prefix(&root).ok())
            .map(|folder| folder.display().to_string())
            .unwrap_or_default();
        let normal = package["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["kind"].is_null())
            .filter_map(|d| d["name"].as_str().map(str::to_string))
            .collect();
        packages.push((name, folder, normal));
    }
    packages
}

/// Which way a workspace package may depend, by where it lives: the
/// workspace crates it may name (`None`: not limited here), and whether it
/// may use egui.
fn allowed(folder: &str) -> (Option<Vec<String>>, bool) {
    let list = |names: &[&str]| Some(names.iter().map(|s| s.to_string()).collect());
    let parts: Vec<&str> = folder.split('/').collect();
    match parts.as_slice() {
        // The CLI shell: the host and the one list.
        [""] => (list(&["tessera-host", "tessera-builtin"]), false),
        ["editor"] => (
            list(&[
                "tessera-host",
                "tessera-builtin",
                "tessera-builtin-ui",
                "tessera-ui",
            ]),
            true,
        ),
        ["engine", "host"] => (list(&[]), false),
        ["engine", "testkit"] | ["engine", "games", _] => (list(&["tessera-host"]), false),
        ["engine", "ui"] => (list(&["tessera-host"]), true),
        // The UI crates' kittest rig: the UI contract and the testkit.
        ["engine", "ui", "testkit"] => (
            list(&["tessera-host", "tessera-ui", "tessera-testkit"]),
            true,
        ),
        // An AI crate beside a game's rules (Tetris's bot): the host and
        // the rules it plays, no UI.
        ["engine", "games", id, "bot"] => (
            Some(vec!["tessera-host".to_string(), format!("tessera-{id}")]),
            false,
        ),
        // A game's UI shows its rules and, where it has one, its bot's work.
        ["engine", "games", id, "ui"] => (
            Some(vec![
                "tessera-host".to_string(),
                "tessera-ui".to_string(),
                format!("tessera-{id}"),
                format!("tessera-{id}-bot"),
            ]),
            true,
        ),
        // The one list: checked below to name only game crates, the host
        // and the UI contract.
        ["engine", "builtin"] => (None, false),
        ["engine", "builtin", "ui"] => (None, true),
        // Measuring tools (tools/) may use any engine crate.
        _ => (None, true),
    }
}

#[test]
fn dependencies_run_the_way_the_architecture_draws_them() {
    let packages = workspace_packages();
    let workspace: Vec<&str> = packages.iter().map(|(name, _, _)| name.as_str()).collect();
    let game_crate = |dep: &str| {
        packages
            .iter()
            .any(|(name, folder, _)| name == dep && folder.starts_with("engine/games/"))
    };
    let mut wrong = Vec::new();
    for (name, folder, deps) in &packages {
        let (crates, egui) = allowed(folder);
        for dep in deps {
            let ui_library = dep == "egui" || dep == "eframe" || dep.starts_with("egui_");
            if ui_library && !egui {
                wrong.push(format!(
                    "{name} ({folder}/) depends on {dep}: rules and the host know no UI"
                ));
            }
            if !workspace.contains(&dep.as_str()) {
                continue;
            }
            let fits = match &crates {
                Some(list) => list.contains(dep),
                None if folder.starts_with("engine/builtin") => {
                    game_crate(dep) || dep == "tessera-host" || dep == "tessera-ui"
                }
                None => true,
            };
            if !fits {
                wrong.push(format!("{name} ({folder}/) depends on {dep}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies must run as ARCHITECTURE.md draws them (the CLI and the editor reach \
         games through engine/builtin only; a game's crate depends on the host only):\n  {}",
        wrong.join("\n  ")
    );
}

/// The most lines of product code a source file may hold (before its test
/// module): the largest today is about 820; split a file before it grows
/// past this.
const MAX_FILE_LINES: usize = 850;

/// The most lines a function may span: the largest today is about 190.
const MAX_FN_LINES: usize = 200;

/// Functions longer than `limit` lines in `text`: `(line, name, lines)`. A
/// function ends at the first line that closes its indentation (`}` at the
/// column of `fn`), as rustfmt lays code out.
fn long_functions(text: &str, limit: usize) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(at) = trimmed.find("fn ") else {
            continue;
        };
        let head = &trimmed[..at];
        let is_item = head.split_whitespace().all(|word| {
            matches!(word, "pub" | "const" | "async" | "unsafe" | "extern")
                || word.starts_with("pub(")
        });
        if !is_item || trimmed.ends_with(';') {
            continue;
        }
        let indent = &line[..line.len() - trimmed.len()];
        let closing = format!("{indent}}}");
        if let Some(end) = lines[start + 1..].iter().position(|l| *l == closing) {
            let span = end + 2;
            if span > limit {
                let name = trimmed[at + 3..]
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .next()
                    .unwrap_or_default()
                    .to_string();
                found.push((start + 1, name, span));
            }
        }
    }
    found
}

#[test]
fn files_and_functions_stay_small() {
    let root = common::repo_root();
    let mut files = rust_files(&root.join("src"));
    files.extend(rust_files(&root.join("editor/src")));
    files.extend(rust_files(&root.join("engine")));
    files.extend(rust_files(&root.join("examples")));
    let mut found = Vec::new();
    for file in files {
        let relative = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        if relative.contains("/tests/")
            || relative.contains("/benches/")
            || relative.ends_with("/tests.rs")
        {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        let product = code_lines(&text).last().map_or(0, |(line, _)| *line);
        if product > MAX_FILE_LINES {
            found.push(format!(
                "{relative}: {product} lines (at most {MAX_FILE_LINES} before the test module)"
            ));
        }
        let body: String = text
            .lines()
            .take_while(|line| line.trim() != "#[cfg(test)]")
            .map(|line| format!("{line}\n"))
            .collect();
        for (line, name, span) in long_functions(&body, MAX_FN_LINES) {
            found.push(format!(
                "{relative}:{line}: fn {name} spans {span} lines (at most {MAX_FN_LINES})"
            ));
        }
    }
    assert!(found.is_empty(), "split these:\n  {}", found.join("\n  "));
}

#[test]
fn the_size_check_measures_a_function_to_its_closing_brace() {
    let text = "fn short() {\n    1\n}\n\npub(crate) fn long() {\n    a();\n    b();\n}\n";
    assert_eq!(long_functions(text, 3), vec![(5, "long".to_string(), 4)]);
    assert!(long_functions(text, 4).is_empty());
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
    files.extend(rust_files(&root.join("examples")));
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
