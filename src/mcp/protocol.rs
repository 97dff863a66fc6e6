//! JSON-RPC 2.0 framing for the MCP stdio transport: bounded line reading,
//! request classification, error codes, version negotiation, the protocol
//! era of each request (the `initialize` handshake, or 2026-07-28's
//! per-request `_meta`) and the shape of its result, and the caps on what
//! goes back out (result text and reply lines).

use serde_json::{Map, Value, json};
use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Condvar, Mutex};

/// The protocol versions this server speaks, oldest first.
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// Answered when a client asks for a version this server does not know.
pub const LATEST_VERSION: &str = "2025-11-25";

/// The modern revisions (no `initialize`; every request carries its version
/// and the client's capabilities in `params._meta`), newest first. Served
/// alongside [`PROTOCOL_VERSIONS`], request by request (docs/MCP.md, "Two
/// protocol eras").
pub const MODERN_VERSIONS: [&str; 1] = ["2026-07-28"];

/// The reserved `_meta` keys of 2026-07-28 (schema `RequestMetaObject` and
/// `ResultMetaObject`).
pub const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";
pub const CLIENT_CAPABILITIES_META: &str = "io.modelcontextprotocol/clientCapabilities";
pub const SERVER_INFO_META: &str = "io.modelcontextprotocol/serverInfo";

/// No reply line is ever longer than this (odek's default `max_response_bytes`).
pub const MAX_RESPONSE_BYTES: usize = 10 * 1024 * 1024;

/// JSON-RPC and MCP error codes.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP up to 2025-11-25: `resources/read` of a URI the server does not
/// have (2026-07-28 retired the code; a modern request gets `-32602`).
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// MCP 2026-07-28: the request's protocol version is not served
/// (`UnsupportedProtocolVersionError`, data `{supported, requested}`).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// Every version this server speaks, newest first: the list an
/// `UnsupportedProtocolVersionError` and `server/discover` name.
pub fn supported_versions() -> Vec<&'static str> {
    MODERN_VERSIONS
        .iter()
        .chain(PROTOCOL_VERSIONS.iter().rev())
        .copied()
        .collect()
}

/// How one request is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// The `initialize` handshake's world (2025-11-25 and older): the
    /// session's negotiated version applies.
    Legacy,
    /// A modern request, at this version: stateless, its result shaped for
    /// the version ([`shape_modern`]).
    Modern(&'static str),
}

/// The era of one request, decided from the request alone (2026-07-28,
/// basic/lifecycle: "the server accepts or rejects each request
/// independently"). A request whose `params._meta` carries
/// `io.modelcontextprotocol/protocolVersion` is modern — `initialize`
/// included, which that era removed (`-32601`); every request without that
/// key is legacy, except `server/discover`, which exists only in the modern
/// era. A modern request is refused with
/// `-32602` when its envelope lacks a required key or its version is not a
/// string, and with `-32022` (naming every version served) when the version
/// is not one this server serves per request.
pub fn era_of(method: &str, params: Option<&Value>) -> Result<Era, RpcError> {
    let meta = params
        .and_then(|p| p.get("_meta"))
        .and_then(Value::as_object);
    let enveloped = meta.is_some_and(|m| m.contains_key(PROTOCOL_VERSION_META));
    if !enveloped && method != "server/discover" {
        return Ok(Era::Legacy);
    }
    let Some(meta) = meta else {
        return Err(RpcError::invalid_params(format!(
            "invalid params: {method} is a 2026-07-28 request: params._meta must be an object \
             carrying {PROTOCOL_VERSION_META:?} and {CLIENT_CAPABILITIES_META:?}"
        )));
    };
    let missing: Vec<&str> = [PROTOCOL_VERSION_META, CLIENT_CAPABILITIES_META]
        .into_iter()
        .filter(|key| !meta.contains_key(*key))
        .collect();
    if !missing.is_empty() {
        return Err(RpcError::invalid_params(format!(
            "invalid params: params._meta is missing the required key(s): {}",
            missing.join(", ")
        ))
        .with_data(json!({"missing": missing})));
    }
    let Some(requested) = meta[PROTOCOL_VERSION_META].as_str() else {
        return Err(RpcError::invalid_params(format!(
            "invalid params: params._meta[{PROTOCOL_VERSION_META:?}] must be a string"
        )));
    };
    match MODERN_VERSIONS.iter().find(|v| **v == requested) {
        Some(version) => Ok(Era::Modern(version)),
        None => Err(
            RpcError::new(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version")
                .with_data(json!({"supported": supported_versions(), "requested": requested})),
        ),
    }
}

/// Cache hints (`ttlMs`, `cacheScope`) of the 2026-07-28 results that carry
/// them: lists of what the binary serves (the same for every user, fixed
/// while it runs) are public and fresh for an hour; a read of the memory is
/// private and stale at once (the next save changes it).
pub fn cache_hint(method: &str) -> Option<(u64, &'static str)> {
    match method {
        "server/discover" | "tools/list" | "resources/list" | "resources/templates/list" => {
            Some((3_600_000, "public"))
        }
        "resources/read" => Some((0, "private")),
        _ => None,
    }
}

/// A result as the 2026-07-28 schema has it: `resultType` (required on
/// every result; ours are all `complete`), the cache hints of the methods
/// that carry them, and the server's identity in `_meta`
/// (`io.modelcontextprotocol/serverInfo`, which servers SHOULD stamp on
/// every result).
pub fn shape_modern(method: &str, mut result: Value, server_info: &Value) -> Value {
    let Some(object) = result.as_object_mut() else {
        return result;
    };
    object
        .entry("resultType")
        .or_insert_with(|| json!("complete"));
    if let Some((ttl_ms, scope)) = cache_hint(method) {
        object.insert("ttlMs".into(), json!(ttl_ms));
        object.insert("cacheScope".into(), json!(scope));
    }
    let meta = object.entry("_meta").or_insert_with(|| json!({}));
    if let Some(meta) = meta.as_object_mut() {
        meta.insert(SERVER_INFO_META.into(), server_info.clone());
    }
    result
}

/// The version to answer for a requested one: the same when supported, else
/// the latest (the MCP negotiation rule).
pub fn negotiate(requested: Option<&str>) -> &'static str {
    PROTOCOL_VERSIONS
        .iter()
        .find(|v| Some(**v) == requested)
        .copied()
        .unwrap_or(LATEST_VERSION)
}

