//! `sync hosts`: detect host agents and install `memory_mcp` and the
//! screened skills into their configs (docs/tools/sync-hosts.md).
//!
//! - `detect`: the host table (ids, config files and skills folders per
//!   scope, how each is detected through `$HOME` and `PATH`).
//! - `formats`: editing one entry of a JSON/JSONC or TOML file in place.
//! - `state`: what agentbox wrote, in `<home>/local/hosts.json`.
//! - `skills`: exporting screened skills.
//! - `install`: install, remove and list, host by host.

mod detect;
mod formats;
mod install;
mod skills;
mod state;

use crate::error::Result;
use crate::output::Outcome;
use crate::tools::Ctx;
use clap::{Args, Subcommand};
pub use detect::{HOSTS, Scope};

/// The name of the server entry agentbox writes into every host's config.
pub const SERVER_NAME: &str = "agentbox-memory";

/// Detect host agents; install or remove memory_mcp and the screened skills.
///
/// Hosts: claude-code, codex, cursor, gemini, vscode, zed, odek. Without a
/// verb, lists every host: whether it is detected (a config folder under
/// $HOME or in the project, or its executable on PATH), its config file per
/// scope, whether memory_mcp is configured there (and points at this home),
/// and which screened skills are installed there.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  sync hosts\n  sync hosts install claude-code cursor\n  \
                  sync hosts install --all --scope user\n  sync hosts remove codex --scope user"
)]
pub struct HostsArgs {
    #[command(subcommand)]
    action: Option<HostsAction>,
    /// Write a host's config file or skills folder through a symlink (kept
    /// in a dotfiles repository) at its target; without it a symlink there
    /// is `permission`
    #[arg(long, global = true)]
    follow_symlinks: bool,
}

#[derive(Debug, Subcommand)]
enum HostsAction {
    /// List the hosts, what is detected and what is installed (the default)
    List,
    /// Register memory_mcp in each host's config and export the screened skills
    Install(InstallArgs),
    /// Remove what agentbox wrote (and only that) from each host
    Remove(RemoveArgs),
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  sync hosts install claude-code\n  sync hosts install --all\n  \
                  sync hosts install codex --scope user --no-skills"
)]
struct InstallArgs {
    /// Host ids (claude-code, codex, cursor, gemini, vscode, zed, odek)
    #[arg(value_name = "HOST", required_unless_present = "all")]
    hosts: Vec<String>,
    /// Every detected host
    #[arg(long, conflicts_with = "hosts")]
    all: bool,
    /// project: the config files beside the home (the default); user: under $HOME
    #[arg(long, value_enum, default_value = "project")]
    scope: Scope,
    /// Register memory_mcp only; export no skills
    #[arg(long)]
    no_skills: bool,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  sync hosts remove cursor\n  sync hosts remove --all --scope user"
)]
struct RemoveArgs {
    /// Host ids (claude-code, codex, cursor, gemini, vscode, zed, odek)
    #[arg(value_name = "HOST", required_unless_present = "all")]
    hosts: Vec<String>,
    /// Every host agentbox installed into
    #[arg(long, conflicts_with = "hosts")]
    all: bool,
    /// Only this scope (default: every scope agentbox installed into)
    #[arg(long, value_enum)]
    scope: Option<Scope>,
}

pub(super) fn run(ctx: &Ctx, args: &HostsArgs) -> Result<Outcome> {
    let home = ctx.home()?;
    let follow = args.follow_symlinks;
    match &args.action {
        None | Some(HostsAction::List) => install::list(home, follow),
        Some(HostsAction::Install(a)) => {
            install::install(home, &a.hosts, a.all, a.scope, !a.no_skills, follow)
        }
        Some(HostsAction::Remove(a)) => install::remove(home, &a.hosts, a.all, a.scope, follow),
    }
}
