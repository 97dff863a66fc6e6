//! A page's way to the data: the CLI verbs themselves. `Caller::call("track",
//! &["list", "--limit", "20"], &[], &[])` parses the arguments with the tool's own
//! clap command and runs the tool as `agentbox track list --limit 20`
//! would, in a fresh context on the view's home, and returns the envelope's
//! `data`, redacted as the envelope would be. A page is therefore a view of
//! exactly what the CLI returns, and a write goes through the same
//! revision guards.

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::HomeLookup;
use crate::output::Style;
use crate::redact::Redactor;
use crate::tools::{Ctx, Registry};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs verbs on one home.
#[derive(Debug)]
pub struct Caller {
    root: PathBuf,
    clock: Clock,
    registry: &'static Registry,
    redactor: Redactor,
    /// The last answers of slow verbs (see [`Caller::cached`]).
    slow: Mutex<HashMap<String, Slow>>,
}

/// A slow verb's last answer, and whether a run of it is under way.
#[derive(Debug, Default)]
struct Slow {
    last: Option<(Instant, crate::clock::Time, Result<Value>)>,
    running: bool,
}

/// A slow verb's answer as a page shows it: what it said, and when.
#[derive(Debug, Clone)]
pub struct Kept {
    pub at: crate::clock::Time,
    pub answer: Result<Value>,
}

impl Caller {
    pub fn new(
        root: PathBuf,
        clock: Clock,
        registry: &'static Registry,
        redactor: Redactor,
    ) -> Caller {
        Caller {
            root,
            clock,
            registry,
            redactor,
            slow: Mutex::new(HashMap::new()),
        }
    }

    /// `tool words…` (words of ours only) for a verb that reads the whole
    /// home (`doctor`: seconds at a million turns): its last answer when
    /// that is at most `fresh` old; otherwise the last answer there is
    /// (`None` before the first run ends) while a thread runs it again. A
    /// page shows what the verb found and when, instead of waiting for it.
    pub fn cached(
        self: &Arc<Self>,
        tool: &'static str,
        words: &'static [&'static str],
        fresh: Duration,
    ) -> Option<Kept> {
        let key = format!("{tool} {}", words.join(" "));
        let mut slow = self.slow.lock().unwrap_or_else(|p| p.into_inner());
        let entry = slow.entry(key.clone()).or_default();
        let kept = entry.last.as_ref().map(|(_, at, answer)| Kept {
            at: *at,
            answer: answer.clone(),
        });
        let stale = entry
            .last
            .as_ref()
            .is_none_or(|(when, _, _)| when.elapsed() > fresh);
        if stale && !entry.running {
            entry.running = true;
            let caller = Arc::clone(self);
            let spawned = std::thread::Builder::new()
                .name("view-slow".to_string())
                .spawn(move || {
                    let at = caller.clock.now();
                    let answer = caller.call(tool, words, &[], &[]);
                    let mut slow = caller.slow.lock().unwrap_or_else(|p| p.into_inner());
                    let entry = slow.entry(key).or_default();
                    entry.last = Some((Instant::now(), at, answer));
                    entry.running = false;
                });
            if spawned.is_err() {
                entry.running = false;
            }
        }
        kept
    }

    /// Waits (at most `patience`) for the first answer of a slow verb, so
    /// that a page opened right after start-up usually has it.
    pub fn prime(
        self: &Arc<Self>,
        tool: &'static str,
        words: &'static [&'static str],
        patience: Duration,
    ) {
        let start = Instant::now();
        while self.cached(tool, words, Duration::MAX).is_none() && start.elapsed() < patience {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The redactor of the home: what every page passes its text through.
    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    /// Runs `agentbox TOOL WORDS… --NAME=VALUE… -- OPERANDS…` and returns
    /// its `data`, redacted. `words` are ours (the verb, fixed flags,
    /// numbers the page formatted); anything a request brought goes in
    /// `values` (each joined to its flag with `=`, so `--x` stays a value)
    /// or `operands` (after `--`, so no operand is read as a flag).
    pub fn call(
        &self,
        tool: &str,
        words: &[&str],
        values: &[(&str, &str)],
        operands: &[&str],
    ) -> Result<Value> {
        let mut args: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        args.extend(values.iter().map(|(flag, value)| format!("{flag}={value}")));
        if !operands.is_empty() {
            args.push("--".to_string());
            args.extend(operands.iter().map(|o| o.to_string()));
        }
        let found = self
            .registry
            .find_tool(tool)
            .or_else(|| self.registry.find_command(tool))
            .ok_or_else(|| Error::internal(format!("the view called an unknown tool {tool:?}")))?;
        let argv = std::iter::once(found.name.to_string()).chain(args);
        let matches = self
            .registry
            .tool_command(found)
            .try_get_matches_from(argv)
            .map_err(|e| {
                let said = e.render().to_string();
                Error::invalid_args(self.redactor.redact(&said).into_owned())
            })?;
        let lookup = HomeLookup {
            flag: Some(self.root.clone()),
            env: None,
            invoked: None,
            cwd: self.root.clone(),
        };
        let mut ctx = Ctx::new(self.clock, Style { color: false }, lookup, self.registry);
        ctx.quiet = true;
        match (found.run)(&ctx, &matches) {
            Ok(outcome) => {
                let mut data = outcome.data;
                self.redactor.redact_value(&mut data);
                Ok(data)
            }
            // What an error says echoes what the call named: masked as text.
            Err(mut err) => {
                err.message = self.redactor.redact(&err.message).into_owned();
                err.hint = self.redactor.redact(&err.hint).into_owned();
                Err(err)
            }
        }
    }
}
