//! The model route: a client of an Oda runtime over the SDK wire protocol
//! (seed 004, SPEC §7, docs/ODA.md). It knows nothing of the tools: callers
//! get a `Route` from the home's `config.json` and ask it one turn at a time.
//!
//! One turn: spawn the runtime in the project folder, `initialize` (the route
//! is resolved there), `session/prompt` (keep the receipt), read
//! notifications until the agent is idle, take the last assistant message
//! committed to the run's own session (sub-agent sessions, followed through
//! `subagent.started`, never count), `shutdown`. The child is killed and
//! reaped on every path.

mod events;
mod image;
mod wire;

pub use events::{Message, Notice};
pub use image::{Image, MAX_IMAGE_BYTES};

use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;
use wire::{Connection, Incoming, Launch};

/// Default for `model.timeout_seconds`.
pub const DEFAULT_TIMEOUT_SECONDS: f64 = 120.0;
/// Largest safe integer (2^53 - 1): the bound of `maxTokens`.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// The `model` block of `config.json`, as a hint shows it.
pub const CONFIG_EXAMPLE: &str = r#""model": {"command": "/path/to/oda", "args": ["serve", "--stdio"], "env": {}, "provider": "anthropic", "model": "claude-sonnet", "reasoningEffort": "low", "maxTokens": 4096, "timeout_seconds": 120}"#;

/// A configured runtime and model route.
#[derive(Debug, Clone)]
pub struct Route {
    command: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
    provider: String,
    model: String,
    reasoning_effort: Option<String>,
    max_tokens: Option<u64>,
    timeout_seconds: f64,
    cwd: PathBuf,
}

/// The result of one turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The last assistant message committed to the run's own session.
    pub text: String,
    /// The session the prompt went to.
    pub session_id: String,
    /// The enqueue receipt of the prompt (it does not name the answer).
    pub message_id: String,
}

