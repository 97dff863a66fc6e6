//! `memory_mcp --http ADDR`: the same server over MCP's Streamable HTTP
//! transport (docs/MCP.md, "Streamable HTTP"), statelessly: every request is
//! one POST to `/mcp` answered with one JSON body, in either protocol era.
//!
//! Each connection has a thread of its own that reads and checks requests
//! (`check`, `wire`) and hands each body to the one server thread — the same
//! [`Server`] as stdio, so the same single writer and group commit: the
//! bodies waiting when the server takes one are handled as one group, their
//! appends made durable with one fsync per file, and only then answered. A
//! reply still means stored and searchable.

mod check;
pub mod token;
mod wire;

use super::listen::{self, Stream};
use super::{Limits, Server, wire as encode};
use crate::clock::Clock;
use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use crate::output::{Format, Frames, Output, Style};
use crate::redact::Redactor;
use crate::tools::Registry;
use check::Refusal;
use serde_json::Value;
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{Duration, Instant};
use wire::{Conn, Head, ReadError, Response, Timeouts};

/// Where `--http` listens when given no address.
pub const DEFAULT_ADDR: &str = "127.0.0.1:7411";
/// The MCP endpoint.
pub const PATH: &str = "/mcp";
/// Connections served at once; one more is answered 503 and closed.
const MAX_CONNECTIONS: usize = 128;
/// Messages one batch may hold over HTTP: one client's batch runs on the
/// server thread while every other client waits.
const MAX_BATCH: usize = 64;
/// Bodies queued for the server thread before connections wait their turn.
const QUEUE: usize = 1024;
/// Bytes of request bodies held at once, across connections (or one body,
/// whatever its size): 128 clients sending 10 MiB each must not cost
/// 1.3 GB. Past it a request is answered 503 before its body is read.
const BODY_BUDGET: usize = 64 * 1024 * 1024;
/// Test hook: shortens every connection timeout to this many milliseconds.
const TIMEOUT_ENV: &str = "AGENTBOX_MCP_HTTP_TIMEOUT_MS";

/// One checked body for the server thread, and where its reply goes.
struct Job {
    body: Value,
    /// The version a handshake-era request is served at.
    features: super::protocol::Features,
    /// A `subscriptions/listen` request's event stream.
    stream: Option<Stream>,
    reply: SyncSender<Reply>,
}

/// The server thread's answer to a job: the redacted, serialized reply
/// (`None`: the body held no request, or it opened its event stream) and
/// its JSON-RPC error code.
struct Reply {
    body: Option<String>,
    code: Option<i64>,
    streaming: bool,
}

/// What every connection thread shares.
struct Shared {
    token: Option<token::Token>,
    loopback: bool,
    /// The `Host` names a loopback server answers to.
    names: Vec<String>,
    allowed_origins: Vec<String>,
    max_body: usize,
    timeouts: Timeouts,
    jobs: SyncSender<Job>,
    active: AtomicUsize,
    /// Bytes of request bodies being read or served (`BODY_BUDGET`).
    bodies: AtomicUsize,
    /// Set once the server thread has stopped: new connections are closed.
    stopping: AtomicBool,
    /// Connections held per remote address.
    peers: std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>,
    log: Output,
    redactor: Redactor,
}

