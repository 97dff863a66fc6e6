//! `subscriptions/listen` (MCP 2026-07-28, docs/MCP.md "Two protocol
//! eras"): the acknowledgement first, `notifications/resources/updated` when
//! a subscribed resource's content changes (by this server's writes or by
//! another process), none when it does not, cancellation, the listen result
//! when the server stops — on stdio and as an HTTP event stream.

use crate::common;

use common::Sandbox;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

fn envelope() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

fn request(id: Value, method: &str, mut params: Value) -> Value {
    params["_meta"] = envelope();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn listen(id: &str, uris: &[&str]) -> Value {
    request(
        json!(id),
        "subscriptions/listen",
        json!({"notifications": {"resourceSubscriptions": uris, "toolsListChanged": true, "promptsListChanged": true}}),
    )
}

fn save_fact(id: i64, fact: &str) -> Value {
    request(
        json!(id),
        "tools/call",
        json!({"name": "mem_save_fact", "arguments": {"fact": fact}}),
    )
}

/// A stdio server whose output lines arrive on a channel.
struct Piped {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
}

impl Piped {
    fn start(sb: &Sandbox) -> Piped {
        let mut child = sb
            .std_command(sb.home().join("tools").join("memory_mcp"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the server");
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                let value: Value = serde_json::from_str(&line).expect("a JSON line");
                if send.send(value).is_err() {
                    return;
                }
            }
        });
        Piped {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, waiting up to 20 s (generous for a loaded machine).
    fn next(&self) -> Value {
        self.lines
            .recv_timeout(Duration::from_secs(20))
            .expect("a line from the server")
    }

    /// Whether nothing arrives within `wait`.
    fn quiet_for(&self, wait: Duration) -> Option<Value> {
        self.lines.recv_timeout(wait).ok()
    }
}

impl Drop for Piped {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn updated(uri: &str, id: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
           "params": {"uri": uri, "_meta": {"io.modelcontextprotocol/subscriptionId": id}}})
}

#[test]
fn a_stdio_subscription_is_told_when_and_only_when_its_resource_changes() {
    let sb = Sandbox::new();
    let mut server = Piped::start(&sb);
    server.send(&listen("sub-1", &["mem://profile"]));
    let ack = server.next();
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "sub-1"
    );
    // Only what it serves is honoured: the lists never change, no prompts.
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourceSubscriptions": ["mem://profile"]})
    );
    // A search is not a resource one subscribes to (it would cost a search
    // per write; it changes with every turn): left out of the ack.
    server.send(&listen("sub-0", &["mem://search?q=tea", "mem://nope"]));
    let ack = server.next();
    assert_eq!(ack["params"]["notifications"], json!({}), "{ack}");

    // A write that changes the profile: the reply, then the update.
    server.send(&save_fact(2, "I prefer green tea"));
    let reply = server.next();
    assert_eq!(reply["id"], 2, "{reply}");
    assert_eq!(server.next(), updated("mem://profile", "sub-1"));

    // A read changes nothing: no update.
    server.send(&request(
        json!(3),
        "tools/call",
        json!({"name": "mem_search", "arguments": {"query": "tea"}}),
    ));
    assert_eq!(server.next()["id"], 3);
    // A save that does not touch the profile (a turn): no profile update.
    server.send(&request(
        json!(4),
        "tools/call",
        json!({"name": "mem_save_turn", "arguments": {"role": "assistant", "content": "noted"}}),
    ));
    assert_eq!(server.next()["id"], 4);
    if let Some(extra) = server.quiet_for(Duration::from_millis(500)) {
        panic!("nothing changed the profile, yet: {extra}");
    }

    // Another process changes it: noticed by the periodic check.
    sb.agentbox(&["knowledge", "profile", "add", "I live in Lisbon"])
        .assert()
        .success();
    assert_eq!(server.next(), updated("mem://profile", "sub-1"));

    // Cancelled: no more updates for it.
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": "sub-1"}}),
    );
    server.send(&save_fact(5, "I work from home on Fridays"));
    assert_eq!(server.next()["id"], 5);
    if let Some(extra) = server.quiet_for(Duration::from_millis(2500)) {
        panic!("the subscription was cancelled, yet: {extra}");
    }
}

