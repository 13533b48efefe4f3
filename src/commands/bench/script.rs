//! Script-host figures: a Rust-to-Lua call, and save-to-reload latency.

use std::path::Path;
use std::time::Duration;

use tessera_host::bench::{Figure, sample_time};
use tessera_host::command::CommandContext;
use tessera_host::{Script, ScriptLimits};

/// Calls into a loaded scoring function (target: 2 us per call), then
/// measures save-to-reload.
pub fn figures(context: &CommandContext) -> anyhow::Result<Vec<Figure>> {
    let source = "return { score = function(cells, chain) return math.floor(10 * math.sqrt(cells)) * chain end }";
    let script = Script::load(
        Path::new("bench.lua"),
        source,
        None,
        ScriptLimits::default(),
    )?;
    const CALLS: u32 = 10_000;
    let mut failures = 0;
    let batch = sample_time(15, || {
        for i in 0..CALLS {
            if script
                .call::<f64>("score", (f64::from(i % 50 + 1), 2))
                .is_err()
            {
                failures += 1;
            }
        }
    });
    anyhow::ensure!(
        failures == 0,
        "the scoring function failed {failures} times"
    );
    let call = Figure {
        group: "script",
        min: Some((batch / CALLS).min),
        name: "Rust -> Lua scoring call".into(),
        measured: (batch / CALLS).median,
        target: Some(Duration::from_micros(2)),
    };
    Ok(vec![call, save_to_reload(context)?])
}

/// Saves a script (atomically, as the editor does) and waits until the
/// running game's slot holds the new version: watcher, debounce, load,
/// validate, swap (target: 500 ms).
pub fn save_to_reload(context: &CommandContext) -> anyhow::Result<Figure> {
    use std::time::Instant;

    use tessera_host::level::write_atomic;
    use tessera_host::script::watcher::{DEBOUNCE, FolderWatcher};

    let dir = tempfile::tempdir()?;
    std::fs::create_dir_all(dir.path().join("scripts"))?;
    let path = dir.path().join("scripts/live.lua");
    std::fs::write(&path, "return { version = 0 }")?;
    let mut project = context.open_project(dir.path())?;
    let live = project.script(&path)?;
    let watcher = FolderWatcher::new(&project.watched_folders(), DEBOUNCE)?;

    let mut times = Vec::new();
    for version in 1..=7_i64 {
        let start = Instant::now();
        write_atomic(
            &path,
            format!("return {{ version = {version} }}").as_bytes(),
        )?;
        loop {
            anyhow::ensure!(
                start.elapsed() < Duration::from_secs(10),
                "the save was never reloaded"
            );
            let changed = watcher.wait(Duration::from_millis(50)).unwrap_or_default();
            project.handle_changes(&changed);
            if live.current().value::<i64>("version")? == Some(version) {
                break;
            }
        }
        times.push(start.elapsed());
    }
    times.sort();
    Ok(Figure {
        group: "script",
        min: Some(times[0]),
        name: "save to active script (watch + debounce + swap)".into(),
        measured: times[times.len() / 2],
        target: Some(Duration::from_millis(500)),
    })
}
