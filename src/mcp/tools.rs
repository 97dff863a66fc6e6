//! The four MCP tools of the seed contract: `mem_context`, `mem_search`,
//! `mem_save_turn` and `mem_save_fact`. Each is a thin adapter over the same
//! library functions the CLI uses (`track`, `knowledge::profile`, `search`).

use super::protocol::{Features, RpcError};
use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::search::{Hit, Index, Query};
use crate::tools::knowledge::profile::{self, Section};
use crate::tools::track;
use serde_json::{Map, Value, json};

/// `topK` when absent, non-positive or not an integer.
pub const DEFAULT_TOP_K: usize = 5;
/// The largest `topK` honoured.
pub const MAX_TOP_K: usize = 50;
/// Saved-turn ids listed in a save result; the rest are counted.
const MAX_LISTED_IDS: usize = 100;
/// The `sessionKey` when none is given.
pub const DEFAULT_SESSION: &str = "default";

/// The home and clock a server works on, with its search index kept open
/// between requests (it refreshes hand edits itself on every search).
pub struct Memory<'h> {
    pub home: &'h Home,
    pub clock: Clock,
    index: Option<Index<'h>>,
}

impl<'h> Memory<'h> {
    pub fn new(home: &'h Home, clock: Clock) -> Memory<'h> {
        Memory {
            home,
            clock,
            index: None,
        }
    }

    /// Drops the open index (after a failed or panicked request).
    pub fn reset(&mut self) {
        self.index = None;
    }

    /// Ranked hits across all kinds. The index is reopened when its file was
    /// deleted or replaced (`reindex`), and once more when a search on the
    /// kept connection fails.
    pub fn search(&mut self, text: &str, limit: usize) -> Result<Vec<Hit>> {
        let query = Query {
            text: text.to_string(),
            limit,
            ..Query::default()
        };
        if self.index.as_ref().is_some_and(|index| !index.is_current()) {
            self.index = None;
        }
        if let Some(index) = &mut self.index
            && let Ok(hits) = index.search(&query)
        {
            return Ok(hits);
        }
        self.index = None;
        let mut index = Index::open(self.home)?;
        let hits = index.search(&query)?;
        self.index = Some(index);
        Ok(hits)
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
    fn markdown(text: String) -> ToolOutput {
        ToolOutput {
            text,
            structured: None,
            is_error: false,
        }
    }

    fn json(value: Value, is_error: bool) -> ToolOutput {
        ToolOutput {
            text: value.to_string(),
            structured: Some(value),
            is_error,
        }
    }

    /// A failed read tool: the error as readable text.
    fn failure(error: &Error) -> ToolOutput {
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

/// The tool names, in `tools/list` order.
pub const NAMES: [&str; 4] = [
    "mem_context",
    "mem_search",
    "mem_save_turn",
    "mem_save_fact",
];

/// `tools/list` for the negotiated version: annotations from 2025-03-26,
/// titles and output schemas from 2025-06-18.
pub fn list(features: Features) -> Value {
    let top_k = json!({
        "type": "integer",
        "description": "How many matches to return (default 5, at most 50; non-positive or non-integer values mean the default)",
        "default": DEFAULT_TOP_K,
        "maximum": MAX_TOP_K
    });
    let message = json!({
        "type": "object",
        "properties": {
            "role": {"type": "string", "enum": ["user", "assistant", "system", "tool"]},
            "content": {
                "description": "The text, or an array of {\"type\": \"text\", \"text\": \"…\"} parts",
                "anyOf": [
                    {"type": "string"},
                    {"type": "array", "items": {"type": "object"}}
                ]
            },
            "toolCalls": {
                "type": "array",
                "description": "Tool calls an assistant message made",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "arguments": {}
                    }
                }
            },
            "toolCallId": {"type": "string", "description": "For role tool: the call this result answers"}
        },
        "required": ["role"]
    });
    let save_output = json!({
        "type": "object",
        "properties": {
            "saved": {"type": "boolean"},
            "status": {"type": "string", "enum": ["saved", "duplicate", "no_extraction", "rejected", "flushed"]},
            "messageCount": {"type": "integer"},
            "flushed": {"type": "boolean"},
            "extracted": {"type": "integer"},
            "profileUpdated": {"type": "boolean"},
            "warnings": {"type": "array", "items": {"type": "string"}, "description": "Present when the save landed but something after it did not (the search index could not be updated): still saved, do not retry"},
            "truncated": {"type": "boolean", "description": "Present (true) when the result was cut to the result size limit"}
        },
        "required": ["saved", "status", "messageCount", "flushed", "extracted", "profileUpdated"]
    });
    let tools = [
        (
            "mem_context",
            "Memory context",
            "The memory that matters for a task, as markdown to splice into context: the user's \
             preferences, profile facts, foresight and the past turns, notes and facts that match \
             the query (with ids and dates). Call it at the start of a task with the user's request.",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "The task or question to find matches for (may be empty)"},
                    "topK": top_k.clone()
                },
                "required": ["query"]
            }),
            json!({"readOnlyHint": true, "openWorldHint": false}),
            None,
        ),
        (
            "mem_search",
            "Search memory",
            "Search past turns, notes and profile facts. Natural-language questions and keywords \
             both work. Returns a ranked markdown list: id, kind, date and a snippet per match.",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to look for"},
                    "topK": top_k
                },
                "required": ["query"]
            }),
            json!({"readOnlyHint": true, "openWorldHint": false}),
            None,
        ),
        (
            "mem_save_turn",
            "Save conversation turns",
            "Record conversation turns in the episode track: messages[] (role, content, toolCalls, \
             toolCallId), or one turn as role + content (or text). Re-sending the last saved turn \
             is a duplicate, not a second copy. flush closes the session's open episode. Returns \
             JSON: saved, status, messageCount, flushed, episode, ids.",
            json!({
                "type": "object",
                "properties": {
                    "messages": {"type": "array", "items": message, "description": "The turns to save, in order"},
                    "role": {"type": "string", "enum": ["user", "assistant", "system", "tool"], "description": "Legacy single-turn form: the role"},
                    "content": {"type": "string", "description": "Legacy single-turn form: the text"},
                    "text": {"type": "string", "description": "Legacy single-turn form: the text (alias of content)"},
                    "toolCallId": {"type": "string", "description": "Legacy single-turn form: the tool call a tool turn answers"},
                    "sessionKey": {"type": "string", "description": "The session (default \"default\")", "default": DEFAULT_SESSION},
                    "flush": {"type": "boolean", "description": "Close the session's open episode after saving", "default": false}
                }
            }),
            json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false}),
            Some(save_output.clone()),
        ),
        (
            "mem_save_fact",
            "Save a user fact",
            "Record a durable fact about the user in the profile (memory/personal/PROFILE.md): \
             either one fact, or messages[] (user and assistant roles only) from which statements \
             of preference, identity, habit and decision are extracted. Known facts are reported \
             as duplicates; status no_extraction means nothing qualified and nothing was saved.",
            json!({
                "type": "object",
                "properties": {
                    "fact": {"type": "string", "description": "One fact, as a short sentence"},
                    "section": {"type": "string", "enum": ["preferences", "facts"], "description": "Where the fact goes (default: preferences when it states one, else facts)"},
                    "messages": {
                        "type": "array",
                        "description": "Messages to extract facts from; only user and assistant roles",
                        "items": {
                            "type": "object",
                            "properties": {
                                "role": {"type": "string", "enum": ["user", "assistant"]},
                                "content": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "object"}}]}
                            },
                            "required": ["role"]
                        }
                    }
                }
            }),
            json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}),
            Some(save_output),
        ),
    ];
    let tools: Vec<Value> = tools
        .into_iter()
        .map(|(name, title, description, schema, annotations, output)| {
            let mut tool = json!({"name": name, "description": description, "inputSchema": schema});
            if features.structured() {
                tool["title"] = json!(title);
                if let Some(output) = output {
                    tool["outputSchema"] = output;
                }
            }
            if features.annotations() {
                let mut annotations = annotations;
                annotations["title"] = json!(title);
                tool["annotations"] = annotations;
            }
            tool
        })
        .collect();
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
    Ok(match name {
        "mem_context" => match required_query(args) {
            Ok(query) => match context(
                memory,
                &query,
                top_k(args.get("topK").or(args.get("top_k"))),
            ) {
                Ok(text) => ToolOutput::markdown(text),
                Err(e) => ToolOutput::failure(&e),
            },
            Err(e) => ToolOutput::failure(&e),
        },
        "mem_search" => match required_query(args) {
            Ok(query) if query.trim().is_empty() => ToolOutput::failure(
                &Error::invalid_args("query is empty")
                    .with_hint("pass the words or the question to search for"),
            ),
            Ok(query) => match search(
                memory,
                &query,
                top_k(args.get("topK").or(args.get("top_k"))),
            ) {
                Ok(text) => ToolOutput::markdown(text),
                Err(e) => ToolOutput::failure(&e),
            },
            Err(e) => ToolOutput::failure(&e),
        },
        "mem_save_turn" => save_turn(memory, args),
        "mem_save_fact" => save_fact(memory, args),
        other => {
            return Err(RpcError::invalid_params(format!("Unknown tool: {other}"))
                .with_data(json!({"tool": other, "available": NAMES})));
        }
    })
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
fn required_query(args: &Map<String, Value>) -> Result<String> {
    match args.get("query") {
        Some(Value::String(q)) => Ok(q.clone()),
        None | Some(Value::Null) => Err(Error::invalid_args("query is missing")
            .with_hint("pass {\"query\": \"what the task is about\"}")),
        Some(_) => Err(Error::invalid_args("query must be a string")
            .with_hint("pass {\"query\": \"what the task is about\"}")),
    }
}

