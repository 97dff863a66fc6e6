//! The clap adapter of `evolve`: arguments in, library call, `Outcome` out.

use super::run::RunRequest;
use crate::error::Result;
use crate::output::Outcome;
use crate::tools::Ctx;
use clap::{Args, Parser, Subcommand};

/// Learn from the recorded trajectories: mine episodes into proposals
/// (skills, preferences, knowledge notes), review them, apply or reject.
///
/// `run` mines the episodes recorded since the last run: tool-call
/// sequences that repeat across episodes become skill proposals (drafted
/// and screened), user corrections become preference proposals, recurring
/// failures become knowledge proposals. Every run has a folder
/// runs/evolve/<run-id>/ with its proposals, a summary and an
/// odek.event/v1 events file. Nothing changes in the home until `apply`.
#[derive(Debug, Parser)]
#[command(
    name = "evolve",
    subcommand_required = true,
    after_help = "Examples:\n  evolve run\n  evolve list --status pending\n  \
                  evolve show p-3f2a9c1b7e04\n  evolve apply p-3f2a9c1b7e04\n  \
                  evolve reject p-77aa01c2d3e4 --reason \"one-off\""
)]
pub(super) struct EvolveCli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    Run(RunArgs),
    List(ListArgs),
    Show(ShowArgs),
    Apply(ApplyArgs),
    Reject(RejectArgs),
}

/// Mine the episodes not yet mined into proposals.
///
/// Resumes after the last fully mined episode (the high-water mark) unless
/// --since says otherwise. Budgets stop a run early: what was mined so far
/// is kept, and the next run resumes there.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  evolve run\n  evolve run --since 2026-11-01 --session ci\n  \
                        evolve run --max-episodes 500 --max-seconds 30\n  evolve run --dry-run"
)]
struct RunArgs {
    /// Mine episodes started on or after DATE (RFC 3339 or YYYY-MM-DD), or
    /// `last` (the default: after the high-water mark).
    #[arg(long, value_name = "DATE|last")]
    since: Option<String>,
    /// Mine only these sessions (repeatable).
    #[arg(long = "session", value_name = "KEY")]
    sessions: Vec<String>,
    /// Stop after mining N episodes (default: config evolve.max_episodes).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_episodes: Option<u64>,
    /// Stop after S seconds (default: config evolve.max_seconds).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    max_seconds: Option<f64>,
    /// Stop after N model calls (default: config evolve.max_model_calls).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_model_calls: Option<u64>,
    /// Stop when the estimated model cost reaches X US dollars (default:
    /// config evolve.max_cost_usd).
    #[arg(long, value_name = "X", allow_negative_numbers = true)]
    max_cost_usd: Option<f64>,
    /// Mine and report, but write nothing (no run folder, no state).
    #[arg(long)]
    dry_run: bool,
}

/// List proposals, newest run first.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  evolve list\n  evolve list --status pending\n  \
                        evolve list --limit 25 --offset 25"
)]
struct ListArgs {
    /// Only proposals with this status.
    #[arg(long, value_parser = ["pending", "applied", "rejected"])]
    status: Option<String>,
    /// At most N proposals (a page; meta.matched says how many there are).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Skip the first N proposals (with --limit: the next page).
    #[arg(long, value_name = "N", default_value_t = 0)]
    offset: usize,
}

/// Show a run (its id) or a proposal (its p-… id) in full.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  evolve show p-3f2a9c1b7e04\n  evolve show 9b1c…   (a run id)")]
struct ShowArgs {
    /// A proposal id (p-…, or a unique prefix of 4+ hex digits after p-) or
    /// a run id (or a unique prefix of 8+ characters).
    #[arg(value_name = "RUN|PROPOSAL")]
    id: String,
}

/// Apply proposals: install the skill, add the preference to PROFILE.md,
/// or write the knowledge note.
///
/// A skill goes through the screen and install path of skill_forge; the
/// exact line a preference adds and the note a knowledge proposal writes go
/// through the same screen. A `fail` verdict is refused (permission), a
/// `warn` verdict needs --accept-warnings; when any proposal is refused,
/// none of the call's proposals is applied.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  evolve apply p-3f2a9c1b7e04 --dry-run\n  \
                  evolve apply p-3f2a9c1b7e04 --expect-plan 5d41402abc4b2a76\n  \
                  evolve apply p-3f2a9c1b7e04 p-77aa01c2d3e4 --accept-warnings")]
struct ApplyArgs {
    /// Proposal ids (or unique prefixes of 4+ hex digits after p-), applied
    /// in order; all are checked before any is applied.
    #[arg(value_name = "PROPOSAL", required = true)]
    ids: Vec<String>,
    /// Apply a skill, preference or note whose screen verdict is `warn`.
    #[arg(long)]
    accept_warnings: bool,
    /// Check the proposals and show exactly what applying them would write
    /// (a diff per file) and the plan's fingerprint; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Refuse (conflict) unless the proposals and the files they write are
    /// as the `--dry-run` that printed this fingerprint saw them.
    #[arg(long, value_name = "PLAN")]
    expect_plan: Option<String>,
}

/// Reject proposals (they are never proposed again).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  evolve reject p-77aa01c2d3e4 --reason \"one-off workaround\"")]
struct RejectArgs {
    /// Proposal ids (or unique prefixes of 4+ hex digits after p-).
    #[arg(value_name = "PROPOSAL", required = true)]
    ids: Vec<String>,
    /// Why (kept with the proposal).
    #[arg(long)]
    reason: Option<String>,
}

pub(super) fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    let cli = crate::tools::parse_args::<EvolveCli>(matches)?;
    match cli.verb {
        Verb::Run(args) => super::run::run(ctx, &args.into()),
        Verb::List(args) => super::proposals::list(
            ctx,
            args.status.as_deref(),
            args.offset,
            args.limit.unwrap_or(usize::MAX),
        ),
        Verb::Show(args) => super::proposals::show(ctx, &args.id),
        Verb::Apply(args) => super::apply::apply(
            ctx,
            &args.ids,
            &super::apply::ApplyOptions {
                accept_warnings: args.accept_warnings,
                dry_run: args.dry_run,
                expect_plan: args.expect_plan,
            },
        ),
        Verb::Reject(args) => super::apply::reject(ctx, &args.ids, args.reason.as_deref()),
    }
}

impl From<RunArgs> for RunRequest {
    fn from(args: RunArgs) -> RunRequest {
        RunRequest {
            since: args.since,
            sessions: args.sessions,
            max_episodes: args.max_episodes,
            max_seconds: args.max_seconds,
            max_model_calls: args.max_model_calls,
            max_cost_usd: args.max_cost_usd,
            dry_run: args.dry_run,
        }
    }
}
