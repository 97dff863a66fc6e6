//! The Agent Skills format: `SKILL.md` is YAML front matter between `---`
//! lines, then a markdown body. This module parses it (with a real YAML
//! parser, `serde_norway`) and checks it against the specification: each
//! violation is a [`Finding`] with the file and line it is on.

use crate::front::{self, Fences, Refusal};
use regex::Regex;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::LazyLock;

/// The skill's instructions file.
pub const SKILL_FILE: &str = "SKILL.md";
/// Longest `name`.
pub const MAX_NAME: usize = 64;
/// Longest `description`.
pub const MAX_DESCRIPTION: usize = 1024;
/// Longest `compatibility`.
pub const MAX_COMPATIBILITY: usize = 500;
/// The body length the specification recommends staying under (a warning).
pub const MAX_BODY_LINES: usize = 500;
/// The front-matter keys the specification knows.
pub const KNOWN_KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];
/// The rule a name must follow, as told in hints.
pub const NAME_RULE: &str = "a skill name is 1-64 characters of lowercase letters, digits and single hyphens, \
     not starting or ending with a hyphen (^[a-z0-9]+(-[a-z0-9]+)*$), and equals its folder's name";

/// One spec violation.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub rule: &'static str,
    /// `error` (a spec violation) or `warning`.
    pub severity: &'static str,
    /// Path relative to the skills folder (`my-skill/SKILL.md`), or the folder given.
    pub file: String,
    /// 1-based; 0 for the whole file.
    pub line: usize,
    pub message: String,
}

impl Finding {
    pub fn to_json(&self) -> Value {
        json!({"rule": self.rule, "severity": self.severity, "file": self.file,
               "line": self.line, "message": self.message})
    }
}

/// A parsed `SKILL.md`.
#[derive(Debug, Clone, Default)]
pub struct SkillDoc {
    /// The front matter as JSON (a YAML mapping converted), empty when absent.
    pub front: serde_json::Map<String, Value>,
    pub name: String,
    pub description: String,
    pub body: String,
    /// The line of the body's first line in the file.
    pub body_line: usize,
    /// The line each top-level key is on.
    pub key_lines: Vec<(String, usize)>,
}

impl SkillDoc {
    pub fn line_of(&self, key: &str) -> usize {
        self.key_lines
            .iter()
            .find(|(k, _)| k == key)
            .map_or(1, |(_, l)| *l)
    }
}

/// Whether `name` is a valid skill name (format and length).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_NAME && crate::slug::is_slug(name)
}

/// Parses `SKILL.md` text. Errors are findings (missing front matter,
/// broken YAML with its line, a front matter that is not a mapping).
pub fn parse(text: &str, file: &str) -> Result<SkillDoc, Finding> {
    let fail = |rule, line, message: String| Finding {
        rule,
        severity: "error",
        file: file.to_string(),
        line,
        message,
    };
    let Some(split) = front::split(text, Fences::Strict) else {
        return Err(fail(
            "missing-front-matter",
            1,
            "SKILL.md must start with YAML front matter between '---' lines".to_string(),
        ));
    };
    if split.close.is_none() {
        return Err(fail("missing-front-matter", 1, front::UNCLOSED.to_string()));
    }
    let (yaml, body) = (split.front, split.body);
    // Bounded first: the YAML parser's time grows with the square of the
    // flow nesting, so a front matter nested too deeply (or too large) is
    // refused before any parser reads it; the walk then counts the values
    // with aliases expanded.
    match split.bound() {
        Err(r @ Refusal::TooDeep { line }) => {
            return Err(fail("front-matter-too-deep", line, r.message()));
        }
        Err(r @ Refusal::TooLarge { line }) => {
            return Err(fail("front-matter-too-large", line, r.message()));
        }
        Ok(()) => {}
    }
    match super::yaml::walk(yaml) {
        Err(super::yaml::Stop::TooDeep { line }) => {
            let refusal = Refusal::TooDeep { line: line + 2 };
            return Err(fail("front-matter-too-deep", line + 2, refusal.message()));
        }
        Err(super::yaml::Stop::TooLarge { line }) => {
            return Err(fail(
                "front-matter-too-large",
                line + 2,
                format!(
                    "the front matter holds more than {} values (aliases expanded)",
                    super::yaml::MAX_NODES
                ),
            ));
        }
        Ok(_) | Err(super::yaml::Stop::Syntax) => {}
    }
    let parsed: serde_norway::Value = serde_norway::from_str(yaml).map_err(|e| {
        let line = e.location().map_or(1, |l| l.line() + 1);
        fail(
            "yaml-syntax",
            line,
            format!("the front matter is not valid YAML: {e}"),
        )
    })?;
    let front = match yaml_to_json(&parsed) {
        Value::Object(map) => map,
        Value::Null => serde_json::Map::new(),
        _ => {
            return Err(fail(
                "front-matter-not-mapping",
                2,
                "the front matter must be a mapping of keys to values".to_string(),
            ));
        }
    };
    let key_lines = yaml
        .lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let key = l.split_once(':')?.0;
            (!key.is_empty() && !key.starts_with([' ', '\t', '#', '-']))
                .then(|| (key.trim().trim_matches(['"', '\'']).to_string(), i + 2))
        })
        .collect();
    let string = |key: &str| {
        front
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    Ok(SkillDoc {
        name: string("name"),
        description: string("description"),
        body: body.trim_start_matches(['\n', '\r']).to_string(),
        body_line: split.close_line + 1 + body.len() - body.trim_start_matches(['\n', '\r']).len(),
        key_lines,
        front,
    })
}

