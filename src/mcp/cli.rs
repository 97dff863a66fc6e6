//! `memory_mcp`'s command line: the clap definition (its doc comments are
//! the help) and `run`, which turns the parsed call into the operation,
//! [`super::serve_stdio`] — the template every tool follows
//! (docs/ARCHITECTURE.md, "One template per tool").

use super::serve_stdio;
use crate::error::Result;
use crate::output::Outcome;
use crate::tools::Ctx;

/// Serve the agent's memory to MCP hosts (JSON-RPC over stdio)
///
/// The protocol is JSON-RPC 2.0, one message per line on stdin and stdout.
///
/// Tools: mem_context, mem_search, mem_save_turn, mem_save_fact. Resources:
/// mem://profile, mem://search?q={query}&topK={topK}, and those the tools
/// contribute. stdout carries protocol frames only; -v logs each request to
/// stderr. The server runs until stdin closes. Limits come from the home's
/// config.json (mcp.max_line_bytes, mcp.max_result_chars). A host starts it;
/// see docs/MCP.md for ready-to-paste host configuration.
#[derive(Debug, clap::Parser)]
#[command(
    name = "memory_mcp",
    after_help = "Examples:\n  /abs/path/project/.agent/tools/memory_mcp\n  \
                  agentbox memory_mcp --home /abs/path/project/.agent -v\n  \
                  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}' | .agent/tools/memory_mcp"
)]
pub(super) struct McpArgs {}

/// Serves stdin/stdout until stdin closes. stdout belongs to the protocol, so
/// a boot failure (no home, bad config) is reported on stderr with exit 1
/// (see `output::claim_stdout`), never as an envelope.
pub(super) fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    // cli claimed stdout before parsing (`Tool::serves_stdio`).
    let home = ctx.home()?;
    let verbose = matches
        .try_get_one::<u8>("verbose")
        .ok()
        .flatten()
        .copied()
        .unwrap_or(0);
    serve_stdio(home, ctx.clock, ctx.registry, verbose)?;
    Ok(Outcome::raw(""))
}
