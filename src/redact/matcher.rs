//! The matcher: where a built-in rule matches (known token kinds, PEM BEGIN
//! lines, bearer tokens, presigned-URL parameters, pair heads, URL
//! authorities).
//!
//! The built-in rules are matched by hand rather than by a regex: compiling the
//! equivalent regex (kept in the tests as `REFERENCE_PATTERN`, where a property
//! test checks that both find the same matches) costs most of a CLI call's
//! budget. `hit_at` answers, for one start position, what that regex would
//! match there, trying its alternatives in the same order; `next_hit` returns
//! the leftmost hit, as a leftmost-first regex search does. Every part is
//! bounded or greedy, so scanning stays linear.

use super::{MAX_KEY_SUFFIX, MAX_SPACES};

pub(super) fn starts_with_ci(hay: &[u8], needle: &[u8]) -> bool {
    match (hay.first(), needle.first()) {
        (Some(h), Some(n)) if h.eq_ignore_ascii_case(n) => {
            hay.len() >= needle.len() && hay[..needle.len()].eq_ignore_ascii_case(needle)
        }
        (_, None) => true,
        _ => false,
    }
}

pub(super) fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

pub(super) fn is_idchar(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-')
}

/// An ASCII word boundary before `i` (the byte at `i` is a word byte).
pub(super) fn word_start(b: &[u8], i: usize) -> bool {
    i == 0 || !is_word(b[i - 1])
}

/// Where a known token kind may start: a word boundary, or right after `_`
/// (`shell_sk-…`, `MY_ghp_…`), since glueing a key to a name must not hide
/// it. `emk_`/`evt_` keep the plain boundary: `on_evt_handler_…` is code.
pub(super) fn kind_start(b: &[u8], i: usize) -> bool {
    word_start(b, i) || (b[i - 1] == b'_' && b[i] != b'e')
}

/// Key words of the pair rule in match order, and whether identifier
/// characters may follow them.
pub(super) const KEY_WORDS: &[(&[u8], bool)] = &[
    (b"apikey", true),
    (b"api_key", true),
    (b"api-key", true),
    (b"secret", true),
    (b"token", true),
    (b"password", true),
    (b"passwd", true),
    (b"pwd", true),
    (b"accesskey", true),
    (b"access_key", true),
    (b"access-key", true),
    (b"privatekey", true),
    (b"private_key", true),
    (b"private-key", true),
    (b"credential", true),
    (b"authorization", true),
    (b"auth", false),
];
pub(super) const LONGEST_KEY_WORD: usize = 13;

/// Presigned-URL parameter names (followed by `=`).
pub(super) const PRESIGNED: &[&[u8]] = &[
    b"x-amz-signature",
    b"x-amz-credential",
    b"x-amz-security-token",
    b"x-goog-signature",
    b"x-goog-credential",
    b"sig",
];

/// One match of a built-in rule.
pub(super) enum Hit {
    /// A known token kind: its span.
    Kind(usize, usize),
    /// A PEM BEGIN line: where it ends.
    Pem(usize),
    /// `Bearer` and spaces, then the token's span.
    Bearer(usize, usize),
    /// A presigned-URL parameter name and `=`: where the value starts.
    Presigned(usize),
    /// A pair head.
    Pair(PairHead),
    /// `://`: where the authority starts.
    Url(usize),
}

/// What was matched of a pair: the key word (and suffix), the key's closing
/// quote, the separator and the end of the head (after trailing spaces).
pub(super) struct PairHead {
    pub(super) key: (usize, usize),
    pub(super) quote: Option<(usize, usize)>,
    pub(super) sep: (usize, usize),
    pub(super) end: usize,
}

/// The leftmost hit at or after `from`: `(start, hit)`.
pub(super) fn next_hit(b: &[u8], from: usize) -> Option<(usize, Hit)> {
    (from..b.len()).find_map(|i| hit_at(b, i).map(|hit| (i, hit)))
}

