//! A visual editor's save for any level type: the old and the new level
//! are each written as one line of RON, compared value by value (struct
//! fields by name, lists entry by entry with the unchanged entries kept, an
//! `Option` or enum variant through its contents), and only the values that
//! differ are written into the file's text with [`RonPatch`], so comments
//! and layout stay everywhere else. A value the file does not write yet is
//! added in the file's layout: on one line when short, else one entry per
//! line with the file's indent.
//!
//! The result must read back as the new level; otherwise there is no patch
//! (`None`) and the caller re-serialises the level and says so.

use std::path::Path;

use serde::Serialize;

use crate::level::{FieldKey, LevelFile, parse_level};
use crate::ron_locate::{Bracket, bracket, value_span};
use crate::ron_patch::RonPatch;

/// Longest value written on one line when it is added to a file; longer
/// brackets get one entry per line, as the shipped levels write them.
const INLINE_WIDTH: usize = 40;

/// How deep a long value added to a file is broken into lines (the rest
/// of it stays on its entry's line).
const LINE_DEPTH: usize = 1;

/// `value` written as RON on one line, the way the shipped files write
/// short values (`(1, 2, 3)`, `Some("srs")`, `Lines(2)`).
pub fn inline<T: Serialize + ?Sized>(value: &T) -> Option<String> {
    let config = ron::ser::PrettyConfig::new()
        .new_line("")
        .indentor("")
        .separator(" ")
        .compact_arrays(true)
        .compact_structs(true)
        .compact_maps(true);
    ron::ser::to_string_pretty(value, config).ok()
}

/// `text` (which reads as `old`) with only the values that make it `new`
/// rewritten, or `None` when the text cannot be patched into `new`.
pub fn patch_level<L: LevelFile + PartialEq>(text: &str, old: &L, new: &L) -> Option<String> {
    let (old_ron, new_ron) = (inline(old)?, inline(new)?);
    let mut diff = Diff {
        patch: RonPatch::new(text),
        old: &old_ron,
        new: &new_ron,
        unit: indent_unit(text),
    };
    diff.value(&[], &[], &[])?;
    let out = diff.patch.into_text();
    let back: L = parse_level(&out, Path::new("level.ron")).ok()?;
    (back == *new).then_some(out)
}

/// What a visual editor's edit writes: `source` (which reads as `saved`)
/// patched into `edited`, or, when the text cannot be patched, `edited`
/// re-serialised under the file's leading comment lines.
pub fn edited_text<L: LevelFile + PartialEq>(
    source: &str,
    saved: &L,
    edited: &L,
) -> Result<String, ron::Error> {
    if let Some(text) = patch_level(source, saved, edited) {
        return Ok(text);
    }
    Ok(format!(
        "{}{}",
        leading_comments(source),
        crate::level::to_ron_string(edited)?
    ))
}

/// The comment lines a file starts with (`//` lines, blank lines between
/// them kept), so a re-serialised level does not drop them.
pub fn leading_comments(text: &str) -> String {
    let mut header = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            header.push_str(line);
            header.push('\n');
        } else if trimmed.is_empty() && !header.is_empty() {
            header.push('\n');
        } else {
            break;
        }
    }
    header
}

/// The file's indent step: how far the top level's first entry is indented
/// (four spaces when it writes everything on one line).
fn indent_unit(text: &str) -> String {
    bracket(text, &[])
        .and_then(|b| {
            let first = b.entries.first()?;
            let line_start = text[..first.span.start].rfind('\n')? + 1;
            let indent = &text[line_start..first.span.start];
            (!indent.is_empty() && indent.chars().all(|c| c == ' ' || c == '\t'))
                .then(|| indent.to_string())
        })
        .unwrap_or_else(|| "    ".to_string())
}

/// One comparison of the old and new level's RON, written into the file.
struct Diff<'a> {
    patch: RonPatch,
    old: &'a str,
    new: &'a str,
    unit: String,
}

