//! De-obfuscation for the screener: fold look-alike text to ASCII and decode
//! encoded payloads (base64, hex, escapes, char codes, …) so the rules judge
//! what a skill would run rather than how it is spelled. All work is bounded.

use std::borrow::Cow;
use std::cmp::Reverse;

use icu_normalizer::ComposingNormalizerBorrowed;

/// Largest decoded payload kept, in bytes.
const MAX_DECODED: usize = 64 * 1024;
/// Most payloads one `payloads` call returns, nested ones included.
const MAX_PAYLOADS: usize = 64;
/// Only this many bytes of the input are scanned.
const MAX_INPUT: usize = 4 * 1024 * 1024;
/// Most encoding layers followed (`base64>hex>…`).
const MAX_DEPTH: usize = 4;
/// Characters of the encoded form kept for citing.
const CITE_CHARS: usize = 200;
/// NFKC from the baked data.
const NFKC: ComposingNormalizerBorrowed<'static> = ComposingNormalizerBorrowed::new_nfkc();

/// Look-alikes of ASCII letters (Latin-extended/IPA, Greek, Cyrillic,
/// Armenian, small capitals), sorted; `CONFUSABLE_TO` holds, at the same
/// index, the letter each one imitates.
const CONFUSABLE_FROM: [char; 76] = [
    '\u{131}', '\u{237}', '\u{251}', '\u{261}', '\u{269}', '\u{391}', '\u{392}', '\u{395}',
    '\u{396}', '\u{397}', '\u{399}', '\u{39A}', '\u{39C}', '\u{39D}', '\u{39F}', '\u{3A1}',
    '\u{3A4}', '\u{3A5}', '\u{3A7}', '\u{3B1}', '\u{3B9}', '\u{3BA}', '\u{3BD}', '\u{3BF}',
    '\u{3C1}', '\u{3C5}', '\u{3C7}', '\u{3F2}', '\u{3F3}', '\u{405}', '\u{406}', '\u{408}',
    '\u{410}', '\u{412}', '\u{415}', '\u{41A}', '\u{41C}', '\u{41D}', '\u{41E}', '\u{420}',
    '\u{421}', '\u{422}', '\u{423}', '\u{425}', '\u{430}', '\u{435}', '\u{43E}', '\u{440}',
    '\u{441}', '\u{443}', '\u{445}', '\u{455}', '\u{456}', '\u{458}', '\u{4AE}', '\u{4AF}',
    '\u{4BB}', '\u{4C0}', '\u{4CF}', '\u{501}', '\u{51A}', '\u{51B}', '\u{51C}', '\u{51D}',
    '\u{570}', '\u{578}', '\u{57D}', '\u{584}', '\u{585}', '\u{1D04}', '\u{1D0F}', '\u{1D1C}',
    '\u{1D20}', '\u{1D21}', '\u{1D22}', '\u{A731}',
];
/// The ASCII letters `CONFUSABLE_FROM` imitates, index for index.
const CONFUSABLE_TO: &str =
    "ijagiABEZHIKMNOPTYXaikvopuxcjSIJABEKMHOPCTYXaeopcyxsijYyhIldQqWwhnufocouvwzs";

/// Invisible formatting that can split a word without showing, as inclusive
/// code-point ranges (first, last, first, last, …): NUL, soft hyphen, CGJ, Hangul fillers, Mongolian vowel
/// separator, zero-width and bidi marks, invisible operators, bidi controls,
/// variation selectors, BOM, Unicode tags.
const INVISIBLE: [u32; 32] = [
    0, 0, 0xAD, 0xAD, 0x34F, 0x34F, 0x61C, 0x61C, 0x115F, 0x1160, 0x180E, 0x180E, 0x200B, 0x200F,
    0x202A, 0x202E, 0x2060, 0x2064, 0x2066, 0x2069, 0x3164, 0x3164, 0xFE00, 0xFE0F, 0xFEFF, 0xFEFF,
    0xFFA0, 0xFFA0, 0xE0000, 0xE007F, 0xE0100, 0xE01EF,
];
/// Combining-mark blocks, as inclusive ranges, that count as word characters.
const MARKS: [u32; 10] = [
    0x300, 0x36F, 0x483, 0x489, 0x1AB0, 0x1AFF, 0x1DC0, 0x1DFF, 0x20D0, 0x20FF,
];

