//! `plan` — plans with ordered steps (SPEC §4, docs/tools/plan.md).

mod doc;
pub(crate) mod input;
mod suggest;

pub use doc::{PlanDoc, PlanStatus, StepStatus};

use crate::error::{Error, Result, over_limit};
use crate::home::Home;
use crate::output::{Outcome, Style};
use crate::store::{self};
use crate::tools::{Check, Ctx, Tool};
use clap::{ArgGroup, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use doc::{Step, check_id, check_note, check_step_text, check_title};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub const TOOL: Tool = Tool {
    doctor: &[doctor_plans],
    suggest: &[suggest::stale_steps],
    ..Tool::new("plan", PlanCli::command, run)
};

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
struct PlanCli {
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
    #[arg(long, value_name = "N")]
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
    #[arg(long, value_name = "N")]
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
    #[arg(long, value_name = "N", requires = "start")]
    expect_version: Option<u64>,
}

/// Archive a plan: it stays readable but takes no more changes.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  plan archive ship-v1\n  plan list --all")]
struct ArchiveArgs {
    /// Plan id
    id: String,
    /// Refuse the write unless the plan is at this version
    #[arg(long, value_name = "N")]
    expect_version: Option<u64>,
}

fn run(ctx: &Ctx, matches: &clap::ArgMatches) -> Result<Outcome> {
    let cli = PlanCli::from_arg_matches(matches).map_err(|e| Error::invalid_args(e.to_string()))?;
    let home = ctx.home()?;
    match cli.verb {
        Verb::Create(args) => create(ctx, home, args),
        Verb::Show(args) => show(ctx, home, args),
        Verb::List(args) => list(ctx, home, args),
        Verb::Step(args) => step(ctx, home, args),
        Verb::AddStep(args) => add_step(ctx, home, args),
        Verb::Next(args) => next(ctx, home, args),
        Verb::Archive(args) => archive(ctx, home, args),
    }
}

fn plan_path(home: &Home, id: &str) -> Result<PathBuf> {
    check_id(id)?;
    home.store.path(&["plans", &format!("{id}.json")])
}

/// Loads a plan; the file name is the id's truth.
fn load(home: &Home, id: &str) -> Result<(PlanDoc, PathBuf)> {
    let path = plan_path(home, id)?;
    let text = home.store.read(&path)?.ok_or_else(|| {
        Error::not_found(format!("no plan '{id}'"))
            .with_hint("see the plans with `plan list --all`")
            .with_detail("id", id)
    })?;
    let mut doc = PlanDoc::parse(&text, &path)?;
    doc.id = id.to_string();
    Ok((doc, path))
}

/// Parsed plans with their file's mtime, newest first, and the unreadable ones.
type PlanSet = (Vec<(PlanDoc, std::time::SystemTime)>, Vec<Error>);

/// Every plan file: parsed plans and the broken ones.
fn load_all(home: &Home) -> Result<PlanSet> {
    let dir = home.root.join("plans");
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(e) => return Err(Error::io("read", &dir, &e)),
    };
    let mut plans = Vec::new();
    let mut broken = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(id) = name.to_str().and_then(|n| n.strip_suffix(".json")) else {
            continue;
        };
        if id.starts_with('.') {
            continue;
        }
        let mtime = entry
            .metadata()
            .and_then(|m| m.modified())
            .unwrap_or(std::time::UNIX_EPOCH);
        match load(home, id) {
            Ok((doc, _)) => plans.push((doc, mtime)),
            Err(err) => broken.push(err),
        }
    }
    plans.sort_by(|a, b| {
        (b.0.updated.as_str(), b.1, b.0.id.as_str()).cmp(&(
            a.0.updated.as_str(),
            a.1,
            a.0.id.as_str(),
        ))
    });
    Ok((plans, broken))
}

/// `doctor`'s line: every stored plan parses.
fn doctor_plans(home: &Home) -> Check {
    match load_all(home) {
        Ok((plans, broken)) => match broken.into_iter().next() {
            Some(err) => Check::fail("plans", err.message, err.hint),
            None => Check::pass("plans", format!("{} plan file(s) parse", plans.len())),
        },
        Err(err) => Check::fail("plans", err.message, err.hint),
    }
}

/// The most recently updated active plan.
fn current(home: &Home) -> Result<PlanDoc> {
    let (plans, _) = load_all(home)?;
    plans
        .into_iter()
        .map(|(doc, _)| doc)
        .find(|doc| doc.status == PlanStatus::Active)
        .ok_or_else(|| {
            Error::not_found("there is no active plan")
                .with_hint("create one with `plan create \"Title\" --step \"first step\"`")
        })
}

