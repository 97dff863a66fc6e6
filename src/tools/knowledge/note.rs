//! The note file: front matter in a small YAML subset, then a markdown body.
//! The grammar is documented in docs/tools/knowledge.md ("Front matter").

use crate::error::{Error, Result, TextLimit};
use crate::front::{self, flow, parse_flow, parse_scalar, quote, scalar};
use crate::store;
use serde_json::{Value, json};

pub use crate::front::ParseError;

/// Longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest slug, in bytes.
pub const MAX_SLUG_LEN: usize = 64;
/// Longest tag, in characters.
pub const MAX_TAG_CHARS: usize = 64;
/// Longest source or link, in characters.
pub const MAX_ITEM_CHARS: usize = 2_000;
/// Longest claim key, in bytes.
pub const MAX_CLAIM_KEY_LEN: usize = 100;
/// Longest claim value, in characters.
pub const MAX_CLAIM_VALUE_CHARS: usize = 500;
/// Most entries in one front-matter list (tags, sources, links, claims).
pub const MAX_LIST_ITEMS: usize = 256;

/// One claim: a fact a note asserts, as `key: value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub key: String,
    pub value: String,
}

impl Claim {
    /// Whether two claim values say the same thing (case, spacing and a
    /// trailing period do not count).
    pub fn same_value(a: &str, b: &str) -> bool {
        normalize_value(a) == normalize_value(b)
    }
}

/// The comparison form of a claim value.
pub fn normalize_value(value: &str) -> String {
    let flat = value.split_whitespace().collect::<Vec<_>>().join(" ");
    flat.trim_end_matches('.').trim_end().to_lowercase()
}

/// A parsed note. The slug is the file name (without `.md`); it is not stored
/// in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub slug: String,
    pub title: String,
    pub tags: Vec<String>,
    pub sources: Vec<String>,
    pub links: Vec<String>,
    pub claims: Vec<Claim>,
    pub created: String,
    pub updated: String,
    pub rev: u64,
    pub body: String,
    /// Front-matter lines this version does not know (and comments), kept
    /// verbatim so a rewrite does not lose them.
    pub extra: Vec<String>,
}

/// The error of a note that does not parse.
pub trait NoteError {
    /// The `invalid_args` error for the note at `path`.
    fn into_error(self, path: &str) -> Error;
}

impl NoteError for ParseError {
    fn into_error(self, path: &str) -> Error {
        self.into_error_with(
            path,
            "the note was changed by hand: fix the front matter at that line \
             (see docs/tools/knowledge.md), or restore the file",
        )
    }
}

/// The front-matter fields this version knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Title,
    Tags,
    Sources,
    Links,
    Created,
    Updated,
    Rev,
    Claims,
}

impl Field {
    fn parse(key: &str) -> Option<Field> {
        Some(match key {
            "title" => Field::Title,
            "tags" => Field::Tags,
            "sources" => Field::Sources,
            "links" => Field::Links,
            "created" => Field::Created,
            "updated" => Field::Updated,
            "rev" => Field::Rev,
            "claims" => Field::Claims,
            _ => return None,
        })
    }

    fn is_list(self) -> bool {
        matches!(
            self,
            Field::Tags | Field::Sources | Field::Links | Field::Claims
        )
    }
}

/// Where a block list (`key:` then `- item` lines) is being collected.
enum Block {
    None,
    List(Field),
    /// An unknown key: its indented lines go to `extra` with it.
    Unknown,
}

