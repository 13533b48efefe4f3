//! Times one generation run from File ▸ Generate…'s form as the editor runs
//! it: the dialog's job on its worker thread, polled by a frame every
//! 16 ms (the window's repaint while a job runs), headless under kittest.
//! With `--cancel-after SECONDS`, Cancel is clicked then and the time until
//! the job ended is reported. The figures of docs/perf/editor-jobs.md:
//!
//! ```text
//! cargo run -p tessera-editor --example generate_timing -- GAME [SPEC...] [--cancel-after SECONDS]
//! ```
//!
//! SPEC is what `tessera generate GAME` takes after the game, so the same
//! words time the command line (`time tessera generate GAME SPEC...`).

use std::time::{Duration, Instant};

use anyhow::{Context as _, anyhow, bail};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_editor::generate_dialog::{GenerateDialog, Generation};

/// The pause between frames: a 60 Hz window.
const FRAME: Duration = Duration::from_millis(16);

fn main() -> anyhow::Result<()> {
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    let cancel_after = match words.iter().position(|w| w == "--cancel-after") {
        Some(at) => {
            let seconds: f64 = words
                .get(at + 1)
                .context("--cancel-after takes seconds")?
                .parse()?;
            words.drain(at..at + 2);
            Some(Duration::from_secs_f64(seconds))
        }
        None => None,
    };
    let Some((game, spec)) = words.split_first() else {
        bail!("usage: generate_timing GAME [SPEC...] [--cancel-after SECONDS]");
    };
    let registry = tessera_builtin::registry();
    let generator = registry
        .generator(game)
        .with_context(|| format!("{game} brings no generator"))?;
    let dialog =
        GenerateDialog::from_command_line(game, generator, spec).map_err(|e| anyhow!(e))?;
    let mut harness: Harness<'_, (GenerateDialog, Option<Generation>)> = Harness::builder()
        .with_size(egui::vec2(900.0, 600.0))
        .build_ui_state(
            |ui, (dialog, ended): &mut (GenerateDialog, Option<Generation>)| {
                if let Some(generation) = dialog.ui(ui.ctx()) {
                    *ended = Some(generation);
                }
            },
            (dialog, None),
        );
    harness.run_steps(2);
    harness.get_by_label("Generate").click();
    let started = Instant::now();
    let mut cancelled: Option<Instant> = None;
    let mut frames = 0u32;
    let mut longest_gap = Duration::ZERO;
    let mut last_frame = Instant::now();
    loop {
        let now = Instant::now();
        longest_gap = longest_gap.max(now - last_frame);
        last_frame = now;
        harness.step();
        frames += 1;
        if !harness.state().0.is_running() && frames > 1 {
            break;
        }
        if let Some(after) = cancel_after
            && cancelled.is_none()
            && started.elapsed() >= after
        {
            harness.get_by_label("Cancel").click();
            cancelled = Some(Instant::now());
        }
        std::thread::sleep(FRAME);
    }
    let took = started.elapsed();
    let outcome = match (&harness.state().1, harness.state().0.error()) {
        (Some(Generation::Made { .. }), _) => "a level".to_string(),
        (_, Some(error)) => format!("refused: {error}"),
        _ => "nothing".to_string(),
    };
    println!(
        "generate {game} {}: {:.2} s ({outcome}); {frames} frames, longest gap between frames {} ms",
        spec.join(" "),
        took.as_secs_f64(),
        longest_gap.as_millis()
    );
    if let Some(clicked) = cancelled {
        println!(
            "Cancel clicked at {:.2} s; the job ended {} ms later",
            (clicked - started).as_secs_f64(),
            (last_frame - clicked).as_millis()
        );
    }
    Ok(())
}
