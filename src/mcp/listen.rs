//! `subscriptions/listen` (MCP 2026-07-28): a client opts in to
//! `notifications/resources/updated` for the resources it names, on a
//! stream that is the listen request's own response — interleaved on
//! stdout for stdio, an event stream for HTTP.
//!
//! Whether a resource changed is judged by its content, not guessed from
//! the tool that ran: after every group of requests that wrote, and every
//! few seconds for writes by other processes (a CLI call, a sync pull), each
//! subscribed resource is read again and its fingerprint compared. So an
//! update is never sent for a resource that did not change, and one changed
//! by anyone is noticed.

use super::protocol::{self, Era, Features, RpcError};
use super::{Server, method_not_found, resources, server_info, wire};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

/// The `_meta` key that ties a notification to its subscription.
pub const SUBSCRIPTION_ID_META: &str = "io.modelcontextprotocol/subscriptionId";
/// Open subscriptions at once; one more is refused (`-32603`, as the SDK).
const MAX_SUBSCRIPTIONS: usize = 64;
/// The longest string id a subscription may have.
const MAX_ID_BYTES: usize = 256;
/// Resources one subscription may name.
const MAX_URIS: usize = 32;
/// How often subscribed resources are read again when nothing was written
/// through this server.
pub const RECHECK: Duration = Duration::from_secs(2);
/// Notifications an HTTP stream may have unsent before it is ended (a
/// client that stopped reading; it re-listens and reads again).
pub const STREAM_BACKLOG: usize = 256;

/// Where a subscription's messages go.
#[derive(Debug)]
pub enum Sink {
    /// stdout, between the replies (the server sends them).
    Stdio,
    /// An HTTP event stream: its connection thread writes what it gets.
    Http(Stream),
}

/// The server's end of an HTTP event stream.
#[derive(Debug)]
pub struct Stream {
    pub messages: SyncSender<String>,
    /// Cleared by the connection thread when the client is gone.
    pub alive: Arc<AtomicBool>,
}

impl Stream {
    /// Queues a message; `false` when the stream is gone or full (it ends).
    fn send(&self, message: String) -> bool {
        self.alive.load(Ordering::SeqCst) && self.messages.try_send(message).is_ok()
    }
}

#[derive(Debug)]
struct Subscription {
    id: Value,
    uris: Vec<String>,
    sink: Sink,
}

/// The open subscriptions and what their resources last looked like.
#[derive(Debug, Default)]
pub struct Subscriptions {
    open: Vec<Subscription>,
    seen: BTreeMap<String, [u8; 32]>,
    checked: Option<Instant>,
}

/// A content fingerprint.
pub fn fingerprint(content: &std::result::Result<String, RpcError>) -> [u8; 32] {
    match content {
        Ok(text) => Sha256::digest(text.as_bytes()).into(),
        Err(error) => Sha256::digest(format!("error {}", error.message).as_bytes()).into(),
    }
}