/// Serves `addr` until the process is stopped (SIGTERM, SIGINT): nothing
/// is lost then, since a reply is sent only once its writes are durable.
pub fn serve_http(
    home: &Home,
    clock: Clock,
    registry: &Registry,
    verbose: u8,
    addr: &str,
) -> Result<()> {
    let address = resolve(addr)?;
    let loopback = address.ip().is_loopback();
    let token = token::configured(home)?;
    if !loopback && token.is_none() {
        return Err(Error::invalid_args(format!(
            "{addr} is reachable from other machines, and no bearer token is set"
        ))
        .with_hint(format!(
            "run `memory_mcp token` (or set {}), or listen on 127.0.0.1",
            token::ENV
        )));
    }
    let limits = Limits::from_home(home)?;
    check_origins(home)?;
    // A token chosen by hand need not look like a key: this process masks
    // it wherever it would appear anyway.
    let mut extra = home.config.redaction.extra_patterns.clone();
    if let Some(token) = &token {
        extra.push(token::pattern(&token.secret));
    }
    let redactor = Redactor::new(&extra).unwrap_or_else(|_| home.store.redactor().clone());
    // The home this server writes through masks it too: a turn that quotes
    // the token is stored masked, as any other secret is.
    let mut own = Home::open(home.root.clone())?;
    own.store.set_redactor(redactor.clone());
    let home = &own;
    let listener = TcpListener::bind(address).map_err(|e| {
        let kind = if e.kind() == std::io::ErrorKind::AddrInUse {
            ErrorType::Conflict
        } else {
            ErrorType::Network
        };
        Error::new(kind, format!("cannot listen on {address}: {e}"))
            .with_hint("another server may hold the port: pick another with --http HOST:PORT")
    })?;
    let local = listener.local_addr().unwrap_or(address);
    crate::search::long_lived();
    let log = Output {
        format: Format::Text,
        style: Style { color: false },
        quiet: false,
        verbose,
    };
    let (jobs, inbox) = sync_channel(QUEUE);
    // A loopback server answers to the loopback names, and to the address
    // it is bound to (127.0.0.2 …).
    let mut names: Vec<String> = ["localhost", "127.0.0.1", "[::1]"].map(String::from).into();
    if loopback {
        names.push(match local.ip() {
            std::net::IpAddr::V4(ip) => ip.to_string(),
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
        });
    }
    let shared = Arc::new(Shared {
        token,
        loopback,
        names,
        allowed_origins: home.config.mcp.allowed_origins.clone(),
        max_body: limits.max_line_bytes,
        timeouts: timeouts(),
        jobs,
        active: AtomicUsize::new(0),
        bodies: AtomicUsize::new(0),
        stopping: AtomicBool::new(false),
        peers: Default::default(),
        log,
        redactor: redactor.clone(),
    });
    let mut server = Server::new(
        home,
        clock,
        registry,
        limits,
        log,
        Frames::unclaimed(&redactor),
    );
    server.http = true;
    let guarded = match &shared.token {
        Some(token) => format!(" (bearer token from {})", token.source),
        None => " (no token: any local process may use it)".to_string(),
    };
    log.announce(
        &redactor,
        &format!("memory_mcp: serving http://{local}{PATH}{guarded}"),
    );
    let accepting = Arc::clone(&shared);
    std::thread::Builder::new()
        .name("mcp-http-accept".to_string())
        .spawn(move || accept(&listener, &accepting))
        .map_err(|e| Error::internal(format!("cannot start the HTTP listener thread: {e}")))?;
    server.serve_jobs(&inbox);
    // Ctrl-C after a write: no new connections; the index writer's last
    // updates, housekeeping.
    shared.stopping.store(true, Ordering::SeqCst);
    drop(shared);
    crate::search::settle(home);
    server.fold_index();
    Err(Error::new(
        ErrorType::Cancelled,
        "interrupted: memory_mcp stopped serving (every reply it sent stands)",
    ))
}

/// `mcp.allowed_origins`: each an origin as browsers send it —
/// `http(s)://host[:port]`, nothing after. `null` (what sandboxed and file
/// pages send, so any page can claim it) and `*` are refused, as is a path
/// or a trailing slash, which would never match.
fn check_origins(home: &Home) -> Result<()> {
    for origin in &home.config.mcp.allowed_origins {
        let rest = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        let fine = rest.is_some_and(|rest| {
            !rest.is_empty()
                && !rest.contains(['/', '?', '#', '@', ' ', '*'])
                && rest.chars().all(|c| c.is_ascii_graphic())
        });
        if !fine {
            return Err(Error::invalid_args(format!(
                "{}: mcp.allowed_origins holds {origin:?}, which is not an origin a browser sends",
                home.root.join("config.json").display()
            ))
            .with_hint("list origins as scheme://host[:port] with nothing after, e.g. \"https://app.example.com\"; `null` and `*` are never allowed")
            .with_detail("key", "mcp.allowed_origins"));
        }
    }
    Ok(())
}

/// `HOST:PORT` (a name resolves to its first address).
fn resolve(addr: &str) -> Result<SocketAddr> {
    let bad = |why: String| {
        Error::invalid_args(format!("--http {addr:?}: {why}"))
            .with_hint(format!("give HOST:PORT, e.g. --http {DEFAULT_ADDR}"))
            .with_detail("addr", addr.to_string())
    };
    let mut found = addr
        .to_socket_addrs()
        .map_err(|e| bad(format!("not an address to listen on ({e})")))?;
    found
        .next()
        .ok_or_else(|| bad("resolves to no address".to_string()))
}

fn timeouts() -> Timeouts {
    let short = std::env::var(TIMEOUT_ENV)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(Duration::from_millis);
    let or = |seconds: u64| short.unwrap_or(Duration::from_secs(seconds));
    Timeouts {
        idle: or(30),
        head: or(10),
        body: or(30),
        write: or(10),
    }
}

/// Takes connections until the listener fails for good.
fn accept(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => stream,
            Err(e) => {
                // Out of descriptors, a connection reset before accept: wait
                // a moment rather than spin.
                note(shared, &format!("accept: {e}"));
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
        };
        if shared.stopping.load(Ordering::SeqCst) {
            continue;
        }
        // One remote address may hold at most a quarter of the slots, so
        // one machine cannot shut the others out (loopback clients are all
        // this machine's: the cap is theirs to share).
        let peer = stream
            .peer_addr()
            .ok()
            .map(|a| a.ip())
            .filter(|ip| !ip.is_loopback());
        if !shared.admit(peer) {
            busy(stream);
            continue;
        }
        let mine = Arc::clone(shared);
        let spawned = std::thread::Builder::new()
            .name("mcp-http".to_string())
            .stack_size(512 * 1024)
            .spawn(move || {
                connection(stream, &mine);
                mine.release(peer);
            });
        if spawned.is_err() {
            shared.release(peer);
        }
    }
}

