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

/// The most of the host's own traits one host trait may sum (issue #48: a
/// game registers its capabilities rather than implementing their sum).
const MAX_SUMMED_HOST_TRAITS: usize = 3;

/// The name of every trait the host declares.
fn host_trait_names(src: &Path) -> Vec<String> {
    rust_files(src)
        .iter()
        .flat_map(|file| {
            let text = std::fs::read_to_string(file).expect("a host source file reads");
            trait_items(&text).into_iter().map(|(_, name, _)| name)
        })
        .collect()
}

/// The supertraits of every trait in `text` that are in `known`:
/// `(line, name, summed)`. The header runs from `trait Name` to its body's
/// `{` or its `where`.
fn summed_traits(text: &str, known: &[String]) -> Vec<(usize, String, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(rest) = trait_name_start(line.trim_start()) else {
            continue;
        };
        let mut header = rest.to_string();
        for more in &lines[start + 1..] {
            if header.contains('{') {
                break;
            }
            header.push(' ');
            header.push_str(more.trim());
        }
        let header = header.split('{').next().unwrap_or_default();
        let header = header.split(" where").next().unwrap_or_default();
        let name: String = header
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Some((_, supertraits)) = header.split_once(':') else {
            continue;
        };
        let summed: Vec<String> = supertraits
            .split('+')
            .map(|bound| {
                let bound = bound.split('<').next().unwrap_or_default().trim();
                bound.rsplit("::").next().unwrap_or_default().to_string()
            })
            .filter(|bound| known.contains(bound))
            .collect();
        found.push((start + 1, name, summed));
    }
    found
}

#[test]
fn no_trait_in_the_host_sums_more_than_three_host_traits() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/host/src");
    let known = host_trait_names(&src);
    assert!(
        known.iter().any(|t| t == "Game"),
        "the scan found no `Game`"
    );
    let mut sums = Vec::new();
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).expect("a host source file reads");
        for (line, name, summed) in summed_traits(&text, &known) {
            if summed.len() > MAX_SUMMED_HOST_TRAITS {
                sums.push(format!(
                    "{}:{line}: trait {name} sums {} host traits ({}); at most {MAX_SUMMED_HOST_TRAITS}: register capabilities instead",
                    file.display(),
                    summed.len(),
                    summed.join(" + ")
                ));
            }
        }
    }
    assert!(sums.is_empty(), "{}", sums.join("\n"));
}

/// Every impl in `text` of a trait in `with_items` whose body is empty
/// (`impl Moves for Nim {}`): a capability taken whole from its defaults,
/// which a game that lacks it should not have to write. `(line, impl)`.
fn empty_impls(text: &str, with_items: &[String]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        let Some(rest) = trimmed.strip_prefix("impl") else {
            continue;
        };
        if !trimmed.ends_with("{}") || !rest.contains(" for ") {
            continue;
        }
        // `impl<G> Trait<X> for Type {}`: the trait is the path before ` for `.
        let rest = rest.trim_start();
        let rest = match rest.strip_prefix('<') {
            Some(generic) => generic.split_once("> ").map_or("", |(_, after)| after),
            None => rest,
        };
        let trait_path = rest.split(" for ").next().unwrap_or_default();
        let trait_name = trait_path.split('<').next().unwrap_or_default();
        let trait_name = trait_name.rsplit("::").next().unwrap_or_default();
        if with_items.iter().any(|t| t == trait_name) {
            found.push((number + 1, trimmed.to_string()));
        }
    }
    found
}

#[test]
fn no_type_implements_a_host_capability_it_lacks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("engine/host/src");
    let with_items: Vec<String> = rust_files(&src)
        .iter()
        .flat_map(|file| {
            let text = std::fs::read_to_string(file).expect("a host source file reads");
            trait_items(&text)
                .into_iter()
                .filter(|(_, _, items)| *items > 0)
                .map(|(_, name, _)| name)
        })
        .collect();
    assert!(
        with_items.iter().any(|t| t == "Reports"),
        "the scan found no `Reports`"
    );
    let mut empty = Vec::new();
    for folder in ["engine", "examples", "src", "editor", "tests"] {
        for file in rust_files(&root.join(folder)) {
            // This file's own fixtures show what the check refuses.
            if file.ends_with("tests/tidy/traits.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("a source file reads");
            for (line, found) in empty_impls(&text, &with_items) {
                empty.push(format!("{}:{line}: {found}", file.display()));
            }
            // The old stand-in for "no AI": a snapshot of nothing.
            for (number, line) in text.lines().enumerate() {
                if line.trim() == "type Snapshot = ();" {
                    empty.push(format!(
                        "{}:{}: {}",
                        file.display(),
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        empty.is_empty(),
        "register only the capabilities a game has:\n{}",
        empty.join("\n")
    );
}

#[test]
fn the_sum_and_empty_impl_checks_see_what_they_refuse() {
    let known: Vec<String> = ["Game", "Scripted", "Players", "Reports", "Moves"]
        .map(String::from)
        .to_vec();
    let text = "\
pub trait Plugin: Game + Scripted + Players + Reports + Moves {}

pub trait Session:
    Scripted + Reports + std::fmt::Debug + Send
{
}

pub trait Moves: crate::plugin::Game {
    fn settle(&self) {}
}
";
    assert_eq!(
        summed_traits(text, &known),
        vec![
            (
                1,
                "Plugin".to_string(),
                ["Game", "Scripted", "Players", "Reports", "Moves"]
                    .map(String::from)
                    .to_vec()
            ),
            (
                3,
                "Session".to_string(),
                vec!["Scripted".to_string(), "Reports".to_string()]
            ),
            (8, "Moves".to_string(), vec!["Game".to_string()]),
        ]
    );
    let impls = "\
impl Moves for Nim {}
impl tessera_host::Reports for Cairn {}
impl<G: Game> Reports for Wrapper<G> {}
impl<S> Session for S where S: Reports {}
impl Moves for Sand {
    fn settle(&self) {}
}
";
    assert_eq!(
        empty_impls(impls, &known),
        vec![
            (1, "impl Moves for Nim {}".to_string()),
            (2, "impl tessera_host::Reports for Cairn {}".to_string()),
            (3, "impl<G: Game> Reports for Wrapper<G> {}".to_string()),
        ]
    );
}