/// What a negotiated version lets the server send. Versions are dates, so
/// they compare as strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    pub version: &'static str,
}

impl Features {
    pub fn new(version: &'static str) -> Features {
        Features { version }
    }

    /// Tool annotations (`readOnlyHint` …) exist since 2025-03-26.
    pub fn annotations(self) -> bool {
        self.version >= "2025-03-26"
    }

    /// `title`, `outputSchema` and `structuredContent` exist since 2025-06-18.
    pub fn structured(self) -> bool {
        self.version >= "2025-06-18"
    }

    /// JSON-RPC batches: 2025-03-26 requires servers to accept them (and
    /// 2024-11-05 speaks plain JSON-RPC 2.0, which has them); 2025-06-18
    /// removed them.
    pub fn batches(self) -> bool {
        self.version < "2025-06-18"
    }
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub fn with_data(mut self, data: Value) -> RpcError {
        self.data = Some(data);
        self
    }

    pub fn invalid_params(message: impl Into<String>) -> RpcError {
        RpcError::new(INVALID_PARAMS, message)
    }

    pub fn internal(message: impl Into<String>) -> RpcError {
        RpcError::new(INTERNAL_ERROR, message)
    }

    pub fn to_json(&self) -> Value {
        let mut error = json!({"code": self.code, "message": self.message});
        if let Some(data) = &self.data {
            error["data"] = data.clone();
        }
        error
    }
}

/// A success reply.
pub fn reply(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error reply (`id` is `null` when the request's id is unknown).
pub fn reply_error(id: &Value, error: &RpcError) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": error.to_json()})
}

/// One incoming line, classified.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request: it gets exactly one reply.
    Request {
        id: Value,
        method: String,
        params: Option<Value>,
    },
    /// A notification: it never gets a reply.
    Notification {
        method: String,
        params: Option<Value>,
    },
    /// A response to a request this server never sent: ignored.
    Response,
    /// Not a valid message: answered with this error (and this id, or null).
    Invalid { id: Value, error: RpcError },
}

/// Parses one line (without its newline): the JSON value, or the `-32700`
/// reply's classification.
pub fn parse(line: &[u8]) -> Result<Value, Message> {
    serde_json::from_slice(line).map_err(|e| Message::Invalid {
        id: Value::Null,
        error: RpcError::new(PARSE_ERROR, format!("parse error: {e}")),
    })
}

