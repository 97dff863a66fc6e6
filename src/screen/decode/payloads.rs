//! Finding encoded payloads in free text and decoding them, recursively and bounded (`payloads`), and undoing string reversal (`reversed_if_command`).

use super::*;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Payload {
    /// 1-based line where the encoded text starts; a nested payload reports
    /// the line of the outermost one.
    pub(crate) line: usize,
    /// The chain of encodings, outermost first, e.g. `base64>hex`.
    pub(crate) encoding: String,
    /// The (outermost) encoded text as found, cut to 200 characters.
    pub(crate) encoded: String,
    /// The decoded text, at most 64 KiB.
    pub(crate) decoded: String,
}

/// The syntax a candidate span was found by: a base64/base32/hex digit run,
/// a backslash-escape run, a shell `$'…'` string, a char-code list, a run of
/// `%XX` escapes, or Ascii85 `<~…~>`.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// Base64, base32 or hex digits.
    Digits,
    /// Backslash escapes.
    Escapes,
    /// `$'…'`.
    AnsiC,
    /// Character codes.
    CharCodes,
    /// `%XX` escapes.
    Percent,
    /// `<~…~>`.
    Ascii85,
}

/// A candidate: start and end byte offsets, and how it was found.
type Span = (usize, usize, Kind);

/// Every encoded payload in `text` (a script, markdown, a config), kept when it
/// decodes to plausible text, and decoded again while the result is itself a
/// blob or holds payloads, up to 4 layers. At most 64 payloads, each ≤ 64 KiB
/// decoded; only the first 4 MiB of `text` are read; work is linear in it.
pub(crate) fn payloads(text: &str) -> Vec<Payload> {
    let mut out = Vec::new();
    scan(cut(text, MAX_INPUT), 1, None, &mut out);
    out
}

/// Finds, decodes and records the payloads of `text`, `depth` layers down;
/// `outer` is the line, encoding chain and citation `text` was decoded from.
fn scan(text: &str, depth: usize, outer: Option<(usize, &str, &str)>, out: &mut Vec<Payload>) {
    let mut found = candidates(text.as_bytes());
    found.sort_unstable_by_key(|&(start, end, _)| (start, Reverse(end)));
    let (mut line, mut counted, mut taken) = (1, 0, 0);
    for (start, end, kind) in found {
        if out.len() >= MAX_PAYLOADS {
            return;
        }
        let Some((mut decoded, name)) = (start >= taken)
            .then(|| decode_candidate(&text[start..end], kind))
            .flatten()
        else {
            continue;
        };
        line += text.as_bytes()[counted..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        (taken, counted) = (end, start);
        let (at, mut chain, encoded) = match outer {
            Some((at, chain, encoded)) => (at, format!("{chain}>{name}"), encoded.to_owned()),
            None => (line, name.to_owned(), cite(&text[start..end])),
        };
        let mut layers = depth;
        while layers < MAX_DEPTH
            && let Some((inner, name)) = decode_blob(&decoded)
        {
            (chain, decoded, layers) = (format!("{chain}>{name}"), inner, layers + 1);
        }
        let nested = (layers < MAX_DEPTH).then(|| decoded.clone());
        out.push(Payload {
            line: at,
            encoding: chain.clone(),
            encoded: encoded.clone(),
            decoded,
        });
        if let Some(inner) = nested {
            scan(&inner, layers + 1, Some((at, &chain, &encoded)), out);
        }
    }
}

/// The first `CITE_CHARS` characters of `s`.
fn cite(s: &str) -> String {
    s.char_indices()
        .nth(CITE_CHARS)
        .map_or(s, |(i, _)| &s[..i])
        .to_owned()
}

/// Decodes one candidate span by the rules of its kind.
fn decode_candidate(span: &str, kind: Kind) -> Option<(String, &'static str)> {
    match kind {
        Kind::Digits => decode_digits(span),
        Kind::Escapes | Kind::AnsiC => {
            let (inner, min) = if let Kind::AnsiC = kind {
                (&span[2..span.len() - 1], 2)
            } else {
                (span, 4)
            };
            let (bytes, count) = unescape(inner);
            (count[0] + count[1] + count[2] >= min).then_some(())?;
            plausible_text(bytes).map(|t| (t, escape_name(&count)))
        }
        Kind::CharCodes => {
            let (t, name) = char_codes(span)?;
            let t = plausible_text(t.into_bytes())?;
            let wordy = t
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == ' ')
                .count();
            (wordy * 2 >= t.chars().count()).then_some((t, name))
        }
        Kind::Percent => plausible_text(percent(span).0).map(|t| (t, "percent")),
        Kind::Ascii85 => ascii85(span)
            .and_then(plausible_text)
            .map(|t| (t, "ascii85")),
    }
}

