//! The job contract of the command line: any computation that can run past
//! about a second (a search, a generation, a proof, an enumeration, a sim)
//! runs as a job, with one cancel token for the whole process.
//!
//! - [`interrupt`] is that token, a [`ThinkControl`]: Ctrl+C cancels it once
//!   [`install_ctrl_c`] ran (the `tessera` shell does, first thing). A job
//!   polls it at least every 100 ms of work, stops within half a second,
//!   prints what it has marked `PARTIAL` and exits 1.
//! - [`run`] runs a job on a worker thread while this thread draws its
//!   progress line on stderr (a terminal only, after a quiet second): the
//!   control's fraction, node count and note.
//! - A command that starts no job has nothing partial to print: Ctrl+C
//!   then ends the process at once (exit 1, `tessera: cancelled`), as does
//!   a second Ctrl+C while a job is stopping.
//!
//! The editor does not use the process token: each of its jobs has its own
//! control ([`crate::worker::Job`]), cancelled by its Cancel button; the
//! searches underneath poll the same [`ThinkControl`] either way.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::agent::ThinkControl;

/// The most a job may take between Ctrl+C and its exit: what the sweep
/// test (`tests/interrupt.rs` at the workspace root) holds every long
/// command to.
pub const STOP_WITHIN: Duration = Duration::from_millis(500);

/// A job's progress line appears only after this long, so quick commands
/// print nothing extra.
pub const QUIET_FOR: Duration = Duration::from_secs(1);

/// How a stopped job's partial result starts (on stdout with its figures,
/// or on stderr when the figures are the ordinary output).
pub const PARTIAL_STOPPED: &str = "PARTIAL (stopped): ";

static INTERRUPT: LazyLock<ThinkControl> = LazyLock::new(ThinkControl::new);
/// Jobs running now that honour [`INTERRUPT`] themselves.
static LISTENING: AtomicUsize = AtomicUsize::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The process's one cancel token: cancelled by Ctrl+C (once
/// [`install_ctrl_c`] ran). Every long job of the command line polls it.
pub fn interrupt() -> &'static ThinkControl {
    &INTERRUPT
}

/// Installs the Ctrl+C handler, once per process (later calls do
/// nothing). The first Ctrl+C cancels [`interrupt`] when a job listens
/// ([`listen`]) and ends the process at once (exit 1) when none does; a
/// second Ctrl+C always ends it at once.
pub fn install_ctrl_c() {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    // A failure (another handler already installed by an embedding
    // program) leaves Ctrl+C to that program.
    let _ = ctrlc::set_handler(|| {
        let stopping = INTERRUPT.is_cancelled();
        INTERRUPT.cancel();
        if stopping || LISTENING.load(Ordering::SeqCst) == 0 {
            eprintln!("tessera: cancelled");
            std::process::exit(1);
        }
    });
}

/// While alive, Ctrl+C is the job's to honour: it cancels [`interrupt`]
/// and the job prints its partial result and returns.
#[must_use = "Ctrl+C is honoured by the job only while the guard lives"]
pub struct Listening(());

/// Declares that a job honouring [`interrupt`] runs now.
pub fn listen() -> Listening {
    LISTENING.fetch_add(1, Ordering::SeqCst);
    Listening(())
}

impl Drop for Listening {
    fn drop(&mut self) {
        LISTENING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Whether Ctrl+C stopped the command's work.
pub fn interrupted() -> bool {
    INTERRUPT.is_cancelled()
}

/// Runs `work` as a job: on a worker thread, with [`interrupt`] as its
/// control, while this thread draws its progress line (`label`, the
/// control's fraction, nodes and note) on stderr after [`QUIET_FOR`]. The
/// progress and note are reset first, so jobs run one after another each
/// start from zero.
pub fn run<T: Send>(label: &str, work: impl FnOnce(&'static ThinkControl) -> T + Send) -> T {
    let control = interrupt();
    control.set_progress(0.0);
    control.set_note("");
    let _listening = listen();
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| work(control));
        let started = Instant::now();
        let mut line: Option<ProgressLine> = None;
        while !worker.is_finished() {
            std::thread::sleep(Duration::from_millis(20));
            if started.elapsed() >= QUIET_FOR {
                line.get_or_insert_with(|| ProgressLine::new(label))
                    .draw(control);
            }
        }
        if let Some(line) = line {
            line.bar.finish_and_clear();
        }
        match worker.join() {
            Ok(value) => value,
            // The job's panic is the program's: pass it on unchanged.
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// A job's progress line on stderr (drawn by indicatif on a terminal
/// only, at most four times a second).
struct ProgressLine {
    bar: ProgressBar,
}

impl ProgressLine {
    fn new(label: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr_with_hz(4));
        if let Ok(style) = ProgressStyle::with_template("{prefix} {bar:24} {elapsed} · {msg}") {
            bar.set_style(style);
        }
        bar.set_prefix(label.to_string());
        Self { bar }
    }

    fn draw(&mut self, control: &ThinkControl) {
        self.bar
            .set_position((control.progress() * 1000.0).round() as u64);
        let nodes = control.nodes();
        let note = control.note();
        self.bar.set_message(match nodes {
            0 => note,
            _ => format!("{nodes} nodes · {note}"),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_of_a_job_hears_the_jobs_cancel_and_keeps_its_own_figures() {
        let job = ThinkControl::new();
        let part = job.part();
        part.add_nodes(7);
        part.set_note("one move");
        assert_eq!(job.nodes(), 0, "a part's nodes are its own");
        assert_eq!(job.note(), "");
        assert!(!part.is_cancelled());
        job.cancel();
        assert!(part.is_cancelled(), "the job's cancel reaches its part");
        assert!(part.cancel_flag().load(Ordering::Relaxed));
    }

    #[test]
    fn a_job_runs_on_another_thread_listening_and_returns_its_value() {
        let caller = std::thread::current().id();
        let (thread, listening) = run("test", |control| {
            control.set_note("working");
            (
                std::thread::current().id(),
                LISTENING.load(Ordering::SeqCst),
            )
        });
        assert_ne!(thread, caller, "the work ran on a worker thread");
        assert!(listening >= 1, "Ctrl+C is the job's while it runs");
        // The next job starts from zero.
        let note = run("again", |control| control.note());
        assert_eq!(note, "");
    }
}
