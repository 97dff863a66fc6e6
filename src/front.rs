//! Front matter: the `---` block at the top of a markdown file (a note, a
//! persona, a SKILL.md). One place splits a document into its front matter
//! and its body, bounds the front matter before anything parses it, reads
//! and writes the small YAML subset notes and personas use (scalars, flow
//! lists, `key: value` lines), and writes the document back.
//!
//! The bound comes first because the YAML parser under `serde_norway`
//! (libyaml) takes time that grows with the square of the flow nesting: a
//! 40 KB `[[[[…` takes seconds. [`Split::bound`] refuses a front matter
//! nested deeper than [`MAX_DEPTH`] or larger than [`MAX_BYTES`] in one
//! linear pass over its characters, without parsing it.

use crate::error::Error;
use serde_json::Value;

/// The deepest nesting of sequences and mappings (block and flow together)
/// a front matter may have. Notes nest two levels, personas one, the Agent
/// Skills specification two; 64 leaves room for any honest use.
pub const MAX_DEPTH: usize = 64;

/// The largest front matter, in bytes: the default cap on one stored item
/// (`limits.max_item_bytes`), which a whole note or persona already fits in.
pub const MAX_BYTES: usize = crate::config::DEFAULT_MAX_ITEM_BYTES as usize;

/// The message of a front matter opened by `---` and never closed.
pub const UNCLOSED: &str = "the front matter is not closed by a '---' line";

/// What counts as a `---` fence line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fences {
    /// `---` with trailing spaces allowed, after one optional byte-order
    /// mark at the start of the file: what notes, personas, SKILL.md and
    /// the sync merge read.
    Strict,
    /// `---` with spaces allowed on both sides, after one optional
    /// byte-order mark too: what the skill screener reads (it looks at
    /// SKILL.md the way an agent's loader might, leniently). Every front
    /// matter the strict readers take, it takes: a mark that hid the front
    /// matter from the screener only would hide `allowed-tools` from it.
    Loose,
}

impl Fences {
    fn is_fence(self, line: &str) -> bool {
        match self {
            Fences::Strict => line.trim_end() == "---",
            Fences::Loose => line.trim() == "---",
        }
    }
}

/// A document cut at its front matter. Every part is a slice of the text:
/// `open`, `front`, `close` and `body` put end to end give it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split<'a> {
    /// The opening `---` line with its line break (and the byte-order mark
    /// before it, if any).
    pub open: &'a str,
    /// The lines between the fences, each with its line break.
    pub front: &'a str,
    /// The closing `---` line with its line break; `None` when no line
    /// closes the front matter (then `front` runs to the end).
    pub close: Option<&'a str>,
    /// Everything after the closing line.
    pub body: &'a str,
    /// The closing line's 1-based number (one past the last line when the
    /// front matter is not closed).
    pub close_line: usize,
}

/// Cuts `text` at its front matter; `None` when its first line is not a
/// `---` fence.
pub fn split(text: &str, fences: Fences) -> Option<Split<'_>> {
    let mut lines = text.split_inclusive('\n');
    let open = lines.next()?;
    let first = open.strip_prefix('\u{feff}').unwrap_or(open);
    if !fences.is_fence(first) {
        return None;
    }
    let mut at = open.len();
    let mut line = 2;
    for piece in lines {
        if fences.is_fence(piece) {
            return Some(Split {
                open,
                front: &text[open.len()..at],
                close: Some(piece),
                body: &text[at + piece.len()..],
                close_line: line,
            });
        }
        at += piece.len();
        line += 1;
    }
    Some(Split {
        open,
        front: &text[open.len()..],
        close: None,
        body: "",
        close_line: line,
    })
}

/// Cuts `text` (a note, a persona, a SKILL.md: strict fences) at its front
/// matter and bounds it: `Ok(None)` without front matter, an error when it
/// is not closed or is out of bounds.
pub fn document(text: &str) -> Result<Option<Split<'_>>, ParseError> {
    let Some(split) = split(text, Fences::Strict) else {
        return Ok(None);
    };
    if split.close.is_none() {
        return Err(ParseError::new(1, UNCLOSED));
    }
    split.bound()?;
    Ok(Some(split))
}

