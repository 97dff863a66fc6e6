//! `sync hosts`: detect host agents and install `memory_mcp` and the
//! screened skills into their configs (docs/tools/sync-hosts.md).
//!
//! - `detect`: the host table (ids, config files and skills folders per
//!   scope, how each is detected through `$HOME` and `PATH`).
//! - `formats`: editing one entry of a JSON/JSONC or TOML file in place.
//! - `gate`: whether a host will start what it is configured with (its own
//!   approval and trust files, read only).
//! - `state`: what agentbox wrote, in `<home>/local/hosts.json`.
//! - `skills`: exporting screened skills.
//! - `remote`: the URL form (`install --url`): checks and each host's entry.
//! - `install`: install, remove and list, host by host.

mod detect;
mod formats;
mod gate;
mod install;
mod remote;
mod remove;
mod skills;
mod state;

use crate::error::Result;
use crate::output::Outcome;
use crate::tools::Ctx;
pub use detect::{HOSTS, Scope};

/// The name of the server entry agentbox writes into every host's config.
pub const SERVER_NAME: &str = "agentbox-memory";

/// What `sync hosts` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostsAction {
    /// List the hosts, what is detected and what is installed.
    List,
    /// Register memory_mcp in each host's config, and export the screened
    /// skills unless `skills` is false.
    Install {
        hosts: Vec<String>,
        /// Every detected host (`hosts` is then empty).
        all: bool,
        scope: Scope,
        skills: bool,
        /// `--url`: register the server at this URL instead of a command.
        url: Option<UrlArgs>,
    },
    /// Remove what agentbox wrote (and only that) from each host.
    Remove {
        hosts: Vec<String>,
        /// Every host agentbox installed into (`hosts` is then empty).
        all: bool,
        /// Only this scope (`None`: every scope agentbox installed into).
        scope: Option<Scope>,
    },
}

/// `install --url URL [--token-env NAME]`, as given (install checks them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlArgs {
    pub url: String,
    /// The variable the host reads the bearer token from (`None`: the
    /// default, `AGENTBOX_MCP_TOKEN`).
    pub token_env: Option<String>,
}

/// `sync hosts`: `follow_symlinks` lets a write go through a symlink at a
/// host's config file or skills folder (without it that is `permission`).
pub(super) fn run(ctx: &Ctx, action: &HostsAction, follow_symlinks: bool) -> Result<Outcome> {
    let home = ctx.home()?;
    let follow = follow_symlinks;
    match action {
        HostsAction::List => install::list(home, follow),
        HostsAction::Install {
            hosts,
            all,
            scope,
            skills,
            url,
        } => install::install(
            home,
            &install::Request {
                ids: hosts,
                all: *all,
                scope: *scope,
                with_skills: *skills,
                url: url.as_ref(),
            },
            follow,
        ),
        HostsAction::Remove { hosts, all, scope } => {
            remove::remove(home, hosts, *all, *scope, follow)
        }
    }
}
