//! `knowledge lint`: what is wrong across the notes — unreadable files,
//! links to missing notes, duplicates, and claims that contradict each other.

use super::note::{Note, normalize_value};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A note file that could not be loaded.
#[derive(Debug, Clone)]
pub struct Broken {
    /// The file name (`<slug>.md`).
    pub file: String,
    pub message: String,
    /// The 1-based line of the problem, when there is one.
    pub line: Option<u64>,
}

impl Broken {
    pub fn to_json(&self) -> Value {
        json!({"file": self.file, "message": self.message, "line": self.line})
    }
}

/// One problem `lint` found.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// `unparsable`, `broken_link`, `duplicate_title`, `duplicate_body` or `contradiction`.
    pub kind: &'static str,
    pub message: String,
    /// The notes (slugs, or file names for unparsable files) involved.
    pub notes: Vec<String>,
    /// Kind-specific facts: `line`, `link`, `key` and `claims`.
    pub detail: Value,
}

impl Finding {
    pub fn to_json(&self) -> Value {
        json!({
            "kind": self.kind,
            "message": self.message,
            "notes": self.notes,
            "detail": self.detail,
        })
    }
}

fn flat(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Every finding, in a stable order: unparsable, broken links, duplicates,
/// contradictions; within a kind by note.
pub fn check(notes: &[Note], broken: &[Broken]) -> Vec<Finding> {
    let mut sorted: Vec<&Note> = notes.iter().collect();
    sorted.sort_by(|a, b| a.slug.cmp(&b.slug));
    let notes = sorted;
    let mut findings = Vec::new();
    for b in broken {
        findings.push(Finding {
            kind: "unparsable",
            message: b.message.clone(),
            notes: vec![b.file.clone()],
            detail: json!({"line": b.line}),
        });
    }
    let slugs: Vec<&str> = notes.iter().map(|n| n.slug.as_str()).collect();
    let broken_slugs: Vec<&str> = broken
        .iter()
        .filter_map(|b| b.file.strip_suffix(".md"))
        .collect();
    for note in &notes {
        for link in &note.links {
            if link == &note.slug {
                findings.push(Finding {
                    kind: "broken_link",
                    message: format!("'{}' links to itself", note.slug),
                    notes: vec![note.slug.clone()],
                    detail: json!({"link": link}),
                });
            } else if !slugs.contains(&link.as_str()) && !broken_slugs.contains(&link.as_str()) {
                findings.push(Finding {
                    kind: "broken_link",
                    message: format!("'{}' links to '{link}', which does not exist", note.slug),
                    notes: vec![note.slug.clone()],
                    detail: json!({"link": link}),
                });
            }
        }
    }
    let mut titles: BTreeMap<String, Vec<&Note>> = BTreeMap::new();
    let mut bodies: BTreeMap<String, Vec<&Note>> = BTreeMap::new();
    for &note in &notes {
        titles.entry(flat(&note.title)).or_default().push(note);
        let body = flat(&note.body);
        if !body.is_empty() {
            bodies.entry(body).or_default().push(note);
        }
    }
    for group in titles.values().filter(|g| g.len() > 1) {
        let names: Vec<String> = group.iter().map(|n| n.slug.clone()).collect();
        findings.push(Finding {
            kind: "duplicate_title",
            message: format!(
                "{} notes have the title \"{}\": {}",
                group.len(),
                group[0].title,
                names.join(", ")
            ),
            notes: names,
            detail: json!({"title": group[0].title}),
        });
    }
    for group in bodies.values().filter(|g| g.len() > 1) {
        let names: Vec<String> = group.iter().map(|n| n.slug.clone()).collect();
        findings.push(Finding {
            kind: "duplicate_body",
            message: format!(
                "{} notes have the same body: {}",
                group.len(),
                names.join(", ")
            ),
            notes: names,
            detail: json!({}),
        });
    }
    let mut claims: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
    for note in &notes {
        for claim in &note.claims {
            claims
                .entry(claim.key.as_str())
                .or_default()
                .push((note.slug.as_str(), claim.value.as_str()));
        }
    }
    for (key, said) in claims {
        let mut values: Vec<String> = said.iter().map(|(_, v)| normalize_value(v)).collect();
        values.sort();
        values.dedup();
        if values.len() < 2 {
            continue;
        }
        let names: Vec<String> = said.iter().map(|(s, _)| s.to_string()).collect();
        let listed: Vec<String> = said
            .iter()
            .map(|(s, v)| format!("{s} says '{v}'"))
            .collect();
        findings.push(Finding {
            kind: "contradiction",
            message: format!("the claim '{key}' is contradicted: {}", listed.join(", ")),
            notes: names,
            detail: json!({
                "key": key,
                "claims": said.iter().map(|(s, v)| json!({"note": s, "value": v})).collect::<Vec<_>>(),
            }),
        });
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::super::note::Claim;
    use super::*;

    fn note(slug: &str, title: &str, body: &str, links: &[&str], claims: &[(&str, &str)]) -> Note {
        Note {
            slug: slug.into(),
            title: title.into(),
            tags: vec![],
            sources: vec![],
            links: links.iter().map(|s| s.to_string()).collect(),
            claims: claims
                .iter()
                .map(|(k, v)| Claim {
                    key: k.to_string(),
                    value: v.to_string(),
                })
                .collect(),
            created: String::new(),
            updated: String::new(),
            rev: 1,
            body: body.into(),
            extra: vec![],
        }
    }

    #[test]
    fn finds_each_kind_once() {
        let notes = vec![
            note(
                "a",
                "Go style",
                "use gofmt",
                &["b", "missing", "bad"],
                &[("go.fmt", "gofmt")],
            ),
            note("b", "go  STYLE", "other", &["a"], &[("go.fmt", "GoFmt.")]),
            note(
                "c",
                "C",
                "Use   gofmt",
                &["c"],
                &[("go.fmt", "goimports"), ("x", "1")],
            ),
            note("d", "D", "", &[], &[]),
            note("e", "E", "", &[], &[]),
        ];
        let broken = vec![Broken {
            file: "bad.md".into(),
            message: "bad.md:3: nope".into(),
            line: Some(3),
        }];
        let findings = check(&notes, &broken);
        let kinds: Vec<&str> = findings.iter().map(|f| f.kind).collect();
        assert_eq!(
            kinds,
            [
                "unparsable",
                "broken_link",
                "broken_link",
                "duplicate_title",
                "duplicate_body",
                "contradiction"
            ]
        );
        assert_eq!(findings[1].detail["link"], "missing");
        assert_eq!(findings[2].notes, ["c"]);
        assert_eq!(findings[3].notes, ["a", "b"]);
        assert_eq!(findings[4].notes, ["a", "c"]);
        assert_eq!(findings[5].notes, ["a", "b", "c"]);
        assert_eq!(findings[5].detail["key"], "go.fmt");
        assert!(check(&notes[3..], &[]).is_empty());
    }
}