/// A query shown in markdown: JSON-quoted, so it stays on one line.
fn quoted(query: &str) -> String {
    Value::from(query.trim()).to_string()
}

fn hit_lines(out: &mut String, hits: &[Hit]) {
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

fn bullets(out: &mut String, items: &[String]) {
    if items.is_empty() {
        out.push_str("(none)\n");
    }
    for item in items {
        out.push_str(&format!("- {item}\n"));
    }
}

/// `mem_context` (and `mem://profile` with an empty query): preferences,
/// profile facts, foresight (none exists yet) and the matches for `query`.
pub fn context(memory: &mut Memory, query: &str, top_k: usize) -> Result<String> {
    // A damaged PROFILE.md must not cost the agent its matches: say what is
    // wrong where the profile would be, and go on.
    let mut out = String::from("## Preferences\n");
    match profile::read(memory.home) {
        Ok(profile) => {
            bullets(&mut out, &profile.preferences);
            out.push_str("\n## Profile\n");
            bullets(&mut out, &profile.facts);
        }
        Err(err) => {
            let problem = format!("(unreadable: {} — {})\n", err.message, err.hint);
            out.push_str(&problem);
            out.push_str("\n## Profile\n");
            out.push_str(&problem);
        }
    }
    out.push_str("\n## Foresight\n(none)\n\n## Matches\n");
    if query.trim().is_empty() {
        out.push_str("(no query)\n");
    } else {
        let hits = memory.search(query, top_k)?;
        if hits.is_empty() {
            out.push_str(&format!("(none for {})\n", quoted(query)));
        } else {
            out.push_str(&format!("For {}:\n", quoted(query)));
            hit_lines(&mut out, &hits);
        }
    }
    Ok(out)
}

/// `mem_search` (and `mem://search`): ranked hits across all kinds.
pub fn search(memory: &mut Memory, query: &str, top_k: usize) -> Result<String> {
    let hits = memory.search(query, top_k)?;
    if hits.is_empty() {
        return Ok(format!("No matches for {}.\n", quoted(query)));
    }
    let mut out = format!(
        "## Matches for {} ({} shown, best first)\n",
        quoted(query),
        hits.len()
    );
    hit_lines(&mut out, &hits);
    Ok(out)
}

/// The JSON save status both save tools return.
struct SaveStatus {
    saved: bool,
    status: &'static str,
    message_count: usize,
    flushed: bool,
    extracted: usize,
    profile_updated: bool,
    extra: Map<String, Value>,
}

impl SaveStatus {
    fn new(status: &'static str, message_count: usize) -> SaveStatus {
        SaveStatus {
            saved: status == "saved",
            status,
            message_count,
            flushed: false,
            extracted: 0,
            profile_updated: false,
            extra: Map::new(),
        }
    }

    fn with(mut self, key: &str, value: impl Into<Value>) -> SaveStatus {
        self.extra.insert(key.to_string(), value.into());
        self
    }

    fn output(self) -> ToolOutput {
        let mut value = json!({
            "saved": self.saved,
            "status": self.status,
            "messageCount": self.message_count,
            "flushed": self.flushed,
            "extracted": self.extracted,
            "profileUpdated": self.profile_updated,
        });
        for (key, extra) in self.extra {
            value[key.as_str()] = extra;
        }
        ToolOutput::json(value, false)
    }
}

/// A save that did not happen: `status: rejected`, `isError: true`, and the
/// error's message and hint.
fn rejected(error: &Error, message_count: usize) -> ToolOutput {
    let mut output = SaveStatus::new("rejected", message_count)
        .with("error", error.message.clone())
        .with("hint", error.hint.clone())
        .with("errorType", error.kind.as_str())
        .output();
    output.is_error = true;
    output
}

/// How many messages `messages` holds, for `messageCount` in a rejection.
fn count_messages(value: Option<&Value>) -> usize {
    match value {
        Some(Value::Array(list)) => list.len(),
        Some(Value::Object(o)) => o
            .get("messages")
            .and_then(Value::as_array)
            .map_or(0, Vec::len),
        _ => 0,
    }
}

/// An argument that is there and not `null`.
fn present<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    args.get(name).filter(|v| !v.is_null())
}

