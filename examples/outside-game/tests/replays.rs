//! The replay test: every `tests/replays/cairn/*.replay.ron` of this
//! package re-run against the package's current script and levels, its
//! trajectory compared with `snapshots/replays__cairn__<name>.snap` by the
//! host's replay suite (the same comparison `cargo test` makes for the
//! built-in games, and the editor's Tests panel for any game).
//!
//! A replay without a snapshot fails; run with `BLESS_REPLAYS=1` to write
//! it, then read it before committing.

use std::path::Path;

use tessera_host::project::Project;
use tessera_host::suite::{self, Verdict};

#[test]
fn every_recorded_game_replays_to_its_snapshot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = suite::cases(root);
    assert!(
        cases.iter().filter(|case| case.game == "cairn").count() >= 2,
        "the package records its games under tests/replays/cairn/"
    );
    let mut project = Project::open(root, cairn::registry()).expect("the package is a project");
    let bless = std::env::var_os("BLESS_REPLAYS").is_some();
    let mut wrong = Vec::new();
    for case in &cases {
        match suite::check(&mut project, case) {
            Verdict::Unchanged => {}
            Verdict::New { new } if bless => {
                suite::write_snapshot(root, case, &new).expect("the snapshot is written");
            }
            Verdict::New { .. } => wrong.push(format!(
                "{}: no snapshot (BLESS_REPLAYS=1 writes it)",
                case.display(root)
            )),
            Verdict::Changed { old, new } => wrong.push(format!(
                "{} changed:\n--- snapshot\n{old}\n+++ now\n{new}",
                case.display(root)
            )),
            Verdict::Failed(why) => {
                wrong.push(format!("{} does not run: {why}", case.display(root)))
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_replay_ends_as_it_was_played() {
    // The recorded AI game: hard opens on 3-5-7 (a first-player win) and
    // takes the last stone.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut project = Project::open(root, cairn::registry()).expect("the package is a project");
    let run = project
        .replay(
            &root.join("tests/replays/cairn/hard_beats_easy.replay.ron"),
            &Default::default(),
        )
        .expect("the replay runs");
    assert_eq!(run.session.outcome(), tessera_host::Outcome::Winner(0));
}