/// The identifier before a bracket (`Some`, `Lines`, a struct name) and the
/// bracket's character.
fn shape<'t>(text: &'t str, span: &std::ops::Range<usize>, b: &Bracket) -> (&'t str, u8) {
    (text[span.start..b.open].trim(), text.as_bytes()[b.open])
}

fn push(path: &[FieldKey], key: FieldKey) -> Vec<FieldKey> {
    let mut out = path.to_vec();
    out.push(key);
    out
}

impl Diff<'_> {
    /// Makes the file's value at `file` (the old value at `old`) the new
    /// value at `new`.
    fn value(&mut self, file: &[FieldKey], old: &[FieldKey], new: &[FieldKey]) -> Option<()> {
        let old_span = value_span(self.old, old)?;
        let new_span = value_span(self.new, new)?;
        if self.old[old_span.clone()] == self.new[new_span.clone()] {
            return Some(());
        }
        let file_span = value_span(self.patch.text(), file);
        if file_span.is_none() {
            // A field the file leaves out (its default): added.
            let (Some(FieldKey::Name(name)), parent) = (file.last(), &file[..file.len() - 1])
            else {
                return None;
            };
            let written = self.written(new, parent.len() + 1);
            return self.patch.set_field(parent, name, &written);
        }
        let brackets = (bracket(self.old, old), bracket(self.new, new));
        if let (Some(ob), Some(nb)) = brackets
            && shape(self.old, &old_span, &ob) == shape(self.new, &new_span, &nb)
        {
            let (_, kind) = shape(self.new, &new_span, &nb);
            let named = |b: &Bracket| b.entries.iter().all(|e| e.name.is_some());
            if kind == b'[' {
                return self.list(file, old, new, &ob, &nb);
            }
            if named(&ob) && named(&nb) && (!ob.entries.is_empty() || !nb.entries.is_empty()) {
                return self.fields(file, old, new, &ob, &nb);
            }
            if ob.entries.len() == nb.entries.len() && !ob.entries.is_empty() {
                // A tuple, `Some(..)` or a variant's contents: entry by entry.
                for i in 0..nb.entries.len() {
                    let key = FieldKey::Index(i);
                    self.value(
                        &push(file, key.clone()),
                        &push(old, key.clone()),
                        &push(new, key),
                    )?;
                }
                return Some(());
            }
        }
        let written = self.written(new, file.len());
        self.patch.replace(file, &written)
    }

    /// A struct: each field by name; fields gone are removed, new ones
    /// added.
    fn fields(
        &mut self,
        file: &[FieldKey],
        old: &[FieldKey],
        new: &[FieldKey],
        ob: &Bracket,
        nb: &Bracket,
    ) -> Option<()> {
        for entry in &nb.entries {
            let name = entry.name.clone()?;
            let key = FieldKey::Name(name.clone());
            if ob.entries.iter().any(|e| e.name.as_deref() == Some(&name)) {
                self.value(
                    &push(file, key.clone()),
                    &push(old, key.clone()),
                    &push(new, key),
                )?;
            } else {
                let written = self.written(&push(new, key), file.len() + 1);
                self.patch.set_field(file, &name, &written)?;
            }
        }
        for entry in &ob.entries {
            let name = entry.name.as_deref()?;
            if !nb.entries.iter().any(|e| e.name.as_deref() == Some(name)) {
                self.patch.remove_field(file, name)?;
            }
        }
        Some(())
    }

    /// A list: the entries both lists share (a longest common subsequence)
    /// keep their text; between them, entries are changed in place, added
    /// or removed. A list the file writes empty is written whole.
    fn list(
        &mut self,
        file: &[FieldKey],
        old: &[FieldKey],
        new: &[FieldKey],
        ob: &Bracket,
        nb: &Bracket,
    ) -> Option<()> {
        if ob.entries.is_empty() {
            let written = self.written(new, file.len());
            return self.patch.replace(file, &written);
        }
        let entry =
            |text: &str, b: &Bracket, i: usize| text[b.entries[i].value.clone()].to_string();
        let olds: Vec<String> = (0..ob.entries.len())
            .map(|i| entry(self.old, ob, i))
            .collect();
        let news: Vec<String> = (0..nb.entries.len())
            .map(|i| entry(self.new, nb, i))
            .collect();
        let mut bounds = vec![(0usize, 0usize)];
        for (i, j) in common_subsequence(&olds, &news) {
            bounds.push((i, j));
            bounds.push((i + 1, j + 1));
        }
        bounds.push((olds.len(), news.len()));
        // Runs between kept entries, last first, so an edit never moves
        // the text of a run still to do.
        for run in bounds.chunks(2).rev() {
            let [(a, c), (b, d)] = [run[0], run[1]];
            let paired = (b - a).min(d - c);
            for k in 0..(d - c - paired) {
                let new_at = push(new, FieldKey::Index(c + paired + k));
                let written = self.written(&new_at, file.len() + 1);
                self.patch.insert_entry(file, a + paired + k, &written)?;
            }
            for index in (a + paired..b).rev() {
                self.patch.remove_entry(file, index)?;
            }
            for k in 0..paired {
                self.value(
                    &push(file, FieldKey::Index(a + k)),
                    &push(old, FieldKey::Index(a + k)),
                    &push(new, FieldKey::Index(c + k)),
                )?;
            }
        }
        Some(())
    }

    /// The new value at `new`, written for a place `depth` brackets deep in
    /// the file: on one line when short, else broken into lines.
    fn written(&self, new: &[FieldKey], depth: usize) -> String {
        let Some(span) = value_span(self.new, new) else {
            return String::new();
        };
        let value = &self.new[span];
        let indent = self.unit.repeat(depth);
        lines(value, &indent, &self.unit, LINE_DEPTH)
    }
}