impl Shared {
    /// Takes a connection slot for a client at `peer` (`None`: loopback).
    fn admit(&self, peer: Option<std::net::IpAddr>) -> bool {
        if self.active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            self.active.fetch_sub(1, Ordering::SeqCst);
            return false;
        }
        if let Some(ip) = peer {
            let mut peers = self.peers.lock().unwrap_or_else(|e| e.into_inner());
            let held = peers.entry(ip).or_insert(0);
            if *held >= MAX_CONNECTIONS / 4 {
                drop(peers);
                self.active.fetch_sub(1, Ordering::SeqCst);
                return false;
            }
            *held += 1;
        }
        true
    }

    fn release(&self, peer: Option<std::net::IpAddr>) {
        if let Some(ip) = peer {
            let mut peers = self.peers.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(held) = peers.get_mut(&ip) {
                *held -= 1;
                if *held == 0 {
                    peers.remove(&ip);
                }
            }
        }
        self.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The answer to a connection over the limit: 503, never waiting on it.
fn busy(stream: TcpStream) {
    let _ = stream.set_nonblocking(true);
    let mut conn = Conn::new(stream, timeouts());
    let refusal = Refusal::http(
        503,
        format!("the server has {MAX_CONNECTIONS} connections open; retry shortly"),
    )
    .with_header("Retry-After", "1");
    conn.respond(&refused(refusal));
}

/// Serves one connection's requests, in order, until it closes, breaks a
/// rule, or idles out.
fn connection(stream: TcpStream, shared: &Shared) {
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
                super::protocol::PARSE_ERROR,
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
        .and_then(|m| m.get(super::protocol::PROTOCOL_VERSION_META))
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
fn refused(refusal: Refusal) -> Response {
    refused_for(refusal, &Value::Null)
}

/// A refusal answering the request `body` (its id, when it has one).
fn refused_for(refusal: Refusal, body: &Value) -> Response {
    let id = body.get("id").cloned().unwrap_or(Value::Null);
    Response {
        status: refusal.status,
        headers: refusal.headers,
        body: super::protocol::reply_error(&id, &refusal.error).to_string(),
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

/// A log line (with -v), redacted.
fn note(shared: &Shared, message: &str) {
    shared
        .log
        .log(&shared.redactor, &format!("memory_mcp: http: {message}"));
}

impl Server<'_> {
    /// The server thread of `--http`: takes the jobs the connections send,
    /// the ones already waiting as one group commit, and answers each on its
    /// own channel once the group is durable. Returns on an interrupt
    /// (Ctrl-C once something was written: before that, it ends the process
    /// at once) or when every connection and the listener are gone.
    fn serve_jobs(&mut self, inbox: &Receiver<Job>) {
        loop {
            if crate::store::interrupt_requested() {
                self.end_subscriptions();
                return;
            }
            let first = match inbox.recv_timeout(Duration::from_millis(200)) {
                Ok(job) => job,
                Err(RecvTimeoutError::Timeout) => {
                    if self.subscriptions.due() {
                        self.check_subscriptions();
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return,
            };
            let mut group = vec![first];
            while group.len() < super::MAX_GROUP {
                match inbox.try_recv() {
                    Ok(next) => group.push(next),
                    Err(_) => break,
                }
            }
            let (bodies, replies): (Vec<_>, Vec<_>) = group
                .into_iter()
                .map(|job| ((job.body, job.features, job.stream), job.reply))
                .unzip();
            let mut streaming = Vec::with_capacity(bodies.len());
            let mut handled = self.in_group(bodies, |server, (body, features, stream)| {
                server.features = features;
                let asked = stream.is_some();
                server.stream = stream;
                let reply = server.handle_value(body);
                // The listen took the stream: its response is the stream.
                streaming.push(asked && server.stream.take().is_none());
                Some(reply)
            });
            self.settle(&mut handled);
            for ((reply, to), streaming) in handled.replies.into_iter().zip(replies).zip(streaming)
            {
                let code = reply
                    .as_ref()
                    .and_then(|r| r.pointer("/error/code"))
                    .and_then(Value::as_i64);
                let body = reply.map(|r| self.frames.encode(r, encode));
                // A connection that went away meanwhile: its reply is moot
                // (the write it asked for stands).
                let _ = to.send(Reply {
                    body,
                    code,
                    streaming: streaming && code.is_none(),
                });
            }
            self.check_if_written();
        }
    }
}
