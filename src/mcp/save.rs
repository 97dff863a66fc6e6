//! The two save tools, `mem_save_turn` (episode turns, through `track`) and
//! `mem_save_fact` (profile facts, through `knowledge::profile`), and the
//! JSON save status both return.

use super::memory::{
    DEFAULT_SESSION, Memory, ToolOutput, is_empty_array, opt_bool, opt_string, present, quoted,
};
use crate::error::{Error, Result};
use crate::home::Home;
use crate::tools::knowledge::profile::{self, Section};
use crate::tools::track;
use serde_json::{Map, Value, json};

/// Saved-turn ids listed in a save result; the rest are counted.
const MAX_LISTED_IDS: usize = 100;

/// The roles `mem_save_fact` accepts.
const FACT_ROLES: [&str; 2] = ["user", "assistant"];

/// The `section` values `mem_save_fact` accepts (singular forms too).
const SECTIONS: [&str; 2] = ["preferences", "facts"];

// ------------------------------------------------------------ schemas

/// One message of `messages[]`.
fn message_schema() -> Value {
    json!({
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
            "toolCallId": {"type": "string", "description": "For role tool: the call this result answers"},
            "timestamp": timestamp_schema("When the message was said")
        },
        "required": ["role"]
    })
}

/// A turn's `timestamp`: `lead` says whose time it is.
fn timestamp_schema(lead: &str) -> Value {
    json!({
        "type": "string",
        "format": "date-time",
        "description": format!(
            "{lead}: RFC 3339, like 2023-05-08T13:56:00Z or 2023-05-08T15:56:00+02:00, \
             stored in UTC to the second. Default: the time of the save. Not before 1970, \
             nor more than 5 minutes past the server's clock"
        )
    })
}

/// The `outputSchema` of both save tools.
pub(super) fn output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "saved": {"type": "boolean"},
            "status": {"type": "string", "enum": ["saved", "duplicate", "no_extraction", "rejected", "flushed"]},
            "messageCount": {"type": "integer"},
            "flushed": {"type": "boolean"},
            "extracted": {"type": "integer"},
            "profileUpdated": {"type": "boolean"},
            "warnings": {"type": "array", "items": {"type": "string"}, "description": "Present when the save landed but something after it did not (the search index could not be updated): still saved, do not retry"},
            "savedCount": {"type": "integer", "description": "mem_save_fact: how many facts were added (the facts list)"},
            "duplicateCount": {"type": "integer", "description": "mem_save_fact: how many facts were already known (the duplicates list)"},
            "truncated": {"type": "boolean", "description": "Present (true) when the result was cut to the result size limit"}
        },
        "required": ["saved", "status", "messageCount", "flushed", "extracted", "profileUpdated"]
    })
}

pub(super) fn turn_input() -> Value {
    json!({
        "type": "object",
        "properties": {
            "messages": {"type": "array", "items": message_schema(), "description": "The turns to save, in order"},
            "role": {"type": "string", "enum": ["user", "assistant", "system", "tool"], "description": "Legacy single-turn form: the role"},
            "content": {"type": "string", "description": "Legacy single-turn form: the text"},
            "text": {"type": "string", "description": "Legacy single-turn form: the text (alias of content)"},
            "toolCallId": {"type": "string", "description": "Legacy single-turn form: the tool call a tool turn answers"},
            "timestamp": timestamp_schema("Legacy single-turn form: when the turn was said"),
            "sessionKey": {"type": "string", "description": "The session (default \"default\")", "default": DEFAULT_SESSION},
            "flush": {"type": "boolean", "description": "Close the session's open episode after saving", "default": false}
        }
    })
}

pub(super) fn turn_annotations() -> Value {
    json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false})
}

pub(super) fn fact_input() -> Value {
    json!({
        "type": "object",
        "properties": {
            "fact": {"type": "string", "description": "One fact, as a short sentence"},
            "section": {"type": "string", "enum": SECTIONS, "description": "Where the fact goes (default: preferences when it states one, else facts)"},
            "messages": {
                "type": "array",
                "description": "Messages to extract facts from; only user and assistant roles",
                "items": {
                    "type": "object",
                    "properties": {
                        "role": {"type": "string", "enum": FACT_ROLES},
                        "content": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "object"}}]}
                    },
                    "required": ["role"]
                }
            }
        }
    })
}

