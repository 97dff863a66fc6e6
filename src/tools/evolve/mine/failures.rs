//! Recurring failures → knowledge candidates.
//!
//! A failed call is a `tool` turn whose meta has an `error_class` (imports
//! set it) or `failed: true`, or whose content clearly is an error: its first
//! line contains `error:`, `Error:`, `ERROR`, `fatal:`, `panicked at`,
//! `command not found`, `No such file or directory`, `permission denied` or
//! a non-zero exit code/status, or starts with `error[` or `Traceback`, or
//! its last line reports a non-zero exit code/status. The tool is the name of
//! the call the turn answers (`tool_call_id`), else the call the turn carries.
//!
//! The signature is the tool and the error class, or else the error line
//! normalized (see [`normalize_error_line`]); for a Python traceback the
//! error line is its last line (`ModuleNotFoundError: …`), not `Traceback …`.

use super::{MAX_EXCERPT, Seen, excerpt_of, shorten};
use crate::tools::track::episodes::Turn;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;

/// Longest normalized error line, in characters.
pub const MAX_SIGNATURE: usize = 120;
/// Longest note slug.
const MAX_SLUG: usize = 64;

/// The call that worked after a failure, and what was said in between.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Fix {
    /// The turn of the successful call.
    pub turn: String,
    /// Its arguments as compact JSON (shortened).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub args: String,
    /// The first thing the assistant said between the failure and the fix.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub said: String,
}

/// One failed call of an episode.
pub(super) struct Failure {
    pub tool: String,
    /// The normalized error class or error line.
    pub error: String,
    pub turn: String,
    pub excerpt: String,
    pub fix: Option<Fix>,
}

/// A tool turn: which call it answers and whether it failed.
struct Outcome<'a> {
    at: usize,
    name: &'a str,
    args: Option<&'a Value>,
    /// The turn that made the call.
    call_at: usize,
    /// The normalized error and the excerpt, when it failed.
    error: Option<(String, String)>,
}

/// The failed calls of an episode, in order, each with the fix that
/// followed it when one did.
pub(super) fn scan(turns: &[Turn]) -> Vec<Failure> {
    let mut calls: HashMap<&str, (&str, &Value, usize)> = HashMap::new();
    for (at, turn) in turns.iter().enumerate() {
        if turn.role == "assistant" || turn.role == "tool" {
            for call in &turn.tool_calls {
                if !call.id.is_empty() {
                    calls.entry(call.id.as_str()).or_insert((
                        call.name.trim(),
                        &call.arguments,
                        at,
                    ));
                }
            }
        }
    }
    let mut outcomes = Vec::new();
    for (at, turn) in turns.iter().enumerate() {
        if turn.role != "tool" {
            continue;
        }
        let paired = turn
            .tool_call_id
            .as_deref()
            .and_then(|id| calls.get(id).copied());
        let (name, args, call_at) = match (paired, turn.tool_calls.first()) {
            (Some((name, args, call_at)), _) => (name, Some(args), call_at),
            (None, Some(call)) => (call.name.trim(), Some(&call.arguments), at),
            (None, None) => ("", None, at),
        };
        let name = if name.is_empty() { "unknown" } else { name };
        outcomes.push(Outcome {
            at,
            name,
            args,
            call_at,
            error: classify(turn),
        });
    }
    let mut out = Vec::new();
    for (i, outcome) in outcomes.iter().enumerate() {
        let Some((error, excerpt)) = &outcome.error else {
            continue;
        };
        let fix = outcomes[i + 1..]
            .iter()
            .find(|o| o.name == outcome.name && o.error.is_none() && o.at > outcome.at)
            .map(|ok| fix_of(turns, outcome.at, ok));
        out.push(Failure {
            tool: outcome.name.to_string(),
            error: error.clone(),
            turn: turns[outcome.at].id.clone(),
            excerpt: excerpt.clone(),
            fix,
        });
    }
    out
}

