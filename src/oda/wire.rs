//! The connection to one runtime process: newline-delimited JSON-RPC 2.0 over
//! its stdin and stdout (seed 004). It owns the child, which is killed and
//! reaped when the connection is dropped, on every path.

use crate::error::{Error, ErrorType, Result};
use serde_json::{Map, Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How much of the runtime's stderr is kept for error details.
const STDERR_TAIL_BYTES: usize = 4096;
/// Longest line read from the runtime; a longer one is dropped unparsed.
const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;
/// How long a runtime gets to exit after answering `shutdown`.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// What to start and how long to wait for it.
pub(crate) struct Launch<'a> {
    pub command: &'a Path,
    pub args: &'a [String],
    pub env: &'a [(String, String)],
    pub cwd: &'a Path,
    pub timeout: Duration,
    pub timeout_label: String,
}

/// How often a wait for the runtime looks for an interrupt.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// The child, killed (if still running) and reaped when dropped. It is
/// registered with `cleanup` meanwhile, so a signal that ends agentbox
/// (SIGINT, SIGTERM, SIGHUP) kills and reaps it too.
struct Reaped {
    child: Child,
    guard: crate::cleanup::ChildGuard,
}

impl Reaped {
    fn new(child: Child) -> Reaped {
        let guard = crate::cleanup::register_child(child.id());
        Reaped { child, guard }
    }

    /// Whether the runtime has exited (then it is reaped, and no longer the
    /// signal handler's to kill).
    fn exited(&mut self) -> Option<std::process::ExitStatus> {
        match self.child.try_wait() {
            Ok(Some(status)) => {
                self.guard.release();
                Some(status)
            }
            _ => None,
        }
    }
}

impl Drop for Reaped {
    fn drop(&mut self) {
        // Killed first: until it is reaped its pid cannot be reused, so the
        // handler, if it claims it meanwhile, signals the right process.
        let _ = self.child.kill();
        if self.guard.release() {
            let _ = self.child.wait();
        }
    }
}

/// One message read from the runtime.
pub(crate) enum Incoming {
    Response {
        id: String,
        outcome: std::result::Result<Value, Error>,
    },
    Notification {
        method: String,
        params: Option<Value>,
    },
}

/// A line from the reader thread, or the end of stdout.
enum Chunk {
    Line(Vec<u8>),
    Closed,
}

pub(crate) struct Connection {
    child: Reaped,
    stdin: Option<ChildStdin>,
    lines: Receiver<Chunk>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Set when the runtime's stderr reached its end (the reader is done).
    stderr_done: Arc<AtomicBool>,
    deadline: Instant,
    timeout_label: String,
    closed: bool,
}

