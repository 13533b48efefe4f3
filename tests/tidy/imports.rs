//! No import circle in the host, and no import that runs back up: its
//! files are read from the leaves up, in the layers [`HOST_LAYERS`] names
//! (leaves; levels; scripts; errors, options and replays; agents and
//! generators; the plugin traits; sessions; the registry and projects;
//! sims; commands; the crate's facade), each importing only its own layer
//! and the ones below. A shared type lives in a leaf module rather than beside the code
//! that uses it most. A file imports another when its code (not a comment
//! or its test module) names `crate::<module>` or `super::<module>`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::{code_lines, rust_files};

/// The host's files from the leaves up, layer by layer: a file imports
/// files of its own layer (without a circle) and of the layers before it,
/// never one after it. Every file of `engine/host/src` is in one layer.
const HOST_LAYERS: &[(&str, &[&str])] = &[
    (
        "leaves: import nothing of the host",
        &[
            "folders.rs",
            "outcome.rs",
            "rng.rs",
            "ron_locate.rs",
            "sim/figures.rs",
            "text.rs",
            "trajectory.rs",
        ],
    ),
    (
        "levels: the capped reader and RON text",
        &["level.rs", "ron_diff.rs", "ron_patch.rs"],
    ),
    (
        "scripts: the Luau sandbox and its typed reader",
        &[
            "script/cache.rs",
            "script/cpu_clock.rs",
            "script/engine_api.rs",
            "script/error.rs",
            "script/live.rs",
            "script/locate.rs",
            "script/mod.rs",
            "script/sandbox.rs",
            "script/schema.rs",
            "script/settings.rs",
            "script/versions.rs",
            "script/watcher.rs",
        ],
    ),
    (
        "errors, options and replays",
        &["error.rs", "options.rs", "partial.rs", "replay.rs"],
    ),
    (
        "agents, jobs, workers and generators: what the plugin traits name",
        &["agent.rs", "bench.rs", "generate.rs", "job.rs", "worker.rs"],
    ),
    (
        "the plugin traits and their registrar",
        &["plugin.rs", "registrar.rs"],
    ),
    (
        "sessions and their driver",
        &[
            "driver.rs",
            "session/erased.rs",
            "session/mod.rs",
            "session/recorded.rs",
        ],
    ),
    (
        "the registry, checks and projects",
        &["check.rs", "project.rs", "registry.rs", "suite.rs"],
    ),
    ("sims", &["sim/mod.rs", "sim/tally.rs"]),
    ("commands: the program's edge", &["command.rs"]),
    ("the crate's facade", &["lib.rs"]),
];

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

/// A path in code: its lowercase segments (`crate::sim::figures::SimLevel`
/// gives `[sim, figures]`), then the names it imports: an item after the
/// segments (`SimLevel`), or the first word of each item of a `{ .. }`
/// group, which may span lines.
struct UsePath<'a> {
    segments: Vec<&'a str>,
    names: Vec<&'a str>,
}

/// The first identifier at the start of `text`.
fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// Every path in `code` that starts with `prefix` (`crate::`, `super::`,
/// or a declared child module's `name::`), not in the middle of a longer
/// path or word.
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<UsePath<'a>> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut rest = &code[at + prefix.len()..];
        let mut segments = Vec::new();
        loop {
            let word = identifier(rest);
            let lowercase = !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit());
            if !lowercase {
                break;
            }
            segments.push(word);
            match rest[word.len()..].strip_prefix("::") {
                Some(after) => rest = after,
                None => {
                    rest = &rest[word.len()..];
                    break;
                }
            }
        }
        let names = match rest.strip_prefix('{') {
            Some(group) => {
                let mut depth = 0;
                let end = group
                    .find(|c| {
                        depth += i32::from(c == '{') - i32::from(c == '}');
                        depth < 0
                    })
                    .unwrap_or(group.len());
                let mut depth = 0;
                group[..end]
                    .split(|c| {
                        depth += i32::from(c == '{') - i32::from(c == '}');
                        c == ',' && depth == 0
                    })
                    .map(|item| identifier(item.trim_start()))
                    .filter(|name| !name.is_empty())
                    .collect()
            }
            None => [identifier(rest)]
                .into_iter()
                .filter(|name| !name.is_empty())
                .collect(),
        };
        found.push(UsePath { segments, names });
    }
    found
}

