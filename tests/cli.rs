//! The `tessera` command line: messages and exit codes (0 ok, 1 a check
//! failed, 2 bad usage), `check` on scripts and levels, and `watch`.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn tessera(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("tessera runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::create_dir_all(dir.path().join("levels")).unwrap();
    dir
}

#[test]
fn games_lists_every_plugin_with_its_title() {
    let output = tessera(&["games"], &common::repo_root());
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let registry = tessera_builtin::registry();
    assert_eq!(text.lines().count(), registry.iter().count(), "{text}");
    for (line, entry) in text.lines().zip(registry.iter()) {
        let mut words = line.split_whitespace();
        assert_eq!(words.next(), Some(entry.id), "{line}");
        assert_eq!(words.collect::<Vec<_>>().join(" "), entry.title, "{line}");
    }
}

#[test]
fn check_reports_ok_per_file_and_exits_zero() {
    let dir = project();
    std::fs::write(dir.path().join("scripts/a.lua"), "return { x = 1 }").unwrap();
    std::fs::write(dir.path().join("scripts/b.lua"), "return { y = 2 }").unwrap();
    let output = tessera(&["check", "scripts"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(stdout(&output), "ok scripts/a.lua\nok scripts/b.lua\n");
}

#[test]
fn check_reports_path_line_and_message_and_exits_one() {
    let dir = project();
    std::fs::write(dir.path().join("scripts/good.lua"), "return {}").unwrap();
    std::fs::write(
        dir.path().join("scripts/syntax.lua"),
        "return {\n  x = ,\n}",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("scripts/escape.lua"),
        "local f = io.open('/etc/passwd')\nreturn {}",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("scripts/loop.lua"),
        "\nwhile true do end\nreturn {}",
    )
    .unwrap();
    let output = tessera(&["check", "scripts"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("scripts/escape.lua:1: "), "{text}");
    assert_eq!(lines[1], "ok scripts/good.lua");
    assert!(
        lines[2].starts_with("scripts/loop.lua:2: stopped: ran past its time budget of 500 ms"),
        "{text}"
    );
    assert!(lines[3].starts_with("scripts/syntax.lua:2: "), "{text}");
}

#[test]
fn check_names_a_level_it_cannot_place() {
    let dir = project();
    let path = dir.path().join("levels/odd.ron");
    std::fs::write(&path, "(version: 1, game: \"chess\")").unwrap();
    let output = tessera(&["check", "levels/odd.ron"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).starts_with(
            "levels/odd.ron: cannot tell which game this level is for: put it in levels/<game>/ (known games: "
        ),
        "{}",
        stdout(&output)
    );

    std::fs::create_dir_all(dir.path().join("levels/sand")).unwrap();
    let path = dir.path().join("levels/sand/odd.ron");
    std::fs::write(&path, "(\n  version: 1,\n  size: [3, 4,\n").unwrap();
    let output = tessera(&["check", "levels/sand/odd.ron"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).starts_with("levels/sand/odd.ron:3:3: unknown field `size`"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn bad_usage_exits_two_with_a_message() {
    let dir = project();
    // A missing input file is an input error (1), not bad usage.
    let output = tessera(&["check", "no/such.lua"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("no/such.lua: no such file or folder"));

    assert_eq!(
        tessera(&["check"], dir.path()).status.code(),
        Some(2),
        "no paths"
    );
    assert_eq!(
        tessera(&["fly"], dir.path()).status.code(),
        Some(2),
        "unknown command"
    );
    let output = tessera(&["watch", "not-a-dir"], dir.path());
    assert_eq!(output.status.code(), Some(2));
}

/// Reads lines from a child's stdout on a thread, so waits can be bounded.
fn line_reader(stdout: std::process::ChildStdout) -> mpsc::Receiver<String> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

fn next_line(lines: &mpsc::Receiver<String>) -> String {
    lines
        .recv_timeout(Duration::from_secs(10))
        .expect("tessera watch printed a line in time")
}

#[test]
fn watch_prints_a_line_per_reload_and_keeps_the_last_good_version() {
    let dir = project();
    std::fs::write(dir.path().join("scripts/x.lua"), "return { n = 1 }").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["watch", "."])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = line_reader(child.stdout.take().unwrap());
    assert!(next_line(&lines).starts_with("watching "));

    let script = dir.path().join("scripts/x.lua");
    tessera_host::level::write_atomic(&script, b"return { n = 2 }").unwrap();
    assert_eq!(next_line(&lines), "reloaded scripts/x.lua");

    // A save that brings no new content (or a watcher reporting one save
    // twice, as a busy machine does) prints nothing: the next line is the
    // next real change's.
    tessera_host::level::write_atomic(&script, b"return { n = 2 }").unwrap();
    tessera_host::level::write_atomic(&script, b"return {\n  n = = 3,\n}").unwrap();
    let line = next_line(&lines);
    assert!(line.starts_with("error scripts/x.lua:2: "), "{line}");
    assert!(line.ends_with("(keeping last good version)"), "{line}");

    child.kill().unwrap();
    child.wait().unwrap();
}
