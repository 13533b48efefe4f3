//! Finds the source line of a field in the table a script returns, so a
//! bad setting is reported at its line (`scripts/sand.lua:20: ...`).
//!
//! Why a light scan and not a full Luau parser (full_moon): a settings
//! error only needs the shape of the returned table constructor: keys,
//! positional entries and nesting. A tokenizer that knows Lua's comments,
//! strings and block keywords does that in a page, with no new dependency
//! whose Luau grammar would have to track the VM's. When the table is built
//! by code rather than written out, the scan falls back to the first
//! `name =` anywhere, and else to no line (the message still names the
//! field).

/// One token of Lua source, with the line it starts on.
#[derive(Debug, Clone, PartialEq)]
enum Token<'a> {
    /// A name or keyword.
    Name(&'a str),
    /// A string literal's contents (escapes left as written).
    Str(&'a str),
    /// A number literal as written.
    Number(&'a str),
    /// `=` alone (not `==`, `<=`, `>=`, `~=`).
    Assign,
    /// One of `{ ( [`.
    Open(u8),
    /// One of `} ) ]`.
    Close(u8),
    /// `,` or `;`.
    Separator,
    /// Anything else (operators, dots).
    Other,
}

fn tokenize(source: &str) -> Vec<(Token<'_>, u32)> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut line = 1u32;
    let mut i = 0;
    let count_lines = |from: usize, to: usize| {
        bytes[from..to.min(bytes.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u32
    };
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                let start = i;
                i += 2;
                if let Some(end) = long_bracket_end(bytes, i) {
                    i = end;
                } else {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                line += count_lines(start, i);
            }
            b'"' | b'\'' | b'`' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b {
                    if bytes[i] == b'\\' {
                        i += 1;
                    } else if bytes[i] == b'\n' {
                        break;
                    }
                    i += 1;
                }
                let end = i.min(bytes.len());
                tokens.push((Token::Str(source.get(start + 1..end).unwrap_or("")), line));
                line += count_lines(start, end);
                i = end + 1;
            }
            b'[' if matches!(bytes.get(i + 1), Some(b'[' | b'=')) => {
                if let Some(end) = long_bracket_end(bytes, i) {
                    tokens.push((Token::Str(""), line));
                    line += count_lines(i, end);
                    i = end;
                } else {
                    tokens.push((Token::Open(b'['), line));
                    i += 1;
                }
            }
            b'{' | b'(' | b'[' => {
                tokens.push((Token::Open(b), line));
                i += 1;
            }
            b'}' | b')' | b']' => {
                tokens.push((Token::Close(b), line));
                i += 1;
            }
            b',' | b';' => {
                tokens.push((Token::Separator, line));
                i += 1;
            }
            b'=' if bytes.get(i + 1) == Some(&b'=') => {
                tokens.push((Token::Other, line));
                i += 2;
            }
            b'=' => {
                tokens.push((Token::Assign, line));
                i += 1;
            }
            b'<' | b'>' | b'~' if bytes.get(i + 1) == Some(&b'=') => {
                tokens.push((Token::Other, line));
                i += 2;
            }
            _ if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                tokens.push((Token::Name(&source[start..i]), line));
            }
            _ if b.is_ascii_digit() => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_')
                {
                    i += 1;
                }
                tokens.push((Token::Number(&source[start..i]), line));
            }
            _ => {
                tokens.push((Token::Other, line));
                i += 1;
            }
        }
    }
    tokens
}

/// When `bytes[at..]` opens a long bracket (`[[` or `[==[`), the index just
/// past its closing bracket (or the end of the source).
fn long_bracket_end(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'[') {
        return None;
    }
    let mut level = 0;
    let mut i = at + 1;
    while bytes.get(i) == Some(&b'=') {
        level += 1;
        i += 1;
    }
    if bytes.get(i) != Some(&b'[') {
        return None;
    }
    let mut close = vec![b']'];
    close.extend(std::iter::repeat_n(b'=', level));
    close.push(b']');
    let body = &bytes[i + 1..];
    Some(
        body.windows(close.len())
            .position(|w| w == close.as_slice())
            .map_or(bytes.len(), |p| i + 1 + p + close.len()),
    )
}

/// Keywords that open a block closed by `end` (`repeat` by `until`);
/// `while` and `for` open theirs with `do`.
fn opens_block(name: &str) -> bool {
    matches!(name, "function" | "if" | "do" | "repeat")
}

fn closes_block(name: &str) -> bool {
    matches!(name, "end" | "until")
}

/// The line of `field` (a path of keys; positional entries are `"1"`,
/// `"2"`, ...) in the table the script returns. When the full path is not
/// written out, the line of the deepest part that is.
pub fn field_line(source: &str, field: &[&str]) -> Option<u32> {
    if field.is_empty() {
        return None;
    }
    let tokens = tokenize(source);
    let returned = returned_table(&tokens);
    if let Some(open) = returned
        && let Some(line) = find_in_table(&tokens, open + 1, field)
    {
        return Some(line);
    }
    // Built by code: the first `name =` anywhere.
    tokens.windows(2).find_map(|pair| match pair {
        [(Token::Name(name), line), (Token::Assign, _)] if *name == field[0] => Some(*line),
        _ => None,
    })
}

