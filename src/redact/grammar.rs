//! The value grammar: given a match, where the secret ends (a pair value, a
//! bearer token, a presigned-URL value, a URL password, a PEM body), which
//! values are exempt, and how each is masked.

use super::matcher::*;
use super::{LONG_VALUE_CHARS, MASK, MAX_KEY_SUFFIX, MAX_SPACES, PREFIX_CHARS, mask, mask_value};

/// Copies the text with replacements, allocating only on the first change.
pub(super) struct Rewriter<'a> {
    text: &'a str,
    buf: Option<String>,
    last: usize,
}

impl<'a> Rewriter<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Rewriter {
            text,
            buf: None,
            last: 0,
        }
    }

    /// Replaces `start..end` (at or after every earlier replacement) by `with`.
    pub(super) fn replace(&mut self, start: usize, end: usize, with: &str) {
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

    pub(super) fn finish(self) -> Option<String> {
        let text = self.text;
        let last = self.last;
        self.buf.map(|mut buf| {
            buf.push_str(&text[last..]);
            buf
        })
    }
}

/// Runs the built-in rules; `None` when nothing changed.
pub(super) fn redact_builtin(text: &str) -> Option<String> {
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

pub(super) fn on_kind(text: &str, out: &mut Rewriter<'_>, s: usize, e: usize) -> usize {
    let token = &text[s..e];
    if !is_aws_placeholder(token) && !token.contains(MASK) && !text[e..].starts_with(MASK) {
        out.replace(s, e, &mask(token));
    }
    e
}

pub(super) fn on_pem(text: &str, out: &mut Rewriter<'_>, begin_end: usize) -> usize {
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

pub(super) fn on_bearer(text: &str, out: &mut Rewriter<'_>, s: usize, e: usize) -> usize {
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

pub(super) fn on_presig(text: &str, out: &mut Rewriter<'_>, head_end: usize) -> usize {
    let b = text.as_bytes();
    let mut e = head_end;
    while e < b.len() && is_query_value_char(b[e]) {
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

pub(super) fn on_url(text: &str, out: &mut Rewriter<'_>, after_scheme: usize) -> usize {
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

pub(super) fn is_url_stop(c: u8) -> bool {
    c <= b' '
        || matches!(
            c,
            b'/' | b'?' | b'#' | b'"' | b'\'' | b'`' | b'<' | b'>' | 0x7f
        )
}

/// What a presigned-URL parameter value is made of: unreserved characters,
/// `%` escapes, and the `+ / = @ : ! $ *` that signatures, credentials and
/// tokens carry. Anything else (`&`, `#`, quotes, brackets, `<>`, `,`,
/// whitespace, non-ASCII) ends the value, so the mask never swallows the
/// text around a URL.
pub(super) fn is_query_value_char(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'-' | b'.'
                | b'_'
                | b'~'
                | b'%'
                | b'+'
                | b'/'
                | b'='
                | b'@'
                | b':'
                | b'!'
                | b'$'
                | b'*'
        )
}

pub(super) fn is_unquoted_stop(c: u8) -> bool {
    c <= b' '
        || matches!(
            c,
            b'&' | b',' | b';' | b'"' | b'\'' | b'`' | b')' | b']' | b'}' | b'<' | 0x7f
        )
}

/// End of an unquoted value starting at `from` (`from` when there is none).
pub(super) fn unquoted_end(b: &[u8], from: usize) -> usize {
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
pub(super) enum Quote {
    None,
    Double,
    Single,
    /// `\"…\"`: a quoted value inside a JSON string.
    Escaped,
}

/// The closing quote of a value whose content starts at `from`:
/// `(content end, position after the quote)`, or `None` when the line ends first.
pub(super) fn close_quote(b: &[u8], from: usize, quote: Quote) -> Option<(usize, usize)> {
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
pub(super) const AUTH_SCHEMES: &[&[u8]] = &[
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
pub(super) fn scheme_len(b: &[u8], at: usize, auth_key: bool, quote: Quote) -> usize {
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
pub(super) fn on_pair(text: &str, out: &mut Rewriter<'_>, floor: usize, head: &PairHead) -> usize {
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
    let key = &text[key_start..head.key.1];
    let info = KeyInfo::new(key);
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
        || (scheme > 0 && !info.auth && is_plain_scheme_word(vb))
        || (unquoted
            && sep == ":"
            && head.quote.is_none()
            && head.sep.0 == head.key.1
            && head.end == head.sep.1
            && is_file_name(key.as_bytes())
            && is_line_ref(vb));
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
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct KeyInfo {
    /// Contains a secret key word (and is not a tokenizer setting).
    pub(super) secret: bool,
    /// Names authorization: a scheme word may precede the credential.
    pub(super) auth: bool,
    /// `PWD`/`OLDPWD`: a path value is the working directory.
    pub(super) pwd: bool,
    /// Counts tokens (`max_tokens`): an integer value is a count.
    pub(super) token_count: bool,
    /// One plain word (`token`, `Password`): a `:` after it may be prose.
    pub(super) prose: bool,
}

/// Key words other than `token`.
pub(super) const OTHER_KEY_WORDS: &[&[u8]] = &[
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
pub(super) const COUNT_WORDS: &[&[u8]] = &[
    b"tokens", b"count", b"limit", b"budget", b"usage", b"len", b"size", b"max", b"min", b"num",
    b"total",
];

/// Positions of `needle` in `hay`, in any ASCII case.
pub(super) fn find_ci<'h>(hay: &'h [u8], needle: &'h [u8]) -> impl Iterator<Item = usize> + 'h {
    (0..(hay.len() + 1).saturating_sub(needle.len()))
        .filter(move |&i| starts_with_ci(&hay[i..], needle))
}

pub(super) fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    find_ci(hay, needle).next().is_some()
}

/// Keys remembered per thread: what a key says depends only on the key, and
/// a stored turn's dozen keys come back in every turn (a tenth of a save's
/// CPU went to looking them over again). Bounded: long keys are not kept,
/// and a full memo starts over.
const KEY_MEMO_KEYS: usize = 256;
const KEY_MEMO_KEY_BYTES: usize = 40;

thread_local! {
    static KEY_MEMO: std::cell::RefCell<std::collections::HashMap<Box<str>, KeyInfo>> =
        std::cell::RefCell::default();
}

impl KeyInfo {
    pub(super) fn new(key: &str) -> KeyInfo {
        if key.len() > KEY_MEMO_KEY_BYTES {
            return KeyInfo::look(key);
        }
        KEY_MEMO.with_borrow_mut(|memo| {
            if let Some(info) = memo.get(key) {
                return *info;
            }
            if memo.len() >= KEY_MEMO_KEYS {
                memo.clear();
            }
            let info = KeyInfo::look(key);
            memo.insert(key.into(), info);
            info
        })
    }

    fn look(key: &str) -> KeyInfo {
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
pub(super) fn json_secret_key(key: &str) -> Option<KeyInfo> {
    if key.is_empty() || key.len() > 128 || !key.bytes().all(is_idchar) {
        return None;
    }
    let info = KeyInfo::new(key);
    info.secret.then_some(info)
}

/// The pair rule for a JSON string under a secret key; `None` to leave it to
/// the text rules.
pub(super) fn mask_json_string(info: &KeyInfo, s: &str) -> Option<String> {
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

pub(super) fn is_integer(v: &[u8]) -> bool {
    (1..=18).contains(&v.len()) && v.iter().all(u8::is_ascii_digit)
}

/// A JSON-style number: `-?digits(.digits)?`.
pub(super) fn is_number(v: &[u8]) -> bool {
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
pub(super) fn is_literal(v: &[u8]) -> bool {
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

pub(super) fn ident_len(v: &[u8]) -> usize {
    match v.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
            v.iter().take_while(|&&c| is_word(c)).count()
        }
        _ => 0,
    }
}

/// `$NAME`, `${NAME}` (the value stops before `}`), `$(command` or `${{ expr`.
pub(super) fn is_var_ref(v: &[u8], next: Option<&u8>) -> bool {
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
pub(super) fn is_call(v: &[u8]) -> bool {
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
pub(super) fn is_plain_word(v: &[u8]) -> bool {
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
pub(super) fn is_plain_scheme_word(v: &[u8]) -> bool {
    v.len() < LONG_VALUE_CHARS
        && v.first().is_some_and(u8::is_ascii_alphabetic)
        && v.last().is_some_and(u8::is_ascii_alphabetic)
        && v[1..].iter().all(|&c| c.is_ascii_lowercase() || c == b'-')
}

/// `name.ext`: a file name whose extension (1 to 8 ASCII letters and digits,
/// starting with a letter) is not itself a secret key word (`secrets.md`,
/// `token-refresh.rs`; not `db.password`, `app.secret`).
pub(super) fn is_file_name(key: &[u8]) -> bool {
    let Some(dot) = key.iter().rposition(|&c| c == b'.') else {
        return false;
    };
    let (stem, ext) = (&key[..dot], &key[dot + 1..]);
    !stem.is_empty()
        && (1..=8).contains(&ext.len())
        && ext[0].is_ascii_alphabetic()
        && ext.iter().all(u8::is_ascii_alphanumeric)
        && !std::str::from_utf8(ext).is_ok_and(|e| KeyInfo::new(e).secret)
}

/// `LINE`, `LINE:`, `LINE:COL` or `LINE:COL:` after a file name: the
/// position in a diagnostic (`plan.md:3: no steps found`), not a credential.
pub(super) fn is_line_ref(v: &[u8]) -> bool {
    let v = v.strip_suffix(b":").unwrap_or(v);
    let mut parts = v.splitn(2, |&c| c == b':');
    let number = |p: &[u8]| (1..=9).contains(&p.len()) && p.iter().all(u8::is_ascii_digit);
    parts.next().is_some_and(number) && parts.next().is_none_or(number)
}

/// `http(s)://…` with no query, userinfo or `=` in it.
pub(super) fn is_bare_url(v: &[u8]) -> bool {
    (v.starts_with(b"http://") || v.starts_with(b"https://"))
        && !v.iter().any(|&c| matches!(c, b'?' | b'@' | b'='))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_keys_say_what_looking_again_says() {
        let words = [
            "content",
            "api_key",
            "Token",
            "max_tokens",
            "oauth",
            "tokenizer",
            "PWD",
        ];
        // Past the memo's bound too, so it starts over at least once.
        let keys = (0..3 * KEY_MEMO_KEYS).map(|i| format!("{}{i}", words[i % words.len()]));
        for key in words.map(String::from).into_iter().chain(keys) {
            for _ in 0..2 {
                assert_eq!(KeyInfo::new(&key), KeyInfo::look(&key), "{key}");
            }
        }
        let long = format!("{}password", "x".repeat(KEY_MEMO_KEY_BYTES));
        assert!(KeyInfo::new(&long).secret);
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
    fn file_names_and_line_references() {
        for name in [
            "x.md",
            "secrets.md",
            "token-refresh.rs",
            "a.b.yaml",
            "pwd.md",
            "api_keys.json",
        ] {
            assert!(is_file_name(name.as_bytes()), "{name}");
        }
        for name in [
            "md",
            ".md",
            "db.password",
            "app.secret",
            "x.tokens",
            "x.1md",
            "x.toolongext",
        ] {
            assert!(!is_file_name(name.as_bytes()), "{name}");
        }
        for v in ["3", "3:", "12:4", "12:4:", "123456789"] {
            assert!(is_line_ref(v.as_bytes()), "{v}");
        }
        for v in ["", ":", "3::", "a", "3a", "1234567890", "1:2:3", ":3"] {
            assert!(!is_line_ref(v.as_bytes()), "{v}");
        }
    }
}