/// A file's product code (comments and its test module left out) as one
/// text, so a `use` group that spans lines reads whole.
fn code_text(text: &str) -> String {
    code_lines(text)
        .into_iter()
        .map(|(_, line)| line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules a file declares (`mod name;`, any visibility).
fn declared_children(code: &str) -> Vec<&str> {
    code.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = match line.strip_prefix("pub") {
                Some(after) => match after.strip_prefix('(') {
                    Some(scope) => scope.split_once(')')?.1.trim_start(),
                    None => after.trim_start(),
                },
                None => line,
            };
            let name = line.strip_prefix("mod ")?.trim_end().strip_suffix(';')?;
            (!name.is_empty()).then_some(name.trim())
        })
        .collect()
}

/// The paths the code of module `own` names, each with the module it
/// starts from.
fn paths_of<'a>(own: &[String], code: &'a str) -> Vec<(Vec<String>, UsePath<'a>)> {
    let parent = own[..own.len().saturating_sub(1)].to_vec();
    let mut paths: Vec<(Vec<String>, UsePath)> = paths_after(code, "crate::")
        .into_iter()
        .map(|p| (Vec::new(), p))
        .collect();
    paths.extend(
        paths_after(code, "super::")
            .into_iter()
            .map(|p| (parent.clone(), p)),
    );
    paths.extend(
        paths_after(code, "self::")
            .into_iter()
            .map(|p| (own.to_vec(), p)),
    );
    for child in declared_children(code) {
        for mut path in paths_after(code, &format!("{child}::")) {
            path.segments.insert(0, child);
            paths.push((own.to_vec(), path));
        }
    }
    paths
}

/// Which files of the crate under `src` each file imports. A file imports
/// another when its code (not a comment or its test module) names a path
/// into it: from the crate root (`crate::`), from the parent (`super::`),
/// or into a module it declares (`mod child;` then `child::` or
/// `self::child::`). A name a
/// `mod.rs` re-exports from its children (`pub use child::{Name}`) counts
/// as an import of the child that defines it, so a facade neither hides a
/// circle nor makes one up.
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
    let codes: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            (module_of(src, f), code_text(&text))
        })
        .collect();
    // The module of the longest prefix of `base` + `path` that is a file,
    // with how many segments of `path` it took.
    let resolve = |base: &[String], path: &[&str]| {
        (0..=path.len()).rev().find_map(|n| {
            let mut module = base.to_vec();
            module.extend(path[..n].iter().map(|s| s.to_string()));
            modules.contains_key(&module).then_some((module, n))
        })
    };
    // What each module re-exports from its children: name -> defining module.
    let mut reexports: BTreeMap<Vec<String>, BTreeMap<&str, Vec<String>>> = BTreeMap::new();
    for (own, code) in &codes {
        let code = code.as_str();
        for (at, _) in code.match_indices("use ") {
            let head = code[..at].trim_end();
            let visibility = head[head.rfind('\n').map_or(0, |i| i + 1)..].trim();
            if !(visibility == "pub" || visibility.starts_with("pub(") && visibility.ends_with(')'))
            {
                continue;
            }
            let statement = &code[at + "use ".len()..];
            let statement = statement.strip_prefix("self::").unwrap_or(statement);
            let child = identifier(statement);
            if !declared_children(code).contains(&child) {
                continue;
            }
            let Some(path) = paths_after(statement, &format!("{child}::"))
                .into_iter()
                .next()
            else {
                continue;
            };
            let mut segments = vec![child];
            segments.extend(path.segments);
            if let Some((module, _)) = resolve(own, &segments) {
                for name in path.names {
                    reexports
                        .entry(own.clone())
                        .or_default()
                        .insert(name, module.clone());
                }
            }
        }
    }
    let mut graph = BTreeMap::new();
    for (own, code) in &codes {
        let mut imports = BTreeSet::new();
        for (base, path) in paths_of(own, code) {
            let Some((module, taken)) = resolve(&base, &path.segments) else {
                continue;
            };
            // `crate::sim::SimLevel`: the name; `crate::session::short_hash`:
            // the segment after the module.
            let names: Vec<&str> = match path.segments.get(taken) {
                Some(item) => vec![*item],
                None => path.names,
            };
            let mut targets: Vec<Vec<String>> = names
                .iter()
                .map(|name| {
                    let mut child = module.clone();
                    child.push(name.to_string());
                    if modules.contains_key(&child) {
                        return child;
                    }
                    reexports
                        .get(&module)
                        .and_then(|names| names.get(name))
                        .cloned()
                        .unwrap_or_else(|| module.clone())
                })
                .collect();
            if targets.is_empty() {
                targets.push(module);
            }
            for target in targets {
                if target != *own {
                    imports.insert(modules[&target].clone());
                }
            }
        }
        graph.insert(modules[own].clone(), imports);
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
fn the_host_has_no_import_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/host/src");
    let graph = import_graph(&src);
    assert!(
        graph
            .get("registrar.rs")
            .is_some_and(|i| i.contains("agent.rs")),
        "the import scan found no `crate::agent` in registrar.rs: it reads nothing"
    );
    let found = circles(&graph);
    assert!(
        found.is_empty(),
        "import circles in engine/host/src (move the shared type to a leaf \
         module, or turn the dependency around): {found:#?}"
    );
}

