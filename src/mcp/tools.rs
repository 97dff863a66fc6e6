//! The four MCP tools of the seed contract, as one table, `TOOLS`:
//! `mem_context` (context.rs), `mem_search` (here), `mem_save_turn` and
//! `mem_save_fact` (save.rs). `tools/list` and `tools/call` are derived from
//! the table. Each tool is a thin adapter over the same library functions the
//! CLI uses (`track`, `knowledge::profile`, `search`).

use super::protocol::{Features, RpcError};
use super::{context, save};
use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::search::{Found, Hit, Index, Query};
use serde_json::{Map, Value, json};

/// `topK` when absent, non-positive or not an integer.
pub const DEFAULT_TOP_K: usize = 5;
/// The largest `topK` honoured.
pub const MAX_TOP_K: usize = 50;
/// The `sessionKey` when none is given: the same default as `track`.
pub use crate::tools::track::DEFAULT_SESSION;

/// The home and clock a server works on, with its search index kept open
/// between requests (it refreshes hand edits itself on every search).
pub struct Memory<'h> {
    pub home: &'h Home,
    pub clock: Clock,
    /// The longest result text, in characters (`mcp.max_result_chars`):
    /// `mem_context` shares it out among its sections.
    pub max_chars: usize,
    index: Option<Index<'h>>,
}

impl<'h> Memory<'h> {
    pub fn new(home: &'h Home, clock: Clock) -> Memory<'h> {
        Memory {
            home,
            clock,
            max_chars: usize::try_from(home.config.mcp.max_result_chars).unwrap_or(usize::MAX),
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

/// One MCP tool: what `tools/list` says about it and what `tools/call` runs.
pub struct McpTool {
    /// A valid odek name: 1–64 characters of `[A-Za-z0-9_-]`, no `__`.
    pub name: &'static str,
    /// `title` (and `annotations.title`), from 2025-06-18 (2025-03-26).
    pub title: &'static str,
    pub description: &'static str,
    pub input_schema: fn() -> Value,
    /// `outputSchema` (from 2025-06-18) of a tool with a JSON result.
    pub output_schema: Option<fn() -> Value>,
    /// `annotations` without their title (from 2025-03-26).
    pub annotations: fn() -> Value,
    /// Runs the tool; every failure inside it is a result with `isError`.
    pub call: fn(&mut Memory, &Map<String, Value>) -> ToolOutput,
}

impl McpTool {
    /// The tool's `tools/list` entry for the negotiated version.
    fn listing(&self, features: Features) -> Value {
        let mut tool = json!({
            "name": self.name,
            "description": self.description,
            "inputSchema": (self.input_schema)()
        });
        if features.structured() {
            tool["title"] = json!(self.title);
            if let Some(output) = self.output_schema {
                tool["outputSchema"] = output();
            }
        }
        if features.annotations() {
            let mut annotations = (self.annotations)();
            annotations["title"] = json!(self.title);
            tool["annotations"] = annotations;
        }
        tool
    }
}

/// The tools, in `tools/list` order.
pub const TOOLS: &[McpTool] = &[
    McpTool {
        name: "mem_context",
        title: "Memory context",
        description: "The memory that matters for a task, as markdown to splice into context: the user's \
             preferences, profile facts, foresight and the past turns, notes and facts that match \
             the query (with ids and dates). Call it at the start of a task with the user's request.",
        input_schema: context_input,
        output_schema: None,
        annotations: read_only,
        call: context::call,
    },
    McpTool {
        name: "mem_search",
        title: "Search memory",
        description: "Search past turns, notes and profile facts. Natural-language questions and keywords \
             both work. Returns a ranked markdown list: id, kind, date and a snippet per match.",
        input_schema: search_input,
        output_schema: None,
        annotations: read_only,
        call: search_call,
    },
    McpTool {
        name: "mem_save_turn",
        title: "Save conversation turns",
        description: "Record conversation turns in the episode track: messages[] (role, content, toolCalls, \
             toolCallId, timestamp), or one turn as role + content (or text). A message's timestamp \
             (RFC 3339) is when it was said, for importing past conversations; without one, the \
             time of the save. Re-sending the last saved turn is a duplicate, not a second copy. \
             flush closes the session's open episode. Returns JSON: saved, status, messageCount, \
             flushed, episode, ids.",
        input_schema: save::turn_input,
        output_schema: Some(save::output_schema),
        annotations: save::turn_annotations,
        call: save::save_turn,
    },
    McpTool {
        name: "mem_save_fact",
        title: "Save a user fact",
        description: "Record a durable fact about the user in the profile (memory/personal/PROFILE.md): \
             either one fact, or messages[] (user and assistant roles only) from which statements \
             of preference, identity, habit and decision are extracted. Known facts are reported \
             as duplicates; status no_extraction means nothing qualified and nothing was saved.",
        input_schema: save::fact_input,
        output_schema: Some(save::output_schema),
        annotations: save::fact_annotations,
        call: save::save_fact,
    },
];

/// `tools/list` for the negotiated version: annotations from 2025-03-26,
/// titles and output schemas from 2025-06-18.
pub fn list(features: Features) -> Value {
    let tools: Vec<Value> = TOOLS.iter().map(|t| t.listing(features)).collect();
    json!({ "tools": tools })
}

/// Runs tool `name`. An unknown tool is a protocol error (`-32602`, as the
/// MCP specification's tools error-handling section shows); every failure
/// inside a tool is a result with `isError: true`.
pub fn call(
    memory: &mut Memory,
    name: &str,
    args: &Map<String, Value>,
) -> std::result::Result<ToolOutput, RpcError> {
    // Warnings belong to the call that caused them.
    memory.home.take_warnings();
    match TOOLS.iter().find(|t| t.name == name) {
        Some(tool) => Ok((tool.call)(memory, args)),
        None => {
            let available: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
            Err(RpcError::invalid_params(format!("Unknown tool: {name}"))
                .with_data(json!({"tool": name, "available": available})))
        }
    }
}

/// The annotations of a tool that only reads.
fn read_only() -> Value {
    json!({"readOnlyHint": true, "openWorldHint": false})
}

/// The `topK` input property of the read tools.
fn top_k_schema() -> Value {
    json!({
        "type": "integer",
        "description": "How many matches to return (default 5, at most 50; non-positive or non-integer values mean the default)",
        "default": DEFAULT_TOP_K,
        "maximum": MAX_TOP_K
    })
}

fn context_input() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "The task or question to find matches for (may be empty)"},
            "topK": top_k_schema()
        },
        "required": ["query"]
    })
}