/// Parses and classifies one line (without its newline).
pub fn classify(line: &[u8]) -> Message {
    match parse(line) {
        Ok(value) => classify_value(value),
        Err(message) => message,
    }
}

/// Classifies one parsed message (a batch is invalid here: the caller
/// unpacks batches where the negotiated version has them).
pub fn classify_value(value: Value) -> Message {
    let invalid = |id: Value, message: &str| Message::Invalid {
        id,
        error: RpcError::new(INVALID_REQUEST, format!("invalid request: {message}")),
    };
    let mut object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return invalid(
                Value::Null,
                "batches are not supported; send one message per line",
            );
        }
        _ => return invalid(Value::Null, "a message must be a JSON object"),
    };
    // A usable id is a string or an integer; anything else cannot be echoed.
    let id = match object.get("id") {
        None => None,
        Some(id @ Value::String(_)) => Some(id.clone()),
        Some(id @ Value::Number(n)) if n.is_i64() || n.is_u64() => Some(id.clone()),
        Some(_) => return invalid(Value::Null, "id must be a string or an integer"),
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(id.unwrap_or(Value::Null), "jsonrpc must be \"2.0\"");
    }
    let method = match object.get("method") {
        Some(Value::String(method)) => method.clone(),
        Some(_) => return invalid(id.unwrap_or(Value::Null), "method must be a string"),
        None if id.is_some() && (object.contains_key("result") || object.contains_key("error")) => {
            return Message::Response;
        }
        None => return invalid(id.unwrap_or(Value::Null), "method is missing"),
    };
    // Taken, not copied: a save's params are most of the line.
    let params = object.remove("params");
    match id {
        // MCP's params are always named (an object), whatever the method: a
        // request with any other params (an array, a string …) is refused
        // before it runs. `null` counts as absent.
        Some(id)
            if params
                .as_ref()
                .is_some_and(|p| !(p.is_object() || p.is_null())) =>
        {
            Message::Invalid {
                id,
                error: RpcError::invalid_params(format!(
                    "invalid params: params of {method} must be an object (or left out)"
                )),
            }
        }
        Some(id) => Message::Request { id, method, params },
        None => Message::Notification { method, params },
    }
}

/// `params` as an object: absent or null is `{}`; anything else is `-32602`.
pub fn params_object(params: Option<Value>) -> Result<Map<String, Value>, RpcError> {
    match params {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(object)) => Ok(object),
        Some(_) => Err(RpcError::invalid_params("params must be an object")),
    }
}

/// What the line reader produced.
#[derive(Debug, PartialEq)]
pub enum Frame {
    /// A line (without `\n` or a trailing `\r`), within the cap.
    Line(Vec<u8>),
    /// A line longer than the cap; its bytes were discarded as they arrived.
    Oversize { observed: u64 },
    /// End of input.
    Eof,
}

/// Reads newline-delimited frames, never holding more than `cap` bytes of
/// one line: the rest of an oversize line is read and dropped in the
/// reader's own (bounded) buffer chunks.
#[derive(Debug)]
pub struct LineReader<R> {
    input: R,
    cap: usize,
    buf: Vec<u8>,
}

/// Buffer capacity kept between lines; a big line's allocation is released.
const KEEP_CAPACITY: usize = 64 * 1024;

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R, cap: usize) -> LineReader<R> {
        LineReader {
            input,
            cap,
            buf: Vec::new(),
        }
    }

    /// The next frame.
    pub fn next_frame(&mut self) -> io::Result<Frame> {
        self.buf.clear();
        if self.buf.capacity() > KEEP_CAPACITY {
            self.buf.shrink_to(KEEP_CAPACITY);
        }
        let mut observed: u64 = 0;
        let mut oversize = false;
        let mut any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                // EOF: a last line without its newline still counts.
                return Ok(match (any, oversize) {
                    (false, _) => Frame::Eof,
                    (true, true) => Frame::Oversize { observed },
                    (true, false) => Frame::Line(self.finish()),
                });
            }
            any = true;
            let (part, used, done) = match chunk.iter().position(|b| *b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            observed += part.len() as u64;
            if !oversize {
                if self.buf.len() + part.len() <= self.cap {
                    self.buf.extend_from_slice(part);
                } else {
                    oversize = true;
                    self.buf.clear();
                }
            }
            self.input.consume(used);
            if done {
                return Ok(if oversize {
                    Frame::Oversize { observed }
                } else {
                    Frame::Line(self.finish())
                });
            }
        }
    }

    fn finish(&mut self) -> Vec<u8> {
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        std::mem::take(&mut self.buf)
    }
}