/// `text` (a SKILL.md that parses) with its front matter's `name` set to
/// `name`: the value is located by the YAML parser and only its bytes
/// change (a missing `name` is added as the first key), so the author's
/// comments, quoting and layout stay. The result is parsed again and must
/// differ from `text` in `name` alone; otherwise `Err` says why.
pub fn rename(text: &str, name: &str) -> Result<String, String> {
    let before = parse(text, SKILL_FILE).map_err(|f| f.message)?;
    let split = front::split(text, Fences::Strict)
        .filter(|s| s.close.is_some())
        .ok_or("SKILL.md has no front matter")?;
    // the front matter starts after the opening line (and its byte-order mark)
    let base = split.open.len();
    let yaml = split.front;
    let walk = super::yaml::walk(yaml).map_err(|_| "the front matter does not parse")?;
    let quoted = Value::from(name).to_string();
    let (at, cut, with) = match walk.top {
        None => (0, 0, format!("name: {quoted}\n")),
        Some(top) => match top.name {
            Some(super::yaml::Value::Scalar { anchored: true, .. }) => {
                return Err("its name carries an anchor (&) that other values may refer to".into());
            }
            Some(super::yaml::Value::Scalar {
                start, end, block, ..
            }) => {
                let newline = if block && yaml[start..end].ends_with('\n') {
                    "\n"
                } else {
                    ""
                };
                (start, end, format!("{quoted}{newline}"))
            }
            Some(super::yaml::Value::Other) => {
                return Err("its name is not a plain value (an alias or a collection)".into());
            }
            None if top.flow => {
                let brace = yaml[top.start..]
                    .find('{')
                    .map_or(top.start, |i| top.start + i);
                let rest = if top.first_key.is_some() { ", " } else { "" };
                (brace + 1, brace + 1, format!("name: {quoted}{rest}"))
            }
            None => match top.first_key {
                Some((key, column)) => {
                    (key, key, format!("name: {quoted}\n{}", " ".repeat(column)))
                }
                None => (top.start, top.start, format!("name: {quoted}\n")),
            },
        },
    };
    let renamed = format!("{}{with}{}", &text[..base + at], &text[base + cut..]);
    let after = parse(&renamed, SKILL_FILE).map_err(|f| f.message)?;
    let mut expected = before.front.clone();
    expected.insert("name".into(), name.into());
    if after.front != expected || after.body != before.body || after.name != name {
        return Err("changing the name in place would change more than the name".into());
    }
    Ok(renamed)
}

/// YAML to JSON (keys as strings; tags dropped).
fn yaml_to_json(value: &serde_norway::Value) -> Value {
    use serde_norway::Value as Y;
    match value {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(*b),
        Y::Number(n) => serde_json::to_value(n).unwrap_or(Value::Null),
        Y::String(s) => Value::String(s.clone()),
        Y::Sequence(items) => Value::Array(items.iter().map(yaml_to_json).collect()),
        Y::Mapping(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let key = match k {
                        Y::String(s) => s.clone(),
                        other => serde_norway::to_string(other)
                            .unwrap_or_default()
                            .trim()
                            .to_string(),
                    };
                    (key, yaml_to_json(v))
                })
                .collect(),
        ),
        Y::Tagged(tagged) => yaml_to_json(&tagged.value),
    }
}

