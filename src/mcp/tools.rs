//! The four MCP tools of the seed contract, as one table, `TOOLS`:
//! `mem_context` (context.rs), `mem_search` (here), `mem_save_turn` and
//! `mem_save_fact` (save.rs). `tools/list` and `tools/call` are derived from
//! the table; what the tools share (the server's `Memory`, `ToolOutput`,
//! the argument readers) is in memory.rs. Each tool is a thin adapter over
//! the same library functions the CLI uses (`track`, `knowledge::profile`,
//! `search`).

use super::memory::{hit_lines, quoted, required_query, top_k_arg};
use super::protocol::{Features, RpcError};
use super::{context, save};
use crate::error::{Error, Result};
use serde_json::{Map, Value, json};

pub use super::memory::{
    DEFAULT_SESSION, DEFAULT_TOP_K, MAX_TOP_K, Memory, ToolOutput, error_text, top_k,
};

/// One MCP tool: what `tools/list` says about it and what `tools/call` runs.
#[derive(Debug)]
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