impl Note {
    /// Parses a note file. `fallback_date` stands in for a missing `created`
    /// or `updated` (callers pass the file's mtime).
    pub fn parse(
        slug: &str,
        text: &str,
        fallback_date: &str,
    ) -> std::result::Result<Note, ParseError> {
        // `document` takes a byte-order mark off the first line
        let Some(split) = front::document(text)? else {
            return Err(ParseError::new(
                1,
                "a note starts with a '---' line that opens its front matter",
            ));
        };

        let mut note = Note {
            slug: slug.to_string(),
            title: String::new(),
            tags: Vec::new(),
            sources: Vec::new(),
            links: Vec::new(),
            claims: Vec::new(),
            created: String::new(),
            updated: String::new(),
            rev: 1,
            body: String::new(),
            extra: Vec::new(),
        };
        let mut seen: Vec<Field> = Vec::new();
        let mut block = Block::None;
        for (n, raw) in split.lines() {
            if raw.starts_with('\t') {
                return Err(ParseError::new(n, "indent with spaces, not tabs"));
            }
            let trimmed = raw.trim();
            if trimmed.is_empty() {
                continue;
            }
            if trimmed.starts_with('#') {
                note.extra.push(raw.to_string());
                continue;
            }
            if let Some(item) = trimmed
                .strip_prefix("- ")
                .or_else(|| (trimmed == "-").then_some(""))
            {
                match block {
                    // A block item is a raw scalar; a claim parses its own value.
                    Block::List(Field::Claims) => note.push_item(Field::Claims, item.trim(), n)?,
                    Block::List(field) => note.push_item(field, &parse_scalar(item, n)?, n)?,
                    Block::Unknown => note.extra.push(raw.to_string()),
                    Block::None => {
                        return Err(ParseError::new(
                            n,
                            "a list item outside a list (put it under `tags:`, `sources:`, \
                             `links:` or `claims:`)",
                        ));
                    }
                }
                continue;
            }
            if raw.starts_with(' ') {
                if matches!(block, Block::Unknown) {
                    note.extra.push(raw.to_string());
                    continue;
                }
                return Err(ParseError::new(
                    n,
                    "unexpected indented line (expected `- item` in a list, or `key: value`)",
                ));
            }
            let (key, value) = front::pair(trimmed, n)?;
            if !front::is_key(key) {
                return Err(ParseError::new(
                    n,
                    format!("{} is not a valid key", quote(key)),
                ));
            }
            let value = front::spaced(key, value, n)?;
            let Some(field) = Field::parse(key) else {
                note.extra.push(raw.to_string());
                block = if value.is_empty() {
                    Block::Unknown
                } else {
                    Block::None
                };
                continue;
            };
            if seen.contains(&field) {
                return Err(ParseError::new(n, format!("`{key}` appears twice")));
            }
            seen.push(field);
            block = Block::None;
            if field.is_list() {
                if value.is_empty() {
                    block = Block::List(field);
                } else if field == Field::Claims {
                    if value != "[]" {
                        return Err(ParseError::new(
                            n,
                            "claims are a block list: `claims:` then one `  - key: value` line each",
                        ));
                    }
                } else {
                    for item in parse_flow(value, n)? {
                        note.push_item(field, &item, n)?;
                    }
                }
                continue;
            }
            if value.is_empty() {
                return Err(ParseError::new(n, format!("`{key}` has no value")));
            }
            match field {
                Field::Title => {
                    let title = parse_scalar(value, n)?;
                    check_title(&title).map_err(|m| ParseError::new(n, m))?;
                    note.title = title;
                }
                Field::Created | Field::Updated => {
                    let date = parse_scalar(value, n)?;
                    if crate::clock::Time::parse(&date).is_err() {
                        return Err(ParseError::new(
                            n,
                            format!(
                                "`{key}` is not an RFC 3339 time (like 2026-01-31T09:00:00Z): {}",
                                quote(&date)
                            ),
                        ));
                    }
                    if field == Field::Created {
                        note.created = date;
                    } else {
                        note.updated = date;
                    }
                }
                Field::Rev => {
                    note.rev = match parse_scalar(value, n)?.parse::<u64>() {
                        Ok(rev) if rev >= 1 => rev,
                        _ => {
                            return Err(ParseError::new(
                                n,
                                format!("`rev` must be a whole number ≥ 1, not {}", quote(value)),
                            ));
                        }
                    }
                }
                _ => unreachable!("lists are handled above"),
            }
        }
        if note.title.is_empty() {
            return Err(ParseError::new(1, "the front matter has no `title:`"));
        }
        if note.created.is_empty() {
            note.created = fallback_date.to_string();
        }
        if note.updated.is_empty() {
            note.updated = fallback_date.to_string();
        }
        let body = split.body_text();
        note.body = body.trim_start_matches(['\n', '\r']).trim_end().to_string();
        Ok(note)
    }

