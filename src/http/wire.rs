//! HTTP/1.1 framing for `memory_mcp --http` and `agentbox view`: a request head (parsed by
//! `httparse`), its body (`Content-Length` or chunked, never more than the
//! limit held), and responses. Every read has a deadline, so a client that
//! trickles bytes (slow-loris) or stops mid-request is cut off; every write
//! has a timeout, so a client that never reads its replies is too.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// The largest request head (request line and headers) read.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;
/// The most headers one request may carry.
const MAX_HEADERS: usize = 100;
/// The longest chunk-size line (with extensions) of a chunked body.
const MAX_CHUNK_LINE: usize = 1024;
/// The most bytes of trailer fields after a chunked body.
const MAX_TRAILERS: usize = 8 * 1024;

/// How long a connection may take.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// Between requests on a kept-alive connection.
    pub idle: Duration,
    /// From a request's first byte to the end of its head.
    pub head: Duration,
    /// For the whole body, once the head is in.
    pub body: Duration,
    /// For each write of a reply.
    pub write: Duration,
}

/// A request head.
#[derive(Debug)]
pub struct Head {
    pub method: String,
    /// The path without its query.
    pub path: String,
    /// What follows the path's `?` (empty when nothing does), as sent.
    pub query: String,
    /// HTTP/1.0 (`false`) closes after one exchange unless asked otherwise.
    pub http11: bool,
    /// Names lowercased, values as sent.
    pub headers: Vec<(String, Vec<u8>)>,
}

impl Head {
    /// The one value of a header: `Err` when it is sent more than once.
    pub fn one(&self, name: &str) -> Result<Option<&[u8]>, ()> {
        let mut found = None;
        for (key, value) in &self.headers {
            if key == name {
                if found.is_some() {
                    return Err(());
                }
                found = Some(value.as_slice());
            }
        }
        Ok(found)
    }

    /// The value of a header as text, if it is sent once and is ASCII.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.one(name)
            .ok()
            .flatten()
            .and_then(|v| std::str::from_utf8(v).ok())
            .map(str::trim)
    }

    /// Whether the client asked for the connection to stay open.
    pub fn keep_alive(&self) -> bool {
        let connection = self.text("connection").unwrap_or("").to_ascii_lowercase();
        let says = |word: &str| connection.split(',').any(|t| t.trim() == word);
        if self.http11 {
            !says("close")
        } else {
            says("keep-alive")
        }
    }
}

/// Why a request could not be read: the status to answer with (then the
/// connection closes), or nothing when the peer just went away.
#[derive(Debug)]
pub enum ReadError {
    Status(u16, String),
    Gone,
}

/// One client connection, with the bytes read past the last request.
#[derive(Debug)]
pub struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    timeouts: Timeouts,
    /// A request head has come in on it.
    served: bool,
}