impl Subscriptions {
    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// Opens a subscription for request `id`: the acknowledgement (the
    /// first message of its stream, saying what is honoured), or the error
    /// that refuses it. Only the `listed` resources (`resources/list`: a
    /// handful, each cheap to read) are honoured — a search URI would cost
    /// a search per subscription after every write, and changes with every
    /// turn saved anyway. `read` gives a resource's current content.
    #[allow(clippy::too_many_arguments)]
    pub fn listen(
        &mut self,
        id: &Value,
        params: Option<&Value>,
        listed: &[&str],
        sink: Sink,
        mut read: impl FnMut(&str) -> std::result::Result<String, RpcError>,
        encode: &dyn Fn(Value) -> String,
    ) -> std::result::Result<Value, RpcError> {
        // The id rides on every message of the stream: a number or a short
        // string (an 8 MiB id queued per update would cost gigabytes).
        let short = match id {
            Value::Number(_) => true,
            Value::String(s) => s.len() <= MAX_ID_BYTES,
            _ => false,
        };
        if !short {
            return Err(RpcError::new(
                protocol::INVALID_REQUEST,
                format!(
                    "subscriptions/listen needs a request id that is a number or a string of at most {MAX_ID_BYTES} bytes: it names the subscription on every message"
                ),
            ));
        }
        let filter = params
            .and_then(|p| p.get("notifications"))
            .and_then(Value::as_object)
            .ok_or_else(|| {
                RpcError::invalid_params(
                    "subscriptions/listen needs params.notifications, an object",
                )
            })?;
        let mut uris = match filter.get("resourceSubscriptions") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => {
                let mut uris = Vec::new();
                for item in items {
                    let Some(uri) = item.as_str() else {
                        return Err(RpcError::invalid_params(
                            "params.notifications.resourceSubscriptions must hold URI strings",
                        ));
                    };
                    if !uris.iter().any(|u| u == uri) {
                        uris.push(uri.to_string());
                    }
                }
                uris
            }
            Some(_) => {
                return Err(RpcError::invalid_params(
                    "params.notifications.resourceSubscriptions must be an array",
                ));
            }
        };
        if uris.len() > MAX_URIS {
            return Err(RpcError::invalid_params(format!(
                "a subscription may name at most {MAX_URIS} resources, not {}",
                uris.len()
            )));
        }
        uris.retain(|uri| listed.contains(&uri.as_str()));
        self.prune();
        if self.open.len() >= MAX_SUBSCRIPTIONS {
            return Err(RpcError::internal(format!(
                "subscription limit reached: {MAX_SUBSCRIPTIONS} streams are open"
            )));
        }
        // On stdio the id names the subscription (`notifications/cancelled`);
        // over HTTP each stream is its own, whatever id its client chose.
        if matches!(sink, Sink::Stdio)
            && self
                .open
                .iter()
                .any(|s| matches!(s.sink, Sink::Stdio) && &s.id == id)
        {
            return Err(RpcError::new(
                protocol::INVALID_REQUEST,
                format!("a subscription with id {id} is already open on this stream"),
            ));
        }
        for uri in &uris {
            if !self.seen.contains_key(uri) {
                let print = fingerprint(&read(uri));
                self.seen.insert(uri.clone(), print);
            }
        }
        // Only resource updates are honoured: the tool and resource lists
        // never change while the server runs, and it has no prompts.
        let mut honored = Map::new();
        if !uris.is_empty() {
            honored.insert("resourceSubscriptions".into(), json!(uris));
        }
        let ack = json!({
            "jsonrpc": "2.0",
            "method": "notifications/subscriptions/acknowledged",
            "params": {"notifications": honored, "_meta": {SUBSCRIPTION_ID_META: id}}
        });
        let ack = match sink {
            Sink::Http(ref stream) => {
                // Delivered by the stream before anything else.
                stream.send(encode(ack));
                Value::Null
            }
            Sink::Stdio => ack,
        };
        self.open.push(Subscription {
            id: id.clone(),
            uris,
            sink,
        });
        Ok(ack)
    }

    /// Ends the stdio subscription a `notifications/cancelled` names.
    pub fn cancel(&mut self, request_id: &Value) {
        self.open
            .retain(|s| !(matches!(s.sink, Sink::Stdio) && &s.id == request_id));
    }

    /// Whether a periodic check is due (HTTP: the server thread polls).
    pub fn due(&self) -> bool {
        !self.open.is_empty() && self.checked.is_none_or(|at| at.elapsed() >= RECHECK)
    }

    /// Reads every subscribed resource again; for each that changed, an
    /// update to each subscription naming it. HTTP streams get theirs here
    /// (a stream gone or full ends its subscription); the stdio ones are
    /// returned for the server to write.
    pub fn check(
        &mut self,
        mut read: impl FnMut(&str) -> std::result::Result<String, RpcError>,
        encode: &dyn Fn(Value) -> String,
    ) -> Vec<Value> {
        self.checked = Some(Instant::now());
        self.prune();
        let wanted: Vec<String> = self
            .seen
            .keys()
            .filter(|uri| self.open.iter().any(|s| s.uris.contains(uri)))
            .cloned()
            .collect();
        self.seen.retain(|uri, _| wanted.contains(uri));
        let mut stdio = Vec::new();
        for uri in wanted {
            let print = fingerprint(&read(&uri));
            if self.seen.get(&uri) == Some(&print) {
                continue;
            }
            self.seen.insert(uri.clone(), print);
            for sub in self.open.iter_mut().filter(|s| s.uris.contains(&uri)) {
                let update = json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/resources/updated",
                    "params": {"uri": uri, "_meta": {SUBSCRIPTION_ID_META: sub.id}}
                });
                match &sub.sink {
                    Sink::Stdio => stdio.push(update),
                    Sink::Http(stream) => {
                        if !stream.send(encode(update)) {
                            stream.alive.store(false, Ordering::SeqCst);
                        }
                    }
                }
            }
        }
        self.prune();
        stdio
    }

    /// Drops subscriptions whose stream is gone (or was ended above).
    fn prune(&mut self) {
        self.open.retain(|s| match &s.sink {
            Sink::Stdio => true,
            Sink::Http(stream) => stream.alive.load(Ordering::SeqCst),
        });
    }

    /// Ends every subscription gracefully (the server is stopping): the
    /// listen result each stream ends with. The stdio ones are returned.
    pub fn close_all(
        &mut self,
        server_info: &Value,
        encode: &dyn Fn(Value) -> String,
    ) -> Vec<Value> {
        let mut stdio = Vec::new();
        for sub in self.open.drain(..) {
            let result = protocol::reply(
                &sub.id,
                json!({
                    "resultType": "complete",
                    "_meta": {SUBSCRIPTION_ID_META: sub.id, protocol::SERVER_INFO_META: server_info}
                }),
            );
            match sub.sink {
                Sink::Stdio => stdio.push(result),
                Sink::Http(stream) => {
                    stream.send(encode(result));
                }
            }
        }
        stdio
    }
}

