//! Azul figures: whole random 2-player games (target: at least 100,000 a
//! second on one core, i.e. at most 10 us each), the same on the grey wall,
//! and move listing
//! (criterion: `cargo bench -p tessera-azul --bench azul`); then `generate
//! azul --endgame` for 2, 3 and 4 seats, the median and the slowest of
//! seeds 1 to 10 (the target: at most 30 s each).

use std::time::Duration;

use tessera_host::bench::{Figure, generation_figures, sample_time};
use tessera_host::command::CommandContext;
use tessera_host::rng::game_rng;

use crate::ai::random_playout;
use crate::rules::{MoveList, Rules, State};

/// Playouts per timed batch (the figure is the batch time / this).
const BATCH: u32 = 2000;

/// The playout and move-listing figures.
pub fn figures(_: &CommandContext) -> anyhow::Result<Vec<Figure>> {
    let mut rng = game_rng(1);
    let mut fresh = State::new(Rules::default(), 2);
    fresh.deal(&mut rng, None);
    let batch = sample_time(15, || {
        for _ in 0..BATCH {
            let mut s = fresh;
            std::hint::black_box(random_playout(&mut s, &mut rng));
        }
    });
    // The grey wall: the same games, columns picked by the tiling's
    // heuristic (no target of its own; the printed wall's is the spec's).
    let mut grey = State::new(
        Rules {
            grey_wall: true,
            ..Rules::default()
        },
        2,
    );
    grey.deal(&mut rng, None);
    let grey_batch = sample_time(15, || {
        for _ in 0..BATCH {
            let mut s = grey;
            std::hint::black_box(random_playout(&mut s, &mut rng));
        }
    });
    let mut moves = MoveList::default();
    let listing = sample_time(15, || {
        for _ in 0..BATCH {
            std::hint::black_box(&fresh).legal_moves(&mut moves);
            std::hint::black_box(moves.len());
        }
    });
    let mut figures = vec![
        Figure {
            group: "azul",
            min: Some((batch / BATCH).min),
            name: "random playout: whole 2-player game".into(),
            measured: (batch / BATCH).median,
            target: Some(Duration::from_micros(10)),
        },
        Figure {
            group: "azul",
            min: Some((grey_batch / BATCH).min),
            name: "random playout: whole 2-player game, grey wall".into(),
            measured: (grey_batch / BATCH).median,
            target: None,
        },
        Figure {
            group: "azul",
            min: Some((listing / BATCH).min),
            name: "legal moves: first move of a 2-player game".into(),
            measured: (listing / BATCH).median,
            target: None,
        },
    ];
    for seats in ["2", "3", "4"] {
        figures.extend(
            generation_figures(
                "azul",
                crate::generate::GENERATOR,
                &["--endgame", "--seats", seats],
                1..=10,
                Some(Duration::from_secs(30)),
            )
            .map_err(anyhow::Error::msg)?,
        );
    }
    Ok(figures)
}