/// Read-modify-write under the plan's lock: load, check the version guard and
/// that the plan is active, apply `change`, bump the version, replace atomically.
fn mutate(
    ctx: &Ctx,
    home: &Home,
    id: &str,
    expect: Option<u64>,
    change: impl FnOnce(&mut PlanDoc, &str) -> Result<()>,
) -> Result<(PlanDoc, PathBuf)> {
    check_id(id)?;
    let _lock = home.store.lock(&format!("plan-{id}"))?;
    let (mut doc, path) = load(home, id)?;
    store::check_version(&format!("plan '{id}'"), expect, doc.version)?;
    doc.ensure_active()?;
    let now = ctx.clock.stamp();
    change(&mut doc, &now)?;
    doc.bump(&now)?;
    home.store.write_json(
        &path,
        &serde_json::to_value(&doc).map_err(|e| Error::internal(e.to_string()))?,
    )?;
    Ok((doc, path))
}

fn plan_outcome(ctx: &Ctx, doc: &PlanDoc, path: &Path, headline: Option<String>) -> Outcome {
    let mut text = headline.map(|h| format!("{h}\n")).unwrap_or_default();
    text.push_str(&render(doc, ctx.style));
    Outcome::new(doc.to_view(), text)
        .with_meta("path", path.display().to_string())
        .with_meta("version", doc.version)
}

fn create(ctx: &Ctx, home: &Home, args: CreateArgs) -> Result<Outcome> {
    let parsed = match &args.file {
        Some(file) => {
            let (text, name) =
                crate::tools::read_input(file, "plan file", home.store.max_item_bytes())?;
            Some(input::parse(&text, &name)?)
        }
        None => None,
    };
    let title = args
        .title
        .clone()
        .or_else(|| parsed.as_ref().and_then(|p| p.title.clone()))
        .ok_or_else(|| {
            Error::invalid_args("a plan needs a title")
                .with_hint("pass it as the first argument: plan create \"Title\" --step …")
        })?;
    check_title(&title)?;
    let steps: Vec<input::StepInput> = match parsed.as_ref() {
        Some(p) => p.steps.clone(),
        None => args
            .steps
            .iter()
            .map(|text| input::StepInput {
                text: text.clone(),
                status: StepStatus::Pending,
                note: None,
            })
            .collect(),
    };
    if steps.len() > doc::MAX_STEPS {
        return Err(over_limit(
            format!("the plan has {} steps", steps.len()),
            "steps",
            steps.len() as u64,
            doc::MAX_STEPS as u64,
        )
        .with_hint("split the work into several plans"));
    }
    for step in &steps {
        check_step_text(&step.text)?;
        if let Some(note) = &step.note {
            check_note(note)?;
        }
    }
    let started: Vec<usize> = steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.status == StepStatus::InProgress)
        .map(|(i, _)| i + 1)
        .collect();
    if started.len() > 1 {
        return Err(Error::invalid_args(format!(
            "steps {started:?} are all in progress; at most one step may be"
        ))
        .with_hint("mark all but one of them pending")
        .with_detail("in_progress", started));
    }
    let wanted_id = args
        .id
        .clone()
        .or_else(|| parsed.as_ref().and_then(|p| p.id.clone()));
    if let Some(id) = &wanted_id {
        check_id(id)?;
    }

    let now = ctx.clock.stamp();
    let _lock = home.store.lock("plans")?;
    home.store.ensure_dir(&home.root.join("plans"))?;
    let id = match wanted_id {
        Some(id) => {
            if plan_path(home, &id)?.exists() {
                return Err(Error::conflict(format!("a plan '{id}' already exists"))
                    .with_hint("choose another --id, or omit it to derive a unique one")
                    .with_detail("id", id));
            }
            id
        }
        None => {
            // From the redacted title, so no secret becomes part of a file name;
            // a derived id that merely looks like one is replaced, not refused.
            let redactor = home.store.redactor();
            crate::slug::unique(
                &redactor.redact(&title),
                doc::MAX_SLUG_LEN,
                "plan",
                |id| {
                    let file = format!("{id}.json");
                    redactor.redact(&file) == file
                },
                |id| Ok::<bool, Error>(plan_path(home, id)?.exists()),
            )?
        }
    };
    let doc = PlanDoc {
        schema: doc::SCHEMA.to_string(),
        id: id.clone(),
        title,
        status: PlanStatus::Active,
        version: 1,
        created: now.clone(),
        updated: now.clone(),
        steps: steps
            .into_iter()
            .map(|s| Step {
                text: s.text,
                status: s.status,
                note: s.note.filter(|n| !n.is_empty()),
                updated: now.clone(),
                extra: Default::default(),
            })
            .collect(),
        extra: Default::default(),
    };
    let path = plan_path(home, &id)?;
    home.store.write_json(
        &path,
        &serde_json::to_value(&doc).map_err(|e| Error::internal(e.to_string()))?,
    )?;
    let headline = format!(
        "{} plan {}",
        ctx.style.green("Created"),
        ctx.style.bold(&id)
    );
    Ok(plan_outcome(ctx, &doc, &path, Some(headline)))
}

