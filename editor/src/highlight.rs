//! Syntax colouring for the code editor: a small hand-rolled scanner per
//! language that splits text into coloured spans.
//!
//! Only ASCII bytes start or end a token, so every slice boundary falls on
//! a UTF-8 character boundary and non-ASCII text passes through untouched.

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId};

/// The languages the editor colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// Luau scripts (`.lua`, `.luau`).
    Lua,
    /// RON levels (`.ron`).
    Ron,
    /// Anything else: no colouring.
    Plain,
}

impl Language {
    /// The language of a file, from its extension.
    pub fn of(path: &std::path::Path) -> Self {
        match path.extension().and_then(|e| e.to_str()) {
            Some("lua" | "luau") => Self::Lua,
            Some("ron") => Self::Ron,
            _ => Self::Plain,
        }
    }
}

/// What a span of source text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// Reserved words (`local`, `function`, `end`, `Some`, ...).
    Keyword,
    /// Standard library names and `self`.
    Builtin,
    /// String literals, including long brackets.
    String,
    /// Comments, including long comments.
    Comment,
    /// Number literals.
    Number,
    /// A RON struct field name.
    Field,
    /// Everything else.
    Plain,
}

/// Colours for each token kind.
#[derive(Debug, Clone, Copy)]
pub struct Palette {
    keyword: Color32,
    builtin: Color32,
    string: Color32,
    comment: Color32,
    number: Color32,
    field: Color32,
    plain: Color32,
}

impl Palette {
    /// Colours readable on the current theme's background.
    pub fn for_theme(dark_mode: bool, plain: Color32) -> Self {
        if dark_mode {
            Self {
                keyword: Color32::from_rgb(0xC6, 0x78, 0xDD),
                builtin: Color32::from_rgb(0x61, 0xAF, 0xEF),
                string: Color32::from_rgb(0x98, 0xC3, 0x79),
                comment: Color32::from_rgb(0x7F, 0x84, 0x8E),
                number: Color32::from_rgb(0xD1, 0x9A, 0x66),
                field: Color32::from_rgb(0xE0, 0x6C, 0x75),
                plain,
            }
        } else {
            Self {
                keyword: Color32::from_rgb(0xA6, 0x26, 0xA4),
                builtin: Color32::from_rgb(0x40, 0x78, 0xF2),
                string: Color32::from_rgb(0x50, 0xA1, 0x4F),
                comment: Color32::from_rgb(0x8A, 0x8F, 0x98),
                number: Color32::from_rgb(0x98, 0x68, 0x01),
                field: Color32::from_rgb(0xE4, 0x56, 0x49),
                plain,
            }
        }
    }

    fn color(&self, kind: TokenKind) -> Color32 {
        match kind {
            TokenKind::Keyword => self.keyword,
            TokenKind::Builtin => self.builtin,
            TokenKind::String => self.string,
            TokenKind::Comment => self.comment,
            TokenKind::Number => self.number,
            TokenKind::Field => self.field,
            TokenKind::Plain => self.plain,
        }
    }
}

/// Colours `text` as a layout job (no wrapping: code keeps its lines).
pub fn layout_job(text: &str, language: Language, font: FontId, palette: &Palette) -> LayoutJob {
    let mut job = LayoutJob::default();
    for (kind, span) in tokens(text, language) {
        let mut format = TextFormat::simple(font.clone(), palette.color(kind));
        if kind == TokenKind::Comment {
            format.italics = true;
        }
        job.append(span, 0.0, format);
    }
    job.wrap.max_width = f32::INFINITY;
    job
}

/// Splits `text` into coloured spans that together are exactly `text`.
pub fn tokens(text: &str, language: Language) -> Vec<(TokenKind, &str)> {
    let mut spans: Vec<(TokenKind, &str)> = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let (kind, end) = match language {
            Language::Lua => lua_token(text, i),
            Language::Ron => ron_token(text, i),
            Language::Plain => (TokenKind::Plain, bytes.len()),
        };
        // A scanner always advances; guard anyway so bad input cannot hang.
        let end = end.clamp(i + 1, bytes.len());
        let end = next_boundary(text, end);
        push_span(&mut spans, text, kind, i..end);
        i = end;
    }
    spans
}