impl<'a> Split<'a> {
    /// The front matter's lines with their 1-based numbers (the first is
    /// line 2), without their line break (`\n`, and one `\r` before it).
    pub fn lines(&self) -> impl Iterator<Item = (usize, &'a str)> + use<'a> {
        (2..).zip(self.front.split_inclusive('\n').map(|piece| {
            let line = piece.strip_suffix('\n').unwrap_or(piece);
            line.strip_suffix('\r').unwrap_or(line)
        }))
    }

    /// The body with each line's break made `\n` (one `\r` before a `\n`
    /// dropped), as a reader that splits lines sees it.
    pub fn body_text(&self) -> String {
        self.body
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// `Err` when the front matter is larger than [`MAX_BYTES`] or nests
    /// deeper than [`MAX_DEPTH`]: one pass over its characters, before any
    /// parser reads it.
    pub fn bound(&self) -> Result<(), Refusal> {
        let mut size = 0usize;
        let mut depth = Depth::default();
        for ((n, line), piece) in self.lines().zip(self.front.split_inclusive('\n')) {
            size += piece.len();
            if size > MAX_BYTES {
                return Err(Refusal::TooLarge { line: n });
            }
            depth
                .line(line)
                .map_err(|()| Refusal::TooDeep { line: n })?;
        }
        Ok(())
    }
}

/// Why a front matter is refused before it is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Nested deeper than [`MAX_DEPTH`] at this 1-based line of the file.
    TooDeep { line: usize },
    /// Larger than [`MAX_BYTES`], passed at this 1-based line of the file.
    TooLarge { line: usize },
}

impl Refusal {
    /// The line the refusal names.
    pub fn line(self) -> usize {
        match self {
            Refusal::TooDeep { line } | Refusal::TooLarge { line } => line,
        }
    }

    /// What is wrong, in a sentence.
    pub fn message(self) -> String {
        match self {
            Refusal::TooDeep { .. } => format!(
                "the front matter nests sequences and mappings more than {MAX_DEPTH} levels deep"
            ),
            Refusal::TooLarge { .. } => {
                format!("the front matter is larger than {MAX_BYTES} bytes")
            }
        }
    }
}

impl From<Refusal> for ParseError {
    fn from(refusal: Refusal) -> ParseError {
        ParseError::new(refusal.line(), refusal.message())
    }
}

/// The nesting of a front matter, read line by line without parsing it.
/// It over-counts rather than under-counts for what a real file holds: a
/// block level per indentation step and per `- `, `? ` or `: ` indicator,
/// a flow level per `[` or `{` outside quotes in a value that starts a flow
/// collection. A line at column 0 that does not continue a flow collection
/// starts afresh, so one entry's depth does not depend on the entries
/// around it.
#[derive(Default)]
struct Depth {
    /// Indentation of the open block levels.
    indents: Vec<usize>,
    /// Block levels of the entry a flow collection is in.
    block: usize,
    /// Open flow collections.
    flow: usize,
    /// The quote character of an open quoted scalar.
    quote: Option<char>,
    /// A `\` was just read in a double-quoted scalar.
    escaped: bool,
    /// The last character read that is not white space.
    prev: char,
    /// The indentation of the line that opened a `|` or `>` block scalar.
    literal: Option<usize>,
}

impl Depth {
    fn line(&mut self, line: &str) -> Result<(), ()> {
        let rest = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - rest.len();
        if let Some(at) = self.literal {
            if rest.trim().is_empty() || indent > at {
                return Ok(());
            }
            self.literal = None;
        }
        if rest.trim().is_empty() {
            return Ok(());
        }
        if indent == 0 && !rest.starts_with(['[', ']', '{', '}', ',']) {
            *self = Depth::default();
        }
        if self.flow > 0 || self.quote.is_some() {
            return self.scan(rest);
        }
        if rest.starts_with('#') {
            return Ok(());
        }
        while self.indents.last().is_some_and(|&i| i > indent) {
            self.indents.pop();
        }
        if self.indents.last() != Some(&indent) {
            self.indents.push(indent);
        }
        let mut depth = self.indents.len();
        let mut rest = rest;
        while let Some(after) = rest.strip_prefix(['-', '?', ':'])
            && (after.is_empty() || after.starts_with([' ', '\t']))
        {
            depth += 1;
            rest = after.trim_start_matches([' ', '\t']);
        }
        if depth > MAX_DEPTH {
            return Err(());
        }
        self.block = depth;
        self.value(value_of(rest), indent)
    }

