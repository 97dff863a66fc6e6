//! `memory_mcp --http ADDR`: the same server over MCP's Streamable HTTP
//! transport (docs/MCP.md, "Streamable HTTP"), statelessly: every request is
//! one POST to `/mcp` answered with one JSON body, in either protocol era.
//!
//! Each connection has a thread of its own that reads and checks requests
//! (`check`, `crate::http::wire`) and hands each body to the one server thread — the same
//! [`Server`] as stdio, so the same single writer and group commit: the
//! bodies waiting when the server takes one are handled as one group, their
//! appends made durable with one fsync per file, and only then answered. A
//! reply still means stored and searchable.

mod check;
mod exchange;
pub mod token;

use super::listen::Stream;
use super::{Limits, Server, wire as encode};
use crate::clock::Clock;
use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use crate::http::wire::{Conn, Timeouts};
use crate::output::{Format, Frames, Output, Style};
use crate::redact::Redactor;
use crate::tools::Registry;
use check::Refusal;
use exchange::{connection, refused};
use serde_json::Value;
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Duration;

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
