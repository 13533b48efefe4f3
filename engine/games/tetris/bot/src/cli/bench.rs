//! Tetris figures: move generation (every reachable landing with SRS,
//! soft-drop tucks and spins) and one AI decision (every reachable landing
//! generated and evaluated; with and without the one-piece lookahead) over
//! 1000 fixed mid-game positions (criterion: `cargo bench -p
//! tessera-tetris --bench tetris`), and MASTER's decision on the boards of
//! its own classic self-play (the figure), without and with the
//! game's one-piece preview. Then `generate tetris` with `--tspin
//! --unique` for 3, 4 and 5 pieces: the median and the slowest of ten
//! seeds (the target: at most 10 s each).

use std::time::Duration;

use rand::Rng;
use tessera_host::bench::{Figure, Timing, generation_figures, sample_time};
use tessera_host::command::CommandContext;

use crate::ai::{Brain, Difficulty, Position, UnknownNext};
use tessera_tetris::board::{Board, spawn_position};
use tessera_tetris::movegen::MoveGen;
use tessera_tetris::piece::{PieceKind, RotationSystem};
use tessera_tetris::scenarios;

/// Mean time per piece over the positions, median of several runs.
fn per_piece(system: RotationSystem) -> Timing {
    let positions = scenarios::mid_game(1000, 1);
    let mut generator = MoveGen::new();
    let batch = sample_time(21, || {
        let mut total = 0usize;
        for p in &positions {
            total += generator
                .generate(&p.board, p.piece, system, spawn_position(p.piece, 10))
                .len();
        }
        std::hint::black_box(total);
    });
    batch / positions.len() as u32
}

/// Mean time per AI decision over the positions, median of several runs.
fn per_decision(difficulty: &Difficulty, next_known: bool, runs: usize) -> Timing {
    let positions: Vec<Position> = scenarios::mid_game(1000, 1)
        .iter()
        .enumerate()
        .map(|(i, p)| Position {
            board: p.board,
            piece: p.piece,
            next: next_known.then(|| PieceKind::ALL[i % 7]),
            rotation: RotationSystem::Srs,
            spawn_row: 0,
            danger_rows: 2,
            ceiling: Default::default(),
            reader_streak: 0,
            unknown_next: UnknownNext::Average(PieceKind::ALL.to_vec()),
        })
        .collect();
    let mut brain = Brain::new();
    let batch = sample_time(runs, || {
        let mut total = 0usize;
        for p in &positions {
            total += brain.choose_top(p, difficulty, 0, 2).candidates.len();
        }
        std::hint::black_box(total);
    });
    batch / positions.len() as u32
}

/// `count` positions of `ai`'s own classic self-play, as `tessera sim
/// tetris` plays it: 10 x 20, the cycle rotation, uniform random pieces,
/// the top row the danger row; a new board after a top-out. Without
/// `preview` the AI does not know the next piece (the lookahead averages
/// over the seven); with it, it sees the next piece, as the classic game
/// shows it (`tessera sim tetris --preview`). The pieces come in the same
/// order either way.
fn self_play_positions(ai: &Difficulty, count: usize, preview: bool) -> Vec<Position> {
    let mut rng = tessera_host::rng::game_rng(20);
    let mut brain = Brain::new();
    let mut board = Board::new(10, 20);
    let mut positions = Vec::with_capacity(count);
    let mut next = PieceKind::ALL[rng.random_range(0..7)];
    while positions.len() < count {
        let piece = next;
        next = PieceKind::ALL[rng.random_range(0..7)];
        let position = Position {
            board,
            piece,
            next: preview.then_some(next),
            rotation: RotationSystem::Cycle,
            spawn_row: 0,
            danger_rows: 1,
            ceiling: Default::default(),
            reader_streak: 0,
            unknown_next: UnknownNext::Average(PieceKind::ALL.to_vec()),
        };
        let best = brain.choose_top(&position, ai, 0, 2).best().cloned();
        positions.push(position);
        match best {
            Some(best) if !best.metrics.game_over => {
                let p = best.placement;
                board.place(p.kind, p.state, p.x, p.y);
                board.clear_full_rows();
            }
            _ => board = Board::new(10, 20),
        }
    }
    positions
}