    /// Reads a value: a flow collection or a quoted scalar is scanned (it
    /// may go on over the next lines), `|` or `>` opens a block scalar.
    fn value(&mut self, value: &str, indent: usize) -> Result<(), ()> {
        let mut value = value;
        // anchors (`&a`) and tags (`!t`) before the value
        while value.starts_with(['&', '!']) {
            value = value
                .split_once([' ', '\t'])
                .map_or("", |(_, v)| v.trim_start_matches([' ', '\t']));
        }
        if value.starts_with(['|', '>']) {
            self.literal = Some(indent);
            return Ok(());
        }
        if value.starts_with(['[', '{', '"', '\'']) {
            self.prev = ':';
            return self.scan(value);
        }
        Ok(())
    }

    /// Scans characters inside a flow collection or a quoted scalar, until
    /// the line ends or the value does.
    fn scan(&mut self, text: &str) -> Result<(), ()> {
        let mut last = ' ';
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match self.quote {
                Some('"') => {
                    if self.escaped {
                        self.escaped = false;
                    } else if c == '\\' {
                        self.escaped = true;
                    } else if c == '"' {
                        self.quote = None;
                    }
                }
                Some(_) => {
                    if c == '\'' {
                        if chars.peek() == Some(&'\'') {
                            chars.next();
                        } else {
                            self.quote = None;
                        }
                    }
                }
                None => match c {
                    '[' | '{' => {
                        self.flow += 1;
                        if self.block + self.flow > MAX_DEPTH {
                            return Err(());
                        }
                    }
                    ']' | '}' => self.flow = self.flow.saturating_sub(1),
                    '"' | '\'' if matches!(self.prev, '[' | '{' | ',' | ':' | '?') => {
                        self.quote = Some(c);
                    }
                    '#' if last.is_whitespace() => return Ok(()),
                    _ => {}
                },
            }
            if self.flow == 0 && self.quote.is_none() {
                // the value has ended: the rest of the line is a comment
                return Ok(());
            }
            if !c.is_whitespace() {
                self.prev = c;
            }
            last = c;
        }
        Ok(())
    }
}

/// Where the value of a block line starts: after `key:` and a space when
/// the line is a `key: value` entry (the key plain or quoted), the line
/// itself when it is a flow collection or a quoted scalar, else nothing
/// (a plain scalar holds no nesting).
fn value_of(rest: &str) -> &str {
    let key_len = match rest.chars().next() {
        Some('[' | '{') => return rest,
        Some(q @ ('"' | '\'')) => match rest[1..].find(q) {
            Some(i) => i + 2,
            None => return rest,
        },
        _ => 0,
    };
    let tail = &rest[key_len..];
    let colon = tail
        .char_indices()
        .find(|&(i, c)| c == ':' && tail[i + 1..].chars().next().is_none_or(char::is_whitespace))
        .map(|(i, _)| i);
    match colon {
        // a plain key, or a quoted one directly followed by its colon
        Some(i) if key_len == 0 || tail[..i].trim().is_empty() => {
            tail[i + 1..].trim_start_matches([' ', '\t'])
        }
        // a quoted scalar that is the whole value
        _ if key_len > 0 => rest,
        _ => "",
    }
}

/// A parse failure: the 1-based line and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The 1-based line of the file.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl ParseError {
    /// A failure at the 1-based `line`.
    pub(crate) fn new(line: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            message: message.into(),
        }
    }

    /// The `invalid_args` error for the hand-edited file at `path`, naming
    /// the line; `hint` says how to repair it.
    pub(crate) fn into_error_with(self, path: &str, hint: &str) -> Error {
        Error::invalid_args(format!("{path}:{}: {}", self.line, self.message))
            .with_hint(hint)
            .with_detail("path", path)
            .with_detail("line", self.line)
    }
}

/// `text` (its first 80 characters) as a JSON string, for messages.
pub fn quote(text: &str) -> String {
    let short: String = text.chars().take(80).collect();
    Value::from(short).to_string()
}