    /// Adds one list entry: for tags, sources and links the scalar already
    /// unquoted (a flow list unquotes its items itself), for a claim the raw
    /// `key: value`.
    fn push_item(
        &mut self,
        field: Field,
        item: &str,
        n: usize,
    ) -> std::result::Result<(), ParseError> {
        let len = match field {
            Field::Tags => self.tags.len(),
            Field::Sources => self.sources.len(),
            Field::Links => self.links.len(),
            _ => self.claims.len(),
        };
        if len >= MAX_LIST_ITEMS {
            return Err(ParseError::new(
                n,
                format!("more than {MAX_LIST_ITEMS} entries in one list"),
            ));
        }
        match field {
            Field::Claims => {
                let Some((key, value)) = item.split_once(':') else {
                    return Err(ParseError::new(
                        n,
                        format!("a claim is `- key: value`, found {}", quote(item)),
                    ));
                };
                let key = key.trim().to_lowercase();
                check_claim_key(&key).map_err(|m| ParseError::new(n, m))?;
                let value = parse_scalar(value.trim(), n)?;
                check_claim_value(&key, &value).map_err(|m| ParseError::new(n, m))?;
                if self.claims.iter().any(|c| c.key == key) {
                    return Err(ParseError::new(
                        n,
                        format!("the claim `{key}` appears twice in this note"),
                    ));
                }
                self.claims.push(Claim { key, value });
            }
            Field::Tags => {
                let tag = normalize_tag(item).map_err(|m| ParseError::new(n, m))?;
                if !self.tags.contains(&tag) {
                    self.tags.push(tag);
                }
            }
            Field::Sources | Field::Links => {
                let value = item.to_string();
                check_item(&value).map_err(|m| ParseError::new(n, m))?;
                let list = if field == Field::Sources {
                    &mut self.sources
                } else {
                    &mut self.links
                };
                if !list.contains(&value) {
                    list.push(value);
                }
            }
            _ => unreachable!("only lists have items"),
        }
        Ok(())
    }

    /// The file text: front matter, a blank line, the body, a final newline.
    pub fn render(&self) -> String {
        let mut out = format!("title: {}\n", scalar(&self.title, false));
        out.push_str(&format!("tags: {}\n", flow(&self.tags)));
        out.push_str(&format!("sources: {}\n", flow(&self.sources)));
        out.push_str(&format!("links: {}\n", flow(&self.links)));
        out.push_str(&format!("created: {}\n", self.created));
        out.push_str(&format!("updated: {}\n", self.updated));
        out.push_str(&format!("rev: {}\n", self.rev));
        if self.claims.is_empty() {
            out.push_str("claims: []\n");
        } else {
            out.push_str("claims:\n");
            for claim in &self.claims {
                out.push_str(&format!(
                    "  - {}: {}\n",
                    claim.key,
                    scalar(&claim.value, false)
                ));
            }
        }
        for line in &self.extra {
            out.push_str(line);
            out.push('\n');
        }
        front::emit(&out, &self.body)
    }

    /// The rev after this one; a note at the highest rev there is (a hand
    /// edit's) takes no more changes (`conflict`): the rev never wraps.
    pub fn next_rev(&self) -> Result<u64> {
        self.rev.checked_add(1).ok_or_else(|| {
            Error::conflict(format!(
                "note '{}' is at rev {}, the highest there is; it takes no more changes",
                self.slug, self.rev
            ))
            .with_hint("it stays readable; continue in a new note (`knowledge add`)")
            .with_detail("slug", self.slug.clone())
            .with_detail("rev", self.rev)
        })
    }

