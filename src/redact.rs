//! Credential redaction: masks strings that look like secrets before any byte
//! leaves a tool (stdout, stderr, MCP replies) or enters the home.
//!
//! # Masks
//!
//! * `mask(secret)` is the first eight characters of the secret followed by
//!   `_REDACTED` (`sk-abcdefghijklmnopqrstuv` → `sk-abcde_REDACTED`).
//! * A pair value (see below) that does not start with a known token kind is
//!   masked whole when it is shorter than 24 characters (`password=_REDACTED`)
//!   and keeps its first eight characters otherwise
//!   (`api_key: 01234567_REDACTED`). Trailing backslashes are dropped from a
//!   kept prefix so that a mask never ends a JSON string in a half escape.
//! * Anything that already contains `_REDACTED`, or is directly followed by it,
//!   is left alone: `redact(redact(x)) == redact(x)` for every `x`.
//!
//! # Rules (built-in, cannot be turned off)
//!
//! 1. **Known token kinds**, masked with `mask` wherever they appear (also as
//!    the value of a pair, `KEY=ghp_abcd_REDACTED`). Each must start at an
//!    ASCII word boundary (so `desk-lamp`, `risk-free`, `task-list` never match)
//!    or, except `emk_`/`evt_`, right after `_` (`shell_sk-…` is masked):
//!    * AWS key ids `AKIA`/`ASIA` + exactly 16 `[A-Z0-9]`; ids ending in
//!      `EXAMPLE` (`AKIAIOSFODNN7EXAMPLE`) are documentation placeholders and
//!      are never masked, not even as a pair, bearer or URL value;
//!    * `sk-` + at least 16 of `[A-Za-z0-9_-]` (covers `sk-proj-`, `sk-ant-`);
//!    * `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` + at least 20 `[A-Za-z0-9]`;
//!    * `github_pat_` + at least 20 `[A-Za-z0-9_]`;
//!    * `xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`, `xoxs-` + at least 10 `[A-Za-z0-9-]`;
//!    * `emk_`, `evt_` + at least 16 `[A-Za-z0-9_]`.
//! 2. **Bearer**: `Bearer` in any case, spaces, then a token of at least eight
//!    `[A-Za-z0-9._~+/=_-]`. `Bearer ` stays and the token is masked like a
//!    pair value. A token that is a plain word (`Bearer authentication`: only
//!    letters and inner `-`, lower case after the first, under 24 characters)
//!    is prose and is left alone.
//! 3. **Presigned URLs**: `X-Amz-Signature=`, `X-Amz-Credential=`,
//!    `X-Amz-Security-Token=`, `X-Goog-Signature=`, `X-Goog-Credential=` and
//!    `sig=` (any case, at a word boundary). The name stays; the value, up to
//!    whitespace, `&`, `#`, `<`, `>`, `` ` `` or a quote, is masked like a pair
//!    value.
//! 4. **URL credentials**: in `scheme://user:password@host` the password is
//!    masked like a pair value. The authority of any other URL
//!    (`https://token.example.com:443/`) is never read as a pair.
//! 5. **Pairs**: a key, a separator and a value.
//!    * The key is an identifier (`[A-Za-z0-9_.-]`) that contains, in any case,
//!      `api_key`/`apikey`/`api-key`, `secret`, `token`, `password`, `passwd`,
//!      `pwd`, `access_key`, `private_key` (also with `-` or nothing between
//!      the words), `credential` or `authorization`, or that ends in `auth`
//!      (`auth`, `oauth`, `basic_auth`; `author` does not count). Keys in which
//!      every `token` is part of `tokenize`/`tokeniser` are not secrets.
//!    * Then an optional closing quote (`"`, `'`, `\"`), up to 16 spaces or
//!      tabs, a separator `=`, `:`, `:=` or `=>`, and up to 16 spaces or tabs.
//!      `==` and `::` are comparisons and paths, not separators.
//!    * The value is a quoted string (`"…"` with `\` escapes, `'…'`, or `\"…\"`
//!      inside a JSON string; an unterminated quote falls back to an unquoted
//!      value) or an unquoted run up to whitespace, `&`, `,`, `;`, `"`, `'`,
//!      `` ` ``, `)`, `]`, `}` or `<`. An unquoted value never starts with `{`, `[`, `(`
//!      or `\`; an empty value is left alone.
//!    * For keys naming authorization (containing `auth`) a leading scheme word
//!      (`Basic`, `Bearer`, `Token`, `Digest`, …) and its spaces stay, and only
//!      the credential after it is masked (`Authorization: Basic _REDACTED`);
//!      for other keys only `Bearer`/`Basic` are treated that way.
//!    * A value that starts with `-----BEGIN` is left to the PEM rule.
//!    * Only the value changes; the key, quotes and separator stay. A number
//!      that follows a quoted key (`"password": 1234`) becomes a quoted mask
//!      (`"password": "_REDACTED"`) so JSON stays JSON.
//!    * Never masked, as they are not credentials: unquoted `true`, `false`,
//!      `null`, `None`, `nil`, `undefined` and YAML block markers (`|`, `>-`,
//!      …); variable references (`$DB_PASSWORD`, `${DB_PASSWORD}`,
//!      `$(cat file)`, `${{ secrets.TOKEN }}`); calls
//!      (`token = env::var(...)`, `password = getpass(...)`); paths as values of
//!      `PWD`/`OLDPWD`; integers as values of token-count keys (`max_tokens`,
//!      `total_tokens`, `token_count`, `token_limit`, …). These exemptions are
//!      void when the value contains a known token kind.
//!    * Prose: when the separator is a bare `:`, the key is unquoted and is a
//!      single plain word (`token`, `Password`; not `DB_PASSWORD`, `apiKey`,
//!      `API-KEY`, `TOKEN`), an unquoted value that is a plain word (1 to 15
//!      letters, inner `-` or `.` allowed, one trailing `.`, `!`, `?` or `:`)
//!      or a bare `http(s)://` URL without `?`, `@` or `=` is prose and is
//!      left alone (`token: the unit of text`). Every other value is masked,
//!      as are all values after `=`, `:=` and `=>` and all quoted values.
//! 6. **PEM private keys**: from `-----BEGIN … PRIVATE KEY-----` to the matching
//!    `-----END … PRIVATE KEY-----` (or to the end of the input when the block
//!    is not terminated), the body is replaced by `_REDACTED` between line
//!    breaks of the body's own style (CRLF, LF, a JSON `\n`, or a space); the
//!    BEGIN and END lines stay.
//!
//! # Extra patterns
//!
//! `Redactor::new` adds user regexes (`redaction.extra_patterns`). Each
//! match (or only its `secret` group, when the pattern has one) is masked:
//! first eight characters + `_REDACTED` when 24 characters or longer, else
//! `_REDACTED`. Extra patterns run after the built-in rules, skip empty
//! matches and skip matches that overlap or touch an existing `_REDACTED`.
//!
//! # Cost
//!
//! Every CLI call redacts its output, so the built-in rules use no regex at
//! all: a regex with the same alternatives (kept in the unit tests, where a
//! property test checks that the hand-written matcher finds exactly what it
//! finds) takes most of a millisecond to compile. Instead:
//!
//! * a prefilter looks only around a few anchor bytes (`-`, `_`, `=`, `:`,
//!   `A`, `b`, `B`), each of which every rule needs near its start; text
//!   without a trigger (`sk-`, `ghp_`, `AKIA`, `bearer `, `-----BEGIN `, a
//!   secret key word before a separator, `://…@`, …) is returned borrowed;
//! * the matcher then finds the leftmost match the way a leftmost-first regex
//!   does. Every part of it is bounded or greedy, values are read once, and no
//!   match rescans text that an earlier one consumed, so time is linear in
//!   the input, also on one long line.
//!
//! Only user patterns are regexes; they are compiled once, in
//! `Redactor::new`, where an invalid one is reported.