/// A digit run: hex when it is all hex digits (≥ 16 bytes; digests decode to
/// non-text and drop out, never retried as base64), base32 when it is all
/// `A–Z2–7` (falling back to base64), else base64.
fn decode_digits(span: &str) -> Option<(String, &'static str)> {
    let core = span.trim_end_matches('=');
    let digits = core.strip_prefix("0x").unwrap_or(core);
    if digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        let fits = digits.len() >= 32 && core.len() == span.len();
        return hex(digits)
            .filter(|_| fits)
            .and_then(plausible_text)
            .map(|t| (t, "hex"));
    }
    let upper = core
        .bytes()
        .all(|b| matches!(b, b'A'..=b'Z' | b'2'..=b'7') || b.is_ascii_whitespace());
    if upper && let Some(t) = base32(span).and_then(plausible_text) {
        return Some((t, "base32"));
    }
    base64(span).and_then(plausible_text).map(|t| (t, "base64"))
}

/// All candidate spans of `b`; each scanner is one linear pass.
fn candidates(b: &[u8]) -> Vec<Span> {
    let mut out = Vec::new();
    digit_runs(b, &mut out);
    escape_runs(b, &mut out);
    char_code_runs(b, &mut out);
    percent_runs(b, &mut out);
    delimited_runs(b, &mut out);
    out
}

/// Offset of the first `needle` in `b` at or after `from`.
fn find(b: &[u8], from: usize, needle: &[u8; 2]) -> Option<usize> {
    let mut i = from;
    while let Some(at) = b.get(i..)?.iter().position(|&c| c == needle[0]) {
        if b.get(i + at + 1) == Some(&needle[1]) {
            return Some(i + at);
        }
        i += at + 1;
    }
    None
}

/// Whether `b` is a base64 digit of either alphabet.
fn is_b64(b: u8) -> bool {
    B64_TABLE[usize::from(b)] != NOT_DIGIT
}

/// The offset after at most `max` bytes from `i` on that satisfy `f`.
fn skip(b: &[u8], i: usize, max: usize, f: impl Fn(u8) -> bool) -> usize {
    i + b[i..].iter().take(max).take_while(|&&c| f(c)).count()
}

/// Base64/base32/hex runs of ≥ 24 bytes. A run filling a line with ≥ 40
/// digits continues on following lines of the same width, and on the block's
/// shorter last line when that ends cleanly (at the line end or a quote).
fn digit_runs(b: &[u8], out: &mut Vec<Span>) {
    let n = b.len();
    let blank = |c: u8| matches!(c, b' ' | b'\t' | b'\r');
    let mut i = 0;
    while i < n {
        if !is_b64(b[i]) {
            i += 1;
            continue;
        }
        let (start, mut j) = (i, skip(b, i, n, is_b64));
        let (width, mut seg, mut k) = (j - i, j - i, skip(b, j, 2, |c| c == b'='));
        while k == j && seg == width && width >= 40 {
            let e = skip(b, j, n, blank);
            if b.get(e) != Some(&b'\n') {
                break;
            }
            let s = skip(b, e + 1, n, blank);
            if s >= n || !is_b64(b[s]) {
                break;
            }
            let j2 = skip(b, s, n, is_b64);
            let k2 = skip(b, j2, 2, |c| c == b'=');
            let after = skip(b, k2, n, blank);
            let clean = after >= n
                || b[after] == b'\n'
                || (after == k2 && !b[after].is_ascii_alphanumeric());
            if !clean || j2 - s > width {
                break;
            }
            (seg, j, k) = (j2 - s, j2, k2);
        }
        if k - start >= 24 {
            out.push((start, k, Kind::Digits));
        }
        i = k.max(i + 1);
    }
}

/// Backslash-escape runs: from a coded escape to the next quote, backtick or
/// line end, holding at least four coded escapes.
fn escape_runs(b: &[u8], out: &mut Vec<Span>) {
    let mut i = 0;
    while let Some(at) = b[i..].iter().position(|&c| c == b'\\') {
        let (start, mut coded) = (i + at, 0);
        i = start + 1;
        if coded_escape(b, start).is_none() {
            continue;
        }
        i = start;
        while i < b.len() && !matches!(b[i], b'"' | b'\'' | b'`' | b'\n' | b'\r') {
            let escape = coded_escape(b, i).filter(|_| b[i] == b'\\');
            coded += usize::from(escape.is_some());
            i += escape.map_or(if b[i] == b'\\' { 2 } else { 1 }, |e| e.0);
        }
        i = i.min(b.len());
        let end = i - b[start..i]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
        if coded >= 4 {
            out.push((start, end, Kind::Escapes));
        }
    }
}

