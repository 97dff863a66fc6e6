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
use std::path::PathBuf;

/// Runs verbs on one home.
#[derive(Debug)]
pub struct Caller {
    root: PathBuf,
    clock: Clock,
    registry: &'static Registry,
    redactor: Redactor,
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
            .map_err(|e| Error::invalid_args(e.render().to_string()))?;
        let lookup = HomeLookup {
            flag: Some(self.root.clone()),
            env: None,
            invoked: None,
            cwd: self.root.clone(),
        };
        let mut ctx = Ctx::new(self.clock, Style { color: false }, lookup, self.registry);
        ctx.quiet = true;
        let outcome = (found.run)(&ctx, &matches);
        let mut data = outcome?.data;
        self.redactor.redact_value(&mut data);
        Ok(data)
    }
}