impl Connection {
    /// Starts the runtime in `cwd` with piped stdio.
    pub fn spawn(launch: &Launch) -> Result<Connection> {
        let mut command = Command::new(launch.command);
        command
            .args(launch.args)
            .envs(launch.env.iter().map(|(k, v)| (k, v)))
            .current_dir(launch.cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().map_err(|e| {
            Error::new(
                ErrorType::Upstream,
                format!(
                    "cannot start the Oda runtime {}: {e}",
                    launch.command.display()
                ),
            )
            .with_hint("check model.command (and model.args) in the home's config.json")
            .with_detail("command", launch.command.display().to_string())
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr_pipe = child.stderr.take();
        let child = Reaped::new(child);
        let (tx, lines) = channel();
        if let Some(stdout) = stdout {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut line = Vec::new();
                    match (&mut reader)
                        .take(MAX_LINE_BYTES as u64 + 1)
                        .read_until(b'\n', &mut line)
                    {
                        Ok(0) => {
                            let _ = tx.send(Chunk::Closed);
                            return;
                        }
                        Ok(_) if line.len() > MAX_LINE_BYTES => {
                            // Too long to be a frame: skip to its end.
                            let mut rest = Vec::new();
                            let _ = reader.read_until(b'\n', &mut rest);
                        }
                        Ok(_) => {
                            if tx.send(Chunk::Line(line)).is_err() {
                                return;
                            }
                        }
                        Err(_) => {
                            let _ = tx.send(Chunk::Closed);
                            return;
                        }
                    }
                }
            });
        }
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let stderr_done = Arc::new(AtomicBool::new(stderr_pipe.is_none()));
        if let Some(mut pipe) = stderr_pipe {
            let tail = Arc::clone(&stderr);
            let done = Arc::clone(&stderr_done);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let mut tail = tail.lock().unwrap_or_else(|p| p.into_inner());
                    tail.extend_from_slice(&buf[..n]);
                    let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
                    tail.drain(..excess);
                }
                done.store(true, Ordering::Release);
            });
        }
        Ok(Connection {
            child,
            stdin,
            lines,
            stderr,
            stderr_done,
            deadline: Instant::now() + launch.timeout,
            timeout_label: launch.timeout_label.clone(),
            closed: false,
        })
    }

    /// Sends a request; returns its id (`req_<uuid v4>`).
    pub fn send(&mut self, method: &str, params: Value) -> Result<String> {
        let id = format!("req_{}", crate::ids::uuid_v4());
        let frame = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut line = frame.to_string();
        line.push('\n');
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if written.is_err() {
            return Err(self.closed_error("JSON-RPC transport closed", method));
        }
        Ok(id)
    }

    /// The next message; unparsable lines and frames that are neither a
    /// response nor a notification are skipped. `waiting` names what the
    /// client waits for, in the deadline error.
    pub fn next(&mut self, waiting: &str) -> Result<Incoming> {
        loop {
            if self.closed {
                return Err(self.closed_error("JSON-RPC input closed", waiting));
            }
            if crate::store::interrupt_requested() {
                return Err(Error::new(ErrorType::Cancelled, "interrupted")
                    .with_hint("run the command again; the Oda runtime was stopped")
                    .with_detail("method", waiting));
            }
            let left = self.deadline.saturating_duration_since(Instant::now());
            let read = match self.lines.recv_timeout(left.min(INTERRUPT_POLL)) {
                Ok(read) => read,
                Err(RecvTimeoutError::Timeout) if Instant::now() < self.deadline => continue,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Error::new(
                        ErrorType::Upstream,
                        format!(
                            "the Oda runtime did not {waiting} within {}",
                            self.timeout_label
                        ),
                    )
                    .with_hint("raise model.timeout_seconds in config.json, or check the runtime")
                    .with_detail("limit_name", "model.timeout_seconds")
                    .with_detail("stderr", self.stderr_tail()));
                }
                Err(RecvTimeoutError::Disconnected) => Chunk::Closed,
            };
            let line = match read {
                Chunk::Line(line) => line,
                Chunk::Closed => {
                    self.closed = true;
                    continue;
                }
            };
            if let Some(incoming) = parse(&line) {
                return Ok(incoming);
            }
        }
    }

    /// Waits for the response to `id`, handing notifications to `notice`.
    pub fn response(
        &mut self,
        id: &str,
        method: &str,
        notice: &mut dyn FnMut(&str, Option<&Value>),
    ) -> Result<Value> {
        loop {
            match self.next(&format!("answer {method}"))? {
                Incoming::Response { id: got, outcome } if got == id => {
                    return outcome.map_err(|e| {
                        let message = format!("Oda runtime: {method} failed: {}", e.message);
                        Error { message, ..e }.with_detail("method", method)
                    });
                }
                Incoming::Response { .. } => {}
                Incoming::Notification { method, params } => notice(&method, params.as_ref()),
            }
        }
    }

    /// `shutdown`, then a short wait for the process to exit: one grace
    /// period for both. A runtime that does not answer or exit in time is
    /// killed when the connection drops.
    pub fn shutdown(mut self) -> Result<()> {
        let until = Instant::now() + EXIT_GRACE;
        self.deadline = until;
        self.timeout_label = format!("{} s", EXIT_GRACE.as_secs());
        let id = self.send("shutdown", json!({}))?;
        let answered = self.response(&id, "shutdown", &mut |_, _| {});
        self.stdin = None;
        while Instant::now() < until {
            if self.child.exited().is_some() || crate::store::interrupt_requested() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        answered.map(|_| ())
    }

    /// An `upstream` error for a closed connection, with the exit status
    /// (when the runtime has exited) and the tail of its stderr.
    fn closed_error(&mut self, text: &str, waiting: &str) -> Error {
        // A runtime that closed its output is usually exiting: give it a
        // moment so the status can be reported.
        let until = Instant::now() + Duration::from_millis(200);
        let mut status = None;
        while Instant::now() < until {
            if let Some(s) = self.child.exited() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Its last words may still be in the pipe: the reader thread gets
        // them until the pipe's end (a moment after the exit, unless another
        // process holds the pipe open; then the wait is bounded too).
        while status.is_some()
            && !self.stderr_done.load(Ordering::Acquire)
            && Instant::now() < until + Duration::from_millis(200)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        let stderr = self.stderr_tail();
        let mut message = format!("Oda runtime: {text} (while waiting to {waiting})");
        if let Some(status) = status {
            message.push_str(&format!("; the runtime exited with {status}"));
        }
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        if let Some(last) = last {
            message.push_str(&format!(": {}", last.trim()));
        }
        let mut error = Error::new(ErrorType::Upstream, message)
            .with_hint("run the runtime's command by hand to see why it stopped; check model.command and model.args")
            .with_detail("stderr", stderr.clone());
        if let Some(code) = status.and_then(|s| s.code()) {
            error = error.with_detail("exit_code", code);
        }
        error
    }

    fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&tail).into_owned()
    }
}