    /// The claim with `key`, if any.
    pub fn claim(&self, key: &str) -> Option<&Claim> {
        self.claims.iter().find(|c| c.key == key)
    }

    /// The JSON view without the body (a row of `list`).
    pub fn summary(&self, path: &str) -> Value {
        json!({
            "slug": self.slug,
            "title": self.title,
            "tags": self.tags,
            "sources": self.sources,
            "links": self.links,
            "claims": self.claims_json(),
            "created": self.created,
            "updated": self.updated,
            "rev": self.rev,
            "path": path,
        })
    }

    /// The full JSON view (summary plus body).
    pub fn view(&self, path: &str) -> Value {
        let mut value = self.summary(path);
        value["body"] = Value::from(self.body.clone());
        value
    }

    fn claims_json(&self) -> Vec<Value> {
        self.claims
            .iter()
            .map(|c| json!({"key": c.key, "value": c.value}))
            .collect()
    }
}

/// A title: one line, 1..=200 characters.
pub fn check_title(title: &str) -> std::result::Result<(), String> {
    if title.trim().is_empty() {
        return Err("the title is empty".to_string());
    }
    if title.contains(['\n', '\r']) {
        return Err("the title must be one line".to_string());
    }
    let limit = TextLimit::chars("the title", MAX_TITLE_CHARS, "title_chars");
    if limit.has_control(title) {
        return Err("the title contains a control character".to_string());
    }
    match limit.over_message(title) {
        Some(message) => Err(message),
        None => Ok(()),
    }
}

/// A tag, lowercased: 1..=64 characters, no whitespace, commas, brackets,
/// quotes or control characters.
pub fn normalize_tag(tag: &str) -> std::result::Result<String, String> {
    let tag = tag.trim().to_lowercase();
    if tag.is_empty() {
        return Err("a tag is empty".to_string());
    }
    if tag.chars().count() > MAX_TAG_CHARS {
        return Err(format!(
            "the tag {} is longer than {MAX_TAG_CHARS} characters",
            quote(&tag)
        ));
    }
    if tag
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || ",[]{}\"'".contains(c))
    {
        return Err(format!(
            "the tag {} may not contain spaces, commas, brackets or quotes",
            quote(&tag)
        ));
    }
    Ok(tag)
}

/// A source or link entry: one line, no control characters, bounded.
pub fn check_item(item: &str) -> std::result::Result<(), String> {
    if item.trim().is_empty() {
        return Err("an empty entry".to_string());
    }
    if item.chars().any(char::is_control) {
        return Err(format!("{} contains a control character", quote(item)));
    }
    if item.chars().count() > MAX_ITEM_CHARS {
        return Err(format!(
            "an entry is longer than {MAX_ITEM_CHARS} characters"
        ));
    }
    Ok(())
}

/// A claim key: lowercase ASCII letters and digits, then also `.`, `_`, `-`
/// and `/`; at most 100 bytes.
pub fn check_claim_key(key: &str) -> std::result::Result<(), String> {
    let ok = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && key.chars().all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-' | '/')
        })
        && key.len() <= MAX_CLAIM_KEY_LEN;
    if ok {
        Ok(())
    } else {
        Err(format!(
            "the claim key {} is not valid: use lowercase letters, digits, '.', '_', '-', '/' \
             (starting with a letter or digit, at most {MAX_CLAIM_KEY_LEN} bytes), like go.formatter",
            quote(key)
        ))
    }
}

