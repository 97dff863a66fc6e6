//! `memory_mcp`'s command line: the clap definition (its doc comments are
//! the help) and `run`, which turns the parsed call into the operation,
//! [`super::serve_stdio`], [`super::http::serve_http`] or
//! [`super::http::token::make`] — the template every tool follows
//! (docs/ARCHITECTURE.md, "One template per tool").

use super::http::{self, token};
use super::serve_stdio;
use crate::error::Result;
use crate::output::Outcome;
use crate::tools::Ctx;
use serde_json::json;

/// Serve the agent's memory to MCP hosts (JSON-RPC over stdio, or HTTP)
///
/// The protocol is JSON-RPC 2.0, one message per line on stdin and stdout,
/// in both eras of MCP: 2026-07-28 (server/discover) and the initialize
/// handshake (2025-11-25 and older).
///
/// Tools: mem_context, mem_search, mem_save_turn, mem_save_fact. Resources:
/// mem://profile, mem://search?q={query}&topK={topK}, and those the tools
/// contribute. stdout carries protocol frames only; -v logs each request to
/// stderr. The server runs until stdin closes. Limits come from the home's
/// config.json (mcp.max_line_bytes, mcp.max_result_chars). A host starts it;
/// see docs/MCP.md for ready-to-paste host configuration.
///
/// With --http the same memory is served over MCP's Streamable HTTP to many
/// clients at once (POST http://ADDR/mcp), until the process is stopped.
/// It listens on 127.0.0.1:7411 unless told otherwise; any other address
/// needs a bearer token (`memory_mcp token`, or AGENTBOX_MCP_TOKEN).
#[derive(Debug, clap::Parser)]
#[command(
    name = "memory_mcp",
    after_help = "Examples:\n  /abs/path/project/.agent/tools/memory_mcp\n  \
                  agentbox memory_mcp --home /abs/path/project/.agent -v\n  \
                  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}' | .agent/tools/memory_mcp\n  \
                  .agent/tools/memory_mcp --http                 # http://127.0.0.1:7411/mcp\n  \
                  .agent/tools/memory_mcp token && .agent/tools/memory_mcp --http 0.0.0.0:7411"
)]
pub(super) struct McpArgs {
    /// Serve Streamable HTTP at ADDR (HOST:PORT) instead of stdio
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = http::DEFAULT_ADDR)]
    http: Option<String>,
    #[command(subcommand)]
    command: Option<McpCommand>,
}

#[derive(Debug, clap::Subcommand)]
enum McpCommand {
    /// Make the bearer token --http requires (kept in the home, never printed)
    ///
    /// The token is written to local/mcp-token in the home, readable by you
    /// only and never synced. Nothing prints it: the server reads the file
    /// (or AGENTBOX_MCP_TOKEN, which wins), and a client gets it from the
    /// environment. An existing token is kept unless --new replaces it.
    #[command(after_help = "Examples:\n  \
                  memory_mcp token\n  \
                  memory_mcp token --new\n  \
                  read -r AGENTBOX_MCP_TOKEN < .agent/local/mcp-token; export AGENTBOX_MCP_TOKEN")]
    Token {
        /// Replace the existing token (clients holding the old one are refused)
        #[arg(long)]
        new: bool,
    },
}

/// Serves stdin/stdout until stdin closes, or HTTP until stopped. stdout
/// belongs to the stdio protocol, so a boot failure there is reported on
/// stderr with exit 1 (see `output::claim_stdout`), never as an envelope;
/// `--http` and `token` leave stdout to the envelope as every tool does.
pub(super) fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    // cli claimed stdout before parsing (`Tool::serves_stdio`).
    let args = crate::tools::parse_args::<McpArgs>(matches)?;
    let verbose = matches
        .try_get_one::<u8>("verbose")
        .ok()
        .flatten()
        .copied()
        .unwrap_or(0);
    if let Some(McpCommand::Token { new }) = args.command {
        crate::output::release_stdout();
        let home = ctx.home()?;
        let made = token::make(home, new)?;
        let path = made.path.display().to_string();
        let text = format!(
            "{} {path} (readable by you only; never printed)\n\
             Serve with it:  memory_mcp --http HOST:PORT\n\
             Give it to a client (it reads ${}):  read -r {} < {path}; export {}\n",
            if made.created {
                "Made a new token in"
            } else {
                "A token is already in"
            },
            token::ENV,
            token::ENV,
            token::ENV,
        );
        let data = json!({"path": path, "created": made.created, "env": token::ENV});
        return Ok(Outcome::new(data, text));
    }
    if let Some(addr) = args.http {
        crate::output::release_stdout();
        let home = ctx.home()?;
        http::serve_http(home, ctx.clock, ctx.registry, verbose, &addr)?;
        return Ok(Outcome::raw(""));
    }
    let home = ctx.home()?;
    serve_stdio(home, ctx.clock, ctx.registry, verbose)?;
    Ok(Outcome::raw(""))
}
