//! README.md and every page under docs/ say only what is true:
//!
//! - Lua blocks load in the sandbox and pass the schema of the game their
//!   first line names (`-- scripts/<game>.lua`);
//! - each `tessera ...` line of a `sh` block runs on a copy of the project
//!   (one copy per page, the lines in order) and ends with the exit code it
//!   shows: 0, or the `N` of a trailing `# exit N`. A line ending in
//!   `# not run: why` is not run (a command that runs until Ctrl+C, or takes
//!   seconds). `> FILE` saves the line's output in the copy for a later line;
//! - relative links and images resolve, `#anchors` included;
//! - no page is over 800 lines, the README over 200;
//! - every game `tessera games` prints has its page, `docs/games/<id>.md`,
//!   listed in docs/SUMMARY.md;
//! - every subcommand of `tessera --help` (and of its groups, such as
//!   `tessera azul check`) has its section: the shell's in
//!   docs/guide/cli.md, a game's own on the game's page;
//! - every top-level key of a game's script is in the `## Script` section
//!   of its page (each game's tests check its nested tables).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tessera_host::{Script, ScriptLimits};

/// Longest page of the book.
const MOST_LINES_A_PAGE: usize = 800;
/// Longest README.
const MOST_LINES_README: usize = 200;

/// README.md and every Markdown page under docs/ (not the rendered book),
/// as paths relative to the repository's root.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, root: &Path, found: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|entry| entry.path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                if path.file_name().is_some_and(|name| name != "book") {
                    walk(&path, root, found);
                }
            } else if path.extension().is_some_and(|ext| ext == "md") {
                found.push(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let root = common::repo_root();
    let mut found = vec![PathBuf::from("README.md")];
    walk(&root.join("docs"), &root, &mut found);
    found
}

fn read_page(page: &Path) -> String {
    std::fs::read_to_string(common::repo_root().join(page))
        .unwrap_or_else(|e| panic!("{}: {e}", page.display()))
}

/// A fenced code block: its language, its first line's number and its body.
struct CodeBlock {
    language: String,
    line: usize,
    body: String,
}

/// The fenced code blocks of a Markdown text.
fn code_blocks(markdown: &str) -> Vec<CodeBlock> {
    let mut blocks = Vec::new();
    let mut current: Option<CodeBlock> = None;
    for (index, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(fence) = trimmed.strip_prefix("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => {
                    current = Some(CodeBlock {
                        language: fence.trim().to_string(),
                        line: index + 2,
                        body: String::new(),
                    })
                }
            }
            continue;
        }
        if let Some(block) = current.as_mut() {
            block.body.push_str(trimmed);
            block.body.push('\n');
        }
    }
    blocks
}

/// What a documented command line asks of the test.
#[derive(Debug, PartialEq)]
enum Expected {
    /// Run it and expect this exit code; `output` saves its stdout.
    Run {
        args: Vec<String>,
        code: i32,
        output: Option<String>,
    },
    /// Shown but not run, with the reason the page gives.
    NotRun(String),
}

/// Reads the page's convention off one `tessera ...` line (without the
/// leading `tessera `): `# exit N`, `# not run: why`, `> FILE`.
fn expected(args: &str) -> Result<Expected, String> {
    let (command, comment) = match args.split_once('#') {
        Some((command, comment)) => (command, Some(comment.trim())),
        None => (args, None),
    };
    let mut code = 0;
    match comment {
        None => {}
        Some(comment) => {
            if let Some(why) = comment.strip_prefix("not run:") {
                if why.trim().is_empty() {
                    return Err("`# not run:` needs a reason".into());
                }
                return Ok(Expected::NotRun(why.trim().to_string()));
            }
            let Some(number) = comment.strip_prefix("exit ") else {
                return Err(format!(
                    "unknown comment `# {comment}` (use `# exit N` or `# not run: why`)"
                ));
            };
            code = number
                .trim()
                .parse()
                .map_err(|_| format!("`# {comment}`: not an exit code"))?;
        }
    }
    let (command, output) = match command.split_once('>') {
        Some((command, file)) => (command, Some(file.trim().to_string())),
        None => (command, None),
    };
    if output
        .as_deref()
        .is_some_and(|f| f.is_empty() || f.contains(' '))
    {
        return Err("`>` needs one file name".into());
    }
    Ok(Expected::Run {
        args: command.split_whitespace().map(str::to_string).collect(),
        code,
        output,
    })
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

/// A fresh copy of the project's scripts, levels and replays.
fn project_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["scripts", "levels", "tests/replays"] {
        copy_dir(&common::repo_path(folder), &dir.path().join(folder));
    }
    dir
}

