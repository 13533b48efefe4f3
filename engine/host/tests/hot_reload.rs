//! Hot reload: a good script is swapped into the running game, a broken one
//! is reported with its line while the last good version keeps running, and
//! game state survives. Also the real folder watcher, with saves by rename.

use super::testkit as common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::nim::{NIM_SCRIPT, Nim};
use tessera_host::Registry;
use tessera_host::downcast;
use tessera_host::project::Project;
use tessera_host::script::watcher::{DEBOUNCE, FolderWatcher};

fn nim_project() -> (tempfile::TempDir, Project) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::create_dir_all(dir.path().join("levels/nim")).unwrap();
    std::fs::write(dir.path().join("scripts/nim.lua"), NIM_SCRIPT).unwrap();
    let mut registry = Registry::empty();
    registry.register::<Nim>();
    let project = Project::open(dir.path(), registry).unwrap();
    (dir, project)
}

fn write(dir: &Path, relative: &str, text: &str) -> PathBuf {
    let path = dir.join(relative);
    tessera_host::level::write_atomic(&path, text.as_bytes()).unwrap();
    path
}

#[test]
fn a_good_edit_is_swapped_in_and_state_survives() {
    let (dir, mut project) = nim_project();
    let mut session = project
        .start_session("nim", None, 3, &Default::default())
        .unwrap();
    session.apply_ron("Take(3)").unwrap();

    let path = write(
        dir.path(),
        "scripts/nim.lua",
        "return { max_take = 3, score = function(n) return n * 100 end }",
    );
    let report = project.handle_change(&path);
    assert_eq!(report.to_string(), "reloaded scripts/nim.lua");

    session.apply_ron("Take(1)").unwrap();
    let nim = downcast::<Nim>(session.as_ref()).unwrap();
    assert_eq!(nim.game().pile(), 6, "state survived the reload");
    assert_eq!(
        nim.game().scores(),
        [6, 100],
        "old score kept, new formula used"
    );
}

#[test]
fn a_broken_edit_reports_its_line_and_the_last_good_version_keeps_running() {
    let (dir, mut project) = nim_project();
    let mut session = project
        .start_session("nim", None, 3, &Default::default())
        .unwrap();

    let path = write(
        dir.path(),
        "scripts/nim.lua",
        "return {\n  max_take = 3,\n  score = function(n) return n * end,\n}\n",
    );
    let report = project.handle_change(&path);
    assert!(report.kept_last_good);
    let line = report.to_string();
    assert!(line.starts_with("error scripts/nim.lua:3: "), "{line}");
    assert!(line.ends_with(" (keeping last good version)"), "{line}");

    session.apply_ron("Take(2)").unwrap();
    let nim = downcast::<Nim>(session.as_ref()).unwrap();
    assert_eq!(
        nim.game().scores(),
        [4, 0],
        "the old formula (n * 2) still scores"
    );
}

#[test]
fn a_script_missing_a_hook_is_refused_by_name() {
    let (dir, mut project) = nim_project();
    project
        .start_session("nim", None, 0, &Default::default())
        .unwrap();
    let path = write(dir.path(), "scripts/nim.lua", "return { max_take = 3 }");
    let report = project.handle_change(&path);
    let line = report.to_string();
    assert!(line.contains("missing `score`"), "{line}");
    assert!(report.kept_last_good);
}

#[test]
fn a_runtime_error_in_a_hook_leaves_the_state_unchanged() {
    let (dir, mut project) = nim_project();
    let mut session = project
        .start_session("nim", None, 0, &Default::default())
        .unwrap();
    let path = write(
        dir.path(),
        "scripts/nim.lua",
        "return {\n  score = function(n)\n    return n .. {}\n  end,\n}",
    );
    assert_eq!(
        project.handle_change(&path).to_string(),
        "reloaded scripts/nim.lua"
    );
    let err = session.apply_ron("Take(1)").unwrap_err();
    assert!(err.to_string().starts_with("scripts/nim.lua:3: "), "{err}");
    assert_eq!(downcast::<Nim>(session.as_ref()).unwrap().game().pile(), 10);
}

#[test]
fn level_changes_are_validated_with_line_and_column() {
    let (dir, mut project) = nim_project();
    let path = write(
        dir.path(),
        "levels/nim/a.ron",
        "(\n  version: 1,\n  stones: 4,\n  stonez: 2,\n)",
    );
    let line = project.handle_change(&path).to_string();
    assert!(line.starts_with("error levels/nim/a.ron:4:3: "), "{line}");
    assert!(line.contains("stonez"), "{line}");
    let path = write(dir.path(), "levels/nim/a.ron", "(version: 1, stones: 4)");
    assert_eq!(
        project.handle_change(&path).to_string(),
        "reloaded levels/nim/a.ron"
    );
}

/// Waits (bounded) until the watcher reports `path`.
fn wait_for(watcher: &FolderWatcher, path: &Path) -> Vec<PathBuf> {
    let give_up = Instant::now() + Duration::from_secs(10);
    let wanted = path.canonicalize().unwrap();
    while Instant::now() < give_up {
        let changed = watcher
            .wait(Duration::from_millis(200))
            .expect("watcher alive");
        if changed
            .iter()
            .any(|p| p.canonicalize().ok().as_deref() == Some(wanted.as_path()))
        {
            return changed;
        }
    }
    panic!("the watcher never reported {}", path.display());
}

#[test]
fn the_folder_watcher_sees_saves_by_rename_and_the_reload_follows() {
    let (dir, mut project) = nim_project();
    let mut session = project
        .start_session("nim", None, 0, &Default::default())
        .unwrap();
    let watcher = FolderWatcher::new(&project.watched_folders(), DEBOUNCE).unwrap();

    // Save as editors do: write a temporary file, rename it over the script.
    let path = write(
        dir.path(),
        "scripts/nim.lua",
        "return { score = function(n) return 7 end }",
    );
    let changed = wait_for(&watcher, &path);
    let reports = project.handle_changes(&changed);
    assert_eq!(reports.len(), 1, "one report for one save: {reports:?}");
    assert_eq!(reports[0].to_string(), "reloaded scripts/nim.lua");
    session.apply_ron("Take(1)").unwrap();
    assert_eq!(
        downcast::<Nim>(session.as_ref()).unwrap().game().scores(),
        [7, 0]
    );

    // A second save is seen as well (the watch survives the rename).
    let path = write(
        dir.path(),
        "scripts/nim.lua",
        "return { score = function(n) return 8 end }",
    );
    let changed = wait_for(&watcher, &path);
    project.handle_changes(&changed);
    session.apply_ron("Take(1)").unwrap();
    assert_eq!(
        downcast::<Nim>(session.as_ref()).unwrap().game().scores(),
        [7, 8]
    );
}

#[test]
fn a_removed_script_is_reported_and_the_game_keeps_its_version() {
    let (dir, mut project) = nim_project();
    let mut session = project
        .start_session("nim", None, 0, &Default::default())
        .unwrap();
    let path = dir.path().join("scripts/nim.lua");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        project.handle_change(&path).to_string(),
        "removed scripts/nim.lua (running games keep the version they have)"
    );
    session.apply_ron("Take(2)").unwrap();
    assert_eq!(
        downcast::<Nim>(session.as_ref()).unwrap().game().scores(),
        [4, 0]
    );
}
