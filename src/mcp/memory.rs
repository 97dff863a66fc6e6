//! What every memory_mcp tool works with: the server's [`Memory`] (its
//! home, clock and kept search index), the [`ToolOutput`] a tool returns,
//! and the argument readers and text helpers the tools share (`tools`,
//! `context`, `save`, `resources`).

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::search::{Found, Hit, Index, Query};
use crate::tools::{ContextFn, Registry};
use serde_json::{Map, Value};

/// `topK` when absent, non-positive or not an integer.
pub const DEFAULT_TOP_K: usize = 5;
/// The largest `topK` honoured.
pub const MAX_TOP_K: usize = 50;
/// The `sessionKey` when none is given: the same default as `track`.
pub use crate::tools::track::DEFAULT_SESSION;

/// The home and clock a server works on, with its search index kept open
/// between requests (it refreshes hand edits itself on every search).
#[derive(Debug)]
pub struct Memory<'h> {
    pub home: &'h Home,
    pub clock: Clock,
    /// The longest result text, in characters (`mcp.max_result_chars`):
    /// `mem_context` shares it out among its sections.
    pub max_chars: usize,
    /// Where `mem_context`'s sections before the matches come from (the
    /// registry's `Tool::context`).
    pub context: Vec<&'static ContextFn>,
    index: Option<Index<'h>>,
}

impl<'h> Memory<'h> {
    /// The memory of `home`, with the registry's `mem_context` sections.
    pub fn new(home: &'h Home, clock: Clock, registry: &Registry) -> Memory<'h> {
        Memory {
            home,
            clock,
            max_chars: usize::try_from(home.config.mcp.max_result_chars).unwrap_or(usize::MAX),
            context: registry.context_sources(),
            index: None,
        }
    }

    /// Drops the open index (after a failed or panicked request).
    pub fn reset(&mut self) {
        self.index = None;
    }

    /// Ranked hits across all kinds, and their order. The index is
    /// reopened when its file was deleted, and once more when a search on
    /// the kept connection fails.
    pub fn search(&mut self, text: &str, limit: usize) -> Result<Found> {
        let query = Query {
            text: text.to_string(),
            limit,
            now: crate::clock::Clock::from_env().ok().map(|c| c.now()),
            ..Query::default()
        };
        // The group's updates so far, committed: the kept connection then
        // sees every turn saved before this request.
        crate::search::settle(self.home);
        if self.index.as_ref().is_some_and(|index| !index.is_current()) {
            self.index = None;
        }
        if let Some(index) = &mut self.index
            && let Ok(found) = index.find(&query)
        {
            return Ok(found);
        }
        self.index = None;
        let mut index = Index::open(self.home)?;
        index.keep_doc_stats();
        let found = index.find(&query)?;
        self.index = Some(index);
        Ok(found)
    }
}

/// What a tool call returns, before bounding and redaction.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    pub text: String,
    /// The JSON object behind `text`, for `structuredContent`.
    pub structured: Option<Value>,
    pub is_error: bool,
}

impl ToolOutput {
    pub(super) fn markdown(text: String) -> ToolOutput {
        ToolOutput {
            text,
            structured: None,
            is_error: false,
        }
    }

    pub(super) fn json(value: Value, is_error: bool) -> ToolOutput {
        ToolOutput {
            text: value.to_string(),
            structured: Some(value),
            is_error,
        }
    }

    /// A failed read tool: the error as readable text.
    pub(super) fn failure(error: &Error) -> ToolOutput {
        ToolOutput {
            text: error_text(error),
            structured: None,
            is_error: true,
        }
    }
}

/// `error: …` and `hint: …` lines.
pub fn error_text(error: &Error) -> String {
    let mut text = format!("error: {}", error.message);
    if !error.hint.is_empty() {
        text.push_str(&format!("\nhint: {}", error.hint));
    }
    text
}

/// The `topK` (or `top_k`) argument.
pub(super) fn top_k_arg(args: &Map<String, Value>) -> usize {
    top_k(args.get("topK").or(args.get("top_k")))
}