impl Route {
    /// The route of `home`'s `config.json`; `None` without a `model` block.
    /// A block with bad values is `invalid_args` naming the key.
    pub fn from_home(home: &Home) -> Result<Option<Route>> {
        let Some(block) = home.config.model.as_ref().filter(|v| !v.is_null()) else {
            return Ok(None);
        };
        let cwd = home
            .root
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| home.root.clone());
        Route::from_value(block, cwd).map(Some)
    }

    /// A route from a `model` block; `cwd` is the project folder.
    pub fn from_value(block: &Value, cwd: PathBuf) -> Result<Route> {
        let Some(m) = block.as_object() else {
            return Err(config_error("model", "must be an object"));
        };
        let string = |key: &str, required: bool| -> Result<Option<String>> {
            match m.get(key) {
                None | Some(Value::Null) if !required => Ok(None),
                Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
                _ => Err(config_error(key, "must be a non-empty string")),
            }
        };
        let command = string("command", true)?.unwrap_or_default();
        let command = PathBuf::from(command);
        // A relative path with a folder in it is the project folder's.
        let command = if command.is_relative() && command.components().count() > 1 {
            cwd.join(command)
        } else {
            command
        };
        let args = match m.get("args") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| config_error("args", "must be an array of strings"))?,
            Some(_) => return Err(config_error("args", "must be an array of strings")),
        };
        let env = match m.get("env") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Object(vars)) => vars
                .iter()
                .map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| config_error("env", "must map names to strings"))?,
            Some(_) => return Err(config_error("env", "must map names to strings")),
        };
        let provider = string("provider", true)?.unwrap_or_default();
        let model = string("model", true)?.unwrap_or_default();
        let reasoning_effort = match m.get("reasoningEffort") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(_) => {
                return Err(seed_error(
                    "reasoningEffort",
                    "initialize reasoningEffort must be a non-empty string",
                ));
            }
        };
        let max_tokens = match m.get("maxTokens") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .filter(|n| (1..=MAX_SAFE_INTEGER).contains(n))
                    .ok_or_else(|| {
                        seed_error(
                            "maxTokens",
                            "initialize maxTokens must be a positive safe integer",
                        )
                    })?,
            ),
        };
        let timeout_seconds = match m.get("timeout_seconds") {
            None | Some(Value::Null) => DEFAULT_TIMEOUT_SECONDS,
            Some(v) => v
                .as_f64()
                .filter(|t| t.is_finite() && *t > 0.0 && *t <= 86_400.0)
                .ok_or_else(|| {
                    config_error(
                        "timeout_seconds",
                        "must be a number of seconds in (0, 86400]",
                    )
                })?,
        };
        Ok(Route {
            command,
            args,
            env,
            provider,
            model,
            reasoning_effort,
            max_tokens,
            timeout_seconds,
            cwd,
        })
    }

    pub fn provider(&self) -> &str {
        &self.provider
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    /// The handshake alone: `initialize`, then `shutdown`. Returns the
    /// initialize result (the runtime's identity and route).
    pub fn check(&self) -> Result<Value> {
        let mut conn = Connection::spawn(&self.launch())?;
        let result = self.initialize(&mut conn)?;
        conn.shutdown()?;
        Ok(result)
    }

    /// One turn: `prompt` (and `images`) to `session` (a fresh one when
    /// `None`), `progress` told what the runtime reports on the way.
    pub fn ask(
        &self,
        prompt: &str,
        images: &[Image],
        session: Option<&str>,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Answer> {
        let session = match session {
            Some(s) if s.trim().is_empty() => {
                return Err(Error::invalid_args("the session id is empty")
                    .with_hint("pass --session ID, or leave it out for a new session"));
            }
            Some(s) => s.to_string(),
            None => format!("ses_{}", crate::ids::uuid_v4()),
        };
        let mut content = vec![json!({"type": "text", "text": prompt})];
        content.extend(images.iter().map(Image::block));
        let mut conn = Connection::spawn(&self.launch())?;
        self.initialize(&mut conn)?;
        progress(&format!("initialized; prompting session {session}"));
        let mut turn = Turn::new(&session, progress);
        let id = conn.send(
            "session/prompt",
            json!({"sessionId": session, "content": content}),
        )?;
        let receipt = conn.response(&id, "session/prompt", &mut |method, params| {
            turn.observe(method, params)
        })?;
        let message_id = receipt
            .get("messageId")
            .map(|v| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .unwrap_or_default();
        turn.receipt = true;
        if turn.idle_seen_after_running {
            turn.settled = true;
        }
        while !turn.settled {
            if let Incoming::Notification { method, params } = conn.next("go idle")? {
                turn.observe(&method, params.as_ref());
            }
        }
        let text = turn.last.take();
        (turn.progress)("idle; shutting down");
        // The answer is in; a runtime that fumbles its shutdown is killed.
        let _ = conn.shutdown();
        let text = text.ok_or_else(|| {
            Error::new(
                ErrorType::Upstream,
                format!(
                    "the Oda runtime went idle without an assistant message in session {session}"
                ),
            )
            .with_hint("ask again; check the runtime's own logs for the failed turn")
            .with_detail("sessionId", session.clone())
        })?;
        Ok(Answer {
            text,
            session_id: session,
            message_id,
        })
    }

    fn launch(&self) -> Launch<'_> {
        Launch {
            command: &self.command,
            args: &self.args,
            env: &self.env,
            cwd: &self.cwd,
            timeout: Duration::from_secs_f64(self.timeout_seconds),
            timeout_label: format!("{} s (model.timeout_seconds)", self.timeout_seconds),
        }
    }

    /// `initialize` with the working folder and the route.
    fn initialize(&self, conn: &mut Connection) -> Result<Value> {
        let mut params = Map::new();
        params.insert("cwd".into(), json!(self.cwd.display().to_string()));
        params.insert("provider".into(), json!(self.provider));
        params.insert("model".into(), json!(self.model));
        if let Some(effort) = &self.reasoning_effort {
            params.insert("reasoningEffort".into(), json!(effort));
        }
        if let Some(max) = self.max_tokens {
            params.insert("maxTokens".into(), json!(max));
        }
        let id = conn.send("initialize", Value::Object(params))?;
        conn.response(&id, "initialize", &mut |_, _| {})
    }
}

/// What the client knows of the running turn.
struct Turn<'p> {
    own: String,
    children: BTreeSet<String>,
    last: Option<String>,
    running: bool,
    idle_seen_after_running: bool,
    receipt: bool,
    settled: bool,
    progress: &'p mut dyn FnMut(&str),
}