/// Checks one skill folder against the specification. `read` is its
/// SKILL.md as read by the caller (`None`: missing; `Err`: why it could
/// not be read safely — a symlink, a fifo, over the cap). `folder` is the
/// folder's name (the `name` must equal it); `label` prefixes file names
/// in findings.
pub fn lint_dir(
    read: Result<Option<Vec<u8>>, String>,
    dir: &Path,
    folder: &str,
    label: &str,
) -> Vec<Finding> {
    let file = format!("{label}/{SKILL_FILE}");
    let text = match read {
        Ok(Some(bytes)) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                return vec![finding(
                    "not-utf8",
                    &file,
                    0,
                    "SKILL.md is not valid UTF-8".into(),
                )];
            }
        },
        Ok(None) => {
            return vec![finding(
                "missing-skill-md",
                &file,
                0,
                format!("the skill folder {label} has no SKILL.md"),
            )];
        }
        Err(why) => {
            return vec![finding(
                "unreadable",
                &file,
                0,
                format!("SKILL.md is not read: {why}"),
            )];
        }
    };
    match parse(&text, &file) {
        Err(f) => vec![f],
        Ok(doc) => lint_doc(&doc, dir, folder, &file),
    }
}

fn finding(rule: &'static str, file: &str, line: usize, message: String) -> Finding {
    Finding {
        rule,
        severity: "error",
        file: file.to_string(),
        line,
        message,
    }
}

/// The checks on a parsed SKILL.md.
pub fn lint_doc(doc: &SkillDoc, dir: &Path, folder: &str, file: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut push = |rule, line, message: String| out.push(finding(rule, file, line, message));
    match doc.front.get("name") {
        None => push("name-missing", 1, "the front matter has no 'name'".into()),
        Some(Value::String(name)) => {
            let line = doc.line_of("name");
            if name.is_empty() || name.chars().count() > MAX_NAME {
                push(
                    "name-length",
                    line,
                    format!(
                        "'name' is {} characters; it must be 1-{MAX_NAME}",
                        name.chars().count()
                    ),
                );
            }
            if !name.is_empty() && !crate::slug::is_slug(name) {
                push(
                    "name-format",
                    line,
                    format!("'name' {name:?} breaks the rule: {NAME_RULE}"),
                );
            }
            if name != folder {
                push(
                    "name-folder-mismatch",
                    line,
                    format!("'name' {name:?} differs from its folder's name {folder:?}"),
                );
            }
        }
        Some(_) => push(
            "name-format",
            doc.line_of("name"),
            "'name' must be a string".into(),
        ),
    }
    match doc.front.get("description") {
        None => push(
            "description-missing",
            1,
            "the front matter has no 'description'".into(),
        ),
        Some(Value::String(d)) => {
            let n = d.trim().chars().count();
            if n == 0 || d.chars().count() > MAX_DESCRIPTION {
                push(
                    "description-length",
                    doc.line_of("description"),
                    format!(
                        "'description' is {} characters; it must be 1-{MAX_DESCRIPTION}",
                        d.chars().count()
                    ),
                );
            }
        }
        Some(_) => push(
            "description-length",
            doc.line_of("description"),
            "'description' must be a string".into(),
        ),
    }
    if let Some(c) = doc.front.get("compatibility") {
        let n = c.as_str().map(|s| s.chars().count());
        if n.is_none_or(|n| n == 0 || n > MAX_COMPATIBILITY) {
            push(
                "compatibility-length",
                doc.line_of("compatibility"),
                format!("'compatibility' must be a string of 1-{MAX_COMPATIBILITY} characters"),
            );
        }
    }
    if let Some(l) = doc.front.get("license")
        && !l.is_string()
    {
        push(
            "license-type",
            doc.line_of("license"),
            "'license' must be a string".into(),
        );
    }
    if let Some(m) = doc.front.get("metadata") {
        let ok = m
            .as_object()
            .is_some_and(|map| map.values().all(Value::is_string));
        if !ok {
            push(
                "metadata-not-string-map",
                doc.line_of("metadata"),
                "'metadata' must map string keys to string values (quote numbers and booleans)"
                    .into(),
            );
        }
    }
    if let Some(t) = doc.front.get("allowed-tools")
        && !t.is_string()
    {
        push(
            "allowed-tools-type",
            doc.line_of("allowed-tools"),
            "'allowed-tools' must be one space-separated string (\"Bash(git:*) Read\")".into(),
        );
    }
    // one lookup per key (a front matter may have tens of thousands)
    let key_lines: std::collections::HashMap<&str, usize> = doc
        .key_lines
        .iter()
        .rev()
        .map(|(k, l)| (k.as_str(), *l))
        .collect();
    for key in doc.front.keys() {
        if !KNOWN_KEYS.contains(&key.as_str()) {
            out.push(Finding {
                rule: "unknown-key",
                severity: "warning",
                file: file.to_string(),
                line: key_lines.get(key.as_str()).copied().unwrap_or(1),
                message: format!(
                    "unknown front-matter key {key:?}; the spec knows {}; put extra fields under 'metadata'",
                    KNOWN_KEYS.join(", ")
                ),
            });
        }
    }
    let body_lines = doc.body.lines().count();
    if body_lines > MAX_BODY_LINES {
        out.push(Finding {
            rule: "body-too-long",
            severity: "warning",
            file: file.to_string(),
            line: doc.body_line + MAX_BODY_LINES,
            message: format!(
                "the body is {body_lines} lines; the spec recommends under {MAX_BODY_LINES}: move details to references/"
            ),
        });
    }
    for (offset, line) in doc.body.lines().enumerate() {
        for rel in referenced_files(line) {
            let path = dir.join(&rel);
            if !path.exists() {
                out.push(finding(
                    "missing-reference",
                    file,
                    doc.body_line + offset,
                    format!("the body refers to {rel}, which the skill does not have"),
                ));
            }
        }
    }
    out
}