fn is_empty_array(value: &Value) -> bool {
    value.as_array().is_some_and(Vec::is_empty)
}

/// An optional string argument under any of `names`.
fn opt_string(args: &Map<String, Value>, names: &[&str]) -> Result<Option<String>> {
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
fn opt_bool(args: &Map<String, Value>, name: &str) -> Result<bool> {
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

/// `mem_save_turn`: `messages[]`, or the legacy `role` + `content|text`
/// (+ `toolCallId`); `sessionKey` (default `default`); `flush`. A call with
/// only `flush: true` closes the session's open episode.
fn save_turn(memory: &mut Memory, args: &Map<String, Value>) -> ToolOutput {
    let count = count_messages(args.get("messages"));
    match save_turn_inner(memory, args) {
        Ok(output) => with_warnings(output, memory.home),
        Err(e) => rejected(&e, count),
    }
}

/// A save that landed but could not update everything (the search index)
/// says so in `warnings`; it is still saved, so a retry is not needed.
fn with_warnings(mut output: ToolOutput, home: &Home) -> ToolOutput {
    let warnings = home.take_warnings();
    if let Some(Value::Object(value)) = &mut output.structured
        && !warnings.is_empty()
    {
        value.insert("warnings".to_string(), json!(warnings));
        output.text = Value::Object(value.clone()).to_string();
    }
    output
}

fn save_turn_inner(memory: &mut Memory, args: &Map<String, Value>) -> Result<ToolOutput> {
    let session = opt_string(args, &["sessionKey", "session_key"])?
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_SESSION.to_string());
    let flush = opt_bool(args, "flush")?;
    // An empty `messages: []` next to the legacy fields or `flush: true` (a
    // host filling in every property of the schema) does not hide them.
    let legacy = present(args, "role").is_some();
    let messages =
        match present(args, "messages").filter(|v| !((legacy || flush) && is_empty_array(v))) {
            Some(value) => Some(track::parse_messages(value)?),
            None => match opt_string(args, &["role"])? {
                Some(role) => {
                    // The legacy turn is one message of messages[]: content may
                    // be a string or text parts, and tool calls may come along.
                    let mut message = json!({"role": role});
                    let content = present(args, "content").or_else(|| present(args, "text"));
                    message["content"] = content.cloned().unwrap_or_else(|| json!(""));
                    if let Some(id) = opt_string(args, &["toolCallId", "tool_call_id"])? {
                        message["toolCallId"] = json!(id);
                    }
                    if let Some(calls) =
                        present(args, "toolCalls").or_else(|| present(args, "tool_calls"))
                    {
                        message["toolCalls"] = calls.clone();
                    }
                    let parsed = track::parse_messages(&json!([message])).map_err(|mut e| {
                        // There is no messages[0] in the caller's arguments.
                        e.message = e.message.replacen("messages[0].", "", 1).replacen(
                            "messages[0]",
                            "the message",
                            1,
                        );
                        e
                    })?;
                    Some(parsed)
                }
                None => None,
            },
        };
    let Some(messages) = messages else {
        if !flush {
            return Err(Error::invalid_args("there is nothing to save")
                .with_hint("pass messages[] (role, content), or role with content or text; flush: true alone closes the open episode"));
        }
        let closed = track::flush(memory.home, &memory.clock, &session)?;
        let mut status = SaveStatus::new("flushed", 0)
            .with("sessionKey", session)
            .with("episode", closed.clone())
            .with("ids", Vec::<String>::new());
        status.flushed = closed.is_some();
        return Ok(status.output());
    };
    let message_count = messages.len();
    let input = track::SaveTurns {
        session: session.clone(),
        messages,
        flush,
        source: "mcp",
    };
    let outcome = track::save_turns(memory.home, &memory.clock, &input)?;
    let state = if outcome.saved > 0 {
        "saved"
    } else {
        "duplicate"
    };
    let mut status = SaveStatus::new(state, message_count)
        .with("sessionKey", session)
        .with("episode", outcome.episode.clone());
    status.flushed = outcome.flushed;
    let listed: Vec<String> = outcome.ids.iter().take(MAX_LISTED_IDS).cloned().collect();
    status = status.with("ids", listed);
    if outcome.ids.len() > MAX_LISTED_IDS {
        status = status.with("idsOmitted", outcome.ids.len() - MAX_LISTED_IDS);
    }
    Ok(status.output())
}

/// The roles `mem_save_fact` accepts.
const FACT_ROLES: [&str; 2] = ["user", "assistant"];

/// `mem_save_fact`: one `fact` (optional `section`), or `messages[]` with only
/// user and assistant roles, from which facts are extracted.
fn save_fact(memory: &mut Memory, args: &Map<String, Value>) -> ToolOutput {
    let count = count_messages(args.get("messages"));
    match save_fact_inner(memory, args, count) {
        Ok(output) => with_warnings(output, memory.home),
        Err(e) => rejected(&e, count),
    }
}

fn save_fact_inner(
    memory: &mut Memory,
    args: &Map<String, Value>,
    count: usize,
) -> Result<ToolOutput> {
    let section = match opt_string(args, &["section"])? {
        None => None,
        Some(s) => Some(match s.trim().to_lowercase().as_str() {
            "preferences" | "preference" => Section::Preferences,
            "facts" | "fact" => Section::Facts,
            _ => {
                return Err(Error::invalid_args(format!(
                    "section {} is not preferences or facts",
                    quoted(&s)
                ))
                .with_detail("valid", vec!["preferences", "facts"]));
            }
        }),
    };
    // `fact` and `messages[]` may come together: both count (the explicit
    // fact first), so neither is silently dropped. An empty `messages: []`
    // next to a fact is no request to extract anything.
    let fact = opt_string(args, &["fact"])?.filter(|f| !f.trim().is_empty());
    let messages = present(args, "messages").filter(|v| !(fact.is_some() && is_empty_array(v)));
    let mut facts: Vec<(Section, String)> = Vec::new();
    if let Some(fact) = fact {
        facts.push((section.unwrap_or_else(|| default_section(&fact)), fact));
    }
    let mut message_count = count;
    if let Some(value) = messages {
        refuse_tool_roles(value)?;
        let messages = track::parse_messages(value)?;
        message_count = messages.len();
        let pairs: Vec<(String, String)> =
            messages.into_iter().map(|m| (m.role, m.content)).collect();
        // `extract` returns distinct facts; only the explicit fact can repeat one.
        let explicit = facts.first().map(|(_, t)| profile::normalize(t));
        for (found, text) in profile::extract(&pairs) {
            if explicit.as_deref() != Some(profile::normalize(&text).as_str()) {
                facts.push((section.unwrap_or(found), text));
            }
        }
    }
    if facts.is_empty() {
        if messages.is_none() {
            return Err(Error::invalid_args("there is no fact to save")
                .with_hint("pass {\"fact\": \"Prefers tabs over spaces.\"}, or messages[] with user and assistant roles"));
        }
        return Ok(SaveStatus::new("no_extraction", message_count)
            .with("facts", Vec::<String>::new())
            .with("duplicates", Vec::<String>::new())
            .output());
    }
    let outcome = profile::add_facts(memory.home, &memory.clock, &facts)?;
    let state = if !outcome.added.is_empty() {
        "saved"
    } else if !outcome.duplicates.is_empty() {
        "duplicate"
    } else {
        "no_extraction"
    };
    let mut status = SaveStatus::new(state, message_count)
        .with("facts", outcome.added.clone())
        .with("duplicates", outcome.duplicates.clone());
    status.extracted = facts.len();
    status.profile_updated = outcome.profile_updated;
    Ok(status.output())
}

/// How a preference reads once extracted (the third-person forms the
/// extraction rules write: "Prefers tabs over spaces.", "Asks to never …").
const PREFERENCE_FORMS: [&str; 11] = [
    "prefers",
    "likes",
    "loves",
    "enjoys",
    "hates",
    "dislikes",
    "favorite",
    "favourite",
    "asks to always",
    "asks to never",
    "asks not to",
];

/// The section of a single `fact` given without `section`: preferences when
/// it states one — in the first person ("I prefer tabs"), as the extraction
/// rules read it, or in the third person those rules write ("Prefers tabs
/// over spaces.", "User prefers tabs", "The user likes jazz") — else facts.
fn default_section(fact: &str) -> Section {
    if let Some((Section::Preferences, _)) =
        profile::extract(&[("user".to_string(), fact.to_string())]).first()
    {
        return Section::Preferences;
    }
    let lower = fact.trim().to_lowercase();
    let lower = ["the user ", "user "]
        .iter()
        .find_map(|subject| lower.strip_prefix(subject))
        .unwrap_or(&lower);
    let states_one = PREFERENCE_FORMS.iter().any(|form| {
        lower
            .strip_prefix(form)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(|c: char| !c.is_alphanumeric()))
    });
    if states_one {
        Section::Preferences
    } else {
        Section::Facts
    }
}