/// The imports of `graph` that run back up `layers`: each as `file (its
/// layer) imports file (a later layer)`, then every file no layer names
/// and every layer's file that does not exist.
pub fn imports_running_up(
    graph: &BTreeMap<String, BTreeSet<String>>,
    layers: &[(&str, &[&str])],
) -> Vec<String> {
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(at, (_, files))| files.iter().map(move |file| (*file, at)))
        .collect();
    let mut wrong = Vec::new();
    for (file, imports) in graph {
        let Some(&own) = layer_of.get(file.as_str()) else {
            wrong.push(format!("{file} is in no layer"));
            continue;
        };
        for import in imports {
            if let Some(&to) = layer_of.get(import.as_str())
                && to > own
            {
                wrong.push(format!(
                    "{file} ({}) imports {import} ({}), a later layer",
                    layers[own].0, layers[to].0
                ));
            }
        }
    }
    for file in layer_of.keys() {
        if !graph.contains_key(*file) {
            wrong.push(format!("{file} is in a layer but not in the crate"));
        }
    }
    wrong
}

#[test]
fn no_import_in_the_host_runs_back_up_its_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/host/src");
    let wrong = imports_running_up(&import_graph(&src), HOST_LAYERS);
    assert!(
        wrong.is_empty(),
        "engine/host/src against HOST_LAYERS (tests/tidy/imports.rs): move the \
         shared type down, or the file to the layer it belongs to:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layer_check_finds_an_import_running_up_and_a_file_in_no_layer() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("low.rs", vec![]),
        ("mid.rs", vec!["low.rs", "side.rs"]),
        ("side.rs", vec!["top.rs"]),
        ("top.rs", vec!["mid.rs"]),
        ("stray.rs", vec![]),
    ]
    .into_iter()
    .map(|(file, imports)| {
        (
            file.to_string(),
            imports.into_iter().map(str::to_string).collect(),
        )
    })
    .collect();
    let layers: &[(&str, &[&str])] = &[
        ("bottom", &["low.rs"]),
        ("middle", &["mid.rs", "side.rs", "gone.rs"]),
        ("top", &["top.rs"]),
    ];
    assert_eq!(
        imports_running_up(&graph, layers),
        [
            "side.rs (middle) imports top.rs (top), a later layer",
            "stray.rs is in no layer",
            "gone.rs is in a layer but not in the crate",
        ]
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

#[test]
fn the_circle_check_reads_through_a_modules_reexports_and_its_children() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let src = folder.path();
    std::fs::create_dir(src.join("b")).expect("b/");
    let write = |name: &str, text: &str| std::fs::write(src.join(name), text).expect("a file");
    write("lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n");
    // `a` names `Thing` through `b`'s facade; `b/inner.rs` defines it.
    write("a.rs", "use crate::b::Thing;\n");
    write(
        "b/mod.rs",
        "mod inner;\nmod other;\npub use inner::{\n    Thing,\n};\nfn f() { other::go() }\n",
    );
    write("b/inner.rs", "use crate::c::C;\n");
    write("b/other.rs", "use super::Thing;\n");
    write("c.rs", "fn f() { crate::a::go() }\n");
    // A group naming the facade itself and a re-exported name.
    write("d.rs", "use crate::b::{self, Thing};\n");
    let graph = import_graph(src);
    let set = |files: &[&str]| files.iter().map(|f| f.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(graph["a.rs"], set(&["b/inner.rs"]));
    assert_eq!(graph["b/mod.rs"], set(&["b/inner.rs", "b/other.rs"]));
    assert_eq!(graph["b/other.rs"], set(&["b/inner.rs"]));
    assert_eq!(graph["d.rs"], set(&["b/inner.rs", "b/mod.rs"]));
    let found = circles(&graph);
    assert_eq!(found.len(), 1, "{found:?}");
    let mut circle = found[0].clone();
    circle.sort();
    assert_eq!(circle, ["a.rs", "b/inner.rs", "c.rs"]);
}
