//! Plain sentences beside the Luau parser's and the script reader's
//! jargon, so a designer who has never read a compiler message knows
//! what to change ("Attribute name is missing" for a stray `@`).

/// A plain sentence for a script error message, when its wording is one a
/// designer is unlikely to understand; `None` for messages that already
/// say what to do.
pub fn plain_words(message: &str) -> Option<&'static str> {
    // Checked in order: the first fragment found wins, so the more
    // specific wordings come first.
    const HINTS: &[(&str, &str)] = &[
        (
            "Attribute name is missing",
            "There is a stray `@` on this line: Luau reads `@` as the start of an attribute such as `@native`. Delete it, or put it inside quotes.",
        ),
        (
            "Expected identifier",
            "A name was expected here: a word made of letters, digits and `_` (not starting with a digit), e.g. after `local`, `function` or `.`.",
        ),
        (
            "Incomplete statement",
            "This line does nothing on its own: a statement must assign a value (`x = 1`) or call a function (`f()`).",
        ),
        (
            "Out of registers",
            "This function uses too many local variables or values at once (Luau allows about 200): split it into smaller functions or put values in a table.",
        ),
        (
            "Expected 'end'",
            "A block (`function`, `if`, `for`, `while` or `do`) is not closed: add the missing `end`.",
        ),
        (
            "Expected ')'",
            "A bracket is not closed: add the missing `)`.",
        ),
        (
            "Expected '}'",
            "A table is not closed: add the missing `}` (and check the commas between its entries).",
        ),
        (
            "Expected '=' when parsing assignment",
            "Luau expected `=` here: check the spelling of the name before it and that the line is a complete assignment.",
        ),
        (
            "Unfinished string",
            "A string is not closed: add the missing quote at the end of the text.",
        ),
        (
            "attempt to call a nil value",
            "A function is called that does not exist: check its name's spelling, and that it is defined above the call.",
        ),
        (
            "attempt to index nil",
            "A table is read that does not exist (it is nil): check the name before the `.` or `[`.",
        ),
        (
            "attempt to perform arithmetic",
            "Arithmetic on something that is not a number (often nil): check that every value in the sum is set.",
        ),
        (
            "must be a i64",
            "A whole number is needed here (no decimal point), e.g. `3`, not `3.5`.",
        ),
        (
            "must be a i32",
            "A whole number is needed here (no decimal point), e.g. `3`, not `3.5`.",
        ),
        (
            "must be a u32",
            "A whole number of 0 or more is needed here (no decimal point), e.g. `3`.",
        ),
        (
            "must be a u64",
            "A whole number of 0 or more is needed here (no decimal point), e.g. `3`.",
        ),
        (
            "must be a usize",
            "A whole number of 0 or more is needed here (no decimal point), e.g. `3`.",
        ),
        (
            "must be a u8",
            "A whole number from 0 to 255 is needed here (no decimal point).",
        ),
        (
            "must be a f64",
            "A number is needed here, e.g. `0.5` or `3`.",
        ),
        (
            "must be a f32",
            "A number is needed here, e.g. `0.5` or `3`.",
        ),
        (
            "must be a bool",
            "`true` or `false` is needed here (no quotes).",
        ),
        (
            "must be a String",
            "Text in quotes is needed here, e.g. `\"hard\"`.",
        ),
    ];
    HINTS
        .iter()
        .find(|(fragment, _)| message.contains(fragment))
        .map(|&(_, hint)| hint)
}

/// `message`, followed by its plain sentence when it has one.
pub fn with_plain_words(message: &str) -> String {
    match plain_words(message) {
        Some(hint) => format!("{message} — {hint}"),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jargon_gets_a_sentence() {
        let stray_at = "scripts/azul.lua:3: Attribute name is missing";
        assert!(plain_words(stray_at).is_some_and(|h| h.contains("stray `@`")));
        for message in [
            "scripts/t.lua:4: Expected identifier when parsing expression, got '@'",
            "scripts/t.lua:9: Incomplete statement: expected assignment or a function call",
            "scripts/t.lua:1: Out of registers when trying to allocate 3 registers: exceeded limit 255",
            "scripts/t.lua:2: `bonus_row` must be a i64, found a number",
        ] {
            assert!(plain_words(message).is_some(), "{message}");
        }
        assert!(with_plain_words(stray_at).starts_with(stray_at));
        assert!(with_plain_words(stray_at).contains(" — "));
    }

    #[test]
    fn messages_that_are_already_plain_are_left_alone() {
        let plain = "scripts/t.lua:2: `bonus_row` is 9; it must be between 0 and 5";
        assert_eq!(plain_words(plain), None);
        assert_eq!(with_plain_words(plain), plain);
    }
}
