//! The persona file `persona/<name>.md`: front matter of flat `key: value`
//! lines (the managed `rev` and `updated`, then the traits), then a free-text
//! body. Scalars are read and written the way note front matter is
//! (`front::{parse_scalar, scalar}`); the grammar is documented in
//! docs/tools/persona.md ("The file").

use crate::error::{Error, Result, TextLimit};
use crate::front::{self, parse_scalar, quote, scalar};
use crate::store;
use serde_json::{Map, Value};

/// Longest persona name, in bytes.
pub const MAX_NAME_LEN: usize = 64;
/// Longest trait key, in bytes.
pub const MAX_KEY_LEN: usize = 64;
/// Longest trait value, in characters.
pub const MAX_VALUE_CHARS: usize = 500;
/// Most traits in one persona.
pub const MAX_TRAITS: usize = 64;
/// The traits every persona is expected to have, in render order; others
/// follow sorted by key.
pub const KNOWN_TRAITS: [&str; 3] = ["tone", "verbosity", "language"];
/// Front-matter keys the tool manages (not traits).
const MANAGED: [&str; 3] = ["rev", "updated", "created"];

/// The highest rev a file may claim ([`crate::store::MAX_REVISION`]).
pub const MAX_REV: u64 = crate::store::MAX_REVISION;

/// A parsed persona. The name is the file name (without `.md`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Persona {
    pub name: String,
    pub rev: u64,
    /// RFC 3339; empty when the file has none (a hand-written persona).
    pub updated: String,
    /// `(key, value)` in render order (`order_traits`).
    pub traits: Vec<(String, String)>,
    pub body: String,
    /// Comment lines of the front matter, kept so a rewrite does not lose them.
    pub extra: Vec<String>,
}

pub use crate::front::ParseError;

/// The `invalid_args` error for a persona file at `path` that does not parse.
pub fn parse_error(e: ParseError, path: &str) -> Error {
    e.into_error_with(
        path,
        "the persona was changed by hand: fix that line (see docs/tools/persona.md), \
         or restore an earlier revision with `persona revert NAME REV`",
    )
}

impl Persona {
    /// An empty persona at rev 1.
    pub fn new(name: &str) -> Persona {
        Persona {
            name: name.to_string(),
            rev: 1,
            updated: String::new(),
            traits: Vec::new(),
            body: String::new(),
            extra: Vec::new(),
        }
    }

    /// Parses a persona file. A file without front matter is all body (rev 1).
    pub fn parse(name: &str, text: &str) -> std::result::Result<Persona, ParseError> {
        let mut persona = Persona::new(name);
        // `document` takes a byte-order mark off the first line
        let Some(split) = front::document(text)? else {
            let text = text.strip_prefix('\u{feff}').unwrap_or(text);
            if let Some((i, c)) = body_control(text) {
                return Err(ParseError::new(i + 1, body_control_message(c)));
            }
            persona.body = clean_body(text);
            return Ok(persona);
        };
        let mut seen: Vec<String> = Vec::new();
        for (n, raw) in split.lines() {
            let trimmed = raw.trim();
            if trimmed.is_empty() {
                continue;
            }
            if trimmed.starts_with('#') {
                persona.extra.push(raw.to_string());
                continue;
            }
            if raw.starts_with([' ', '\t']) {
                return Err(ParseError::new(
                    n,
                    "an indented line: persona traits are flat `key: value` lines",
                ));
            }
            let (key, value) = front::pair(trimmed, n)?;
            let key = normalize_key(key).map_err(|m| ParseError::new(n, m))?;
            let value = front::spaced(&key, value, n)?;
            if seen.contains(&key) {
                return Err(ParseError::new(n, format!("`{key}` appears twice")));
            }
            seen.push(key.clone());
            let value = parse_scalar(value, n)?;
            match key.as_str() {
                "rev" => {
                    persona.rev = match value.parse::<u64>() {
                        Ok(rev) if (1..=MAX_REV).contains(&rev) => rev,
                        _ => {
                            return Err(ParseError::new(
                                n,
                                format!(
                                    "`rev` must be a whole number from 1 to {MAX_REV}, not {}",
                                    quote(&value)
                                ),
                            ));
                        }
                    }
                }
                "updated" | "created" => {
                    if crate::clock::Time::parse(&value).is_err() {
                        return Err(ParseError::new(
                            n,
                            format!(
                                "`{key}` is not an RFC 3339 time (like 2026-01-31T09:00:00Z): {}",
                                quote(&value)
                            ),
                        ));
                    }
                    if key == "updated" {
                        persona.updated = value;
                    }
                }
                _ => {
                    check_value(&key, &value).map_err(|m| ParseError::new(n, m))?;
                    if persona.traits.len() >= MAX_TRAITS {
                        return Err(ParseError::new(n, format!("more than {MAX_TRAITS} traits")));
                    }
                    persona.traits.push((key, value));
                }
            }
        }
        order_traits(&mut persona.traits);
        let body = split.body_text();
        if let Some((i, c)) = body_control(&body) {
            return Err(ParseError::new(
                split.close_line + 1 + i,
                body_control_message(c),
            ));
        }
        persona.body = clean_body(&body);
        Ok(persona)
    }

