//! The seed's `messages[]` form: what `track record --messages` and the MCP
//! server's `mem_save_turn` accept, validated before anything is written.

use super::stamps;
use crate::clock::Time;
use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// The roles a turn may have.
pub const ROLES: [&str; 4] = ["user", "assistant", "system", "tool"];

/// One message to save as a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageIn {
    pub role: String,
    pub content: String,
    pub tool_calls: Vec<ToolCallIn>,
    pub tool_call_id: Option<String>,
    /// When the message was said (`timestamp`), if the caller knows; the
    /// save time otherwise.
    pub timestamp: Option<Time>,
}

/// A tool call an assistant message made.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCallIn {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

fn bad(field: impl Into<String>, problem: &str) -> Error {
    let field = field.into();
    Error::invalid_args(format!("{field} {problem}"))
        .with_hint(
            "each message is {\"role\": \"user|assistant|system|tool\", \"content\": \"…\" or \
             [{\"type\": \"text\", \"text\": \"…\"}], \"toolCalls\": [{\"id\", \"name\", \
             \"arguments\"}], \"toolCallId\": \"…\", \"timestamp\": \"2023-05-08T13:56:00Z\"}",
        )
        .with_detail("field", field)
}

/// The JSON type name of a value, for error messages.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The first of `names` present in `object` (camelCase and snake_case spellings).
fn field<'a>(object: &'a Map<String, Value>, names: &[&str]) -> Option<(&'a Value, String)> {
    names
        .iter()
        .find_map(|n| object.get(*n).map(|v| (v, (*n).to_string())))
}

/// Parses the seed's `messages[]` form: a JSON array of messages, or an object
/// whose `messages` is one. Each message has `role`, `content` (a string, or
/// an array of `{type: "text", text}` parts; other part types are skipped),
/// optional `toolCalls` `[{id, name, arguments}]` and `toolCallId`
/// (`tool_calls`/`tool_call_id` are accepted too), and an optional
/// `timestamp` (RFC 3339, not before 1970; whether it lies in the future is
/// for [`super::save_turns`] to judge, which has the clock). Unknown fields
/// are ignored. Errors name the offending field as `messages[i].field`.
pub fn parse_messages(value: &Value) -> Result<Vec<MessageIn>> {
    let list = match value {
        Value::Array(list) => list,
        Value::Object(object) => match object.get("messages") {
            Some(Value::Array(list)) => list,
            Some(other) => {
                return Err(bad(
                    "messages",
                    &format!("is {}, not an array", type_name(other)),
                ));
            }
            None => return Err(bad("messages", "is missing")),
        },
        other => {
            return Err(bad(
                "messages",
                &format!(
                    "must be an array (or an object with one), not {}",
                    type_name(other)
                ),
            ));
        }
    };
    if list.is_empty() {
        return Err(bad("messages", "is empty: there is nothing to save"));
    }
    list.iter()
        .enumerate()
        .map(|(i, m)| parse_message(i, m))
        .collect()
}

fn parse_message(i: usize, value: &Value) -> Result<MessageIn> {
    let at = |name: &str| format!("messages[{i}].{name}");
    let Value::Object(object) = value else {
        return Err(bad(
            format!("messages[{i}]"),
            &format!("is {}, not an object", type_name(value)),
        ));
    };
    let role = match object.get("role") {
        // OpenAI's newer name for the system role.
        Some(Value::String(role)) if role == "developer" => "system".to_string(),
        Some(Value::String(role)) => role.clone(),
        Some(other) => {
            return Err(bad(
                at("role"),
                &format!("is {}, not a string", type_name(other)),
            ));
        }
        None => return Err(bad(at("role"), "is missing")),
    };
    if !ROLES.contains(&role.as_str()) {
        return Err(bad(
            at("role"),
            &format!(
                "is {}; use one of {}",
                Value::from(role.clone()),
                ROLES.join(", ")
            ),
        )
        .with_detail("valid", ROLES.to_vec()));
    }
    let content = match object.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => content_parts(i, parts)?,
        Some(other) => {
            return Err(bad(
                at("content"),
                &format!(
                    "is {}; use a string or an array of text parts",
                    type_name(other)
                ),
            ));
        }
    };
    let tool_calls = match field(object, &["toolCalls", "tool_calls"]) {
        None | Some((Value::Null, _)) => Vec::new(),
        Some((Value::Array(calls), name)) => calls
            .iter()
            .enumerate()
            .map(|(j, call)| tool_call(&format!("messages[{i}].{name}[{j}]"), call))
            .collect::<Result<_>>()?,
        Some((other, name)) => {
            return Err(bad(
                at(&name),
                &format!("is {}, not an array", type_name(other)),
            ));
        }
    };
    let tool_call_id = match field(object, &["toolCallId", "tool_call_id"]) {
        None | Some((Value::Null, _)) => None,
        Some((Value::String(id), _)) if id.is_empty() => None,
        Some((Value::String(id), name)) => Some(check_text(&at(&name), id)?.to_string()),
        Some((other, name)) => {
            return Err(bad(
                at(&name),
                &format!("is {}, not a string", type_name(other)),
            ));
        }
    };
    let timestamp = match object.get("timestamp") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(stamps::parse(text).map_err(|r| {
            r.error(&at("timestamp"), text)
                .with_detail("field", at("timestamp"))
        })?),
        Some(other) => {
            return Err(bad(
                at("timestamp"),
                &format!("is {}, not a string", type_name(other)),
            )
            .with_hint(stamps::Refused::NotRfc3339.hint()));
        }
    };
    if content.trim().is_empty() && tool_calls.is_empty() {
        return Err(bad(
            format!("messages[{i}]"),
            "has no content and no tool calls: there is nothing to save",
        ));
    }
    Ok(MessageIn {
        role,
        content,
        tool_calls,
        tool_call_id,
        timestamp,
    })
}

