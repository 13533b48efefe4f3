//! The replay suite: every `tests/replays/<game>/<name>.replay.ron` is
//! re-run against the project's current scripts and levels, and its
//! trajectory is snapshotted. Change a rule (say `score` in
//! `scripts/sand.lua`), run `cargo test`, and the replays it changes show
//! up as snapshot diffs to review with `cargo insta review` (or in the
//! editor's Tests panel).

use crate::common;

use tessera_host::project::Project;
use tessera_host::suite;

#[test]
fn every_replay_reproduces_its_snapshot() {
    let root = common::repo_root();
    let cases = suite::cases(&root);
    let games: std::collections::BTreeSet<&str> = cases.iter().map(|c| c.game.as_str()).collect();
    // Every registered game contributes replays; an empty suite would
    // prove nothing.
    for entry in tessera_builtin::registry().iter() {
        let game = entry.id;
        assert!(
            cases.iter().filter(|c| c.game == game).count() >= 3,
            "at least three replays of {game} (found games: {games:?})"
        );
    }
    let mut project = Project::open(&root, tessera_builtin::registry()).unwrap();
    // Check every case before failing, so one run lists every replay a
    // rule change touched (insta writes a `.snap.new` for each).
    let mut changed = Vec::new();
    for case in &cases {
        let trajectory = match suite::run(&mut project, case) {
            Ok(text) => text,
            Err(e) => {
                changed.push(format!("{} does not run: {e}", case.display(&root)));
                continue;
            }
        };
        let checked = std::panic::catch_unwind(|| {
            // The suite names its snapshot files itself (the editor's Tests
            // panel and `tessera replay` read them), so no module prefix.
            let mut settings = common::snapshots();
            settings.set_prepend_module_to_snapshot(false);
            settings.bind(|| {
                insta::assert_snapshot!(case.snapshot_name(), trajectory);
            });
        });
        if checked.is_err() {
            changed.push(format!("{} changed", case.display(&root)));
        }
    }
    assert!(
        changed.is_empty(),
        "{} of {} replays differ from their snapshots (review with `cargo insta review` or the editor's Tests panel):\n  {}",
        changed.len(),
        cases.len(),
        changed.join("\n  ")
    );
}

/// The Azul game played with the mouse in the editor and saved as a test
/// is a designer's safety net: it passes as shipped, and a change of the
/// floor penalty in `scripts/azul.lua` shows up as a changed trajectory.
#[test]
fn the_azul_game_played_by_mouse_fails_when_the_floor_penalty_changes() {
    let root = common::repo_root();
    let dir = tempfile::tempdir().expect("temp dir");
    let copy = dir.path();
    for sub in ["scripts", "levels/azul", "tests/replays/azul", "snapshots"] {
        std::fs::create_dir_all(copy.join(sub)).expect("folder");
    }
    std::fs::copy(root.join("scripts/azul.lua"), copy.join("scripts/azul.lua")).expect("script");
    for folder in ["levels/azul", "tests/replays/azul"] {
        for entry in std::fs::read_dir(root.join(folder))
            .expect("folder")
            .flatten()
        {
            std::fs::copy(entry.path(), copy.join(folder).join(entry.file_name())).expect("copy");
        }
    }
    let name = "replays__azul__human_vs_medium_floor_by_mouse.snap";
    std::fs::copy(
        root.join("snapshots").join(name),
        copy.join("snapshots").join(name),
    )
    .expect("snapshot");
    let verdict = || {
        let mut project = Project::open(copy, tessera_builtin::registry()).expect("project");
        let case = suite::cases(copy)
            .into_iter()
            .find(|c| c.name == "human_vs_medium_floor_by_mouse")
            .expect("the mouse-played replay");
        suite::check(&mut project, &case)
    };
    assert!(
        matches!(verdict(), suite::Verdict::Unchanged),
        "{:?}",
        verdict()
    );
    let script = copy.join("scripts/azul.lua");
    let text = std::fs::read_to_string(&script).expect("script");
    let harsher = text.replacen(
        "floor_penalties = { 1, 1, 2, 2, 2, 3, 3 }",
        "floor_penalties = { 2, 2, 2, 2, 2, 3, 3 }",
        1,
    );
    assert_ne!(harsher, text);
    std::fs::write(&script, harsher).expect("script edit");
    let suite::Verdict::Changed { old, new } = verdict() else {
        panic!(
            "a floor penalty change must change the replay: {:?}",
            verdict()
        );
    };
    assert_ne!(old, new);
}