    /// The file text: front matter, a blank line, the body, a final newline.
    pub fn to_file(&self) -> String {
        let mut out = format!("rev: {}\n", self.rev);
        if !self.updated.is_empty() {
            out.push_str(&format!("updated: {}\n", self.updated));
        }
        for (key, value) in &self.traits {
            out.push_str(&format!("{key}: {}\n", scalar(value, false)));
        }
        for line in &self.extra {
            out.push_str(line);
            out.push('\n');
        }
        front::emit(&out, &self.body)
    }

    /// The value of trait `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.traits
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a trait (adds or replaces); true when it changed.
    pub fn set(&mut self, key: &str, value: &str) -> bool {
        if self.get(key) == Some(value) {
            return false;
        }
        self.traits.retain(|(k, _)| k != key);
        self.traits.push((key.to_string(), value.to_string()));
        order_traits(&mut self.traits);
        true
    }

    /// Removes a trait; true when it was there.
    pub fn unset(&mut self, key: &str) -> bool {
        let before = self.traits.len();
        self.traits.retain(|(k, _)| k != key);
        self.traits.len() != before
    }

    /// Whether two personas say the same (traits, body and comments; not
    /// the managed `rev` and `updated`).
    pub fn same_content(&self, other: &Persona) -> bool {
        self.traits == other.traits && self.body == other.body && self.extra == other.extra
    }

    /// The traits as a JSON object, in render order.
    pub fn traits_json(&self) -> Value {
        let map: Map<String, Value> = self
            .traits
            .iter()
            .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
            .collect();
        Value::Object(map)
    }

    /// The markdown block an agent splices into its system prompt:
    /// `## Persona: <name>`, one `- Label: value` line per trait (tone,
    /// verbosity, language, then the others by key), then the body.
    pub fn markdown(&self) -> String {
        let mut out = format!("## Persona: {}\n", self.name);
        if !self.traits.is_empty() {
            out.push('\n');
            for (key, value) in &self.traits {
                out.push_str(&format!("- {}: {value}\n", label(key)));
            }
        }
        if !self.body.is_empty() {
            out.push('\n');
            out.push_str(&self.body);
            out.push('\n');
        }
        out
    }
}