/// Relative files a body line refers to: markdown link targets and
/// `scripts/…`, `references/…`, `assets/…` paths.
pub fn referenced_files(line: &str) -> Vec<String> {
    static LINK: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\]\(([^)\s#?]+)(?:[#?][^)]*)?\)").expect("link regex"));
    static PATH: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:^|[\s`(\x22'])((?:\./)?(?:scripts|references|assets)/[A-Za-z0-9._/-]*[A-Za-z0-9_-])")
            .expect("path regex")
    });
    let mut out: Vec<String> = Vec::new();
    for cap in LINK.captures_iter(line) {
        let target = &cap[1];
        if target.contains("://") || target.starts_with("mailto:") || target.starts_with('/') {
            continue;
        }
        out.push(target.trim_start_matches("./").to_string());
    }
    for cap in PATH.captures_iter(line) {
        let target = cap[1].trim_start_matches("./").to_string();
        if !out.contains(&target) {
            out.push(target);
        }
    }
    out.retain(|t| !t.split('/').any(|c| c == ".."));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_yaml_reports_its_file_line() {
        let text = "---\nname: x\ndescription: [unclosed\n---\nbody\n";
        let err = parse(text, "x/SKILL.md").unwrap_err();
        assert_eq!(err.rule, "yaml-syntax");
        assert!(err.line >= 3, "{err:?}");
    }

    #[test]
    fn references_are_found_and_urls_skipped() {
        let refs = referenced_files(
            "Run `scripts/run.sh` then see [the guide](references/guide.md) or https://x.y/assets/a",
        );
        assert_eq!(refs, vec!["references/guide.md", "scripts/run.sh"]);
    }

    #[test]
    fn a_long_body_is_a_warning_at_its_501st_line() {
        let text = format!("---\nname: a\ndescription: b\n---\n{}", "x\n".repeat(501));
        let doc = parse(&text, "a/SKILL.md").unwrap();
        let f = lint_doc(&doc, Path::new("/nonexistent"), "a", "a/SKILL.md");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            (f[0].rule, f[0].severity, f[0].line),
            ("body-too-long", "warning", 505)
        );
    }

    #[test]
    fn rename_changes_the_name_value_alone() {
        let cases = [
            (
                "---\nname:\n  a-b # c\ndescription: d\n---\nbody\n",
                "---\nname:\n  \"x-y\" # c\ndescription: d\n---\nbody\n",
            ),
            (
                "---\n{description: d, name: a-b}\n---\n",
                "---\n{description: d, name: \"x-y\"}\n---\n",
            ),
            (
                "---\n# top\ndescription: d\n---\n",
                "---\n# top\nname: \"x-y\"\ndescription: d\n---\n",
            ),
            (
                "---\n{description: d}\n---\n",
                "---\n{name: \"x-y\", description: d}\n---\n",
            ),
            (
                "---\nname: >\n  a-b\ndescription: d\n---\n",
                "---\nname: \"x-y\"\ndescription: d\n---\n",
            ),
        ];
        for (before, after) in cases {
            assert_eq!(rename(before, "x-y").unwrap(), after);
        }
        let anchored = "---\nname: &n a-b\ndescription: *n\n---\n";
        assert!(rename(anchored, "x-y").is_err());
        let aliased = "---\nd: &n a-b\nname: *n\ndescription: d\n---\n";
        assert!(rename(aliased, "x-y").is_err());
    }

    #[test]
    fn body_line_counts_the_front_matter() {
        let doc = parse("---\nname: a\ndescription: b\n---\n\n# Title\n", "f").unwrap();
        assert_eq!(doc.body_line, 6);
        assert_eq!(doc.line_of("description"), 3);
    }
}