/// `value` (one line of RON) with its brackets broken into one entry per
/// line, `levels` deep, when it is longer than [`INLINE_WIDTH`]; `indent`
/// is the indent of the line the value starts on.
fn lines(value: &str, indent: &str, unit: &str, levels: usize) -> String {
    if value.len() <= INLINE_WIDTH {
        return value.to_string();
    }
    broken(value, indent, unit, levels)
}

/// [`lines`] without the width check (the inside of a long `Some((..))`).
fn broken(value: &str, indent: &str, unit: &str, levels: usize) -> String {
    let Some(b) = bracket(value, &[]) else {
        return value.to_string();
    };
    if levels == 0 || b.entries.is_empty() {
        return value.to_string();
    }
    // `Some((..))`, a newtype: the one entry opens on the same line.
    if b.entries.len() == 1 && b.entries[0].name.is_none() {
        let inner = &value[b.entries[0].value.clone()];
        if bracket(inner, &[]).is_some() {
            let head = &value[..=b.open];
            let tail = &value[b.close..];
            return format!("{head}{}{tail}", broken(inner, indent, unit, levels));
        }
    }
    let inner_indent = format!("{indent}{unit}");
    let mut out = value[..=b.open].to_string();
    out.push('\n');
    for entry in &b.entries {
        out.push_str(&inner_indent);
        if let Some(name) = &entry.name {
            out.push_str(name);
            out.push_str(": ");
        }
        let entry_value = &value[entry.value.clone()];
        out.push_str(&lines(entry_value, &inner_indent, unit, levels - 1));
        out.push_str(",\n");
    }
    out.push_str(indent);
    out.push_str(&value[b.close..]);
    out
}

