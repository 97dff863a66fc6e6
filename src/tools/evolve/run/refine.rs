//! Refinement through the model route: one call per batch reviews the
//! batch's preference and knowledge candidates (keep, reword, drop). Any
//! failure leaves the deterministic candidates as they are.

use super::super::{Candidate, Kind, Payload};
use crate::error::{Error, ErrorType, Result};
use serde_json::{Value, json};
use std::collections::HashMap;

/// Longest reworded fact or title, and body, accepted from a reply.
const MAX_LINE: usize = 300;
const MAX_BODY: usize = 20_000;

/// Whether the candidate is one the model reviews.
pub fn reviewed(c: &Candidate) -> bool {
    matches!(c.kind, Kind::Preference | Kind::Knowledge)
}

/// The prompt for the reviewed candidates of a batch (`None` when there are none).
pub fn prompt(candidates: &[Candidate]) -> Option<String> {
    let findings: Vec<Value> = candidates
        .iter()
        .filter(|c| reviewed(c))
        .map(|c| {
            let excerpts: Vec<&str> = c
                .evidence
                .iter()
                .take(3)
                .map(|e| e.excerpt.as_str())
                .collect();
            let mut f = json!({"key": c.key, "kind": c.kind.as_str(), "title": c.title});
            match &c.payload {
                Payload::Preference(p) => f["fact"] = json!(p.fact),
                Payload::Knowledge(k) => f["body"] = json!(truncate(&k.body, 2000)),
                Payload::Skill(_) => {}
            }
            f["excerpts"] = json!(excerpts);
            f
        })
        .collect();
    if findings.is_empty() {
        return None;
    }
    let listing = serde_json::to_string_pretty(&findings).unwrap_or_default();
    Some(format!(
        "You review findings mined from an AI coding agent's recorded conversations. \
A `preference` finding is a line for the user's profile (how the user wants things done); \
a `knowledge` finding is a note about a failure that recurred and the fix that followed.\n\n\
Keep only findings that are durable and useful to the agent in later work; drop one-offs, \
noise and anything that is not really a preference or a lesson. You may reword a \
preference's `fact` (one short imperative line) or a note's `title` and `body` (markdown) \
to be clear and concise; never invent facts that the excerpts do not support.\n\n\
Reply with JSON only, no prose, in exactly this shape (leave a finding out to drop it):\n\
{{\"keep\": [{{\"key\": \"<key>\", \"fact\": \"<optional rewording>\"}}, \
{{\"key\": \"<key>\", \"title\": \"<optional>\", \"body\": \"<optional>\"}}]}}\n\n\
Findings:\n{listing}\n"
    ))
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max).collect();
    cut.push('…');
    cut
}

/// An unusable reply.
fn unusable(why: impl Into<String>) -> Error {
    Error::new(
        ErrorType::Upstream,
        format!("the model's review is unusable: {}", why.into()),
    )
}

/// A non-empty single-line string field of a kept item, bounded.
fn text_field(item: &Value, key: &str, max: usize) -> Option<String> {
    let s = item.get(key)?.as_str()?.trim();
    if s.is_empty() {
        return None;
    }
    Some(truncate(s, max))
}

/// Applies a reply to the reviewed candidates: rewords the kept ones and
/// removes the dropped ones from `candidates`, returning the dropped keys.
/// A reply that is not the asked JSON changes nothing and is an error.
pub fn apply(candidates: &mut Vec<Candidate>, reply: &str) -> Result<Vec<(Kind, String)>> {
    let (start, end) = match (reply.find('{'), reply.rfind('}')) {
        (Some(s), Some(e)) if s < e => (s, e),
        _ => return Err(unusable("no JSON object in the reply")),
    };
    let value: Value =
        serde_json::from_str(&reply[start..=end]).map_err(|e| unusable(e.to_string()))?;
    let keep = value
        .get("keep")
        .and_then(Value::as_array)
        .ok_or_else(|| unusable("no \"keep\" array"))?;
    let mut kept: HashMap<&str, &Value> = HashMap::new();
    for item in keep {
        match item.get("key").and_then(Value::as_str) {
            Some(key) => {
                kept.insert(key, item);
            }
            None => return Err(unusable("an item of \"keep\" has no \"key\"")),
        }
    }
    let mut dropped = Vec::new();
    candidates.retain_mut(|c| {
        if !reviewed(c) {
            return true;
        }
        let Some(item) = kept.get(c.key.as_str()) else {
            dropped.push((c.kind, c.key.clone()));
            return false;
        };
        match &mut c.payload {
            Payload::Preference(p) => {
                if let Some(fact) = text_field(item, "fact", MAX_LINE) {
                    p.fact = fact.replace(['\n', '\r'], " ");
                    // the title says what will be written, as the miner's does
                    c.title = format!("Preference: {}", p.fact);
                }
            }
            Payload::Knowledge(k) => {
                if let Some(title) = text_field(item, "title", MAX_LINE) {
                    k.title = title.replace(['\n', '\r'], " ");
                    c.title = k.title.clone();
                }
                if let Some(body) = text_field(item, "body", MAX_BODY) {
                    k.body = body;
                }
            }
            Payload::Skill(_) => {}
        }
        true
    });
    Ok(dropped)
}