/// The server's side of subscriptions: checks after writes and on a timer,
/// the stdout queue of their messages, and `subscriptions/listen` itself.
impl Server<'_> {
    /// Checks the subscribed resources when this process wrote anything
    /// since the last check (an append, a replaced file: a fact, a note).
    pub(super) fn check_if_written(&mut self) {
        let writes = crate::store::writes();
        if writes != self.writes_seen && !self.subscriptions.is_empty() {
            self.check_subscriptions();
        }
        self.writes_seen = writes;
    }

    /// Reads the subscribed resources again (`listen::Subscriptions::check`).
    pub(super) fn check_subscriptions(&mut self) {
        let memory = &mut self.memory;
        let resources = &self.resources;
        let frames = &self.frames;
        let updates = self
            .subscriptions
            .check(|uri| resources::read(memory, resources, uri), &|message| {
                frames.encode(message, wire)
            });
        self.outbox.extend(updates);
    }

    /// Ends every subscription with its listen result (the server stops).
    pub(super) fn end_subscriptions(&mut self) {
        let frames = &self.frames;
        let results = self.subscriptions.close_all(
            &server_info(Features::new(protocol::LATEST_VERSION)),
            &|message| frames.encode(message, wire),
        );
        self.outbox.extend(results);
        self.flush_outbox();
    }

    /// A periodic check of the subscribed resources (changes by other
    /// processes), its updates sent. `false` when stdout is closed.
    pub(super) fn recheck(&mut self) -> bool {
        self.check_subscriptions();
        self.flush_outbox()
    }

    /// Writes the queued notifications. `false` when stdout is closed.
    pub(super) fn flush_outbox(&mut self) -> bool {
        for message in std::mem::take(&mut self.outbox) {
            if !self.frames.send(message, wire) {
                self.note("stdout is closed; stopping");
                return false;
            }
        }
        true
    }

    /// `subscriptions/listen` (2026-07-28 only): opens a stream of resource
    /// updates; its reply comes only when the server ends it.
    pub(super) fn listen(&mut self, id: &Value, params: Option<Value>) -> Option<Value> {
        match protocol::era_of("subscriptions/listen", params.as_ref()) {
            Err(error) => return Some(protocol::reply_error(id, &error)),
            Ok(Era::Legacy) => {
                let error = method_not_found("subscriptions/listen");
                return Some(protocol::reply_error(id, &error));
            }
            Ok(Era::Modern(_)) => {}
        }
        let sink = match self.stream.take() {
            Some(stream) => Sink::Http(stream),
            None if self.http => {
                let error = RpcError::new(
                    protocol::INVALID_REQUEST,
                    "subscriptions/listen needs a POST of its own: its response is an event stream",
                );
                return Some(protocol::reply_error(id, &error));
            }
            None => Sink::Stdio,
        };
        let memory = &mut self.memory;
        let resources = &self.resources;
        let frames = &self.frames;
        let listed = resources::listed(resources);
        let opened = self.subscriptions.listen(
            id,
            params.as_ref(),
            &listed,
            sink,
            |uri| resources::read(memory, resources, uri),
            &|message| frames.encode(message, wire),
        );
        match opened {
            Ok(Value::Null) => None,
            Ok(ack) => {
                self.note(&format!("subscriptions/listen (id {id}) open"));
                self.outbox.push(ack);
                None
            }
            Err(error) => Some(protocol::reply_error(id, &error)),
        }
    }
}
