//! ARCHITECTURE.md's invariants about the games' code that a machine can
//! read: rules use no clock and no unseeded randomness (determinism), an
//! agent decides without Lua (AI off the rules), and every game session a
//! product starts goes through the project (one start path).

use std::path::{Path, PathBuf};

use super::{code_lines, common, rust_files};

/// What would make a session depend on more than (level, script, seed,
/// options, steps): the wall clock and randomness from the machine.
const NOT_DETERMINISTIC: &[&str] = &[
    "Instant::now",
    "SystemTime",
    "thread_rng",
    "rand::rng()",
    "from_entropy",
    "from_os_rng",
    "OsRng",
];

/// Every game crate's source folder: the built-in games'
/// (`engine/games/<id>/src`, and an AI crate's beside the rules,
/// `engine/games/<id>/bot/src`) and those of the packages under
/// `examples/`, games from outside the list that keep the same rules.
fn game_sources(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ["engine/games", "examples"]
        .into_iter()
        .flat_map(|parent| std::fs::read_dir(root.join(parent)).into_iter().flatten())
        .flatten()
        // The rules' sources and an AI crate's beside them (Tetris's bot).
        .flat_map(|entry| [entry.path().join("src"), entry.path().join("bot/src")])
        .filter(|src| src.is_dir())
        .collect();
    out.sort();
    assert!(
        out.iter().any(|src| src.ends_with("tetris/bot/src")),
        "the sweeps read the Tetris bot's sources"
    );
    out
}

/// `file` relative to `root`, as a message shows it.
fn shown(root: &Path, file: &Path) -> String {
    file.strip_prefix(root)
        .unwrap_or(file)
        .display()
        .to_string()
}

#[test]
fn game_rules_use_no_clock_and_no_unseeded_randomness() {
    let root = common::repo_root();
    let mut found = Vec::new();
    for source in game_sources(&root) {
        for file in rust_files(&source) {
            // A game's commands (`src/cli/`, or its bot's `bot/src/cli/`)
            // time what they run: the program's edge, not the rules.
            if file
                .strip_prefix(&source)
                .is_ok_and(|f| f.starts_with("cli"))
            {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("a source file");
            for (line, code) in code_lines(&text) {
                if let Some(call) = NOT_DETERMINISTIC.iter().find(|c| code.contains(*c)) {
                    found.push(format!("{}:{line}: `{call}`", shown(&root, &file)));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "a game's rules and AI draw randomness from tessera_host::rng (seeded) and never \
         read the clock (a game's `cli/` may time its commands):\n  {}",
        found.join("\n  ")
    );
}

/// What calling Lua looks like in Rust.
const LUA: &[&str] = &["Script", "script", "mlua", "LiveScript"];

/// The first of `words` that `code` holds as a whole identifier.
fn word_in<'w>(code: &str, words: &[&'w str]) -> Option<&'w str> {
    code.split(|c: char| !c.is_alphanumeric() && c != '_')
        .find_map(|token| words.iter().find(|w| **w == token).copied())
}

/// The bodies of the functions named `name` in `text`, with their first
/// line: from `fn name(` to the `}` at the column of `fn`, as rustfmt lays
/// code out.
fn bodies<'a>(text: &'a str, name: &str) -> Vec<(usize, Vec<&'a str>)> {
    let lines: Vec<&str> = text.lines().collect();
    let head = format!("fn {name}(");
    let mut out = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        if !line.contains(&head) || line.trim_start().starts_with("//") {
            continue;
        }
        let indent = &line[..line.len() - line.trim_start().len()];
        let closing = format!("{indent}}}");
        if let Some(end) = lines[start + 1..].iter().position(|l| *l == closing) {
            out.push((start + 1, lines[start..start + end + 2].to_vec()));
        }
    }
    out
}

