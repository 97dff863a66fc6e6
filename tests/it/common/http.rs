//! Raw HTTP/1.1 against `memory_mcp --http` (docs/MCP.md, "Streamable
//! HTTP"): a guard that runs the server in a sandbox's home and kills it
//! when the test ends (passing or not), and a client over a plain
//! `TcpStream` that writes exactly the bytes a test gives it, so hostile
//! and malformed requests can be sent as well as good ones.

use super::Sandbox;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long the server may take to start, and a reply to arrive, before
/// the test fails instead of hanging (generous: CI machines are loaded).
pub const PATIENCE: Duration = Duration::from_secs(120);

/// The 2026-07-28 protocol version (stateless, per-request `_meta`).
pub const MODERN: &str = "2026-07-28";

/// The latest handshake-era version.
pub const HANDSHAKE: &str = "2025-11-25";

/// A running `memory_mcp --http` server; dropping it kills the server.
#[derive(Debug)]
pub struct HttpServer {
    child: Child,
    pub port: u16,
    stderr: Arc<Mutex<String>>,
}

/// A server that did not start: its exit code and what it printed.
#[derive(Debug)]
pub struct Refused {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl HttpServer {
    /// `memory_mcp --http 127.0.0.1:0 ARGS…` in the sandbox's home, with
    /// `envs` added to the clean test environment; waits for its
    /// `serving http://…/mcp` line.
    pub fn start(sb: &Sandbox, args: &[&str], envs: &[(&str, &str)]) -> HttpServer {
        let mut all = vec!["--http", "127.0.0.1:0"];
        all.extend_from_slice(args);
        HttpServer::start_with(sb, &all, envs).unwrap_or_else(|refused| {
            panic!("the server did not start: {refused:?}");
        })
    }

    /// `memory_mcp ARGS…` (ARGS include `--http`): the running server, or
    /// how it refused to start.
    pub fn start_with(
        sb: &Sandbox,
        args: &[&str],
        envs: &[(&str, &str)],
    ) -> Result<HttpServer, Refused> {
        let mut cmd = sb.std_command(sb.home().join("tools").join("memory_mcp"));
        cmd.env_remove("AGENTBOX_MCP_TOKEN")
            .env_remove("AGENTBOX_MCP_HTTP_TIMEOUT_MS")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("spawn memory_mcp --http");
        let stderr_pipe = child.stderr.take().expect("its stderr");
        let stderr = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = channel();
        let log = Arc::clone(&stderr);
        // Drains stderr for the server's whole life (so -v logging never
        // blocks it), and hands over the port of the `serving` line.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr_pipe);
            let mut line = String::new();
            let mut tx = Some(tx);
            loop {
                line.clear();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                log.lock().unwrap().push_str(&line);
                if let Some(port) = serving_port(&line)
                    && let Some(tx) = tx.take()
                {
                    let _ = tx.send(port);
                }
            }
        });
        match rx.recv_timeout(PATIENCE) {
            Ok(port) => Ok(HttpServer {
                child,
                port,
                stderr,
            }),
            Err(RecvTimeoutError::Disconnected) => {
                // stderr closed without the line: the server exited
                let status = child.wait().expect("wait for memory_mcp");
                let mut stdout = String::new();
                if let Some(mut out) = child.stdout.take() {
                    let _ = out.read_to_string(&mut stdout);
                }
                let stderr = stderr.lock().unwrap().clone();
                Err(Refused {
                    code: status.code(),
                    stdout,
                    stderr,
                })
            }
            Err(RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "memory_mcp printed no `serving` line within {PATIENCE:?}; stderr: {}",
                    stderr.lock().unwrap()
                );
            }
        }
    }

    pub fn addr(&self) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], self.port))
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Everything the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// A new keep-alive connection.
    pub fn connect(&self) -> Conn {
        Conn::open(self.addr())
    }

    /// Whether the server process is still running.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }

    /// A `/proc/PID/status` field in kB (`VmRSS`, `VmHWM`).
    pub fn memory_kb(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("read /proc/PID/status");
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {field} in {status}"))
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The port of `memory_mcp: serving http://127.0.0.1:PORT/mcp`.
fn serving_port(line: &str) -> Option<u16> {
    let rest = line
        .trim_end()
        .strip_prefix("memory_mcp: serving http://")?;
    let (authority, _) = rest.split_once("/mcp")?;
    authority.rsplit_once(':')?.1.parse().ok()
}

/// One HTTP request, written byte for byte as built.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    /// In order; `Host` and `Content-Length` are added when absent (see
    /// [`Request::bare`]).
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Send no `Host`/`Content-Length` unless listed in `headers`.
    pub bare: bool,
}

