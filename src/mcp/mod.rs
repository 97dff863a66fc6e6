//! `memory_mcp` — the memory MCP server (SPEC §5, docs/MCP.md): JSON-RPC 2.0
//! over stdio, one message per line. stdout carries protocol frames only;
//! logs (`-v`) go to stderr. The tools and resources call the same library
//! functions as the CLI (`track`, `knowledge::profile`, `search`).

mod cli;
mod context;
pub mod http;
mod listen;
mod memory;
pub mod protocol;
pub mod resources;
mod save;
pub mod tools;

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::output::{Format, Frames, Output, Style};
use crate::tools::{Registry, Resource, Tool};
use protocol::{Era, Features, Frame, Message, Queued, ReadAhead, RpcError};
use serde_json::{Map, Value, json};
use std::io::BufRead;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

pub const TOOL: Tool = Tool {
    serves_stdio: true,
    ..Tool::derived::<cli::McpArgs>("memory_mcp", cli::run)
};

/// The name in `serverInfo`.
pub const SERVER_NAME: &str = "agentbox-memory";

/// Accepted range of `mcp.max_line_bytes` (odek's absolute ceiling is 64 MiB).
const LINE_BYTES_RANGE: (u64, u64) = (1024, 64 * 1024 * 1024);
/// Accepted range of `mcp.max_result_chars` (odek's hard cap is 1,000,000).
const RESULT_CHARS_RANGE: (u64, u64) = (1_000, 1_000_000);

/// The most requests handled as one group commit (one fsync per file for
/// all of them): bounds how long the first of them waits for its answer.
const MAX_GROUP: usize = 64;

/// Set to make the `debug/panic` method panic (tests of the panic guard).
const DEBUG_PANIC_ENV: &str = "AGENTBOX_DEBUG_MCP_PANIC";

const INSTRUCTIONS: &str = "agentbox memory. At the start of a task call mem_context with the \
user's request: it returns their preferences, profile facts and the past turns, notes and facts \
that match, as markdown to use as context. Use mem_search to recall something specific. Record \
the conversation with mem_save_turn (messages[] or role + content; flush: true at the end of a \
session), and durable facts about the user (preferences, identity, habits, decisions) with \
mem_save_fact. Resources: mem://profile and mem://search?q={query}&topK={topK}.";

/// Serves stdin/stdout until stdin closes: the operation behind
/// `memory_mcp` (its command line is `cli.rs`). `verbose` > 0 logs each
/// request to stderr.
pub fn serve_stdio(home: &Home, clock: Clock, registry: &Registry, verbose: u8) -> Result<()> {
    crate::search::long_lived();
    let frames = Frames::claim(home.store.redactor());
    let limits = Limits::from_home(home)?;
    let log = Output {
        format: Format::Text,
        style: Style { color: false },
        quiet: false,
        verbose,
    };
    let mut server = Server::new(home, clock, registry, limits, log, frames);
    server.debug_panic = std::env::var_os(DEBUG_PANIC_ENV).is_some_and(|v| !v.is_empty());
    let stdin = std::io::BufReader::with_capacity(64 * 1024, std::io::stdin());
    // Requests are guarded one by one; this guard only catches a bug in the
    // loop itself, which then ends the session with a message on stderr.
    catch_unwind(AssertUnwindSafe(|| server.serve(stdin))).map_err(|_| {
        Error::internal("memory_mcp hit a bug in its read loop and stopped")
            .with_hint("this is a bug in agentbox; report it with the host's last request")
    })?;
    server.end_subscriptions();
    // The index writer's last updates, then housekeeping.
    crate::search::settle(home);
    server.fold_index();
    Ok(())
}

/// The server's limits, from the home's config.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_line_bytes: usize,
    pub max_result_chars: usize,
}

impl Limits {
    /// Reads and checks `mcp.*` of the home's config.
    pub fn from_home(home: &Home) -> Result<Limits> {
        let check = |key: &str, value: u64, (low, high): (u64, u64)| {
            if (low..=high).contains(&value) {
                Ok(value as usize)
            } else {
                Err(Error::invalid_args(format!(
                    "{}: mcp.{key} is {value}; it must be between {low} and {high}",
                    home.root.join("config.json").display()
                ))
                .with_hint(format!(
                    "fix mcp.{key} in config.json (or remove it for the default)"
                ))
                .with_detail("key", format!("mcp.{key}"))
                .with_limit(key, value, high))
            }
        };
        Ok(Limits {
            max_line_bytes: check(
                "max_line_bytes",
                home.config.mcp.max_line_bytes,
                LINE_BYTES_RANGE,
            )?,
            max_result_chars: check(
                "max_result_chars",
                home.config.mcp.max_result_chars,
                RESULT_CHARS_RANGE,
            )?,
        })
    }
}

