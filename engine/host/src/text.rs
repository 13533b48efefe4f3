//! Numbers as a person reads them in console lines, logs, labels and the
//! games' own messages: thousands grouped ("12,345") and nouns that agree
//! with their count ("1 piece", "2 pieces"). The one helper for every
//! crate: the engine crates' events and refusals, the CLI, and the editor
//! (re-exported as `tessera_ui::text`).

/// An integer count of any width (`usize` has no `Into<i128>`).
pub trait Count: Copy {
    /// The count widened without loss.
    fn as_i128(self) -> i128;
}

macro_rules! impl_count {
    ($($t:ty),*) => {$(
        impl Count for $t {
            fn as_i128(self) -> i128 {
                // Every listed type fits in i128 on the platforms Rust supports.
                self as i128
            }
        }
    )*};
}
impl_count!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, i128);

/// `n` with its thousands grouped by commas: `1234567` → `"1,234,567"`.
pub fn thousands(n: impl Count) -> String {
    let n = n.as_i128();
    let digits = n.unsigned_abs().to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        grouped.push('-');
    }
    for (i, digit) in digits.chars().enumerate() {
        // A comma before every group of three counted from the right.
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// A count with its noun in agreement, thousands grouped:
/// `count(1, "piece")` → `"1 piece"`, `count(1500, "piece")` →
/// `"1,500 pieces"`. The plural adds `s`; see [`count_irregular`] for
/// nouns that do not.
pub fn count(n: impl Count, singular: &str) -> String {
    let n = n.as_i128();
    if n == 1 {
        format!("1 {singular}")
    } else {
        format!("{} {singular}s", thousands(n))
    }
}

/// [`count`] for a noun whose plural is not the singular plus `s`:
/// `count_irregular(2, "match", "matches")` → `"2 matches"`.
pub fn count_irregular(n: impl Count, singular: &str, plural: &str) -> String {
    let n = n.as_i128();
    if n == 1 {
        format!("1 {singular}")
    } else {
        format!("{} {plural}", thousands(n))
    }
}

/// The `s` a noun takes after `n` (for sentences where the count and the
/// noun are apart): `format!("{n} file{}", plural_s(n))`.
pub fn plural_s(n: impl Count) -> &'static str {
    if n.as_i128() == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_thousands_from_the_right() {
        assert_eq!(thousands(0u32), "0");
        assert_eq!(thousands(999u32), "999");
        assert_eq!(thousands(1000u32), "1,000");
        assert_eq!(thousands(123_456u32), "123,456");
        assert_eq!(thousands(1_234_567u64), "1,234,567");
        assert_eq!(thousands(-45_000i64), "-45,000");
    }

    #[test]
    fn nouns_agree_with_their_count() {
        assert_eq!(count(0u32, "piece"), "0 pieces");
        assert_eq!(count(1u32, "piece"), "1 piece");
        assert_eq!(count(2u32, "piece"), "2 pieces");
        assert_eq!(count(12_000u32, "position"), "12,000 positions");
        assert_eq!(count_irregular(1u8, "match", "matches"), "1 match");
        assert_eq!(count_irregular(3u8, "match", "matches"), "3 matches");
        assert_eq!(plural_s(1u8), "");
        assert_eq!(plural_s(5u8), "s");
    }
}

/// The most characters of a value a message quotes whole.
pub const EXCERPT_CHARS: usize = 80;

/// Most characters a whole finding's message shows (a backstop for a long
/// value quoted without quotes).
pub const MESSAGE_CHARS: usize = 1000;

/// `value` when it is short, else its start, an ellipsis and its length:
/// a refusal quotes what it refuses, and a 1 MB value would bury the
/// reason (`RRRR…[1,048,576 characters]`).
pub fn excerpt(value: &str) -> std::borrow::Cow<'_, str> {
    cut(value, EXCERPT_CHARS)
}

/// `value` cut to `limit` characters (its start, `…` and its length).
fn cut(value: &str, limit: usize) -> std::borrow::Cow<'_, str> {
    let chars = value.chars().count();
    if chars <= limit {
        return std::borrow::Cow::Borrowed(value);
    }
    let start: String = value
        .chars()
        .take(limit.saturating_sub(20).max(1))
        .collect();
    std::borrow::Cow::Owned(format!("{start}…[{} characters]", thousands(chars)))
}

/// A message with every quoted value in it (between backticks or double
/// quotes, `\"` escapes inside the latter) cut to an [`excerpt`], and the
/// whole cut to [`MESSAGE_CHARS`]: the one place a finding's echo of a
/// value is capped, applied where findings are shown
/// ([`crate::level::Diagnostic`]'s `Display`), so no refusal can echo a
/// megabyte whatever it quotes.
pub fn cap_quoted(message: &str) -> std::borrow::Cow<'_, str> {
    if message.chars().count() <= EXCERPT_CHARS {
        return std::borrow::Cow::Borrowed(message);
    }
    let mut out = String::with_capacity(message.len().min(MESSAGE_CHARS * 4));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest[open..].chars().next().unwrap_or('`');
        out.push_str(&rest[..=open]);
        let inside = &rest[open + 1..];
        let Some(close) = closing(inside, quote) else {
            rest = inside;
            continue;
        };
        out.push_str(&excerpt(&inside[..close]));
        out.push(quote);
        rest = &inside[close + 1..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(cut(&out, MESSAGE_CHARS).into_owned())
}

/// Where `quote` closes in `text` (a backslash escapes the next character
/// inside double quotes, as `{:?}` writes strings).
fn closing(text: &str, quote: char) -> Option<usize> {
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' && quote == '"' {
            escaped = true;
        } else if c == quote {
            return Some(at);
        }
    }
    None
}

#[cfg(test)]
mod excerpt_tests {
    use super::*;

    #[test]
    fn a_long_quoted_value_is_cut_and_the_reason_kept() {
        let tray = "R".repeat(1 << 20);
        let message = format!("field `tray`, piece 1: {tray:?} is not a shape");
        let capped = cap_quoted(&message);
        assert!(capped.len() < 200, "{}", capped.len());
        assert!(
            capped.ends_with("…[1,048,576 characters]\" is not a shape"),
            "{capped}"
        );
        assert!(
            capped.starts_with("field `tray`, piece 1: \"RRR"),
            "{capped}"
        );
        assert_eq!(cap_quoted("short `x` \"y\""), "short `x` \"y\"");
        let unquoted = "x".repeat(5000);
        assert!(cap_quoted(&unquoted).chars().count() < MESSAGE_CHARS + 30);
    }
}