/// The ASCII letter `c` imitates, if it is a known look-alike.
fn confusable(c: char) -> Option<char> {
    let i = CONFUSABLE_FROM.binary_search(&c).ok()?;
    Some(char::from(CONFUSABLE_TO.as_bytes()[i]))
}

/// Whether `c` falls in one of the inclusive `ranges` (first, last, …).
fn in_ranges(c: char, ranges: &[u32]) -> bool {
    ranges
        .chunks(2)
        .any(|r| (r[0]..=r[1]).contains(&u32::from(c)))
}

/// Whether `c` is invisible formatting (see `INVISIBLE`).
fn is_invisible(c: char) -> bool {
    in_ranges(c, &INVISIBLE)
}

/// Whether `c` belongs to a word: letters, digits, `_`, combining marks.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || in_ranges(c, &MARKS)
}

/// `s` with look-alikes folded to ASCII: invisible characters removed, NFKC
/// (fullwidth, mathematical alphanumerics, ligatures), then Cyrillic, Greek,
/// Armenian and Latin-extended homoglyphs folded in words that also hold ASCII
/// letters, or anywhere on a line whose only non-ASCII letters are homoglyphs.
/// Lines with genuine non-Latin words (a Russian sentence) keep them. ZWNJ is
/// removed too, even inside Persian words: the output is only for analysis.
/// Borrowed when nothing changes; pure ASCII without NUL costs one scan.
pub(crate) fn normalize(s: &str) -> Cow<'_, str> {
    if s.bytes().all(|b| b != 0 && b < 0x80) {
        return Cow::Borrowed(s);
    }
    if s.is_ascii() {
        return Cow::Owned(s.replace('\0', ""));
    }
    let visible: Cow<'_, str> = if s.chars().any(is_invisible) {
        Cow::Owned(s.chars().filter(|&c| !is_invisible(c)).collect())
    } else {
        Cow::Borrowed(s)
    };
    let nfkc = NFKC.normalize(&visible);
    match fold_confusables(&nfkc) {
        // Folding can put ASCII before a combining mark; compose once more.
        Some(folded) => Cow::Owned(NFKC.normalize(&folded).into_owned()),
        None if matches!((&visible, &nfkc), (Cow::Borrowed(_), Cow::Borrowed(_))) => {
            Cow::Borrowed(s)
        }
        None => Cow::Owned(nfkc.into_owned()),
    }
}

/// `s` with homoglyphs folded where `normalize` says; `None` if none were.
fn fold_confusables(s: &str) -> Option<String> {
    if !s.chars().any(|c| confusable(c).is_some()) {
        return None;
    }
    let (mut out, mut changed) = (String::with_capacity(s.len()), false);
    for line in s.split_inclusive('\n') {
        let latin_line = !line
            .chars()
            .any(|c| !c.is_ascii() && c.is_alphabetic() && confusable(c).is_none());
        let mut rest = line;
        while let Some(first) = rest.chars().next() {
            let end = rest
                .find(|c| !is_word_char(c))
                .unwrap_or(rest.len())
                .max(first.len_utf8());
            let (word, tail) = rest.split_at(end);
            if is_word_char(first) && (latin_line || word.bytes().any(|b| b.is_ascii_alphabetic()))
            {
                for c in word.chars() {
                    let folded = confusable(c);
                    changed |= folded.is_some();
                    out.push(folded.unwrap_or(c));
                }
            } else {
                out.push_str(word);
            }
            rest = tail;
        }
    }
    changed.then_some(out)
}