/// One line as a message, or `None` when it is not one (ignored).
fn parse(line: &[u8]) -> Option<Incoming> {
    let text = std::str::from_utf8(line).ok()?;
    let value: Value = serde_json::from_str(text.trim()).ok()?;
    let frame = value.as_object()?;
    let method = frame.get("method").and_then(Value::as_str);
    let id = frame.get("id").filter(|id| !id.is_null());
    match (method, id) {
        (Some(method), None) => Some(Incoming::Notification {
            method: method.to_string(),
            params: frame.get("params").cloned(),
        }),
        (None, Some(id)) => {
            let id = match id {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let outcome = match frame.get("error") {
                Some(error) => Err(rpc_error(error)),
                None => Ok(frame.get("result").cloned().unwrap_or(Value::Null)),
            };
            Some(Incoming::Response { id, outcome })
        }
        // A request from the runtime, or no message at all: not for us.
        _ => None,
    }
}

/// A JSON-RPC error object as an `upstream` error with the runtime's code
/// and message ("JSON-RPC error" when it carries none, as the seed says).
fn rpc_error(error: &Value) -> Error {
    let empty = Map::new();
    let e = error.as_object().unwrap_or(&empty);
    let code = e.get("code").and_then(Value::as_i64).unwrap_or(0);
    let message = e
        .get("message")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty())
        .unwrap_or("JSON-RPC error");
    let hint = match code {
        -32601 => {
            "the runtime does not know this method: use a client built for the runtime's version"
        }
        _ if message.contains("no adapter registered") => {
            "check model.provider and model.model in config.json: the runtime has no adapter for this provider"
        }
        _ => "see the runtime's message; check model.* in config.json",
    };
    let mut err = Error::new(ErrorType::Upstream, message.to_string())
        .with_hint(hint)
        .with_detail("rpc_code", code);
    if let Some(data) = e.get("data") {
        err = err.with_detail("rpc_data", data.clone());
    }
    err.code = code;
    err
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_are_not_messages_are_skipped() {
        for line in [
            &b"not json\n"[..],
            b"[1,2]\n",
            b"{\"id\":\"x\",\"method\":\"ask\"}\n",
            b"{}\n",
            b"\xff\xfe\n",
        ] {
            assert!(parse(line).is_none(), "{line:?}");
        }
        let Some(Incoming::Response { outcome, id }) =
            parse(br#"{"jsonrpc":"2.0","id":"req_1","error":{"code":-32601,"message":"method not found: x"}}"#)
        else {
            panic!("not a response");
        };
        let err = outcome.unwrap_err();
        assert_eq!((id.as_str(), err.code), ("req_1", -32601));
        assert_eq!(err.message, "method not found: x");
        let Some(Incoming::Response { outcome, .. }) = parse(br#"{"id":7,"error":{}}"#) else {
            panic!("not a response");
        };
        assert_eq!(outcome.unwrap_err().message, "JSON-RPC error");
    }
}
