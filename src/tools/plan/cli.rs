//! The clap adapter of `plan`: arguments in, the plain requests of the
//! library (`NewPlan`, `StepChange`, `NewStep`, `NextRequest`) out to the
//! verbs.
//!
//! `--expect-rev` is a hidden alias of `--expect-version`: the other tools
//! that guard writes call the number a rev, and an agent may use either word.

use super::verbs;
use super::{NewPlan, NewStep, NextRequest, StepChange, StepStatus};
use crate::error::Result;
use crate::output::Outcome;
use crate::tools::Ctx;
use clap::{ArgGroup, Args, Parser, Subcommand};

crate::tools::value_enum!(StepStatus);

/// Plans with ordered steps: create, track status, pick the next step.
///
/// Every mutation bumps the plan's version; pass --expect-version N to refuse
/// a write when someone else changed the plan since you read it.
#[derive(Debug, Parser)]
#[command(
    name = "plan",
    subcommand_required = true,
    after_help = "Examples:\n  plan create \"Ship v1\" --step build --step test --step release\n  \
                  plan step ship-v1 1 --status done --note \"green on CI\"\n  plan next --start"
)]
pub(super) struct PlanCli {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(Debug, Subcommand)]
enum Verb {
    Create(CreateArgs),
    Show(ShowArgs),
    List(ListArgs),
    Step(StepArgs),
    AddStep(AddStepArgs),
    Next(NextArgs),
    Archive(ArchiveArgs),
}

/// Create a plan from a title and --step flags, or from a plan file.
///
/// A plan file is JSON ({"title": "…", "steps": ["…", {"text": "…", "status": "done"}]})
/// or a markdown checklist (# Title, then - [ ] step; [x] done, [>] in progress,
/// [!] blocked; lines indented under a step become its note).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  plan create \"Ship v1\" --step build --step test\n  \
                        plan create --file PLAN.md\n  cat plan.json | plan create --file -"
)]
struct CreateArgs {
    /// Plan title (overrides the title in --file)
    title: Option<String>,
    /// A step, in order (repeat for more)
    #[arg(long = "step", value_name = "TEXT", conflicts_with = "file")]
    steps: Vec<String>,
    /// Read the plan from a JSON or markdown file ("-" for stdin)
    #[arg(long, value_name = "FILE")]
    file: Option<String>,
    /// Plan id (default: derived from the title, made unique)
    #[arg(long)]
    id: Option<String>,
}

/// Show a plan as a checklist (default: the most recently updated active plan).
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  plan show\n  plan show ship-v1 --format json")]
struct ShowArgs {
    /// Plan id
    id: Option<String>,
}

/// List plans, most recently updated first.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  plan list\n  plan list --all --format json")]
struct ListArgs {
    /// Include archived plans
    #[arg(long)]
    all: bool,
}

/// Set a step's status and/or note.
///
/// Give --status, --note, or both. Invariant: at most one step is in_progress; starting a second one is a conflict.
#[derive(Debug, Args)]
#[command(
    group(ArgGroup::new("change").args(["status", "note"]).required(true).multiple(true)),
    after_help = "Examples:\n  plan step ship-v1 2 --status in_progress\n  \
                        plan step ship-v1 2 --status blocked --note \"waiting on review\"\n  \
                        plan step ship-v1 2 --note \"\"   # clear the note"
)]
struct StepArgs {
    /// Plan id
    id: String,
    /// Step number (1-based, as `plan show` prints it)
    n: usize,
    /// New status
    #[arg(long, value_enum)]
    status: Option<StepStatus>,
    /// Note for the step (an empty note clears it)
    #[arg(long)]
    note: Option<String>,
    /// Refuse the write unless the plan is at this version
    #[arg(long, value_name = "N", alias = "expect-rev")]
    expect_version: Option<u64>,
}

/// Add a step (at the end, or after step N; later steps are renumbered).
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  plan add-step ship-v1 \"write release notes\"\n  \
                        plan add-step ship-v1 \"smoke test\" --after 2 --expect-version 4"
)]
struct AddStepArgs {
    /// Plan id
    id: String,
    /// Step text
    text: String,
    /// Insert after step N (0 = at the top)
    #[arg(long, value_name = "N")]
    after: Option<usize>,
    /// Refuse the write unless the plan is at this version
    #[arg(long, value_name = "N", alias = "expect-rev")]
    expect_version: Option<u64>,
}

/// Show the step to work on: the one in progress, else the first pending one.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  plan next\n  plan next ship-v1 --start")]
struct NextArgs {
    /// Plan id (default: the most recently updated active plan)
    id: Option<String>,
    /// Also mark that step in_progress (a mutation)
    #[arg(long)]
    start: bool,
    /// With --start: refuse the write unless the plan is at this version
    #[arg(long, value_name = "N", alias = "expect-rev", requires = "start")]
    expect_version: Option<u64>,
}

/// Archive a plan: it stays readable but takes no more changes.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  plan archive ship-v1\n  plan list --all")]
struct ArchiveArgs {
    /// Plan id
    id: String,
    /// Refuse the write unless the plan is at this version
    #[arg(long, value_name = "N", alias = "expect-rev")]
    expect_version: Option<u64>,
}

/// Runs a call of `plan`: the matches read back, the verb's request built.
pub(super) fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    let cli = crate::tools::parse_args::<PlanCli>(matches)?;
    let home = ctx.home()?;
    match cli.verb {
        Verb::Create(args) => verbs::create(
            ctx,
            home,
            NewPlan {
                title: args.title,
                steps: args.steps,
                file: args.file,
                id: args.id,
            },
        ),
        Verb::Show(args) => verbs::show(ctx, home, args.id.as_deref()),
        Verb::List(args) => verbs::list(ctx, home, args.all),
        Verb::Step(args) => verbs::step(
            ctx,
            home,
            StepChange {
                id: args.id,
                n: args.n,
                status: args.status,
                note: args.note,
                expect_version: args.expect_version,
            },
        ),
        Verb::AddStep(args) => verbs::add_step(
            ctx,
            home,
            NewStep {
                id: args.id,
                text: args.text,
                after: args.after,
                expect_version: args.expect_version,
            },
        ),
        Verb::Next(args) => verbs::next(
            ctx,
            home,
            NextRequest {
                id: args.id,
                start: args.start,
                expect_version: args.expect_version,
            },
        ),
        Verb::Archive(args) => verbs::archive(ctx, home, &args.id, args.expect_version),
    }
}