#[test]
fn the_end_of_input_ends_each_stdio_subscription_with_its_result() {
    let sb = Sandbox::new();
    let mut server = Piped::start(&sb);
    server.send(&listen("s", &[]));
    assert_eq!(
        server.next()["method"],
        "notifications/subscriptions/acknowledged"
    );
    server.stdin.take();
    let end = server.next();
    assert_eq!(end["id"], "s", "{end}");
    assert_eq!(end["result"]["resultType"], "complete", "{end}");
    assert_eq!(
        end["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "s"
    );
}

#[test]
fn listen_is_refused_where_it_does_not_exist_or_is_malformed() {
    let sb = Sandbox::new();
    let mut server = Piped::start(&sb);
    // The handshake era has no subscriptions/listen.
    server.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen",
                        "params": {"notifications": {}}}),
    );
    assert_eq!(server.next()["error"]["code"], -32601);
    for (id, notifications) in [
        (2, Value::Null),
        (3, json!({"resourceSubscriptions": "mem://profile"})),
        (4, json!({"resourceSubscriptions": [7]})),
    ] {
        let mut params = json!({"notifications": notifications});
        if notifications.is_null() {
            params = json!({});
        }
        server.send(&request(json!(id), "subscriptions/listen", params));
        let reply = server.next();
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
    }
    // An id rides on every message: a huge or structured one is refused.
    for (n, id) in [json!("x".repeat(300)), json!({"a": 1}), Value::Null]
        .into_iter()
        .enumerate()
    {
        let mut request = listen("placeholder", &["mem://profile"]);
        request["id"] = id.clone();
        server.send(&request);
        let reply = server.next();
        assert_eq!(reply["error"]["code"], -32600, "{n}: {reply}");
    }
    let many: Vec<String> = (0..33).map(|i| format!("mem://search?q=w{i}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let mut too_many = listen("x", &many);
    too_many["id"] = json!(5);
    server.send(&too_many);
    assert_eq!(server.next()["error"]["code"], -32602);
    // The modern discover advertises it; initialize does not.
    server.send(&request(json!(6), "server/discover", json!({})));
    let discover = server.next();
    assert_eq!(
        discover["result"]["capabilities"]["resources"]["subscribe"], true,
        "{discover}"
    );
    server.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}));
    assert_eq!(
        server.next()["result"]["capabilities"]["resources"]["subscribe"],
        false
    );
}

/// An HTTP server on a free loopback port (with -v: its log lines arrive
/// on `log`); killed on drop.
struct Http {
    child: Child,
    port: u16,
    log: Receiver<String>,
}

impl Http {
    fn start(sb: &Sandbox) -> Http {
        let mut child = sb
            .std_command(common::bin())
            .args(["memory_mcp", "--http", "127.0.0.1:0", "-v"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the server");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let (send, log) = channel();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                let _ = send.send(line);
            }
        });
        Http { child, port, log }
    }

    /// Sends a POST of `body` with the 2026-07-28 headers; the open stream.
    fn post(&self, body: &Value, accept: &str) -> TcpStream {
        let method = body["method"].as_str().unwrap();
        let mut headers = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Accept: {accept}\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n",
            self.port
        );
        if let Some(name) = body["params"]["name"].as_str() {
            headers.push_str(&format!("Mcp-Name: {name}\r\n"));
        }
        let text = body.to_string();
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{text}",
            text.len()
        )
        .unwrap();
        stream
    }
}

impl Drop for Http {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `data:` events from an event stream until `count` are in.
fn events(reader: &mut BufReader<TcpStream>, count: usize) -> Vec<Value> {
    let mut found = Vec::new();
    let mut line = String::new();
    while found.len() < count {
        line.clear();
        assert!(
            reader.read_line(&mut line).expect("the stream stays open") > 0,
            "the stream ended after {found:?}"
        );
        if let Some(data) = line.strip_prefix("data: ") {
            found.push(serde_json::from_str(data.trim()).expect("JSON data"));
        }
    }
    found
}

#[test]
fn an_http_subscription_is_an_event_stream_of_its_updates() {
    let sb = Sandbox::new();
    let server = Http::start(&sb);
    // Without text/event-stream in Accept there is nothing to answer with.
    let mut refused = String::new();
    server
        .post(&listen("no", &["mem://profile"]), "application/json")
        .read_to_string(&mut refused)
        .unwrap();
    assert!(refused.starts_with("HTTP/1.1 406"), "{refused}");

    let stream = server.post(
        &listen("sub-h", &["mem://profile"]),
        "application/json, text/event-stream",
    );
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    let ack = events(&mut reader, 1).remove(0);
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );

    let mut saved = String::new();
    server
        .post(&save_fact(2, "I prefer oolong"), "application/json")
        .read_to_string(&mut saved)
        .unwrap();
    assert!(saved.starts_with("HTTP/1.1 200"), "{saved}");
    let update = events(&mut reader, 1).remove(0);
    assert_eq!(update, updated("mem://profile", "sub-h"));
}

#[test]
fn http_streams_are_their_clients_own_and_end_when_the_client_leaves() {
    let sb = Sandbox::new();
    let server = Http::start(&sb);
    let accept = "application/json, text/event-stream";
    // Two clients that both chose id 1 (every SDK counts from 0 or 1).
    let mut first = BufReader::new(server.post(&listen("1", &["mem://profile"]), accept));
    let mut second = BufReader::new(server.post(&listen("1", &["mem://profile"]), accept));
    for reader in [&mut first, &mut second] {
        let ack = events(reader, 1).remove(0);
        assert_eq!(
            ack["method"], "notifications/subscriptions/acknowledged",
            "{ack}"
        );
    }
    // The first leaves: its stream is noticed closed well before the 15 s
    // keep-alive comment would have shown it.
    drop(first);
    let closed = (0..100).find_map(|_| {
        let line = server.log.recv_timeout(Duration::from_millis(100)).ok()?;
        line.contains("event stream closed").then_some(line)
    });
    assert!(
        closed.is_some(),
        "the server did not notice the client leave"
    );
    // The second still hears about changes.
    let mut saved = String::new();
    server
        .post(&save_fact(2, "I prefer rooibos"), "application/json")
        .read_to_string(&mut saved)
        .unwrap();
    assert_eq!(
        events(&mut second, 1).remove(0),
        updated("mem://profile", "1")
    );
}