fn tessera(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn every_lua_block_loads_and_passes_its_games_schema() {
    let registry = tessera_builtin::registry();
    let mut checked = 0;
    for page in pages() {
        for block in code_blocks(&read_page(&page)) {
            if block.language != "lua" {
                continue;
            }
            let at = format!("{}:{}", page.display(), block.line);
            let path = block
                .body
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("-- "))
                .unwrap_or_else(|| panic!("{at}: a Lua block starts with `-- scripts/<game>.lua`"));
            let script = Script::load(Path::new(path), &block.body, None, ScriptLimits::default())
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            let game = Path::new(path)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            let entry = registry
                .get(game)
                .unwrap_or_else(|| panic!("{at}: no game `{game}`"));
            script
                .validate(&entry.script_schema())
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            checked += 1;
        }
    }
    assert!(checked >= 1, "the docs show a script ({checked} checked)");
}

#[test]
fn every_tessera_command_in_the_docs_ends_with_its_exit_code() {
    let mut ran = 0;
    let mut failures = Vec::new();
    for page in pages() {
        let dir = project_copy();
        for block in code_blocks(&read_page(&page)) {
            if block.language != "sh" {
                continue;
            }
            for (offset, line) in block.body.lines().enumerate() {
                let Some(args) = line.strip_prefix("tessera ") else {
                    continue;
                };
                let at = format!("{}:{}", page.display(), block.line + offset);
                let (args, code, output) = match expected(args) {
                    Err(why) => {
                        failures.push(format!("{at}: `{line}`: {why}"));
                        continue;
                    }
                    Ok(Expected::NotRun(_)) => continue,
                    Ok(Expected::Run { args, code, output }) => (args, code, output),
                };
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let result = tessera(&args, dir.path());
                if let Some(file) = output {
                    std::fs::write(dir.path().join(file), &result.stdout).unwrap();
                }
                if result.status.code() != Some(code) {
                    failures.push(format!(
                        "{at}: `{line}` ended with {:?}, the page shows {code}:\n{}{}",
                        result.status.code(),
                        String::from_utf8_lossy(&result.stdout),
                        String::from_utf8_lossy(&result.stderr)
                    ));
                }
                ran += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 20, "the docs show runnable commands ({ran} ran)");
}

#[test]
fn the_command_convention_is_read() {
    assert_eq!(
        expected("check levels").unwrap(),
        Expected::Run {
            args: vec!["check".into(), "levels".into()],
            code: 0,
            output: None
        }
    );
    assert_eq!(
        expected("play chess  # exit 2").unwrap(),
        Expected::Run {
            args: vec!["play".into(), "chess".into()],
            code: 2,
            output: None
        }
    );
    assert_eq!(
        expected("solve a.ron --count --shard 1/2 > shard-1.json").unwrap(),
        Expected::Run {
            args: ["solve", "a.ron", "--count", "--shard", "1/2"]
                .map(String::from)
                .to_vec(),
            code: 0,
            output: Some("shard-1.json".into())
        }
    );
    assert_eq!(
        expected("watch  # not run: runs until Ctrl+C").unwrap(),
        Expected::NotRun("runs until Ctrl+C".into())
    );
    assert!(expected("watch  # not run:").is_err());
    assert!(expected("watch  # slow").is_err());
    assert!(expected("games  # exit two").is_err());
}

/// The anchor a forge and mdBook give a heading: lower case, spaces to
/// hyphens, punctuation other than hyphens and underscores dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The page's text outside code: fenced blocks and inline code spans
/// blanked, so a link shown as code is not followed.
fn prose(markdown: &str) -> Vec<String> {
    let mut in_block = false;
    markdown
        .lines()
        .map(|line| {
            if line.trim_start().starts_with("```") {
                in_block = !in_block;
                return String::new();
            }
            if in_block {
                return String::new();
            }
            line.split('`')
                .enumerate()
                .map(|(i, part)| if i % 2 == 0 { part } else { "" })
                .collect()
        })
        .collect()
}

/// The anchors of a page's headings.
fn anchors(markdown: &str) -> Vec<String> {
    let mut in_block = false;
    let mut found = Vec::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        } else if !in_block && line.starts_with('#') {
            found.push(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// The targets of the Markdown links and images on one line of prose.
fn link_targets(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("](") {
        let after = &rest[start + 2..];
        let Some(end) = after.find(')') else {
            break;
        };
        targets.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    targets
}

#[test]
fn every_relative_link_and_image_resolves() {
    let root = common::repo_root();
    let mut checked = 0;
    let mut broken = Vec::new();
    for page in pages() {
        let text = read_page(&page);
        for (index, line) in prose(&text).iter().enumerate() {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let at = format!("{}:{}", page.display(), index + 1);
                let (file, fragment) = match target.split_once('#') {
                    Some((file, fragment)) => (file, Some(fragment)),
                    None => (target.as_str(), None),
                };
                let resolved = if file.is_empty() {
                    root.join(&page)
                } else {
                    root.join(page.parent().unwrap_or(Path::new(""))).join(file)
                };
                checked += 1;
                if !resolved.exists() {
                    broken.push(format!("{at}: `{target}`: no such file"));
                    continue;
                }
                if let Some(fragment) = fragment {
                    let linked = std::fs::read_to_string(&resolved).unwrap_or_default();
                    if !anchors(&linked).iter().any(|a| a == fragment) {
                        broken.push(format!("{at}: `{target}`: no heading `#{fragment}`"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    assert!(checked >= 50, "the docs link their pages ({checked} links)");
}

#[test]
fn links_anchors_and_code_are_read_as_a_forge_reads_them() {
    assert_eq!(
        anchor(" `tessera tetris explain`"),
        "tessera-tetris-explain"
    );
    assert_eq!(
        anchor("The 2x5x6 box against Knuth's DLX1"),
        "the-2x5x6-box-against-knuths-dlx1"
    );
    assert_eq!(
        link_targets("see [a](a.md#x) and ![b](../img/b.png)."),
        ["a.md#x", "../img/b.png"]
    );
    assert_eq!(
        prose("a `[x](y)` b\n```\n[c](d)\n```"),
        ["a  b", "", "", ""]
    );
}

#[test]
fn no_page_is_too_long() {
    for page in pages() {
        let lines = read_page(&page).lines().count();
        let most = if page == Path::new("README.md") {
            MOST_LINES_README
        } else {
            MOST_LINES_A_PAGE
        };
        assert!(
            lines <= most,
            "{} has {lines} lines, at most {most}",
            page.display()
        );
    }
}

#[test]
fn the_book_lists_every_games_page() {
    let summary = read_page(Path::new("docs/SUMMARY.md"));
    let dir = project_copy();
    let games = String::from_utf8(tessera(&["games"], dir.path()).stdout).unwrap();
    let mut named = 0;
    for line in games.lines() {
        let (id, _title) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("`tessera games` printed `{line}`"));
        let entry = format!("](games/{id}.md)");
        assert!(
            summary.contains(&entry),
            "docs/SUMMARY.md does not list docs/games/{id}.md"
        );
        assert!(
            common::repo_path(&format!("docs/games/{id}.md")).exists(),
            "no docs/games/{id}.md"
        );
        named += 1;
    }
    assert_eq!(named, tessera_builtin::registry().iter().count());
}

/// The subcommands a `--help` text lists under `Commands:` (not `help`).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The headings, any level, of the pages a subcommand's section may be on:
/// the command-line guide (the shell's commands) and the game pages (a
/// game's own), each with its page.
fn command_headings() -> Vec<(PathBuf, String)> {
    pages()
        .into_iter()
        .filter(|page| page == Path::new("docs/guide/cli.md") || page.starts_with("docs/games"))
        .flat_map(|page| {
            read_page(&page)
                .lines()
                .filter(|line| line.starts_with("## ") || line.starts_with("### "))
                .map(|line| {
                    (
                        page.clone(),
                        line.trim_start_matches('#').trim().to_string(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_subcommand_has_its_section_in_the_cli_guide_or_its_games_page() {
    let headings = command_headings();
    let dir = project_copy();
    let help = |args: &[&str]| {
        let mut args = args.to_vec();
        args.push("--help");
        String::from_utf8(tessera(&args, dir.path()).stdout).unwrap()
    };
    let mut commands = Vec::new();
    for command in subcommands(&help(&[])) {
        let nested = subcommands(&help(&[&command]));
        if nested.is_empty() {
            commands.push(command);
        } else {
            commands.extend(nested.into_iter().map(|n| format!("{command} {n}")));
        }
    }
    assert!(commands.len() >= 10, "`tessera --help` lists {commands:?}");
    for command in commands {
        let heading = format!("`tessera {command}`");
        let pages: Vec<_> = headings.iter().filter(|(_, h)| *h == heading).collect();
        assert!(
            pages.len() == 1,
            "`{heading}` needs one section (`## ` in docs/guide/cli.md, `### ` under a \
             game page's `## Commands`), found {pages:?}"
        );
    }
}

#[test]
fn every_key_a_settings_reader_accepts_is_documented() {
    let registry = tessera_builtin::registry();
    // The top level of every game's script: the schema it is loaded
    // against. The keys of the tables with a fixed set of keys (Tetris's
    // `ai` and `feed`, Azul's AI tables) are checked by each game's own
    // tests against the lists their readers refuse other keys with: the
    // workspace's tests name no game crate.
    let mut keys: Vec<(String, String)> = Vec::new();
    for entry in registry.iter() {
        for field in entry.script_schema().fields {
            keys.push((entry.id.to_string(), field.name.to_string()));
        }
    }
    assert!(keys.len() >= 30, "{} keys", keys.len());
    let mut missing = Vec::new();
    for (game, key) in keys {
        let name = key.rsplit('.').next().unwrap_or(&key);
        if !tessera_testkit::script_docs(&game).contains(&format!("`{name}`")) {
            missing.push(format!("{game}: `{key}`"));
        }
    }
    assert!(
        missing.is_empty(),
        "the `## Script` sections of docs/games/ do not document: {}",
        missing.join(", ")
    );
}