/// Mean time per decision of `ai` over `positions`, median of several runs.
fn per_decision_on(ai: &Difficulty, positions: &[Position], runs: usize) -> Timing {
    let mut brain = Brain::new();
    let batch = sample_time(runs, || {
        let mut total = 0usize;
        for p in positions {
            total += brain.choose_top(p, ai, 0, 2).candidates.len();
        }
        std::hint::black_box(total);
    });
    batch / positions.len() as u32
}

fn difficulty(context: &CommandContext, name: &str) -> anyhow::Result<Difficulty> {
    use tessera_host::Game;
    let mut project = context.current_project()?;
    let path = project.game_script_path(tessera_tetris::Tetris::ID);
    let script = project.script(&path).map_err(anyhow::Error::from)?;
    crate::ai::settings::difficulty(&script.current(), name)
        .map_err(anyhow::Error::from)?
        .ok_or_else(|| anyhow::anyhow!("{}: no difficulty `{name}`", path.display()))
}

/// The move generation figures with the target.
pub fn figures(context: &CommandContext) -> anyhow::Result<Vec<Figure>> {
    let campaign = super::bench_campaign::figures(context.current_project()?.root())?;
    let difficulty = |name: &str| difficulty(context, name);
    let master = difficulty("master")?;
    let self_play = self_play_positions(&master, 1000, false);
    let self_play_preview = self_play_positions(&master, 1000, true);
    let mut figures = vec![
        Figure::timed(
            "tetris",
            "movegen srs per piece (1000 mid-game 10-wide positions)",
            per_piece(RotationSystem::Srs),
            Some(Duration::from_micros(2)),
        ),
        Figure::timed(
            "tetris",
            "movegen cycle per piece (same positions)",
            per_piece(RotationSystem::Cycle),
            None,
        ),
        Figure::timed(
            "tetris",
            "AI decision, GOD_SEED (the seed's order), no lookahead (srs, same positions)",
            per_decision(&difficulty("god_seed")?, false, 11),
            Some(Duration::from_micros(10)),
        ),
        Figure::timed(
            "tetris",
            "AI decision, GOD, its guards and lookahead as the average over 7 pieces",
            per_decision(&difficulty("god")?, false, 3),
            Some(Duration::from_millis(1)),
        ),
        Figure::timed(
            "tetris",
            "AI decision, HARD weights, no lookahead",
            per_decision(
                &Difficulty {
                    lookahead: 0,
                    ..difficulty("hard")?
                },
                false,
                11,
            ),
            Some(Duration::from_micros(10)),
        ),
        Figure::timed(
            "tetris",
            "AI decision, MASTER, lookahead on the known next piece",
            per_decision(&difficulty("master")?, true, 3),
            Some(Duration::from_millis(1)),
        ),
        Figure::timed(
            "tetris",
            "AI decision, MASTER, lookahead as the average over 7 pieces",
            per_decision(&master, false, 3),
            Some(Duration::from_millis(1)),
        ),
        Figure::timed(
            "tetris",
            "AI decision, MASTER, classic self-play (1000 boards of its own game: cycle, 10 x 20, average over 7)",
            per_decision_on(&master, &self_play, 5),
            Some(Duration::from_micros(20)),
        ),
        Figure::timed(
            "tetris",
            "AI decision, MASTER, classic self-play with the game's preview (the next piece known; 1000 boards of that game)",
            per_decision_on(&master, &self_play_preview, 5),
            None,
        ),
    ];
    figures.extend(campaign);
    for spec in [
        ["--lines", "2", "--pieces", "3", "--tspin", "--unique"],
        ["--lines", "3", "--pieces", "4", "--tspin", "--unique"],
        ["--lines", "3", "--pieces", "5", "--tspin", "--unique"],
    ] {
        figures.extend(
            generation_figures(
                "tetris",
                tessera_tetris::generate::GENERATOR,
                &spec,
                1..=10,
                Some(Duration::from_secs(10)),
            )
            .map_err(anyhow::Error::msg)?,
        );
    }
    Ok(figures)
}