/// One server session: state lives here, never in statics.
#[derive(Debug)]
pub struct Server<'h> {
    memory: memory::Memory<'h>,
    limits: Limits,
    features: Features,
    log: Output,
    frames: Frames<'h>,
    /// The resources the tools contribute (`Tool::resources`).
    resources: Vec<&'static Resource>,
    debug_panic: bool,
    /// `subscriptions/listen` streams.
    subscriptions: listen::Subscriptions,
    /// Notifications for stdout, sent after the replies of their group.
    outbox: Vec<Value>,
    /// The event stream of the HTTP request being handled, if it opened one.
    stream: Option<listen::Stream>,
    /// `store::writes()` when the subscriptions were last checked.
    writes_seen: u64,
    /// Serving HTTP: a subscription needs its request's own event stream
    /// (stdout is nobody's).
    http: bool,
}

/// A handled group: its replies, to be sent once its files are synced.
struct Handled {
    /// One slot per message handled; `None` for one that gets no reply.
    replies: Vec<Option<Value>>,
    first_writer: Option<usize>,
    /// Input goes on (no end of input or read error in the group).
    more: bool,
    synced: Result<usize>,
}

impl<'h> Server<'h> {
    /// A session on `home` serving `registry`'s resources and
    /// `mem_context` sections.
    pub fn new(
        home: &'h Home,
        clock: Clock,
        registry: &Registry,
        limits: Limits,
        log: Output,
        frames: Frames<'h>,
    ) -> Server<'h> {
        Server {
            memory: memory::Memory::new(home, clock, registry),
            limits,
            // Until `initialize` says otherwise, speak the latest version.
            features: Features::new(protocol::LATEST_VERSION),
            log,
            frames,
            resources: registry.resources(),
            debug_panic: false,
            subscriptions: listen::Subscriptions::default(),
            outbox: Vec::new(),
            stream: None,
            writes_seen: 0,
            http: false,
        }
    }

    /// Reads frames until end of input, writing one line per reply through
    /// the output layer. A read error ends the session like EOF; so does a
    /// failed write (the host closed its end of stdout).
    ///
    /// Group commit: the requests already waiting when one arrives (a host
    /// that pipelines) are handled together, their appends made durable with
    /// one fsync per touched file, and only then answered, in order. A lone
    /// request is a group of one: nothing ever waits for more input.
    pub fn serve<R: BufRead + Send + 'static>(&mut self, input: R) {
        let frames = match ReadAhead::spawn(input, self.limits.max_line_bytes) {
            Ok(frames) => frames,
            Err(e) => {
                self.note(&format!("cannot start the stdin reader: {e}; stopping"));
                return;
            }
        };
        loop {
            let first = if self.subscriptions.is_empty() {
                frames.next()
            } else {
                match frames.next_within(listen::RECHECK) {
                    Ok(first) => Some(first),
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => None,
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        if !self.recheck() {
                            return;
                        }
                        continue;
                    }
                }
            };
            let Some(first) = first else {
                return;
            };
            let mut group = vec![first];
            while group.len() < MAX_GROUP && !group.last().is_some_and(Queued::ends) {
                match frames.ready() {
                    Some(next) => group.push(next),
                    None => break,
                }
            }
            let handled = self.handle_group(group);
            let more = handled.more;
            if !self.answer(handled) || !more {
                return;
            }
        }
    }

    /// Handles a group of frames with their fsyncs deferred and makes their
    /// writes durable; [`Server::answer`] sends the replies.
    fn handle_group(&mut self, group: Vec<Queued>) -> Handled {
        self.in_group(group, |server, queued| match &queued.frame {
            Ok(Frame::Eof) => None,
            Err(e) => {
                server.note(&format!("stdin: {e}; stopping"));
                None
            }
            Ok(Frame::Oversize { observed }) => Some(Some(server.oversize(*observed))),
            Ok(Frame::Line(line)) if line.iter().all(u8::is_ascii_whitespace) => Some(None),
            Ok(Frame::Line(line)) => Some(server.handle_line(line)),
        })
    }

    /// Handles `items` as one group commit: `each` handles one (`None` ends
    /// the group: the input ended), every append of theirs waits for one
    /// fsync per touched file, made here. Each item handled has its slot in
    /// the replies (`None`: it gets no reply); [`Server::settle`] then
    /// makes them honest about what the sync did.
    fn in_group<T>(
        &mut self,
        items: Vec<T>,
        mut each: impl FnMut(&mut Self, T) -> Option<Option<Value>>,
    ) -> Handled {
        let home = self.memory.home;
        let sync = home.store.defer_syncs();
        crate::search::begin_group(home);
        let mut replies = Vec::with_capacity(items.len());
        // The first request that wrote: its reply and every reply after it
        // (which may have seen its writes) wait for the sync.
        let mut first_writer = None;
        let mut more = true;
        for item in items {
            let before = sync.appends();
            let Some(reply) = each(self, item) else {
                more = false;
                break;
            };
            if sync.appends() > before {
                first_writer.get_or_insert(replies.len());
            }
            replies.push(reply);
        }
        // The index writer thread commits on its own (`search::worker`).
        crate::search::end_group(home);
        let synced = sync.finish();
        Handled {
            replies,
            first_writer,
            more,
            synced,
        }
    }

    /// Waits until this thread's index updates in a handled group are
    /// committed (it made some after a search or an episode close in the
    /// group; a failed update is caught up from the files here), then makes
    /// the replies say what happened: a warning on saves the index missed,
    /// an error in place of every reply from the first writer on when the
    /// group's sync failed.
    fn settle(&mut self, handled: &mut Handled) {
        let home = self.memory.home;
        let from = handled.first_writer.unwrap_or(handled.replies.len());
        if let Err(error) = crate::search::finish_group(home) {
            self.note(&format!("search index: {}", error.message));
            let warning = self.frames.redact_text(&crate::search::not_indexed(&error));
            for reply in handled.replies[from..].iter_mut().flatten() {
                save::warn_saved(reply, &warning);
            }
        }
        let count = handled.replies.iter().flatten().count();
        match &handled.synced {
            Ok(files) if count > 1 && *files > 0 => self.note(&format!(
                "group commit: {count} replies held for one fsync of {files} file(s)"
            )),
            Ok(_) => {}
            Err(error) => {
                self.note(&format!("group commit failed: {}", error.message));
                for reply in handled.replies[from..].iter_mut().flatten() {
                    *reply = not_durable(reply, error);
                }
            }
        }
    }

    /// Sends the replies of a handled group once settled, then the
    /// notifications it gave rise to (a subscription's acknowledgement, the
    /// updates its writes caused). `false` when stdout is closed.
    fn answer(&mut self, mut handled: Handled) -> bool {
        self.settle(&mut handled);
        for reply in handled.replies.into_iter().flatten() {
            if !self.frames.send(reply, wire) {
                self.note("stdout is closed; stopping");
                return false;
            }
        }
        self.check_if_written();
        self.flush_outbox()
    }

    /// The reply to a line over `mcp.max_line_bytes` (its bytes were dropped).
    fn oversize(&self, observed: u64) -> Value {
        let limit = self.limits.max_line_bytes;
        self.note(&format!("dropped a {observed}-byte line (limit {limit})"));
        let error = RpcError::new(
            protocol::INVALID_REQUEST,
            format!(
                "invalid request: the line is {observed} bytes, over the limit of {limit} \
                 (mcp.max_line_bytes); it was discarded"
            ),
        )
        .with_data(json!({"limit_name": "max_line_bytes", "observed": observed, "limit": limit}));
        protocol::reply_error(&Value::Null, &error)
    }

    /// The reply to one line, if it gets one: an array of replies for a
    /// batch (where the negotiated version has batches).
    pub fn handle_line(&mut self, line: &[u8]) -> Option<Value> {
        match protocol::parse(line) {
            Ok(value) => self.handle_value(value),
            Err(message) => self.handle(message),
        }
    }

    /// The reply to one parsed message or batch, if it gets one.
    fn handle_value(&mut self, value: Value) -> Option<Value> {
        match value {
            Value::Array(batch) if self.features.batches() => self.handle_batch(batch),
            value => self.handle(protocol::classify_value(value)),
        }
    }

    /// A JSON-RPC batch: one reply per request in it, in order, as one
    /// array; nothing when it holds only notifications and responses. An
    /// empty batch is one `-32600` error; `initialize` may not be batched.
    fn handle_batch(&mut self, batch: Vec<Value>) -> Option<Value> {
        if batch.is_empty() {
            return self.handle(Message::Invalid {
                id: Value::Null,
                error: RpcError::new(protocol::INVALID_REQUEST, "invalid request: an empty batch"),
            });
        }
        let replies: Vec<Value> = batch
            .into_iter()
            .filter_map(|value| match value {
                Value::Array(_) => self.handle(Message::Invalid {
                    id: Value::Null,
                    error: RpcError::new(
                        protocol::INVALID_REQUEST,
                        "invalid request: a batch may not hold another batch",
                    ),
                }),
                value => self.handle_batched(value),
            })
            .collect();
        (!replies.is_empty()).then_some(Value::Array(replies))
    }

    /// One message of a batch.
    fn handle_batched(&mut self, value: Value) -> Option<Value> {
        match protocol::classify_value(value) {
            Message::Request { id, method, .. }
                if method == "initialize" || method == "subscriptions/listen" =>
            {
                self.handle(Message::Invalid {
                    id,
                    error: RpcError::new(
                        protocol::INVALID_REQUEST,
                        format!("invalid request: {method} must not be part of a batch"),
                    ),
                })
            }
            message => self.handle(message),
        }
    }

    /// The reply to one message, if it gets one.
    fn handle(&mut self, message: Message) -> Option<Value> {
        match message {
            Message::Invalid { id, error } => {
                self.note(&format!("invalid message: {}", error.message));
                Some(protocol::reply_error(&id, &error))
            }
            Message::Response => {
                self.note("ignored a response (this server sends no requests)");
                None
            }
            Message::Notification { method, params } => {
                match method.as_str() {
                    "notifications/cancelled" => {
                        if let Some(id) = params.as_ref().and_then(|p| p.get("requestId")) {
                            self.subscriptions.cancel(id);
                        }
                    }
                    "notifications/initialized" => {}
                    other => self.note(&format!("ignored notification {other}")),
                }
                None
            }
            Message::Request { id, method, params } if method == "subscriptions/listen" => {
                self.listen(&id, params)
            }
            Message::Request { id, method, params } => {
                let started = Instant::now();
                let outcome =
                    catch_unwind(AssertUnwindSafe(|| self.serve_request(&method, params)));
                let outcome = outcome.unwrap_or_else(|payload| {
                    // A half-done request may have left the kept index
                    // connection mid-way: start afresh.
                    self.memory.reset();
                    let what = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "unknown panic".to_string());
                    Err(RpcError::internal(format!(
                        "internal error: agentbox hit a bug handling {method}: {what}"
                    )))
                });
                let elapsed = started.elapsed().as_secs_f64() * 1000.0;
                match outcome {
                    Ok(result) => {
                        self.note(&format!("{method} (id {id}) ok in {elapsed:.1} ms"));
                        Some(protocol::reply(&id, result))
                    }
                    Err(error) => {
                        self.note(&format!(
                            "{method} (id {id}) failed in {elapsed:.1} ms: {} {}",
                            error.code, error.message
                        ));
                        Some(protocol::reply_error(&id, &error))
                    }
                }
            }
        }
    }

    /// One request in its era (`protocol::era_of`): a legacy request is
    /// served at the session's negotiated version; a modern one at its own
    /// version, statelessly, its result shaped for it.
    fn serve_request(
        &mut self,
        method: &str,
        params: Option<Value>,
    ) -> std::result::Result<Value, RpcError> {
        match protocol::era_of(method, params.as_ref())? {
            Era::Legacy => self.request(method, params, self.features),
            Era::Modern(version) => {
                let features = Features::new(version);
                let result = self.modern(method, params, features).map_err(|mut error| {
                    // 2026-07-28 retired -32002: an unknown resource is a
                    // bad `uri`, -32602 (SEP-2164).
                    if error.code == protocol::RESOURCE_NOT_FOUND {
                        error.code = protocol::INVALID_PARAMS;
                    }
                    error
                })?;
                Ok(protocol::shape_modern(
                    method,
                    result,
                    &server_info(features),
                ))
            }
        }
    }

    /// A modern request: `server/discover` and the tools and resources;
    /// the handshake and `ping` do not exist in this era.
    fn modern(
        &mut self,
        method: &str,
        params: Option<Value>,
        features: Features,
    ) -> std::result::Result<Value, RpcError> {
        match method {
            "server/discover" => Ok(json!({
                "supportedVersions": protocol::supported_versions(),
                "capabilities": capabilities(true),
                "instructions": INSTRUCTIONS
            })),
            "initialize" | "ping" => Err(method_not_found(method)),
            _ => self.request(method, params, features),
        }
    }

    /// A request served at `features` (the session's for a legacy request).
    fn request(
        &mut self,
        method: &str,
        params: Option<Value>,
        features: Features,
    ) -> std::result::Result<Value, RpcError> {
        match method {
            "initialize" => {
                let params = protocol::params_object(params)?;
                let requested = params.get("protocolVersion").and_then(Value::as_str);
                let version = protocol::negotiate(requested);
                self.features = Features::new(version);
                Ok(json!({
                    "protocolVersion": version,
                    "capabilities": capabilities(false),
                    "serverInfo": server_info(self.features),
                    "instructions": INSTRUCTIONS
                }))
            }
            "ping" => Ok(json!({})),
            "tools/list" => Ok(tools::list(features)),
            "tools/call" => {
                let mut params = protocol::params_object(params)?;
                let name = match params.get("name") {
                    Some(Value::String(name)) => name.clone(),
                    _ => {
                        return Err(RpcError::invalid_params(
                            "tools/call needs params.name, the tool's name",
                        ));
                    }
                };
                let args = match params.remove("arguments") {
                    None | Some(Value::Null) => Map::new(),
                    Some(Value::Object(args)) => args,
                    Some(_) => {
                        return Err(RpcError::invalid_params(
                            "params.arguments must be an object",
                        ));
                    }
                };
                let output = tools::call(&mut self.memory, &name, &args)?;
                Ok(self.tool_result(output, features))
            }
            "resources/list" => Ok(resources::list(features, &self.resources)),
            "resources/templates/list" => Ok(resources::templates(features)),
            "resources/read" => {
                let params = protocol::params_object(params)?;
                let Some(uri) = params.get("uri").and_then(Value::as_str) else {
                    return Err(RpcError::invalid_params("resources/read needs params.uri"));
                };
                // The URI comes back in the reply: a secret hidden in it by
                // percent-escapes must not come back unmasked.
                let decoded = resources::decode(uri);
                let masked = self.frames.redact_text(&decoded);
                let shown = if masked == decoded {
                    uri
                } else {
                    masked.as_str()
                };
                let text = resources::read(&mut self.memory, &self.resources, uri).map_err(
                    |mut error| {
                        if let Some(data) = error.data.as_mut().and_then(Value::as_object_mut)
                            && data.contains_key("uri")
                        {
                            data.insert("uri".into(), json!(shown));
                        }
                        error.message = error.message.replace(uri, shown);
                        error
                    },
                )?;
                Ok(resources::contents(shown, self.bounded(&text)))
            }
            "debug/panic" if self.debug_panic => panic!("debug/panic was called"),
            other => Err(method_not_found(other)),
        }
    }

    /// Result text: redacted, then cut to `max_result_chars`.
    fn bounded(&self, text: &str) -> String {
        let redacted = self.frames.redact_text(text);
        protocol::bound_text(redacted, self.limits.max_result_chars).0
    }

    /// A `tools/call` result: text content (redacted and bounded), `isError`
    /// when the tool failed, and `structuredContent` where the negotiated
    /// version has it.
    /// A JSON result (the save tools) is bounded as JSON, so its text stays
    /// valid JSON and equal to `structuredContent`.
    fn tool_result(&self, output: tools::ToolOutput, features: Features) -> Value {
        let (text, structured) = match output.structured {
            Some(mut structured) => {
                self.frames.redact_value(&mut structured);
                let (structured, _) =
                    protocol::bound_json(structured, self.limits.max_result_chars);
                (structured.to_string(), Some(structured))
            }
            None => (self.bounded(&output.text), None),
        };
        let mut result = json!({"content": [{"type": "text", "text": text}]});
        if output.is_error {
            result["isError"] = json!(true);
        }
        if features.structured()
            && let Some(structured) = structured
        {
            result["structuredContent"] = structured;
        }
        result
    }

    /// Once the input has ended (every reply is out): merges the small
    /// index segments the session's saves left (`search::fold_segments`).
    /// Best effort; said at -v.
    fn fold_index(&self) {
        let home = self.memory.home;
        let segments = |levels: &[usize]| levels.iter().sum::<usize>();
        match crate::search::fold_segments(home) {
            Ok(folded) if folded.merged() => self.note(&format!(
                "search index: merged {} segments into {} in {} ms",
                segments(&folded.before),
                segments(&folded.after),
                folded.elapsed.as_millis()
            )),
            Ok(_) => {}
            Err(error) => self.note(&format!(
                "search index: small segments left unmerged: {}",
                error.message
            )),
        }
    }

    /// A log line on stderr (with -v).
    fn note(&self, message: &str) {
        self.log
            .log(self.frames.redactor(), &format!("memory_mcp: {message}"));
    }
}