/// How many bytes of lines the reader thread may hold that the server has
/// not finished with (one line is always let through, whatever its size).
const READ_AHEAD_BYTES: usize = 4 * 1024 * 1024;

/// Frames read by a thread of their own, so that the server can see which
/// requests are already waiting (group commit) without ever waiting for one
/// that is not. In order; the last item is `Eof` or the read error.
#[derive(Debug)]
pub struct ReadAhead {
    frames: Receiver<Queued>,
    budget: Arc<Budget>,
}

/// One frame from the reader thread. It counts against the read-ahead
/// budget until it is dropped.
#[derive(Debug)]
pub struct Queued {
    pub frame: io::Result<Frame>,
    size: usize,
    budget: Arc<Budget>,
}

impl Queued {
    /// Whether nothing follows this frame (end of input, or a read error).
    pub fn ends(&self) -> bool {
        matches!(self.frame, Ok(Frame::Eof) | Err(_))
    }
}

impl Drop for Queued {
    fn drop(&mut self) {
        self.budget.release(self.size);
    }
}

/// Bytes held by queued frames; the reader waits while over the budget.
#[derive(Debug, Default)]
struct Budget {
    held: Mutex<(usize, bool)>,
    freed: Condvar,
}

impl Budget {
    fn lock(&self) -> std::sync::MutexGuard<'_, (usize, bool)> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until `size` more bytes fit (or nothing is held); false once
    /// the server has gone.
    fn acquire(&self, size: usize) -> bool {
        let mut held = self.lock();
        while held.0 > 0 && held.0 + size > READ_AHEAD_BYTES && !held.1 {
            held = self.freed.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        held.0 += size;
        !held.1
    }

    fn release(&self, size: usize) {
        self.lock().0 -= size;
        self.freed.notify_all();
    }

    fn close(&self) {
        self.lock().1 = true;
        self.freed.notify_all();
    }
}

impl ReadAhead {
    /// Starts the reader thread on `input` (lines capped at `cap` bytes, as
    /// [`LineReader`] does). The thread ends at end of input, at a read
    /// error, or once this queue is dropped and it next has a frame to hand
    /// over (a thread blocked reading ends with the process).
    pub fn spawn<R: BufRead + Send + 'static>(input: R, cap: usize) -> io::Result<ReadAhead> {
        let (send, frames) = mpsc::channel();
        let budget = Arc::new(Budget::default());
        let shared = Arc::clone(&budget);
        std::thread::Builder::new()
            .name("mcp-stdin".to_string())
            .spawn(move || {
                let mut lines = LineReader::new(input, cap);
                loop {
                    let frame = lines.next_frame();
                    let size = match &frame {
                        Ok(Frame::Line(line)) => line.len(),
                        _ => 0,
                    };
                    let last = matches!(frame, Ok(Frame::Eof) | Err(_));
                    if !shared.acquire(size) {
                        return;
                    }
                    let queued = Queued {
                        frame,
                        size,
                        budget: Arc::clone(&shared),
                    };
                    if send.send(queued).is_err() || last {
                        return;
                    }
                }
            })?;
        Ok(ReadAhead { frames, budget })
    }

    /// The next frame, waiting for it; `None` after the last one.
    pub fn next(&self) -> Option<Queued> {
        self.frames.recv().ok()
    }

    /// The next frame, waiting at most `wait` (`Timeout`: none came;
    /// `Disconnected`: there are no more).
    pub fn next_within(&self, wait: std::time::Duration) -> Result<Queued, mpsc::RecvTimeoutError> {
        self.frames.recv_timeout(wait)
    }

    /// The next frame if it has been read already; never waits.
    pub fn ready(&self) -> Option<Queued> {
        self.frames.try_recv().ok()
    }
}

impl Drop for ReadAhead {
    fn drop(&mut self) {
        self.budget.close();
    }
}

/// Cuts `text` to at most `max_chars` characters, notice included:
/// `…\n\n[truncated: N of M characters shown]`. Returns the text and whether
/// it was cut.
pub fn bound_text(text: String, max_chars: usize) -> (String, bool) {
    let total = text.chars().count();
    if total <= max_chars {
        return (text, false);
    }
    let notice = |shown: usize| format!("\n\n[truncated: {shown} of {total} characters shown]");
    // The notice's own length depends on `shown`; the longest it can be is
    // with `shown == total`.
    let room = max_chars.saturating_sub(notice(total).chars().count());
    let cut = text
        .char_indices()
        .nth(room)
        .map(|(i, _)| i)
        .unwrap_or(text.len());
    let mut out = text[..cut].to_string();
    out.push_str(&notice(room));
    (out, true)
}

