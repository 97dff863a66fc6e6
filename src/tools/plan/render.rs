//! The text a person reads: a plan's checklist, the list of plans and the
//! step to work on.

use super::doc::{PlanDoc, PlanStatus, StepStatus};
use crate::error::Error;
use crate::output::{Outcome, Style};
use crate::tools::Ctx;
use std::path::Path;

/// A plan as a verb returns it: the plan's view, and its checklist under
/// the headline, if any.
pub(super) fn plan_outcome(
    ctx: &Ctx,
    doc: &PlanDoc,
    path: &Path,
    headline: Option<String>,
) -> Outcome {
    let mut text = headline.map(|h| format!("{h}\n")).unwrap_or_default();
    text.push_str(&checklist(doc, ctx.style));
    Outcome::new(doc.to_view(), text)
        .with_meta("path", path.display().to_string())
        .with_meta("version", doc.version)
}

/// A step's box in the checklist: `[x]`, `[>]`, `[ ]` or `[!]`.
fn marker(status: StepStatus, s: Style) -> String {
    match status {
        StepStatus::Done => s.green("[x]"),
        StepStatus::InProgress => s.cyan("[>]"),
        StepStatus::Pending => "[ ]".to_string(),
        StepStatus::Blocked => s.red("[!]"),
    }
}

/// The checklist a person reads.
pub(super) fn checklist(doc: &PlanDoc, s: Style) -> String {
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

/// The table of `plan list`, then a line per unreadable plan file. `all`
/// says whether archived plans were asked for (it words the empty list).
pub(super) fn list_text(shown: &[&PlanDoc], broken: &[Error], all: bool, s: Style) -> String {
    let mut text = String::new();
    if shown.is_empty() {
        text.push_str(if all {
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
        for doc in shown {
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
    for err in broken {
        text.push_str(&format!("{} {}\n", s.red("unreadable:"), err.message));
    }
    text
}

/// What `plan next` says: the step to work on (`next`, an index), else
/// that every step is done, that the rest are `blocked` (step numbers), or
/// that the plan has no steps.
pub(super) fn next_text(
    doc: &PlanDoc,
    next: Option<usize>,
    blocked: &[usize],
    all_done: bool,
    s: Style,
) -> String {
    match next {
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
    }
}
