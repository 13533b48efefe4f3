//! Issue 47's output targets: a named pipe that nobody reads, given as a
//! command's output (`--out`, `--save-replay`, `--record`, `--csv`),
//! blocked the write for ever and ignored Ctrl+C. Each is now refused
//! before the work starts, naming the file, as a pipe given as input is.

use std::path::Path;

use super::Case;
use crate::hostile::Maxima;

/// Makes `out.fifo` in the project, a named pipe nobody reads.
fn fifo(dir: &Path) {
    let path = std::ffi::CString::new(dir.join("out.fifo").to_string_lossy().as_bytes())
        .expect("a path without NUL");
    // SAFETY: a valid C string; mkfifo only creates a file.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
}

const REFUSED: &str = "out.fifo: cannot write: it is a pipe or socket";

const CASES: &[Case] = &[
    Case {
        name: "generate_out_fifo",
        setup: fifo,
        args: &["generate", "tetris", "--out", "out.fifo"],
        code: 1,
        expect: REFUSED,
    },
    Case {
        name: "play_save_replay_fifo",
        setup: fifo,
        args: &[
            "play",
            "sand",
            "--random-play",
            "3",
            "--save-replay",
            "out.fifo",
        ],
        code: 1,
        expect: REFUSED,
    },
    Case {
        name: "play_record_fifo",
        setup: fifo,
        args: &[
            "play",
            "azul",
            "--seat",
            "ai:easy",
            "--seat",
            "ai:easy",
            "--ai-only",
            "--record",
            "out.fifo",
        ],
        code: 1,
        expect: REFUSED,
    },
    Case {
        name: "sim_csv_fifo",
        setup: fifo,
        args: &[
            "sim",
            "azul",
            "--seats",
            "ai:easy,ai:easy",
            "--games",
            "2",
            "--csv",
            "out.fifo",
        ],
        code: 1,
        expect: REFUSED,
    },
];

/// The report's lines: the refusals.
fn refusal(line: &str) -> bool {
    line.contains("cannot write")
}

fn run_cases(cases: &[Case]) -> (String, Maxima) {
    let shown = super::Shown {
        keep: refusal,
        lines: 2,
        width: 240,
        never: &[],
    };
    super::run_cases(cases, super::in_project, &shown)
}

#[test]
fn an_output_that_is_a_pipe_is_refused_before_the_work() {
    let (report, _) = run_cases(CASES);
    tessera_testkit::snapshots().bind(|| insta::assert_snapshot!("reproducers_jobs", report));
}
