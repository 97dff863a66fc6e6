//! One client connection of `memory_mcp --http`: its requests read and
//! checked in order (`admit`: path, `Host`/`Origin`, method, token, media
//! types, the body within its limits and the body budget), handed to the
//! server thread, and answered — or a `subscriptions/listen` event stream
//! written until it ends.

use super::check::{self, Refusal};
use super::{BODY_BUDGET, Job, MAX_BATCH, PATH, Reply, Shared, note};
use crate::http::wire::{Conn, Head, ReadError, Response};
use crate::mcp::listen::{self, Stream};
use crate::mcp::protocol;
use serde_json::Value;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

/// Serves one connection's requests, in order, until it closes, breaks a
/// rule, or idles out.
pub(super) fn connection(stream: TcpStream, shared: &Shared) {
    let mut conn = Conn::new(stream, shared.timeouts);
    loop {
        let head = match conn.read_head() {
            Ok(Some(head)) => head,
            Ok(None) | Err(ReadError::Gone) => return,
            Err(ReadError::Status(status, message)) => {
                note(shared, &format!("refused ({status}): {message}"));
                conn.respond(&masked(refused(Refusal::http(status, message)), shared));
                conn.close_after_refusal();
                return;
            }
        };
        let started = Instant::now();
        let keep = head.keep_alive();
        let (mut response, read_body) = match preflight(&head, shared) {
            Some(response) => (response, true),
            None => exchange(&mut conn, &head, shared),
        };
        if response.status == 0 {
            // An event stream: written, and the connection is done.
            note(
                shared,
                &format!("{} {} → event stream closed", head.method, head.path),
            );
            return;
        }
        response.close |= !keep || !read_body;
        if !head.http11 && !response.close {
            response
                .headers
                .push(("Connection", "keep-alive".to_string()));
        }
        if let Some(origin) = cors_origin(&head, shared) {
            response
                .headers
                .push(("Access-Control-Allow-Origin", origin.to_string()));
            response.headers.push(("Vary", "Origin".to_string()));
        }
        note(
            shared,
            &format!(
                "{} {} → {} in {:.1} ms",
                head.method,
                head.path,
                response.status,
                started.elapsed().as_secs_f64() * 1000.0
            ),
        );
        if response.status != 200 {
            response = masked(response, shared);
        }
        let sent = conn.respond(&response);
        if !sent {
            return;
        }
        if response.close {
            if !read_body {
                conn.close_after_refusal();
            }
            return;
        }
    }
}

/// One request: the response, and whether its body was read (if not, the
/// connection cannot go on).
fn exchange(conn: &mut Conn, head: &Head, shared: &Shared) -> (Response, bool) {
    let (body, _hold) = match admit(conn, head, shared) {
        Ok(admitted) => admitted,
        Err((refusal, read)) => return (refused(refusal), read),
    };
    let value: Value = match serde_json::from_slice(&body) {
        Ok(value) => value,
        Err(e) => {
            let refusal = Refusal::new(
                400,
                protocol::PARSE_ERROR,
                format!("Parse error: the body is not JSON: {e}"),
            );
            return (refused(refusal), true);
        }
    };
    let features = match check::route(head, &value) {
        Ok(features) => features,
        Err(refusal) => return (refused_for(refusal, &value), true),
    };
    if let Value::Array(batch) = &value
        && batch.len() > MAX_BATCH
    {
        let refusal = Refusal::http(
            400,
            format!(
                "a batch may hold at most {MAX_BATCH} messages, not {}: the server answers other clients between batches",
                batch.len()
            ),
        );
        return (refused(refusal), true);
    }
    if check::needs_no_reply(&value) {
        return (empty(202), true);
    }
    let modern = value
        .pointer("/params/_meta")
        .and_then(|m| m.get(protocol::PROTOCOL_VERSION_META))
        .is_some();
    let listening = value.get("method").and_then(Value::as_str) == Some("subscriptions/listen");
    let mut events = None;
    let stream = if listening {
        if !check::takes_events(head) {
            let refusal = Refusal::http(
                406,
                "subscriptions/listen answers with an event stream: Accept must list text/event-stream",
            );
            return (refused_for(refusal, &value), true);
        }
        let (messages, receiver) = sync_channel(listen::STREAM_BACKLOG);
        let alive = Arc::new(AtomicBool::new(true));
        events = Some((receiver, Arc::clone(&alive)));
        Some(Stream { messages, alive })
    } else {
        None
    };
    let (send, receive) = sync_channel(1);
    let job = Job {
        body: value,
        features,
        stream,
        reply: send,
    };
    let unavailable = || {
        refused(Refusal::http(
            503,
            "the server is stopping; retry against the next one",
        ))
    };
    if shared.jobs.send(job).is_err() {
        return (unavailable(), true);
    }
    match receive.recv() {
        Ok(Reply {
            streaming: true, ..
        }) => match events {
            Some((receiver, alive)) => {
                stream_events(conn, &receiver, &alive);
                (empty(0), false)
            }
            None => (unavailable(), true),
        },
        Ok(Reply {
            body: Some(body),
            code,
            ..
        }) => (
            Response {
                status: check::status_of(code, modern),
                headers: Vec::new(),
                body,
                close: false,
            },
            true,
        ),
        Ok(Reply { body: None, .. }) => (empty(202), true),
        Err(_) => (unavailable(), true),
    }
}