/// Pairs of (old, new) indices of entries kept unchanged: a longest common
/// subsequence, so an added or removed entry leaves the others' text alone.
pub fn common_subsequence<T: PartialEq>(old: &[T], new: &[T]) -> Vec<(usize, usize)> {
    let (n, m) = (old.len(), new.len());
    let mut table = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i][j] = if old[i] == new[j] {
                table[i + 1][j + 1] + 1
            } else {
                table[i + 1][j].max(table[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n && j < m {
        if old[i] == new[j] {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if table[i + 1][j] >= table[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    struct Feed {
        difficulty: String,
        target_lines: u32,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    enum Goal {
        #[default]
        Marathon,
        Lines(u32),
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
    struct Level {
        version: u32,
        #[serde(default)]
        title: String,
        #[serde(default)]
        goal: Goal,
        #[serde(default)]
        board: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        feed: Option<Feed>,
    }

    impl LevelFile for Level {
        const VERSION: u32 = 1;
        fn version(&self) -> u32 {
            self.version
        }
    }

    const TEXT: &str = "// A level.\n(\n  version: 1,\n  title: \"One\", // the name\n  board: [\n    \"AB\", // top\n    \"CD\",\n  ],\n)\n";

    fn level() -> Level {
        parse_level(TEXT, Path::new("t.ron")).expect("parses")
    }

    #[test]
    fn a_changed_value_is_the_only_change() {
        let old = level();
        let mut new = old.clone();
        new.title = "Two".into();
        let out = patch_level(TEXT, &old, &new).expect("patches");
        assert_eq!(out, TEXT.replace("\"One\"", "\"Two\""));
    }

    #[test]
    fn list_entries_are_kept_changed_and_added_in_the_files_layout() {
        let old = level();
        let mut new = old.clone();
        new.board = vec!["..".into(), "AB".into(), "CX".into()];
        let out = patch_level(TEXT, &old, &new).expect("patches");
        assert_eq!(
            out,
            TEXT.replace("    \"AB\", // top\n", "    \"..\",\n    \"AB\", // top\n")
                .replace("\"CD\"", "\"CX\"")
        );
        new.board.clear();
        let emptied = patch_level(TEXT, &old, &new).expect("patches");
        assert_eq!(
            emptied,
            TEXT.replace("    \"AB\", // top\n    \"CD\",\n", "")
        );
    }

    #[test]
    fn a_value_the_file_leaves_out_is_added_in_its_layout() {
        let old = level();
        let mut new = old.clone();
        new.goal = Goal::Lines(3);
        new.feed = Some(Feed {
            difficulty: "EASY".into(),
            target_lines: 8,
        });
        let out = patch_level(TEXT, &old, &new).expect("patches");
        assert_eq!(
            out,
            TEXT.replace(
                "  ],\n)",
                "  ],\n  goal: Lines(3),\n  feed: Some((\n    difficulty: \"EASY\",\n    target_lines: 8,\n  )),\n)"
            )
        );
        // Inside the new block, one value changes alone; then it goes.
        let mut harder = new.clone();
        harder.feed.as_mut().expect("feed").difficulty = "HARD".into();
        let again = patch_level(&out, &new, &harder).expect("patches");
        assert_eq!(again, out.replace("\"EASY\"", "\"HARD\""));
        let gone = patch_level(&again, &harder, &old).expect("patches");
        assert_eq!(gone, TEXT.replace("  ],\n)", "  ],\n  goal: Marathon,\n)"));
    }

    #[test]
    fn a_variant_change_rewrites_only_that_value() {
        let text = "(version: 1, goal: Lines(2))";
        let old: Level = parse_level(text, Path::new("t.ron")).expect("parses");
        let mut new = old.clone();
        new.goal = Goal::Lines(4);
        assert_eq!(
            patch_level(text, &old, &new).as_deref(),
            Some("(version: 1, goal: Lines(4))")
        );
        new.goal = Goal::Marathon;
        assert_eq!(
            patch_level(text, &old, &new).as_deref(),
            Some("(version: 1, goal: Marathon)")
        );
    }
}