/// Refuses any message whose role is not user or assistant (tool, system,
/// function …): facts come from what people and the assistant said, never
/// from tool output.
fn refuse_tool_roles(value: &Value) -> Result<()> {
    let list = match value {
        Value::Array(list) => list,
        Value::Object(o) => match o.get("messages") {
            Some(Value::Array(list)) => list,
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    for (i, message) in list.iter().enumerate() {
        if let Some(role) = message.get("role").and_then(Value::as_str)
            && !FACT_ROLES.contains(&role)
        {
            return Err(Error::invalid_args(format!(
                "mem_save_fact accepts only user and assistant messages; messages[{i}] has role {}",
                quoted(role)
            ))
            .with_hint("drop tool, system and function messages: facts come from what the user and the assistant said")
            .with_detail("field", format!("messages[{i}].role"))
            .with_detail("valid", FACT_ROLES.to_vec()));
        }
    }
    Ok(())
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
        for name in NAMES {
            assert!((1..=64).contains(&name.len()));
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            );
            assert!(!name.contains("__"));
        }
        let listed = list(Features::new("2025-11-25"));
        let names: Vec<&str> = listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, NAMES);
    }

    #[test]
    fn a_single_fact_is_a_preference_when_it_states_one() {
        for fact in [
            "I prefer tabs",
            "Prefers tabs over spaces.",
            "likes jazz",
            "User dislikes YAML",
            "The user hates tabs.",
            "Favorite editor is vim.",
            "Asks not to commit on Fridays.",
        ] {
            assert_eq!(default_section(fact), Section::Preferences, "{fact}");
        }
        for fact in [
            "Name is Ada.",
            "Likesome is a wiki",
            "Works at Example",
            "Prefersomething",
        ] {
            assert_eq!(default_section(fact), Section::Facts, "{fact}");
        }
    }

    #[test]
    fn tool_roles_are_refused() {
        assert!(refuse_tool_roles(&json!([{"role": "user", "content": "hi"}])).is_ok());
        for role in ["tool", "system", "function"] {
            let err = refuse_tool_roles(&json!([{"role": "user"}, {"role": role}])).unwrap_err();
            assert!(err.message.contains("messages[1]"), "{}", err.message);
        }
    }
}
