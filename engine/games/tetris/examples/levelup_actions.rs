//! Writes a RON action list that plays `levels/tetris/marathon_20x10.ron`
//! (seed from the command line) with keyboard inputs up to a level-up,
//! scoring tetrises out of a well in the right column. A small greedy
//! player used to record `tests/replays/tetris/marathon_levelup.replay.ron`:
//!
//! `cargo run -p tessera-tetris --example levelup_actions -- 1 > actions.ron`

use std::path::Path;
use tessera_host::plugin::Scripted;

use tessera_host::level::load_level;
use tessera_host::{Game, LiveScript, Script, ScriptLimits, Setup};
use tessera_tetris::board::{Board, spawn_position};
use tessera_tetris::level::TetrisLevel;
use tessera_tetris::movegen::{Move, after_lock, find_path};
use tessera_tetris::{Tetris, TetrisAction};

fn value(board: &Board, lines: u32) -> f64 {
    let (w, h) = (board.width(), board.height());
    let mut heights = vec![0usize; w];
    let mut holes = 0;
    for (x, height) in heights.iter_mut().enumerate() {
        let mut seen = false;
        for y in 0..h {
            let filled = board.row(y) >> x & 1 == 1;
            if filled && !seen {
                seen = true;
                *height = h - y;
            } else if !filled && seen {
                holes += 1;
            }
        }
    }
    let well = heights[w - 1] as f64;
    let body = &heights[..w - 1];
    let max = *body.iter().max().unwrap_or(&0) as f64;
    let bump: usize = body.windows(2).map(|p| p[0].abs_diff(p[1])).sum();
    let aggregate: usize = body.iter().sum();
    let line_value = match lines {
        4 => 20.0,
        n if max > 8.0 => 2.0 * f64::from(n),
        n => -f64::from(n),
    };
    line_value
        - 4.0 * holes as f64
        - 0.5 * aggregate as f64
        - 0.2 * bump as f64
        - 2.0 * well
        - if max > 14.0 { 3.0 * max } else { 0.0 }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let root = tessera_testkit_root();
    let level: TetrisLevel = load_level(&root.join("levels/tetris/marathon_20x10.ron"))?;
    let script = Script::load_file(
        &root.join("scripts/tetris.lua"),
        Some(&Tetris::script_schema()),
        ScriptLimits::default(),
    )?;
    let mut game = Tetris::start(Setup::new(level, LiveScript::new(script), seed))?;
    let mut actions = Vec::new();
    while game.level_number() == 0 && !game.outcome().is_over() {
        let board = *game.field().board();
        let Some(active) = game.field().active() else {
            break;
        };
        let spawn = spawn_position(active.kind, board.width());
        let best = game
            .landings()
            .into_iter()
            .max_by(|a, b| {
                let va = {
                    let (n, l) = after_lock(&board, a);
                    value(&n, l)
                };
                let vb = {
                    let (n, l) = after_lock(&board, b);
                    value(&n, l)
                };
                va.total_cmp(&vb)
            })
            .ok_or("no landing")?;
        let path = find_path(&board, game.rotation(), spawn, &best).ok_or("no path")?;
        for step in path {
            let action = match step {
                Move::Left => TetrisAction::Left,
                Move::Right => TetrisAction::Right,
                Move::Down => TetrisAction::SoftDrop,
                Move::Cw => TetrisAction::RotateCw,
                Move::Ccw => TetrisAction::RotateCcw,
            };
            game.apply(&action)?;
            actions.push(action);
        }
        for action in [TetrisAction::Tick(3), TetrisAction::HardDrop] {
            game.apply(&action)?;
            actions.push(action);
        }
    }
    eprintln!(
        "score {} level {} lines {}",
        game.score(),
        game.level_number(),
        game.lines()
    );
    println!("[");
    for a in actions {
        println!("  {},", ron::to_string(&a)?);
    }
    println!("]");
    Ok(())
}

fn tessera_testkit_root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(3)
        .unwrap_or(Path::new("."))
        .to_path_buf()
}
