//! The verbs of `plan`, on the plain requests `cli` builds: each loads or
//! changes plans through `storage` and returns the plan and its text.

use super::doc::{
    self, PlanDoc, PlanStatus, Step, StepStatus, check_id, check_note, check_step_text, check_title,
};
use super::render::{self, plan_outcome};
use super::storage::{current, load, load_all, mutate, plan_path, versioned};
use super::{NewPlan, NewStep, NextRequest, StepChange, input};
use crate::error::{Error, Result, over_limit};
use crate::home::Home;
use crate::output::Outcome;
use crate::tools::Ctx;
use serde_json::{Value, json};

/// `plan create`: a new plan from a title and steps, or from a plan file.
pub(super) fn create(ctx: &Ctx, home: &Home, args: NewPlan) -> Result<Outcome> {
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

/// `plan show`: the plan `id`, or the most recently updated active plan.
pub(super) fn show(ctx: &Ctx, home: &Home, id: Option<&str>) -> Result<Outcome> {
    let doc = match id {
        Some(id) => load(home, id)?.0,
        None => current(home)?,
    };
    let path = plan_path(home, &doc.id)?;
    Ok(plan_outcome(ctx, &doc, &path, None))
}

/// `plan list`: the active plans (every plan with `all`), most recently
/// updated first, and the files that do not parse.
pub(super) fn list(ctx: &Ctx, home: &Home, all: bool) -> Result<Outcome> {
    let (plans, broken) = load_all(home)?;
    let shown: Vec<&PlanDoc> = plans
        .iter()
        .map(|(doc, _)| doc)
        .filter(|doc| all || doc.status == PlanStatus::Active)
        .collect();
    let text = render::list_text(&shown, &broken, all, ctx.style);
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

/// `plan step`: a step's status and/or note changed.
pub(super) fn step(ctx: &Ctx, home: &Home, args: StepChange) -> Result<Outcome> {
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

/// `plan add-step`: a pending step added at the end, or after step N.
pub(super) fn add_step(ctx: &Ctx, home: &Home, args: NewStep) -> Result<Outcome> {
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

/// `plan next`: the step to work on (the one in progress, else the first
/// pending one), started when asked.
pub(super) fn next(ctx: &Ctx, home: &Home, args: NextRequest) -> Result<Outcome> {
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
            versioned(&id).check(args.expect_version, doc.version)?;
            doc
        }
    } else {
        load(home, &id)?.0
    };
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
    let text = render::next_text(&doc, next, &blocked, all_done, ctx.style);
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

/// `plan archive`: the plan stays readable but takes no more changes.
pub(super) fn archive(
    ctx: &Ctx,
    home: &Home,
    id: &str,
    expect_version: Option<u64>,
) -> Result<Outcome> {
    let (doc, path) = mutate(ctx, home, id, expect_version, |doc, _| {
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