/// Whether `key` is a plain front-matter key: an ASCII letter or `_`, then
/// letters, digits, `_` or `-`.
pub fn is_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A `key: value` line (trimmed) cut at its first colon: the key without
/// trailing spaces, and what follows the colon as written.
pub fn pair(line: &str, n: usize) -> Result<(&str, &str), ParseError> {
    let Some((key, value)) = line.split_once(':') else {
        return Err(ParseError::new(
            n,
            format!("expected `key: value`, found {}", quote(line)),
        ));
    };
    Ok((key.trim_end(), value))
}

/// The value after `key:` trimmed; a value not set off by a space
/// (`key:value`) is an error.
pub fn spaced<'v>(key: &str, value: &'v str, n: usize) -> Result<&'v str, ParseError> {
    if !value.is_empty() && !value.starts_with(' ') {
        return Err(ParseError::new(
            n,
            format!("put a space after the colon of `{key}:`"),
        ));
    }
    Ok(value.trim())
}

/// A scalar value: plain, `"double quoted"` (JSON escapes) or `'single quoted'`
/// (`''` is a quote).
pub fn parse_scalar(raw: &str, n: usize) -> Result<String, ParseError> {
    let raw = raw.trim();
    if raw.starts_with('"') {
        return serde_json::from_str::<String>(raw)
            .map_err(|_| ParseError::new(n, format!("a badly quoted string: {}", quote(raw))));
    }
    if let Some(rest) = raw.strip_prefix('\'') {
        let Some(inner) = rest.strip_suffix('\'') else {
            return Err(ParseError::new(
                n,
                format!("an unclosed 'quote': {}", quote(raw)),
            ));
        };
        if inner.replace("''", "").contains('\'') {
            return Err(ParseError::new(
                n,
                format!(
                    "a lone ' inside a 'quoted' string (write it as ''): {}",
                    quote(raw)
                ),
            ));
        }
        return Ok(inner.replace("''", "'"));
    }
    Ok(raw.to_string())
}

/// A flow list `[a, "b, c", 'd']`; a bare scalar is a list of one.
pub fn parse_flow(raw: &str, n: usize) -> Result<Vec<String>, ParseError> {
    let Some(inner) = raw.strip_prefix('[') else {
        return Ok(vec![parse_scalar(raw, n)?]);
    };
    let Some(inner) = inner.strip_suffix(']') else {
        return Err(ParseError::new(
            n,
            format!(
                "a list opened with '[' is not closed with ']': {}",
                quote(raw)
            ),
        ));
    };
    let mut items = Vec::new();
    if inner.trim().is_empty() {
        return Ok(items);
    }
    let mut current = String::new();
    let mut quote_char: Option<char> = None;
    let mut escaped = false;
    for c in inner.chars() {
        match quote_char {
            Some(q) => {
                current.push(c);
                if q == '"' && escaped {
                    escaped = false;
                } else if q == '"' && c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote_char = None;
                }
            }
            None => match c {
                '"' | '\'' => {
                    quote_char = Some(c);
                    current.push(c);
                }
                ',' => {
                    items.push(flow_item(&current, raw, n)?);
                    current.clear();
                }
                '[' | ']' | '{' | '}' => {
                    return Err(ParseError::new(
                        n,
                        format!("nested lists are not supported: {}", quote(raw)),
                    ));
                }
                _ => current.push(c),
            },
        }
    }
    if quote_char.is_some() {
        return Err(ParseError::new(
            n,
            format!("an unclosed quote in {}", quote(raw)),
        ));
    }
    items.push(flow_item(&current, raw, n)?);
    Ok(items)
}

fn flow_item(item: &str, raw: &str, n: usize) -> Result<String, ParseError> {
    if item.trim().is_empty() {
        return Err(ParseError::new(
            n,
            format!("an empty entry in {}", quote(raw)),
        ));
    }
    parse_scalar(item, n)
}

