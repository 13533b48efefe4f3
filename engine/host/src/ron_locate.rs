//! Finds where a value sits in RON text, so a finding about a parsed level
//! (a disconnected piece, a bad size) names the line of the offending value.
//!
//! Why a scan of the text rather than spanned values: serde's derive cannot
//! keep spans through `ron`'s deserializer without wrapping every field of
//! every game's level type. The scan knows RON's comments, strings and
//! brackets, and walks the same path the finding names
//! (`pieces[2].cells[0]`); where the path is not written out (a defaulted
//! field), it stops at the deepest part that is.

use std::ops::Range;

/// One step of a path into a level file: a field name or a list index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldKey {
    /// A struct field (`pieces`).
    Name(String),
    /// A list or tuple entry, 0-based.
    Index(usize),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Token<'a> {
    Ident(&'a str),
    /// A string's contents (JSON keys are strings).
    Str(&'a str),
    Open(u8),
    Close,
    Colon,
    Comma,
    Other,
}

struct Located<'a> {
    token: Token<'a>,
    line: u32,
    col: u32,
    /// Byte offsets of the token in the text (a string with its quotes).
    start: usize,
    end: usize,
}

fn tokenize<'a>(text: &'a str) -> Vec<Located<'a>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1u32, 0usize);
    // Column counting is incremental: counting from the line start at
    // every token was quadratic on a one-line 3.5 MB JSON file.
    let (mut counted_to, mut counted_col) = (0usize, 1u32);
    while i < bytes.len() {
        let b = bytes[i];
        if counted_to < line_start {
            (counted_to, counted_col) = (line_start, 1);
        }
        counted_col += bytes[counted_to..i]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count() as u32;
        counted_to = i;
        let col = counted_col;
        let push = |token: Token<'a>, start: usize, end: usize, out: &mut Vec<Located<'a>>| {
            out.push(Located {
                token,
                line,
                col,
                start,
                end,
            })
        };
        match b {
            b'\n' => {
                i += 1;
                line += 1;
                line_start = i;
                continue;
            }
            _ if b.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < bytes.len() {
                    if bytes[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if bytes[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if bytes[i] == b'\n' {
                            line += 1;
                            line_start = i + 1;
                        }
                        i += 1;
                    }
                }
                continue;
            }
            b'"' | b'\'' => {
                let (start_line, start_col) = (line, col);
                i += 1;
                let start = i;
                while i < bytes.len() && bytes[i] != b {
                    if bytes[i] == b'\\' {
                        i += 1;
                    } else if bytes[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    i += 1;
                }
                out.push(Located {
                    token: Token::Str(text.get(start..i).unwrap_or("")),
                    line: start_line,
                    col: start_col,
                    start: start - 1,
                    end: (i + 1).min(bytes.len()),
                });
                i += 1;
                continue;
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#')) => {
                let (start, start_line) = (i, line);
                let mut hashes = 0;
                i += 1;
                while bytes.get(i) == Some(&b'#') {
                    hashes += 1;
                    i += 1;
                }
                i += 1;
                let mut close = vec![b'"'];
                close.extend(std::iter::repeat_n(b'#', hashes));
                while i < bytes.len() && !bytes[i..].starts_with(&close) {
                    if bytes[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    i += 1;
                }
                i = (i + close.len()).min(bytes.len());
                out.push(Located {
                    token: Token::Other,
                    line: start_line,
                    col,
                    start,
                    end: i,
                });
                continue;
            }
            b'(' | b'[' | b'{' => push(Token::Open(b), i, i + 1, &mut out),
            b')' | b']' | b'}' => push(Token::Close, i, i + 1, &mut out),
            b':' => push(Token::Colon, i, i + 1, &mut out),
            b',' => push(Token::Comma, i, i + 1, &mut out),
            _ if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                push(Token::Ident(&text[start..i]), start, i, &mut out);
                continue;
            }
            _ => {
                // A digit, a sign, a dot: one token per character; a
                // value's span runs from its first token to its last.
                let start = i;
                let width = text
                    .get(i..)
                    .and_then(|t| t.chars().next())
                    .map_or(1, char::len_utf8);
                push(Token::Other, start, start + width, &mut out);
                i += width;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Line and column (1-based) of the value at `path`, or of the deepest
/// part of the path that the text writes out.
pub(crate) fn value_position(text: &str, path: &[FieldKey]) -> Option<(u32, u32)> {
    let tokens = tokenize(text);
    let mut at = 0usize;
    let mut found = None;
    for key in path {
        // A named struct or a variant: `Name(` -> the bracket.
        if let (Some(Token::Ident(_)), Some(Token::Open(_))) = (
            tokens.get(at).map(|t| t.token),
            tokens.get(at + 1).map(|t| t.token),
        ) {
            at += 1;
        }
        let Some(Token::Open(_)) = tokens.get(at).map(|t| t.token) else {
            break;
        };
        // `Some((field: ...))`: a field is looked up inside the wrapped
        // struct, not in the option's bracket.
        if matches!(key, FieldKey::Name(_))
            && at > 0
            && tokens[at - 1].token == Token::Ident("Some")
            && let Some(Token::Open(_)) = tokens.get(at + 1).map(|t| t.token)
        {
            at += 1;
        }
        let Some((key_at, value_at)) = find_entry(&tokens, at, key) else {
            break;
        };
        let token = &tokens[key_at];
        found = Some((token.line, token.col));
        at = value_at;
    }
    found
}

/// One entry of a bracketed value in RON text: `name: value` in a struct,
/// a value in a list or tuple.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Bytes of the whole entry: its name, if any, through its value.
    pub span: Range<usize>,
    /// Bytes of the value.
    pub value: Range<usize>,
    /// The field's name, for `name: value` entries.
    pub name: Option<String>,
    /// The byte of the comma after the entry, if there is one.
    pub comma: Option<usize>,
}

/// A bracketed value in RON text (`(..)`, `[..]`, `{..}`, `Name(..)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bracket {
    /// The byte of the opening bracket.
    pub open: usize,
    /// The byte of the closing bracket.
    pub close: usize,
    /// Its entries in order.
    pub entries: Vec<Entry>,
}

/// The token where the value at `path` starts, when the text writes the
/// whole path out.
fn value_start(tokens: &[Located<'_>], path: &[FieldKey]) -> Option<usize> {
    let mut at = 0usize;
    tokens.first()?;
    for key in path {
        if let (Some(Token::Ident(_)), Some(Token::Open(_))) = (
            tokens.get(at).map(|t| t.token),
            tokens.get(at + 1).map(|t| t.token),
        ) {
            at += 1;
        }
        let Some(Token::Open(_)) = tokens.get(at).map(|t| t.token) else {
            return None;
        };
        let (_, value_at) = find_entry(tokens, at, key)?;
        at = value_at;
    }
    (at < tokens.len()).then_some(at)
}

/// The last token of the value starting at `at`: up to the comma or the
/// closing bracket that ends it.
fn value_last(tokens: &[Located<'_>], at: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut i = at;
    while i < tokens.len() {
        match tokens[i].token {
            Token::Open(_) => depth += 1,
            Token::Close if depth == 0 => break,
            Token::Close => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            Token::Comma if depth == 0 => break,
            _ => {}
        }
        i += 1;
    }
    (i > at && depth == 0).then(|| i - 1)
}

/// The bytes of the value at `path` (a field's value, a list's entry), or
/// `None` when the text does not write that path out.
pub fn value_span(text: &str, path: &[FieldKey]) -> Option<Range<usize>> {
    let tokens = tokenize(text);
    let at = value_start(&tokens, path)?;
    let last = value_last(&tokens, at)?;
    Some(tokens[at].start..tokens[last].end)
}

/// The bracketed value at `path` with its entries, or `None` when the text
/// does not write that path out or the value there has no brackets.
pub fn bracket(text: &str, path: &[FieldKey]) -> Option<Bracket> {
    let tokens = tokenize(text);
    let mut at = value_start(&tokens, path)?;
    if let (Some(Token::Ident(_)), Some(Token::Open(_))) = (
        tokens.get(at).map(|t| t.token),
        tokens.get(at + 1).map(|t| t.token),
    ) {
        at += 1;
    }
    let Some(Token::Open(_)) = tokens.get(at).map(|t| t.token) else {
        return None;
    };
    let open = at;
    let mut entries = Vec::new();
    let mut i = open + 1;
    loop {
        let token = tokens.get(i)?;
        if token.token == Token::Close {
            return Some(Bracket {
                open: tokens[open].start,
                close: token.start,
                entries,
            });
        }
        let (name, value_at) = match (token.token, tokens.get(i + 2).map(|t| t.token)) {
            (Token::Ident(n) | Token::Str(n), Some(_))
                if tokens.get(i + 1).map(|t| t.token) == Some(Token::Colon) =>
            {
                (Some(n.to_string()), i + 2)
            }
            _ => (None, i),
        };
        let last = value_last(&tokens, value_at)?;
        let comma = match tokens.get(last + 1) {
            Some(t) if t.token == Token::Comma => Some(t.start),
            _ => None,
        };
        entries.push(Entry {
            span: token.start..tokens[last].end,
            value: tokens[value_at].start..tokens[last].end,
            name,
            comma,
        });
        i = last + 1 + usize::from(comma.is_some());
    }
}

/// In the bracket opened at `open`, the entry `key` names: where to point
/// (the field name, or the entry itself) and where its value starts.
fn find_entry(tokens: &[Located<'_>], open: usize, key: &FieldKey) -> Option<(usize, usize)> {
    let mut i = open + 1;
    let mut index = 0usize;
    while i < tokens.len() {
        if tokens[i].token == Token::Close {
            return None;
        }
        let start = i;
        match key {
            FieldKey::Name(name) => {
                if let (Token::Ident(ident) | Token::Str(ident), Some(Token::Colon)) =
                    (tokens[i].token, tokens.get(i + 1).map(|t| t.token))
                    && ident == name
                {
                    return Some((start, i + 2));
                }
            }
            FieldKey::Index(wanted) if *wanted == index => return Some((start, start)),
            FieldKey::Index(_) => {}
        }
        // Skip to the comma ending this entry, or the closing bracket.
        let mut depth = 0i32;
        while i < tokens.len() {
            match tokens[i].token {
                Token::Open(_) => depth += 1,
                Token::Close if depth == 0 => return None,
                Token::Close => depth -= 1,
                Token::Comma if depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        i += 1;
        index += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(n: &str) -> FieldKey {
        FieldKey::Name(n.into())
    }

    const LEVEL: &str = r#"// "a comment" with ( brackets
(
    version: 1,
    name: "a (tricky) name, with: colons",
    size: (3, 3, 3),
    pieces: [
        (id: "V", cells: [(1, 1, 1), (2, 1, 1)]),
        /* a block
           comment */ (id: "",
          cells: [(1, 1, 1),
                  (3, 1, 1)]),
    ],
)
"#;

    #[test]
    fn finds_fields_and_entries() {
        assert_eq!(value_position(LEVEL, &[name("size")]), Some((5, 5)));
        assert_eq!(
            value_position(LEVEL, &[name("pieces"), FieldKey::Index(1), name("id")]),
            Some((9, 24))
        );
        assert_eq!(
            value_position(
                LEVEL,
                &[
                    name("pieces"),
                    FieldKey::Index(1),
                    name("cells"),
                    FieldKey::Index(1)
                ]
            ),
            Some((11, 19))
        );
    }

    #[test]
    fn stops_at_the_deepest_written_part() {
        assert_eq!(
            value_position(LEVEL, &[name("pieces"), FieldKey::Index(5)]),
            Some((6, 5))
        );
        assert_eq!(value_position(LEVEL, &[name("board")]), None);
    }

    #[test]
    fn spans_cover_whole_values() {
        let span = |path: &[FieldKey]| value_span(LEVEL, path).map(|r| &LEVEL[r]);
        assert_eq!(span(&[name("size")]), Some("(3, 3, 3)"));
        assert_eq!(span(&[name("version")]), Some("1"));
        assert_eq!(
            span(&[name("name")]),
            Some("\"a (tricky) name, with: colons\"")
        );
        assert_eq!(
            span(&[name("pieces"), FieldKey::Index(1), name("cells")]),
            Some("[(1, 1, 1),\n                  (3, 1, 1)]")
        );
        assert_eq!(
            span(&[name("pieces"), FieldKey::Index(0)]),
            Some("(id: \"V\", cells: [(1, 1, 1), (2, 1, 1)])")
        );
        // A path the text does not write out has no span.
        assert_eq!(span(&[name("pieces"), FieldKey::Index(2)]), None);
        assert_eq!(span(&[name("board")]), None);
        assert_eq!(
            value_span("(a: -12.5e3, b: 'x')", &[name("a")]),
            Some(4..11)
        );
    }

    #[test]
    fn brackets_list_their_entries() {
        let pieces = bracket(LEVEL, &[name("pieces")]).expect("pieces");
        assert_eq!(&LEVEL[pieces.open..=pieces.open], "[");
        assert_eq!(&LEVEL[pieces.close..=pieces.close], "]");
        assert_eq!(pieces.entries.len(), 2);
        assert!(
            pieces
                .entries
                .iter()
                .all(|e| e.name.is_none() && e.comma.is_some())
        );
        let top = bracket(LEVEL, &[]).expect("top");
        let names: Vec<_> = top.entries.iter().filter_map(|e| e.name.clone()).collect();
        assert_eq!(names, ["version", "name", "size", "pieces"]);
        assert_eq!(&LEVEL[top.entries[2].span.clone()], "size: (3, 3, 3)");
        let tail = bracket("Level(a: 1, b: [2]\n)", &[]).expect("named");
        assert_eq!(tail.entries[1].comma, None);
        assert_eq!(bracket(LEVEL, &[name("version")]), None);
    }

    #[test]
    fn fields_inside_some_are_found() {
        let text = "(\n    position: Some((\n        boards: [\n            (wall: [\"a\", \"b\"]),\n        ],\n    )),\n)\n";
        assert_eq!(
            value_position(
                text,
                &[
                    name("position"),
                    name("boards"),
                    FieldKey::Index(0),
                    name("wall"),
                    FieldKey::Index(1)
                ]
            ),
            Some((4, 26))
        );
    }

    #[test]
    fn named_structs_are_entered() {
        let text = "Level(\n  rows: 2,\n  board: [\"..\", \"RX\"],\n)";
        assert_eq!(
            value_position(text, &[name("board"), FieldKey::Index(1)]),
            Some((3, 17))
        );
    }
}