fn search_input() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for"},
            "topK": top_k_schema()
        },
        "required": ["query"]
    })
}

/// `mem_search`: `query` (required, non-empty) and `topK`.
fn search_call(memory: &mut Memory, args: &Map<String, Value>) -> ToolOutput {
    let query = match required_query(args) {
        Ok(query) => query,
        Err(e) => return ToolOutput::failure(&e),
    };
    if query.trim().is_empty() {
        return ToolOutput::failure(
            &Error::invalid_args("query is empty")
                .with_hint("pass the words or the question to search for"),
        );
    }
    match search(memory, &query, top_k_arg(args)) {
        Ok(text) => ToolOutput::markdown(text),
        Err(e) => ToolOutput::failure(&e),
    }
}

/// `mem_search` (and `mem://search`): ranked hits across all kinds, best
/// first; for a question about a time alone (or whose words find nothing),
/// what was said then, newest first, and the heading says which.
pub fn search(memory: &mut Memory, query: &str, top_k: usize) -> Result<String> {
    let found = memory.search(query, top_k)?;
    if found.hits.is_empty() {
        return Ok(format!("No matches for {}.\n", quoted(query)));
    }
    let mut out = format!(
        "## Matches for {} ({} shown, {})\n",
        quoted(query),
        found.hits.len(),
        found.order.first()
    );
    hit_lines(&mut out, &found.hits);
    Ok(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_defaults_and_caps() {
        for (value, want) in [
            (None, 5),
            (Some(json!(3)), 3),
            (Some(json!(0)), 5),
            (Some(json!(-3)), 5),
            (Some(json!("x")), 5),
            (Some(json!("7")), 7),
            (Some(json!(2.0)), 2),
            (Some(json!(2.5)), 5),
            (Some(json!(500)), 50),
            (Some(json!(u64::MAX)), 50),
            (Some(json!(true)), 5),
            (Some(json!(null)), 5),
            (Some(json!("3.0")), 3),
            (Some(json!(" 4 ")), 4),
            (Some(json!("1e1")), 10),
            (Some(json!("99999999999999999999")), 50),
            (Some(json!("-99999999999999999999")), 5),
            (Some(json!("2.5")), 5),
            (Some(json!("inf")), 5),
            (Some(json!("NaN")), 5),
            (Some(json!("+5")), 5),
            (Some(json!("")), 5),
        ] {
            assert_eq!(top_k(value.as_ref()), want, "{value:?}");
        }
    }

    #[test]
    fn tool_names_follow_the_odek_rules() {
        let names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
        assert_eq!(
            names,
            [
                "mem_context",
                "mem_search",
                "mem_save_turn",
                "mem_save_fact"
            ]
        );
        for name in &names {
            assert!((1..=64).contains(&name.len()));
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            );
            assert!(!name.contains("__"));
        }
        let listed = list(Features::new("2025-11-25"));
        let listed: Vec<&str> = listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(listed, names);
    }

    #[test]
    fn listings_follow_the_version() {
        let old = list(Features::new("2024-11-05"));
        let new = list(Features::new("2025-06-18"));
        for (old, new) in old["tools"]
            .as_array()
            .unwrap()
            .iter()
            .zip(new["tools"].as_array().unwrap())
        {
            assert!(old.get("annotations").is_none() && old.get("title").is_none());
            assert_eq!(new["annotations"]["title"], new["title"]);
            assert_eq!(old["inputSchema"], new["inputSchema"]);
        }
        assert!(new["tools"][2]["outputSchema"].is_object());
        assert!(new["tools"][0].get("outputSchema").is_none());
    }
}
