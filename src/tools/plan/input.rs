//! Plan files given to `plan create --file`: a JSON plan or a markdown checklist.
//! Problems name the file and line.

use super::doc::StepStatus;
use crate::error::{Error, Result};
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::fmt;

/// A step as written in a plan file.
#[derive(Debug, Clone, PartialEq)]
pub struct StepInput {
    pub text: String,
    pub status: StepStatus,
    pub note: Option<String>,
}

/// A plan as written in a plan file.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct PlanInput {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub id: Option<String>,
    pub steps: Vec<StepInput>,
}

impl<'de> Deserialize<'de> for StepInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StepVisitor;
        impl<'de> Visitor<'de> for StepVisitor {
            type Value = StepInput;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a step: a string, or an object with \"text\" (and optional \"status\", \"note\")")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<StepInput, E> {
                Ok(StepInput {
                    text: text.to_string(),
                    status: StepStatus::Pending,
                    note: None,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StepInput, A::Error> {
                let mut text = None;
                let mut status = None;
                let mut note = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "text" => text = Some(map.next_value::<String>()?),
                        "status" => status = Some(map.next_value::<StepStatus>()?),
                        "note" => note = map.next_value::<Option<String>>()?,
                        _ => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(StepInput {
                    text: text.ok_or_else(|| de::Error::missing_field("text"))?,
                    status: status.unwrap_or(StepStatus::Pending),
                    note,
                })
            }
        }
        deserializer.deserialize_any(StepVisitor)
    }
}

/// Parses a plan file: JSON when it looks like JSON (a `.json` name or a
/// leading `{`), a markdown checklist otherwise.
pub fn parse(text: &str, name: &str) -> Result<PlanInput> {
    if name.ends_with(".json") || text.trim_start().starts_with('{') {
        parse_json(text, name)
    } else {
        parse_markdown(text, name)
    }
}

fn problem(name: &str, line: usize, message: impl Into<String>) -> Error {
    let message = message.into();
    Error::invalid_args(format!("{name}:{line}: {message}"))
        .with_detail("path", name)
        .with_detail("line", line)
}

fn parse_json(text: &str, name: &str) -> Result<PlanInput> {
    serde_json::from_str::<PlanInput>(text).map_err(|e| {
        problem(name, e.line(), e.to_string())
            .with_detail("column", e.column())
            .with_hint("a JSON plan is {\"title\": \"…\", \"steps\": [\"step\", {\"text\": \"…\", \"status\": \"done\"}]}")
    })
}

/// The status a markdown checkbox stands for.
fn checkbox_status(mark: char) -> Option<StepStatus> {
    match mark {
        ' ' => Some(StepStatus::Pending),
        'x' | 'X' => Some(StepStatus::Done),
        '>' | '~' => Some(StepStatus::InProgress),
        '!' => Some(StepStatus::Blocked),
        _ => None,
    }
}

/// The text after a list marker (`- `, `* `, `+ `, `1. `, `1) `), if any.
fn list_item(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    if let Some(rest) = trimmed
        .strip_prefix("- ")
        .or_else(|| trimmed.strip_prefix("* "))
        .or_else(|| trimmed.strip_prefix("+ "))
    {
        return Some(rest);
    }
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        let rest = &trimmed[digits..];
        return rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") "));
    }
    None
}