/// A claim value: one non-empty line of at most 500 characters.
pub fn check_claim_value(key: &str, value: &str) -> std::result::Result<(), String> {
    if value.trim().is_empty() {
        return Err(format!("the claim `{key}` has no value"));
    }
    if value.chars().any(char::is_control) {
        return Err(format!("the claim `{key}` contains a control character"));
    }
    if value.chars().count() > MAX_CLAIM_VALUE_CHARS {
        return Err(format!(
            "the claim `{key}` is longer than {MAX_CLAIM_VALUE_CHARS} characters"
        ));
    }
    Ok(())
}

/// Validates a slug: a safe file name, and lowercase ASCII letters, digits and
/// inner '-', at most 64 bytes.
pub fn check_slug(slug: &str) -> Result<()> {
    store::safe_name("slug", slug)?;
    let ok = slug.len() <= MAX_SLUG_LEN
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-')
        && !slug.ends_with('-');
    if ok {
        Ok(())
    } else {
        Err(Error::invalid_args(format!(
            "the slug {} is not valid",
            quote(slug)
        ))
        .with_hint(format!(
            "use lowercase letters, digits and inner '-', at most {MAX_SLUG_LEN} characters (like go-formatting)"
        ))
        .with_detail("slug", slug))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATE: &str = "2026-01-15T09:30:00Z";

    fn sample() -> Note {
        Note {
            slug: "go-style".into(),
            title: "Go style: formatting".into(),
            tags: vec!["go".into(), "style".into()],
            sources: vec![
                "https://go.dev/doc/effective_go#formatting".into(),
                "a, b".into(),
            ],
            links: vec!["go-modules".into()],
            claims: vec![
                Claim {
                    key: "go.formatter".into(),
                    value: "gofmt".into(),
                },
                Claim {
                    key: "go.indent".into(),
                    value: "tabs: always".into(),
                },
            ],
            created: DATE.into(),
            updated: DATE.into(),
            rev: 3,
            body: "Run `gofmt -w .` before committing.\n\n---\n\nMore.".into(),
            extra: vec!["aliases: [fmt]".into()],
        }
    }

    #[test]
    fn render_then_parse_is_identity() {
        let note = sample();
        let text = note.render();
        assert!(text.starts_with("---\ntitle: \"Go style: formatting\"\ntags: [go, style]\n"));
        assert!(
            text.contains("claims:\n  - go.formatter: gofmt\n  - go.indent: \"tabs: always\"\n")
        );
        assert_eq!(Note::parse("go-style", &text, "x").unwrap(), note);
        let empty = Note {
            body: String::new(),
            claims: Vec::new(),
            extra: Vec::new(),
            ..sample()
        };
        let text = empty.render();
        assert!(text.ends_with("claims: []\n---\n"), "{text}");
        assert_eq!(Note::parse("go-style", &text, "x").unwrap(), empty);
    }

    #[test]
    fn hand_written_yaml_forms_are_accepted() {
        let text = "---\r\n# my note\r\ntitle: 'It''s fine'\r\ntags:\r\n  - Go\r\n- style\r\n\
                    sources: https://x\r\nclaims:\r\n  - Go.Formatter: \"gofmt\"\r\n\
                    custom:\r\n  nested: 1\r\n---\r\nBody\r\n";
        let note = Note::parse("n", text, DATE).unwrap();
        assert_eq!(note.title, "It's fine");
        assert_eq!(note.tags, ["go", "style"]);
        assert_eq!(note.sources, ["https://x"]);
        assert_eq!(note.claims[0].key, "go.formatter");
        assert_eq!(note.rev, 1);
        assert_eq!(note.created, DATE);
        assert_eq!(note.body, "Body");
        assert_eq!(note.extra, ["# my note", "custom:", "  nested: 1"]);
    }

    #[test]
    fn broken_front_matter_names_the_line() {
        let cases: &[(&str, usize, &str)] = &[
            ("no front matter", 1, "starts with"),
            ("---\ntitle: x\n", 1, "not closed"),
            ("---\ntags: [a]\n---\n", 1, "no `title:`"),
            ("---\ntitle: x\nrev: two\n---\n", 3, "rev"),
            ("---\ntitle: x\ntitle: y\n---\n", 3, "twice"),
            ("---\ntitle: x\ntags: [a, b\n---\n", 3, "not closed"),
            ("---\ntitle: x\ntags: [a,,b]\n---\n", 3, "empty entry"),
            ("---\ntitle: x\n\njust words\n---\n", 4, "key: value"),
            (
                "---\ntitle: x\nclaims:\n  - nocolon\n---\n",
                4,
                "key: value",
            ),
            (
                "---\ntitle: x\nclaims:\n  - Bad Key: v\n---\n",
                4,
                "claim key",
            ),
            (
                "---\ntitle: x\nclaims:\n  - a: 1\n  - a: 2\n---\n",
                5,
                "twice",
            ),
            ("---\ntitle: x\nclaims: gofmt\n---\n", 3, "block list"),
            ("---\ntitle: x\ncreated: yesterday\n---\n", 3, "RFC 3339"),
            ("---\ntitle: \"unclosed\n---\n", 2, "quoted"),
            ("---\ntitle: x\n  stray\n---\n", 3, "indented"),
            ("---\ntitle: x\n- item\n---\n", 3, "outside a list"),
            ("---\ntitle:x\n---\n", 2, "space after"),
            ("---\ntitle: x\ntags: [has space]\n---\n", 3, "spaces"),
        ];
        for (text, line, words) in cases {
            let err = Note::parse("n", text, DATE).unwrap_err();
            assert_eq!(err.line, *line, "{text:?}: {err:?}");
            assert!(err.message.contains(words), "{text:?}: {err:?}");
        }
        let err = ParseError::new(4, "bad").into_error("memory/knowledge/n.md");
        assert_eq!(err.detail["line"], 4);
        assert!(err.message.starts_with("memory/knowledge/n.md:4: "));
    }

    #[test]
    fn deep_front_matter_is_refused_before_it_is_read() {
        for front in [
            format!("title: x\ntags: {}", "[".repeat(40_000)),
            format!("title: x\ncustom:\n{}x", "- ".repeat(20_000)),
            format!("title: x\ncustom: {}", "{".repeat(40_000)),
        ] {
            let err = Note::parse("n", &format!("---\n{front}\n---\n"), DATE).unwrap_err();
            assert!(err.message.contains("levels deep"), "{err:?}");
        }
    }

    #[test]
    fn slugs_are_strict() {
        for good in ["a", "go-style", "x1-2-3", &"a".repeat(64)] {
            assert!(check_slug(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "../x",
            "/abs",
            "a/b",
            "a\0b",
            "Go",
            "a_b",
            "-a",
            "a-",
            "a.md",
            ".x",
            "é",
            &"a".repeat(65),
        ] {
            assert!(check_slug(bad).is_err(), "{bad:?}");
        }
        // Every slug derived from a title is a valid slug.
        for title in [
            "Go style: formatting!",
            "日本語",
            "Café déjà vu",
            &"ab ".repeat(100),
        ] {
            let slug = crate::slug::slugify(title, MAX_SLUG_LEN, "note");
            assert!(check_slug(&slug).is_ok(), "{title:?} -> {slug:?}");
        }
    }

    #[test]
    fn claim_values_compare_loosely() {
        assert!(Claim::same_value("gofmt", " GoFmt. "));
        assert!(Claim::same_value("use  tabs", "use tabs"));
        assert!(!Claim::same_value("gofmt", "goimports"));
    }

    #[test]
    fn scalars_that_would_misparse_are_quoted() {
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
        assert_eq!(scalar("a,b", true), "\"a,b\"");
        assert_eq!(
            parse_flow(&flow(&["a,b".into(), "c".into()]), 1).unwrap(),
            ["a,b", "c"]
        );
    }
}