impl Conn {
    pub fn new(stream: TcpStream, timeouts: Timeouts) -> Conn {
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(timeouts.write));
        Conn {
            stream,
            buf: Vec::new(),
            timeouts,
            served: false,
        }
    }

    /// Reads into the buffer until `deadline`; `Ok(0)` at end of input.
    fn fill(&mut self, deadline: Instant) -> Result<usize, ReadError> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(timeout());
        }
        let _ = self.stream.set_read_timeout(Some(left));
        let mut chunk = [0u8; 16 * 1024];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(timeout());
                }
                Err(_) => return Err(ReadError::Gone),
            }
        }
    }

    /// The next request's head; `Ok(None)` when the client closed the
    /// connection or stayed idle past the idle timeout between requests.
    pub fn read_head(&mut self) -> Result<Option<Head>, ReadError> {
        if self.buf.is_empty() {
            // A new connection gets the head's time for its first byte; the
            // idle time is for kept-alive ones (a silent connection must not
            // hold a slot for long before it has shown it is a client).
            let wait = if self.served {
                self.timeouts.idle
            } else {
                self.timeouts.head
            };
            match self.fill(Instant::now() + wait) {
                Ok(0) | Err(_) => return Ok(None),
                Ok(_) => {}
            }
        }
        let deadline = Instant::now() + self.timeouts.head;
        loop {
            let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
            let mut request = httparse::Request::new(&mut headers);
            match request.parse(&self.buf) {
                Ok(httparse::Status::Complete(used)) if used > MAX_HEAD_BYTES => {
                    return Err(ReadError::Status(
                        431,
                        format!("the request head is over {MAX_HEAD_BYTES} bytes"),
                    ));
                }
                Ok(httparse::Status::Complete(used)) => {
                    let target = request.path.unwrap_or("");
                    let (path, query) = target.split_once('?').unwrap_or((target, ""));
                    let head = Head {
                        method: request.method.unwrap_or("").to_string(),
                        path: path.to_string(),
                        query: query.to_string(),
                        http11: request.version == Some(1),
                        headers: request
                            .headers
                            .iter()
                            .map(|h| (h.name.to_ascii_lowercase(), h.value.to_vec()))
                            .collect(),
                    };
                    self.buf.drain(..used);
                    self.served = true;
                    return Ok(Some(head));
                }
                Ok(httparse::Status::Partial) => {}
                Err(httparse::Error::TooManyHeaders) => {
                    return Err(ReadError::Status(
                        431,
                        format!("the request has over {MAX_HEADERS} headers"),
                    ));
                }
                Err(e) => {
                    return Err(ReadError::Status(
                        400,
                        format!("the request is not valid HTTP/1.1: {e}"),
                    ));
                }
            }
            if self.buf.len() > MAX_HEAD_BYTES {
                return Err(ReadError::Status(
                    431,
                    format!("the request head is over {MAX_HEAD_BYTES} bytes"),
                ));
            }
            if self.fill(deadline)? == 0 {
                return Err(ReadError::Gone);
            }
        }
    }

    /// Reads exactly `length` body bytes (the head said so, and it is within
    /// the limit).
    pub fn read_body(&mut self, length: usize) -> Result<Vec<u8>, ReadError> {
        let deadline = Instant::now() + self.timeouts.body;
        while self.buf.len() < length {
            if self.fill(deadline)? == 0 {
                return Err(ReadError::Gone);
            }
        }
        let rest = self.buf.split_off(length);
        Ok(std::mem::replace(&mut self.buf, rest))
    }

    /// Reads a chunked body, refusing it (413) as soon as it passes `limit`.
    pub fn read_chunked(&mut self, limit: usize) -> Result<Vec<u8>, ReadError> {
        let deadline = Instant::now() + self.timeouts.body;
        let mut body = Vec::new();
        loop {
            let line = self.line(deadline, MAX_CHUNK_LINE, "a chunk-size line")?;
            let size = line.split(|b| *b == b';').next().unwrap_or(&[]);
            let size = std::str::from_utf8(size)
                .ok()
                .map(str::trim)
                .filter(|s| !s.is_empty() && s.len() <= 16)
                .and_then(|s| usize::from_str_radix(s, 16).ok())
                .ok_or_else(|| ReadError::Status(400, "a malformed chunk size".to_string()))?;
            if size == 0 {
                // Trailers (dropped), until the empty line.
                let mut trailers = 0usize;
                loop {
                    let line = self.line(deadline, MAX_TRAILERS, "a trailer field")?;
                    if line.is_empty() {
                        return Ok(body);
                    }
                    trailers += line.len() + 2;
                    if trailers > MAX_TRAILERS {
                        return Err(ReadError::Status(
                            431,
                            format!("the trailer fields are over {MAX_TRAILERS} bytes"),
                        ));
                    }
                }
            }
            if body.len().saturating_add(size) > limit {
                return Err(too_large(body.len().saturating_add(size), limit));
            }
            while self.buf.len() < size + 2 {
                if self.fill(deadline)? == 0 {
                    return Err(ReadError::Gone);
                }
            }
            if &self.buf[size..size + 2] != b"\r\n" {
                return Err(ReadError::Status(
                    400,
                    "a chunk does not end with CRLF".to_string(),
                ));
            }
            body.extend_from_slice(&self.buf[..size]);
            self.buf.drain(..size + 2);
        }
    }

    /// One CRLF-terminated line of a chunked body (`what`, at most `max`
    /// bytes), without its CRLF.
    fn line(&mut self, deadline: Instant, max: usize, what: &str) -> Result<Vec<u8>, ReadError> {
        loop {
            if let Some(i) = self.buf.windows(2).position(|w| w == b"\r\n") {
                let line = self.buf[..i].to_vec();
                self.buf.drain(..i + 2);
                return Ok(line);
            }
            if self.buf.len() > max {
                return Err(ReadError::Status(
                    400,
                    format!("{what} of the chunked body is over {max} bytes"),
                ));
            }
            if self.fill(deadline)? == 0 {
                return Err(ReadError::Gone);
            }
        }
    }

    /// `100 Continue`, for a client that waits for it before its body.
    pub fn continue_100(&mut self) -> bool {
        self.stream
            .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
            .is_ok()
    }

    /// Writes one response; `false` when the client is gone or stopped
    /// reading for longer than the write timeout.
    pub fn respond(&mut self, response: &Response) -> bool {
        let mut out = format!(
            "HTTP/1.1 {} {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
             X-Content-Type-Options: nosniff\r\n",
            response.status,
            reason(response.status),
            response.body.len()
        );
        let typed = response
            .headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("content-type"));
        if !response.body.is_empty() && !typed {
            out.push_str("Content-Type: application/json\r\n");
        }
        for (name, value) in &response.headers {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
        if response.close {
            out.push_str("Connection: close\r\n");
        }
        out.push_str("\r\n");
        let mut bytes = out.into_bytes();
        bytes.extend_from_slice(response.body.as_bytes());
        self.stream
            .write_all(&bytes)
            .and_then(|()| self.stream.flush())
            .is_ok()
    }

    /// Starts an event stream (`subscriptions/listen`): it ends with the
    /// connection. `false` when the client is gone.
    pub fn start_events(&mut self) -> bool {
        self.stream
            .write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
                  X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
            )
            .and_then(|()| self.stream.flush())
            .is_ok()
    }

    /// One event: a JSON-RPC message (one line), or, when empty, a comment
    /// that keeps the stream alive. `false` when the client is gone.
    pub fn event(&mut self, message: &str) -> bool {
        let event = if message.is_empty() {
            ": ping\n\n".to_string()
        } else {
            format!("event: message\ndata: {message}\n\n")
        };
        self.stream
            .write_all(event.as_bytes())
            .and_then(|()| self.stream.flush())
            .is_ok()
    }

    /// Whether the client has closed its end (or reset it): a look at the
    /// socket that never waits and consumes nothing.
    pub fn peer_gone(&mut self) -> bool {
        if self.stream.set_nonblocking(true).is_err() {
            return true;
        }
        let mut byte = [0u8; 1];
        let gone = match self.stream.peek(&mut byte) {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => e.kind() != io::ErrorKind::WouldBlock,
        };
        let _ = self.stream.set_nonblocking(false);
        gone
    }

    /// Closes after a refusal whose request body was not read: stops
    /// writing, then reads and drops what the client still sends for a
    /// moment, so that its unread bytes do not turn the close into a reset
    /// that would destroy the refusal before the client reads it.
    pub fn close_after_refusal(mut self) {
        let _ = self.stream.shutdown(Shutdown::Write);
        let deadline = Instant::now() + Duration::from_millis(500);
        let mut drained = 0usize;
        let mut chunk = [0u8; 16 * 1024];
        while drained < 1 << 20 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            let _ = self.stream.set_read_timeout(Some(left));
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
    }
}

/// A response to write.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: String,
    pub close: bool,
}

fn timeout() -> ReadError {
    ReadError::Status(408, "the request did not arrive in time".to_string())
}

/// The refusal of a body over the limit.
pub fn too_large(observed: usize, limit: usize) -> ReadError {
    ReadError::Status(
        413,
        format!(
            "the request body is {observed} bytes, over the limit of {limit} (mcp.max_line_bytes)"
        ),
    )
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        204 => "No Content",
        303 => "See Other",
        304 => "Not Modified",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        417 => "Expectation Failed",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Status",
    }
}
