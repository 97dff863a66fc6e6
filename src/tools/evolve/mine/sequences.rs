//! Repeated tool sequences → skill candidates.
//!
//! An episode's sequence is the ordered names of its tool calls: those of the
//! assistant turns, and those a `tool` turn carries itself (an imported odek
//! run has no assistant turns; each tool turn holds its call). A call id seen
//! twice in an episode (the assistant's call and the tool turn answering it)
//! counts once.

use super::{Candidate, Kind, MAX_EXCERPT, Payload, Seen, SkillPayload, shorten};
use crate::tools::track::episodes::Turn;
use std::collections::HashSet;

/// Shortest and longest sequence mined.
pub const MIN_STEPS: usize = 3;
pub const MAX_STEPS: usize = 6;
/// Longest skill name (Agent Skills rule).
const MAX_NAME: usize = 64;
/// Longest skill description (Agent Skills rule).
const MAX_DESCRIPTION: usize = 1024;
/// What joins the steps of a key.
const JOIN: &str = " > ";

/// The ordered tool calls of an episode: (name, id of the turn holding it).
fn calls(turns: &[Turn]) -> Vec<(String, &str)> {
    let mut ids: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for turn in turns {
        if turn.role != "assistant" && turn.role != "tool" {
            continue;
        }
        for call in &turn.tool_calls {
            if !call.id.is_empty() && !ids.insert(call.id.as_str()) {
                continue;
            }
            let name = call.name.trim();
            if name.is_empty() {
                continue;
            }
            // The separator cannot be part of a step.
            out.push((name.replace(JOIN, ">"), turn.id.as_str()));
        }
    }
    out
}

/// The distinct, non-degenerate 3–6 step windows of an episode as keys
/// (`seq:a > b > c`), each with the turn where it first starts.
pub(super) fn windows(turns: &[Turn]) -> Vec<(String, String)> {
    let calls = calls(turns);
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for len in MIN_STEPS..=MAX_STEPS.min(calls.len()) {
        for window in calls.windows(len) {
            if window.iter().all(|(name, _)| *name == window[0].0) {
                continue;
            }
            let mut key = String::from("seq:");
            for (i, (name, _)) in window.iter().enumerate() {
                if i > 0 {
                    key.push_str(JOIN);
                }
                key.push_str(name);
            }
            if seen.insert(key.clone()) {
                out.push((key, window[0].1.to_string()));
            }
        }
    }
    out
}

/// The steps of a key.
pub(super) fn steps(key: &str) -> Vec<&str> {
    key.strip_prefix("seq:")
        .unwrap_or(key)
        .split(JOIN)
        .collect()
}

/// The two one-step-shorter keys a key contains (none for a 3-step key).
pub(super) fn children(key: &str) -> Vec<String> {
    let steps = steps(key);
    if steps.len() <= MIN_STEPS {
        return Vec::new();
    }
    let n = steps.len();
    vec![
        format!("seq:{}", steps[1..].join(JOIN)),
        format!("seq:{}", steps[..n - 1].join(JOIN)),
    ]
}

/// The task of an episode: the first line of its first user turn, short.
pub(super) fn task(turns: &[Turn]) -> String {
    turns
        .iter()
        .filter(|t| t.role == "user")
        .flat_map(|t| t.content.lines())
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| shorten(&l.split_whitespace().collect::<Vec<_>>().join(" "), 60))
        .unwrap_or_default()
}

/// A valid Agent Skills name from the steps: each tool name as a slug,
/// joined by `-`; over 64 characters, the steps with the most words lose
/// their last words first (`kubernetes-get-pods` → `kubernetes-get`), and
/// single words still too long are cut.
pub fn skill_name(steps: &[&str]) -> String {
    let mut parts: Vec<Vec<String>> = steps
        .iter()
        .map(|s| {
            crate::slug::slugify(s, MAX_NAME, "step")
                .split('-')
                .map(str::to_string)
                .collect()
        })
        .collect();
    let len = |parts: &[Vec<String>]| -> usize {
        let words: usize = parts
            .iter()
            .map(|p| p.iter().map(|w| w.len() + 1).sum::<usize>())
            .sum();
        words.saturating_sub(1)
    };
    while len(&parts) > MAX_NAME {
        // The step with the most words, then the longest, then the last.
        let Some(at) = (0..parts.len())
            .filter(|&i| parts[i].len() > 1)
            .max_by_key(|&i| {
                (
                    parts[i].len(),
                    parts[i].iter().map(String::len).sum::<usize>(),
                    i,
                )
            })
        else {
            break;
        };
        parts[at].pop();
    }
    if len(&parts) > MAX_NAME {
        let share = ((MAX_NAME + 1) / parts.len()).saturating_sub(1).max(1);
        for p in &mut parts {
            p[0].truncate(share);
        }
    }
    let name = parts
        .iter()
        .map(|p| p.join("-"))
        .collect::<Vec<_>>()
        .join("-");
    if crate::slug::is_slug(&name) && name.len() <= MAX_NAME {
        name
    } else {
        "tool-sequence".to_string()
    }
}

/// What the skill does and when to use it, for its front matter.
pub fn description(steps: &[&str], episodes: u32, task: &str) -> String {
    let names: Vec<String> = steps.iter().map(|s| shorten(s, 60)).collect();
    let mut text = format!("Runs {}", names[0]);
    for name in &names[1..] {
        text.push_str(", then ");
        text.push_str(name);
    }
    text.push_str(". Use when ");
    if task.is_empty() {
        text.push_str("the same steps are needed again");
    } else {
        text.push_str(&format!("a task like \"{task}\" comes up"));
    }
    text.push_str(&format!(" (seen in {episodes} episodes)."));
    shorten(&text, MAX_DESCRIPTION)
}

/// The candidate for a due sequence.
pub(super) fn candidate(
    key: &str,
    episodes: u32,
    seen: &[Seen],
    best: &str,
    task: &str,
) -> Candidate {
    let steps = steps(key);
    let shown = steps.join(JOIN);
    let excerpt = shorten(&shown, MAX_EXCERPT);
    let confidence = 0.5
        + 0.1 * f64::from(episodes - super::SEQ_MIN_EPISODES)
        + 0.02 * (steps.len() - MIN_STEPS) as f64;
    Candidate {
        kind: Kind::Skill,
        key: key.to_string(),
        title: format!("Repeated tool sequence: {shown} ({episodes} episodes)"),
        confidence: confidence.min(0.95),
        evidence: seen.iter().map(|s| s.evidence(&excerpt)).collect(),
        payload: Payload::Skill(SkillPayload {
            steps: steps.iter().map(|s| s.to_string()).collect(),
            episode: best.to_string(),
            name: skill_name(&steps),
            description: description(&steps, episodes, task),
            skill_md: None,
            screen: None,
        }),
    }
}
