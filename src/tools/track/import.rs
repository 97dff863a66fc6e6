//! `track import`: an `odek.event/v1` JSONL stream (seed 000, "Event schema")
//! becomes one closed episode per `run_id`. The whole stream is validated
//! before anything is written.
//!
//! Tool calls are paired by `data.call_id`, never by position: batched calls
//! interleave, and their completions may arrive in any order.

use super::episodes::{self, Draft, EpisodeFile, ToolCall, Turn};
use super::stamps;
use crate::clock::Time;
use crate::clock::stamp_of;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::redact::Redactor;
use serde_json::{Map, Value};
use std::collections::{HashMap, VecDeque};

/// The schema string every event line carries.
pub const EVENT_SCHEMA: &str = "odek.event/v1";

/// One run of the stream, ready to be written as an episode.
#[derive(Debug, Clone)]
pub struct RunImport {
    pub run_id: String,
    /// The session the stream named (`session_id`), if any, and the line it was on.
    pub session_id: Option<(String, usize)>,
    pub drafts: Vec<Draft>,
    pub tool_calls: usize,
    pub failed: usize,
    pub unfinished: usize,
    pub budget_stops: usize,
    /// Events of types that do not become turns.
    pub ignored: usize,
}

fn bad_line(line: usize, problem: impl Into<String>) -> Error {
    Error::invalid_args(format!("line {line}: {}", problem.into()))
        .with_hint(format!(
            "every line must be one JSON object with \"schema\": \"{EVENT_SCHEMA}\" and a \"type\"; \
             fix the line and import again (nothing was imported)"
        ))
        .with_detail("line", line)
}

/// The fields of a mapped event, checked.
struct Event<'a> {
    line: usize,
    kind: &'a str,
    ts: String,
    tool: Option<String>,
    iteration: Option<Value>,
    data: Map<String, Value>,
}

fn string_field(object: &Map<String, Value>, key: &str, line: usize) -> Result<Option<String>> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(bad_line(line, format!("\"{key}\" is not a string"))),
    }
}

/// Types that become turns; every other type is ignored.
const MAPPED: [&str; 7] = [
    "run_started",
    "run_failed",
    "tool_call_started",
    "tool_call_completed",
    "tool_call_failed",
    "budget_exceeded",
    "run_completed",
];

/// Parses and maps a whole stream. Any malformed line fails the whole import,
/// and so does an event time before 1970 or past `now` (the clock) by more
/// than [`stamps::MAX_SKEW`].
pub fn parse_stream(text: &str, now: Time) -> Result<Vec<RunImport>> {
    let mut runs: Vec<RunState> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = i + 1;
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        let value: Value =
            serde_json::from_str(raw).map_err(|e| bad_line(line, format!("not JSON ({e})")))?;
        let Value::Object(object) = value else {
            return Err(bad_line(line, "not a JSON object"));
        };
        match object.get("schema") {
            Some(Value::String(s)) if s == EVENT_SCHEMA => {}
            Some(Value::String(s)) => {
                return Err(bad_line(
                    line,
                    format!(
                        "schema is {}, not \"{EVENT_SCHEMA}\"",
                        Value::from(s.as_str())
                    ),
                )
                .with_detail("schema", s.clone()));
            }
            Some(_) => return Err(bad_line(line, "\"schema\" is not a string")),
            None => return Err(bad_line(line, "\"schema\" is missing")),
        }
        let kind = match object.get("type") {
            Some(Value::String(t)) if !t.is_empty() => t.as_str(),
            Some(Value::String(_)) => return Err(bad_line(line, "\"type\" is empty")),
            Some(_) => return Err(bad_line(line, "\"type\" is not a string")),
            None => return Err(bad_line(line, "\"type\" is missing")),
        };
        let run_id = string_field(&object, "run_id", line)?;
        let session_id = string_field(&object, "session_id", line)?;
        if !MAPPED.contains(&kind) {
            // Unknown (or unmapped) types are ignored, but counted for their run.
            if let Some(run_id) = run_id.filter(|r| !r.is_empty()) {
                let n = *by_id.entry(run_id.clone()).or_insert_with(|| {
                    runs.push(RunState::new(run_id.clone()));
                    runs.len() - 1
                });
                runs[n].ignored += 1;
                runs[n].note_session(session_id, line);
            }
            continue;
        }
        let run_id = run_id
            .filter(|r| !r.is_empty())
            .ok_or_else(|| bad_line(line, format!("a {kind} event needs a \"run_id\"")))?;
        let ts = match object.get("timestamp") {
            // The rules of a message's `timestamp`: an event after the clock
            // would mint an episode id from the future (every later id would
            // sort before it, and evolve's high-water mark would pass them).
            Some(Value::String(text)) => stamps::parse(text)
                .and_then(|at| stamps::check_not_future(at, now).map(|()| at))
                .map(stamp_of)
                .map_err(|r| {
                    bad_line(
                        line,
                        format!("timestamp {} {}", Value::from(text.as_str()), r.problem()),
                    )
                    .with_hint(format!(
                        "{}; fix the line and import again (nothing was imported)",
                        r.hint()
                    ))
                })?,
            Some(_) => return Err(bad_line(line, "\"timestamp\" is not a string")),
            None => {
                return Err(bad_line(
                    line,
                    format!("a {kind} event needs a \"timestamp\""),
                ));
            }
        };
        let data = match object.get("data") {
            None => Map::new(),
            Some(Value::Object(data)) => data.clone(),
            Some(Value::Null) => return Err(bad_line(line, "\"data\" is null, not an object")),
            Some(_) => return Err(bad_line(line, "\"data\" is not an object")),
        };
        let tool = string_field(&object, "tool", line)?;
        let event = Event {
            line,
            kind,
            ts,
            tool,
            iteration: object.get("iteration").cloned().filter(|v| !v.is_null()),
            data,
        };
        let n = *by_id.entry(run_id.clone()).or_insert_with(|| {
            runs.push(RunState::new(run_id.clone()));
            runs.len() - 1
        });
        runs[n].note_session(session_id, line);
        runs[n].apply(event)?;
    }
    Ok(runs.into_iter().filter_map(RunState::finish).collect())
}

