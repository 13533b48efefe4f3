//! The frame log (`TESSERA_FRAME_LOG=FILE`): one line per frame the UI
//! thread draws, so the gaps between frames can be measured while an AI
//! thinks on its worker (`tools/editor-frames.sh`, figures in
//! `docs/perf/editor-frames.md`). Off unless asked for: a frame costs one
//! short write when on, nothing when off.

use std::fs::File;
use std::io::{LineWriter, Write as _};
use std::path::Path;
use std::time::{Duration, Instant};

/// The first line of every log: what its columns are.
pub const HEADER: &str = "# tessera-editor frames: start_ms ui_ms ai_computing";

/// Where the frames are written, and the moment the log started (the
/// start column counts from it).
pub struct FrameLog {
    out: LineWriter<File>,
    opened: Instant,
}

impl FrameLog {
    /// Creates (or empties) `path` and writes the header.
    pub fn create(path: &Path) -> std::io::Result<Self> {
        let mut out = LineWriter::new(File::create(path)?);
        writeln!(out, "{HEADER}")?;
        Ok(Self {
            out,
            opened: Instant::now(),
        })
    }

    /// Appends one frame: when its drawing started, how long the editor's
    /// own frame function took, and whether an AI worker was computing.
    /// A line per frame, written at once, so a killed editor leaves a
    /// whole log.
    pub fn frame(
        &mut self,
        start: Instant,
        took: Duration,
        ai_computing: bool,
    ) -> std::io::Result<()> {
        let since = start.saturating_duration_since(self.opened);
        writeln!(
            self.out,
            "{:.3} {:.3} {}",
            since.as_secs_f64() * 1e3,
            took.as_secs_f64() * 1e3,
            u8::from(ai_computing)
        )
    }
}