fn fix_of(turns: &[Turn], failed_at: usize, ok: &Outcome) -> Fix {
    let args = match ok.args {
        None | Some(Value::Null) => String::new(),
        Some(v) => shorten(&serde_json::to_string(v).unwrap_or_default(), 160),
    };
    let said = turns
        .get(failed_at + 1..=ok.call_at.max(failed_at))
        .unwrap_or_default()
        .iter()
        .filter(|t| t.role == "assistant")
        .map(|t| t.content.trim())
        .find(|c| !c.is_empty())
        .map(excerpt_of)
        .unwrap_or_default();
    Fix {
        turn: turns[ok.call_at].id.clone(),
        args,
        said,
    }
}

/// The normalized error and an excerpt, when a tool turn failed.
fn classify(turn: &Turn) -> Option<(String, String)> {
    // coloured output: the escape codes are not part of the error
    let content = super::plain(&turn.content);
    if let Some(class) = turn.meta.get("error_class").and_then(Value::as_str)
        && !class.trim().is_empty()
    {
        return Some((
            normalize_error_line(&super::plain(class)),
            excerpt_of(&content),
        ));
    }
    if let Some(line) = error_line(&content) {
        return Some((non_empty(normalize_error_line(&line)), excerpt_of(&line)));
    }
    if turn.meta.get("failed").and_then(Value::as_bool) == Some(true) {
        let first = content.lines().find(|l| !l.trim().is_empty());
        let error = first.map(normalize_error_line).unwrap_or_default();
        return Some((non_empty(error), excerpt_of(&content)));
    }
    None
}

fn non_empty(error: String) -> String {
    if error.is_empty() {
        "failed".to_string()
    } else {
        error
    }
}

/// The error line of a tool result that clearly is an error, else `None`.
/// Never panics, whatever the text.
pub fn error_line(content: &str) -> Option<String> {
    let mut lines = content.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    if first.starts_with("Traceback") {
        let last = content
            .lines()
            .map(str::trim)
            .rfind(|l| !l.is_empty() && !l.starts_with("Traceback"));
        return Some(last.unwrap_or(first).to_string());
    }
    if has_marker(first) {
        return Some(first.to_string());
    }
    let last = content.lines().map(str::trim).rfind(|l| !l.is_empty())?;
    if nonzero_exit(last) {
        let marked = content
            .lines()
            .take(20)
            .map(str::trim)
            .find(|l| has_marker(l) && !nonzero_exit(l));
        return Some(marked.unwrap_or(first).to_string());
    }
    None
}

fn has_marker(line: &str) -> bool {
    const MARKERS: &[&str] = &[
        "error:",
        "Error:",
        "ERROR",
        "fatal:",
        "panicked at",
        "command not found",
        "No such file or directory",
    ];
    line.starts_with("error[")
        || MARKERS.iter().any(|m| line.contains(m))
        || line.to_lowercase().contains("permission denied")
        || nonzero_exit(line)
}

/// Whether a line reports a non-zero exit code or status.
fn nonzero_exit(line: &str) -> bool {
    let lower = line.to_lowercase();
    ["exit code", "exit status", "exited with code"]
        .iter()
        .any(|pat| {
            lower.match_indices(pat).any(|(at, _)| {
                let rest = lower[at + pat.len()..].trim_start_matches([' ', ':', '=']);
                let rest = rest.strip_prefix('-').unwrap_or(rest);
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                !digits.is_empty() && digits.chars().any(|c| c != '0')
            })
        })
}

/// An error line as a signature: lowercase, whitespace collapsed, UUIDs,
/// numbers and long hex runs as `#`, paths as `<path>`, URLs as `<url>`, at
/// most [`MAX_SIGNATURE`] characters. Never panics, whatever the text.
pub fn normalize_error_line(line: &str) -> String {
    let lower = strip_uuids(&line.to_lowercase());
    let mut words = Vec::new();
    for word in lower.split_whitespace() {
        let core = word.trim_matches(|c: char| "'\"`()[]{}<>,;:".contains(c));
        let start = word.find(core).unwrap_or(0);
        let (pre, post) = (&word[..start], &word[start + core.len()..]);
        let core = if core.contains("://") {
            "<url>".to_string()
        } else if core.len() > 1 && (core.contains('/') || core.contains('\\')) {
            "<path>".to_string()
        } else {
            numbers(core)
        };
        words.push(format!("{pre}{core}{post}"));
    }
    let joined = words.join(" ");
    let mut out: String = joined.chars().take(MAX_SIGNATURE).collect();
    out.truncate(out.trim_end().len());
    out
}

