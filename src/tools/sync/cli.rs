//! The clap adapter of `sync`: arguments in, library call, `Outcome` out.

use super::hosts::{self, HostsAction, Scope, UrlArgs};
use super::repo::{self, RemoteAction};
use crate::error::Result;
use crate::output::Outcome;
use crate::tools::Ctx;
use clap::{Args, Parser, Subcommand};

crate::tools::value_enum!(Scope);

/// Share the home through any git remote; install memory_mcp and skills into host agents.
///
/// The home's history is kept in a git repository whose git dir is
/// <home>/sync.git (the home is its work tree), so it never nests inside a
/// project's own repository. Memory (episodes, notes, PROFILE.md,
/// foresight), plans, skills with their screening records, personas and
/// .gitignore sync; config.json, index/, locks/, tools/, local/ and runs/ never do.
/// Merging never loses a line: JSONL files merge as a union, PROFILE.md per
/// section, plans and notes three-way; a true conflict stops with
/// `conflict` and keeps both versions. Nothing that looks like a
/// credential is pushed.
#[derive(Debug, Parser)]
#[command(
    name = "sync",
    subcommand_required = true,
    after_help = "Examples:\n  sync init --remote https://github.com/me/agent-memory.git\n  \
                  sync now\n  sync status --format json\n  sync hosts\n  \
                  sync hosts install claude-code codex --scope user"
)]
pub(super) struct SyncCli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    Init(InitArgs),
    Remote(RemoteArgs),
    Status(StatusArgs),
    Pull(PullArgs),
    Push(PushArgs),
    Now(NowArgs),
    Abort(AbortArgs),
    Hosts(HostsArgs),
}

/// Start keeping the home's history (and take the remote's, when it has one).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  sync init\n  sync init --remote https://github.com/me/agent-memory.git\n  \
                  sync init --remote file:///srv/git/memory.git"
)]
struct InitArgs {
    /// The remote to sync with (https:// or file://; credentials come from
    /// git credential helpers or GIT_ASKPASS, never from the URL)
    #[arg(long, value_name = "URL")]
    remote: Option<String>,
}

/// Show, set or remove the remote.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  sync remote\n  sync remote set https://github.com/me/agent-memory.git\n  sync remote rm"
)]
struct RemoteArgs {
    #[command(subcommand)]
    action: Option<RemoteCommand>,
}

#[derive(Debug, Subcommand)]
enum RemoteCommand {
    /// Show the remote (the default)
    #[command(
        after_help = "Examples:\n  sync remote show\n  sync remote show --format json | jq .data.remote"
    )]
    Show,
    /// Set the remote
    #[command(
        after_help = "Examples:\n  sync remote set https://github.com/me/agent-memory.git\n  \
                      sync remote set file:///srv/git/memory.git"
    )]
    Set {
        /// https:// or file:// URL of a git repository
        url: String,
    },
    /// Forget the remote (the history stays)
    #[command(after_help = "Examples:\n  sync remote rm\n  sync remote show")]
    Rm,
}

/// What is unsynced: commits ahead/behind the remote, changed files.
///
/// Works offline: `behind` counts the remote's commits as of the last fetch
/// (the last pull, push or now).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  sync status\n  sync status --format json | jq .data.dirty")]
struct StatusArgs {}

/// Take the remote's changes into the home (commits local changes first).
///
/// A file both sides changed is merged (JSONL as a union, PROFILE.md per
/// section, notes and plans three-way); a true conflict stops with
/// `conflict`, changes no file and keeps the remote's version beside each
/// conflicted file as `<file>.remote`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  sync pull")]
struct PullArgs {}

/// Send the home's changes to the remote (integrating the remote's first).
///
/// Every changed line passes the redactor first: a credential blocks the
/// push with `permission` naming file:line. When the remote moved meanwhile,
/// push pulls again and retries (up to 5 times).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  sync push")]
struct PushArgs {}

/// Pull, then push: the one command to run after a session.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  sync now\n  sync now --format json | jq .data")]
struct NowArgs {}

/// Drop a pull that stopped part-way and keeps failing to finish.
///
/// The files it already wrote stay as they are; the next sync commits them
/// and merges the remote again, so nothing is lost. `sync now` finishes an
/// interrupted pull by itself: this is for when that keeps failing.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  sync abort\n  sync status")]
struct AbortArgs {}

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
struct HostsArgs {
    #[command(subcommand)]
    action: Option<HostsCommand>,
    /// Write a host's config file or skills folder through a symlink (kept
    /// in a dotfiles repository) at its target; without it a symlink there
    /// is `permission`
    #[arg(long, global = true)]
    follow_symlinks: bool,
}