pub(super) fn fact_annotations() -> Value {
    json!({"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
}

// ------------------------------------------------------------ the status

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

// ------------------------------------------------------------ mem_save_turn

/// The `messages` argument `mem_save_turn` saves, if any: an empty
/// `messages: []` next to the legacy fields or `flush: true` (a host filling
/// in every property of the schema) does not hide them.
fn turn_messages(args: &Map<String, Value>, flush: bool) -> Option<&Value> {
    let legacy = present(args, "role").is_some();
    present(args, "messages").filter(|v| !((legacy || flush) && is_empty_array(v)))
}

/// How many messages a `mem_save_turn` call gives, counted the same way
/// whatever its form: the length of `messages[]`, or 1 for the legacy
/// single turn (`role` + `content`), even when the call is rejected.
fn turn_count(args: &Map<String, Value>) -> usize {
    let flush = opt_bool(args, "flush").unwrap_or(false);
    match turn_messages(args, flush) {
        Some(messages) => count_messages(Some(messages)),
        None if present(args, "role").is_some() => 1,
        None => 0,
    }
}

/// `mem_save_turn`: `messages[]`, or the legacy `role` + `content|text`
/// (+ `toolCallId`); `sessionKey` (default `default`); `flush`. A call with
/// only `flush: true` closes the session's open episode.
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

/// Adds `warning` to a save's reply (one reply, or a batch's array) after
/// the fact: the group's index commit failed and the index could not be
/// caught up, so turns the reply says are saved are not yet searchable.
/// Replies that are not a successful save are left as they are.
pub(super) fn warn_saved(reply: &mut Value, warning: &str) {
    if let Value::Array(replies) = reply {
        replies.iter_mut().for_each(|r| warn_saved(r, warning));
        return;
    }
    let Some(result) = reply.get_mut("result") else {
        return;
    };
    let text = result.pointer("/content/0/text").and_then(Value::as_str);
    let Some(Value::Object(mut status)) = text.and_then(|t| serde_json::from_str(t).ok()) else {
        return;
    };
    if status.get("saved") != Some(&Value::Bool(true)) {
        return;
    }
    let warnings = status.entry("warnings").or_insert_with(|| json!([]));
    if let Value::Array(list) = warnings {
        list.push(Value::from(warning));
    }
    let status = Value::Object(status);
    result["content"][0]["text"] = Value::from(status.to_string());
    if result.get("structuredContent").is_some() {
        result["structuredContent"] = status;
    }
}

pub(super) fn save_turn(memory: &mut Memory, args: &Map<String, Value>) -> ToolOutput {
    match save_turn_inner(memory, args) {
        Ok(output) => with_warnings(output, memory.home),
        Err(e) => rejected(&e, turn_count(args)),
    }
}

fn save_turn_inner(memory: &mut Memory, args: &Map<String, Value>) -> Result<ToolOutput> {
    let session = opt_string(args, &["sessionKey", "session_key"])?
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_SESSION.to_string());
    let flush = opt_bool(args, "flush")?;
    let messages = match turn_messages(args, flush) {
        Some(value) => Some(track::parse_messages(value)?),
        None => match opt_string(args, &["role"])? {
            Some(role) => Some(legacy_turn(args, role)?),
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

/// The legacy single turn, parsed as one message of messages[]: content may
/// be a string or text parts, and tool calls may come along.
fn legacy_turn(args: &Map<String, Value>, role: String) -> Result<Vec<track::MessageIn>> {
    let mut message = json!({"role": role});
    let content = present(args, "content").or_else(|| present(args, "text"));
    message["content"] = content.cloned().unwrap_or_else(|| json!(""));
    if let Some(id) = opt_string(args, &["toolCallId", "tool_call_id"])? {
        message["toolCallId"] = json!(id);
    }
    if let Some(calls) = present(args, "toolCalls").or_else(|| present(args, "tool_calls")) {
        message["toolCalls"] = calls.clone();
    }
    if let Some(timestamp) = present(args, "timestamp") {
        message["timestamp"] = timestamp.clone();
    }
    track::parse_messages(&json!([message])).map_err(|mut e| {
        // There is no messages[0] in the caller's arguments.
        e.message =
            e.message
                .replacen("messages[0].", "", 1)
                .replacen("messages[0]", "the message", 1);
        e
    })
}

// ------------------------------------------------------------ mem_save_fact

/// `mem_save_fact`: one `fact` (optional `section`), or `messages[]` with only
/// user and assistant roles, from which facts are extracted.
pub(super) fn save_fact(memory: &mut Memory, args: &Map<String, Value>) -> ToolOutput {
    let count = count_messages(args.get("messages"));
    match save_fact_inner(memory, args, count) {
        Ok(output) => with_warnings(output, memory.home),
        Err(e) => rejected(&e, count),
    }
}

/// The `section` argument, if given.
fn section_arg(args: &Map<String, Value>) -> Result<Option<Section>> {
    let Some(s) = opt_string(args, &["section"])? else {
        return Ok(None);
    };
    Ok(Some(match s.trim().to_lowercase().as_str() {
        "preferences" | "preference" => Section::Preferences,
        "facts" | "fact" => Section::Facts,
        _ => {
            return Err(Error::invalid_args(format!(
                "section {} is not preferences or facts",
                quoted(&s)
            ))
            .with_hint(format!(
                "use one of: {} (or leave section out: a stated preference goes under preferences, anything else under facts)",
                SECTIONS.join(", ")
            ))
            .with_detail("field", "section")
            .with_detail("valid", SECTIONS.to_vec()));
        }
    }))
}

fn save_fact_inner(
    memory: &mut Memory,
    args: &Map<String, Value>,
    count: usize,
) -> Result<ToolOutput> {
    let section = section_arg(args)?;
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
            .with("savedCount", 0)
            .with("duplicateCount", 0)
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
    // The counts say what the lists say even when a result over the size
    // limit has its lists cut.
    let mut status = SaveStatus::new(state, message_count)
        .with("facts", outcome.added.clone())
        .with("duplicates", outcome.duplicates.clone())
        .with("savedCount", outcome.added.len())
        .with("duplicateCount", outcome.duplicates.len());
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

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn a_late_index_warning_reaches_saves_only() {
        let saved = json!({"saved": true, "status": "saved", "messageCount": 1});
        let rejected = json!({"saved": false, "status": "rejected"});
        let reply = |status: &Value, structured: bool| {
            let mut result = json!({"content": [{"type": "text", "text": status.to_string()}]});
            if structured {
                result["structuredContent"] = status.clone();
            }
            json!({"jsonrpc": "2.0", "id": 3, "result": result})
        };
        let mut batch = json!([reply(&saved, true), reply(&rejected, false)]);
        warn_saved(&mut batch, "not indexed");
        let text: Value =
            serde_json::from_str(batch[0]["result"]["content"][0]["text"].as_str().unwrap())
                .unwrap();
        assert_eq!(text["warnings"], json!(["not indexed"]));
        assert_eq!(batch[0]["result"]["structuredContent"], text);
        assert_eq!(batch[1], reply(&rejected, false));
        let mut plain = reply(&saved, false);
        warn_saved(&mut plain, "not indexed");
        assert!(plain["result"].get("structuredContent").is_none());
        let mut error = json!({"jsonrpc": "2.0", "id": 4, "error": {"code": -32602}});
        warn_saved(&mut error, "not indexed");
        assert_eq!(error["error"]["code"], -32602);
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

    #[test]
    fn both_turn_forms_count_their_messages_alike() {
        for (value, want) in [
            (json!({"role": "robot", "content": "x"}), 1),
            (json!({"messages": [{"role": "robot", "content": "x"}]}), 1),
            (json!({"role": "user", "content": "x", "messages": []}), 1),
            (json!({"messages": [], "flush": true}), 0),
            (json!({"messages": [{"role": "user"}, {"role": "x"}]}), 2),
            (json!({"messages": {"messages": [{"role": "user"}]}}), 1),
            (json!({"messages": "hello"}), 0),
            (json!({}), 0),
        ] {
            assert_eq!(turn_count(&args(value.clone())), want, "{value}");
        }
    }

    #[test]
    fn a_bad_section_hints_at_the_valid_ones() {
        let err = section_arg(&args(json!({"section": "hobbies"}))).unwrap_err();
        assert!(
            err.hint.contains("preferences") && err.hint.contains("facts"),
            "{}",
            err.hint
        );
        assert_eq!(
            section_arg(&args(json!({"section": " Fact "}))).unwrap(),
            Some(Section::Facts)
        );
    }
}