/// A scalar as written: plain when that reads back the same, else JSON-quoted.
/// `in_list`: an item of a flow list, where `,`, brackets and quotes need
/// quoting too.
pub fn scalar(value: &str, in_list: bool) -> String {
    let plain = !value.is_empty()
        && value.trim() == value
        && !value.starts_with([
            '"', '\'', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`', '-', '?',
            ':', ',',
        ])
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.ends_with(':')
        && !value.chars().any(char::is_control)
        && !(in_list && value.contains([',', '[', ']', '{', '}', '\'', '"']));
    if plain {
        value.to_string()
    } else {
        Value::from(value).to_string()
    }
}

/// A flow list `[a, b]` of `items`, each written by [`scalar`].
pub fn flow(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|i| scalar(i, true)).collect();
    format!("[{}]", inner.join(", "))
}

/// A document: `---`, the front matter's lines (`front`, each ending in a
/// line break), `---`, then, when there is a body, a blank line, the body
/// and a final line break.
pub fn emit(front: &str, body: &str) -> String {
    let mut out = String::with_capacity(front.len() + body.len() + 10);
    out.push_str("---\n");
    out.push_str(front);
    out.push_str("---\n");
    if !body.is_empty() {
        out.push('\n');
        out.push_str(body);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn refusal(text: &str) -> Option<Refusal> {
        split(text, Fences::Strict).unwrap().bound().err()
    }

    #[test]
    fn split_cuts_at_the_fences() {
        let s = split("\u{feff}---\r\na: 1\n---  \nbody\n", Fences::Strict).unwrap();
        assert_eq!(
            (s.open, s.front, s.close, s.body, s.close_line),
            ("\u{feff}---\r\n", "a: 1\n", Some("---  \n"), "body\n", 3)
        );
        assert_eq!(s.lines().collect::<Vec<_>>(), [(2, "a: 1")]);
        let s = split("---\na\r\nb", Fences::Strict).unwrap();
        assert_eq!(
            (s.front, s.close, s.body, s.close_line),
            ("a\r\nb", None, "", 4)
        );
        assert_eq!(s.lines().collect::<Vec<_>>(), [(2, "a"), (3, "b")]);
        assert!(split("no\n---\n", Fences::Strict).is_none());
        assert!(split("", Fences::Strict).is_none());
        // the screener's fences: spaces on both sides, no byte-order mark
        assert!(split(" --- \n---", Fences::Strict).is_none());
        assert_eq!(
            split(" --- \n ---", Fences::Loose).unwrap().close,
            Some(" ---")
        );
        assert_eq!(
            split("\u{feff}---\n---\n", Fences::Loose).unwrap().open,
            "\u{feff}---\n"
        );
        assert_eq!(
            document("---\na: 1\n").unwrap_err(),
            ParseError::new(1, UNCLOSED)
        );
        assert_eq!(document("body").unwrap(), None);
        let s = split("---\n---\nx\r\ny\r\r\n", Fences::Strict).unwrap();
        assert_eq!(s.body_text(), "x\ny\r\n");
    }

    #[test]
    fn deep_nesting_is_refused_before_any_parse() {
        let deep = [
            format!("---\nm: {}\n---\n", "[".repeat(40_000)),
            format!(
                "---\nm: {}x{}\n---\n",
                "[".repeat(20_000),
                "]".repeat(20_000)
            ),
            format!("---\nm: {}\n---\n", "{a: ".repeat(10_000)),
            format!("---\nm: {}\n---\n", "{".repeat(40_000)),
            format!("---\nm:\n{}x\n---\n", "- ".repeat(20_000)),
            format!("---\n{}x\n---\n", "? ".repeat(20_000)),
            format!("---\nm: &a !t {}\n---\n", "[".repeat(40_000)),
            format!("---\nm: [\n{}\n---\n", "[\n".repeat(40_000)),
            format!(
                "---\n{}\n---\n",
                (0..200)
                    .map(|i| format!("{}k:\n", " ".repeat(i)))
                    .collect::<String>()
            ),
        ];
        for (i, text) in deep.iter().enumerate() {
            assert!(
                matches!(refusal(text), Some(Refusal::TooDeep { line }) if line >= 2),
                "{i}: {:?}",
                refusal(text)
            );
            let err = document(text).unwrap_err();
            assert!(err.message.contains("levels deep"), "{i}: {err:?}");
        }
        let big = format!("---\n{}---\n", "k: v\n".repeat(MAX_BYTES / 5 + 1));
        assert_eq!(
            refusal(&big),
            Some(Refusal::TooLarge {
                line: MAX_BYTES / 5 + 2
            })
        );
    }

    #[test]
    fn honest_front_matter_is_within_bounds() {
        let ok = [
            format!(
                "m: {}x{}\n",
                "[".repeat(MAX_DEPTH - 1),
                "]".repeat(MAX_DEPTH - 1)
            ),
            "metadata: {a: '[[[[', b: \"{{{{\", c: 'it''s [[['}\n".to_string(),
            format!("title: a {}\n", "[".repeat(500)),
            format!("title: \"{}\"\ntags: [a, \"b]]]]\"]\n", "[".repeat(500)),
            format!(
                "d: |\n{}\nnext: x\n",
                (0..100)
                    .map(|i| format!("  {}[[", " ".repeat(i)))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
            format!("# {}\nk: v # {}\n", "[".repeat(500), "{".repeat(500)),
            // each top-level entry starts afresh
            "a: [\n".repeat(500),
            "a: \"\n".repeat(500),
            "claims:\n  - a: b\n  - c: \"d\"\nx:\n  - - y\n".to_string(),
        ];
        for (i, front) in ok.iter().enumerate() {
            assert_eq!(refusal(&format!("---\n{front}---\n")), None, "{i}");
        }
    }

    #[test]
    fn scalars_and_flow_lists_read_back() {
        for value in [
            "- x",
            "a: b",
            "[x]",
            "#x",
            " pad",
            "x #y",
            "'q",
            "ends:",
            "line\nbreak",
        ] {
            let text = scalar(value, false);
            assert!(text.starts_with('"'), "{value:?} → {text}");
            assert_eq!(parse_scalar(&text, 1).unwrap(), value);
        }
        assert_eq!(scalar("a,b", false), "a,b");
        assert_eq!(flow(&["a,b".into(), "c".into()]), "[\"a,b\", c]");
        assert_eq!(
            parse_flow("[\"a,b\", 'c''d', e]", 1).unwrap(),
            ["a,b", "c'd", "e"]
        );
        assert_eq!(pair("k: v", 3).unwrap(), ("k", " v"));
        assert_eq!(pair("nothing", 3).unwrap_err().line, 3);
        assert!(
            spaced("k", "v", 1)
                .unwrap_err()
                .message
                .contains("space after")
        );
        assert_eq!(quote(&"é".repeat(100)), format!("\"{}\"", "é".repeat(80)));
        assert_eq!(emit("a: 1\n", ""), "---\na: 1\n---\n");
        assert_eq!(emit("", "b"), "---\n---\n\nb\n");
    }

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>(),
            "[ -~é日\u{2028}\t\n\r:#'\",\\[\\]{}-]{0,40}",
        ]
    }

    proptest! {
        /// What `emit` writes, `split` and the scalar reader read back.
        #[test]
        fn emit_then_split_and_parse_round_trips(
            entries in proptest::collection::btree_map("[a-z_][a-z0-9_-]{0,12}", value(), 0..8),
            body in any::<String>(),
        ) {
            let front: String = entries
                .iter()
                .map(|(k, v)| format!("{k}: {}\n", scalar(v, false)))
                .collect();
            let text = emit(&front, &body);
            let split = document(&text).unwrap().unwrap();
            prop_assert_eq!(split.front, front.as_str());
            let mut read = std::collections::BTreeMap::new();
            for (n, line) in split.lines() {
                let (key, value) = pair(line, n).unwrap();
                prop_assert!(is_key(key));
                let value = parse_scalar(spaced(key, value, n).unwrap(), n).unwrap();
                read.insert(key.to_string(), value);
            }
            prop_assert_eq!(read, entries);
            if !body.is_empty() {
                prop_assert_eq!(split.body, format!("\n{body}\n"));
            }
        }

        /// Any text splits (or does not) and bounds without a panic, and the
        /// parts give the text back.
        #[test]
        fn split_never_panics(text in any::<String>(), loose in any::<bool>()) {
            let fences = if loose { Fences::Loose } else { Fences::Strict };
            if let Some(s) = split(&text, fences) {
                let _ = s.bound();
                let _ = s.lines().count();
                prop_assert_eq!(
                    format!("{}{}{}{}", s.open, s.front, s.close.unwrap_or(""), s.body),
                    text.as_str()
                );
            }
            let _ = document(&text);
        }

        #[test]
        fn bound_never_panics_on_yaml_soup(
            front in "([-?:\\[\\]{}\"'#&!|> ,\\\\a\t\n]){0,200}",
        ) {
            let _ = split(&format!("---\n{front}\n---\n"), Fences::Strict).unwrap().bound();
        }
    }
}
