//! Helpers shared by the sand tests: scripts, small levels, board checks.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use tessera_host::plugin::Scripted;

use tessera_host::{Game, LiveScript, Script, ScriptLimits};
use tessera_sand::grid::GrainGrid;
use tessera_sand::piece::{Piece, Shape};
use tessera_sand::{Sand, SandAction, SandLevel};

/// The shipped `scripts/sand.lua`.
pub fn shipped_script_path() -> PathBuf {
    tessera_testkit::repo_path("scripts/sand.lua")
}

/// The shipped script, loaded and validated.
pub fn shipped_script() -> LiveScript {
    let path = shipped_script_path();
    let script = Script::load_file(&path, Some(&Sand::script_schema()), ScriptLimits::default())
        .expect("the shipped sand script loads");
    LiveScript::new(script)
}

/// A script from source text (as `scripts/sand.lua`).
pub fn script(source: &str) -> Result<Script, tessera_host::ScriptError> {
    Script::load(
        Path::new("scripts/sand.lua"),
        source,
        Some(&Sand::script_schema()),
        ScriptLimits::default(),
    )
}

/// A level of `columns` x `rows` logical cells of `cell` grains, with the
/// given logical board (bottom-aligned).
pub fn level(columns: u32, rows: u32, cell: u32, board: &[&str]) -> SandLevel {
    SandLevel {
        version: 1,
        columns,
        rows,
        cell,
        board: board.iter().map(|r| r.to_string()).collect(),
        ..SandLevel::default()
    }
}

/// Starts a game with the shipped script.
pub fn start(level: SandLevel, seed: u64) -> Sand {
    Sand::start(tessera_host::Setup::new(level, shipped_script(), seed)).expect("game starts")
}

/// Palette indices of the shipped script.
pub const RED: u8 = 0;
pub const BLUE: u8 = 1;
pub const GREEN: u8 = 2;
pub const YELLOW: u8 = 3;

/// Puts `shape` in `colour` into slot 0 and places it at (x, y).
pub fn drop_piece(game: &mut Sand, shape: Shape, colour: u8, x: i32, y: i32) {
    game.set_slot(0, Piece { shape, colour }).unwrap();
    game.apply(&SandAction::Place {
        slot: 0,
        x,
        y,
        rotation: 0,
    })
    .unwrap_or_else(|e| panic!("placing {shape} at {x},{y}: {e}"));
}

/// Grains of `colour` on the board.
pub fn count_colour(grid: &GrainGrid, colour: u8) -> usize {
    (0..grid.height())
        .map(|y| grid.colour_row(y, colour).count_ones() as usize)
        .sum()
}

/// Every grain that could still move: one of its three cells below is
/// inside the grid and empty.
pub fn movable_grains(grid: &GrainGrid) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for y in 0..grid.height() - 1 {
        for x in 0..grid.width() {
            if grid.colour_at(x, y).is_none() {
                continue;
            }
            let empty = |cx: isize| {
                cx >= 0
                    && (cx as usize) < grid.width()
                    && grid.colour_at(cx as usize, y + 1).is_none()
            };
            let x = x as isize;
            if empty(x) || empty(x - 1) || empty(x + 1) {
                found.push((x as usize, y));
            }
        }
    }
    found
}

/// Whether grains of `colour` (awake or not) connect the two side walls,
/// by a plain breadth-first search: an independent check of the rule.
pub fn colour_spans(grid: &GrainGrid, colour: u8) -> bool {
    let (w, h) = (grid.width(), grid.height());
    let mut seen = vec![false; w * h];
    let mut queue: Vec<(usize, usize)> = (0..h)
        .filter(|&y| grid.colour_at(0, y) == Some(colour))
        .map(|y| (0, y))
        .collect();
    for &(x, y) in &queue {
        seen[y * w + x] = true;
    }
    while let Some((x, y)) = queue.pop() {
        if x == w - 1 {
            return true;
        }
        let mut visit = |nx: usize, ny: usize| {
            if grid.colour_at(nx, ny) == Some(colour) && !seen[ny * w + nx] {
                seen[ny * w + nx] = true;
                queue.push((nx, ny));
            }
        };
        if x > 0 {
            visit(x - 1, y);
        }
        if x + 1 < w {
            visit(x + 1, y);
        }
        if y > 0 {
            visit(x, y - 1);
        }
        if y + 1 < h {
            visit(x, y + 1);
        }
    }
    false
}