impl Request {
    pub fn new(method: &str, path: &str) -> Request {
        Request {
            method: method.to_string(),
            path: path.to_string(),
            headers: Vec::new(),
            body: Vec::new(),
            bare: false,
        }
    }

    /// `POST /mcp` of `body` with the headers a good client sends.
    pub fn post(body: &Value) -> Request {
        Request::new("POST", "/mcp")
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .body(body.to_string().into_bytes())
    }

    pub fn header(mut self, name: &str, value: &str) -> Request {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Drops every header called `name`.
    pub fn without(mut self, name: &str) -> Request {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self
    }

    /// Replaces the header called `name` (or adds it).
    pub fn set(self, name: &str, value: &str) -> Request {
        self.without(name).header(name, value)
    }

    pub fn body(mut self, body: Vec<u8>) -> Request {
        self.body = body;
        self
    }

    /// Sends only the headers listed (no automatic `Host`/`Content-Length`).
    pub fn bare(mut self) -> Request {
        self.bare = true;
        self
    }

    /// `Authorization: Bearer TOKEN`.
    pub fn bearer(self, token: &str) -> Request {
        self.set("Authorization", &format!("Bearer {token}"))
    }

    fn has(&self, name: &str) -> bool {
        self.headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }

    /// The request head and body as sent to `port`.
    pub fn to_bytes(&self, port: u16) -> Vec<u8> {
        let mut head = format!("{} {} HTTP/1.1\r\n", self.method, self.path);
        if !self.bare && !self.has("Host") {
            head.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
        }
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if !self.bare
            && !self.has("Content-Length")
            && !self.has("Transfer-Encoding")
            && (self.method == "POST" || !self.body.is_empty())
        {
            head.push_str(&format!("Content-Length: {}\r\n", self.body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(&self.body);
        bytes
    }
}

/// One HTTP response.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The first header called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON (fails the test otherwise).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("the body is not JSON ({e}): {self}"))
    }

    /// Whether the server said it closes the connection.
    pub fn closes(&self) -> bool {
        self.header("Connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"))
    }

    /// Checks an HTTP error: `status`, a JSON-RPC error body (id null),
    /// `Content-Type: application/json`; returns the error object.
    #[track_caller]
    pub fn rpc_error(&self, status: u16) -> Value {
        assert_eq!(self.status, status, "{self}");
        assert!(
            self.header("Content-Type")
                .is_some_and(|t| t.starts_with("application/json")),
            "an error body is JSON: {self}"
        );
        let body = self.json();
        assert_eq!(body["jsonrpc"], "2.0", "{self}");
        assert!(body.get("id").is_some(), "{self}");
        assert!(body.get("result").is_none(), "{self}");
        let error = body["error"].clone();
        assert!(
            error["code"].is_i64() && error["message"].is_string(),
            "a JSON-RPC error object: {self}"
        );
        if let Some(said) = error["data"].get("httpStatus") {
            assert_eq!(said, status, "data.httpStatus: {self}");
        }
        error
    }
}

impl std::fmt::Display for Response {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HTTP {}", self.status)?;
        for (n, v) in &self.headers {
            write!(f, "\n{n}: {v}")?;
        }
        let text = self.text();
        let cut = text.char_indices().nth(2000).map_or(text.len(), |(i, _)| i);
        write!(f, "\n\n{}", &text[..cut])
    }
}

/// A client connection: requests written whole, responses parsed.
#[derive(Debug)]
pub struct Conn {
    pub stream: TcpStream,
    port: u16,
    /// Bytes read past the last response.
    pending: Vec<u8>,
}

impl Conn {
    pub fn open(addr: SocketAddr) -> Conn {
        let stream = TcpStream::connect_timeout(&addr, PATIENCE).expect("connect to the server");
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        stream.set_write_timeout(Some(PATIENCE)).unwrap();
        stream.set_nodelay(true).unwrap();
        Conn {
            stream,
            port: addr.port(),
            pending: Vec::new(),
        }
    }

