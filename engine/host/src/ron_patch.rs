//! Edits to a level's RON text that touch only what changed: a visual
//! editor replaces the span of each changed value (found by the host's
//! `ron_locate`), adds or removes list entries and fields in the file's own
//! layout, and leaves every other byte alone, comments included.
//!
//! Each edit returns `None` when the text does not write out what it needs
//! (the caller then re-serialises the level instead, and says so).

use crate::level::FieldKey;
use crate::ron_locate::{Bracket, bracket, value_span};

/// RON text being patched.
#[derive(Debug, Clone)]
pub struct RonPatch {
    text: String,
}

/// A path of field names and list indices, as the host's locator takes it.
pub fn path(parts: &[PathPart<'_>]) -> Vec<FieldKey> {
    parts
        .iter()
        .map(|p| match p {
            PathPart::Field(name) => FieldKey::Name((*name).to_string()),
            PathPart::Index(i) => FieldKey::Index(*i),
        })
        .collect()
}

/// One step of a [`path`].
#[derive(Debug, Clone, Copy)]
pub enum PathPart<'a> {
    /// A struct field by name.
    Field(&'a str),
    /// A list or tuple entry by position.
    Index(usize),
}

/// Where the line holding byte `at` starts.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The whitespace before `at` on its line, when only whitespace is there
/// (the entry starts its own line).
fn indent_before(text: &str, at: usize) -> Option<&str> {
    let start = line_start(text, at);
    let before = &text[start..at];
    before
        .chars()
        .all(|c| c == ' ' || c == '\t')
        .then_some(before)
}

/// The leading whitespace of the line holding `at`.
fn line_indent(text: &str, at: usize) -> &str {
    let start = line_start(text, at);
    let line = &text[start..];
    let width = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..width]
}

/// The end of the line from `at` (the byte of its `\n`, or the text's end)
/// when the rest of it is blank or a `//` comment.
fn rest_is_blank(text: &str, at: usize) -> Option<usize> {
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let rest = text[at..end].trim_start();
    (rest.is_empty() || rest.starts_with("//")).then_some(end)
}

impl RonPatch {
    /// Starts from `text`.
    pub fn new(text: &str) -> Self {
        Self {
            text: text.to_string(),
        }
    }

    /// The text as patched so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The patched text.
    pub fn into_text(self) -> String {
        self.text
    }

    fn bracket(&self, at: &[FieldKey]) -> Option<Bracket> {
        bracket(&self.text, at)
    }

    /// Whether the bracket's entries sit one per line (else all on one).
    fn multi_line(&self, b: &Bracket) -> bool {
        let first = b.entries.first().map_or(b.close, |e| e.span.start);
        self.text[b.open..first].contains('\n')
    }

    /// Replaces the value at `at` with `value`.
    pub fn replace(&mut self, at: &[FieldKey], value: &str) -> Option<()> {
        let span = value_span(&self.text, at)?;
        self.text.replace_range(span, value);
        Some(())
    }

    /// Sets field `name` of the struct at `at` to `value`: its value is
    /// replaced, or the field is added when the text leaves it out.
    pub fn set_field(&mut self, at: &[FieldKey], name: &str, value: &str) -> Option<()> {
        let b = self.bracket(at)?;
        match b.entries.iter().find(|e| e.name.as_deref() == Some(name)) {
            Some(entry) => {
                self.text.replace_range(entry.value.clone(), value);
                Some(())
            }
            None => self.insert_entry(at, b.entries.len(), &format!("{name}: {value}")),
        }
    }

    /// Removes field `name` of the struct at `at`, if the text has it.
    pub fn remove_field(&mut self, at: &[FieldKey], name: &str) -> Option<()> {
        let b = self.bracket(at)?;
        match b
            .entries
            .iter()
            .position(|e| e.name.as_deref() == Some(name))
        {
            Some(index) => self.remove_entry(at, index),
            None => Some(()),
        }
    }

    /// Inserts `entry` (a value, or `name: value`) so it becomes entry
    /// `index` of the bracket at `at`, in the bracket's layout: on a line
    /// of its own with its neighbours' indent, or inline after a comma.
    pub fn insert_entry(&mut self, at: &[FieldKey], index: usize, entry: &str) -> Option<()> {
        let b = self.bracket(at)?;
        let n = b.entries.len();
        if n == 0 {
            self.text.replace_range(b.open + 1..b.close, entry);
            return Some(());
        }
        let multi = self.multi_line(&b);
        if index < n {
            let next = &b.entries[index];
            match indent_before(&self.text, next.span.start) {
                Some(indent) if multi => {
                    let at_line = line_start(&self.text, next.span.start);
                    let inserted = format!("{indent}{entry},\n");
                    self.text.insert_str(at_line, &inserted);
                }
                _ => self.text.insert_str(next.span.start, &format!("{entry}, ")),
            }
            return Some(());
        }
        let last = &b.entries[n - 1];
        if !multi {
            self.text.insert_str(last.span.end, &format!(", {entry}"));
            return Some(());
        }
        let indent = indent_before(&self.text, last.span.start)
            .unwrap_or_else(|| line_indent(&self.text, last.span.start))
            .to_string();
        let (after, trailing) = match last.comma {
            Some(comma) => (comma + 1, ","),
            None => {
                // A comma first, right after the value (a comment may
                // follow it on the line).
                self.text.insert(last.span.end, ',');
                (last.span.end + 1, "")
            }
        };
        let at_end = rest_is_blank(&self.text, after).unwrap_or(after);
        self.text
            .insert_str(at_end, &format!("\n{indent}{entry}{trailing}"));
        Some(())
    }