/// The hit starting at `i`, trying the rules in priority order.
pub(super) fn hit_at(b: &[u8], i: usize) -> Option<Hit> {
    let c = b[i];
    if matches!(c, b'A' | b's' | b'g' | b'x' | b'e')
        && kind_start(b, i)
        && let Some(e) = kind_end(b, i, true)
    {
        return Some(Hit::Kind(i, e));
    }
    match c.to_ascii_lowercase() {
        b'-' => pem_begin_end(b, i).map(Hit::Pem),
        b'b' => bearer_token(b, i).map(|(s, e)| Hit::Bearer(s, e)),
        b'x' => presigned_at(b, i).map(Hit::Presigned),
        b's' => presigned_at(b, i)
            .map(Hit::Presigned)
            .or_else(|| pair_head_at(b, i).map(Hit::Pair)),
        b'a' | b't' | b'p' | b'c' => pair_head_at(b, i).map(Hit::Pair),
        b':' => b[i..].starts_with(b"://").then_some(Hit::Url(i + 3)),
        _ => None,
    }
}

/// End of the known token kind at `i` (the caller checks the boundary
/// before it). Greedy like the regex; `greedy == false` reads only up to the
/// kind's minimum length, for linear scans that need a yes or no.
pub(super) fn kind_end(b: &[u8], i: usize, greedy: bool) -> Option<usize> {
    let rest = &b[i..];
    let (prefix, min, ok): (usize, usize, fn(u8) -> bool) = match rest.first()? {
        b'A' if rest.starts_with(b"AKIA") || rest.starts_with(b"ASIA") => {
            let id = rest.len() >= 20
                && rest[4..20]
                    .iter()
                    .all(|&c| c.is_ascii_uppercase() || c.is_ascii_digit())
                && rest.get(20).is_none_or(|&c| !is_word(c));
            return id.then_some(i + 20);
        }
        // Google API keys: `AIza` + 35 of `[A-Za-z0-9_-]`.
        b'A' if rest.starts_with(b"AIza") => (4, 35, is_sk_char),
        b's' if rest.starts_with(b"sk-") => (3, 16, is_sk_char),
        // GitLab personal access tokens: `glpat-` + at least 20.
        b'g' if rest.starts_with(b"glpat-") => (6, 20, is_sk_char),
        b'g' if rest.len() >= 4
            && rest.starts_with(b"gh")
            && matches!(rest[2], b'p' | b'o' | b'u' | b's' | b'r')
            && rest[3] == b'_' =>
        {
            (4, 20, |c: u8| c.is_ascii_alphanumeric())
        }
        b'g' if rest.starts_with(b"github_pat_") => (11, 20, is_word),
        b'x' if rest.len() >= 5
            && rest.starts_with(b"xox")
            && matches!(rest[3], b'a' | b'b' | b'p' | b'r' | b's')
            && rest[4] == b'-' =>
        {
            (5, 10, |c: u8| c.is_ascii_alphanumeric() || c == b'-')
        }
        b'e' if rest.starts_with(b"emk_") || rest.starts_with(b"evt_") => (4, 16, is_word),
        _ => return None,
    };
    let limit = if greedy { usize::MAX } else { min };
    let run = rest[prefix.min(rest.len())..]
        .iter()
        .take(limit)
        .take_while(|&&c| ok(c))
        .count();
    (run >= min).then_some(i + prefix + run)
}

pub(super) fn is_sk_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// `-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----` at `i`: where it ends.
pub(super) fn pem_begin_end(b: &[u8], i: usize) -> Option<usize> {
    if !b[i..].starts_with(b"-----BEGIN ") {
        return None;
    }
    let label = i + "-----BEGIN ".len();
    let mut q = label;
    loop {
        if b[q..].starts_with(b"PRIVATE KEY-----") {
            return Some(q + "PRIVATE KEY-----".len());
        }
        if q - label >= 40
            || !b
                .get(q)
                .is_some_and(|&c| c.is_ascii_uppercase() || c == b' ')
        {
            return None;
        }
        q += 1;
    }
}

/// `Bearer`, 1 to 16 spaces or tabs, then at least 8 token characters.
pub(super) fn bearer_token(b: &[u8], i: usize) -> Option<(usize, usize)> {
    if !word_start(b, i) || !starts_with_ci(&b[i..], b"bearer") {
        return None;
    }
    let spaces = b[i + 6..]
        .iter()
        .take(MAX_SPACES + 1)
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    if spaces == 0 || spaces > MAX_SPACES {
        return None;
    }
    let start = i + 6 + spaces;
    let len = b[start..]
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || b"_.~+/=-".contains(&c))
        .count();
    (len >= 8).then_some((start, start + len))
}