/// Joins the text parts of a content array with newlines.
/// Content part types that carry text.
fn is_text_part(kind: &str) -> bool {
    matches!(kind, "text" | "input_text" | "output_text")
}

fn content_parts(i: usize, parts: &[Value]) -> Result<String> {
    let mut texts = Vec::new();
    for (j, part) in parts.iter().enumerate() {
        let at = format!("messages[{i}].content[{j}]");
        match part {
            Value::String(text) => texts.push(text.as_str()),
            Value::Object(object) => match (object.get("type"), object.get("text")) {
                // `input_text`/`output_text`: the OpenAI Responses API's names.
                (Some(Value::String(kind)), Some(Value::String(text))) if is_text_part(kind) => {
                    texts.push(text)
                }
                (Some(Value::String(kind)), other) if is_text_part(kind) => {
                    return Err(bad(
                        format!("{at}.text"),
                        &match other {
                            None => "is missing".to_string(),
                            Some(v) => format!("is {}, not a string", type_name(v)),
                        },
                    ));
                }
                // Images, audio, resources …: not text, not stored.
                (Some(Value::String(_)), _) => {}
                (Some(other), _) => {
                    return Err(bad(
                        format!("{at}.type"),
                        &format!("is {}, not a string", type_name(other)),
                    ));
                }
                (None, _) => return Err(bad(format!("{at}.type"), "is missing")),
            },
            other => {
                return Err(bad(
                    at,
                    &format!(
                        "is {}; a part is {{\"type\": \"text\", \"text\": \"…\"}}",
                        type_name(other)
                    ),
                ));
            }
        }
    }
    Ok(texts.join("\n"))
}

/// `{id, name, arguments}`; the OpenAI shape `{id, function: {name, arguments}}` is accepted too.
fn tool_call(at: &str, value: &Value) -> Result<ToolCallIn> {
    let Value::Object(object) = value else {
        return Err(bad(at, &format!("is {}, not an object", type_name(value))));
    };
    let function = match object.get("function") {
        Some(Value::Object(f)) => Some(f),
        _ => None,
    };
    let id = match object.get("id") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(id)) => check_text(&format!("{at}.id"), id)?.to_string(),
        Some(other) => {
            return Err(bad(
                format!("{at}.id"),
                &format!("is {}, not a string", type_name(other)),
            ));
        }
    };
    let name_value = object
        .get("name")
        .or_else(|| function.and_then(|f| f.get("name")));
    let name = match name_value {
        Some(Value::String(name)) if !name.trim().is_empty() => {
            check_text(&format!("{at}.name"), name)?.to_string()
        }
        Some(Value::String(_)) => return Err(bad(format!("{at}.name"), "is empty")),
        Some(other) => {
            return Err(bad(
                format!("{at}.name"),
                &format!("is {}, not a string", type_name(other)),
            ));
        }
        None => return Err(bad(format!("{at}.name"), "is missing")),
    };
    let arguments = object
        .get("arguments")
        .or_else(|| object.get("args"))
        .or_else(|| function.and_then(|f| f.get("arguments")))
        .cloned()
        .unwrap_or(Value::Null);
    Ok(ToolCallIn {
        id,
        name,
        arguments,
    })
}

