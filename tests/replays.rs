//! The replay suite: every `tests/replays/<game>/<name>.replay.ron` is
//! re-run against the project's current scripts and levels, and its
//! trajectory is snapshotted. Change a rule (say `score` in
//! `scripts/sand.lua`), run `cargo test`, and the replays it changes show
//! up as snapshot diffs to review with `cargo insta review` (or in the
//! editor's Tests panel).

mod common;

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
            common::snapshots().bind(|| {
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