fn show(ctx: &Ctx, home: &Home, args: ShowArgs) -> Result<Outcome> {
    let doc = match &args.id {
        Some(id) => load(home, id)?.0,
        None => current(home)?,
    };
    let path = plan_path(home, &doc.id)?;
    Ok(plan_outcome(ctx, &doc, &path, None))
}

fn list(ctx: &Ctx, home: &Home, args: ListArgs) -> Result<Outcome> {
    let (plans, broken) = load_all(home)?;
    let shown: Vec<&PlanDoc> = plans
        .iter()
        .map(|(doc, _)| doc)
        .filter(|doc| args.all || doc.status == PlanStatus::Active)
        .collect();
    let s = ctx.style;
    let mut text = String::new();
    if shown.is_empty() {
        text.push_str(if args.all {
            "No plans yet. Create one: plan create \"Title\" --step \"first step\"\n"
        } else {
            "No active plans. See archived ones with `plan list --all`, or create one.\n"
        });
    } else {
        let width = shown
            .iter()
            .map(|d| d.id.chars().count())
            .max()
            .unwrap_or(2)
            .max(2);
        text.push_str(&s.dim(&format!(
            "{:<width$}  {:>4}  {:>5}  {:<20}  {}",
            "ID", "VER", "DONE", "UPDATED", "TITLE"
        )));
        text.push('\n');
        for doc in &shown {
            let p = doc.progress();
            let mut title = doc.title.clone();
            if doc.status == PlanStatus::Archived {
                title.push_str(&s.dim(" (archived)"));
            }
            text.push_str(&format!(
                "{:<width$}  {:>4}  {:>5}  {:<20}  {}\n",
                doc.id,
                format!("v{}", doc.version),
                format!("{}/{}", p.done, doc.steps.len()),
                doc.updated,
                title
            ));
        }
    }
    for err in &broken {
        text.push_str(&format!("{} {}\n", s.red("unreadable:"), err.message));
    }
    let broken_json: Vec<Value> = broken
        .iter()
        .map(|e| json!({"message": e.message, "detail": Value::Object(e.detail.clone())}))
        .collect();
    Ok(Outcome::new(
        json!({
            "plans": shown.iter().map(|d| d.to_summary()).collect::<Vec<_>>(),
            "broken": broken_json,
        }),
        text,
    )
    .with_meta("count", shown.len()))
}

fn step(ctx: &Ctx, home: &Home, args: StepArgs) -> Result<Outcome> {
    if let Some(note) = &args.note {
        check_note(note)?;
    }
    let mut index = 0;
    let (doc, path) = mutate(ctx, home, &args.id, args.expect_version, |doc, now| {
        index = doc.step_index(args.n)?;
        if args.status == Some(StepStatus::InProgress) {
            doc.ensure_can_start(index)?;
        }
        let step = &mut doc.steps[index];
        if let Some(status) = args.status {
            step.status = status;
        }
        if let Some(note) = &args.note {
            step.note = (!note.is_empty()).then(|| note.clone());
        }
        step.updated = now.to_string();
        Ok(())
    })?;
    let headline = format!(
        "{} v{}: step {} is {}",
        ctx.style.bold(&doc.id),
        doc.version,
        index + 1,
        doc.steps[index].status.as_str()
    );
    Ok(plan_outcome(ctx, &doc, &path, Some(headline)).with_meta("step", index + 1))
}

fn add_step(ctx: &Ctx, home: &Home, args: AddStepArgs) -> Result<Outcome> {
    check_step_text(&args.text)?;
    let mut index = 0;
    let (doc, path) = mutate(ctx, home, &args.id, args.expect_version, |doc, now| {
        if doc.steps.len() >= doc::MAX_STEPS {
            return Err(Error::invalid_args(format!(
                "plan '{}' already has {} steps, the limit",
                doc.id,
                doc::MAX_STEPS
            ))
            .with_hint("archive this plan and continue in a new one")
            .with_limit("steps", doc.steps.len() as u64 + 1, doc::MAX_STEPS as u64));
        }
        index = match args.after {
            None => doc.steps.len(),
            Some(0) => 0,
            Some(n) => doc.step_index(n)? + 1,
        };
        doc.steps.insert(
            index,
            Step {
                text: args.text.clone(),
                status: StepStatus::Pending,
                note: None,
                updated: now.to_string(),
                extra: Default::default(),
            },
        );
        Ok(())
    })?;
    let headline = format!(
        "{} v{}: added step {}",
        ctx.style.bold(&doc.id),
        doc.version,
        index + 1
    );
    Ok(plan_outcome(ctx, &doc, &path, Some(headline)).with_meta("step", index + 1))
}

