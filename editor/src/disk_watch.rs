//! Runs the project's folder watcher on its own thread and wakes the UI
//! when files change, so an idle editor need not repaint just to poll (a
//! software-rendered window repainting five times a second costs a real
//! share of a CPU) while a save from another editor still reloads at once.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;
use std::time::Duration;

use tessera_host::script::watcher::FolderWatcher;

/// How often the thread checks whether the editor has gone away.
const STOP_CHECK: Duration = Duration::from_millis(250);

/// A watcher thread that forwards changed paths and requests a repaint.
pub struct DiskWatch {
    changes: Receiver<Vec<PathBuf>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl DiskWatch {
    /// Moves `watcher` onto a thread that wakes `ctx` for every batch.
    pub fn spawn(watcher: FolderWatcher, ctx: egui::Context) -> Self {
        let (sender, changes) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stop_flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("tessera-disk-watch".into())
            .spawn(move || {
                while !stop_flag.load(Ordering::Relaxed) {
                    match watcher.wait(STOP_CHECK) {
                        None => break,
                        Some(paths) if paths.is_empty() => {}
                        Some(paths) => {
                            if sender.send(paths).is_err() {
                                break;
                            }
                            ctx.request_repaint();
                        }
                    }
                }
            })
            .ok();
        Self {
            changes,
            stop,
            thread,
        }
    }

    /// Changed files since the last call (each once), without waiting.
    pub fn poll(&self) -> Vec<PathBuf> {
        let mut changed: Vec<PathBuf> = self.changes.try_iter().flatten().collect();
        changed.sort();
        changed.dedup();
        changed
    }

    /// Whether the thread is running (spawning can fail when the system is
    /// out of threads; the editor then only reloads its own saves).
    pub fn is_running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }
}

impl Drop for DiskWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            // Ends within one STOP_CHECK; a panic there has nothing to undo.
            let _ = thread.join();
        }
    }
}