/// A presigned-URL parameter name and `=` at `i`: where the value starts.
pub(super) fn presigned_at(b: &[u8], i: usize) -> Option<usize> {
    if !word_start(b, i) {
        return None;
    }
    PRESIGNED.iter().find_map(|name| {
        let end = i + name.len();
        (starts_with_ci(&b[i..], name) && b.get(end) == Some(&b'=')).then_some(end + 1)
    })
}

/// A pair head whose key word starts at `i`.
pub(super) fn pair_head_at(b: &[u8], i: usize) -> Option<PairHead> {
    KEY_WORDS.iter().find_map(|&(word, suffix)| {
        if !starts_with_ci(&b[i..], word) {
            return None;
        }
        let mut j = i + word.len();
        if suffix {
            let limit = j + MAX_KEY_SUFFIX;
            while j < b.len() && j < limit && is_idchar(b[j]) {
                j += 1;
            }
        }
        if b.get(j).is_some_and(|&c| is_idchar(c)) {
            return None;
        }
        let key = (i, j);
        let quote_len = match (b.get(j), b.get(j + 1)) {
            (Some(b'\\'), Some(b'"' | b'\'')) => 2,
            (Some(b'"' | b'\''), _) => 1,
            _ => 0,
        };
        let quote = (quote_len > 0).then_some((j, j + quote_len));
        j += quote_len;
        j += spaces_at(b, j);
        let rest = &b[j..];
        let sep_len = if [&b"=>"[..], b":=", b"==", b"::"]
            .iter()
            .any(|s| rest.starts_with(s))
        {
            2
        } else if matches!(rest.first(), Some(b'=' | b':')) {
            1
        } else {
            return None;
        };
        let sep = (j, j + sep_len);
        j += sep_len;
        j += spaces_at(b, j);
        Some(PairHead {
            key,
            quote,
            sep,
            end: j,
        })
    })
}

/// Up to `MAX_SPACES` spaces or tabs at `j`.
pub(super) fn spaces_at(b: &[u8], j: usize) -> usize {
    b[j..]
        .iter()
        .take(MAX_SPACES)
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count()
}

pub(super) fn starts_with_kind(value: &[u8]) -> bool {
    kind_end(value, 0, false).is_some()
}

pub(super) fn contains_kind(value: &[u8]) -> bool {
    (0..value.len()).any(|i| kind_start(value, i) && kind_end(value, i, false).is_some())
}

