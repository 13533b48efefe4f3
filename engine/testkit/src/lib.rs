//! Helpers shared by the tests of every Tessera crate: where snapshots live,
//! repository paths, and [`nim`], the tiny game that proves the host alone.

pub mod alloc;
pub mod nim;

use std::path::{Path, PathBuf};

/// The repository root (two folders above this crate).
pub fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().nth(2).unwrap_or(here).to_path_buf()
}

/// insta settings that store snapshots in the top-level `snapshots/`,
/// whichever crate the test lives in. Use as
/// `tessera_testkit::snapshots().bind(|| insta::assert_snapshot!(...))`.
pub fn snapshots() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(repo_root().join("snapshots"));
    settings.set_prepend_module_to_snapshot(true);
    settings
}

/// Path of a file in the repository.
pub fn repo_path(relative: &str) -> PathBuf {
    repo_root().join(relative)
}

/// The `## Script` section of game `game`'s page, `docs/games/<game>.md`:
/// where every key of its script is documented (the docs tests check the
/// top level, each game's own tests its nested tables). Panics, naming the
/// page, when the page or the section is missing.
pub fn script_docs(game: &str) -> String {
    let page = format!("docs/games/{game}.md");
    let text = std::fs::read_to_string(repo_path(&page))
        .unwrap_or_else(|e| panic!("{page}: {e} (every game has its page)"));
    text.split("\n## ")
        .find_map(|section| section.strip_prefix("Script\n"))
        .map(|section| section.to_string())
        .unwrap_or_else(|| panic!("{page} has no section `## Script`"))
}

/// `tessera check`'s findings on a generated level's `text`, checked as
/// `levels/<game>/generated.ron` of a fresh project holding the shipped
/// `scripts/<game>.lua` (so the check starts a game as `play` would and
/// re-proves the claim with `registry`'s generator), each shown from the
/// file's name on (`generated.ron:2: ...`).
pub fn check_generated(registry: &tessera_host::Registry, game: &str, text: &str) -> Vec<String> {
    let project = tempfile::tempdir().expect("a temporary folder");
    let levels = project.path().join("levels").join(game);
    let scripts = project.path().join("scripts");
    std::fs::create_dir_all(&levels).expect("levels/<game>/");
    std::fs::create_dir_all(&scripts).expect("scripts/");
    let script = format!("scripts/{game}.lua");
    std::fs::copy(repo_path(&script), project.path().join(&script)).expect("the shipped script");
    let path = levels.join("generated.ron");
    std::fs::write(&path, text).expect("the level");
    tessera_host::check::Checker::new(registry, tessera_host::ScriptLimits::default())
        .check_level(&path)
        .iter()
        .map(|finding| {
            let shown = finding.to_string();
            shown[shown.find("generated.ron").unwrap_or(0)..].to_string()
        })
        .collect()
}