/// The session of a run that has neither `--session` nor a `session_id`:
/// `odek-` and the first 12 safe characters of its run id. A folder name never
/// carries secret material: when the redactor would mask the run id (or that
/// name), the run goes to `import-<8 hex>`, from a hash that cannot be reversed
/// to the id.
pub fn default_session(redactor: &Redactor, run_id: &str) -> String {
    let prefix: String = run_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(12)
        .collect();
    let name = if prefix.is_empty() {
        "odek".to_string()
    } else {
        format!("odek-{prefix}")
    };
    if redactor.redact(run_id) != run_id || redactor.redact(&name) != name {
        return format!("import-{:08x}", fnv1a(run_id.as_bytes()));
    }
    name
}

/// 32-bit FNV-1a: a short, stable, one-way name for a value.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash, b| {
        (hash ^ u32::from(*b)).wrapping_mul(0x0100_0193)
    })
}

/// The closed episode of `session` that an earlier import of `run_id` wrote.
/// Stored run ids are redacted, so the comparison is on the redacted form.
pub fn imported_episode(home: &Home, session: &str, run_id: &str) -> Result<Option<EpisodeFile>> {
    let stored = home.store.redactor().redact(run_id);
    Ok(episodes::episodes_of(home, session)?
        .into_iter()
        .find(|ep| {
            !ep.open
                && first_turn(ep).is_some_and(|t| {
                    t.source == "import"
                        && t.meta.get("run_id").and_then(Value::as_str) == Some(stored.as_ref())
                })
        }))
}

/// The first turn of a closed episode, read cheaply (first line only).
fn first_turn(ep: &EpisodeFile) -> Option<Turn> {
    use std::io::BufRead;
    let file = std::fs::File::open(&ep.path).ok()?;
    let mut line = String::new();
    std::io::BufReader::new(file).read_line(&mut line).ok()?;
    serde_json::from_str(&line).ok()
}

/// A turn being assembled; tool turns wait for their completion.
struct Slot {
    draft: Draft,
    tool: Option<String>,
    done: bool,
}

struct RunState {
    run_id: String,
    session_id: Option<(String, usize)>,
    slots: Vec<Slot>,
    /// call_id → slots started and not yet completed, oldest first.
    pending: HashMap<String, VecDeque<usize>>,
    /// call_id → completions that arrived before their start, oldest first.
    orphans: HashMap<String, VecDeque<usize>>,
    ignored: usize,
}