#[derive(Debug, Subcommand)]
enum HostsCommand {
    /// List the hosts, what is detected and what is installed (the default)
    #[command(
        after_help = "Examples:\n  sync hosts list\n  sync hosts list --format json | jq '.data.hosts[].id'"
    )]
    List,
    /// Register memory_mcp in each host's config and export the screened skills
    Install(InstallArgs),
    /// Remove what agentbox wrote (and only that) from each host
    Remove(RemoveArgs),
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  sync hosts install claude-code\n  sync hosts install --all\n  \
                  sync hosts install codex --scope user --no-skills\n  \
                  sync hosts install claude-code codex --url http://127.0.0.1:7411/mcp\n  \
                  sync hosts install cursor --url https://memory.example.com/mcp --token-env MEMORY_TOKEN"
)]
struct InstallArgs {
    /// Host ids (claude-code, codex, cursor, gemini, vscode, zed, odek)
    #[arg(
        value_name = "HOST",
        required_unless_present = "all",
        value_parser = host_ids(),
        hide_possible_values = true
    )]
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
    /// Register the memory_mcp --http the user keeps running at URL (e.g.
    /// http://127.0.0.1:7411/mcp) instead of a command the host starts;
    /// not for zed or odek
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// With --url: the environment variable the host reads the bearer token
    /// from when it connects (default AGENTBOX_MCP_TOKEN); the token itself
    /// is never written
    #[arg(long, value_name = "NAME", requires = "url")]
    token_env: Option<String>,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  sync hosts remove cursor\n  sync hosts remove --all --scope user"
)]
struct RemoveArgs {
    /// Host ids (claude-code, codex, cursor, gemini, vscode, zed, odek)
    #[arg(
        value_name = "HOST",
        required_unless_present = "all",
        value_parser = host_ids(),
        hide_possible_values = true
    )]
    hosts: Vec<String>,
    /// Every host agentbox installed into
    #[arg(long, conflicts_with = "hosts")]
    all: bool,
    /// Only this scope (default: every scope agentbox installed into)
    #[arg(long, value_enum)]
    scope: Option<Scope>,
}

/// The host ids, for the completions (an unknown one is the hosts' own
/// error, which names the nearest).
fn host_ids() -> crate::tools::KnownValues {
    crate::tools::known_values(hosts::HOSTS.iter().map(|h| h.id))
}

pub(super) fn run(ctx: &Ctx, m: &clap::ArgMatches) -> Result<Outcome> {
    let cli = crate::tools::parse_args::<SyncCli>(m)?;
    match cli.verb {
        Verb::Init(args) => repo::init_verb(ctx, ctx.home()?, args.remote.as_deref()),
        Verb::Remote(args) => {
            let action = match args.action {
                None | Some(RemoteCommand::Show) => RemoteAction::Show,
                Some(RemoteCommand::Set { url }) => RemoteAction::Set { url },
                Some(RemoteCommand::Rm) => RemoteAction::Rm,
            };
            repo::remote_verb(ctx, ctx.home()?, &action)
        }
        Verb::Status(_) => repo::status_verb(ctx, ctx.home()?),
        Verb::Pull(_) => repo::pull_verb(ctx, ctx.home()?),
        Verb::Push(_) => repo::push_verb(ctx, ctx.home()?),
        Verb::Now(_) => repo::now_verb(ctx, ctx.home()?),
        Verb::Abort(_) => repo::abort_verb(ctx, ctx.home()?),
        // Hosts live outside the home (their config folders): a home is
        // needed only to name the memory_mcp link and the skills.
        Verb::Hosts(args) => hosts::run(ctx, &args.action(), args.follow_symlinks),
    }
}

impl HostsArgs {
    /// The action the flags ask for (a bare `sync hosts` lists).
    fn action(&self) -> HostsAction {
        match &self.action {
            None | Some(HostsCommand::List) => HostsAction::List,
            Some(HostsCommand::Install(a)) => HostsAction::Install {
                hosts: a.hosts.clone(),
                all: a.all,
                scope: a.scope,
                skills: !a.no_skills,
                url: a.url.clone().map(|url| UrlArgs {
                    url,
                    token_env: a.token_env.clone(),
                }),
            },
            Some(HostsCommand::Remove(a)) => HostsAction::Remove {
                hosts: a.hosts.clone(),
                all: a.all,
                scope: a.scope,
            },
        }
    }
}