/// The reply line to write: `reply` serialized, or, when that would exceed
/// `cap` bytes (newline included), an error reply in its place.
pub fn reply_line(reply: &Value, cap: usize) -> String {
    let line = reply.to_string();
    if line.len() < cap {
        return line;
    }
    let id = reply.get("id").cloned().unwrap_or(Value::Null);
    let error = RpcError::internal(format!(
        "the reply would be {} bytes, over the {cap}-byte limit for one line; ask for less (a smaller topK or a narrower query)",
        line.len() + 1
    ))
    .with_data(json!({"limit_name": "max_response_bytes", "observed": line.len() + 1, "limit": cap}));
    reply_error(&id, &error).to_string()
}

/// The reply line for a batch: a JSON array of the replies, each bounded like
/// a single reply. When the array as a whole would exceed `cap` bytes
/// (newline included), the biggest replies give way to `-32603` errors until
/// it fits; if even that cannot make it fit, one error object answers the
/// batch.
pub fn batch_line(replies: &[Value], cap: usize) -> String {
    let mut lines: Vec<String> = replies.iter().map(|r| reply_line(r, cap)).collect();
    let total = |lines: &[String]| lines.iter().map(|l| l.len() + 1).sum::<usize>() + 2;
    while total(&lines) > cap {
        let observed = total(&lines);
        let Some((i, biggest)) = lines.iter().enumerate().max_by_key(|(_, line)| line.len()) else {
            break;
        };
        let id = replies[i].get("id").cloned().unwrap_or(Value::Null);
        let error = RpcError::internal(format!(
            "the batch's replies would be {observed} bytes, over the {cap}-byte limit for one line; \
             this reply was dropped: send this request on its own or ask for less"
        ))
        .with_data(json!({"limit_name": "max_response_bytes", "observed": observed, "limit": cap}));
        let small = reply_error(&id, &error).to_string();
        if small.len() >= biggest.len() {
            // Every reply is already as small as an error: one error for all.
            let error = RpcError::internal(format!(
                "the batch's replies would be {observed} bytes, over the {cap}-byte limit for one line; \
                 send fewer requests per batch"
            ))
            .with_data(json!({"limit_name": "max_response_bytes", "observed": observed, "limit": cap}));
            return reply_error(&Value::Null, &error).to_string();
        }
        lines[i] = small;
    }
    format!("[{}]", lines.join(","))
}