fn num_text(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

impl RunState {
    fn new(run_id: String) -> RunState {
        RunState {
            run_id,
            session_id: None,
            slots: Vec::new(),
            pending: HashMap::new(),
            orphans: HashMap::new(),
            ignored: 0,
        }
    }

    fn note_session(&mut self, session_id: Option<String>, line: usize) {
        if self.session_id.is_none()
            && let Some(s) = session_id.filter(|s| !s.is_empty())
        {
            self.session_id = Some((s, line));
        }
    }

    fn meta(&self, event: &Event) -> Map<String, Value> {
        let mut meta = Map::new();
        meta.insert("event".into(), Value::from(event.kind));
        meta.insert("run_id".into(), Value::from(self.run_id.clone()));
        if let Some(iteration) = &event.iteration {
            meta.insert("iteration".into(), iteration.clone());
        }
        meta
    }

    fn system(&mut self, event: &Event, content: String, keys: &[&str]) {
        let mut meta = self.meta(event);
        for key in keys {
            if let Some(v) = event.data.get(*key).filter(|v| !v.is_null()) {
                meta.insert((*key).to_string(), v.clone());
            }
        }
        self.slots.push(Slot {
            draft: Draft {
                ts: event.ts.clone(),
                role: "system".into(),
                content,
                tool_calls: Vec::new(),
                tool_call_id: None,
                source: "import".into(),
                meta,
            },
            tool: None,
            done: true,
        });
    }

    fn apply(&mut self, event: Event) -> Result<()> {
        let d = &event.data;
        match event.kind {
            "run_started" => {
                let mut parts = Vec::new();
                if let Some(model) = num_text(d.get("model")) {
                    parts.push(format!("model {model}"));
                }
                match d.get("sandbox") {
                    Some(Value::Bool(true)) => parts.push("sandbox on".into()),
                    Some(Value::Bool(false)) => parts.push("sandbox off".into()),
                    _ => {}
                }
                if let Some(max) = num_text(d.get("max_iterations")) {
                    parts.push(format!("max {max} iterations"));
                }
                let content = if parts.is_empty() {
                    "run started".to_string()
                } else {
                    format!("run started: {}", parts.join(", "))
                };
                self.system(&event, content, &["model", "sandbox", "max_iterations"]);
            }
            "run_completed" => {
                let mut content = "run completed".to_string();
                if let Some(ms) = num_text(d.get("duration_ms")) {
                    content.push_str(&format!(" in {ms} ms"));
                }
                if let (Some(i), Some(o)) = (
                    num_text(d.get("input_tokens")),
                    num_text(d.get("output_tokens")),
                ) {
                    content.push_str(&format!(" ({i} input / {o} output tokens)"));
                }
                self.system(
                    &event,
                    content,
                    &["duration_ms", "input_tokens", "output_tokens"],
                );
            }
            "run_failed" => {
                let class = num_text(d.get("error_class")).unwrap_or_else(|| "error".into());
                let mut content = format!("run failed: {class}");
                if let Some(ms) = num_text(d.get("duration_ms")) {
                    content.push_str(&format!(" after {ms} ms"));
                }
                self.system(&event, content, &["duration_ms", "error_class"]);
            }
            "budget_exceeded" => {
                let name = num_text(d.get("limit_name")).unwrap_or_else(|| "unknown".into());
                let observed = num_text(d.get("observed")).unwrap_or_else(|| "?".into());
                let limit = num_text(d.get("limit")).unwrap_or_else(|| "?".into());
                self.system(
                    &event,
                    format!("budget exceeded: {name} observed {observed} > limit {limit}"),
                    &["limit_name", "observed", "limit"],
                );
            }
            "tool_call_started" => {
                let call_id = self.call_id(&event)?;
                let name = event.tool.clone().unwrap_or_else(|| "unknown".into());
                let arguments = d
                    .get("args_summary")
                    .filter(|v| !v.is_null())
                    .or_else(|| d.get("args"))
                    .cloned()
                    .unwrap_or(Value::Null);
                let mut meta = self.meta(&event);
                meta.insert("event".into(), Value::from("tool_call"));
                meta.insert("call_id".into(), Value::from(call_id.clone()));
                for key in ["args_sha256", "args_bytes"] {
                    if let Some(v) = d.get(key).filter(|v| !v.is_null()) {
                        meta.insert(key.into(), v.clone());
                    }
                }
                // Its completion came first (events of parallel calls can be
                // written out of order): pair them by call_id all the same.
                if let Some(index) = self.orphans.get_mut(&call_id).and_then(VecDeque::pop_front) {
                    let slot = &mut self.slots[index];
                    slot.draft.ts = event.ts.clone();
                    slot.draft.tool_calls[0].arguments = arguments;
                    if slot.tool.is_none()
                        && let Some(tool) = &event.tool
                    {
                        let old =
                            std::mem::replace(&mut slot.draft.tool_calls[0].name, tool.clone());
                        slot.tool = Some(tool.clone());
                        if let Some(rest) = slot.draft.content.strip_prefix(old.as_str()) {
                            slot.draft.content = format!("{tool}{rest}");
                        }
                    }
                    slot.draft.meta.remove("orphan");
                    for (key, value) in meta {
                        slot.draft.meta.entry(key).or_insert(value);
                    }
                    return Ok(());
                }
                self.slots.push(Slot {
                    draft: Draft {
                        ts: event.ts.clone(),
                        role: "tool".into(),
                        content: String::new(),
                        tool_calls: vec![ToolCall {
                            id: call_id.clone(),
                            name,
                            arguments,
                        }],
                        tool_call_id: Some(call_id.clone()),
                        source: "import".into(),
                        meta,
                    },
                    tool: event.tool.clone(),
                    done: false,
                });
                self.pending
                    .entry(call_id)
                    .or_default()
                    .push_back(self.slots.len() - 1);
            }
            "tool_call_completed" | "tool_call_failed" => {
                let call_id = self.call_id(&event)?;
                let failed = event.kind == "tool_call_failed";
                let index = match self.pending.get_mut(&call_id).and_then(VecDeque::pop_front) {
                    Some(index) => index,
                    None => {
                        // A completion whose start is not in the stream (dropped events).
                        let mut meta = self.meta(&event);
                        meta.insert("event".into(), Value::from("tool_call"));
                        meta.insert("call_id".into(), Value::from(call_id.clone()));
                        meta.insert("orphan".into(), Value::Bool(true));
                        self.slots.push(Slot {
                            draft: Draft {
                                ts: event.ts.clone(),
                                role: "tool".into(),
                                content: String::new(),
                                tool_calls: vec![ToolCall {
                                    id: call_id.clone(),
                                    name: event.tool.clone().unwrap_or_else(|| "unknown".into()),
                                    arguments: Value::Null,
                                }],
                                tool_call_id: Some(call_id.clone()),
                                source: "import".into(),
                                meta,
                            },
                            tool: event.tool.clone(),
                            done: false,
                        });
                        let index = self.slots.len() - 1;
                        self.orphans
                            .entry(call_id.clone())
                            .or_default()
                            .push_back(index);
                        index
                    }
                };
                let slot = &mut self.slots[index];
                if slot.tool.is_none()
                    && let Some(tool) = &event.tool
                {
                    slot.tool = Some(tool.clone());
                    slot.draft.tool_calls[0].name = tool.clone();
                }
                let meta = &mut slot.draft.meta;
                for key in [
                    "duration_ms",
                    "result_bytes",
                    "artifact_count",
                    "error_class",
                ] {
                    if let Some(v) = d.get(key).filter(|v| !v.is_null()) {
                        meta.insert(key.into(), v.clone());
                    }
                }
                meta.insert("failed".into(), Value::Bool(failed));
                let name = slot.draft.tool_calls[0].name.clone();
                let mut content = if failed {
                    let class = num_text(d.get("error_class")).unwrap_or_else(|| "error".into());
                    format!("{name} failed ({class})")
                } else {
                    format!("{name} ok")
                };
                if let Some(ms) = num_text(d.get("duration_ms")) {
                    content.push_str(&format!(" · {ms} ms"));
                }
                if let Some(bytes) = num_text(d.get("result_bytes")) {
                    content.push_str(&format!(" · {bytes} result bytes"));
                }
                slot.draft.content = content;
                slot.done = true;
            }
            _ => unreachable!("only mapped types reach apply"),
        }
        Ok(())
    }

    fn call_id(&self, event: &Event) -> Result<String> {
        match event.data.get("call_id") {
            Some(Value::String(id)) if !id.is_empty() => Ok(id.clone()),
            Some(Value::String(_)) => Err(bad_line(event.line, "data.call_id is empty")),
            Some(_) => Err(bad_line(event.line, "data.call_id is not a string")),
            None => Err(bad_line(
                event.line,
                format!("a {} event needs data.call_id", event.kind),
            )),
        }
    }

    fn finish(self) -> Option<RunImport> {
        if self.slots.is_empty() {
            return None;
        }
        let mut run = RunImport {
            run_id: self.run_id,
            session_id: self.session_id,
            drafts: Vec::new(),
            tool_calls: 0,
            failed: 0,
            unfinished: 0,
            budget_stops: 0,
            ignored: self.ignored,
        };
        for mut slot in self.slots {
            if slot.draft.role == "tool" {
                run.tool_calls += 1;
                if !slot.done {
                    run.unfinished += 1;
                    let name = slot.draft.tool_calls[0].name.clone();
                    slot.draft.content = format!("{name} started, never finished");
                    slot.draft
                        .meta
                        .insert("unfinished".into(), Value::Bool(true));
                } else if slot.draft.meta.get("failed") == Some(&Value::Bool(true)) {
                    run.failed += 1;
                }
            }
            if slot.draft.meta.get("event").and_then(Value::as_str) == Some("budget_exceeded") {
                run.budget_stops += 1;
            }
            run.drafts.push(slot.draft);
        }
        Some(run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: &str, ts: &str, extra: &str) -> String {
        format!(
            "{{\"schema\":\"odek.event/v1\",\"type\":\"{kind}\",\"run_id\":\"r1\",\"timestamp\":\"{ts}\"{extra}}}"
        )
    }

    #[test]
    fn pairs_by_call_id_not_position() {
        let stream = [
            ev(
                "tool_call_started",
                "2026-01-01T00:00:01Z",
                ",\"tool\":\"a\",\"data\":{\"call_id\":\"c1\"}",
            ),
            ev(
                "tool_call_started",
                "2026-01-01T00:00:02Z",
                ",\"tool\":\"b\",\"data\":{\"call_id\":\"c2\"}",
            ),
            ev(
                "tool_call_failed",
                "2026-01-01T00:00:03Z",
                ",\"tool\":\"b\",\"data\":{\"call_id\":\"c2\",\"error_class\":\"tool_error\"}",
            ),
            ev(
                "tool_call_completed",
                "2026-01-01T00:00:04Z",
                ",\"tool\":\"a\",\"data\":{\"call_id\":\"c1\",\"duration_ms\":5}",
            ),
        ]
        .join("\n");
        let runs = parse_stream(&stream, Time::MAX).unwrap();
        let d = &runs[0].drafts;
        assert_eq!(d[0].tool_calls[0].name, "a");
        assert_eq!(d[0].meta["duration_ms"], 5);
        assert_eq!(d[0].meta["failed"], false);
        assert_eq!(d[1].tool_calls[0].name, "b");
        assert_eq!(d[1].meta["error_class"], "tool_error");
        assert_eq!(runs[0].failed, 1);
    }

    #[test]
    fn malformed_lines_are_named() {
        for (line, expect) in [
            ("not json", "not JSON"),
            ("[1]", "not a JSON object"),
            ("{\"schema\":\"odek.event/v2\",\"type\":\"x\"}", "schema"),
            ("{\"schema\":\"odek.event/v1\"}", "\"type\" is missing"),
            (
                "{\"schema\":\"odek.event/v1\",\"type\":\"run_started\"}",
                "run_id",
            ),
            (
                "{\"schema\":\"odek.event/v1\",\"type\":\"run_completed\",\"run_id\":\"r1\",\
                 \"timestamp\":\"2026-01-01T00:00:00Z\",\"data\":null}",
                "\"data\" is null",
            ),
            (
                "{\"schema\":\"odek.event/v1\",\"type\":\"run_completed\",\"run_id\":\"r1\",\
                 \"timestamp\":\"1969-12-31T23:59:59Z\"}",
                "is before 1970",
            ),
            (
                "{\"schema\":\"odek.event/v1\",\"type\":\"run_completed\",\"run_id\":\"r1\",\
                 \"timestamp\":\"2026-01-01\"}",
                "is not an RFC 3339 time",
            ),
        ] {
            let stream = format!(
                "{}\n\n{line}\n",
                ev("run_started", "2026-01-01T00:00:00Z", "")
            );
            let err = parse_stream(&stream, Time::MAX).unwrap_err();
            assert_eq!(err.detail["line"], 3, "{line}");
            assert!(err.message.contains(expect), "{}", err.message);
        }
    }

    #[test]
    fn secret_looking_run_ids_never_name_a_folder() {
        let r = Redactor::builtin();
        assert_eq!(
            default_session(&r, "4f1c9a2be0d34c7f8a6b"),
            "odek-4f1c9a2be0d3"
        );
        assert_eq!(default_session(&r, "!!!"), "odek");
        let secret = "sk-proj-QrStUvWxYzghijklmnopqrstuv";
        let name = default_session(&r, secret);
        assert!(name.starts_with("import-") && name.len() == 15, "{name}");
        assert_eq!(name, default_session(&r, secret), "stable");
        assert_ne!(
            name,
            default_session(&r, "ghp_QrStUvWxYzghijklmnopqrstuvwxyz0123456")
        );
        // the FNV-1a reference values
        assert_eq!(fnv1a(b""), 0x811c_9dc5);
        assert_eq!(fnv1a(b"a"), 0xe40c_292c);
    }
}
