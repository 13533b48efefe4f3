//! Each game's level editor as its page (`docs/games/<id>.md`, "Your
//! first level") teaches it: File ▸ New level… (Ctrl+N), then the clicks
//! the page lists, the level saved with Ctrl+S and the saved text checked
//! for what those clicks make before the shot.

use std::path::Path;

use anyhow::{Context as _, bail};
use egui::{Key, Modifiers};

use crate::walk::Walk;

/// A fresh editor on `root` with a new level of `game` named `name`
/// created through the New level dialog and open in its visual editor.
fn new_level(root: &Path, game: &str, name: &str) -> anyhow::Result<Walk> {
    let mut walk = Walk::open(root)?;
    walk.chord(Modifiers::COMMAND, Key::N);
    walk.click_containing("Game: ")?;
    walk.click_containing(&format!("{game}: "))?;
    walk.retype("Name", name)?;
    walk.click("Create")?;
    let path = format!("levels/{game}/{name}.ron");
    if walk.active_path()? != path {
        bail!("New level opened {}, not {path}", walk.active_path()?);
    }
    Ok(walk)
}

/// Ctrl+S, then the level's text on disk.
fn saved(walk: &mut Walk, game: &str, name: &str) -> anyhow::Result<String> {
    walk.chord(Modifiers::COMMAND, Key::S);
    walk.frames(3);
    let path = walk.root().join(format!("levels/{game}/{name}.ron"));
    std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))
}

/// The centre of cell (`column`, `row`), both from 0 at the top left, of
/// the board named `board` that is `columns` x `rows` cells.
fn cell(
    walk: &Walk,
    board: &str,
    (columns, rows): (u32, u32),
    (column, row): (u32, u32),
) -> anyhow::Result<egui::Pos2> {
    let rect = walk.rect_of(board)?;
    let (w, h) = (rect.width() / columns as f32, rect.height() / rows as f32);
    Ok(rect.min + egui::vec2((column as f32 + 0.5) * w, (row as f32 + 0.5) * h))
}

/// Polycube: the new level's 2 x 2 x 2 box made 3 deep, and a third
/// piece drawn on the per-layer grid: a flat square, four clicks.
pub fn polycube(root: &Path, out: &Path) -> anyhow::Result<()> {
    let mut walk = new_level(root, "polycube", "first_box")?;
    walk.set_number("Z", 3.0)?;
    walk.click("Add piece")?;
    for label in ["piece cell 2,1,1", "piece cell 1,2,1", "piece cell 2,2,1"] {
        walk.click(label)?;
    }
    walk.expect("pieces hold 12 cells, the box has 12")?;
    walk.wait_for("the live verdict", |w| {
        !w.named_containing("solvable, ").is_empty()
    })?;
    let text = saved(&mut walk, "polycube", "first_box")?;
    for part in [
        "size: (2, 2, 3)",
        "cells: [(1, 1, 1), (1, 2, 1), (2, 1, 1), (2, 2, 1)]",
    ] {
        if !text.contains(part) {
            bail!("the saved level has no `{part}`:\n{text}");
        }
    }
    walk.shoot(&out.join("level-polycube.png"))
}

/// Tetris: an 8-wide, 10-deep well whose goal is to clear three rows of
/// garbage, each filled with one click of the fill-row tool (the clicked
/// cell stays the hole).
pub fn tetris(root: &Path, out: &Path) -> anyhow::Result<()> {
    let mut walk = new_level(root, "tetris", "first_well")?;
    walk.set_number("rows", 10.0)?;
    walk.set_number("columns", 8.0)?;
    walk.expect("level kind")?;
    walk.click("goal")?;
    walk.click("clear garbage")?;
    walk.click("fill row (clicked cell stays a hole)")?;
    let size = (8, 10);
    for (hole, row) in [(2, 9), (6, 8), (4, 7)] {
        let at = cell(&walk, "tetris level board", size, (hole, row))?;
        walk.click_at(at);
    }
    let text = saved(&mut walk, "tetris", "first_well")?;
    for part in [
        "goal: ClearGarbage",
        "\"GGGG.GGG\"",
        "\"GGGGGG.G\"",
        "\"GG.GGGGG\"",
    ] {
        if !text.contains(part) {
            bail!("the saved level has no `{part}`:\n{text}");
        }
    }
    walk.shoot(&out.join("level-tetris.png"))
}