/// Bounds a JSON object result to `max_chars` characters of serialized
/// text, keeping it valid JSON (a cut JSON text would be malformed, and
/// odek rejects malformed JSON outright): strings longer than a quarter of
/// the budget are cut and end in `…`; then long arrays keep their first
/// items (fewer and fewer), with `<key>Omitted` counting the rest; only then
/// are strings cut shorter. `truncated: true` marks a cut object. Returns
/// the value and whether it was cut.
pub fn bound_json(value: Value, max_chars: usize) -> (Value, bool) {
    let fits = |v: &Value| v.to_string().chars().count() <= max_chars;
    if fits(&value) {
        return (value, false);
    }
    let Value::Object(original) = value else {
        return (
            Value::String(bound_text(value.to_string(), max_chars).0),
            true,
        );
    };
    let longest = original
        .values()
        .filter_map(Value::as_array)
        .map(Vec::len)
        .max()
        .unwrap_or(0);
    let (mut chars, mut items) = (max_chars / 4, longest);
    loop {
        let cut = shrink_object(&original, chars, items);
        if fits(&cut) {
            return (cut, true);
        }
        if items > 0 {
            items /= 2;
        } else if chars > 0 {
            chars /= 2;
        } else {
            // Only the scalar fields are left to show.
            let mut scalars: Map<String, Value> = original
                .iter()
                .filter(|(_, v)| !(v.is_string() || v.is_array() || v.is_object()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            scalars.insert("truncated".into(), json!(true));
            return (Value::Object(scalars), true);
        }
    }
}

/// `object` with every string cut to `chars` characters and every array to
/// `items` items (see `bound_json`).
fn shrink_object(object: &Map<String, Value>, chars: usize, items: usize) -> Value {
    let mut out = Map::new();
    let mut omitted: Vec<(String, usize)> = Vec::new();
    for (key, value) in object {
        if let Value::Array(list) = value
            && list.len() > items
        {
            omitted.push((format!("{key}Omitted"), list.len() - items));
        }
        out.insert(key.clone(), shrink(value, chars, items));
    }
    for (key, count) in omitted {
        let before = out.get(&key).and_then(Value::as_u64).unwrap_or(0);
        out.insert(key, json!(before + count as u64));
    }
    out.insert("truncated".into(), json!(true));
    Value::Object(out)
}

fn shrink(value: &Value, chars: usize, items: usize) -> Value {
    match value {
        Value::String(s) if s.chars().count() > chars => {
            let mut cut: String = s.chars().take(chars).collect();
            cut.push('…');
            Value::String(cut)
        }
        Value::Array(list) => Value::Array(
            list.iter()
                .take(items)
                .map(|v| shrink(v, chars, items))
                .collect(),
        ),
        Value::Object(object) => Value::Object(
            object
                .iter()
                .map(|(k, v)| (k.clone(), shrink(v, chars, items)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_ahead_hands_over_every_frame_in_order_then_the_end() {
        let input = b"one\n\ntoo long a line\nlast".to_vec();
        let frames = ReadAhead::spawn(io::Cursor::new(input), 8).unwrap();
        // The thread ends after the last frame, so the queue drains, then ends.
        let mut got = Vec::new();
        while let Some(queued) = frames.next() {
            assert_eq!(queued.ends(), matches!(queued.frame, Ok(Frame::Eof)));
            got.push(queued.frame.as_ref().ok().map(|f| format!("{f:?}")));
        }
        let want = [
            Frame::Line(b"one".to_vec()),
            Frame::Line(Vec::new()),
            Frame::Oversize { observed: 15 },
            Frame::Line(b"last".to_vec()),
            Frame::Eof,
        ]
        .map(|f| Some(format!("{f:?}")));
        assert_eq!(got, want);
        assert!(frames.ready().is_none(), "nothing after the end");
    }

    #[test]
    fn the_read_ahead_budget_lets_one_big_line_through_and_holds_the_rest() {
        let budget = Budget::default();
        assert!(budget.acquire(READ_AHEAD_BYTES * 2), "alone, any size fits");
        budget.release(READ_AHEAD_BYTES * 2);
        assert!(budget.acquire(READ_AHEAD_BYTES - 1));
        budget.close();
        // Closed (the server has gone): the reader is told to stop, not held.
        assert!(!budget.acquire(10));
    }

    fn frames(input: &[u8], cap: usize) -> Vec<Frame> {
        // A tiny buffer exercises lines that span many chunks.
        let reader = io::BufReader::with_capacity(7, input);
        let mut lines = LineReader::new(reader, cap);
        let mut out = Vec::new();
        loop {
            let frame = lines.next_frame().unwrap();
            if frame == Frame::Eof {
                return out;
            }
            out.push(frame);
        }
    }

    #[test]
    fn lines_split_on_newlines_and_oversize_lines_are_dropped() {
        let big = "x".repeat(40);
        let input = format!("{{\"a\":1}}\r\n{big}\nshort\n\nlast");
        assert_eq!(
            frames(input.as_bytes(), 10),
            vec![
                Frame::Line(b"{\"a\":1}".to_vec()),
                Frame::Oversize { observed: 40 },
                Frame::Line(b"short".to_vec()),
                Frame::Line(Vec::new()),
                Frame::Line(b"last".to_vec()),
            ]
        );
        // exactly at the cap is fine; one more byte is not
        assert_eq!(
            frames(b"0123456789\n", 10),
            vec![Frame::Line(b"0123456789".to_vec())]
        );
        assert_eq!(
            frames(b"0123456789A", 10),
            vec![Frame::Oversize { observed: 11 }]
        );
        assert_eq!(frames(b"", 10), vec![]);
    }

    #[test]
    fn messages_are_classified() {
        let req = classify(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#);
        assert_eq!(
            req,
            Message::Request {
                id: json!(7),
                method: "ping".into(),
                params: None
            }
        );
        let note = classify(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        assert!(matches!(note, Message::Notification { .. }));
        assert_eq!(
            classify(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Message::Response
        );
        let code = |line: &[u8]| match classify(line) {
            Message::Invalid { id, error } => (id, error.code),
            other => panic!("{other:?}"),
        };
        assert_eq!(code(b"{not json"), (Value::Null, PARSE_ERROR));
        assert_eq!(code(b"\xff\xfe"), (Value::Null, PARSE_ERROR));
        assert_eq!(code(b"[1,2]"), (Value::Null, INVALID_REQUEST));
        assert_eq!(code(b"42"), (Value::Null, INVALID_REQUEST));
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":3}"#),
            (json!(3), INVALID_REQUEST)
        );
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":"a","method":5}"#),
            (json!("a"), INVALID_REQUEST)
        );
        assert_eq!(
            code(br#"{"jsonrpc":"1.0","id":4,"method":"ping"}"#),
            (json!(4), INVALID_REQUEST)
        );
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#),
            (Value::Null, INVALID_REQUEST)
        );
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#),
            (Value::Null, INVALID_REQUEST)
        );
        // params that are there and not an object: -32602, whatever the method
        for line in [
            &br#"{"jsonrpc":"2.0","id":5,"method":"ping","params":[]}"#[..],
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":"x"}"#,
            br#"{"jsonrpc":"2.0","id":5,"method":"no/such","params":3}"#,
            br#"{"jsonrpc":"2.0","id":5,"method":"initialize","params":true}"#,
        ] {
            assert_eq!(code(line), (json!(5), INVALID_PARAMS));
        }
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":5,"method":"ping","params":null}"#),
            Message::Request { .. }
        ));
        // a notification never gets a reply, whatever its params
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","method":"notifications/initialized","params":[]}"#),
            Message::Notification { .. }
        ));
        let deep = "[".repeat(10_000);
        assert_eq!(code(deep.as_bytes()), (Value::Null, PARSE_ERROR));
    }

    #[test]
    fn versions_negotiate_to_the_asked_or_the_latest() {
        for v in PROTOCOL_VERSIONS {
            assert_eq!(negotiate(Some(v)), v);
        }
        assert_eq!(negotiate(Some("2099-01-01")), LATEST_VERSION);
        assert_eq!(negotiate(None), LATEST_VERSION);
        assert!(!Features::new("2024-11-05").annotations());
        assert!(Features::new("2025-03-26").annotations());
        assert!(!Features::new("2025-03-26").structured());
        assert!(Features::new("2025-06-18").structured());
    }

    #[test]
    fn each_request_picks_its_era_from_its_own_meta() {
        let env = |version: Value| json!({"_meta": {PROTOCOL_VERSION_META: version, CLIENT_CAPABILITIES_META: {}}});
        let era = |method: &str, params: Value| era_of(method, Some(&params));
        assert_eq!(
            era("tools/list", env(json!("2026-07-28"))),
            Ok(Era::Modern("2026-07-28"))
        );
        assert_eq!(era("tools/list", json!({})), Ok(Era::Legacy));
        assert_eq!(
            era("tools/list", json!({"_meta": {"progressToken": 1}})),
            Ok(Era::Legacy)
        );
        assert_eq!(era_of("ping", None), Ok(Era::Legacy));
        // initialize in the 2026-07-28 envelope is that era's (which
        // removed it: the conformance runner wants 404/-32601); without it,
        // the handshake
        assert_eq!(
            era("initialize", env(json!("2026-07-28"))),
            Ok(Era::Modern("2026-07-28"))
        );
        assert_eq!(
            era("initialize", json!({"protocolVersion": "2025-11-25"})),
            Ok(Era::Legacy)
        );
        let code = |r: Result<Era, RpcError>| r.unwrap_err().code;
        assert_eq!(code(era_of("server/discover", None)), INVALID_PARAMS);
        assert_eq!(code(era("tools/list", env(json!(1)))), INVALID_PARAMS);
        assert_eq!(
            code(era(
                "tools/list",
                json!({"_meta": {PROTOCOL_VERSION_META: "2026-07-28"}})
            )),
            INVALID_PARAMS
        );
        let refused = era("tools/list", env(json!("2025-11-25"))).unwrap_err();
        assert_eq!(refused.code, UNSUPPORTED_PROTOCOL_VERSION);
        let data = refused.data.unwrap();
        assert_eq!(data["requested"], "2025-11-25");
        assert_eq!(
            data["supported"],
            json!([
                "2026-07-28",
                "2025-11-25",
                "2025-06-18",
                "2025-03-26",
                "2024-11-05"
            ])
        );
    }

    #[test]
    fn modern_results_carry_their_type_hints_and_the_server_stamp() {
        let info = json!({"name": "s", "version": "1"});
        let listed = shape_modern("tools/list", json!({"tools": []}), &info);
        assert_eq!(listed["resultType"], "complete");
        assert_eq!(listed["cacheScope"], "public");
        assert_eq!(listed["_meta"][SERVER_INFO_META], info);
        let read = shape_modern("resources/read", json!({"contents": []}), &info);
        assert_eq!(
            (read["ttlMs"].clone(), read["cacheScope"].clone()),
            (json!(0), json!("private"))
        );
        let called = shape_modern("tools/call", json!({"content": []}), &info);
        assert!(called.get("ttlMs").is_none() && called.get("cacheScope").is_none());
    }

    #[test]
    fn text_is_bounded_with_a_notice() {
        let (same, cut) = bound_text("short".into(), 100);
        assert_eq!((same.as_str(), cut), ("short", false));
        let long = "é".repeat(1000);
        let (text, cut) = bound_text(long, 200);
        assert!(cut);
        assert!(text.chars().count() <= 200, "{}", text.chars().count());
        let shown = text.chars().filter(|c| *c == 'é').count();
        assert!(
            text.ends_with(&format!(
                "\n\n[truncated: {shown} of 1000 characters shown]"
            )),
            "{text}"
        );
    }

    #[test]
    fn json_results_are_bounded_as_json() {
        let small = json!({"saved": true, "ids": ["a"]});
        assert_eq!(bound_json(small.clone(), 1000), (small, false));
        let facts: Vec<String> = (0..500).map(|i| format!("Likes flavour {i}.")).collect();
        let big = json!({"saved": true, "status": "saved", "error": "x".repeat(5000),
            "facts": facts, "ids": ["a", "b", "c"], "idsOmitted": 7});
        for cap in [1000, 3000, 8000] {
            let (cut, was_cut) = bound_json(big.clone(), cap);
            assert!(was_cut);
            assert!(cut.to_string().chars().count() <= cap, "{cap}: {cut}");
            assert_eq!(cut["truncated"], true);
            assert_eq!(cut["saved"], true);
            let shown = cut["facts"].as_array().unwrap();
            assert!(!shown.is_empty(), "{cap}: {cut}");
            // whole items, not shreds of every item
            assert_eq!(shown[0], "Likes flavour 0.");
            assert_eq!(
                shown.len() as u64 + cut["factsOmitted"].as_u64().unwrap(),
                500
            );
            assert!(cut["error"].as_str().unwrap().ends_with('…'));
            if let Some(ids) = cut["ids"].as_array() {
                assert_eq!(ids.len() as u64 + cut["idsOmitted"].as_u64().unwrap(), 10);
            }
        }
        // nothing but scalars fits a tiny cap
        let (cut, _) = bound_json(big, 60);
        assert!(cut.to_string().len() <= 60, "{cut}");
        assert_eq!(cut["saved"], true);
    }

    #[test]
    fn batch_replies_stay_under_the_line_cap() {
        let replies: Vec<Value> = (0..4)
            .map(|i| reply(&json!(i), json!({"text": "x".repeat(300 * (i + 1))})))
            .collect();
        let line = batch_line(&replies, 100_000);
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value.as_array().unwrap().len(), 4);
        // over the cap: the biggest replies become errors, ids kept
        let line = batch_line(&replies, 1500);
        assert!(line.len() < 1500, "{}", line.len());
        let value: Value = serde_json::from_str(&line).unwrap();
        let ids: Vec<i64> = value
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, [0, 1, 2, 3]);
        assert_eq!(value[3]["error"]["code"], INTERNAL_ERROR);
        assert!(value[0].get("result").is_some());
        // many small replies that cannot fit: one error object
        let pings: Vec<Value> = (0..100).map(|i| reply(&json!(i), json!({}))).collect();
        let line = batch_line(&pings, 1000);
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["error"]["code"], INTERNAL_ERROR);
        assert!(line.len() < 1000);
    }

    #[test]
    fn oversize_replies_become_errors() {
        let small = reply(&json!(1), json!({"text": "ok"}));
        assert_eq!(reply_line(&small, 1000), small.to_string());
        let big = reply(&json!(2), json!({"text": "x".repeat(5000)}));
        let line = reply_line(&big, 1000);
        let value: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(value["id"], 2);
        assert_eq!(value["error"]["code"], INTERNAL_ERROR);
        assert_eq!(value["error"]["data"]["limit"], 1000);
        assert!(line.len() < 1000);
    }
}
