//! No trait in the host has more than fifteen items: a game implements a
//! small core (`Game`) and opts into capabilities, and the erased session
//! is split by concern the same way, rather than one trait growing with
//! every feature. An item is a `fn`, `type` or `const` of a trait's body
//! (public or not); a supertrait's items count for the supertrait only.

use std::path::Path;

use super::rust_files;

/// The most items a trait of the host may declare.
const MAX_TRAIT_ITEMS: usize = 15;

/// What follows `trait ` in a trait's declaration, whatever its visibility
/// (`pub`, `pub(crate)`, `pub(super)`, none) and `unsafe`: the issue's "no
/// trait" means private ones too.
fn trait_name_start(line: &str) -> Option<&str> {
    let mut rest = line;
    if let Some(after) = rest.strip_prefix("pub") {
        rest = match after.strip_prefix('(') {
            Some(scope) => scope.split_once(')')?.1,
            None => after,
        }
        .trim_start();
    }
    rest = rest.strip_prefix("unsafe ").unwrap_or(rest);
    rest.strip_prefix("trait ")
}

/// Every trait in `text`: `(line, name, items)`, its items counted at
/// the body's own indentation (as rustfmt lays code out), so a default
/// method's body and the comments are not counted.
fn trait_items(text: &str) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(rest) = trait_name_start(trimmed) else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let indent = &line[..line.len() - trimmed.len()];
        // The header may run over several lines (supertraits, `where`);
        // the body opens on the first line that holds `{`.
        let Some(open) = lines[start..].iter().position(|l| l.contains('{')) else {
            continue;
        };
        let open = start + open;
        let items = if lines[open].trim_end().ends_with("{}") {
            0
        } else {
            let closing = format!("{indent}}}");
            let item_indent = format!("{indent}    ");
            lines[open + 1..]
                .iter()
                .take_while(|l| **l != closing)
                .filter(|l| {
                    l.strip_prefix(item_indent.as_str()).is_some_and(|item| {
                        ["fn ", "type ", "const ", "unsafe fn ", "async fn "]
                            .iter()
                            .any(|keyword| item.starts_with(keyword))
                    })
                })
                .count()
        };
        found.push((start + 1, name, items));
    }
    found
}

#[test]
fn no_trait_in_the_host_has_more_than_fifteen_items() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/host/src");
    let mut too_big = Vec::new();
    let mut traits = 0;
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).expect("a host source file reads");
        for (line, name, items) in trait_items(&text) {
            traits += 1;
            if items > MAX_TRAIT_ITEMS {
                too_big.push(format!(
                    "{}:{line}: trait {name} has {items} items (at most {MAX_TRAIT_ITEMS}): split it by concern",
                    file.display()
                ));
            }
        }
    }
    assert!(
        traits > 10,
        "the scan found only {traits} traits in the host"
    );
    assert!(too_big.is_empty(), "{}", too_big.join("\n"));
}

#[test]
fn the_trait_counter_counts_items_at_the_bodys_indentation() {
    let text = "\
/// A doc comment that says fn and type.
pub trait Small: Sized {
    /// The id.
    const ID: &'static str;
    type Level;

    fn start() -> Self;

    fn turn(&self) -> usize {
        fn helper() -> usize {
            0
        }
        helper()
    }
}

pub trait Sum:
    Small + Send
{
}

pub trait Marker: Small {}

trait Private {
    fn hidden(&self);
}
";
    assert_eq!(
        trait_items(text),
        vec![
            (2, "Small".to_string(), 4),
            (17, "Sum".to_string(), 0),
            (22, "Marker".to_string(), 0),
            (24, "Private".to_string(), 1),
        ]
    );
    assert_eq!(
        trait_items("pub(super) unsafe trait Scoped {\n    fn a(&self);\n    fn b(&self);\n}\n"),
        vec![(1, "Scoped".to_string(), 2)]
    );

    // A nested trait of sixteen methods is counted whole: the check fails.
    let methods: String = (0..16)
        .map(|i| format!("        fn f{i}(&self);\n"))
        .collect();
    let big = format!("mod m {{\n    pub trait Big {{\n{methods}    }}\n}}\n");
    assert_eq!(trait_items(&big), vec![(2, "Big".to_string(), 16)]);
}