/// `s` cut to at most `max` bytes, at a character boundary.
fn cut(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `bytes` as text when they plausibly are: UTF-8 (a sequence cut off at the
/// end is dropped) or Latin-1 that is ≥ 70 % printable ASCII; then at least 4
/// characters, ≥ 85 % printable. Cut to `MAX_DECODED` bytes.
fn plausible_text(bytes: Vec<u8>) -> Option<String> {
    let mut text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) if e.utf8_error().error_len().is_none() => {
            let valid = e.utf8_error().valid_up_to();
            String::from_utf8(e.into_bytes()[..valid].to_vec()).ok()?
        }
        Err(e) => {
            let bytes = e.into_bytes();
            let ascii = bytes
                .iter()
                .filter(|&&b| matches!(b, 0x20..=0x7e | b'\t' | b'\n' | b'\r'))
                .count();
            if ascii * 10 < bytes.len() * 7 {
                return None;
            }
            bytes.iter().map(|&b| char::from(b)).collect()
        }
    };
    text.truncate(cut(&text, MAX_DECODED).len());
    let (mut total, mut printable) = (0usize, 0usize);
    for c in text.chars() {
        total += 1;
        printable += usize::from(!c.is_control() || matches!(c, '\t' | '\n' | '\r'));
    }
    (total >= 4 && printable * 100 >= total * 85).then_some(text)
}

/// Marks a byte outside the alphabet in a digit table.
const NOT_DIGIT: u8 = 0xFF;

