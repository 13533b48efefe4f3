//! The Tetris rules and bot apart (issue #48; the crates' docs and
//! ARCHITECTURE.md): the bot (`tessera-tetris-bot`) depends on the rules
//! (`tessera-tetris`) and the rules never name the bot, not even as a
//! dev-dependency (which Cargo would allow); inside the bot, the AI
//! (`ai/`) reads the rules' pieces, board, move generator and feed rules
//! and nothing else of the game, and of the bot only itself. The rest of
//! the bot (agents, its checks, its memory of each game, the campaign,
//! commands) is the glue and may name anything.

/// The rules crate's folder, from the root.
const RULES: &str = "engine/games/tetris";

/// The bot crate's source folder, from the root.
const BOT_SOURCE: &str = "engine/games/tetris/bot/src";

/// The AI's folder in the bot's source.
const AI: &str = "ai/";

/// What the AI may name of the rules (`tessera_tetris::...`).
const AI_READS_OF_THE_RULES: &[&str] = &["board", "movegen", "piece", "feed_rules"];

/// The first identifier of `text` (letters, digits, `_`).
fn identifier(text: &str) -> String {
    let end = text
        .find(|c: char| !c.is_alphanumeric() && c != '_')
        .unwrap_or(text.len());
    text[..end].to_string()
}

/// The first segment after each `root` (`crate::` or `tessera_tetris::`)
/// that code names, with its line (each entry's of a `root{a::b, c}`
/// group). `depth` is the file's module depth (`feed.rs` and `ai/mod.rs`
/// 1, `ai/log.rs` 2), so `super::` that many times is read as `crate::`.
fn paths_from(text: &str, depth: usize, root: &str) -> Vec<(usize, String)> {
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
    for (at, _) in code.match_indices(root) {
        // `tessera_tetris_bot::` is not `tessera_tetris::`; a longer
        // identifier ending in the root is not the root either.
        if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + root.len()..];
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
                    let byte = at + root.len() + 1 + offset;
                    found.push((line_of[byte], identifier(&group[offset..])));
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
fn tetris_rules_never_name_the_bot() {
    let root = super::common::repo_root();
    let mut found = Vec::new();
    let manifest = format!("{RULES}/Cargo.toml");
    let text = std::fs::read_to_string(root.join(&manifest)).expect("the rules' manifest");
    for (number, line) in text.lines().enumerate() {
        if line.contains("tessera-tetris-bot") {
            found.push(format!("{manifest}:{}: {}", number + 1, line.trim()));
        }
    }
    // The rules' sources, tests, benches and examples (the bot's and the
    // UI's folders are crates of their own).
    let mut files = Vec::new();
    for folder in ["src", "tests", "benches", "examples"] {
        files.extend(super::rust_files(&root.join(RULES).join(folder)));
    }
    assert!(files.len() > 20, "the walk found the rules' files");
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (number, line) in super::code_lines(&text) {
            if line.contains("tessera_tetris_bot") {
                let shown = file.strip_prefix(&root).unwrap_or(&file).display();
                found.push(format!("{shown}:{number}: {}", line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the Tetris rules never name the bot (ARCHITECTURE.md, the crates' docs):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_tetris_ai_reads_only_pieces_board_movegen_and_feed_rules() {
    let root = super::common::repo_root();
    let source = root.join(BOT_SOURCE);
    let mut found = Vec::new();
    let mut ai_files = 0;
    for file in super::rust_files(&source) {
        let relative = file
            .strip_prefix(&source)
            .unwrap_or(&file)
            .display()
            .to_string();
        if !relative.starts_with(AI) {
            continue;
        }
        ai_files += 1;
        let shown = format!("{BOT_SOURCE}/{relative}");
        // `feed.rs` is 1 deep, `ai/mod.rs` 1, `ai/log.rs` 2.
        let depth = super::imports::module_of(&source, &file).len();
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (line, name) in paths_from(&text, depth, "crate::") {
            if name != "ai" {
                found.push(format!(
                    "{shown}:{line}: the AI names the bot's `crate::{name}` (it may name only itself)"
                ));
            }
        }
        for (line, name) in paths_from(&text, depth, "tessera_tetris::") {
            if !AI_READS_OF_THE_RULES.contains(&name.as_str()) {
                found.push(format!(
                    "{shown}:{line}: the AI names `tessera_tetris::{name}` (it may read only {})",
                    AI_READS_OF_THE_RULES.join(", ")
                ));
            }
        }
    }
    assert!(ai_files > 5, "the walk found the AI's files");
    assert!(
        found.is_empty(),
        "the Tetris AI reads only the rules' pieces, board, move generator and feed rules:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_layer_check_reads_paths_groups_and_super() {
    let text = "use crate::{ai::Difficulty, agents::Shelf};\n// crate::sim in a comment\nlet x = tessera_tetris::piece::I;\nuse super::super::feed;\nuse tessera_tetris::{\n    level,\n    rules::{Field, Lock},\n};\nuse tessera_tetris_bot::agents;\n";
    let names = |depth, root| {
        paths_from(text, depth, root)
            .into_iter()
            .map(|(line, name)| format!("{line}:{name}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(2, "crate::"), ["1:ai", "1:agents", "4:feed"]);
    assert_eq!(names(1, "crate::"), ["1:ai", "1:agents"]);
    assert_eq!(
        names(1, "tessera_tetris::"),
        ["3:piece", "6:level", "7:rules"]
    );
}
