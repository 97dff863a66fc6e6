//! The home's git repository: `<home>/sync.git` with the home as work tree.

use super::cli::{InitArgs, RemoteArgs};
use crate::error::{Error, Result};
use crate::home::Home;
use crate::output::Outcome;
use crate::tools::{Check, Ctx};

fn unbuilt() -> Error {
    Error::internal("sync: being built in this branch")
}

pub(super) fn init_verb(_ctx: &Ctx, _home: &Home, _args: &InitArgs) -> Result<Outcome> {
    Err(unbuilt())
}
pub(super) fn remote_verb(_ctx: &Ctx, _home: &Home, _args: &RemoteArgs) -> Result<Outcome> {
    Err(unbuilt())
}
pub(super) fn status_verb(_ctx: &Ctx, _home: &Home) -> Result<Outcome> {
    Err(unbuilt())
}
pub(super) fn pull_verb(_ctx: &Ctx, _home: &Home) -> Result<Outcome> {
    Err(unbuilt())
}
pub(super) fn push_verb(_ctx: &Ctx, _home: &Home) -> Result<Outcome> {
    Err(unbuilt())
}
pub(super) fn now_verb(_ctx: &Ctx, _home: &Home) -> Result<Outcome> {
    Err(unbuilt())
}

/// Doctor: an interrupted pull, an unresolved conflict, a stale git lock.
pub(super) fn check(_home: &Home) -> Check {
    Check::pass("sync", "not set up")
}