/// `topK`: an integer (or a string holding one, as a resource URI always
/// does) in 1..=50; non-positive or non-integer values mean the default,
/// larger ones the cap. A string is read like a JSON number: `"3.0"` is 3,
/// `"1e2"` and `"99999999999999999999"` are over the cap.
pub fn top_k(value: Option<&Value>) -> usize {
    let whole = |f: f64| (f.fract() == 0.0 && f.is_finite()).then_some(f as i64);
    let n: Option<i64> = match value {
        Some(Value::Number(n)) => n
            .as_i64()
            .or_else(|| n.as_u64().map(|_| i64::MAX))
            .or_else(|| n.as_f64().and_then(whole)),
        Some(Value::String(s)) => {
            let s = s.trim();
            s.parse::<i64>().ok().or_else(|| {
                // Only number syntax: not `inf`, `NaN` or `+5`.
                let numeric = s
                    .bytes()
                    .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'e' | b'E' | b'+'))
                    && s.starts_with(|c: char| c == '-' || c.is_ascii_digit());
                numeric
                    .then(|| s.parse::<f64>().ok())
                    .flatten()
                    .and_then(whole)
            })
        }
        _ => None,
    };
    match n {
        Some(n) if n > 0 => (n as u64).min(MAX_TOP_K as u64) as usize,
        _ => DEFAULT_TOP_K,
    }
}

/// The `query` argument: required, a string (empty is allowed here).
pub(super) fn required_query(args: &Map<String, Value>) -> Result<String> {
    match args.get("query") {
        Some(Value::String(q)) => Ok(q.clone()),
        None | Some(Value::Null) => Err(Error::invalid_args("query is missing")
            .with_hint("pass {\"query\": \"what the task is about\"}")),
        Some(_) => Err(Error::invalid_args("query must be a string")
            .with_hint("pass {\"query\": \"what the task is about\"}")),
    }
}

/// A query (or any argument) shown in text: JSON-quoted, so it stays on one line.
pub(super) fn quoted(query: &str) -> String {
    Value::from(query.trim()).to_string()
}

/// One numbered markdown line (and a snippet line) per hit.
pub(super) fn hit_lines(out: &mut String, hits: &[Hit]) {
    for (i, hit) in hits.iter().enumerate() {
        let mut about = hit.title.clone();
        if let Some(session) = &hit.session
            && !about.contains(session.as_str())
        {
            about.push_str(&format!(" · session {session}"));
        }
        out.push_str(&format!(
            "{}. `{}` · {} · {} · {}\n",
            i + 1,
            hit.id,
            hit.kind.as_str(),
            hit.date,
            about
        ));
        if !hit.snippet.is_empty() {
            out.push_str(&format!("   > {}\n", hit.snippet));
        }
    }
}

/// An argument that is there and not `null`.
pub(super) fn present<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    args.get(name).filter(|v| !v.is_null())
}

pub(super) fn is_empty_array(value: &Value) -> bool {
    value.as_array().is_some_and(Vec::is_empty)
}

/// An optional string argument under any of `names`.
pub(super) fn opt_string(args: &Map<String, Value>, names: &[&str]) -> Result<Option<String>> {
    for name in names {
        match args.get(*name) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => return Ok(Some(s.clone())),
            Some(_) => {
                return Err(Error::invalid_args(format!("{name} must be a string"))
                    .with_hint(format!("pass {name} as a JSON string, or leave it out"))
                    .with_detail("field", *name));
            }
        }
    }
    Ok(None)
}

/// An optional boolean (`true`/`false`, or those words as strings).
pub(super) fn opt_bool(args: &Map<String, Value>, name: &str) -> Result<bool> {
    match args.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) if s == "true" => Ok(true),
        Some(Value::String(s)) if s == "false" => Ok(false),
        Some(_) => Err(Error::invalid_args(format!("{name} must be true or false"))
            .with_hint(format!(
                "pass {name}: true or {name}: false, or leave it out"
            ))
            .with_detail("field", name)),
    }
}
