//! No import circle of more than three files in the host: its files are
//! read from the leaves up (errors, options, levels and scripts; then the
//! plugin trait; then sessions, the registry and projects; then sims and
//! commands), and a shared type lives in a leaf module rather than beside
//! the code that uses it most. A file imports another when its code (not
//! a comment or its test module) names `crate::<module>` or
//! `super::<module>`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::{code_lines, rust_files};

/// The largest import circle the host may have (a type and its trait's
/// module may name each other, as the plugin trait and the agent do).
const MAX_CIRCLE_FILES: usize = 3;

/// The module path of a source file under `src` (`session/mod.rs` is
/// `session`, `sim/figures.rs` is `sim::figures`, `lib.rs` the root).
pub fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The lowercase path segments that follow `prefix` in `line`, one list per
/// occurrence (`crate::sim::figures::SimLevel` gives `[sim, figures]`).
fn paths_after<'a>(line: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    line.match_indices(prefix)
        .map(|(at, _)| {
            line[at + prefix.len()..]
                .split("::")
                .map_while(|segment| {
                    let word: &str = segment
                        .split(|c: char| {
                            !(c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit())
                        })
                        .next()
                        .unwrap_or("");
                    (!word.is_empty()).then_some(word)
                })
                .collect()
        })
        .collect()
}

/// Which files of the crate under `src` each file imports.
pub fn import_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = rust_files(src);
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| {
            (
                module_of(src, f),
                f.strip_prefix(src).unwrap_or(f).display().to_string(),
            )
        })
        .collect();
    let mut graph = BTreeMap::new();
    for file in &files {
        let own = module_of(src, file);
        let name = modules[&own].clone();
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let mut imports = BTreeSet::new();
        for (_, line) in code_lines(&text) {
            let from_crate = paths_after(line, "crate::")
                .into_iter()
                .map(|p| (Vec::new(), p));
            let parent = own[..own.len().saturating_sub(1)].to_vec();
            let from_super = paths_after(line, "super::")
                .into_iter()
                .map(|p| (parent.clone(), p));
            for (base, path) in from_crate.chain(from_super) {
                // The longest prefix that is a module file is the file named
                // (none: `super::Type` names the parent module itself).
                let target = (0..=path.len()).rev().find_map(|n| {
                    let mut module = base.clone();
                    module.extend(path[..n].iter().map(|s| s.to_string()));
                    modules.get(&module)
                });
                if let Some(target) = target.filter(|t| **t != name) {
                    imports.insert(target.clone());
                }
            }
        }
        graph.insert(name, imports);
    }
    graph
}

/// The import circles (strongly connected components of more than one
/// file), by Tarjan's algorithm.
pub fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(walk: &mut Walk<'a>, file: &'a str) {
        let number = walk.index.len();
        walk.index.insert(file, number);
        walk.low.insert(file, number);
        walk.stack.push(file);
        for next in walk.graph.get(file).into_iter().flatten() {
            if !walk.index.contains_key(next.as_str()) {
                visit(walk, next);
                let low = walk.low[file].min(walk.low[next.as_str()]);
                walk.low.insert(file, low);
            } else if walk.stack.contains(&next.as_str()) {
                let low = walk.low[file].min(walk.index[next.as_str()]);
                walk.low.insert(file, low);
            }
        }
        if walk.low[file] == walk.index[file] {
            let at = walk.stack.iter().rposition(|f| *f == file).unwrap_or(0);
            let circle: Vec<String> = walk.stack.drain(at..).map(str::to_string).collect();
            if circle.len() > 1 {
                walk.found.push(circle);
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for file in graph.keys() {
        if !walk.index.contains_key(file.as_str()) {
            visit(&mut walk, file);
        }
    }
    walk.found
}

#[test]
fn the_host_has_no_import_circle_of_more_than_three_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/host/src");
    let graph = import_graph(&src);
    assert!(
        graph
            .get("plugin.rs")
            .is_some_and(|i| i.contains("agent.rs")),
        "the import scan found no `crate::agent` in plugin.rs: it reads nothing"
    );
    let too_large: Vec<_> = circles(&graph)
        .into_iter()
        .filter(|c| c.len() > MAX_CIRCLE_FILES)
        .collect();
    assert!(
        too_large.is_empty(),
        "import circles of more than {MAX_CIRCLE_FILES} files in engine/host/src \
         (move the shared type to a leaf module): {too_large:#?}"
    );
}

#[test]
fn the_circle_check_finds_a_circle_through_crate_and_super_paths() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let src = folder.path();
    std::fs::create_dir(src.join("sim")).expect("sim/");
    let write = |name: &str, text: &str| std::fs::write(src.join(name), text).expect("a file");
    write(
        "lib.rs",
        "mod plugin;\nmod registry;\nmod project;\nmod sim;\n",
    );
    write(
        "plugin.rs",
        "use crate::sim::figures::Figure; // crate::project in a comment\n",
    );
    write(
        "sim/mod.rs",
        "pub mod figures;\nuse crate::project::Project;\n",
    );
    write("sim/figures.rs", "use super::Sim;\n");
    write(
        "project.rs",
        "fn f() { crate::registry::Registry::new() }\n",
    );
    write(
        "registry.rs",
        "use crate::plugin::Game;\n#[cfg(test)]\nuse crate::sim::X;\n",
    );
    let graph = import_graph(src);
    assert_eq!(
        graph["sim/figures.rs"],
        BTreeSet::from(["sim/mod.rs".to_string()])
    );
    let found = circles(&graph);
    assert_eq!(found.len(), 1, "{found:?}");
    let mut circle = found[0].clone();
    circle.sort();
    assert_eq!(
        circle,
        [
            "plugin.rs",
            "project.rs",
            "registry.rs",
            "sim/figures.rs",
            "sim/mod.rs"
        ]
    );
}
