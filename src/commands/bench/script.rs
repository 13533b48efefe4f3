//! Script-host figures: a Rust-to-Lua call.

use std::path::Path;
use std::time::Duration;

use tessera_engine::{Script, ScriptLimits};

use super::{Figure, median_time};

/// Calls into a loaded scoring function (target: 2 us per call).
pub fn figures() -> anyhow::Result<Vec<Figure>> {
    let source = "return { score = function(cells, chain) return math.floor(10 * math.sqrt(cells)) * chain end }";
    let script = Script::load(
        Path::new("bench.lua"),
        source,
        None,
        ScriptLimits::default(),
    )?;
    const CALLS: u32 = 10_000;
    let mut failures = 0;
    let batch = median_time(15, || {
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
    Ok(vec![Figure {
        group: "script",
        name: "Rust -> Lua scoring call".into(),
        measured: batch / CALLS,
        target: Some(Duration::from_micros(2)),
    }])
}