/// Writes a `subscriptions/listen` stream until the server ends it or the
/// client goes away: its messages as `message` events, a comment every 15
/// seconds meanwhile (it keeps proxies from closing an idle stream, and
/// shows when the client is gone).
fn stream_events(conn: &mut Conn, messages: &Receiver<String>, alive: &AtomicBool) {
    const PING: Duration = Duration::from_secs(15);
    // How soon a client that closed its end is noticed (its subscription
    // then stops costing the server anything).
    const LOOK: Duration = Duration::from_secs(1);
    let mut open = conn.start_events();
    let mut pinged = Instant::now();
    while open {
        open = match messages.recv_timeout(LOOK) {
            Ok(message) => conn.event(&message),
            Err(RecvTimeoutError::Timeout) if conn.peer_gone() => false,
            Err(RecvTimeoutError::Timeout) if pinged.elapsed() >= PING => {
                pinged = Instant::now();
                conn.event("")
            }
            Err(RecvTimeoutError::Timeout) => true,
            Err(RecvTimeoutError::Disconnected) => false,
        };
    }
    alive.store(false, Ordering::SeqCst);
}

/// A share of [`BODY_BUDGET`], given back when dropped.
struct Hold<'s> {
    bytes: usize,
    held: &'s AtomicUsize,
}

impl<'s> Hold<'s> {
    /// `bytes` of the budget, if they fit (a lone body always does).
    fn take(held: &'s AtomicUsize, bytes: usize) -> Option<Hold<'s>> {
        held.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| {
            (now == 0 || now.saturating_add(bytes) <= BODY_BUDGET).then(|| now + bytes)
        })
        .ok()
        .map(|_| Hold { bytes, held })
    }
}

impl Drop for Hold<'_> {
    fn drop(&mut self) {
        self.held.fetch_sub(self.bytes, Ordering::SeqCst);
    }
}

/// The checks before the body, then the body (with its share of the body
/// budget): a refusal says whether the body was read (the connection may go
/// on) or not (it closes).
fn admit<'s>(
    conn: &mut Conn,
    head: &Head,
    shared: &'s Shared,
) -> std::result::Result<(Vec<u8>, Hold<'s>), (Refusal, bool)> {
    let unread = |refusal| (refusal, false);
    if head.path != PATH {
        return Err(unread(Refusal::http(
            404,
            format!("no such endpoint {:?}: MCP is served at {PATH}", head.path),
        )));
    }
    check::place(
        head,
        shared.loopback.then_some(&shared.names[..]),
        &shared.allowed_origins,
    )
    .map_err(unread)?;
    if head.method != "POST" {
        return Err(unread(
            Refusal::http(
                405,
                format!(
                    "{} is not served: send each JSON-RPC message as a POST (this server opens no event stream)",
                    head.method
                ),
            )
            .with_header("Allow", "POST"),
        ));
    }
    check::bearer(head, shared.token.as_ref()).map_err(unread)?;
    check::media(head).map_err(unread)?;
    let chunked = match head.text("transfer-encoding") {
        None => false,
        Some(te) if te.eq_ignore_ascii_case("chunked") => true,
        Some(te) => {
            return Err(unread(Refusal::http(
                501,
                format!("Transfer-Encoding {te:?} is not supported (only chunked)"),
            )));
        }
    };
    let length = match head.one("content-length") {
        Err(()) => {
            return Err(unread(Refusal::http(
                400,
                "more than one Content-Length header",
            )));
        }
        Ok(Some(_)) if chunked => {
            return Err(unread(Refusal::http(
                400,
                "both Content-Length and Transfer-Encoding: chunked",
            )));
        }
        Ok(Some(value)) => match std::str::from_utf8(value)
            .ok()
            .map(str::trim)
            .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|v| v.parse::<u64>().ok())
        {
            Some(length) => Some(length),
            None => return Err(unread(Refusal::http(400, "a malformed Content-Length"))),
        },
        Ok(None) if chunked => None,
        Ok(None) => {
            return Err(unread(Refusal::http(
                411,
                "the request needs a Content-Length (or chunked encoding)",
            )));
        }
    };
    if let Some(length) = length
        && length > shared.max_body as u64
    {
        return Err(unread(body_refusal(length as usize, shared.max_body)));
    }
    let reserve = length.map_or(shared.max_body, |length| length as usize);
    let Some(hold) = Hold::take(&shared.bodies, reserve) else {
        return Err(unread(
            Refusal::http(
                503,
                "the server is reading too many large requests at once; retry shortly",
            )
            .with_header("Retry-After", "1"),
        ));
    };
    match head.text("expect") {
        None => {}
        Some(e) if e.eq_ignore_ascii_case("100-continue") && conn.continue_100() => {}
        Some(e) if e.eq_ignore_ascii_case("100-continue") => {
            return Err(unread(Refusal::http(400, "the client went away")));
        }
        Some(e) => {
            return Err(unread(Refusal::http(
                417,
                format!("Expect {e:?} is not supported"),
            )));
        }
    }
    let read = match length {
        Some(length) => conn.read_body(length as usize),
        None => conn.read_chunked(shared.max_body),
    };
    read.map(|body| (body, hold)).map_err(|e| match e {
        ReadError::Status(413, _) => unread(body_refusal(shared.max_body + 1, shared.max_body)),
        ReadError::Status(status, message) => unread(Refusal::http(status, message)),
        ReadError::Gone => unread(Refusal::http(400, "the client went away mid-body")),
    })
}

