//! Issue 23's `sim` reproducers: options that do not apply to the game are
//! refused as bad usage, and a run of 2^64 - 1 or 20,000,000 games streams
//! (no allocation per game: results are folded as games finish, CSV rows
//! written as they come), stays under the memory limit and stops on Ctrl+C
//! with its partial result marked partial.

use crate::hostile::harness::{tessera, tessera_interrupted};
use crate::hostile::project;

#[test]
fn sim_refuses_options_that_do_not_apply_to_the_game() {
    let dir = project();
    let cases: &[(&[&str], &str)] = &[
        (
            &["sim", "tetris", "--ai", "easy", "--seats", "ai:easy"],
            "--seats does not apply to `tetris`",
        ),
        (
            &["sim", "tetris", "--ai", "easy", "--move-ms", "5"],
            "--move-ms does not apply to `tetris`",
        ),
        (
            &["sim", "tetris", "--ai", "easy", "--nodes", "5"],
            "--nodes does not apply to `tetris`",
        ),
        (
            &["sim", "tetris", "--ai", "easy", "--max-moves", "5"],
            "--max-moves does not apply to `tetris`",
        ),
        (
            &["sim", "tetris", "--ai", "easy", "--feeder", "hate"],
            "--feeder does not apply to `tetris` mode `classic`",
        ),
        (&["sim", "tetris", "--ai", "nosuch"], "no AI level `nosuch`"),
        (
            &["sim", "tetris", "--ai", "easy", "--mode", "zen"],
            "--mode `zen` does not exist",
        ),
        (
            &["sim", "tetris", "--ai", "easy", "--pieces", "0"],
            "--pieces must be at least 1",
        ),
        (
            &["sim", "azul", "--seats", "ai:easy,ai:easy", "--pieces", "5"],
            "--pieces does not apply to `azul`",
        ),
        (
            &["sim", "azul", "--seats", "ai:easy,ai:easy", "--preview"],
            "--preview does not apply to `azul`",
        ),
        (
            &["sim", "azul", "--ai", "easy"],
            "--ai does not apply to `azul`",
        ),
        (
            &[
                "sim",
                "azul",
                "--seats",
                "ai:easy,ai:easy",
                "--feeder",
                "hate",
            ],
            "--feeder does not apply to `azul`",
        ),
    ];
    for (args, expect) in cases {
        let run = tessera(dir.path(), args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.output());
        assert!(run.stderr.contains(expect), "{args:?}: {}", run.output());
    }
}

/// Issue 48: a game that registered no agents has no AI to simulate, and
/// `sim` says so plainly, whatever seats are named.
#[test]
fn sim_of_a_game_without_agents_says_it_has_no_ai_seats() {
    let dir = project();
    let cases: [&[&str]; 3] = [
        &["sim", "sand", "--games", "1"],
        &["sim", "sand", "--seats", "ai:easy,ai:easy", "--games", "1"],
        &["sim", "polycube", "--games", "1"],
    ];
    for args in cases {
        let run = tessera(dir.path(), args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.output());
        let game = args[1];
        assert!(
            run.stderr.contains(&format!("{game} has no AI seats")) == (game == "sand"),
            "{args:?}: {}",
            run.output()
        );
    }
}

#[test]
fn huge_sims_stream_under_the_memory_limit_and_stop_on_ctrl_c() {
    let dir = project();
    let csv = dir.path().join("rows.csv");
    let csv_arg = csv.display().to_string();
    let runs: [&[&str]; 4] = [
        &[
            "sim",
            "tetris",
            "--ai",
            "easy",
            "--pieces",
            "20",
            "--games",
            "18446744073709551615",
            "--csv",
            &csv_arg,
            "--threads",
            "1",
        ],
        &[
            "sim",
            "tetris",
            "--mode",
            "feed",
            "--ai",
            "easy,god",
            "--pieces",
            "20",
            "--games",
            "20000000",
            "--threads",
            "1",
        ],
        &[
            "sim",
            "azul",
            "--seats",
            "ai:easy,ai:easy",
            "--games",
            "18446744073709551615",
            "--threads",
            "1",
        ],
        &[
            "sim",
            "azul",
            "--seats",
            "ai:easy,ai:easy",
            "--games",
            "20000000",
            "--json",
            "--threads",
            "1",
        ],
    ];
    // One thread each, a second each: the other hostile cases run beside
    // these under their own time limits.
    for args in runs {
        let run = tessera_interrupted(dir.path(), args, std::time::Duration::from_millis(1000));
        let output = run.output();
        assert!(
            !run.timed_out,
            "{args:?}: did not stop on Ctrl+C:\n{output}"
        );
        assert_eq!(run.code, Some(1), "{args:?}: {output}");
        assert!(
            run.max_rss_kib < crate::hostile::harness::RSS_LIMIT_KIB,
            "{args:?}: {} KiB",
            run.max_rss_kib
        );
        assert!(
            run.stderr.contains("the figures above are partial"),
            "{args:?}: {output}"
        );
        if args.contains(&"--json") {
            let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
            assert_eq!(json["complete"], false, "{output}");
            assert!(json["games"].as_u64().unwrap_or(0) > 0, "{output}");
        } else {
            assert!(run.stdout.starts_with("PARTIAL (stopped): "), "{output}");
        }
    }
    // The rows of the games played before Ctrl+C, one per game.
    let rows = std::fs::read_to_string(&csv).expect("the CSV was written");
    assert!(
        rows.starts_with("level,seed,lines,pieces,ai_win,capped,decision_us"),
        "{rows}"
    );
    assert!(rows.lines().count() > 2, "{rows}");
}
