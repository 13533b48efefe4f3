//! Polycube solver figures: Soma count, 6x10 pentominoes raw and distinct,
//! 12 flat pentominoes in 2x5x6. Each run also checks its count.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tessera_polycube::import::load_any;
use tessera_polycube::{PolycubeLevel, Solver};

use super::{Figure, median_time};

fn level(name: &str) -> anyhow::Result<PolycubeLevel> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("levels/polycube")
        .join(name);
    let (level, _) = load_any(&path).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(level)
}

fn solver(level: &PolycubeLevel) -> anyhow::Result<Solver> {
    Ok(Solver::new(level.extents(), &level.shapes())?)
}

/// Times `count` (symmetry-broken, both figures) or `count_plain` (raw)
/// and checks the result against the published figure.
fn figure(
    name: &str,
    solver: &Solver,
    plain: bool,
    expected: u64,
    runs: usize,
    target: Duration,
) -> anyhow::Result<Figure> {
    let cancel = AtomicBool::new(false);
    let mut wrong = None;
    let measured = median_time(runs, || {
        let got = if plain {
            solver.count_plain(&cancel).unwrap_or(0)
        } else {
            solver
                .count(&cancel, &mut |_| {})
                .map(|c| c.distinct)
                .unwrap_or(0)
        };
        if got != expected {
            wrong = Some(got);
        }
    });
    if let Some(got) = wrong {
        anyhow::bail!("{name}: counted {got}, expected {expected}");
    }
    Ok(Figure {
        group: "polycube",
        name: name.into(),
        measured,
        target: Some(target),
    })
}

/// The four headline solver figures.
pub fn figures() -> anyhow::Result<Vec<Figure>> {
    let soma = solver(&level("soma.ron")?)?;
    let six_ten = level("pentominoes_6x10.ron")?;
    let box_2x5x6 = PolycubeLevel {
        size: (2, 5, 6),
        ..six_ten.clone()
    };
    let six_ten = solver(&six_ten)?;
    let box_2x5x6 = solver(&box_2x5x6)?;
    Ok(vec![
        figure(
            "Soma cube: count 11520 solutions (240 distinct)",
            &soma,
            false,
            240,
            11,
            Duration::from_millis(100),
        )?,
        figure(
            "pentominoes 6x10: all 9356 solutions, plain search",
            &six_ten,
            true,
            9356,
            3,
            Duration::from_secs(3),
        )?,
        figure(
            "pentominoes 6x10: 2339 distinct (symmetry broken)",
            &six_ten,
            false,
            2339,
            3,
            Duration::from_secs(1),
        )?,
        figure(
            "pentominoes in 2x5x6: all 2112 solutions, plain search",
            &box_2x5x6,
            true,
            2112,
            3,
            Duration::from_secs(3),
        )?,
        figure(
            "pentominoes in 2x5x6: 2112 / 264 distinct, symmetry broken",
            &box_2x5x6,
            false,
            264,
            3,
            Duration::from_secs(3),
        )?,
    ])
}
