//! Saving a polycube level from the visual editor by patching its file:
//! only the values the editor changed are rewritten, so the author's
//! comments and layout stay everywhere else.

use std::path::Path;

use tessera_host::level::{LevelFile, parse_level};
use tessera_polycube::{PieceSpec, PolycubeLevel};

use tessera_host::ron_patch::PathPart::{Field, Index};
use tessera_host::ron_patch::{RonPatch, path};

/// A RON string literal (quotes and escapes as RON reads them).
fn string(s: &str) -> String {
    ron::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

fn triple<T: std::fmt::Display>((a, b, c): (T, T, T)) -> String {
    format!("({a}, {b}, {c})")
}

fn cells(cells: &[(i64, i64, i64)]) -> String {
    let inner: Vec<String> = cells.iter().map(|&c| triple(c)).collect();
    format!("[{}]", inner.join(", "))
}

/// A piece as the shipped levels write one: on one line.
fn piece(p: &PieceSpec) -> String {
    let mut out = format!("(id: {}, cells: {}", string(&p.id), cells(&p.cells));
    if let Some(colour) = p.colour {
        out.push_str(&format!(", colour: {}", triple(colour)));
    }
    out.push(')');
    out
}

/// `text` (whose level is `saved`) with the changes that make it `edited`,
/// or `None` when the text cannot be patched (the result would not read
/// back as `edited`).
pub fn patch(text: &str, saved: &PolycubeLevel, edited: &PolycubeLevel) -> Option<String> {
    let mut edited = edited.clone();
    edited.version = PolycubeLevel::VERSION;
    let mut p = RonPatch::new(text);
    if saved.version != edited.version {
        p.set_field(&[], "version", &edited.version.to_string())?;
    }
    if saved.name != edited.name {
        p.set_field(&[], "name", &string(&edited.name))?;
    }
    if saved.size != edited.size {
        p.set_field(&[], "size", &triple(edited.size))?;
    }
    if saved.pieces != edited.pieces {
        patch_pieces(&mut p, &saved.pieces, &edited.pieces)?;
    }
    let out = p.into_text();
    // The patch must read back as exactly the edited level.
    let back: PolycubeLevel = parse_level(&out, Path::new("level.ron")).ok()?;
    (back == edited).then_some(out)
}

fn patch_pieces(p: &mut RonPatch, old: &[PieceSpec], new: &[PieceSpec]) -> Option<()> {
    let list = path(&[Field("pieces")]);
    // The runs between kept pieces, last first, so that edits never move
    // the text of a run still to do.
    let mut bounds = vec![(0usize, 0usize)];
    for (i, j) in tessera_host::ron_diff::common_subsequence(old, new) {
        bounds.push((i, j));
        bounds.push((i + 1, j + 1));
    }
    bounds.push((old.len(), new.len()));
    for run in bounds.chunks(2).rev() {
        let [(a, c), (b, d)] = [run[0], run[1]];
        let paired = (b - a).min(d - c);
        // Pieces added: after the changed ones, before the next kept one.
        for (k, piece_new) in new[c + paired..d].iter().enumerate() {
            p.insert_entry(&list, a + paired + k, &piece(piece_new))?;
        }
        // Pieces removed, from the back.
        for index in (a + paired..b).rev() {
            p.remove_entry(&list, index)?;
        }
        // Pieces changed in place: only their changed fields.
        for k in 0..paired {
            patch_piece(p, a + k, &old[a + k], &new[c + k])?;
        }
    }
    Some(())
}

fn patch_piece(p: &mut RonPatch, index: usize, old: &PieceSpec, new: &PieceSpec) -> Option<()> {
    let at = path(&[Field("pieces"), Index(index)]);
    if old.id != new.id {
        p.set_field(&at, "id", &string(&new.id))?;
    }
    if old.cells != new.cells {
        p.set_field(&at, "cells", &cells(&new.cells))?;
    }
    if old.colour != new.colour {
        match new.colour {
            Some(colour) => p.set_field(&at, "colour", &triple(colour))?,
            None => p.remove_field(&at, "colour")?,
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOMA: &str = include_str!("../../../../../levels/polycube/soma.ron");

    fn soma() -> PolycubeLevel {
        parse_level(SOMA, Path::new("soma.ron")).expect("soma")
    }

    #[test]
    fn an_unchanged_level_is_the_same_text() {
        assert_eq!(patch(SOMA, &soma(), &soma()).as_deref(), Some(SOMA));
    }

    #[test]
    fn only_the_changed_values_are_rewritten() {
        let text = SOMA.replace(
            "    pieces: [\n",
            "    pieces: [\n        // the small one\n",
        );
        let saved = soma();
        let mut edited = saved.clone();
        edited.name = "Soma \"cube\"".into();
        edited.pieces[1].cells.push((1, 1, 2));
        edited.pieces[2].colour = Some((1, 2, 3));
        edited.pieces.remove(4);
        edited.pieces.push(PieceSpec {
            id: "Q".into(),
            cells: vec![(1, 1, 1)],
            colour: None,
        });
        let out = patch(&text, &saved, &edited).expect("patches");
        let expected = text
            .replace("\"Soma cube\"", "\"Soma \\\"cube\\\"\"")
            .replace(
                "(id: \"L\", cells: [(1, 1, 1), (2, 1, 1), (3, 1, 1), (1, 2, 1)])",
                "(id: \"L\", cells: [(1, 1, 1), (2, 1, 1), (3, 1, 1), (1, 2, 1), (1, 1, 2)])",
            )
            .replace(
                "(id: \"T\", cells: [(1, 1, 1), (2, 1, 1), (3, 1, 1), (2, 2, 1)])",
                "(id: \"T\", cells: [(1, 1, 1), (2, 1, 1), (3, 1, 1), (2, 2, 1)], colour: (1, 2, 3))",
            )
            .replace(
                "        (id: \"A\", cells: [(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 1, 2)]),\n",
                "",
            )
            .replace(
                "(1, 2, 1), (1, 1, 2)]),\n    ],",
                "(1, 2, 1), (1, 1, 2)]),\n        (id: \"Q\", cells: [(1, 1, 1)]),\n    ],",
            );
        assert_eq!(out, expected);
    }

    #[test]
    fn text_the_locator_cannot_follow_is_not_patched() {
        let text = format!("#![enable(implicit_some)]\n{SOMA}");
        let saved = soma();
        let mut edited = saved.clone();
        edited.size = (3, 3, 4);
        assert_eq!(patch(&text, &saved, &edited), None);
    }
}