/// Index of the `{` of the last `return {` outside any block or bracket.
fn returned_table(tokens: &[(Token<'_>, u32)]) -> Option<usize> {
    let mut depth = 0i32;
    let mut found = None;
    for (i, (token, _)) in tokens.iter().enumerate() {
        match token {
            Token::Open(_) => depth += 1,
            Token::Close(_) => depth -= 1,
            Token::Name(name) if opens_block(name) => depth += 1,
            Token::Name(name) if closes_block(name) => depth -= 1,
            Token::Name("return") if depth == 0 => {
                if matches!(tokens.get(i + 1), Some((Token::Open(b'{'), _))) {
                    found = Some(i + 1);
                }
            }
            _ => {}
        }
    }
    found
}

/// Looks for `field` among the entries of the table constructor whose
/// contents start at `start`.
fn find_in_table(tokens: &[(Token<'_>, u32)], start: usize, field: &[&str]) -> Option<u32> {
    let mut i = start;
    let mut position = 0usize;
    while i < tokens.len() {
        let (token, line) = &tokens[i];
        if matches!(token, Token::Close(_)) {
            return None;
        }
        // The entry's key and where its value starts.
        let (key, value_at) = match (token, tokens.get(i + 1)) {
            (Token::Name(name), Some((Token::Assign, _))) => (name.to_string(), i + 2),
            (Token::Open(b'['), _) => {
                let key = match tokens.get(i + 1) {
                    Some((Token::Str(s) | Token::Number(s), _)) => s.to_string(),
                    _ => String::new(),
                };
                let close = skip_value(tokens, i);
                let after = close.min(tokens.len());
                match tokens.get(after) {
                    Some((Token::Assign, _)) => (key, after + 1),
                    _ => {
                        position += 1;
                        (position.to_string(), i)
                    }
                }
            }
            _ => {
                position += 1;
                (position.to_string(), i)
            }
        };
        let end = skip_entry(tokens, value_at);
        if key == field[0] {
            if field.len() == 1 {
                return Some(*line);
            }
            if let Some((Token::Open(b'{'), _)) = tokens.get(value_at)
                && let Some(inner) = find_in_table(tokens, value_at + 1, &field[1..])
            {
                return Some(inner);
            }
            return Some(*line);
        }
        i = end;
        match tokens.get(i) {
            Some((Token::Separator, _)) => i += 1,
            _ => return None,
        }
    }
    None
}

/// From a bracket at `at`, the index just past its matching close (or the
/// next token for anything else).
fn skip_value(tokens: &[(Token<'_>, u32)], at: usize) -> usize {
    let mut depth = 0i32;
    let mut i = at;
    while i < tokens.len() {
        match &tokens[i].0 {
            Token::Open(_) => depth += 1,
            Token::Close(_) => depth -= 1,
            Token::Name(name) if opens_block(name) => depth += 1,
            Token::Name(name) if closes_block(name) => depth -= 1,
            _ => {}
        }
        i += 1;
        if depth <= 0 {
            break;
        }
    }
    i
}

/// From the start of a value, the index of the `,`/`;` ending the entry or
/// the `}` closing the table.
fn skip_entry(tokens: &[(Token<'_>, u32)], at: usize) -> usize {
    let mut depth = 0i32;
    let mut i = at;
    while i < tokens.len() {
        match &tokens[i].0 {
            Token::Open(_) => depth += 1,
            Token::Close(_) if depth == 0 => return i,
            Token::Close(_) => depth -= 1,
            Token::Name(name) if opens_block(name) => depth += 1,
            Token::Name(name) if closes_block(name) => depth -= 1,
            Token::Separator if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = r#"-- a comment { with = braces }
local function helper(a, b)
  local x, y = a, b
  return { x = x }
end

return {
  palette = {
    { name = "red", letter = "R", rgb = { 1, 2, 3 } },
    { name = "blue", --[[ long
      comment ]] letter = "B",
      rgb = { 4, 5, 6 } },
  },
  slots = 0,
  ["ticks_per_second"] = 0/0,
  score = function(cells, chain)
    if cells > 1 then return 1, 2 end
    return 0
  end,
  rotation = "x [[ not a bracket",
}
"#;

    #[test]
    fn finds_top_level_fields() {
        assert_eq!(field_line(SCRIPT, &["slots"]), Some(14));
        assert_eq!(field_line(SCRIPT, &["ticks_per_second"]), Some(15));
        assert_eq!(field_line(SCRIPT, &["rotation"]), Some(20));
        assert_eq!(field_line(SCRIPT, &["score"]), Some(16));
    }

    #[test]
    fn finds_nested_and_positional_fields() {
        assert_eq!(field_line(SCRIPT, &["palette", "1"]), Some(9));
        assert_eq!(field_line(SCRIPT, &["palette", "2", "letter"]), Some(11));
        assert_eq!(field_line(SCRIPT, &["palette", "2", "rgb"]), Some(12));
        // Not written out: the deepest part that is.
        assert_eq!(field_line(SCRIPT, &["palette", "7"]), Some(8));
    }

    #[test]
    fn falls_back_to_an_assignment() {
        let built = "local t = {}\nt.slots = 0\nreturn t\n";
        assert_eq!(field_line(built, &["slots"]), Some(2));
        assert_eq!(field_line(built, &["palette"]), None);
    }
}
