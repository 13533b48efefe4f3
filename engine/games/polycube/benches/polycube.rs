//! Solver benches: Soma count, 6x10 pentominoes (plain and symmetry
//! broken), 12 flat pentominoes in 2x5x6.

use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use tessera_polycube::import::load_any;
use tessera_polycube::{PolycubeLevel, Solver};

fn level(name: &str) -> PolycubeLevel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../levels/polycube")
        .join(name);
    match load_any(&path) {
        Ok((level, _)) => level,
        Err(e) => panic!("bench level: {e}"),
    }
}

fn solver(level: &PolycubeLevel) -> Solver {
    match Solver::new(level.extents(), &level.shapes()) {
        Ok(s) => s,
        Err(e) => panic!("bench solver: {e}"),
    }
}

fn benches(c: &mut Criterion) {
    let cancel = AtomicBool::new(false);
    let soma = solver(&level("soma.ron"));
    let flat = level("pentominoes_6x10.ron");
    let six_ten = solver(&flat);
    let boxed = solver(&PolycubeLevel {
        size: (2, 5, 6),
        ..flat
    });
    let mut group = c.benchmark_group("polycube");
    group.sample_size(10);
    group.bench_function("soma count 11520/240", |b| {
        b.iter(|| black_box(soma.count(&cancel, &mut |_| {})))
    });
    group.bench_function("6x10 distinct 2339", |b| {
        b.iter(|| black_box(six_ten.count(&cancel, &mut |_| {})))
    });
    group.bench_function("2x5x6 count 2112/264", |b| {
        b.iter(|| black_box(boxed.count(&cancel, &mut |_| {})))
    });
    group.bench_function("6x10 plain 9356", |b| {
        b.iter(|| black_box(six_ten.count_plain(&cancel)))
    });
    group.finish();
}

criterion_group!(polycube, benches);
criterion_main!(polycube);