/// Runs of URL bytes holding at least four `%XX` escapes.
fn percent_runs(b: &[u8], out: &mut Vec<Span>) {
    let mut i = 0;
    while let Some(at) = b[i..].iter().position(|&c| c == b'%') {
        let (start, mut escapes) = (i + at, 0);
        i = start;
        while i < b.len()
            && (b[i].is_ascii_alphanumeric() || b"%-._~!$&()*+,;=:@/?#[]".contains(&b[i]))
        {
            let escape = percent_escape(b, i).is_some();
            escapes += usize::from(escape);
            i += if escape { 3 } else { 1 };
        }
        let end = i - b[start..i]
            .iter()
            .rev()
            .take_while(|c| b".,;:)]".contains(c))
            .count();
        if escapes >= 4 {
            out.push((start, end, Kind::Percent));
        }
    }
}

/// Shell `$'…'` strings (on one line) and Ascii85 `<~…~>` blocks.
fn delimited_runs(b: &[u8], out: &mut Vec<Span>) {
    let mut i = 0;
    while let Some(open) = find(b, i, b"$'") {
        i = open + 2;
        while i < b.len() && b[i] != b'\'' && b[i] != b'\n' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        if b.get(i) == Some(&b'\'') {
            out.push((open, i + 1, Kind::AnsiC));
        }
    }
    let mut i = 0;
    while let Some(open) = find(b, i, b"<~") {
        let Some(close) = find(b, open + 2, b"~>") else {
            break;
        };
        out.push((open, close + 2, Kind::Ascii85));
        i = close + 2;
    }
}

/// Separators allowed between two character codes, whitespace removed and
/// lower-cased, space-separated: commas and the `chr`/`[char]`/`CHAR` concatenations.
const CODE_SEPARATORS: &str = ", )+chr( )+chrw( )&chr( )&chrw( ).chr( )..chr( )||chr( )+char( )||char( )&char( +[char] )+[char]( )+[char]";

/// Whether the bytes between two numbers join them into one code list.
fn code_separator(gap: &[u8]) -> bool {
    let (mut buf, mut len) = ([0u8; 24], 0);
    for &c in gap
        .iter()
        .filter(|c| !c.is_ascii_whitespace())
        .take(buf.len())
    {
        (buf[len], len) = (c.to_ascii_lowercase(), len + 1);
    }
    gap.len() <= buf.len()
        && CODE_SEPARATORS
            .split(' ')
            .any(|s| s.as_bytes() == &buf[..len])
}

/// Lists of ≥ 4 character codes in 9..=126 joined by `code_separator`.
fn char_code_runs(b: &[u8], out: &mut Vec<Span>) {
    let mut list: Option<(usize, usize, usize)> = None; // start, end, count
    let close = |list: Option<(usize, usize, usize)>, out: &mut Vec<Span>| {
        if let Some((start, end, 4..)) = list {
            out.push((start, end, Kind::CharCodes));
        }
    };
    let mut i = 0;
    while i < b.len() {
        let joined = i > 0 && (b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'_' | b'.'));
        if !b[i].is_ascii_digit() || joined {
            i += 1;
            continue;
        }
        let Some((v, len, _)) = number_at(b, i) else {
            i += b[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric())
                .count();
            continue;
        };
        list = match list {
            Some((start, end, count)) if (9..=126).contains(&v) && code_separator(&b[end..i]) => {
                Some((start, i + len, count + 1))
            }
            _ => {
                close(list, out);
                (9..=126).contains(&v).then_some((i, i + len, 1))
            }
        };
        i += len;
    }
    close(list, out);
}

/// Command words, `|`-separated, whose appearance in a reversed string
/// betrays the evasion.
const COMMAND_WORDS: &str =
    "curl|wget|bash|sh -c|powershell|python|eval|exec|base64|nc |/dev/tcp|http://|https://";

/// Whether `s` holds a command word as a word (`evaluate` is not `eval`).
fn has_command_word(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    let h = lower.as_bytes();
    COMMAND_WORDS.split('|').any(|word| {
        let (first, last) = (word.as_bytes()[0], word.as_bytes()[word.len() - 1]);
        lower.match_indices(word).any(|(i, _)| {
            let before =
                !first.is_ascii_alphanumeric() || i == 0 || !h[i - 1].is_ascii_alphanumeric();
            before
                && (!last.is_ascii_alphanumeric()
                    || h.get(i + word.len())
                        .is_none_or(|c| !c.is_ascii_alphabetic()))
        })
    })
}

/// The reversal of `s` when it names a shell or interpreter command word
/// (curl, wget, bash, `sh -c`, powershell, python, eval, exec, base64, nc,
/// `/dev/tcp`, `http://`, `https://`) and `s` itself does not.
pub(crate) fn reversed_if_command(s: &str) -> Option<String> {
    let reversed: String = s.chars().rev().collect();
    (has_command_word(&reversed) && !has_command_word(s)).then_some(reversed)
}
