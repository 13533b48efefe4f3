//! Hostile input against the `tessera` binary: every reproducer of issue 11
//! and a few hundred generated mutations of the shipped levels, scripts and
//! action files, each run through `check` and through a game start as a
//! child process. Every case must end in under 5 s, below 256 MiB of peak
//! memory, with exit 0, or exit 1 and a message naming `path:line` (or a
//! stated reason); `check` and `play` must agree. The messages are
//! snapshotted so their wording is reviewed.

mod generated;
pub mod harness;
mod reproducers;

use std::path::{Path, PathBuf};

use harness::{RSS_LIMIT_KIB, Run, TIME_LIMIT};

/// A fresh project: copies of the shipped `scripts/` and every registered
/// game's `levels/<id>/`.
pub fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = tessera_testkit::repo_root();
    let registry = tessera_builtin::registry();
    let folders = std::iter::once("scripts".to_string())
        .chain(registry.iter().map(|entry| format!("levels/{}", entry.id)));
    for folder in folders {
        let from = root.join(&folder);
        let to = dir.path().join(&folder);
        std::fs::create_dir_all(&to).expect("folder");
        for entry in std::fs::read_dir(&from).expect("shipped folder").flatten() {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
            }
        }
    }
    dir
}

/// Writes `text` at `relative` inside `dir` (folders created).
pub fn write(dir: &Path, relative: &str, text: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(relative);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("folder");
    }
    std::fs::write(&path, text).expect("write");
    path
}

/// Phrases that state a reason where no line applies (a file that cannot
/// be read at all, a folder with nothing in it, a usage error).
pub const STATED_REASONS: &[&str] = &[
    "not a regular file",
    "over the 16 MiB limit",
    "over the 2 MiB limit",
    "a broken link",
    "symbolic link loop",
    "nothing to check",
    "no such file",
    "not UTF-8",
    "cannot tell which game",
    "nothing to watch",
    "illegal action",
    "refused",
    "cannot write",
    // `tetris explain` on a log whose decision replays differently: the
    // command's documented failure, naming what differs.
    "differs: ",
    // An AI log missing a whole line: there is no line to name.
    "the log has no `",
    // An AI log without its header line (a mutation nested it away): the
    // whole file is refused, again with no line to name.
    "this is not a tessera AI log",
    // `merge`: partials whose sum does not fit, or whose tallies cannot be
    // a simulation's, are refused as a whole, by file name.
    "fit in 64 bits",
    "cannot be a sim's",
    "is more than result.solutions",
];

/// The limits every case is held to: time, memory, exit code, and a located
/// (or explained) message on failure.
pub fn assert_sane(case: &str, run: &Run) {
    assert_limits(case, run);
    let output = run.output();
    match run.code {
        Some(0) => {}
        Some(1) => assert!(
            harness::names_a_line(&output) || STATED_REASONS.iter().any(|r| output.contains(r)),
            "{case}: exit 1 without path:line or a stated reason:\n{output}"
        ),
        other => panic!("{case}: exit {other:?}, expected 0 or 1:\n{output}"),
    }
}

/// Time, memory, no panic and no Rust in the words: what every case keeps,
/// whatever its message must name.
pub fn assert_limits(case: &str, run: &Run) {
    assert!(
        !run.timed_out && run.elapsed < TIME_LIMIT,
        "{case}: ran {:?}, past the {TIME_LIMIT:?} limit",
        run.elapsed
    );
    assert!(
        run.max_rss_kib < RSS_LIMIT_KIB,
        "{case}: peak memory {} KiB, over {RSS_LIMIT_KIB} KiB",
        run.max_rss_kib
    );
    let output = run.output();
    assert!(
        !output.contains("panicked"),
        "{case}: the binary panicked:\n{output}"
    );
    for advice in ["serde_stacker", "Some(", "untagged enum", "ron::"] {
        assert!(
            !output.contains(advice),
            "{case}: a message speaks Rust (`{advice}`):\n{output}"
        );
    }
}

/// Peak figures over a set of runs, for the report.
#[derive(Debug, Default, Clone, Copy)]
pub struct Maxima {
    pub rss_kib: u64,
    pub millis: u128,
}

impl Maxima {
    pub fn add(&mut self, run: &Run) {
        self.rss_kib = self.rss_kib.max(run.max_rss_kib);
        self.millis = self.millis.max(run.elapsed.as_millis());
    }
}