use regex::Regex;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

/// What replaces a secret, after its kept prefix (if any).
const MASK: &str = "_REDACTED";
/// Characters a mask keeps from the start of a secret.
const PREFIX_CHARS: usize = 8;
/// Pair values at least this long (in characters) keep their prefix.
const LONG_VALUE_CHARS: usize = 24;
/// Identifier characters a pair key may carry after its key word.
const MAX_KEY_SUFFIX: usize = 64;
/// Spaces or tabs allowed around a pair separator.
const MAX_SPACES: usize = 16;

/// The redactor: built-in kinds plus the user's extra patterns.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    extra: Vec<ExtraPattern>,
}

#[derive(Debug, Clone)]
struct ExtraPattern {
    re: Regex,
    /// Index of the `secret` capture group, when the pattern has one.
    secret: Option<usize>,
}

/// An extra pattern from the config that is not a valid regex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedactPatternError {
    /// Position of the pattern in `redaction.extra_patterns`.
    pub index: usize,
    /// The regex parser's message.
    pub message: String,
}

impl fmt::Display for RedactPatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "redaction pattern {} is not a valid regex: {}",
            self.index, self.message
        )
    }
}

impl std::error::Error for RedactPatternError {}

impl Redactor {
    /// Built-ins only (cheap: the built-in rules compile no regex at all).
    pub fn builtin() -> Redactor {
        Redactor { extra: Vec::new() }
    }

    /// Built-ins plus user patterns from config (`redaction.extra_patterns`).
    pub fn new(extra: &[String]) -> Result<Redactor, RedactPatternError> {
        let mut patterns = Vec::with_capacity(extra.len());
        for (index, pattern) in extra.iter().enumerate() {
            let re = Regex::new(pattern).map_err(|e| RedactPatternError {
                index,
                message: e.to_string(),
            })?;
            let secret = re.capture_names().position(|n| n == Some("secret"));
            patterns.push(ExtraPattern { re, secret });
        }
        Ok(Redactor { extra: patterns })
    }

