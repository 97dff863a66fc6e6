//! The tools. Each module exposes one `TOOL` for the registry: its clap
//! command and the function that runs it.

pub mod knowledge;
pub mod plan;
pub mod track;

use crate::clock::Clock;
use crate::error::Result;
use crate::home::{Home, HomeLookup};
use crate::output::{Outcome, Style};
use crate::redact::Redactor;
use std::cell::OnceCell;

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
