//! The tools. Each module exposes one `TOOL` for the registry: its clap
//! command and the function that runs it.

pub mod knowledge;
pub mod plan;
pub mod track;

use crate::clock::Clock;
use crate::error::{Error, Result};
use crate::home::{Home, HomeLookup};
use crate::output::{Outcome, Style};
use crate::redact::Redactor;
use crate::store::check_size;
use std::cell::OnceCell;
use std::io::Read;
use std::path::Path;

/// One command of the registry: a tool, or a housekeeping command.
pub struct Tool {
    pub name: &'static str,
    /// One line for `agentbox --help`.
    pub about: &'static str,
    pub command: fn() -> clap::Command,
    pub run: fn(&Ctx, &clap::ArgMatches) -> Result<Outcome>,
    /// stdout carries a protocol (memory_mcp), not envelopes: every failure,
    /// from argument parsing on, goes to stderr with exit 1.
    pub serves_stdio: bool,
}

/// What a running command may use: the clock, text styling and the home
/// (resolved on first use, so commands that need none never look).
pub struct Ctx {
    pub clock: Clock,
    pub style: Style,
    pub lookup: HomeLookup,
    home: OnceCell<Home>,
    builtin: Redactor,
}

impl Ctx {
    pub fn new(clock: Clock, style: Style, lookup: HomeLookup) -> Ctx {
        Ctx {
            clock,
            style,
            lookup,
            home: OnceCell::new(),
            builtin: Redactor::builtin(),
        }
    }

    /// The home of this call, resolved and opened once.
    pub fn home(&self) -> Result<&Home> {
        if let Some(home) = self.home.get() {
            return Ok(home);
        }
        let home = Home::open(self.lookup.resolve()?)?;
        Ok(self.home.get_or_init(|| home))
    }

    /// The home, if this call has opened one.
    pub fn opened_home(&self) -> Option<&Home> {
        self.home.get()
    }

    /// Uses an already opened home (after `init` created it).
    pub fn set_home(&self, home: Home) -> &Home {
        self.home.get_or_init(|| home)
    }

    /// The redactor for output: the home's (with its extra patterns) once opened.
    pub fn redactor(&self) -> &Redactor {
        self.opened_home()
            .map(|h| h.store.redactor())
            .unwrap_or(&self.builtin)
    }
}

/// Reads an input file, or stdin for "-", as UTF-8, refusing more than
/// `limit` bytes (stdin is read at most `limit + 1` bytes, never whole).
/// `what` names the input in errors ("plan file", "messages file").
/// Returns the text and the name to use in messages (`<stdin>` or the path).
pub fn read_input(file: &str, what: &str, limit: u64) -> Result<(String, String)> {
    let (bytes, name) = if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io("read", Path::new("<stdin>"), &e))?;
        (bytes, "<stdin>".to_string())
    } else {
        let path = Path::new(file);
        let meta = std::fs::metadata(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::not_found(format!("no such {what}: {file}"))
                    .with_hint("check the path, or pass - to read stdin")
                    .with_detail("path", file)
            } else {
                Error::io("read", path, &e)
            }
        })?;
        if meta.is_dir() {
            return Err(
                Error::invalid_args(format!("{file} is a directory, not a {what}"))
                    .with_hint(format!("pass the path of a {what}, or - to read stdin"))
                    .with_detail("path", file),
            );
        }
        check_size(file, meta.len(), limit)?;
        let bytes = std::fs::read(path).map_err(|e| Error::io("read", path, &e))?;
        (bytes, file.to_string())
    };
    check_size(&name, bytes.len() as u64, limit)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        crate::store::not_utf8(&name, &e).with_hint(format!("save the {what} as UTF-8"))
    })?;
    Ok((text, name))
}
