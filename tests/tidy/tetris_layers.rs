//! The Tetris crate's three layers (the crate's own doc,
//! `engine/games/tetris/src/lib.rs`, and ARCHITECTURE.md): the rules never
//! import the bot (`src/bot/`); the AI (`src/bot/ai/`) reads the rules'
//! pieces, board, move generator and feed rules and nothing else of the
//! game; the glue (the rest of the bot, and `lib.rs`, whose marked
//! hand-over block names the bot) may import both. Every
//! source file of the crate is in one layer, so a new file is placed on
//! purpose.

/// The crate's source folder, from the root.
const SOURCE: &str = "engine/games/tetris/src";

/// The rules: what a game of Tetris is, without any player.
const RULES: &[&str] = &[
    "piece.rs",
    "board.rs",
    "movegen.rs",
    "movegen/",
    "rules.rs",
    "level.rs",
    "flow.rs",
    "settings.rs",
    "solver.rs",
    "generate/",
    "scenarios.rs",
    "report.rs",
    "feed.rs",
    "feed_rules.rs",
    "sim.rs",
];

/// The AI: evaluator, searches, feeders, its log and its settings reader.
const AI: &[&str] = &["bot/ai/"];

/// The plugin glue: the `Game` impl with its hand-over to the bot, and the
/// rest of the bot (agents, its checks of seats and levels, its memory of
/// each game, the campaign sweep, commands).
const GLUE: &[&str] = &["lib.rs", "bot/"];

/// What the AI may name of the crate: itself and the rules it plays on.
const AI_READS: &[&str] = &["bot::ai", "board", "movegen", "piece", "feed_rules"];

/// The layer of a source file (its path under [`SOURCE`]).
fn layer_of(relative: &str) -> Option<&'static str> {
    let holds = |entry: &&str| {
        if entry.ends_with('/') {
            relative.starts_with(entry)
        } else {
            relative == *entry
        }
    };
    [("rules", RULES), ("AI", AI), ("glue", GLUE)]
        .into_iter()
        .find(|(_, entries)| entries.iter().any(holds))
        .map(|(layer, _)| layer)
}

/// The identifier at the start of `text` (letters, digits, `_`); for the
/// bot's folder, with the module in it (`bot::ai`), since its parts are
/// of different layers.
fn identifier(text: &str) -> String {
    let word = |text: &str| {
        let end = text
            .find(|c: char| !c.is_alphanumeric() && c != '_')
            .unwrap_or(text.len());
        text[..end].to_string()
    };
    let first = word(text);
    match text[first.len()..].strip_prefix("::") {
        Some(rest) if first == "bot" => format!("bot::{}", word(rest)),
        _ => first,
    }
}

/// The crate's top-level modules and items that product code names by a
/// path from the root, with their lines: the first segment after each
/// `crate::` (each entry's of a `crate::{a::b, c}` group). `depth` is the
/// file's module depth (`board.rs` and `ai/mod.rs` 1, `ai/log.rs` 2), so
/// `super::` that many times is read as `crate::`.
fn crate_paths(text: &str, depth: usize) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    // A `use` group may span lines: read the code as one text, each byte
    // numbered by its line.
    let mut code = String::new();
    let mut line_of = Vec::new();
    for (number, line) in super::code_lines(text) {
        code.push_str(&rooted(line, depth));
        code.push('\n');
        line_of.resize(code.len(), number);
    }
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let Some(group) = rest.strip_prefix('{') else {
            found.push((line_of[at], identifier(rest)));
            continue;
        };
        // Each top-level entry of the group: `a::b`, `c`, `d::{e, f}`.
        let (mut level, mut entry_start) = (0, true);
        for (offset, c) in group.char_indices() {
            match c {
                '{' => level += 1,
                '}' if level == 0 => break,
                '}' => level -= 1,
                ',' if level == 0 => entry_start = true,
                c if entry_start && !c.is_whitespace() => {
                    entry_start = false;
                    let name = identifier(&group[offset..]);
                    let byte = at + "crate::{".len() + offset;
                    found.push((line_of[byte], name));
                }
                _ => {}
            }
        }
    }
    found
}

/// `line` with each run of exactly `depth` `super::`s (the crate's root,
/// from a module that deep) written as `crate::`.
fn rooted(line: &str, depth: usize) -> String {
    const SUPER: &str = "super::";
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(SUPER) {
        out.push_str(&rest[..at]);
        let run = rest.as_bytes()[at..]
            .chunks(SUPER.len())
            .take_while(|chunk| *chunk == SUPER.as_bytes())
            .count();
        let (supers, after) = rest[at..].split_at(run * SUPER.len());
        out.push_str(if run == depth { "crate::" } else { supers });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[test]
fn tetris_rules_never_import_the_bot() {
    let root = super::common::repo_root();
    let source = root.join(SOURCE);
    let mut found = Vec::new();
    for file in super::rust_files(&source) {
        let relative = file
            .strip_prefix(&source)
            .unwrap_or(&file)
            .display()
            .to_string();
        let shown = format!("{SOURCE}/{relative}");
        let Some(layer) = layer_of(&relative) else {
            found.push(format!(
                "{shown}: in no layer (add it to RULES, AI or GLUE in tests/tidy/tetris_layers.rs \
                 and to the crate's doc)"
            ));
            continue;
        };
        // `board.rs` is 1 deep, `bot/ai/mod.rs` 2, `bot/ai/log.rs` 3.
        let depth = super::imports::module_of(&source, &file).len();
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (line, name) in crate_paths(&text, depth) {
            match layer {
                "rules" if name.starts_with("bot") => found.push(format!(
                    "{shown}:{line}: a rules module imports the bot (`crate::{name}`)"
                )),
                "AI" if !AI_READS.contains(&name.as_str()) => found.push(format!(
                    "{shown}:{line}: the AI imports `crate::{name}` (it may read only {})",
                    AI_READS.join(", ")
                )),
                _ => {}
            }
        }
    }
    assert!(
        found.is_empty(),
        "the Tetris bot stays apart from the rules (ARCHITECTURE.md, the crate's doc):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_layer_check_reads_paths_groups_and_super() {
    let text = "use crate::{bot::ai::Difficulty, board::Board};\n// crate::sim in a comment\nlet x = crate::piece::I;\nuse super::super::feed;\nuse crate::{\n    level,\n    rules::{Field, Lock},\n};\nuse crate::bot::agents;\n";
    let names = |depth| {
        crate_paths(text, depth)
            .into_iter()
            .map(|(line, name)| format!("{line}:{name}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(2),
        [
            "1:bot::ai",
            "1:board",
            "3:piece",
            "4:feed",
            "6:level",
            "7:rules",
            "9:bot::agents"
        ]
    );
    assert_eq!(
        names(1),
        [
            "1:bot::ai",
            "1:board",
            "3:piece",
            "6:level",
            "7:rules",
            "9:bot::agents"
        ]
    );
    assert_eq!(layer_of("movegen/hard_drops.rs"), Some("rules"));
    assert_eq!(layer_of("bot/ai/log.rs"), Some("AI"));
    assert_eq!(layer_of("bot/agents.rs"), Some("glue"));
    assert_eq!(layer_of("feed.rs"), Some("rules"));
    assert_eq!(layer_of("brand_new.rs"), None);
}
