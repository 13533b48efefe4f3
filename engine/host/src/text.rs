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