/// A byte-to-digit-value table for `alphabet`.
const fn digit_table(alphabet: &[u8]) -> [u8; 256] {
    let (mut table, mut i) = ([NOT_DIGIT; 256], 0);
    while i < alphabet.len() {
        table[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    table
}

/// Hex digits, either case.
const HEX_TABLE: [u8; 256] = {
    let mut table = digit_table(b"0123456789abcdef");
    let mut i = 0;
    while i < 6 {
        table[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    table
};
/// Base64 digits, standard and URL-safe alphabets together.
const B64_TABLE: [u8; 256] = {
    let mut table =
        digit_table(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
    (table[b'-' as usize], table[b'_' as usize]) = (62, 63);
    table
};
/// Base32 digits (RFC 4648, upper case: lower-case words decode to printable
/// noise too often).
const B32_TABLE: [u8; 256] = digit_table(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567");
/// RFC 1924 base85 digits (Python's `base64.b85encode`).
const B85_TABLE: [u8; 256] = digit_table(
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~",
);

/// The value of hex digit `b`.
fn hex_val(b: u8) -> Option<u8> {
    Some(HEX_TABLE[usize::from(b)]).filter(|&v| v != NOT_DIGIT)
}

/// Decodes radix-2^`bits` text (hex, base64, base32): whitespace ignored, `=`
/// padding only at the end, a dangling partial digit group refused.
fn decode_radix(s: &str, bits: u32, table: &[u8; 256]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity((s.len() * bits as usize / 8 + 1).min(MAX_DECODED));
    let (mut acc, mut have, mut digits, mut pad) = (0u32, 0u32, 0usize, 0usize);
    for &b in s.as_bytes() {
        let v = table[usize::from(b)];
        if v == NOT_DIGIT {
            match b {
                b'=' if bits != 4 => pad += 1,
                _ if b.is_ascii_whitespace() => {}
                _ => return None,
            }
            continue;
        }
        if pad > 0 {
            return None;
        }
        acc = (acc << bits | u32::from(v)) & 0xFFFF;
        have += bits;
        digits += 1;
        if have >= 8 {
            have -= 8;
            out.push((acc >> have) as u8);
            if out.len() >= MAX_DECODED {
                return Some(out);
            }
        }
    }
    let ok = match bits {
        4 => digits % 2 == 0,
        5 => matches!(digits % 8, 0 | 2 | 4 | 5 | 7) && pad < 7,
        _ => digits % 4 != 1 && pad < 3,
    };
    (ok && !out.is_empty()).then_some(out)
}

/// Plain hex, `0x`-prefixed or not, whitespace ignored.
fn hex(s: &str) -> Option<Vec<u8>> {
    decode_radix(
        s.strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .unwrap_or(s),
        4,
        &HEX_TABLE,
    )
}

/// Base64, standard or URL-safe, padded or not, whitespace ignored.
pub(crate) fn base64(s: &str) -> Option<Vec<u8>> {
    decode_radix(s, 6, &B64_TABLE)
}

/// Base32 (RFC 4648), padded or not, whitespace ignored.
fn base32(s: &str) -> Option<Vec<u8>> {
    decode_radix(s, 5, &B32_TABLE)
}

/// Big-endian base-85 groups of five digit values to bytes; a short last group
/// is padded with the top digit and trimmed, as Ascii85 and RFC 1924 both do.
fn base85_values(vals: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(vals.len() * 4 / 5 + 4);
    for group in vals.chunks(5).take(MAX_DECODED / 4) {
        let n = (0..5).fold(0u64, |n, i| {
            n * 85 + u64::from(*group.get(i).unwrap_or(&84))
        });
        let bytes = u32::try_from(n).ok()?.to_be_bytes();
        out.extend_from_slice(bytes.get(..group.len() - 1).filter(|b| !b.is_empty())?);
    }
    Some(out)
}

/// Ascii85 between `<~` and `~>` (Adobe), `z` for four zero bytes.
fn ascii85(s: &str) -> Option<Vec<u8>> {
    let inner = s.strip_prefix("<~")?.strip_suffix("~>")?;
    let mut vals = Vec::with_capacity(inner.len());
    for b in inner.bytes().filter(|b| !b.is_ascii_whitespace()) {
        match b {
            b'z' if vals.len() % 5 == 0 => vals.extend_from_slice(&[0; 5]),
            b'!'..=b'u' => vals.push(b - b'!'),
            _ => return None,
        }
    }
    base85_values(&vals)
}

/// RFC 1924 base85: at least 10 digits, one of them not alphanumeric, so plain
/// words are not taken for it.
fn base85(s: &str) -> Option<Vec<u8>> {
    if s.len() < 10 || s.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let vals: Option<Vec<u8>> = s
        .bytes()
        .map(|b| Some(B85_TABLE[usize::from(b)]).filter(|&v| v != NOT_DIGIT))
        .collect();
    base85_values(&vals?)
}

/// Names of the coded escape kinds, indexed as `coded_escape` reports them.
const ESCAPE_NAMES: [&str; 3] = ["hex", "octal", "unicode-escape"];

/// Up to `max` digits of radix `radix` at `b[i..]`: value and count.
fn digits(b: &[u8], i: usize, radix: u32, max: usize) -> (u32, usize) {
    let digits = b
        .iter()
        .skip(i)
        .take(max)
        .map_while(|&c| char::from(c).to_digit(radix));
    digits.fold((0, 0), |(v, n), d| (v * radix + d, n + 1))
}

/// The coded escape at the backslash `b[i]`: its length, kind (0 `\xNN`,
/// 1 `\NNN` octal, 2 `\uNNNN`/`\u{…}`/`\UNNNNNNNN`) and value.
fn coded_escape(b: &[u8], i: usize) -> Option<(usize, usize, u32)> {
    match (*b.get(i + 1)?, b.get(i + 2)) {
        (b'x', _) => Some(digits(b, i + 2, 16, 2))
            .filter(|d| d.1 > 0)
            .map(|(v, n)| (2 + n, 0, v)),
        (b'0'..=b'7', _) => Some(digits(b, i + 1, 8, 3))
            .filter(|d| d.0 <= 255)
            .map(|(v, n)| (1 + n, 1, v)),
        (b'u', Some(b'{')) => match digits(b, i + 3, 16, 6) {
            (v, n) if n > 0 && b.get(i + 3 + n) == Some(&b'}') => Some((4 + n, 2, v)),
            _ => None,
        },
        (b'u', _) => Some(digits(b, i + 2, 16, 4))
            .filter(|d| d.1 == 4)
            .map(|(v, _)| (6, 2, v)),
        (b'U', _) => Some(digits(b, i + 2, 16, 8))
            .filter(|d| d.1 == 8)
            .map(|(v, _)| (10, 2, v)),
        _ => None,
    }
}

/// One-letter escapes and the bytes they stand for, in pairs.
const SIMPLE_ESCAPES: &[u8] = b"n\nt\tr\ra\x07b\x08v\x0bf\x0ce\x1b\\\\\"\"''";

/// C/shell/JS/Python string escapes resolved to bytes; other bytes are copied.
/// Also returns how many escapes of each `coded_escape` kind there were, and
/// (last) how many bytes were copied.
fn unescape(s: &str) -> (Vec<u8>, [usize; 4]) {
    let (b, mut out, mut count, mut i) = (s.as_bytes(), Vec::new(), [0usize; 4], 0);
    while i < b.len() && out.len() < MAX_DECODED {
        let backslash = b[i] == b'\\';
        if backslash && let Some((len, kind, mut v)) = coded_escape(b, i) {
            (i, count[kind]) = (i + len, count[kind] + 1);
            if kind < 2 {
                out.push(v as u8);
                continue;
            }
            // A UTF-16 surrogate pair written as two `\u` escapes.
            if (0xD800..0xDC00).contains(&v)
                && b.get(i) == Some(&b'\\')
                && let Some((len, 2, low @ 0xDC00..0xE000)) = coded_escape(b, i)
            {
                v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00);
                i += len;
                count[2] += 1;
            }
            out.extend_from_slice(
                char::from_u32(v)
                    .unwrap_or('\u{FFFD}')
                    .encode_utf8(&mut [0; 4])
                    .as_bytes(),
            );
        } else if backslash
            && let Some(pair) = SIMPLE_ESCAPES
                .chunks(2)
                .find(|p| b.get(i + 1) == Some(&p[0]))
        {
            out.push(pair[1]);
            i += 2;
        } else {
            out.push(b[i]);
            (i, count[3]) = (i + 1, count[3] + 1);
        }
    }
    (out, count)
}

/// The encoding name for escape counts from `unescape`.
fn escape_name(count: &[usize; 4]) -> &'static str {
    match count[..3].iter().filter(|&&n| n > 0).count() {
        1 => ESCAPE_NAMES[count.iter().position(|&n| n > 0).unwrap_or(0)],
        _ => "escapes",
    }
}

/// The byte of the `%XX` escape at `b[i]`, if there is one.
fn percent_escape(b: &[u8], i: usize) -> Option<u8> {
    if b[i] != b'%' {
        return None;
    }
    Some(hex_val(*b.get(i + 1)?)? << 4 | hex_val(*b.get(i + 2)?)?)
}

/// Percent-decoding; other bytes are copied. Also returns the escape count.
fn percent(s: &str) -> (Vec<u8>, usize) {
    let (b, mut out, mut escapes, mut i) = (s.as_bytes(), Vec::new(), 0, 0);
    while i < b.len() && out.len() < MAX_DECODED {
        let v = percent_escape(b, i);
        out.push(v.unwrap_or(b[i]));
        escapes += usize::from(v.is_some());
        i += if v.is_some() { 3 } else { 1 };
    }
    (out, escapes)
}

/// A decimal or `0x` number at the digit `b[i]`: value, length, whether hex;
/// `None` when letters or digits run on past it.
fn number_at(b: &[u8], i: usize) -> Option<(u32, usize, bool)> {
    let hex = b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X'));
    let (v, n) = if hex {
        digits(b, i + 2, 16, 6)
    } else {
        digits(b, i, 10, 7)
    };
    let len = n + if hex { 2 } else { 0 };
    (n > 0 && !b.get(i + len).is_some_and(u8::is_ascii_alphanumeric)).then_some((v, len, hex))
}

/// Words a char-code list may be wrapped in, lower case, space-separated.
const CODE_WORDS: &str = "string.fromcharcode fromcharcode string.char chr chrw char";

/// A list of character codes (`99,117,…`, `[0x63, …]`, `String.fromCharCode(…)`,
/// `chr(99)+chr(117)…`, `[char]99+[char]117`, `Chr(99)&Chr(117)`, `CHAR(99)+…`)
/// to text: at least four codes and nothing but codes, `CODE_WORDS` and
/// punctuation. Named "hex" when every code is `0x`.
fn char_codes(s: &str) -> Option<(String, &'static str)> {
    let (b, mut out, mut count, mut hex, mut i) = (s.as_bytes(), String::new(), 0, 0, 0);
    while i < b.len() && out.len() < MAX_DECODED {
        if b[i].is_ascii_digit() {
            let (v, len, is_hex) = number_at(b, i)?;
            out.push(char::from_u32(v).filter(|&c| c != '\0')?);
            (count, hex, i) = (count + 1, hex + usize::from(is_hex), i + len);
        } else if b[i].is_ascii_alphabetic() {
            let len = b[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic() || **c == b'.')
                .count();
            let word = s[i..i + len].trim_end_matches('.');
            if !CODE_WORDS.split(' ').any(|w| w.eq_ignore_ascii_case(word)) {
                return None;
            }
            i += len;
        } else if b[i].is_ascii_whitespace() || b",()[]{}+&.|;".contains(&b[i]) {
            i += 1;
        } else {
            return None;
        }
    }
    (count >= 4).then_some((out, if hex == count { "hex" } else { "charcode" }))
}

/// A decoder from text to bytes, and its encoding's name.
type BlobDecoder = (fn(&str) -> Option<Vec<u8>>, &'static str);

/// The radix decoders `decode_blob` tries after hex, in order.
const BLOB_DECODERS: [BlobDecoder; 4] = [
    (base64, "base64"),
    (base32, "base32"),
    (ascii85, "ascii85"),
    (base85, "base85"),
];

/// One encoded blob decoded to text, with the encoding's name. Tries hex
/// (plain, then `0x63,0x75` lists), base64, base32, base85 (Ascii85 `<~…~>`,
/// else RFC 1924), escapes (`\x63`, `\143`, `\u0063`, `\u{63}`: "hex",
/// "octal", "unicode-escape", or "escapes" when mixed), percent-encoding, then
/// char-code lists; returns the first result that is plausibly text (valid
/// UTF-8 or mostly-ASCII Latin-1, ≥ 4 characters, ≥ 85 % printable). Neither
/// reversal nor decompression is tried.
pub(crate) fn decode_blob(s: &str) -> Option<(String, &'static str)> {
    let s = s.trim();
    if s.len() < 4 {
        return None;
    }
    if let Some(t) = hex(s).and_then(plausible_text) {
        return Some((t, "hex"));
    }
    if s.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("0x"))
        && let Some((t, "hex")) = char_codes(s)
    {
        return plausible_text(t.into_bytes()).map(|t| (t, "hex"));
    }
    for (decode, name) in BLOB_DECODERS {
        if let Some(t) = decode(s).and_then(plausible_text) {
            return Some((t, name));
        }
    }
    if s.contains('\\') {
        let (bytes, count) = unescape(s);
        if count[3] == 0 && count[0] + count[1] + count[2] >= 2 {
            return plausible_text(bytes).map(|t| (t, escape_name(&count)));
        }
    }
    if s.contains('%')
        && !s.contains(char::is_whitespace)
        && let (bytes, 2..) = percent(s)
    {
        return plausible_text(bytes).map(|t| (t, "percent"));
    }
    let (t, name) = char_codes(s)?;
    plausible_text(t.into_bytes()).map(|t| (t, name))
}

/// One payload found in free text.
mod payloads;
#[cfg(test)]
pub(crate) use payloads::Payload;
pub(crate) use payloads::{payloads, reversed_if_command};

#[cfg(test)]
mod tests;