/// Appends a span, merging it into the previous one of the same kind so
/// the layout job stays small.
fn push_span<'a>(
    spans: &mut Vec<(TokenKind, &'a str)>,
    text: &'a str,
    kind: TokenKind,
    range: std::ops::Range<usize>,
) {
    if let Some(last) = spans.last_mut()
        && last.0 == kind
    {
        let start = last.1.as_ptr() as usize - text.as_ptr() as usize;
        last.1 = &text[start..range.end];
        return;
    }
    spans.push((kind, &text[range]));
}

fn next_boundary(text: &str, mut at: usize) -> usize {
    while at < text.len() && !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

const LUA_KEYWORDS: &[&str] = &[
    "and", "break", "continue", "do", "else", "elseif", "end", "false", "for", "function", "goto",
    "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

const LUA_BUILTINS: &[&str] = &[
    "self",
    "math",
    "string",
    "table",
    "print",
    "pairs",
    "ipairs",
    "type",
    "tostring",
    "tonumber",
    "error",
    "assert",
    "pcall",
    "select",
    "next",
    "unpack",
    "setmetatable",
    "getmetatable",
    "rawget",
    "rawset",
    "rawequal",
    "rawlen",
];

/// One Lua token starting at byte `i`: its kind and end.
fn lua_token(text: &str, i: usize) -> (TokenKind, usize) {
    let bytes = text.as_bytes();
    let rest = &bytes[i..];
    if rest.starts_with(b"--") {
        if let Some(level) = long_bracket_level(&rest[2..]) {
            return (TokenKind::Comment, long_bracket_end(bytes, i + 2, level));
        }
        return (TokenKind::Comment, line_end(bytes, i));
    }
    let c = bytes[i];
    if c == b'[' {
        if let Some(level) = long_bracket_level(rest) {
            return (TokenKind::String, long_bracket_end(bytes, i, level));
        }
        return (TokenKind::Plain, i + 1);
    }
    if c == b'"' || c == b'\'' || c == b'`' {
        return (TokenKind::String, quoted_end(bytes, i, c));
    }
    if c.is_ascii_digit() || (c == b'.' && rest.get(1).is_some_and(u8::is_ascii_digit)) {
        return (TokenKind::Number, number_end(bytes, i));
    }
    if c.is_ascii_alphabetic() || c == b'_' {
        let end = ident_end(bytes, i);
        let word = &text[i..end];
        // `x.type` or `t:end` are fields, not keywords.
        let after_dot = i > 0 && matches!(bytes[i - 1], b'.' | b':') && !text[..i].ends_with("..");
        let kind = if LUA_KEYWORDS.contains(&word) && !after_dot {
            TokenKind::Keyword
        } else if LUA_BUILTINS.contains(&word) && !after_dot {
            TokenKind::Builtin
        } else {
            TokenKind::Plain
        };
        return (kind, end);
    }
    (TokenKind::Plain, plain_end(bytes, i))
}

const RON_KEYWORDS: &[&str] = &["true", "false", "Some", "None"];

/// One RON token starting at byte `i`: its kind and end.
fn ron_token(text: &str, i: usize) -> (TokenKind, usize) {
    let bytes = text.as_bytes();
    let rest = &bytes[i..];
    if rest.starts_with(b"//") {
        return (TokenKind::Comment, line_end(bytes, i));
    }
    if rest.starts_with(b"/*") {
        let end = find(bytes, i + 2, b"*/").map_or(bytes.len(), |at| at + 2);
        return (TokenKind::Comment, end);
    }
    let c = bytes[i];
    if c == b'"' || c == b'\'' {
        return (TokenKind::String, quoted_end(bytes, i, c));
    }
    if c.is_ascii_digit()
        || ((c == b'-' || c == b'+') && rest.get(1).is_some_and(u8::is_ascii_digit))
    {
        return (TokenKind::Number, number_end(bytes, i + 1));
    }
    if c.is_ascii_alphabetic() || c == b'_' {
        let end = ident_end(bytes, i);
        let word = &text[i..end];
        let next = bytes[end..].iter().find(|b| !b.is_ascii_whitespace());
        let kind = if RON_KEYWORDS.contains(&word) {
            TokenKind::Keyword
        } else if next == Some(&b':') {
            TokenKind::Field
        } else {
            TokenKind::Plain
        };
        return (kind, end);
    }
    (TokenKind::Plain, plain_end(bytes, i))
}

/// For `[[`, `[=[`, `[==[`...: the number of `=`; `None` if not a long bracket.
fn long_bracket_level(rest: &[u8]) -> Option<usize> {
    if rest.first() != Some(&b'[') {
        return None;
    }
    let level = rest[1..].iter().take_while(|&&b| b == b'=').count();
    (rest.get(1 + level) == Some(&b'[')).then_some(level)
}

/// End of a long bracket opened at `open` (the first `[`): just past the
/// matching `]=*]`, or the end of text when unclosed.
fn long_bracket_end(bytes: &[u8], open: usize, level: usize) -> usize {
    let mut close = Vec::with_capacity(level + 2);
    close.push(b']');
    close.extend(std::iter::repeat_n(b'=', level));
    close.push(b']');
    let body = open + level + 2;
    find(bytes, body, &close).map_or(bytes.len(), |at| at + close.len())
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|at| from + at)
}

/// End of a quoted string: past the closing quote, or the end of the line
/// when unterminated (so one stray quote does not colour the whole file).
fn quoted_end(bytes: &[u8], open: usize, quote: u8) -> usize {
    let mut j = open + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'\n' => return j,
            b if b == quote => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

fn number_end(bytes: &[u8], start: usize) -> usize {
    let mut j = start;
    while j < bytes.len() {
        let b = bytes[j];
        let exponent_sign = (b == b'-' || b == b'+')
            && j > start
            && matches!(bytes[j - 1], b'e' | b'E')
            && !bytes[start..j].starts_with(b"0x");
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || exponent_sign {
            j += 1;
        } else {
            break;
        }
    }
    j
}

fn ident_end(bytes: &[u8], start: usize) -> usize {
    let mut j = start;
    while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
        j += 1;
    }
    j
}

fn line_end(bytes: &[u8], start: usize) -> usize {
    bytes[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |at| start + at)
}

/// Runs of bytes that start no token (operators, spaces, non-ASCII text).
fn plain_end(bytes: &[u8], start: usize) -> usize {
    let mut j = start + 1;
    while j < bytes.len() {
        let b = bytes[j];
        if b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'_' | b'"' | b'\'' | b'`' | b'[' | b'-' | b'/' | b'.' | b'+'
            )
        {
            break;
        }
        j += 1;
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str, language: Language) -> Vec<(TokenKind, String)> {
        tokens(text, language)
            .into_iter()
            .filter(|(_, s)| !s.trim().is_empty())
            .map(|(k, s)| (k, s.trim().to_string()))
            .collect()
    }

    #[test]
    fn spans_cover_the_text_exactly() {
        let text = "local x = \"é\" -- ünï\n--[==[ long\n]] still ]==] return {ä = 0x1F}";
        let joined: String = tokens(text, Language::Lua)
            .iter()
            .map(|(_, s)| *s)
            .collect();
        assert_eq!(joined, text);
    }

    #[test]
    fn lua_tokens_are_classified() {
        let got = kinds(
            "local n = 1.5e-3 -- note\nreturn { s = 'a\\'b', [[x]] }",
            Language::Lua,
        );
        use TokenKind::*;
        let expected: Vec<(TokenKind, std::string::String)> = vec![
            (Keyword, "local".into()),
            (Plain, "n =".into()),
            (Number, "1.5e-3".into()),
            (Comment, "-- note".into()),
            (Keyword, "return".into()),
            (Plain, "{ s =".into()),
            (String, "'a\\'b'".into()),
            (Plain, ",".into()),
            (String, "[[x]]".into()),
            (Plain, "}".into()),
        ];
        assert_eq!(got, expected);
    }

    #[test]
    fn long_comment_spans_lines_until_its_level_closes() {
        let text = "--[=[ a ]] b\nc ]=] local";
        let spans = tokens(text, Language::Lua);
        assert_eq!(spans[0], (TokenKind::Comment, "--[=[ a ]] b\nc ]=]"));
        assert_eq!(spans.last(), Some(&(TokenKind::Keyword, "local")));
    }

    #[test]
    fn field_access_is_not_a_keyword() {
        let spans = kinds("t.end", Language::Lua);
        assert_eq!(spans, vec![(TokenKind::Plain, "t.end".to_string())]);
    }

    #[test]
    fn ron_fields_numbers_and_comments() {
        let got = kinds("(version: 1, // v\n name: \"x\", d: -2)", Language::Ron);
        use TokenKind::*;
        assert_eq!(got[1], (Field, "version".into()));
        assert_eq!(got[3], (Number, "1".into()));
        assert_eq!(got[5], (Comment, "// v".into()));
        assert!(got.contains(&(String, "\"x\"".into())));
        assert!(got.contains(&(Number, "-2".into())));
    }
}
