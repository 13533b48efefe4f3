//! Background work with progress and cancel: AI moves, hints, solver runs.
//!
//! A [`Job`] runs one closure on its own thread. The owner polls it once per
//! frame (never blocking), reads its progress, and cancels it; dropping the
//! job cancels it too, so closing a tab or the editor stops the work.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use crate::agent::ThinkControl;

/// Most worker threads a command may be asked for (`solve --count
/// --threads`, `sim --threads`): past the cores more threads only add
/// switching, and thousands of them stall the whole machine and its
/// Ctrl+C. A larger number is refused as bad usage.
pub const MAX_THREADS: u64 = 256;

/// Where a job stands, as seen by its owner.
#[derive(Debug)]
pub enum Poll<T> {
    /// Still running.
    Running,
    /// Finished with this result (returned once).
    Done(T),
    /// The thread ended without a result (it panicked), or the result was
    /// already taken.
    Lost,
}

impl<T> Poll<T> {
    /// `None` while running; once ended, its result (`None` when lost).
    pub fn ended(self) -> Option<Option<T>> {
        match self {
            Poll::Running => None,
            Poll::Done(value) => Some(Some(value)),
            Poll::Lost => Some(None),
        }
    }
}

/// The nice value of the calling thread (Linux), for tests and tools.
#[cfg(target_os = "linux")]
pub fn thread_niceness() -> i32 {
    // SAFETY: reads the calling thread's own priority.
    unsafe { linux::getpriority(linux::PRIO_PROCESS, linux::gettid() as u32) }
}

/// The C library calls that read a thread's priority (glibc and musl
/// have them; declared here rather than adding the `libc` crate to the
/// host, whose features would rebuild every crate that shares it).
#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::c_int;

    /// `which` for a process or, on Linux, a thread id.
    pub const PRIO_PROCESS: c_int = 0;

    unsafe extern "C" {
        pub fn gettid() -> c_int;
        pub fn getpriority(which: c_int, who: u32) -> c_int;
    }
}

/// One piece of work running on its own thread.
pub struct Job<T> {
    control: Arc<ThinkControl>,
    result: Receiver<T>,
    started: Instant,
    label: String,
    finished: bool,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a new thread; it receives the shared control to
    /// watch for cancel and to report progress on.
    pub fn spawn(
        label: impl Into<String>,
        work: impl FnOnce(&ThinkControl) -> T + Send + 'static,
    ) -> Self {
        let control = Arc::new(ThinkControl::new());
        let (sender, result) = mpsc::channel();
        let thread_control = Arc::clone(&control);
        let label = label.into();
        // The thread keeps its starter's priority (the UI's), as the
        // command line's job does. At nice +10 a unique 4x4x4 took 44 s in
        // the editor against 8.7 s from the command line while other
        // processes built; the UI thread, asleep between short frames,
        // still gets a core when it wakes (docs/perf/editor-jobs.md).
        let spawned = thread::Builder::new()
            .name(format!("tessera-job: {label}"))
            .spawn(move || {
                let value = work(&thread_control);
                // The owner may be gone (dropped the job): nothing to do.
                let _ = sender.send(value);
            });
        if spawned.is_err() {
            // No thread: the job reads as lost at the first poll.
            control.cancel();
        }
        Self {
            control,
            result,
            started: Instant::now(),
            label,
            finished: false,
        }
    }

    /// Checks for the result without blocking.
    pub fn poll(&mut self) -> Poll<T> {
        if self.finished {
            return Poll::Lost;
        }
        match self.result.try_recv() {
            Ok(value) => {
                self.finished = true;
                Poll::Done(value)
            }
            Err(TryRecvError::Empty) => Poll::Running,
            Err(TryRecvError::Disconnected) => {
                self.finished = true;
                Poll::Lost
            }
        }
    }

    /// Blocks until the job ends (headless callers and tests), at most
    /// `timeout`; `None` on timeout or when the thread died.
    pub fn wait(&mut self, timeout: Duration) -> Option<T> {
        if self.finished {
            return None;
        }
        let value = self.result.recv_timeout(timeout).ok();
        self.finished = value.is_some();
        value
    }
}

impl<T> Job<T> {
    /// Asks the work to stop; its result, if any, still arrives.
    pub fn cancel(&self) {
        self.control.cancel();
    }

    /// Whether cancel was asked.
    pub fn is_cancelled(&self) -> bool {
        self.control.is_cancelled()
    }

    /// The shared control (progress, nodes, note).
    pub fn control(&self) -> &ThinkControl {
        &self.control
    }

    /// Time since the job started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// What the job does, for the "thinking" indicator.
    pub fn label(&self) -> &str {
        &self.label
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.control.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_reports_progress_and_its_result() {
        let mut job = Job::spawn("sum", |control| {
            control.set_progress(0.5);
            (1..=10).sum::<u32>()
        });
        assert_eq!(job.wait(Duration::from_secs(10)), Some(55));
        assert!(job.control().progress() >= 0.5);
        assert!(matches!(job.poll(), Poll::Lost), "the result comes once");
    }

    #[test]
    fn dropping_a_job_cancels_it() {
        let (seen_tx, seen_rx) = mpsc::channel();
        let job = Job::spawn("spin", move |control| {
            while !control.is_cancelled() {
                thread::sleep(Duration::from_millis(1));
            }
            let _ = seen_tx.send(());
        });
        drop(job);
        assert!(
            seen_rx.recv_timeout(Duration::from_secs(10)).is_ok(),
            "the work saw the cancel"
        );
    }

    #[test]
    fn a_panicking_job_is_lost_not_fatal() {
        let mut job: Job<u32> = Job::spawn("boom", |_| panic!("boom"));
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match job.poll() {
                Poll::Running if Instant::now() < deadline => {
                    thread::sleep(Duration::from_millis(1))
                }
                Poll::Lost => break,
                other => panic!("expected Lost, got {other:?}"),
            }
        }
    }
}