impl<'p> Turn<'p> {
    fn new(own: &str, progress: &'p mut dyn FnMut(&str)) -> Turn<'p> {
        Turn {
            own: own.to_string(),
            children: BTreeSet::new(),
            last: None,
            running: false,
            idle_seen_after_running: false,
            receipt: false,
            settled: false,
            progress,
        }
    }

    /// One notification. Idle ends the turn once the receipt is in; an idle
    /// that comes before the receipt counts only after a `running`.
    fn observe(&mut self, method: &str, params: Option<&Value>) {
        let Some(notice) = events::notice(method, params) else {
            return;
        };
        match notice {
            Notice::Status { idle, status } => {
                (self.progress)(&format!("status {status}"));
                if !idle {
                    self.running = true;
                } else if self.receipt {
                    self.settled = true;
                } else if self.running {
                    self.idle_seen_after_running = true;
                }
            }
            Notice::SubagentStarted { child, parent } => {
                if child != self.own {
                    let parent = parent.unwrap_or_else(|| "?".into());
                    (self.progress)(&format!("sub-agent {child} started (parent {parent})"));
                    self.children.insert(child);
                }
            }
            Notice::SubagentFinished {
                session,
                status,
                last,
            } => {
                let who = session.unwrap_or_else(|| "?".into());
                let said = last
                    .map(|t| format!(": {}", excerpt(&t)))
                    .unwrap_or_default();
                (self.progress)(&format!("sub-agent {who} finished {status}{said}"));
            }
            Notice::Event {
                session,
                kind,
                message,
            } => {
                let own = session.as_deref() == Some(self.own.as_str());
                let prefix = match &session {
                    _ if own => String::new(),
                    Some(s) if self.children.contains(s) => format!("sub-agent {s} "),
                    Some(s) => format!("session {s} "),
                    None => "unattributed ".to_string(),
                };
                match message {
                    Some(Message { role, text }) => {
                        (self.progress)(&format!("{prefix}{role}: {}", excerpt(&text)));
                        if own && role == "assistant" && !text.trim().is_empty() {
                            self.last = Some(text);
                        }
                    }
                    None => (self.progress)(&format!("{prefix}event {kind}")),
                }
            }
        }
    }
}

/// The first line of `text`, at most 100 characters.
fn excerpt(text: &str) -> String {
    let line = text.trim().lines().next().unwrap_or("");
    let mut out: String = line.chars().take(100).collect();
    if out.len() < text.trim().len() {
        out.push('…');
    }
    out
}

fn config_error(key: &str, problem: &str) -> Error {
    Error::invalid_args(format!("config.json model.{key} {problem}"))
        .with_hint(format!(
            "fix the model block of config.json, e.g. {CONFIG_EXAMPLE}"
        ))
        .with_detail("key", format!("model.{key}"))
}

/// A value the seed refuses, refused before anything is sent, in its words.
fn seed_error(key: &str, message: &str) -> Error {
    Error::invalid_args(message)
        .with_hint(format!(
            "fix model.{key} in config.json ({})",
            if key == "maxTokens" {
                "an integer from 1 to 9007199254740991, or leave it out"
            } else {
                "a non-empty string such as \"low\", or leave it out for the model's default"
            }
        ))
        .with_detail("key", format!("model.{key}"))
}