    /// Masks every credential in `text`. Borrowed when nothing was masked.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut owned = if has_trigger(text.as_bytes()) {
            redact_builtin(text)
        } else {
            None
        };
        for extra in &self.extra {
            let current = owned.as_deref().unwrap_or(text);
            if let Some(changed) = extra.apply(current) {
                owned = Some(changed);
            }
        }
        match owned {
            Some(s) => Cow::Owned(s),
            None => Cow::Borrowed(text),
        }
    }

    /// Masks every string in a JSON value in place. Object keys that name a secret
    /// (password, token, api_key, client_secret, apiKey, ...) get their string values masked
    /// by the pair rule even though the key and value are separate strings.
    pub fn redact_value(&self, value: &mut Value) {
        match value {
            Value::String(s) => self.redact_string_in_place(s),
            Value::Array(items) => {
                for item in items {
                    self.redact_value(item);
                }
            }
            Value::Object(map) => {
                if map.keys().any(|k| matches!(self.redact(k), Cow::Owned(_))) {
                    let old = std::mem::take(map);
                    for (k, v) in old {
                        let k = self.redact(&k).into_owned();
                        map.insert(k, v);
                    }
                }
                for (key, item) in map.iter_mut() {
                    match json_secret_key(key) {
                        Some(info) => self.redact_secret_field(&info, item),
                        None => self.redact_value(item),
                    }
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    fn redact_string_in_place(&self, s: &mut String) {
        if let Cow::Owned(new) = self.redact(s) {
            *s = new;
        }
    }

    /// The value of an object key that names a secret.
    fn redact_secret_field(&self, info: &KeyInfo, value: &mut Value) {
        match value {
            Value::String(s) => match mask_json_string(info, s) {
                Some(masked) => *s = masked,
                None => self.redact_string_in_place(s),
            },
            Value::Number(_) if !info.token_count => *value = Value::String(MASK.to_owned()),
            Value::Array(items) => {
                for item in items {
                    match item {
                        Value::String(_) | Value::Number(_) => self.redact_secret_field(info, item),
                        _ => self.redact_value(item),
                    }
                }
            }
            Value::Object(_) => self.redact_value(value),
            Value::Number(_) | Value::Null | Value::Bool(_) => {}
        }
    }
}

/// The mask for one secret: first eight chars + `_REDACTED`.
pub fn mask(secret: &str) -> String {
    let mut out = String::with_capacity(PREFIX_CHARS * 4 + MASK.len());
    out.push_str(&secret[..prefix_end(secret)]);
    out.push_str(MASK);
    out
}

/// Byte offset after the first `PREFIX_CHARS` characters of `s`.
fn prefix_end(s: &str) -> usize {
    s.char_indices()
        .nth(PREFIX_CHARS)
        .map_or(s.len(), |(i, _)| i)
}

/// The pair rule: a known kind or a long value keeps its first eight
/// characters, a short value is masked whole.
fn mask_value(value: &str, known_kind: bool) -> String {
    if known_kind || value.chars().nth(LONG_VALUE_CHARS - 1).is_some() {
        let prefix = value[..prefix_end(value)].trim_end_matches('\\');
        let mut out = String::with_capacity(prefix.len() + MASK.len());
        out.push_str(prefix);
        out.push_str(MASK);
        out
    } else {
        MASK.to_owned()
    }
}

// ---------------------------------------------------------------------------
// Prefilter

/// Bytes the prefilter looks around: every rule needs one near its start.
const ANCHOR: [bool; 256] = {
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
fn has_trigger(b: &[u8]) -> bool {
    b.iter()
        .enumerate()
        .any(|(i, &c)| ANCHOR[c as usize] && trigger_near(b, i))
}

fn trigger_near(b: &[u8], i: usize) -> bool {
    let before = |word: &[u8]| {
        i >= word.len() && &b[i - word.len()..i] == word && kind_start(b, i - word.len())
    };
    match b[i] {
        b'-' => {
            before(b"sk")
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
        b'A' => kind_start(b, i) && (b[i..].starts_with(b"AKIA") || b[i..].starts_with(b"ASIA")),
        _ => {
            word_start(b, i)
                && starts_with_ci(&b[i..], b"bearer")
                && matches!(b.get(i + 6), Some(b' ' | b'\t'))
        }
    }
}

/// Whether a pair head can end with the separator at `j`: a key word, its
/// identifier suffix, an optional closing quote and spaces before it.
fn pair_before(b: &[u8], j: usize) -> bool {
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
fn named_before(b: &[u8], j: usize, name: &[u8]) -> bool {
    j >= name.len()
        && b[j - name.len()..j].eq_ignore_ascii_case(name)
        && word_start(b, j - name.len())
}

/// After `://`: an `@` before the authority ends.
fn url_has_userinfo(b: &[u8], from: usize) -> bool {
    for &c in &b[from..] {
        match c {
            b'@' => return true,
            c if c <= b' ' || matches!(c, b'/' | b'?' | b'#') => return false,
            _ => {}
        }
    }
    false
}

fn starts_with_ci(hay: &[u8], needle: &[u8]) -> bool {
    match (hay.first(), needle.first()) {
        (Some(h), Some(n)) if h.eq_ignore_ascii_case(n) => {
            hay.len() >= needle.len() && hay[..needle.len()].eq_ignore_ascii_case(needle)
        }
        (_, None) => true,
        _ => false,
    }
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn is_idchar(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-')
}

/// An ASCII word boundary before `i` (the byte at `i` is a word byte).
fn word_start(b: &[u8], i: usize) -> bool {
    i == 0 || !is_word(b[i - 1])
}

/// Where a known token kind may start: a word boundary, or right after `_`
/// (`shell_sk-…`, `MY_ghp_…`), since glueing a key to a name must not hide
/// it. `emk_`/`evt_` keep the plain boundary: `on_evt_handler_…` is code.
fn kind_start(b: &[u8], i: usize) -> bool {
    word_start(b, i) || (b[i - 1] == b'_' && b[i] != b'e')
}

// ---------------------------------------------------------------------------
// The matcher
//
// The built-in rules are matched by hand rather than by a regex: compiling the
// equivalent regex (kept in the tests as `REFERENCE_PATTERN`, where a property
// test checks that both find the same matches) costs most of a CLI call's
// budget. `hit_at` answers, for one start position, what that regex would
// match there, trying its alternatives in the same order; `next_hit` returns
// the leftmost hit, as a leftmost-first regex search does. Every part is
// bounded or greedy, so scanning stays linear.

/// Key words of the pair rule in match order, and whether identifier
/// characters may follow them.
const KEY_WORDS: &[(&[u8], bool)] = &[
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
const LONGEST_KEY_WORD: usize = 13;

/// Presigned-URL parameter names (followed by `=`).
const PRESIGNED: &[&[u8]] = &[
    b"x-amz-signature",
    b"x-amz-credential",
    b"x-amz-security-token",
    b"x-goog-signature",
    b"x-goog-credential",
    b"sig",
];

/// One match of a built-in rule.
enum Hit {
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
struct PairHead {
    key: (usize, usize),
    quote: Option<(usize, usize)>,
    sep: (usize, usize),
    end: usize,
}

/// The leftmost hit at or after `from`: `(start, hit)`.
fn next_hit(b: &[u8], from: usize) -> Option<(usize, Hit)> {
    (from..b.len()).find_map(|i| hit_at(b, i).map(|hit| (i, hit)))
}

/// The hit starting at `i`, trying the rules in priority order.
fn hit_at(b: &[u8], i: usize) -> Option<Hit> {
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
fn kind_end(b: &[u8], i: usize, greedy: bool) -> Option<usize> {
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
        b's' if rest.starts_with(b"sk-") => (3, 16, is_sk_char),
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

fn is_sk_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// `-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----` at `i`: where it ends.
fn pem_begin_end(b: &[u8], i: usize) -> Option<usize> {
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
fn bearer_token(b: &[u8], i: usize) -> Option<(usize, usize)> {
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
fn presigned_at(b: &[u8], i: usize) -> Option<usize> {
    if !word_start(b, i) {
        return None;
    }
    PRESIGNED.iter().find_map(|name| {
        let end = i + name.len();
        (starts_with_ci(&b[i..], name) && b.get(end) == Some(&b'=')).then_some(end + 1)
    })
}

/// A pair head whose key word starts at `i`.
fn pair_head_at(b: &[u8], i: usize) -> Option<PairHead> {
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
fn spaces_at(b: &[u8], j: usize) -> usize {
    b[j..]
        .iter()
        .take(MAX_SPACES)
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count()
}

fn starts_with_kind(value: &[u8]) -> bool {
    kind_end(value, 0, false).is_some()
}

fn contains_kind(value: &[u8]) -> bool {
    (0..value.len()).any(|i| kind_start(value, i) && kind_end(value, i, false).is_some())
}

/// `AKIAIOSFODNN7EXAMPLE` and its kin: documentation placeholders.
fn is_aws_placeholder(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() == 20
        && (b.starts_with(b"AKIA") || b.starts_with(b"ASIA"))
        && b[4..]
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && b.ends_with(b"EXAMPLE")
}

// ---------------------------------------------------------------------------
// The built-in pass

/// Copies the text with replacements, allocating only on the first change.
struct Rewriter<'a> {
    text: &'a str,
    buf: Option<String>,
    last: usize,
}

impl<'a> Rewriter<'a> {
    fn new(text: &'a str) -> Self {
        Rewriter {
            text,
            buf: None,
            last: 0,
        }
    }

    /// Replaces `start..end` (at or after every earlier replacement) by `with`.
    fn replace(&mut self, start: usize, end: usize, with: &str) {
        if &self.text[start..end] == with {
            return;
        }
        let text = self.text;
        let buf = self
            .buf
            .get_or_insert_with(|| String::with_capacity(text.len() + 16));
        buf.push_str(&text[self.last..start]);
        buf.push_str(with);
        self.last = end;
    }

    fn finish(self) -> Option<String> {
        let text = self.text;
        let last = self.last;
        self.buf.map(|mut buf| {
            buf.push_str(&text[last..]);
            buf
        })
    }
}

/// Runs the built-in rules; `None` when nothing changed.
fn redact_builtin(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out = Rewriter::new(text);
    let mut pos = 0;
    while let Some((start, hit)) = next_hit(b, pos) {
        let next = match hit {
            Hit::Kind(s, e) => on_kind(text, &mut out, s, e),
            Hit::Pem(end) => on_pem(text, &mut out, end),
            Hit::Bearer(s, e) => on_bearer(text, &mut out, s, e),
            Hit::Presigned(end) => on_presig(text, &mut out, end),
            Hit::Pair(head) => on_pair(text, &mut out, pos, &head),
            Hit::Url(end) => on_url(text, &mut out, end),
        };
        debug_assert!(next > start, "the built-in pass always moves on");
        pos = next.max(start + 1);
    }
    out.finish()
}

fn on_kind(text: &str, out: &mut Rewriter<'_>, s: usize, e: usize) -> usize {
    let token = &text[s..e];
    if !is_aws_placeholder(token) && !token.contains(MASK) && !text[e..].starts_with(MASK) {
        out.replace(s, e, &mask(token));
    }
    e
}

fn on_pem(text: &str, out: &mut Rewriter<'_>, begin_end: usize) -> usize {
    let b = text.as_bytes();
    let mut from = begin_end;
    let mut end_line = None;
    while let Some(i) = text[from..].find("-----END ") {
        let start = from + i;
        let label = start + "-----END ".len();
        let window = &b[label..b.len().min(label + 52)];
        if let Some(dash) = window.windows(5).position(|w| w == b"-----") {
            let name = &window[..dash];
            if name.ends_with(b"PRIVATE KEY")
                && name.iter().all(|&c| c.is_ascii_uppercase() || c == b' ')
            {
                end_line = Some((start, label + dash + 5));
                break;
            }
        }
        from = label;
    }
    let body_end = end_line.map_or(b.len(), |(s, _)| s);
    let body = &text[begin_end..body_end];
    let nl = if body.contains("\r\n") {
        "\r\n"
    } else if body.contains('\n') {
        "\n"
    } else if body.contains("\\n") {
        "\\n"
    } else if body.contains(' ') {
        " "
    } else {
        "\n"
    };
    let mut with = String::with_capacity(2 * nl.len() + MASK.len());
    with.push_str(nl);
    with.push_str(MASK);
    if end_line.is_some() {
        with.push_str(nl);
    }
    out.replace(begin_end, body_end, &with);
    end_line.map_or(b.len(), |(_, e)| e)
}

fn on_bearer(text: &str, out: &mut Rewriter<'_>, s: usize, e: usize) -> usize {
    let token = &text[s..e];
    if token.contains(MASK)
        || text[e..].starts_with(MASK)
        || is_plain_scheme_word(token.as_bytes())
        || is_aws_placeholder(token)
    {
        return e;
    }
    out.replace(s, e, &mask_value(token, starts_with_kind(token.as_bytes())));
    e
}

fn on_presig(text: &str, out: &mut Rewriter<'_>, head_end: usize) -> usize {
    let b = text.as_bytes();
    let mut e = head_end;
    while e < b.len() && !is_presig_stop(b[e]) {
        e += 1;
    }
    let value = &text[head_end..e];
    if e > head_end
        && !value.contains(MASK)
        && !text[e..].starts_with(MASK)
        && !is_aws_placeholder(value)
    {
        out.replace(
            head_end,
            e,
            &mask_value(value, starts_with_kind(value.as_bytes())),
        );
    }
    e.max(head_end)
}

fn on_url(text: &str, out: &mut Rewriter<'_>, after_scheme: usize) -> usize {
    let b = text.as_bytes();
    let mut i = after_scheme;
    while i < b.len() && !is_url_stop(b[i]) && b[i] != b':' && b[i] != b'@' {
        i += 1;
    }
    if b.get(i) != Some(&b':') {
        return i;
    }
    let start = i + 1;
    let mut j = start;
    while j < b.len() && !is_url_stop(b[j]) && b[j] != b'@' {
        j += 1;
    }
    if b.get(j) != Some(&b'@') || j == start {
        return j;
    }
    let password = &text[start..j];
    if !password.contains(MASK) && !is_aws_placeholder(password) {
        out.replace(
            start,
            j,
            &mask_value(password, starts_with_kind(password.as_bytes())),
        );
    }
    j
}

fn is_url_stop(c: u8) -> bool {
    c <= b' '
        || matches!(
            c,
            b'/' | b'?' | b'#' | b'"' | b'\'' | b'`' | b'<' | b'>' | 0x7f
        )
}

fn is_presig_stop(c: u8) -> bool {
    c <= b' ' || matches!(c, b'&' | b'"' | b'\'' | b'`' | b'#' | b'<' | b'>' | 0x7f)
}

fn is_unquoted_stop(c: u8) -> bool {
    c <= b' '
        || matches!(
            c,
            b'&' | b',' | b';' | b'"' | b'\'' | b'`' | b')' | b']' | b'}' | b'<' | 0x7f
        )
}

/// End of an unquoted value starting at `from` (`from` when there is none).
fn unquoted_end(b: &[u8], from: usize) -> usize {
    if matches!(b.get(from), Some(b'{' | b'[' | b'(' | b'\\')) {
        return from;
    }
    let mut i = from;
    while i < b.len() && !is_unquoted_stop(b[i]) {
        i += 1;
    }
    i
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    None,
    Double,
    Single,
    /// `\"…\"`: a quoted value inside a JSON string.
    Escaped,
}

/// The closing quote of a value whose content starts at `from`:
/// `(content end, position after the quote)`, or `None` when the line ends first.
fn close_quote(b: &[u8], from: usize, quote: Quote) -> Option<(usize, usize)> {
    let mut i = from;
    match quote {
        Quote::Double => {
            while i < b.len() {
                match b[i] {
                    b'"' => return Some((i, i + 1)),
                    b'\n' => return None,
                    b'\\' if b.get(i + 1).is_some_and(|&c| c != b'\n') => i += 2,
                    b'\\' => return None,
                    _ => i += 1,
                }
            }
            None
        }
        Quote::Single => {
            let off = b[from..].iter().position(|&c| c == b'\'' || c == b'\n')?;
            (b[from + off] == b'\'').then_some((from + off, from + off + 1))
        }
        Quote::Escaped => {
            let off = b[from..].iter().position(|&c| c == b'"' || c == b'\n')?;
            let q = from + off;
            (b[q] == b'"' && q > from && b[q - 1] == b'\\').then_some((q - 1, q + 1))
        }
        Quote::None => None,
    }
}

/// Scheme words kept before an authorization credential.
const AUTH_SCHEMES: &[&[u8]] = &[
    b"bearer",
    b"basic",
    b"token",
    b"digest",
    b"bot",
    b"negotiate",
    b"ntlm",
    b"hoba",
    b"mutual",
    b"apikey",
];

/// Length of a scheme word plus its spaces at `at`, when a credential follows.
fn scheme_len(b: &[u8], at: usize, auth_key: bool, quote: Quote) -> usize {
    let mut i = at;
    while i < b.len() && i - at <= 10 && b[i].is_ascii_alphabetic() {
        i += 1;
    }
    let word = &b[at..i];
    let known = if auth_key {
        AUTH_SCHEMES.iter().any(|s| word.eq_ignore_ascii_case(s))
    } else {
        word.eq_ignore_ascii_case(b"bearer") || word.eq_ignore_ascii_case(b"basic")
    };
    if !known {
        return 0;
    }
    let spaces = i;
    while i < b.len() && i - spaces < MAX_SPACES && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    if i == spaces {
        return 0;
    }
    let credential_follows = match (quote, b.get(i)) {
        (_, None) => false,
        (Quote::None, Some(&c)) => !is_unquoted_stop(c) && !matches!(c, b'{' | b'[' | b'(' | b'\\'),
        (Quote::Single, Some(&c)) => c != b'\'' && c != b'\n',
        (Quote::Double | Quote::Escaped, Some(&c)) => !matches!(c, b'"' | b'\\' | b'\n'),
    };
    if credential_follows { i - at } else { 0 }
}

/// A pair: reads the whole key (back to `floor`, the search start, at most
/// `MAX_KEY_SUFFIX` bytes), then the value, and masks or keeps it.
fn on_pair(text: &str, out: &mut Rewriter<'_>, floor: usize, head: &PairHead) -> usize {
    let b = text.as_bytes();
    let sep = &text[head.sep.0..head.sep.1];
    if sep == "==" || sep == "::" {
        return head.sep.1;
    }
    // A key word inside an earlier mask (`sk-token_REDACTED=`): the mask
    // ended a match, and what follows it is read as it was the first time.
    if let Some(i) = text[head.key.0..head.key.1].rfind(MASK) {
        return head.key.0 + i + MASK.len();
    }
    let mut key_start = head.key.0;
    while key_start > floor
        && head.key.0 - key_start < MAX_KEY_SUFFIX
        && is_idchar(b[key_start - 1])
    {
        key_start -= 1;
    }
    let info = KeyInfo::new(&text[key_start..head.key.1]);
    if !info.secret {
        return head.end;
    }
    let (mut quote, open_end) = match b.get(head.end) {
        None => return head.end,
        Some(b'\\') if b.get(head.end + 1) == Some(&b'"') => (Quote::Escaped, head.end + 2),
        Some(b'"') => (Quote::Double, head.end + 1),
        Some(b'\'') => (Quote::Single, head.end + 1),
        Some(_) => (Quote::None, head.end),
    };
    let scheme = scheme_len(b, open_end, info.auth, quote);
    let start = open_end + scheme;
    if b[start..].starts_with(b"-----BEGIN") {
        return start;
    }
    let (end, after) = match close_quote(b, start, quote) {
        Some(found) => found,
        None => {
            quote = Quote::None;
            let e = unquoted_end(b, start);
            (e, e)
        }
    };
    if end == start {
        return after.max(head.end);
    }
    let value = &text[start..end];
    let vb = value.as_bytes();
    if value.contains(MASK) || text[end..].starts_with(MASK) || is_aws_placeholder(value) {
        return after;
    }
    let unquoted = quote == Quote::None;
    let exempt = (info.pwd && matches!(vb[0], b'/' | b'~'))
        || (info.token_count && is_integer(vb))
        || (unquoted && (is_literal(vb) || is_var_ref(vb, b.get(end)) || is_call(vb)))
        || (unquoted
            && sep == ":"
            && head.quote.is_none()
            && info.prose
            && scheme == 0
            && (is_plain_word(vb) || is_bare_url(vb)))
        || (scheme > 0 && !info.auth && is_plain_scheme_word(vb));
    if exempt && !contains_kind(vb) {
        return after;
    }
    let masked = mask_value(value, starts_with_kind(vb));
    match head.quote {
        Some((qs, qe)) if unquoted && is_number(vb) => {
            let q = &text[qs..qe];
            out.replace(start, end, &format!("{q}{masked}{q}"));
        }
        _ => out.replace(start, end, &masked),
    }
    after
}

/// What a pair key says about its value.
struct KeyInfo {
    /// Contains a secret key word (and is not a tokenizer setting).
    secret: bool,
    /// Names authorization: a scheme word may precede the credential.
    auth: bool,
    /// `PWD`/`OLDPWD`: a path value is the working directory.
    pwd: bool,
    /// Counts tokens (`max_tokens`): an integer value is a count.
    token_count: bool,
    /// One plain word (`token`, `Password`): a `:` after it may be prose.
    prose: bool,
}

/// Key words other than `token`.
const OTHER_KEY_WORDS: &[&[u8]] = &[
    b"apikey",
    b"api_key",
    b"api-key",
    b"secret",
    b"password",
    b"passwd",
    b"pwd",
    b"accesskey",
    b"access_key",
    b"access-key",
    b"privatekey",
    b"private_key",
    b"private-key",
    b"credential",
    b"authorization",
];

/// Words that make a token key a count.
const COUNT_WORDS: &[&[u8]] = &[
    b"tokens", b"count", b"limit", b"budget", b"usage", b"len", b"size", b"max", b"min", b"num",
    b"total",
];

/// Positions of `needle` in `hay`, in any ASCII case.
fn find_ci<'h>(hay: &'h [u8], needle: &'h [u8]) -> impl Iterator<Item = usize> + 'h {
    (0..(hay.len() + 1).saturating_sub(needle.len()))
        .filter(move |&i| starts_with_ci(&hay[i..], needle))
}

fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    find_ci(hay, needle).next().is_some()
}

impl KeyInfo {
    fn new(key: &str) -> KeyInfo {
        let k = key.as_bytes();
        let other = OTHER_KEY_WORDS.iter().any(|w| contains_ci(k, w))
            || (k.len() >= 4 && k[k.len() - 4..].eq_ignore_ascii_case(b"auth"));
        let has_token = contains_ci(k, b"token");
        let tokenizer = has_token
            && find_ci(k, b"token").all(|i| {
                let after = &k[i + 5..];
                starts_with_ci(after, b"iz") || starts_with_ci(after, b"is")
            });
        KeyInfo {
            secret: other || (has_token && !tokenizer),
            auth: contains_ci(k, b"auth"),
            pwd: k.eq_ignore_ascii_case(b"pwd") || k.eq_ignore_ascii_case(b"oldpwd"),
            token_count: !other && has_token && COUNT_WORDS.iter().any(|w| contains_ci(k, w)),
            prose: !k.is_empty()
                && k.iter().all(u8::is_ascii_alphabetic)
                && k[1..].iter().all(u8::is_ascii_lowercase),
        }
    }
}

/// An object key of a JSON document that names a secret.
fn json_secret_key(key: &str) -> Option<KeyInfo> {
    if key.is_empty() || key.len() > 128 || !key.bytes().all(is_idchar) {
        return None;
    }
    let info = KeyInfo::new(key);
    info.secret.then_some(info)
}

/// The pair rule for a JSON string under a secret key; `None` to leave it to
/// the text rules.
fn mask_json_string(info: &KeyInfo, s: &str) -> Option<String> {
    let b = s.as_bytes();
    if s.is_empty() || s.contains(MASK) || is_aws_placeholder(s) || s.starts_with("-----BEGIN") {
        return None;
    }
    if ((info.pwd && matches!(b[0], b'/' | b'~')) || (info.token_count && is_integer(b)))
        && !contains_kind(b)
    {
        return None;
    }
    let scheme = scheme_len(b, 0, info.auth, Quote::None);
    let value = &s[scheme..];
    if scheme > 0 && !info.auth && is_plain_scheme_word(value.as_bytes()) {
        return None;
    }
    let mut out = String::with_capacity(scheme + PREFIX_CHARS * 4 + MASK.len());
    out.push_str(&s[..scheme]);
    out.push_str(&mask_value(value, starts_with_kind(value.as_bytes())));
    Some(out)
}

fn is_integer(v: &[u8]) -> bool {
    (1..=18).contains(&v.len()) && v.iter().all(u8::is_ascii_digit)
}

/// A JSON-style number: `-?digits(.digits)?`.
fn is_number(v: &[u8]) -> bool {
    let v = v.strip_prefix(b"-").unwrap_or(v);
    let (int, frac) = match v.iter().position(|&c| c == b'.') {
        Some(dot) => (&v[..dot], Some(&v[dot + 1..])),
        None => (v, None),
    };
    !int.is_empty()
        && int.iter().all(u8::is_ascii_digit)
        && frac.is_none_or(|f| !f.is_empty() && f.iter().all(u8::is_ascii_digit))
}

/// `true`, `false`, `null`, `None`, `nil`, `undefined` and YAML block markers.
fn is_literal(v: &[u8]) -> bool {
    [
        &b"true"[..],
        b"false",
        b"null",
        b"none",
        b"nil",
        b"undefined",
    ]
    .iter()
    .any(|w| v.eq_ignore_ascii_case(w))
        || matches!(v, b"|" | b"|-" | b"|+" | b">" | b">-" | b">+")
}

fn ident_len(v: &[u8]) -> usize {
    match v.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
            v.iter().take_while(|&&c| is_word(c)).count()
        }
        _ => 0,
    }
}

/// `$NAME`, `${NAME}` (the value stops before `}`), `$(command` or `${{ expr`.
fn is_var_ref(v: &[u8], next: Option<&u8>) -> bool {
    let Some(rest) = v.strip_prefix(b"$") else {
        return false;
    };
    if rest.starts_with(b"(") || rest.starts_with(b"{{") {
        return true;
    }
    match rest.strip_prefix(b"{") {
        Some(name) => ident_len(name) == name.len() && !name.is_empty() && next == Some(&b'}'),
        None => ident_len(rest) == rest.len() && !rest.is_empty(),
    }
}

/// `name(`, `a.b(`, `std::env::var(`: a call, not a credential.
fn is_call(v: &[u8]) -> bool {
    let mut i = 0;
    loop {
        let n = ident_len(&v[i..]);
        if n == 0 {
            return false;
        }
        i += n;
        match &v[i..] {
            [b'(', ..] => return true,
            [b'.', ..] => i += 1,
            [b':', b':', ..] => i += 2,
            _ => return false,
        }
    }
}

/// 1 to 15 letters (inner `-`/`.` allowed), optionally one trailing `.!?:`.
fn is_plain_word(v: &[u8]) -> bool {
    let core = match v.last() {
        Some(b'.' | b'!' | b'?' | b':') => &v[..v.len() - 1],
        _ => v,
    };
    !core.is_empty()
        && core.len() <= 15
        && core[0].is_ascii_alphabetic()
        && core[core.len() - 1].is_ascii_alphabetic()
        && core
            .iter()
            .all(|&c| c.is_ascii_alphabetic() || c == b'-' || c == b'.')
}

/// A word after `Bearer` in prose: letters (inner `-` allowed), lower case
/// after the first, under 24 characters.
fn is_plain_scheme_word(v: &[u8]) -> bool {
    v.len() < LONG_VALUE_CHARS
        && v.first().is_some_and(u8::is_ascii_alphabetic)
        && v.last().is_some_and(u8::is_ascii_alphabetic)
        && v[1..].iter().all(|&c| c.is_ascii_lowercase() || c == b'-')
}

/// `http(s)://…` with no query, userinfo or `=` in it.
fn is_bare_url(v: &[u8]) -> bool {
    (v.starts_with(b"http://") || v.starts_with(b"https://"))
        && !v.iter().any(|&c| matches!(c, b'?' | b'@' | b'='))
}

// ---------------------------------------------------------------------------
// Extra patterns

impl ExtraPattern {
    fn apply(&self, text: &str) -> Option<String> {
        let mut out = Rewriter::new(text);
        let mut mask_span = |s: usize, e: usize| {
            if e > s && !near_mask(text.as_bytes(), s, e) {
                out.replace(s, e, &mask_value(&text[s..e], false));
            }
        };
        match self.secret {
            Some(group) => {
                for caps in self.re.captures_iter(text) {
                    if let Some(m) = caps.get(group) {
                        mask_span(m.start(), m.end());
                    }
                }
            }
            None => {
                for m in self.re.find_iter(text) {
                    mask_span(m.start(), m.end());
                }
            }
        }
        out.finish()
    }
}

/// Whether `s..e` overlaps or touches a `_REDACTED` already in the text.
fn near_mask(b: &[u8], s: usize, e: usize) -> bool {
    let lo = s.saturating_sub(MASK.len() - 1);
    let hi = b.len().min(e + MASK.len());
    b[lo..hi].windows(MASK.len()).any(|w| w == MASK.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str) -> String {
        Redactor::builtin().redact(text).into_owned()
    }

    fn unchanged(text: &str) {
        let red = Redactor::builtin();
        let out = red.redact(text);
        assert!(
            matches!(out, Cow::Borrowed(_)),
            "expected no change for {text:?}, got {out:?}"
        );
    }

    #[test]
    fn mask_keeps_eight_chars() {
        assert_eq!(mask("sk-abcdefghijklmnopqrstuv"), "sk-abcde_REDACTED");
        assert_eq!(mask("abc"), "abc_REDACTED");
        assert_eq!(mask(""), "_REDACTED");
        assert_eq!(mask("ééééééééééé"), "éééééééé_REDACTED");
        assert_eq!(mask("日本語のパスワードです"), "日本語のパスワー_REDACTED");
    }

    #[test]
    fn mask_value_rule() {
        assert_eq!(mask_value("hunter2", false), "_REDACTED");
        assert_eq!(mask_value("12345678901234567890123", false), "_REDACTED");
        assert_eq!(
            mask_value("123456789012345678901234", false),
            "12345678_REDACTED"
        );
        assert_eq!(mask_value("ghp_short", true), "ghp_shor_REDACTED");
        assert_eq!(
            mask_value("abcdefg\\nopqrstuvwxyz0123", false),
            "abcdefg_REDACTED"
        );
    }

    #[test]
    fn known_kinds() {
        assert_eq!(r("sk-abcdefghijklmnopqrstuv"), "sk-abcde_REDACTED");
        assert_eq!(
            r("ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
            "ghp_abcd_REDACTED"
        );
        assert_eq!(r("id AKIAABCDEFGHIJKLMNOP."), "id AKIAABCD_REDACTED.");
        assert_eq!(r("ASIA0123456789ABCDEF"), "ASIA0123_REDACTED");
        assert_eq!(
            r("github_pat_11ABCDEFG0123456789_abcdefghij"),
            "github_p_REDACTED"
        );
        assert_eq!(r("xoxb-123456789012-abcdef"), "xoxb-123_REDACTED");
        assert_eq!(r("emk_0123456789abcdef0123"), "emk_0123_REDACTED");
        assert_eq!(r("evt_live_0123456789abcdef"), "evt_live_REDACTED");
        assert_eq!(r("(sk-ant-api03-abcdefghijklmnop)"), "(sk-ant-a_REDACTED)");
    }

    #[test]
    fn kinds_need_boundary_and_length() {
        unchanged("desk-lamp risk-free task-list sk-learn");
        unchanged("xsk-abcdefghijklmnopqrstuv");
        unchanged("sk-abcdefghijklmno"); // 15 after the prefix
        unchanged("ghp_abcdefghijklmnopqrs"); // 19
        unchanged("AKIAABCDEFGHIJKLMNOPQ"); // 17 after AKIA
        unchanged("AKIAIOSFODNN7EXAMPLE");
        unchanged("xoxb-12345");
        unchanged("emk_short");
    }

    #[test]
    fn aws_placeholder_is_never_masked() {
        unchanged("aws_access_key_id=AKIAIOSFODNN7EXAMPLE");
        unchanged("{\"AccessKeyId\": \"AKIAIOSFODNN7EXAMPLE\"}");
        assert_eq!(
            r("aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            "aws_secret_access_key=wJalrXUt_REDACTED"
        );
    }

    #[test]
    fn bearer_rule() {
        assert_eq!(r("Bearer abc.def-123"), "Bearer _REDACTED");
        assert_eq!(
            r("curl -H 'x: BEARER eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_x'"),
            "curl -H 'x: BEARER eyJhbGci_REDACTED'"
        );
        assert_eq!(
            r("bearer sk-abcdefghijklmnopqrstuv"),
            "bearer sk-abcde_REDACTED"
        );
        unchanged("the bearer of this letter");
        unchanged("Bearer authentication is simple");
        unchanged("Bearer short");
        unchanged("Bearer self-signed");
        unchanged("Bearer task-list");
        unchanged("Bearer AKIAIOSFODNN7EXAMPLE");
        assert_eq!(r("Bearer self-signed-"), "Bearer _REDACTED");
    }

    #[test]
    fn presigned_params() {
        assert_eq!(
            r("?X-Amz-Signature=abcdef0123456789abcdef0123456789&X-Amz-Date=1"),
            "?X-Amz-Signature=abcdef01_REDACTED&X-Amz-Date=1"
        );
        assert_eq!(r("&sig=abc%2Bdef#frag"), "&sig=_REDACTED#frag");
        assert_eq!(r("x-goog-credential=a@b"), "x-goog-credential=_REDACTED");
        unchanged("design=flat X-Amz-SignedHeaders=host");
    }

    #[test]
    fn url_credentials() {
        assert_eq!(
            r("postgres://app:hunter2@db.internal:5432/app"),
            "postgres://app:_REDACTED@db.internal:5432/app"
        );
        assert_eq!(r("redis://:s3cret@cache"), "redis://:_REDACTED@cache");
        unchanged("https://token.example.com:443/path");
        unchanged("ssh://git@github.com:22/org/repo");
        unchanged("see https://example.com/a@b");
    }

    #[test]
    fn pairs_with_equals() {
        assert_eq!(r("password=hunter2"), "password=_REDACTED");
        assert_eq!(
            r("export DB_PASSWORD=hunter2"),
            "export DB_PASSWORD=_REDACTED"
        );
        assert_eq!(
            r("KEY=1 api-key = 'abc def'"),
            "KEY=1 api-key = '_REDACTED'"
        );
        assert_eq!(r("token=abc&x=1"), "token=_REDACTED&x=1");
        assert_eq!(r("auth=xyz"), "auth=_REDACTED");
        assert_eq!(r("SECRET := \"v\""), "SECRET := \"_REDACTED\"");
        assert_eq!(r("'password' => 'pw'"), "'password' => '_REDACTED'");
        assert_eq!(
            r("token=ghp_abcdefghijklmnopqrstuvwxyz01"),
            "token=ghp_abcd_REDACTED"
        );
        assert_eq!(
            r("client_secret=0123456789abcdef0123456789abcdef"),
            "client_secret=01234567_REDACTED"
        );
    }

    #[test]
    fn pairs_with_colon() {
        assert_eq!(r("password: s3cr3tP4ss"), "password: _REDACTED");
        assert_eq!(
            r("\"password\": \"hunter2\""),
            "\"password\": \"_REDACTED\""
        );
        assert_eq!(r("\"password\": \"\""), "\"password\": \"\"");
        assert_eq!(
            r("{\"pin_password\": 1234}"),
            "{\"pin_password\": \"_REDACTED\"}"
        );
        assert_eq!(r("apiKey: hello"), "apiKey: _REDACTED");
        assert_eq!(r("TOKEN: hello"), "TOKEN: _REDACTED");
        assert_eq!(r("X-Api-Key: abc"), "X-Api-Key: _REDACTED");
        assert_eq!(r("token:abc123"), "token:_REDACTED");
    }

    #[test]
    fn prose_colon_rule() {
        unchanged("token: the unit of text");
        unchanged("Password: Required. Secret: Yes!");
        unchanged("Token: see https://docs.example.com/tokens");
        unchanged("the token is refreshed hourly; reset your password; keep it secret");
        assert_eq!(r("token: abc1"), "token: _REDACTED");
        assert_eq!(r("Password: N/A"), "Password: _REDACTED");
        assert_eq!(r("secret: verylongplainwordhere"), "secret: _REDACTED");
        assert_eq!(r("token: 'the'"), "token: '_REDACTED'");
    }

    #[test]
    fn authorization_schemes() {
        assert_eq!(
            r("Authorization: Basic dXNlcjpwYXNz"),
            "Authorization: Basic _REDACTED"
        );
        assert_eq!(
            r("authorization: bearer abcdefghij"),
            "authorization: bearer _REDACTED"
        );
        assert_eq!(
            r("{\"Authorization\": \"Bearer abcdefghijklmnopqrstuvwxyz\"}"),
            "{\"Authorization\": \"Bearer abcdefgh_REDACTED\"}"
        );
        assert_eq!(
            r("Proxy-Authorization: xyz"),
            "Proxy-Authorization: _REDACTED"
        );
        assert_eq!(r("token: Bearer abc123def"), "token: Bearer _REDACTED");
        unchanged("author: Jane Doe");
    }

    #[test]
    fn pair_exemptions() {
        unchanged("use_token: true, \"has_password\": false, secret: null");
        unchanged("password: |");
        unchanged("Use `secret: true` to hide; api_key = None; TOKEN=${{ secrets.GH }}");
        assert_eq!(
            r("run `password=hunter2` once"),
            "run `password=_REDACTED` once"
        );
        unchanged("export TOKEN=$GITHUB_TOKEN; password: ${DB_PASSWORD}; pw=$(cat f)");
        unchanged("let token = env::var(\"X\"); password = getpass(prompt)");
        unchanged("PWD=/home/me OLDPWD=~/src");
        unchanged("max_tokens: 4096 \"total_tokens\": 12 token_count=7");
        unchanged("tokenizer: gpt2 if token == other { secret::x() }");
        assert_eq!(r("max_tokens: lots"), "max_tokens: _REDACTED");
        assert_eq!(r("PWD=relative"), "PWD=_REDACTED");
        assert_eq!(
            r("pw=$(cat) token=f(ghp_abcdefghijklmnopqrstuvwxyz01)"),
            "pw=$(cat) token=f(ghp_ab_REDACTED)"
        );
    }

    #[test]
    fn escaped_json_pairs() {
        assert_eq!(
            r(r#""{\"password\": \"hunter2\", \"x\": 1}""#),
            r#""{\"password\": \"_REDACTED\", \"x\": 1}""#
        );
        assert_eq!(r(r#"{"token": "a\"b"}"#), r#"{"token": "_REDACTED"}"#);
        assert_eq!(r("password=\"unterminated"), "password=\"_REDACTED");
    }

    #[test]
    fn pem_blocks() {
        let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabcdef\n-----END RSA PRIVATE KEY-----\n";
        assert_eq!(
            r(pem),
            "-----BEGIN RSA PRIVATE KEY-----\n_REDACTED\n-----END RSA PRIVATE KEY-----\n"
        );
        let crlf = "a\r\n-----BEGIN PRIVATE KEY-----\r\nMIIE\r\n-----END PRIVATE KEY-----";
        assert_eq!(
            r(crlf),
            "a\r\n-----BEGIN PRIVATE KEY-----\r\n_REDACTED\r\n-----END PRIVATE KEY-----"
        );
        assert_eq!(
            r("-----BEGIN OPENSSH PRIVATE KEY-----\nabc\ndef"),
            "-----BEGIN OPENSSH PRIVATE KEY-----\n_REDACTED"
        );
        assert_eq!(
            r(
                r#"{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"}"#
            ),
            r#"{"private_key": "-----BEGIN PRIVATE KEY-----\n_REDACTED\n-----END PRIVATE KEY-----\n"}"#
        );
        unchanged("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----");
    }

    #[test]
    fn pem_skips_foreign_end_lines() {
        let text = "-----BEGIN EC PRIVATE KEY-----\nA\n-----END CERTIFICATE-----\nB\n-----END EC PRIVATE KEY-----\nC";
        assert_eq!(
            r(text),
            "-----BEGIN EC PRIVATE KEY-----\n_REDACTED\n-----END EC PRIVATE KEY-----\nC"
        );
    }

    /// Cases proptest once shrank to.
    #[test]
    fn found_by_proptest() {
        assert_eq!(r("xoxb-PWDapi-key=>://"), "xoxb-PWD_REDACTED=>://");
        assert_eq!(r("sk-tokenabcdefghijklm=x"), "sk-token_REDACTED=x");
        assert_eq!(
            r("sk-tokenabcdefghijklm.password=x"),
            "sk-token_REDACTED.password=_REDACTED"
        );
    }

    #[test]
    fn masks_are_stable() {
        for text in [
            "sk-abcde_REDACTED",
            "KEY=ghp_abcd_REDACTED",
            "password=_REDACTED",
            "\"password\": \"_REDACTED\"",
            "Authorization: Basic _REDACTED",
            "Bearer abcdefgh_REDACTED",
            "-----BEGIN RSA PRIVATE KEY-----\n_REDACTED\n-----END RSA PRIVATE KEY-----",
            "postgres://u:_REDACTED@h",
            "X-Amz-Signature=abcdef01_REDACTED",
            "xoxb-123_REDACTED github_p_REDACTED emk_0123_REDACTED",
            "xoxb-PWD_REDACTED=>:// sk-token_REDACTED=x",
        ] {
            unchanged(text);
        }
    }

    #[test]
    fn prefilter_finds_every_trigger() {
        for text in [
            "AKIA",
            "ASIA",
            "x sk-",
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

    #[test]
    fn helpers() {
        assert!(is_call(b"std::env::var(\"X\""));
        assert!(is_call(b"self.get_token("));
        assert!(!is_call(b"P@ss(w0rd"));
        assert!(!is_call(b"abc"));
        assert!(is_var_ref(b"${X", Some(&b'}')));
        assert!(!is_var_ref(b"${X", None));
        assert!(is_var_ref(b"$X_Y", None));
        assert!(!is_var_ref(b"$", None));
        assert!(is_number(b"-12.5") && !is_number(b"1.") && !is_number(b"1e5"));
        assert!(is_plain_word(b"see:") && is_plain_word(b"e.g.") && !is_plain_word(b"abc1"));
        assert!(contains_kind(b"x ghp_abcdefghijklmnopqrstuvwxyz"));
        assert!(!contains_kind(b"xghp_abcdefghijklmnopqrstuvwxyz"));
        let info = KeyInfo::new("tokenizer");
        assert!(!info.secret);
        let info = KeyInfo::new("tokenizer_secret");
        assert!(info.secret);
        assert!(KeyInfo::new("max_tokens").token_count);
        assert!(!KeyInfo::new("auth_token").token_count);
        assert!(KeyInfo::new("Token").prose && !KeyInfo::new("TOKEN").prose);
        assert!(!KeyInfo::new("author").secret && KeyInfo::new("oauth").secret);
    }

    #[test]
    fn redact_value_masks_secret_keys() {
        let red = Redactor::builtin();
        let mut v = serde_json::json!({
            "password": "hunter2",
            "nested": {"apiKey": "0123456789abcdef0123456789", "note": "sk-abcdefghijklmnopqrstuv"},
            "list": [{"client_secret": 42}, "token=abc"],
            "max_tokens": 100,
            "tokenizer": "gpt2",
            "Authorization": "Basic dXNlcjpwYXNz",
            "api_keys": ["k1", {"x": "y"}],
            "enabled": true,
            "empty_token": ""
        });
        red.redact_value(&mut v);
        assert_eq!(
            v,
            serde_json::json!({
                "password": "_REDACTED",
                "nested": {"apiKey": "01234567_REDACTED", "note": "sk-abcde_REDACTED"},
                "list": [{"client_secret": "_REDACTED"}, "token=_REDACTED"],
                "max_tokens": 100,
                "tokenizer": "gpt2",
                "Authorization": "Basic _REDACTED",
                "api_keys": ["_REDACTED", {"x": "y"}],
                "enabled": true,
                "empty_token": ""
            })
        );
        let again = v.clone();
        red.redact_value(&mut v);
        assert_eq!(v, again);
    }

    #[test]
    fn redact_value_masks_object_keys() {
        let red = Redactor::builtin();
        let mut v = serde_json::json!({"ghp_abcdefghijklmnopqrstuvwxyz01": 1, "b": 2});
        red.redact_value(&mut v);
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["ghp_abcd_REDACTED", "b"]);
    }

    #[test]
    fn extra_patterns() {
        let red = Redactor::new(&[
            "ACME-[0-9]{6}".to_owned(),
            "internal:(?P<secret>[a-z]+)".to_owned(),
        ])
        .unwrap();
        assert_eq!(
            red.redact("ticket ACME-123456 internal:zebra"),
            "ticket _REDACTED internal:_REDACTED"
        );
        let again = red.redact("ticket _REDACTED internal:_REDACTED");
        assert!(matches!(again, Cow::Borrowed(_)));
        let err = Redactor::new(&["ok".to_owned(), "(".to_owned()]).unwrap_err();
        assert_eq!(err.index, 1);
        assert!(
            err.to_string()
                .starts_with("redaction pattern 1 is not a valid regex: ")
        );
    }

    #[test]
    fn extra_patterns_do_not_eat_masks() {
        let red = Redactor::new(&["[A-Z]+".to_owned(), "tok_[a-z0-9]+".to_owned()]).unwrap();
        let once = red.redact("password=hunter2 tok_abcdefghijklmnopqrstuvwxyz0123 ABC");
        assert_eq!(once, "password=_REDACTED tok_abcd_REDACTED _REDACTED");
        assert_eq!(red.redact(&once), once);
    }

    /// The regex the hand-written matcher implements, alternative by
    /// alternative. Compiling it is what the matcher saves.
    const REFERENCE_PATTERN: &str = r#"(?x-u)
        (?P<kind>
            \b (?: AKIA | ASIA ) [A-Z0-9]{16} \b
          | \b sk- [A-Za-z0-9_-]{16,}
          | \b gh[pousr]_ [A-Za-z0-9]{20,}
          | \b github_pat_ [A-Za-z0-9_]{20,}
          | \b xox[abprs]- [A-Za-z0-9-]{10,}
          | \b (?: emk | evt ) _ [A-Za-z0-9_]{16,}
        )
      | _ (?P<ukind>
            (?: AKIA | ASIA ) [A-Z0-9]{16} \b
          | sk- [A-Za-z0-9_-]{16,}
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

    const FRAGMENTS: &[&str] = &[
        "AKIA",
        "ASIA",
        "0123456789ABCDEF",
        "EXAMPLE",
        "sk-",
        "sk-proj-",
        "ghp_",
        "gho_",
        "github_pat_",
        "xoxb-",
        "emk_",
        "evt_",
        "abcdefghij",
        "ABCDEFGHIJ",
        "0123456789",
        "_",
        "-",
        ".",
        "=",
        ":",
        "==",
        "::",
        "=>",
        ":=",
        " ",
        "  ",
        "\t",
        "\"",
        "'",
        "\\",
        "\\\"",
        "Bearer",
        "bearer ",
        "-----BEGIN ",
        "RSA ",
        "PRIVATE KEY-----",
        "-----END ",
        "\n",
        "\r\n",
        "://",
        "https://",
        "@",
        "/",
        "?",
        "&",
        "#",
        "x-amz-signature",
        "X-Goog-Credential",
        "sig",
        "token",
        "TOKEN",
        "password",
        "passwd",
        "pwd",
        "api_key",
        "apiKey",
        "api-key",
        "secret",
        "auth",
        "Authorization",
        "author",
        "credential",
        "access_key",
        "private-key",
        "é",
        "日本",
        "$",
        "${",
        "$(",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ",",
        ";",
        "true",
        "4096",
        "max_tokens",
        "PWD",
        "/tmp",
        "Basic ",
        "tokenizer",
        "_REDACTED",
        "x",
        "a1",
        "the",
    ];

    fn fragments() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(FRAGMENTS), 0..24).prop_map(|v| v.concat())
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The hand-written matcher finds exactly what the reference regex finds,
        /// from every start position.
        #[test]
        fn matcher_agrees_with_reference_regex(text in fragments()) {
            for pos in (0..=text.len()).filter(|&p| text.is_char_boundary(p)) {
                prop_assert_eq!(matcher_hit(&text, pos), reference_hit(&text, pos), "text {:?} from {}", text, pos);
            }
        }

        /// Whatever the rules would change, the prefilter lets through.
        #[test]
        fn prefilter_is_a_superset(text in fragments()) {
            if !has_trigger(text.as_bytes()) {
                prop_assert!(redact_builtin(&text).is_none(), "{:?}", text);
            }
        }

        #[test]
        fn builtin_pass_is_idempotent(text in fragments()) {
            let once = r(&text);
            prop_assert_eq!(r(&once), once.clone(), "input {:?}", text);
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
