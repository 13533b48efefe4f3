//! Criterion bench: one call from Rust into a loaded Lua scoring function
//! (target: at most 2 us in a release build).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use tessera_host::{Script, ScriptLimits};

fn scoring_call(c: &mut Criterion) {
    let source = "return { score = function(cells, chain) return math.floor(10 * math.sqrt(cells)) * chain end }";
    let Ok(script) = Script::load(
        Path::new("bench.lua"),
        source,
        None,
        ScriptLimits::default(),
    ) else {
        panic!("the bench script must load");
    };
    c.bench_function("script/score_call", |b| {
        b.iter(|| script.call::<f64>("score", (black_box(24.0), black_box(2))))
    });
}

criterion_group!(benches, scoring_call);
criterion_main!(benches);