fn next(ctx: &Ctx, home: &Home, args: NextArgs) -> Result<Outcome> {
    let id = match args.id.clone() {
        Some(id) => id,
        None => current(home)?.id,
    };
    let doc = if args.start {
        let (doc, _) = load(home, &id)?;
        let startable = doc
            .next_index()
            .is_some_and(|i| doc.steps[i].status == StepStatus::Pending);
        if startable {
            mutate(ctx, home, &id, args.expect_version, |doc, now| {
                // Re-decided under the lock: another writer may have moved on.
                let i = doc.next_index().ok_or_else(|| {
                    Error::conflict(format!("plan '{}' has no pending step left", doc.id))
                        .with_hint("see it with `plan show`")
                })?;
                if doc.steps[i].status == StepStatus::Pending {
                    doc.steps[i].status = StepStatus::InProgress;
                    doc.steps[i].updated = now.to_string();
                }
                Ok(())
            })?
            .0
        } else {
            store::check_version(&format!("plan '{id}'"), args.expect_version, doc.version)?;
            doc
        }
    } else {
        load(home, &id)?.0
    };
    let s = ctx.style;
    let next = doc.next_index();
    let blocked: Vec<usize> = doc
        .steps
        .iter()
        .enumerate()
        .filter(|(_, st)| st.status == StepStatus::Blocked)
        .map(|(i, _)| i + 1)
        .collect();
    let all_done =
        !doc.steps.is_empty() && doc.steps.iter().all(|st| st.status == StepStatus::Done);
    let text = match next {
        Some(i) => {
            let step = &doc.steps[i];
            let mut t = format!(
                "Next in {} (v{}): {} {}. {}\n",
                s.bold(&doc.id),
                doc.version,
                marker(step.status, s),
                i + 1,
                step.text
            );
            if let Some(note) = &step.note {
                t.push_str(&format!(
                    "       {}\n",
                    s.dim(&format!("note: {}", note.replace('\n', " / ")))
                ));
            }
            t
        }
        None if all_done => format!(
            "All {} steps of {} are done.\n",
            doc.steps.len(),
            s.bold(&doc.id)
        ),
        None if !blocked.is_empty() => format!(
            "Nothing to start in {}: step{} {} blocked.\n",
            s.bold(&doc.id),
            if blocked.len() == 1 { "" } else { "s" },
            blocked
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => format!(
            "{} has no steps. Add one: plan add-step {} \"…\"\n",
            s.bold(&doc.id),
            doc.id
        ),
    };
    let data = json!({
        "plan": doc.to_summary(),
        "step": next.map(|i| doc.step_json(i)),
        "done": all_done,
        "blocked": blocked,
    });
    Ok(Outcome::new(data, text)
        .with_meta("version", doc.version)
        .with_meta("path", plan_path(home, &doc.id)?.display().to_string()))
}

fn archive(ctx: &Ctx, home: &Home, args: ArchiveArgs) -> Result<Outcome> {
    let (doc, path) = mutate(ctx, home, &args.id, args.expect_version, |doc, _| {
        doc.status = PlanStatus::Archived;
        Ok(())
    })?;
    let headline = format!(
        "{} plan {} (v{})",
        ctx.style.yellow("Archived"),
        ctx.style.bold(&doc.id),
        doc.version
    );
    Ok(plan_outcome(ctx, &doc, &path, Some(headline)))
}

fn marker(status: StepStatus, s: Style) -> String {
    match status {
        StepStatus::Done => s.green("[x]"),
        StepStatus::InProgress => s.cyan("[>]"),
        StepStatus::Pending => "[ ]".to_string(),
        StepStatus::Blocked => s.red("[!]"),
    }
}

/// The checklist a person reads.
fn render(doc: &PlanDoc, s: Style) -> String {
    let p = doc.progress();
    let mut state = format!("v{} · {}/{} done", doc.version, p.done, doc.steps.len());
    if doc.status == PlanStatus::Archived {
        state.push_str(" · archived");
    }
    let mut text = format!(
        "{}  {}\n",
        s.bold(&doc.title),
        s.dim(&format!("({} · {state})", doc.id))
    );
    if doc.steps.is_empty() {
        text.push_str(&format!(
            "  (no steps yet — plan add-step {} \"…\")\n",
            doc.id
        ));
    }
    let width = doc.steps.len().to_string().len();
    for (i, step) in doc.steps.iter().enumerate() {
        text.push_str(&format!(
            "  {} {:>width$}. {}\n",
            marker(step.status, s),
            i + 1,
            step.text
        ));
        if let Some(note) = &step.note {
            for line in note.lines() {
                text.push_str(&format!("  {:>w$}  {}\n", "", s.dim(line), w = width + 4));
            }
        }
    }
    text
}
