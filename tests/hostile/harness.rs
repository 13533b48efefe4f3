//! Runs the `tessera` binary as a child with a time limit and measures its
//! peak memory (`wait4`'s `ru_maxrss`, exact per child).

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a case may run.
pub const TIME_LIMIT: Duration = Duration::from_secs(5);
/// Highest peak resident memory a case may reach.
pub const RSS_LIMIT_KIB: u64 = 256 * 1024;
/// Output kept per stream (a runaway printer must not fill the test's memory).
const KEEP_OUTPUT: usize = 1 << 20;

/// One finished (or stopped) run.
#[derive(Debug)]
pub struct Run {
    /// Exit code; `None` when killed (time limit) or ended by a signal.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
    /// Peak resident memory of the child, KiB.
    pub max_rss_kib: u64,
    pub timed_out: bool,
    /// With a Ctrl+C: the time from the signal to the exit; `None` when
    /// none was sent (or the run ended before it).
    pub stopped_after: Option<Duration>,
}

impl Run {
    /// Both streams, stdout first.
    pub fn output(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

fn drain(mut stream: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buffer = [0u8; 64 * 1024];
        while let Ok(n) = stream.read(&mut buffer) {
            if n == 0 {
                break;
            }
            let room = KEEP_OUTPUT.saturating_sub(kept.len());
            kept.extend_from_slice(&buffer[..n.min(room)]);
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}

/// Resets this test process's peak memory to its current size. A child is
/// spawned with `vfork` semantics, and Linux starts the child's
/// `ru_maxrss` at the spawning process's peak: a test binary that once held
/// a large buffer (or ran a memory-hungry test beside these) would otherwise
/// push every later child past the limit. (Writing `5` to `clear_refs`
/// resets the peak; where it cannot be written the measure stays as it was.)
fn forget_own_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Runs `tessera ARGS` in `cwd`.
pub fn tessera(cwd: &Path, args: &[&str]) -> Run {
    run_child(cwd, args, None)
}

/// Runs `tessera ARGS` in `cwd` and sends it SIGINT (Ctrl+C) `after` its
/// start; [`Run::stopped_after`] is the time from the signal to its exit.
pub fn tessera_interrupted(cwd: &Path, args: &[&str], after: Duration) -> Run {
    run_child(cwd, args, Some(after))
}

/// The one child runner: time limit, peak memory, and an optional Ctrl+C.
// The child is reaped with `wait4` (for its peak memory), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run_child(cwd: &Path, args: &[&str], interrupt_after: Option<Duration>) -> Run {
    forget_own_peak_memory();
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tessera starts");
    let out = drain(child.stdout.take().expect("stdout"));
    let err = drain(child.stderr.take().expect("stderr"));
    let pid = child.id() as libc::pid_t;
    let mut timed_out = false;
    let mut signalled: Option<Instant> = None;
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: plain FFI call with valid pointers to locals; the child is
        // ours and reaped exactly once, here (std's `Child` never waits).
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            break (status, usage);
        }
        if let Some(after) = interrupt_after
            && signalled.is_none()
            && started.elapsed() >= after
        {
            // SAFETY: a signal to our own child, which has not been reaped.
            unsafe { libc::kill(pid, libc::SIGINT) };
            signalled = Some(Instant::now());
        }
        if started.elapsed() > TIME_LIMIT && !timed_out {
            timed_out = true;
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let elapsed = started.elapsed();
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Run {
        code,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        elapsed,
        max_rss_kib: u64::try_from(usage.ru_maxrss).unwrap_or(0),
        timed_out,
        stopped_after: signalled.map(|at| at.elapsed()),
    }
}

/// Replaces what changes from run to run (the temporary folder, addresses,
/// timings) so messages can be snapshotted, and the list of registered
/// games (`unknown game .. (known: ..)`) by `[GAMES]`, so adding a game
/// leaves these snapshots as they are (a message that lists other games
/// than the registry's, in its order, still shows them).
pub fn normalise(text: &str, dir: &Path) -> String {
    let games: Vec<&str> = tessera_builtin::registry().iter().map(|e| e.id).collect();
    let mut text = text
        .replace(&games.join(", "), "[GAMES]")
        .replace(&dir.display().to_string(), "[DIR]");
    if let Ok(canonical) = dir.canonicalize() {
        text = text.replace(&canonical.display().to_string(), "[DIR]");
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("0x") {
        out.push_str(&rest[..at]);
        let hex = rest[at + 2..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .count();
        out.push_str(if hex > 0 { "0x[ADDR]" } else { "0x" });
        rest = &rest[at + 2 + hex..];
    }
    out.push_str(rest);
    out
}

/// Whether a failure message says where: `file.ext:LINE`.
pub fn names_a_line(text: &str) -> bool {
    text.lines().any(|line| {
        [".ron:", ".lua:", ".json:", ".jsonl:", ".log:"]
            .iter()
            .any(|ext| {
                line.match_indices(ext).any(|(at, _)| {
                    line[at + ext.len()..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_digit())
                })
            })
    })
}