/// `AKIAIOSFODNN7EXAMPLE` and its kin: documentation placeholders.
pub(super) fn is_aws_placeholder(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() == 20
        && (b.starts_with(b"AKIA") || b.starts_with(b"ASIA"))
        && b[4..]
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && b.ends_with(b"EXAMPLE")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::properties::fragment_soup;
    use proptest::prelude::*;

    /// The regex the hand-written matcher implements, alternative by
    /// alternative. Compiling it is what the matcher saves.
    const REFERENCE_PATTERN: &str = r#"(?x-u)
        (?P<kind>
            \b (?: AKIA | ASIA ) [A-Z0-9]{16} \b
          | \b AIza [A-Za-z0-9_-]{35,}
          | \b sk- [A-Za-z0-9_-]{16,}
          | \b glpat- [A-Za-z0-9_-]{20,}
          | \b gh[pousr]_ [A-Za-z0-9]{20,}
          | \b github_pat_ [A-Za-z0-9_]{20,}
          | \b xox[abprs]- [A-Za-z0-9-]{10,}
          | \b (?: emk | evt ) _ [A-Za-z0-9_]{16,}
        )
      | _ (?P<ukind>
            (?: AKIA | ASIA ) [A-Z0-9]{16} \b
          | AIza [A-Za-z0-9_-]{35,}
          | sk- [A-Za-z0-9_-]{16,}
          | glpat- [A-Za-z0-9_-]{20,}
          | gh[pousr]_ [A-Za-z0-9]{20,}
          | github_pat_ [A-Za-z0-9_]{20,}
          | xox[abprs]- [A-Za-z0-9-]{10,}
        )
      | (?P<pem> -----BEGIN\x20 [A-Z\x20]{0,40} PRIVATE\x20KEY----- )
      | \b (?i: bearer ) [\x20\t]{1,16} (?P<btok> [A-Za-z0-9_.~+/=-]{8,} )
      | (?P<presig>
            \b (?i: x-amz-signature | x-amz-credential | x-amz-security-token
                  | x-goog-signature | x-goog-credential | sig ) =
        )
      | (?P<key>
            (?i: api[_-]?key | secret | token | passw(?:or)?d | pwd | access[_-]?key
               | private[_-]?key | credential | authorization ) [A-Za-z0-9_.-]{0,64}
          | (?i: auth )
        )
        (?P<kq> \\? ["'] )? [\x20\t]{0,16} (?P<sep> => | := | == | :: | = | : ) [\x20\t]{0,16}
      | (?P<url> :// )
    "#;

    fn reference() -> &'static regex::Regex {
        static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        RE.get_or_init(|| regex::Regex::new(REFERENCE_PATTERN).unwrap())
    }

    /// What the reference regex finds from `pos`, in the matcher's terms.
    fn reference_hit(text: &str, pos: usize) -> Option<String> {
        let re = reference();
        let mut locs = re.capture_locations();
        // A `_` right before `pos` can be the boundary of a token at `pos`
        // (the `ukind` branch consumes it); nothing else starts with `_`.
        let from = if pos > 0 && text.as_bytes()[pos - 1] == b'_' {
            pos - 1
        } else {
            pos
        };
        let m = re.captures_read_at(&mut locs, text, from)?;
        let group = |name: &str| {
            let i = re.capture_names().position(|n| n == Some(name)).unwrap();
            locs.get(i)
        };
        if let Some((s, e)) = group("ukind") {
            // The `_` before the token is the boundary, not part of the hit.
            return Some(format!("{s} kind {s}..{e}"));
        }
        let described = if let Some((s, e)) = group("kind") {
            format!("kind {s}..{e}")
        } else if group("pem").is_some() {
            format!("pem ..{}", m.end())
        } else if let Some((s, e)) = group("btok") {
            format!("bearer {s}..{e}")
        } else if group("presig").is_some() {
            format!("presigned ..{}", m.end())
        } else if let Some((ks, ke)) = group("key") {
            let (ss, se) = group("sep").unwrap();
            format!("pair {ks}..{ke} {:?} {ss}..{se} ..{}", group("kq"), m.end())
        } else {
            format!("url ..{}", m.end())
        };
        Some(format!("{} {described}", m.start()))
    }

    fn matcher_hit(text: &str, pos: usize) -> Option<String> {
        let (start, hit) = next_hit(text.as_bytes(), pos)?;
        let described = match hit {
            Hit::Kind(s, e) => format!("kind {s}..{e}"),
            Hit::Pem(e) => format!("pem ..{e}"),
            Hit::Bearer(s, e) => format!("bearer {s}..{e}"),
            Hit::Presigned(e) => format!("presigned ..{e}"),
            Hit::Pair(h) => format!(
                "pair {}..{} {:?} {}..{} ..{}",
                h.key.0, h.key.1, h.quote, h.sep.0, h.sep.1, h.end
            ),
            Hit::Url(e) => format!("url ..{e}"),
        };
        Some(format!("{start} {described}"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The hand-written matcher finds exactly what the reference regex finds,
        /// from every start position.
        #[test]
        fn matcher_agrees_with_reference_regex(text in fragment_soup()) {
            for pos in (0..=text.len()).filter(|&p| text.is_char_boundary(p)) {
                prop_assert_eq!(matcher_hit(&text, pos), reference_hit(&text, pos), "text {:?} from {}", text, pos);
            }
        }
    }

    #[test]
    fn reference_examples_agree() {
        for text in [
            "password=hunter2",
            "x AKIAABCDEFGHIJKLMNOP y",
            "Authorization: Bearer abcdefgh",
            "-----BEGIN RSA PRIVATE KEY-----",
            "?X-Amz-Signature=abc&sig=def",
            "postgres://u:p@h",
            "\\\"password\\\" : \\\"x\\\"",
            "tokentokentoken=1 author: x auth: y",
        ] {
            for pos in 0..text.len() {
                assert_eq!(
                    matcher_hit(text, pos),
                    reference_hit(text, pos),
                    "{text:?} from {pos}"
                );
            }
        }
    }
}
