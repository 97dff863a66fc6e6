//! What a document's text is like, read once when it is written and kept
//! in its stamp (`dense`): whether it ends with a question ([`ASKS`]) and
//! whether it says when ([`TIMED`]). The second ranking stage (`context`)
//! weighs documents by them.

use crate::clock::{MONTHS, WEEKDAYS};

/// A document's text ends with a question (`stamps` flag).
pub(crate) const ASKS: u8 = 0x40;
/// A document's text says when: a weekday, a month, a year, "yesterday",
/// "last week", "ago" (`stamps` flag).
pub(crate) const TIMED: u8 = 0x80;

/// Words that say when something happened, with the weekdays and the
/// months ("may" aside: more often a verb).
const TIME_WORDS: &[&str] = &[
    "yesterday",
    "today",
    "tonight",
    "tomorrow",
    "ago",
    "last",
    "week",
    "weeks",
    "weekend",
    "month",
    "months",
    "year",
    "years",
    "recently",
    "morning",
    "evening",
    "night",
];

/// Whether a word says when: a time word, a weekday, a month ("may"
/// aside), a year 1900-2099. Every document written is read through this:
/// one set lookup a word, no allocation.
fn says_when(word: &str) -> bool {
    static WORDS: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    let bytes = word.as_bytes();
    if !(3..=9).contains(&bytes.len()) {
        return false;
    }
    if bytes.len() == 4 && bytes.iter().all(u8::is_ascii_digit) {
        return bytes.starts_with(b"19") || bytes.starts_with(b"20");
    }
    let mut lower = [0u8; 9];
    for (to, from) in lower.iter_mut().zip(bytes) {
        *to = from.to_ascii_lowercase();
    }
    let Ok(lower) = std::str::from_utf8(&lower[..bytes.len()]) else {
        return false;
    };
    WORDS
        .get_or_init(|| {
            TIME_WORDS
                .iter()
                .chain(&WEEKDAYS)
                .chain(MONTHS.iter().filter(|m| **m != "may"))
                .copied()
                .collect()
        })
        .contains(lower)
}

/// The `stamps` flags of a document's text: [`ASKS`], [`TIMED`].
pub(crate) fn flags(body: &str) -> u8 {
    let mut flags = 0;
    if body.trim_end().ends_with(['?', '？']) {
        flags |= ASKS;
    }
    if body.split(|c: char| !c.is_alphanumeric()).any(says_when) {
        flags |= TIMED;
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_say_whether_a_text_asks_and_says_when() {
        assert_eq!(flags("How did they react when they saw it?"), ASKS);
        assert_eq!(flags("How did they react?  \n"), ASKS);
        assert_eq!(flags("元気ですか？"), ASKS);
        assert_eq!(flags("I went to a support group yesterday."), TIMED);
        assert_eq!(flags("Back in 2022, or was it last Friday?"), ASKS | TIMED);
        assert_eq!(flags("They were awestruck and humbled."), 0);
        // Not a year, not a time word.
        assert_eq!(flags("port 8080, 3000 users, lastly"), 0);
        assert_eq!(flags("Is it? No."), 0);
    }
}