#[cfg(test)]
mod tests {
    use super::super::super::{Evidence, KnowledgePayload, PreferencePayload, SkillPayload};
    use super::*;

    pub fn candidates() -> Vec<Candidate> {
        let ev = |ex: &str| Evidence {
            session: "s".into(),
            episode: "ep-20260101T000000Z-1".into(),
            turn: "ep-20260101T000000Z-1#1".into(),
            excerpt: ex.into(),
        };
        vec![
            Candidate {
                kind: Kind::Preference,
                key: "pref:use pnpm".into(),
                title: "Preference: use pnpm".into(),
                confidence: 0.6,
                evidence: vec![ev("no, use pnpm")],
                payload: Payload::Preference(PreferencePayload {
                    section: "preferences".into(),
                    fact: "use pnpm".into(),
                }),
            },
            Candidate {
                kind: Kind::Knowledge,
                key: "fail:cargo:linker".into(),
                title: "Recurring failure: cargo".into(),
                confidence: 0.5,
                evidence: vec![ev("error: linker `cc` not found")],
                payload: Payload::Knowledge(KnowledgePayload {
                    slug: "failure-cargo".into(),
                    title: "Recurring failure: cargo".into(),
                    tags: vec![],
                    body: "It fails.".into(),
                }),
            },
            Candidate {
                kind: Kind::Skill,
                key: "seq:a > b > c".into(),
                title: "Skill".into(),
                confidence: 0.7,
                evidence: vec![],
                payload: Payload::Skill(SkillPayload {
                    steps: vec!["a".into(), "b".into(), "c".into()],
                    episode: "ep-20260101T000000Z-1".into(),
                    name: "a-b-c".into(),
                    description: "d".into(),
                    skill_md: None,
                    screen: None,
                }),
            },
        ]
    }

    #[test]
    fn the_prompt_lists_only_reviewed_findings() {
        let c = candidates();
        let p = prompt(&c).unwrap();
        assert!(p.contains("pref:use pnpm") && p.contains("fail:cargo:linker"));
        assert!(p.contains("no, use pnpm"));
        assert!(!p.contains("seq:a > b > c"));
        assert!(prompt(&c[2..]).is_none());
    }

    #[test]
    fn replies_reword_and_drop() {
        let mut c = candidates();
        let reply = "```json\n{\"keep\": [{\"key\": \"pref:use pnpm\", \"fact\": \"Use pnpm, not npm\"}, {\"key\": \"unknown\"}]}\n```";
        let dropped = apply(&mut c, reply).unwrap();
        assert_eq!(
            dropped,
            vec![(Kind::Knowledge, "fail:cargo:linker".to_string())]
        );
        assert_eq!(c.len(), 2);
        match &c[0].payload {
            Payload::Preference(p) => assert_eq!(p.fact, "Use pnpm, not npm"),
            other => panic!("{other:?}"),
        }
        // the title follows the rewording: a list shows what will be written
        assert_eq!(c[0].title, "Preference: Use pnpm, not npm");
        assert_eq!(c[1].kind, Kind::Skill);

        let mut c = candidates();
        let reply = r#"{"keep":[{"key":"fail:cargo:linker","title":"Linker missing","body":"Install cc."},{"key":"pref:use pnpm","fact":""}]}"#;
        assert!(apply(&mut c, reply).unwrap().is_empty());
        assert_eq!(c[1].title, "Linker missing");
        match (&c[0].payload, &c[1].payload) {
            (Payload::Preference(p), Payload::Knowledge(k)) => {
                assert_eq!(p.fact, "use pnpm");
                assert_eq!(k.body, "Install cc.");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unusable_replies_change_nothing() {
        for reply in [
            "I think they are all fine.",
            "{\"keep\": 3}",
            "{\"keep\": [{\"fact\": \"x\"}]}",
            "{broken",
        ] {
            let mut c = candidates();
            assert!(apply(&mut c, reply).is_err(), "{reply}");
            assert_eq!(c, candidates());
        }
    }
}
