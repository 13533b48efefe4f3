//! The rules stay free of the bot (issue #48, step 1): no module of the
//! crate outside `src/bot/` names `bot::`, except `lib.rs`'s `pub mod bot;`
//! and its marked hand-over block (the agents and checks the game's
//! capability impls hand the host), which step 2 moves to the host's
//! registrar. A stand-in for what Cargo enforces once the bot is a crate
//! of its own that the rules do not depend on.

use std::path::{Path, PathBuf};

const BEGIN: &str = "// BOT HAND-OVER BEGIN";
const END: &str = "// BOT HAND-OVER END";

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).expect("a source folder");
        for entry in entries {
            let path = entry.expect("a folder entry").path();
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

/// The lines of a rules file `text` that name the bot, as `line: text`;
/// `hand_over` allows the marked block (and `pub mod bot;`), which only
/// `lib.rs` may have.
fn bot_mentions(text: &str, hand_over: bool) -> Vec<String> {
    let mut found = Vec::new();
    let mut inside = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with(BEGIN) || trimmed.starts_with(END) {
            if !hand_over {
                found.push(format!("{}: a hand-over marker outside lib.rs", i + 1));
            }
            inside = trimmed.starts_with(BEGIN);
            continue;
        }
        if hand_over && (inside || trimmed == "pub mod bot;") {
            continue;
        }
        let names_the_bot = line.contains("bot::")
            || trimmed == "mod bot;"
            || trimmed.starts_with("pub mod bot")
            || (trimmed.starts_with("use ") && (line.contains("{bot") || line.contains(" bot,")));
        if names_the_bot {
            found.push(format!("{}: {trimmed}", i + 1));
        }
    }
    found
}

#[test]
fn rules_modules_never_name_the_bot() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bot = source.join("bot");
    let mut found = Vec::new();
    let mut rules_files = 0;
    for file in rust_files(&source) {
        if file.starts_with(&bot) {
            continue;
        }
        rules_files += 1;
        let text = std::fs::read_to_string(&file).expect("a source file");
        let is_lib = file == source.join("lib.rs");
        if is_lib {
            assert_eq!(
                (text.matches(BEGIN).count(), text.matches(END).count()),
                (1, 1),
                "lib.rs has one marked hand-over block"
            );
        }
        let shown = file.strip_prefix(&source).unwrap_or(&file).display();
        for mention in bot_mentions(&text, is_lib) {
            found.push(format!("src/{shown}:{mention}"));
        }
    }
    // The rules are most of the crate's files: a walk that found none
    // would pass for the wrong reason.
    assert!(rules_files >= 15, "{rules_files} rules files");
    assert!(
        found.is_empty(),
        "rules modules name the bot (move the code to src/bot/, or, for what the host needs \
         from the bot, to lib.rs's hand-over block):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_bot_check_flags_paths_and_allows_only_the_marked_block() {
    let text = "use crate::board::Board;\nuse crate::bot::ai::Position;\n// BOT HAND-OVER BEGIN\nfn a() { bot::agents::spec(s) }\n// BOT HAND-OVER END\nlet x = bot::feed::position(&s);\npub mod bot;\nuse crate::{board, bot, piece};\n";
    assert_eq!(
        bot_mentions(text, true),
        [
            "2: use crate::bot::ai::Position;",
            "6: let x = bot::feed::position(&s);",
            "8: use crate::{board, bot, piece};",
        ]
    );
    let outside_lib = bot_mentions(text, false);
    assert_eq!(outside_lib.len(), 7, "{outside_lib:?}");
    assert_eq!(outside_lib[1], "3: a hand-over marker outside lib.rs");
}