    /// Writes `bytes` as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stream.write_all(bytes)?;
        self.stream.flush()
    }

    pub fn send(&mut self, request: &Request) {
        let bytes = request.to_bytes(self.port);
        self.send_raw(&bytes).expect("write the request");
    }

    /// Sends `request` and reads its response.
    pub fn exchange(&mut self, request: &Request) -> Response {
        self.send(request);
        self.read_response().expect("a response")
    }

    /// More bytes into `pending`; false at end of stream.
    fn fill(&mut self) -> std::io::Result<bool> {
        let mut buf = [0u8; 64 * 1024];
        let n = self.stream.read(&mut buf)?;
        self.pending.extend_from_slice(&buf[..n]);
        Ok(n > 0)
    }

    /// One line (without CRLF) from the stream.
    fn line(&mut self) -> std::io::Result<String> {
        loop {
            if let Some(end) = self.pending.windows(2).position(|w| w == b"\r\n") {
                let line = String::from_utf8_lossy(&self.pending[..end]).into_owned();
                self.pending.drain(..end + 2);
                return Ok(line);
            }
            if !self.fill()? {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    format!(
                        "the connection closed mid-line after {:?}",
                        String::from_utf8_lossy(&self.pending)
                    ),
                ));
            }
        }
    }

    fn exactly(&mut self, n: usize) -> std::io::Result<Vec<u8>> {
        while self.pending.len() < n {
            if !self.fill()? {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
        }
        Ok(self.pending.drain(..n).collect())
    }

    /// The next response (an interim `100 Continue` is a response too);
    /// `Err` when the stream ends or fails before one.
    pub fn read_response(&mut self) -> std::io::Result<Response> {
        let status_line = self.line()?;
        let mut parts = status_line.splitn(3, ' ');
        let version = parts.next().unwrap_or_default();
        assert_eq!(version, "HTTP/1.1", "status line {status_line:?}");
        let status: u16 = parts
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("status line {status_line:?}"));
        let mut headers = Vec::new();
        loop {
            let line = self.line()?;
            if line.is_empty() {
                break;
            }
            let (name, value) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("header line {line:?}"));
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
        let mut response = Response {
            status,
            headers,
            body: Vec::new(),
        };
        if (100..200).contains(&status) || status == 204 {
            return Ok(response);
        }
        if response
            .header("Transfer-Encoding")
            .is_some_and(|t| t.eq_ignore_ascii_case("chunked"))
        {
            loop {
                let size = self.line()?;
                let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16)
                    .unwrap_or_else(|_| panic!("chunk size {size:?}"));
                let chunk = self.exactly(size)?;
                self.line()?;
                if size == 0 {
                    break;
                }
                response.body.extend_from_slice(&chunk);
            }
        } else if let Some(len) = response.header("Content-Length") {
            let len: usize = len.parse().expect("a numeric Content-Length");
            response.body = self.exactly(len)?;
        } else {
            // no length: the body runs to the end of the stream
            while self.fill()? {}
            response.body = std::mem::take(&mut self.pending);
        }
        Ok(response)
    }

    /// Whether the server has closed the connection: a read returns end
    /// of stream or a reset (waits up to the read timeout).
    pub fn closed_by_server(&mut self) -> bool {
        let mut buf = [0u8; 4096];
        loop {
            match self.stream.read(&mut buf) {
                Ok(0) => return true,
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
                Err(_) => return false,
            }
        }
    }
}

/// A JSON-RPC request body.
pub fn rpc(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// `params` carrying the 2026-07-28 per-request `_meta` at `version`.
pub fn modern_params(version: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw-http", "version": "0"}
    });
    params
}

/// A 2026-07-28 request with its headers: `MCP-Protocol-Version`,
/// `Mcp-Method` and, for tools/call and resources/read, `Mcp-Name`.
pub fn modern(id: i64, method: &str, params: Value) -> Request {
    let name = match method {
        "tools/call" => params["name"].as_str().map(str::to_string),
        "resources/read" => params["uri"].as_str().map(str::to_string),
        _ => None,
    };
    let mut request = Request::post(&rpc(id, method, modern_params(MODERN, params)))
        .header("MCP-Protocol-Version", MODERN)
        .header("Mcp-Method", method);
    if let Some(name) = name {
        request = request.header("Mcp-Name", &name);
    }
    request
}