/// A markdown checklist: the first `# ` heading is the title, `- [ ] text`
/// items are steps (`[x]` done, `[>]`/`[~]` in progress, `[!]` blocked), lines
/// indented under an item are its note; other prose is ignored.
fn parse_markdown(text: &str, name: &str) -> Result<PlanInput> {
    let hint =
        "write steps as `- [ ] step` ([x] done, [>] in progress, [!] blocked) under a `# Title`";
    let mut plan = PlanInput::default();
    let mut in_fence = false;
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        last_line = n;
        let line = raw.trim_end();
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || line.trim().is_empty() {
            continue;
        }
        if let Some(title) = line.strip_prefix("# ") {
            if plan.title.is_none() {
                plan.title = Some(title.trim().to_string());
            }
            continue;
        }
        let indented = raw.starts_with("  ") || raw.starts_with('\t');
        if let Some(item) = list_item(line).filter(|_| !indented || plan.steps.is_empty()) {
            let Some(rest) = item.strip_prefix('[') else {
                return Err(problem(
                    name,
                    n,
                    format!("list item without a checkbox: {}", line.trim()),
                )
                .with_hint(hint));
            };
            let mut chars = rest.chars();
            let (Some(mark), Some(']')) = (chars.next(), chars.next()) else {
                return Err(
                    problem(name, n, format!("malformed checkbox: {}", line.trim()))
                        .with_hint(hint),
                );
            };
            let Some(status) = checkbox_status(mark) else {
                return Err(
                    problem(name, n, format!("unknown checkbox '[{mark}]'")).with_hint(hint)
                );
            };
            let step_text = chars.as_str().trim();
            if step_text.is_empty() {
                return Err(problem(name, n, "a step has no text").with_hint(hint));
            }
            plan.steps.push(StepInput {
                text: step_text.to_string(),
                status,
                note: None,
            });
            continue;
        }
        if indented && let Some(step) = plan.steps.last_mut() {
            let piece = line.trim();
            let piece = piece.strip_prefix("note:").map(str::trim).unwrap_or(piece);
            step.note = Some(match step.note.take() {
                Some(note) => format!("{note}\n{piece}"),
                None => piece.to_string(),
            });
        }
    }
    if in_fence {
        return Err(problem(name, last_line, "a code fence (```) is never closed").with_hint(hint));
    }
    if plan.steps.is_empty() {
        return Err(problem(name, last_line.max(1), "no steps found").with_hint(hint));
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_checklist_with_statuses_and_notes() {
        let plan = parse(
            "# Ship v1\n\nSome prose.\n\n- [x] build\n- [>] test\n  note: flaky on CI\n* [ ] release\n1. [!] announce\n",
            "plan.md",
        )
        .unwrap();
        assert_eq!(plan.title.as_deref(), Some("Ship v1"));
        let got: Vec<_> = plan
            .steps
            .iter()
            .map(|s| (s.text.as_str(), s.status))
            .collect();
        assert_eq!(
            got,
            vec![
                ("build", StepStatus::Done),
                ("test", StepStatus::InProgress),
                ("release", StepStatus::Pending),
                ("announce", StepStatus::Blocked),
            ]
        );
        assert_eq!(plan.steps[1].note.as_deref(), Some("flaky on CI"));
    }

    #[test]
    fn markdown_problems_name_the_line() {
        for (text, line, needle) in [
            ("# T\n- [ ] a\n- [q] b\n", 3, "unknown checkbox"),
            ("# T\n- plain item\n", 2, "without a checkbox"),
            ("# T\n- [ ]\n", 2, "no text"),
            ("# T\n- [x\n", 2, "malformed"),
            ("# T\njust prose\n", 2, "no steps"),
            ("# T\n```\n- [ ] a\n", 3, "never closed"),
        ] {
            let err = parse(text, "p.md").unwrap_err();
            assert_eq!(err.detail["line"], line, "{text:?}: {}", err.message);
            assert!(err.message.contains(needle), "{}", err.message);
        }
    }

    #[test]
    fn json_plans_accept_strings_and_objects() {
        let plan = parse(
            r#"{"title": "T", "steps": ["a", {"text": "b", "status": "done", "note": "n", "extra": 1}]}"#,
            "p.json",
        )
        .unwrap();
        assert_eq!(plan.steps[1].status, StepStatus::Done);
        assert_eq!(plan.steps[1].note.as_deref(), Some("n"));
    }

    #[test]
    fn json_problems_name_line_and_column() {
        let err = parse(
            "{\n \"title\": \"T\",\n \"steps\": [{\"text\": \"a\", \"status\": \"finished\"}]\n}",
            "p.json",
        )
        .unwrap_err();
        assert_eq!(err.detail["line"], 3);
        assert!(err.message.contains("finished"), "{}", err.message);
        let err = parse("{\"title\": \"T\"}", "p.json").unwrap_err();
        assert!(err.message.contains("steps"), "{}", err.message);
        let err = parse("{\"steps\": [{\"status\": \"done\"}]}", "p.json").unwrap_err();
        assert!(err.message.contains("text"), "{}", err.message);
    }
}