    /// Removes entry `index` of the bracket at `at` with its comma; an
    /// entry on lines of its own goes with those lines (and a comment
    /// ending its last line).
    pub fn remove_entry(&mut self, at: &[FieldKey], index: usize) -> Option<()> {
        let b = self.bracket(at)?;
        let entry = b.entries.get(index)?;
        let end = entry.comma.map_or(entry.span.end, |c| c + 1);
        if self.multi_line(&b)
            && indent_before(&self.text, entry.span.start).is_some()
            && let Some(eol) = rest_is_blank(&self.text, end)
        {
            let start = line_start(&self.text, entry.span.start);
            let end = (eol + 1).min(self.text.len());
            self.text.replace_range(start..end, "");
            return Some(());
        }
        let range = if let Some(next) = b.entries.get(index + 1) {
            entry.span.start..next.span.start
        } else if let Some(previous) = index.checked_sub(1).and_then(|i| b.entries.get(i)) {
            previous.span.end..end
        } else {
            entry.span.start..end
        };
        self.text.replace_range(range, "");
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::PathPart::{Field, Index};
    use super::*;

    const TEXT: &str = "// header\n(\n    version: 1,\n    size: (2, 2, 2), // the box\n    pieces: [\n        // the first\n        (id: \"A\", cells: [(1, 1, 1)]),\n        (id: \"B\", cells: [(2, 1, 1)]), // second\n    ],\n)\n";

    #[test]
    fn a_value_is_replaced_in_place() {
        let mut p = RonPatch::new(TEXT);
        p.replace(&path(&[Field("size")]), "(3, 2, 2)")
            .expect("size");
        assert_eq!(p.text(), TEXT.replace("(2, 2, 2)", "(3, 2, 2)"));
    }

    #[test]
    fn entries_are_added_in_the_lists_layout() {
        let mut p = RonPatch::new(TEXT);
        p.insert_entry(&path(&[Field("pieces")]), 2, "(id: \"C\", cells: [])")
            .expect("append");
        assert!(
            p.text().contains(
                "(id: \"B\", cells: [(2, 1, 1)]), // second\n        (id: \"C\", cells: []),\n    ],"
            ),
            "{}",
            p.text()
        );
        p.set_field(&path(&[Field("pieces"), Index(0)]), "colour", "(1, 2, 3)")
            .expect("inline field");
        assert!(
            p.text()
                .contains("(id: \"A\", cells: [(1, 1, 1)], colour: (1, 2, 3)),"),
            "{}",
            p.text()
        );
        p.set_field(&[], "name", "\"Two\"").expect("top field");
        assert!(
            p.text().contains("    ],\n    name: \"Two\",\n)"),
            "{}",
            p.text()
        );
    }

    #[test]
    fn an_entry_on_its_own_line_goes_with_its_line() {
        let mut p = RonPatch::new(TEXT);
        p.remove_entry(&path(&[Field("pieces")]), 1)
            .expect("remove B");
        assert_eq!(
            p.text(),
            TEXT.replace("        (id: \"B\", cells: [(2, 1, 1)]), // second\n", "")
        );
        let mut inline = RonPatch::new("(a: [1, 2, 3])");
        inline
            .remove_entry(&path(&[Field("a")]), 1)
            .expect("middle");
        assert_eq!(inline.text(), "(a: [1, 3])");
        inline.remove_entry(&path(&[Field("a")]), 1).expect("last");
        assert_eq!(inline.text(), "(a: [1])");
        inline.remove_entry(&path(&[Field("a")]), 0).expect("only");
        assert_eq!(inline.text(), "(a: [])");
        inline
            .insert_entry(&path(&[Field("a")]), 0, "7")
            .expect("into empty");
        assert_eq!(inline.text(), "(a: [7])");
    }

    #[test]
    fn a_path_the_text_does_not_write_cannot_be_patched() {
        let mut p = RonPatch::new(TEXT);
        assert!(p.replace(&path(&[Field("name")]), "\"x\"").is_none());
        assert!(
            p.insert_entry(&path(&[Field("board")]), 0, "1").is_none(),
            "no such list"
        );
        assert_eq!(p.text(), TEXT);
    }
}