/// A reply (one, or a batch's array) serialized, never over
/// [`protocol::MAX_RESPONSE_BYTES`].
fn wire(reply: &Value) -> String {
    match reply {
        Value::Array(replies) => protocol::batch_line(replies, protocol::MAX_RESPONSE_BYTES),
        reply => protocol::reply_line(reply, protocol::MAX_RESPONSE_BYTES),
    }
}

/// What the server offers: tools and resources, neither of whose lists
/// changes while it runs; in the 2026-07-28 era, updates of the resources
/// through `subscriptions/listen` (the handshake era's `resources/subscribe`
/// is not served).
fn capabilities(modern: bool) -> Value {
    json!({
        "tools": {"listChanged": false},
        "resources": {"subscribe": modern, "listChanged": false}
    })
}

/// The server's identity: `serverInfo` of `initialize`, and the
/// `io.modelcontextprotocol/serverInfo` stamp on every modern result.
fn server_info(features: Features) -> Value {
    let mut info = json!({"name": SERVER_NAME, "version": env!("CARGO_PKG_VERSION")});
    if features.structured() {
        info["title"] = json!("agentbox memory");
    }
    info
}

fn method_not_found(method: &str) -> RpcError {
    RpcError::new(
        protocol::METHOD_NOT_FOUND,
        format!("Method not found: {method}"),
    )
    .with_data(json!({"method": method}))
}

