//! The one writer: a thread that owns the server's `Memory` (home, clock,
//! kept index) and runs every tool call and resource read that rmcp's
//! handler tasks queue to it, with agentbox's group commit — what
//! `agentbox::mcp::Server::serve` does with the lines its stdin reader
//! queues: the jobs already waiting when one arrives are handled together,
//! their appends made durable with one fsync per touched file, their index
//! updates committed, and only then answered.
//!
//! The work itself is agentbox's: `mcp::tools::call` and
//! `mcp::resources::read`, redacted and bounded as `Server::tool_result`
//! and `Server::bounded` do (private there, so restated here).

use agentbox::clock::Clock;
use agentbox::error::Error;
use agentbox::home::Home;
use agentbox::mcp::Limits;
use agentbox::mcp::protocol::{self, Features, RpcError};
use agentbox::mcp::resources;
use agentbox::mcp::tools::{self, Memory, ToolOutput};
use agentbox::output::Frames;
use agentbox::tools::Resource;
use serde_json::{Map, Value, json};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::Receiver;
use tokio::sync::oneshot;

/// As `agentbox::mcp`: the most jobs handled as one group commit.
const MAX_GROUP: usize = 64;

/// What a handler task asks of the writer.
#[derive(Debug)]
pub enum Job {
    Call {
        name: String,
        args: Map<String, Value>,
        features: Features,
        reply: oneshot::Sender<Result<Value, RpcError>>,
    },
    Read {
        uri: String,
        reply: oneshot::Sender<Result<Value, RpcError>>,
    },
    /// Input has ended: settle the index and stop.
    Stop,
}

pub struct Writer<'h> {
    memory: Memory<'h>,
    limits: Limits,
    frames: &'h Frames<'h>,
    resources: Vec<&'static Resource>,
    verbose: u8,
}