/// Sand: a 6 x 8 board with a red floor one cell short and a blue
/// ledge, painted with the brush in two strokes; then, in the RON text
/// tab, a tray of one red O and the goal of one clear; then F5.
pub fn sand(root: &Path, out: &Path) -> anyhow::Result<()> {
    let mut walk = new_level(root, "sand", "first_tray")?;
    walk.set_number("Columns", 6.0)?;
    walk.set_number("Rows", 8.0)?;
    walk.click("R red")?;
    let size = (6, 8);
    let from = cell(&walk, "sand level board", size, (0, 7))?;
    let to = cell(&walk, "sand level board", size, (4, 7))?;
    walk.drag(from, to);
    walk.click("B blue")?;
    let from = cell(&walk, "sand level board", size, (0, 6))?;
    let to = cell(&walk, "sand level board", size, (2, 6))?;
    walk.drag(from, to);
    walk.expect("✔ level is valid")?;
    // The tray is text: two lines before the level's closing parenthesis.
    walk.click("RON text")?;
    let text = walk.active_text()?;
    let end = text
        .trim_end()
        .rfind(')')
        .context("the level's text has no `)`")?;
    let with_tray = format!(
        "{}    tray: [\"O R\"],\n    clears: Some(1),\n{}",
        &text[..end],
        &text[end..]
    );
    walk.retype_code(&with_tray)?;
    walk.click("Visual")?;
    walk.expect("✔ level is valid")?;
    let text = saved(&mut walk, "sand", "first_tray")?;
    for part in [
        "columns: 6",
        "rows: 8",
        "\"BBB...\"",
        "\"RRRRR.\"",
        "tray: [\"O R\"]",
        "clears: Some(1)",
    ] {
        if !text.contains(part) {
            bail!("the saved level has no `{part}`:\n{text}");
        }
    }
    walk.key(Key::F5);
    walk.wait_for("the playtest of first_tray.ron", |w| {
        !w.named_containing("· levels/sand/first_tray.ron ·")
            .is_empty()
    })?;
    walk.expect("pieces placed 0")?;
    walk.shoot(&out.join("level-sand.png"))?;
    // What the page says next: the red O dropped at the right wall fills
    // the gap, and the red spans and clears.
    let slot = walk.rect_of("slot 1")?.center();
    let board = walk.rect_of("sand board")?;
    let target = board.right_top() + egui::vec2(-board.width() / 6.0, board.height() / 4.0);
    walk.drag(slot, target);
    walk.wait_for("the red floor's clear", |w| {
        !w.named_containing("  x1  ").is_empty()
    })
}

/// Azul: a scenario whose first player scores the round's goal by
/// finishing the top row of the wall: four wall tiles and one orange tile
/// on the first pattern line, and tiles on the first factory to draft.
pub fn azul(root: &Path, out: &Path) -> anyhow::Result<()> {
    let mut walk = new_level(root, "azul", "first_endgame")?;
    walk.click("Add a starting position")?;
    for column in 1..=4 {
        walk.click(&format!("player 1 wall 1 {column}"))?;
    }
    walk.click("orange")?;
    walk.click("player 1 line 1 cell 1")?;
    for (colour, tiles) in [("blue", 2), ("red", 2)] {
        walk.click(colour)?;
        for _ in 0..tiles {
            // Below the boards: out of the window at this size.
            walk.activate("+ factory 1")?;
        }
    }
    walk.expect("Position OK")?;
    let text = saved(&mut walk, "azul", "first_endgame")?;
    for part in [
        "\"BYRG.\"",
        "\"O\"",
        "\"BBRR\"",
        "RoundScore(seat: 1, points: 5)",
    ] {
        if !text.contains(part) {
            bail!("the saved level has no `{part}`:\n{text}");
        }
    }
    walk.shoot(&out.join("level-azul.png"))
}