/// The reply that replaces `reply` (one reply, or a batch's array) when the
/// group commit that had to make its request's writes durable failed: an
/// error for each request, never a success. Whatever the request wrote may
/// or may not survive a power cut, so the host must not count on it.
fn not_durable(reply: &Value, error: &Error) -> Value {
    if let Value::Array(replies) = reply {
        return Value::Array(replies.iter().map(|r| not_durable(r, error)).collect());
    }
    let id = reply.get("id").cloned().unwrap_or(Value::Null);
    let error = RpcError::internal(format!(
        "internal error: the request's writes could not be made durable: {}",
        error.message
    ))
    .with_data(json!({"errorType": error.kind.as_str(), "hint": "the save may not have landed; check the disk, then retry (a retry of a save that did land reports duplicate)"}));
    protocol::reply_error(&id, &error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_whose_writes_are_not_durable_become_errors() {
        let error = Error::io(
            "sync",
            std::path::Path::new("/h/e.jsonl"),
            &std::io::Error::other("EIO"),
        );
        let saved = protocol::reply(
            &json!(7),
            json!({"content": [{"type": "text", "text": "{\"status\":\"saved\"}"}]}),
        );
        let replaced = not_durable(&saved, &error);
        assert_eq!(replaced["id"], 7);
        assert!(replaced.get("result").is_none(), "{replaced}");
        assert_eq!(replaced["error"]["code"], protocol::INTERNAL_ERROR);
        assert!(
            replaced["error"]["message"]
                .as_str()
                .unwrap()
                .contains("/h/e.jsonl"),
            "{replaced}"
        );
        assert_eq!(replaced["error"]["data"]["errorType"], "io");
        let batch = not_durable(&json!([saved.clone(), saved]), &error);
        assert_eq!(batch.as_array().unwrap().len(), 2);
        assert!(batch[1]["error"].is_object(), "{batch}");
    }
}