impl<'h> Writer<'h> {
    pub fn new(
        home: &'h Home,
        clock: Clock,
        limits: Limits,
        frames: &'h Frames<'h>,
        verbose: u8,
    ) -> Writer<'h> {
        let registry = agentbox::tools::installed();
        Writer {
            memory: Memory::new(home, clock, registry),
            limits,
            frames,
            resources: registry.resources(),
            verbose,
        }
    }

    /// Handles groups of jobs until `Stop` (or every sender is gone), then
    /// settles the index and merges the session's small segments, as
    /// `serve_stdio` does once stdin has closed.
    pub fn run(mut self, queue: Receiver<Job>) {
        let mut stopping = false;
        while !stopping {
            let Ok(first) = queue.recv() else { break };
            let mut group = vec![first];
            while group.len() < MAX_GROUP {
                match queue.try_recv() {
                    Ok(job) => group.push(job),
                    Err(_) => break,
                }
            }
            stopping = self.handle_group(group);
        }
        let home = self.memory.home;
        agentbox::search::settle(home);
        if let Err(error) = agentbox::search::fold_segments(home) {
            self.note(&format!(
                "search index: small segments left unmerged: {}",
                error.message
            ));
        }
    }

    /// One group: handled with its fsyncs deferred, made durable, then
    /// answered. `true` when it held `Stop`.
    fn handle_group(&mut self, group: Vec<Job>) -> bool {
        let home = self.memory.home;
        let sync = home.store.defer_syncs();
        agentbox::search::begin_group(home);
        let mut answers = Vec::with_capacity(group.len());
        let mut first_writer = None;
        let mut stop = false;
        for job in group {
            let before = sync.appends();
            let (reply, outcome) = match job {
                Job::Stop => {
                    stop = true;
                    continue;
                }
                Job::Call {
                    name,
                    args,
                    features,
                    reply,
                } => (reply, self.guarded(|w| w.call(&name, &args, features))),
                Job::Read { uri, reply } => (reply, self.guarded(|w| w.read(&uri))),
            };
            if sync.appends() > before {
                first_writer.get_or_insert(answers.len());
            }
            answers.push((reply, outcome));
        }
        agentbox::search::end_group(home);
        let synced = sync.finish();
        let count = answers.len();
        if let Err(error) = agentbox::search::finish_group(home) {
            self.note(&format!("search index: {}", error.message));
            let warning = self
                .frames
                .redact_text(&agentbox::search::not_indexed(&error));
            for (_, outcome) in answers.iter_mut().skip(first_writer.unwrap_or(count)) {
                if let Ok(result) = outcome {
                    warn_saved(result, &warning);
                }
            }
        }
        match synced {
            Ok(files) if count > 1 && files > 0 => self.note(&format!(
                "group commit: {count} replies held for one fsync of {files} file(s)"
            )),
            Ok(_) => {}
            Err(error) => {
                self.note(&format!("group commit failed: {}", error.message));
                for (_, outcome) in answers.iter_mut().skip(first_writer.unwrap_or(count)) {
                    *outcome = Err(not_durable(&error));
                }
            }
        }
        for (reply, outcome) in answers {
            // A handler whose client went away no longer listens.
            let _ = reply.send(outcome);
        }
        stop
    }

    /// Runs one job; a panic becomes an internal error and drops the kept
    /// index connection, as `Server::handle` does.
    fn guarded(
        &mut self,
        job: impl FnOnce(&mut Self) -> Result<Value, RpcError>,
    ) -> Result<Value, RpcError> {
        catch_unwind(AssertUnwindSafe(|| job(self))).unwrap_or_else(|payload| {
            self.memory.reset();
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(RpcError::internal(format!(
                "internal error: agentbox hit a bug: {what}"
            )))
        })
    }

    fn call(
        &mut self,
        name: &str,
        args: &Map<String, Value>,
        features: Features,
    ) -> Result<Value, RpcError> {
        let output = tools::call(&mut self.memory, name, args)?;
        Ok(self.tool_result(output, features))
    }

    fn read(&mut self, uri: &str) -> Result<Value, RpcError> {
        let text = resources::read(&mut self.memory, &self.resources, uri)?;
        Ok(resources::contents(uri, self.bounded(&text)))
    }

    /// `Server::bounded`: redacted, then cut to `max_result_chars`.
    fn bounded(&self, text: &str) -> String {
        let redacted = self.frames.redact_text(text);
        protocol::bound_text(redacted, self.limits.max_result_chars).0
    }

    /// `Server::tool_result`: text content (redacted and bounded), `isError`
    /// when the tool failed, `structuredContent` where the version has it.
    fn tool_result(&self, output: ToolOutput, features: Features) -> Value {
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

    fn note(&self, message: &str) {
        if self.verbose > 0 {
            let line = format!("memory_mcp: {message}");
            eprintln!("{}", self.frames.redactor().redact(&line));
        }
    }
}

/// `mcp::save::warn_saved` (private there): a save's result gains the
/// warning that its turns are not searchable yet.
fn warn_saved(result: &mut Value, warning: &str) {
    let text = result.pointer("/content/0/text").and_then(Value::as_str);
    let Some(Value::Object(mut status)) = text.and_then(|t| serde_json::from_str(t).ok()) else {
        return;
    };
    if status.get("saved") != Some(&Value::Bool(true)) {
        return;
    }
    if let Value::Array(list) = status.entry("warnings").or_insert_with(|| json!([])) {
        list.push(Value::from(warning));
    }
    let status = Value::Object(status);
    result["content"][0]["text"] = Value::from(status.to_string());
    if result.get("structuredContent").is_some() {
        result["structuredContent"] = status;
    }
}

/// `mcp::not_durable` (private there): the error that replaces a reply
/// whose writes the group commit could not make durable.
fn not_durable(error: &Error) -> RpcError {
    RpcError::internal(format!(
        "internal error: the request's writes could not be made durable: {}",
        error.message
    ))
    .with_data(json!({"errorType": error.kind.as_str(), "hint": "the save may not have landed; check the disk, then retry (a retry of a save that did land reports duplicate)"}))
}
