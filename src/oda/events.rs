//! The one adapter for the payloads the wire seed leaves open (docs/ODA.md):
//! how a notification's params are read. Everything else in the client goes
//! through these functions, so a runtime with other payload shapes changes
//! this file only.
//!
//! - `session.event` `{"sessionId", "event": {"type": "message", "message":
//!   {"role": "assistant"|"user"|"tool", "content": "text" | [{"type":
//!   "text", "text": "…"}]}}}`; other event types are seen but carry no
//!   message.
//! - `session.status` `{"status": "running"|"idle"}`.
//! - `subagent.started` `{"sessionId": child, "parentSessionId": parent}`.
//! - `subagent.finished` `{"sessionId", "status": "ok"|"error",
//!   "lastAssistantMessage"?}`.

use serde_json::{Map, Value};

/// One notification, as the client needs it.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// An event appended to a session; `message` when it is a message event.
    Event {
        session: Option<String>,
        kind: String,
        message: Option<Message>,
    },
    /// The whole agent is running (`false`) or idle (`true`).
    Status { idle: bool, status: String },
    /// A sub-agent session started under `parent`.
    SubagentStarted {
        child: String,
        parent: Option<String>,
    },
    /// A sub-agent run finished.
    SubagentFinished {
        session: Option<String>,
        status: String,
        last: Option<String>,
    },
}

/// A message committed to a session.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub role: String,
    pub text: String,
}

/// Reads a notification; `None` for a method the client does not know.
/// Params that are not an object are read as an empty object (seed rule).
pub fn notice(method: &str, params: Option<&Value>) -> Option<Notice> {
    let empty = Map::new();
    let p = params.and_then(Value::as_object).unwrap_or(&empty);
    let string = |key: &str| p.get(key).and_then(Value::as_str).map(str::to_string);
    match method {
        "session.event" => {
            let event = p.get("event").and_then(Value::as_object);
            let kind = event
                .and_then(|e| e.get("type"))
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let message = (kind == "message")
                .then(|| event.and_then(|e| e.get("message")).and_then(message))
                .flatten();
            Some(Notice::Event {
                session: string("sessionId"),
                kind,
                message,
            })
        }
        "session.status" => {
            let status = string("status").unwrap_or_default();
            Some(Notice::Status {
                idle: status == "idle",
                status,
            })
        }
        "subagent.started" => Some(Notice::SubagentStarted {
            child: string("sessionId")?,
            parent: string("parentSessionId"),
        }),
        "subagent.finished" => Some(Notice::SubagentFinished {
            session: string("sessionId"),
            status: string("status").unwrap_or_default(),
            last: string("lastAssistantMessage"),
        }),
        _ => None,
    }
}

/// `{"role", "content": "text" | [{"type": "text", "text"}…]}`; parts of
/// other types (images, tool calls) add no text.
fn message(value: &Value) -> Option<Message> {
    let role = value.get("role")?.as_str()?.to_string();
    let text = match value.get("content")? {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter(|part| part.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => return None,
    };
    Some(Message { role, text })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn message_content_is_a_string_or_text_parts() {
        let string = json!({"sessionId": "s", "event": {"type": "message",
            "message": {"role": "assistant", "content": "hi"}}});
        let parts = json!({"sessionId": "s", "event": {"type": "message",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "h"},
                {"type": "image", "data": "x"}, {"type": "text", "text": "i"}]}}});
        for params in [string, parts] {
            let Some(Notice::Event { message, .. }) = notice("session.event", Some(&params)) else {
                panic!("not an event");
            };
            assert_eq!(message.unwrap().text, "hi");
        }
    }

    #[test]
    fn odd_params_and_unknown_methods() {
        assert_eq!(notice("session.other", Some(&json!({}))), None);
        assert_eq!(
            notice("session.status", Some(&json!(["idle"]))),
            Some(Notice::Status {
                idle: false,
                status: String::new()
            })
        );
        let Some(Notice::Event { message, kind, .. }) = notice(
            "session.event",
            Some(&json!({"event": {"type": "tool_call"}})),
        ) else {
            panic!("not an event");
        };
        assert_eq!((message, kind.as_str()), (None, "tool_call"));
        assert_eq!(notice("subagent.started", Some(&json!({}))), None);
    }
}