/// Digit runs, and hex runs of 7+ characters with a digit, become `#`;
/// digits inside a word (`e0308`, `sha256`) stay.
fn numbers(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.is_empty() {
            return;
        }
        let all_digits = run.bytes().all(|b| b.is_ascii_digit());
        let hexy = run.len() >= 7
            && run.bytes().all(|b| b.is_ascii_hexdigit())
            && run.bytes().any(|b| b.is_ascii_digit());
        let prefixed_hex = run.len() > 2
            && run.starts_with("0x")
            && run[2..].bytes().all(|b| b.is_ascii_hexdigit());
        if all_digits || hexy || prefixed_hex {
            out.push('#');
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in word.chars() {
        if c.is_ascii_alphanumeric() {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// UUIDs (8-4-4-4-12 hex digits) as `#`.
fn strip_uuids(text: &str) -> String {
    const SHAPE: [usize; 5] = [8, 4, 4, 4, 12];
    let bytes = text.as_bytes();
    let is_uuid_at = |i: usize| {
        let mut at = i;
        for (n, len) in SHAPE.iter().enumerate() {
            if n > 0 {
                if bytes.get(at) != Some(&b'-') {
                    return false;
                }
                at += 1;
            }
            let end = at + len;
            if end > bytes.len() || !bytes[at..end].iter().all(u8::is_ascii_hexdigit) {
                return false;
            }
            at = end;
        }
        true
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if boundary && is_uuid_at(i) {
            out.push('#');
            i += 36;
            continue;
        }
        // Copy one whole character.
        let len = text[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&text[i..i + len]);
        i += len;
    }
    out
}

/// `failure-<tool>-<words of the error>`, a valid slug of at most 64
/// characters, cut at a word.
pub(super) fn slug(tool: &str, error: &str) -> String {
    let words: String = error
        .split_whitespace()
        .filter(|w| !w.contains('#') && !w.contains("<path>") && !w.contains("<url>"))
        .collect::<Vec<_>>()
        .join(" ");
    let full = crate::slug::slugify(&format!("failure {tool} {words}"), 256, "failure");
    if full.len() <= MAX_SLUG {
        return full;
    }
    let head = &full[..MAX_SLUG];
    match head.rfind('-') {
        Some(at) if at > "failure".len() => head[..at].to_string(),
        _ => head.trim_end_matches('-').to_string(),
    }
}

pub(super) fn title(tool: &str, error: &str) -> String {
    format!("Recurring failure: {tool} — {}", shorten(error, 80))
}

/// The note: what fails, how often, the evidence, the fix that followed.
pub(super) fn body(tool: &str, error: &str, n: u32, seen: &[Seen], fix: Option<&Fix>) -> String {
    let mut episodes: Vec<&str> = seen.iter().map(|s| s.e.as_str()).collect();
    episodes.dedup();
    let episodes = episodes.len();
    let more = if n as usize > seen.len() {
        format!(" (the first {} shown)", seen.len())
    } else {
        String::new()
    };
    let mut body = format!(
        "`{tool}` failed {n} times with the same error, in {episodes} episode{}:\n\n```text\n{error}\n```\n\n## Evidence{more}\n\n",
        if episodes == 1 { "" } else { "s" }
    );
    for s in seen {
        body.push_str(&format!(
            "- `{}` (session `{}`): {}\n",
            s.turn(),
            s.s,
            shorten(&s.x, MAX_EXCERPT)
        ));
    }
    body.push_str("\n## The fix that followed\n\n");
    match fix {
        Some(fix) => {
            body.push_str(&format!(
                "The next `{tool}` call that worked (`{}`)",
                fix.turn
            ));
            if fix.args.is_empty() {
                body.push_str(".\n");
            } else {
                body.push_str(&format!(
                    " was called with:\n\n```json\n{}\n```\n",
                    fix.args
                ));
            }
            if !fix.said.is_empty() {
                body.push_str(&format!("\nIn between, the agent said: \"{}\"\n", fix.said));
            }
        }
        None => body.push_str(&format!(
            "None recorded: no later `{tool}` call in the same episode worked.\n"
        )),
    }
    body
}