/// Ids and names are single-line and short.
fn check_text<'a>(at: &str, text: &'a str) -> Result<&'a str> {
    if text.chars().any(char::is_control) {
        return Err(bad(at, "contains a control character"));
    }
    if text.len() > 256 {
        return Err(bad(at, "is longer than 256 bytes").with_limit(
            "field_bytes",
            text.len() as u64,
            256,
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn field_of(value: Value) -> String {
        let err = parse_messages(&value).unwrap_err();
        err.detail["field"].as_str().unwrap().to_string()
    }

    #[test]
    fn accepts_the_seed_form_and_its_variants() {
        let parsed = parse_messages(&json!({"sessionKey": "s", "messages": [
            {"role": "user", "content": "hi", "extra": 1},
            {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "image", "data": "…"}, {"type": "text", "text": "b"}],
             "toolCalls": [{"id": "c1", "name": "grep", "arguments": {"q": "x"}}]},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
            {"role": "tool", "content": "out", "toolCallId": "c1"},
        ]}))
        .unwrap();
        assert_eq!(parsed.len(), 4);
        assert_eq!(parsed[1].content, "a\nb");
        assert_eq!(parsed[1].tool_calls[0].name, "grep");
        assert_eq!(parsed[1].tool_calls[0].arguments, json!({"q": "x"}));
        assert_eq!(parsed[2].tool_calls[0].name, "ls");
        assert_eq!(parsed[2].tool_calls[0].arguments, json!("{}"));
        assert_eq!(parsed[3].tool_call_id.as_deref(), Some("c1"));
    }

    #[test]
    fn errors_name_the_field() {
        assert_eq!(field_of(json!("x")), "messages");
        assert_eq!(field_of(json!([])), "messages");
        assert_eq!(field_of(json!({"messages": 3})), "messages");
        assert_eq!(
            field_of(json!([{"role": "user", "content": "ok"}, 7])),
            "messages[1]"
        );
        assert_eq!(field_of(json!([{"content": "x"}])), "messages[0].role");
        assert_eq!(
            field_of(json!([{"role": 1, "content": "x"}])),
            "messages[0].role"
        );
        assert_eq!(
            field_of(json!([{"role": "robot", "content": "x"}])),
            "messages[0].role"
        );
        assert_eq!(
            field_of(json!([{"role": "user", "content": 5}])),
            "messages[0].content"
        );
        assert_eq!(
            field_of(json!([{"role": "user", "content": [{"type": "text"}]}])),
            "messages[0].content[0].text"
        );
        assert_eq!(
            field_of(json!([{"role": "user", "content": [3]}])),
            "messages[0].content[0]"
        );
        assert_eq!(
            field_of(json!([{"role": "assistant", "toolCalls": {}}])),
            "messages[0].toolCalls"
        );
        assert_eq!(
            field_of(json!([{"role": "assistant", "toolCalls": [{"id": "x"}]}])),
            "messages[0].toolCalls[0].name"
        );
        assert_eq!(
            field_of(json!([{"role": "assistant", "tool_calls": [{"name": 4}]}])),
            "messages[0].tool_calls[0].name"
        );
        assert_eq!(
            field_of(json!([{"role": "tool", "content": "x", "toolCallId": 9}])),
            "messages[0].toolCallId"
        );
        assert_eq!(
            field_of(json!([{"role": "user", "content": "  "}])),
            "messages[0]"
        );
        assert_eq!(
            field_of(json!([{"role": "user", "content": "x", "timestamp": 1683554160}])),
            "messages[0].timestamp"
        );
        assert_eq!(
            field_of(json!([{"role": "user", "content": "x"},
                            {"role": "user", "content": "x", "timestamp": "2023-05-08"}])),
            "messages[1].timestamp"
        );
        assert_eq!(
            field_of(
                json!([{"role": "user", "content": "x", "timestamp": "1969-12-31T23:59:59Z"}])
            ),
            "messages[0].timestamp"
        );
    }

    #[test]
    fn timestamps_are_read_in_utc() {
        let parsed = parse_messages(&json!([
            {"role": "user", "content": "a", "timestamp": "2023-05-08T15:56:00.5+02:00"},
            {"role": "user", "content": "b", "timestamp": null},
            {"role": "user", "content": "c"}
        ]))
        .unwrap();
        let expected = Time::parse("2023-05-08T13:56:00.5Z").unwrap();
        assert_eq!(parsed[0].timestamp, Some(expected));
        assert_eq!(parsed[1].timestamp, None);
        assert_eq!(parsed[2].timestamp, None);
    }
}

#[cfg(test)]
mod host_shapes {
    use super::*;
    use serde_json::json;

    #[test]
    fn developer_role_and_responses_api_parts_are_accepted() {
        let messages = parse_messages(&json!([
            {"role": "developer", "content": "be brief"},
            {"role": "user", "content": [{"type": "input_text", "text": "hi"}]},
            {"role": "assistant", "content": [{"type": "output_text", "text": "hello"}]}
        ]))
        .unwrap();
        let got: Vec<(&str, &str)> = messages
            .iter()
            .map(|m| (m.role.as_str(), m.content.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("system", "be brief"),
                ("user", "hi"),
                ("assistant", "hello")
            ]
        );
    }
}