/// A handshake-era request after `initialize`: `MCP-Protocol-Version:
/// 2025-11-25`, no `_meta` envelope.
pub fn handshake(id: i64, method: &str, params: Value) -> Request {
    Request::post(&rpc(id, method, params)).header("MCP-Protocol-Version", HANDSHAKE)
}

/// `mem_save_turn` arguments: one user turn of `content` in `session`.
pub fn save_turn(session: &str, content: &str) -> Value {
    json!({"name": "mem_save_turn", "arguments": {
        "sessionKey": session,
        "messages": [{"role": "user", "content": content}]
    }})
}

/// `mem_search` arguments.
pub fn search(query: &str) -> Value {
    json!({"name": "mem_search", "arguments": {"query": query, "topK": 5}})
}

/// A successful JSON-RPC reply's result (status 200, the id echoed).
#[track_caller]
pub fn result_of(response: &Response, id: i64) -> Value {
    assert_eq!(response.status, 200, "{response}");
    assert!(
        response
            .header("Content-Type")
            .is_some_and(|t| t.starts_with("application/json")),
        "{response}"
    );
    let body = response.json();
    assert_eq!(body["jsonrpc"], "2.0", "{response}");
    assert_eq!(body["id"], id, "{response}");
    assert!(body.get("error").is_none(), "{response}");
    body["result"].clone()
}

/// A tool result's text.
#[track_caller]
pub fn tool_text(result: &Value) -> String {
    assert_ne!(result["isError"], true, "{result}");
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {result}"))
        .to_string()
}

/// The ids a `mem_save_turn` result says it saved.
#[track_caller]
pub fn saved_ids(result: &Value) -> Vec<String> {
    let status: Value = serde_json::from_str(&tool_text(result)).expect("a save status is JSON");
    assert_eq!(status["status"], "saved", "{status}");
    status["ids"]
        .as_array()
        .unwrap_or_else(|| panic!("ids in {status}"))
        .iter()
        .map(|id| id.as_str().unwrap().to_string())
        .collect()
}

/// How many times each turn content occurs in the home's episode files
/// (every session, open and closed episodes).
pub fn stored_contents(sb: &Sandbox) -> std::collections::BTreeMap<String, usize> {
    fn walk(dir: &std::path::Path, counts: &mut std::collections::BTreeMap<String, usize>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, counts);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                for line in std::fs::read_to_string(&path).unwrap().lines() {
                    let turn: Value = serde_json::from_str(line).unwrap_or_else(|e| {
                        panic!("{}: a torn line ({e}): {line}", path.display())
                    });
                    *counts
                        .entry(turn["content"].as_str().unwrap_or_default().to_string())
                        .or_default() += 1;
                }
            }
        }
    }
    let mut counts = std::collections::BTreeMap::new();
    walk(&sb.home().join("memory").join("episodes"), &mut counts);
    counts
}

/// A well-behaved client: a save and then a search that must find it
/// (searchable on ack), in the 2026-07-28 era; panics otherwise. `tag`
/// makes the turn unique. Each request has a connection of its own, so a
/// test that shortens the idle timeout cannot close one between them.
#[track_caller]
pub fn good_round_trip(server: &HttpServer, tag: &str, token: Option<&str>) {
    let auth = |r: Request| match token {
        Some(t) => r.bearer(t),
        None => r,
    };
    let content = format!("goodclient{tag} checks the lighthouse ledger");
    let saved =
        server
            .connect()
            .exchange(&auth(modern(1, "tools/call", save_turn("good", &content))));
    let ids = saved_ids(&result_of(&saved, 1));
    assert_eq!(ids.len(), 1, "{saved}");
    let found = server.connect().exchange(&auth(modern(
        2,
        "tools/call",
        search(&format!("goodclient{tag}")),
    )));
    let text = tool_text(&result_of(&found, 2));
    assert!(
        text.contains(&ids[0]),
        "the search finds {}: {text}",
        ids[0]
    );
}

/// Minimal standard base64 (for `Mcp-Name: =?base64?…?=`).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