/// 413, with the limit in `data` as every limit error has it.
fn body_refusal(observed: usize, limit: usize) -> Refusal {
    let mut refusal = Refusal::http(
        413,
        format!(
            "the request body is {} bytes, over the limit of {limit} (mcp.max_line_bytes); it was not read",
            if observed > limit && observed != limit + 1 {
                observed.to_string()
            } else {
                format!("over {limit}")
            }
        ),
    );
    refusal.error = refusal.error.with_data(serde_json::json!({
        "httpStatus": 413, "limit_name": "max_line_bytes", "limit": limit
    }));
    refusal
}

/// The request's `Origin` when it is one the user listed in
/// `mcp.allowed_origins`: only those pages get CORS answers, so a browser
/// lets them read replies. Local pages pass the `Origin` check but get no
/// CORS headers: a browser keeps every other page away from the memory.
fn cors_origin<'h>(head: &'h Head, shared: &Shared) -> Option<&'h str> {
    let origin = head.text("origin")?;
    shared
        .allowed_origins
        .iter()
        .any(|a| a.eq_ignore_ascii_case(origin))
        .then_some(origin)
}

/// A CORS preflight (`OPTIONS /mcp` from a listed origin, no body): what
/// the page may send. Anything else goes the usual way (`405`).
fn preflight(head: &Head, shared: &Shared) -> Option<Response> {
    if head.method != "OPTIONS"
        || head.path != PATH
        || head
            .one("content-length")
            .ok()
            .flatten()
            .is_some_and(|v| v != b"0")
        || head.one("transfer-encoding").ok().flatten().is_some()
    {
        return None;
    }
    cors_origin(head, shared)?;
    check::place(
        head,
        shared.loopback.then_some(&shared.names[..]),
        &shared.allowed_origins,
    )
    .ok()?;
    let mut response = empty(204);
    response.headers = vec![
        ("Access-Control-Allow-Methods", "POST".to_string()),
        (
            "Access-Control-Allow-Headers",
            "Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name"
                .to_string(),
        ),
        ("Access-Control-Max-Age", "600".to_string()),
    ];
    Some(response)
}

/// A refusal with what it echoes of the request (a path, a header value,
/// the id) masked as free text: whatever the client sent, no secret comes
/// back in a body a proxy or a HAR file keeps.
fn masked(mut response: Response, shared: &Shared) -> Response {
    if let Ok(mut body) = serde_json::from_str::<Value>(&response.body) {
        if let Some(error) = body.get_mut("error") {
            shared.redactor.redact_value_as_text(error);
        }
        response.body = body.to_string();
    }
    response
}

/// A refusal as a response with a JSON-RPC error body (id null).
pub(super) fn refused(refusal: Refusal) -> Response {
    refused_for(refusal, &Value::Null)
}

/// A refusal answering the request `body` (its id, when it has one).
fn refused_for(refusal: Refusal, body: &Value) -> Response {
    let id = body.get("id").cloned().unwrap_or(Value::Null);
    Response {
        status: refusal.status,
        headers: refusal.headers,
        body: protocol::reply_error(&id, &refusal.error).to_string(),
        close: false,
    }
}

fn empty(status: u16) -> Response {
    Response {
        status,
        headers: Vec::new(),
        body: String::new(),
        close: false,
    }
}