/// `reply_style` → `Reply style`.
pub fn label(key: &str) -> String {
    let spaced = key.replace(['_', '-'], " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Sorts traits into render order: the known ones first, then by key.
pub fn order_traits(traits: &mut [(String, String)]) {
    traits.sort_by(|(a, _), (b, _)| rank(a).cmp(&rank(b)).then_with(|| a.cmp(b)));
}

fn rank(key: &str) -> usize {
    KNOWN_TRAITS
        .iter()
        .position(|k| *k == key)
        .unwrap_or(KNOWN_TRAITS.len())
}

/// Leading blank lines and trailing whitespace are not part of the body.
/// The first control character (other than line breaks and tabs) in a body,
/// as `(line index from 0, char)`: a body is prompt text, and an ESC or a
/// NUL in it would reach a terminal or a model.
pub fn body_control(text: &str) -> Option<(usize, char)> {
    text.split('\n').enumerate().find_map(|(i, line)| {
        line.chars()
            .find(|c| c.is_control() && !matches!(c, '\t' | '\r'))
            .map(|c| (i, c))
    })
}

/// The message for a control character in a body.
pub fn body_control_message(c: char) -> String {
    format!(
        "the text holds the control character U+{:04X}; only line breaks and tabs are allowed",
        c as u32
    )
}

fn clean_body(text: &str) -> String {
    text.trim_start_matches(['\n', '\r'])
        .trim_end()
        .replace("\r\n", "\n")
}

/// A trait key, lowercased: an ASCII letter, then letters, digits, `_` or
/// `-`; at most 64 bytes; not one of the managed keys.
pub fn normalize_key(key: &str) -> std::result::Result<String, String> {
    let key = key.trim().to_ascii_lowercase();
    let ok = key.len() <= MAX_KEY_LEN
        && key.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if !ok {
        return Err(format!(
            "{} is not a valid trait key: use an ASCII letter, then letters, digits, '_' or '-' \
             (at most {MAX_KEY_LEN}), like tone or reply_style",
            quote(&key)
        ));
    }
    Ok(key)
}

/// A trait key given on the command line: valid and not managed.
pub fn trait_key(key: &str) -> std::result::Result<String, String> {
    let key = normalize_key(key)?;
    if MANAGED.contains(&key.as_str()) {
        return Err(format!(
            "`{key}` is managed by persona, not a trait (see `persona history`)"
        ));
    }
    Ok(key)
}

/// A trait value: one non-empty line of at most 500 characters.
pub fn check_value(key: &str, value: &str) -> std::result::Result<(), String> {
    if value.trim().is_empty() {
        return Err(format!(
            "the trait `{key}` has no value (remove it with `persona unset`)"
        ));
    }
    let what = format!("the trait `{key}`");
    let limit = TextLimit::chars(&what, MAX_VALUE_CHARS, "value_chars");
    if limit.has_control(value) {
        return Err(format!(
            "{what} must be one line without control characters"
        ));
    }
    match limit.over_message(value) {
        Some(message) => Err(message),
        None => Ok(()),
    }
}

/// Parses a `K=V` argument; `invalid_args` naming the argument otherwise.
pub fn parse_assignment(arg: &str) -> Result<(String, String)> {
    let bad = |why: String| {
        Error::invalid_args(format!("bad trait {}: {why}", quote(arg)))
            .with_hint("write traits as KEY=VALUE, like tone=warm or language=\"en-GB\"")
            .with_detail("argument", arg)
    };
    let Some((key, value)) = arg.split_once('=') else {
        return Err(bad("expected KEY=VALUE".to_string()));
    };
    let key = trait_key(key).map_err(bad)?;
    let value = value.trim().to_string();
    check_value(&key, &value).map_err(bad)?;
    Ok((key, value))
}

/// Validates a persona name: a safe file name, then lowercase ASCII letters,
/// digits, `-` and `_`, starting with a letter or digit, at most 64 bytes.
pub fn check_name(name: &str) -> Result<&str> {
    store::safe_name("persona name", name)?;
    let ok = name.len() <= MAX_NAME_LEN
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if ok {
        Ok(name)
    } else {
        Err(
            Error::invalid_args(format!("the persona name {} is not valid", quote(name)))
                .with_hint(format!(
                    "use lowercase letters, digits, '-' and '_', starting with a letter or digit, \
                     at most {MAX_NAME_LEN} characters (like ada or code-reviewer)"
                ))
                .with_detail("name", name),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sample() -> Persona {
        Persona {
            name: "ada".into(),
            rev: 3,
            updated: "2026-01-15T09:30:00Z".into(),
            traits: vec![
                ("tone".into(), "warm: but direct".into()),
                ("verbosity".into(), "concise".into()),
                ("language".into(), "en-GB".into()),
                ("humor".into(), "dry".into()),
                ("reply_style".into(), "- bullets".into()),
            ],
            body: "You are Ada.\n\n---\n\nBe kind.".into(),
            extra: vec!["# written by hand".into()],
        }
    }

    #[test]
    fn file_round_trips_and_renders_in_a_fixed_order() {
        let mut p = sample();
        order_traits(&mut p.traits);
        let keys: Vec<&str> = p.traits.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["tone", "verbosity", "language", "humor", "reply_style"]
        );
        let text = p.to_file();
        assert_eq!(Persona::parse("ada", &text).unwrap(), p);
        assert_eq!(
            p.markdown(),
            "## Persona: ada\n\n- Tone: warm: but direct\n- Verbosity: concise\n- Language: en-GB\n\
             - Humor: dry\n- Reply style: - bullets\n\nYou are Ada.\n\n---\n\nBe kind.\n"
        );
    }

    #[test]
    fn hand_written_forms_are_accepted() {
        let p = Persona::parse("x", "Just a body.\n").unwrap();
        assert_eq!((p.rev, p.body.as_str()), (1, "Just a body."));
        let p = Persona::parse(
            "x",
            "\u{feff}---\r\nTone: 'it''s warm'\r\n# note\r\nrev: 2\r\n---\r\n\r\nBody\r\n",
        )
        .unwrap();
        assert_eq!(p.get("tone"), Some("it's warm"));
        assert_eq!(p.rev, 2);
        assert_eq!(p.extra, ["# note"]);
        assert_eq!(p.body, "Body");
    }

    #[test]
    fn broken_front_matter_names_the_line() {
        let cases: &[(&str, usize, &str)] = &[
            ("---\ntone: x\n", 1, "not closed"),
            ("---\ntone: x\ntone: y\n---\n", 3, "twice"),
            ("---\nrev: two\n---\n", 2, "rev"),
            ("---\nrev: 0\n---\n", 2, "rev"),
            ("---\nupdated: yesterday\n---\n", 2, "RFC 3339"),
            ("---\ntone: x\n  nested: 1\n---\n", 3, "indented"),
            ("---\n\njust words\n---\n", 3, "key: value"),
            ("---\ntone:x\n---\n", 2, "space after"),
            ("---\n1tone: x\n---\n", 2, "trait key"),
            ("---\ntone:\n---\n", 2, "no value"),
            ("---\ntone: \"a\\nb\"\n---\n", 2, "one line"),
            ("---\ntone: \"open\n---\n", 2, "quoted"),
        ];
        for (text, line, words) in cases {
            let err = Persona::parse("n", text).unwrap_err();
            assert_eq!(err.line, *line, "{text:?}: {err:?}");
            assert!(err.message.contains(words), "{text:?}: {err:?}");
        }
    }

    #[test]
    fn deep_front_matter_is_refused_before_it_is_read() {
        for front in [
            format!("tone: {}", "[".repeat(40_000)),
            format!("{}x", "- ".repeat(20_000)),
            format!("tone: {}", "{".repeat(40_000)),
        ] {
            let err = Persona::parse("p", &format!("---\n{front}\n---\n")).unwrap_err();
            assert_eq!(err.line, 2, "{err:?}");
            assert!(err.message.contains("levels deep"), "{err:?}");
        }
    }

    #[test]
    fn names_and_assignments_are_strict() {
        for good in ["ada", "code-reviewer", "a_1", "9lives"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "", "../x", "/abs", "a/b", "a\0b", "Ada", "-a", "_a", "a.md", ".x", "é", "ACTIVE",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_name(&"a".repeat(65)).is_err());
        assert_eq!(
            parse_assignment("Tone = warm ").unwrap(),
            ("tone".to_string(), "warm".to_string())
        );
        assert_eq!(parse_assignment("a=b=c").unwrap().1, "b=c");
        for bad in ["tone", "=x", "tone=", "rev=3", "bad key=x", "tone=a\u{7}"] {
            let err = parse_assignment(bad).unwrap_err();
            assert_eq!(err.detail["argument"], bad);
        }
    }

    fn arb_value() -> impl Strategy<Value = String> {
        // Printable text, including the characters that need quoting.
        "[ -~éß日#:,'\"\\[\\]{}-]{1,40}".prop_filter("one non-blank line", |v| !v.trim().is_empty())
    }

    proptest! {
        #[test]
        fn any_persona_round_trips(
            rev in 1u64..1_000_000,
            traits in proptest::collection::btree_map("[a-z][a-z0-9_-]{0,12}", arb_value(), 0..8),
            body in "[ -~\n]{0,200}",
        ) {
            let mut p = Persona::new("p");
            p.rev = rev;
            p.updated = "2026-01-15T09:30:00Z".into();
            for (k, v) in traits {
                if MANAGED.contains(&k.as_str()) { continue; }
                p.traits.push((k, v.trim().to_string()));
            }
            order_traits(&mut p.traits);
            p.body = clean_body(&body);
            let parsed = Persona::parse("p", &p.to_file()).unwrap();
            prop_assert_eq!(&parsed, &p);
            // the render is a pure function of the persona
            prop_assert_eq!(parsed.markdown(), p.markdown());
        }

        #[test]
        fn parse_never_panics(text in "(---\n)?[ -~\n\t]{0,300}") {
            let _ = Persona::parse("p", &text);
        }
    }
}