#[test]
fn an_agent_decides_without_lua() {
    let root = common::repo_root();
    let mut files: Vec<PathBuf> = game_sources(&root)
        .iter()
        .flat_map(|source| rust_files(source))
        .collect();
    files.extend(rust_files(&root.join("engine/testkit/src")));
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        let relative = shown(&root, &file);
        // An AI's own files, but its settings reader (which reads the
        // script on the game's thread, when the agent is built).
        let in_ai = relative.contains("/src/ai/") && !relative.ends_with("/settings.rs");
        if in_ai {
            for (line, code) in code_lines(&text) {
                if let Some(word) = word_in(code, LUA) {
                    found.push(format!("{relative}:{line}: the AI names `{word}`"));
                }
            }
        }
        if !text.contains(" Agent<") {
            continue;
        }
        for (start, body) in bodies(&text, "decide") {
            for (offset, code) in body.iter().enumerate() {
                let code = code.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                if let Some(word) = word_in(code, LUA) {
                    let line = start + offset;
                    found.push(format!("{relative}:{line}: `decide` names `{word}`"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "an agent is built on the game's thread (reading the script there) and decides \
         from a snapshot without Lua (ARCHITECTURE.md, AI off the rules):\n  {}",
        found.join("\n  ")
    );
}

/// How product code could start a session without the project's checks.
const OWN_STARTS: &[&str] = &["Recorded::start(", "Recorded::<", "::from_replay("];

#[test]
fn every_game_start_goes_through_the_project() {
    let root = common::repo_root();
    let mut files = rust_files(&root.join("src"));
    files.extend(rust_files(&root.join("editor/src")));
    files.extend(rust_files(&root.join("engine/ui/src")));
    files.extend(rust_files(&root.join("engine/builtin")));
    for source in game_sources(&root) {
        files.extend(rust_files(&source));
        // A game's UI (the bot's sources are among `game_sources`).
        if !source.ends_with("bot/src") {
            files.extend(rust_files(&source.with_file_name("ui").join("src")));
        }
    }
    let mut found = Vec::new();
    for file in files {
        let relative = shown(&root, &file);
        if relative.ends_with("/tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (line, code) in code_lines(&text) {
            if let Some(call) = OWN_STARTS.iter().find(|c| code.contains(*c)) {
                found.push(format!("{relative}:{line}: `{call}`"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "every game start, CLI or editor, goes through Project::start_session (or \
         Project::replay, Project::start_sim_session): the level read with the cap and \
         diagnosed, the script checked, the options resolved:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_body_reader_stops_at_the_functions_closing_brace() {
    let text = "impl Agent<G> for A {\n    fn decide(&mut self) {\n        go()\n    }\n\n    fn other() {\n        script()\n    }\n}\n";
    let found = bodies(text, "decide");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, 2);
    assert_eq!(found[0].1.len(), 3);
    assert!(!found[0].1.iter().any(|l| l.contains("script")));
    assert_eq!(word_in("let d = description;", LUA), None);
    assert_eq!(word_in("self.script.current()", LUA), Some("script"));
}

/// Issue 48: the checks a crate beside a game registers (its start
/// checks) run on every start only if the host has one place that calls
/// `Game::start`: `Capabilities::start`.
#[test]
fn the_host_calls_game_start_in_one_place() {
    let root = common::repo_root();
    let files = rust_files(&root.join("engine/host/src"));
    assert!(files.len() > 20, "the walk found the host's files");
    let mut found = Vec::new();
    for file in files {
        let relative = shown(&root, &file);
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (line, code) in code_lines(&text) {
            if code.contains("G::start(") || code.contains("Game>::start(") {
                found.push(format!("{relative}:{line}: {}", code.trim()));
            }
        }
    }
    assert_eq!(
        found.len(),
        1,
        "the host starts a game only in `Capabilities::start` (registrar.rs), which runs \
         the start checks registered beside the game first:\n  {}",
        found.join("\n  ")
    );
    assert!(
        found[0].starts_with("engine/host/src/registrar.rs:"),
        "{}",
        found[0]
    );
}
