//! `sync hosts`: detect host agents and install `memory_mcp` and the
//! screened skills into their configs (docs/tools/sync.md, Hosts).

use crate::error::{Error, Result};
use crate::output::Outcome;
use crate::tools::Ctx;
use clap::Args;

/// Detect host agents; install or remove memory_mcp and the screened skills.
#[derive(Debug, Args)]
pub struct HostsArgs {}

pub(super) fn run(_ctx: &Ctx, _args: &HostsArgs) -> Result<Outcome> {
    Err(Error::internal("sync hosts: being built in this branch"))
}
