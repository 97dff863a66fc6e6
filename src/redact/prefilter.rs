//! Cheap rejection: text in which no built-in rule can match is found by
//! looking only around a few anchor bytes, and is returned borrowed.

use super::matcher::{
    KEY_WORDS, LONGEST_KEY_WORD, PRESIGNED, is_idchar, kind_start, starts_with_ci, word_start,
};
use super::{MAX_KEY_SUFFIX, MAX_SPACES};

/// Bytes the prefilter looks around: every rule needs one near its start.
pub(super) const ANCHOR: [bool; 256] = {
    let mut table = [false; 256];
    let anchors = b"-_=:AbB";
    let mut i = 0;
    while i < anchors.len() {
        table[anchors[i] as usize] = true;
        i += 1;
    }
    table
};

/// Whether `b` holds anything a built-in rule could mask. A superset of what
/// the rules match; text for which this is false is never touched. Looks only
/// around a few anchor bytes, so plain prose is scanned at table speed.
pub(super) fn has_trigger(b: &[u8]) -> bool {
    b.iter()
        .enumerate()
        .any(|(i, &c)| ANCHOR[c as usize] && trigger_near(b, i))
}

pub(super) fn trigger_near(b: &[u8], i: usize) -> bool {
    let before = |word: &[u8]| {
        i >= word.len() && &b[i - word.len()..i] == word && kind_start(b, i - word.len())
    };
    match b[i] {
        b'-' => {
            before(b"sk")
                || before(b"glpat")
                || [b"xoxa", b"xoxb", b"xoxp", b"xoxr", b"xoxs"]
                    .iter()
                    .any(|w| before(*w))
                || b[i..].starts_with(b"-----BEGIN ")
        }
        b'_' => {
            [b"ghp", b"gho", b"ghu", b"ghs", b"ghr", b"emk", b"evt"]
                .iter()
                .any(|w| before(*w))
                || before(b"github_pat")
        }
        b'=' | b':' => {
            pair_before(b, i)
                || (b[i] == b'=' && PRESIGNED.iter().any(|name| named_before(b, i, name)))
                || (b[i..].starts_with(b"://") && url_has_userinfo(b, i + 3))
        }
        b'A' => {
            kind_start(b, i)
                && (b[i..].starts_with(b"AKIA")
                    || b[i..].starts_with(b"ASIA")
                    || b[i..].starts_with(b"AIza"))
        }
        _ => {
            word_start(b, i)
                && starts_with_ci(&b[i..], b"bearer")
                && matches!(b.get(i + 6), Some(b' ' | b'\t'))
        }
    }
}

/// Whether a pair head can end with the separator at `j`: a key word, its
/// identifier suffix, an optional closing quote and spaces before it.
pub(super) fn pair_before(b: &[u8], j: usize) -> bool {
    let mut p = j;
    while p > 0 && j - p < MAX_SPACES && matches!(b[p - 1], b' ' | b'\t') {
        p -= 1;
    }
    if p > 0 && matches!(b[p - 1], b'"' | b'\'') {
        p -= 1;
        if p > 0 && b[p - 1] == b'\\' {
            p -= 1;
        }
    }
    let floor = p.saturating_sub(MAX_KEY_SUFFIX + LONGEST_KEY_WORD);
    let mut k = p;
    while k > floor && is_idchar(b[k - 1]) {
        k -= 1;
    }
    (k..p).any(|s| {
        KEY_WORDS.iter().any(|&(word, suffix)| {
            let end = s + word.len();
            end <= p
                && starts_with_ci(&b[s..], word)
                && if suffix {
                    p - end <= MAX_KEY_SUFFIX
                } else {
                    p == end
                }
        })
    })
}

/// `name` (any case, at a word boundary) right before `j`.
pub(super) fn named_before(b: &[u8], j: usize, name: &[u8]) -> bool {
    j >= name.len()
        && b[j - name.len()..j].eq_ignore_ascii_case(name)
        && word_start(b, j - name.len())
}

/// After `://`: an `@` before the authority ends.
pub(super) fn url_has_userinfo(b: &[u8], from: usize) -> bool {
    for &c in &b[from..] {
        match c {
            b'@' => return true,
            c if c <= b' ' || matches!(c, b'/' | b'?' | b'#') => return false,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefilter_finds_every_trigger() {
        for text in [
            "AKIA",
            "ASIA",
            "x sk-",
            "AIza",
            "glpat-",
            "ghp_",
            "gho_",
            "github_pat_",
            "xoxb-",
            "emk_",
            "evt_",
            "Bearer x",
            "-----BEGIN ",
            "sig=",
            "X-Amz-Signature=",
            "x-goog-credential=",
            "password=",
            "DB_PASSWORD :",
            "apiKey:",
            "\\\"token\\\": ",
            "auth=",
            "credentials:",
            "a://b:c@d",
        ] {
            assert!(has_trigger(text.as_bytes()), "{text:?} should trigger");
        }
        for text in [
            "",
            "task-list",
            "desk-lamp",
            "the token is refreshed",
            "password reset flow",
            "secret sauce",
            "author: me",
            "https://example.com/x",
            "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
            "123e4567-e89b-12d3-a456-426614174000",
            "Asia and Akia",
            "keyboard: yes",
            "xgh_",
            "X-Amz-Date=1 x-goog-",
        ] {
            assert!(!has_trigger(text.as_bytes()), "{text:?} should not trigger");
        }
    }
}
