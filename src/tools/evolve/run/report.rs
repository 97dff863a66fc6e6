//! What a run leaves for people and programs: `run.json`, `summary.md`, the
//! envelope and the text output.

use super::{RUN_SCHEMA, Report, Run, kind_counts};
use crate::error::Error;
use crate::home::Home;
use crate::output::Outcome;
use serde_json::{Value, json};

/// `run.json` at this point of the run.
pub(super) fn run_json(run: &Run, status: &str, error: Option<&Error>) -> Value {
    let finished = if status == "running" {
        Value::Null
    } else {
        json!(run.clock.stamp())
    };
    let mut options = json!({
        "since": run.options.since_text,
        "sessions": run.options.sessions,
        "dry_run": run.options.dry_run,
        "model": run.model,
    });
    if let (Some(o), Some(l)) = (
        options.as_object_mut(),
        run.options.limits.to_json().as_object(),
    ) {
        o.extend(l.clone());
    }
    let mut value = json!({
        "schema": RUN_SCHEMA,
        "run_id": run.run_id,
        "started": run.started,
        "finished": finished,
        "status": status,
        "options": options,
        "counts": {
            "episodes": run.budget.episodes,
            "batches": run.batches,
            "proposals": run.proposals.len(),
            "model_calls": run.budget.model_calls,
            "cost_usd": super::budget::round6(run.budget.cost_usd),
        },
        "high_water_before": run.high_water_before,
        "high_water_after": run.state.high_water,
    });
    if let Some(e) = error {
        value["error"] = json!({"type": e.kind.as_str(), "message": e.message,
                                "detail": Value::Object(e.detail.clone())});
    }
    value
}

fn mark(hw: Option<&super::HighWater>) -> String {
    match hw {
        Some(hw) => format!("{} ({})", hw.episode, hw.session),
        None => "none".to_string(),
    }
}

/// `summary.md`: what was mined and each new proposal with the commands
/// to apply or reject it.
pub(super) fn summary(run: &Run, status: &str, error: Option<&Error>) -> String {
    let id = run.run_id.clone().unwrap_or_default();
    let mut s = format!("# evolve run {id}\n\n");
    s.push_str(&format!(
        "- Status: {status}\n- Started: {}, finished: {}\n",
        run.started,
        run.clock.stamp()
    ));
    s.push_str(&format!(
        "- Mined: {} episode(s) in {} batch(es){}{}\n",
        run.budget.episodes,
        run.batches,
        match &run.options.since_text {
            Some(since) => format!(", since {since}"),
            None => String::new(),
        },
        if run.options.sessions.is_empty() {
            String::new()
        } else {
            format!(", sessions {}", run.options.sessions.join(", "))
        }
    ));
    s.push_str(&format!(
        "- Model: {}; {} model call(s), estimated cost ${:.4}\n",
        run.model, run.budget.model_calls, run.budget.cost_usd
    ));
    s.push_str(&format!(
        "- High-water mark: {} → {}\n",
        mark(run.high_water_before.as_ref()),
        mark(run.state.high_water.as_ref())
    ));
    if let Some(e) = error {
        s.push_str(&format!("- Stopped: {}\n", e.message));
        if !e.hint.is_empty() {
            s.push_str(&format!("- Next: {}\n", e.hint));
        }
    }
    s.push_str(&format!("\n## New proposals ({})\n\n", run.proposals.len()));
    if run.proposals.is_empty() {
        s.push_str("None: nothing new was found in these episodes.\n");
    }
    for p in &run.proposals {
        let episodes: std::collections::BTreeSet<&str> =
            p.evidence.iter().map(|e| e.episode.as_str()).collect();
        s.push_str(&format!(
            "### {} — {}\n\n- Kind: {}, confidence {:.2}, evidence from {} episode(s)\n\
             - Read it: `evolve show {0}`\n- Apply it: `evolve apply {0}`\n\
             - Reject it: `evolve reject {0} --reason \"…\"`\n\n",
            p.id,
            p.shown_title(),
            p.kind.as_str(),
            p.confidence,
            episodes.len()
        ));
    }
    s
}

/// The envelope of a finished run, and its text.
pub(super) fn outcome(_home: &Home, r: &Report) -> Outcome {
    let proposals: Vec<Value> = r
        .proposals
        .iter()
        .map(|p| json!({"id": p.id, "kind": p.kind, "title": p.shown_title(), "confidence": p.confidence}))
        .collect();
    let data = json!({
        "run_id": r.run_id,
        "episodes": r.episodes,
        "open_episodes": r.open_episodes,
        "batches": r.batches,
        "proposals": proposals,
        "counts": kind_counts(&r.proposals),
        "high_water": r.high_water,
        "model": r.model,
        "model_calls": r.model_calls,
        "cost_usd": r.cost_usd,
        "dry_run": r.dry_run,
    });
    let mut outcome = Outcome::new(data, text(r)).with_meta("count", r.proposals.len());
    if let Some(dir) = &r.run_dir {
        outcome = outcome.with_meta("run_dir", dir.display().to_string());
    }
    for w in &r.warnings {
        outcome = outcome.with_warning(w.clone());
    }
    outcome
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn text(r: &Report) -> String {
    let n = r.proposals.len();
    let mut t = if r.episodes == 0 {
        let head = if r.dry_run { "Dry run: no" } else { "No" };
        let mut t = format!(
            "{head} episodes to mine: none was closed since the last run, or none matches the options"
        );
        // A session's episode stays open until `track flush` (or a record
        // with `--flush`) closes it: the usual reason a first run finds nothing.
        if r.open_episodes > 0 {
            t.push_str(&format!(
                "\n{} still open: an episode is mined once closed, `agentbox track flush --session KEY` closes one (`agentbox track list` shows them)",
                plural(r.open_episodes as usize, "episode is", "episodes are")
            ));
        }
        t
    } else {
        format!(
            "{} {} in {}: {}",
            if r.dry_run { "Dry run: mined" } else { "Mined" },
            plural(r.episodes as usize, "episode", "episodes"),
            plural(r.batches as usize, "batch", "batches"),
            match n {
                0 => "nothing new to propose".to_string(),
                _ => plural(n, "new proposal", "new proposals"),
            }
        )
    };
    if r.model_calls > 0 {
        t.push_str(&format!(
            " ({}, about ${:.4})",
            plural(r.model_calls as usize, "model call", "model calls"),
            r.cost_usd
        ));
    }
    t.push('\n');
    let width = r
        .proposals
        .iter()
        .map(|p| p.kind.as_str().len())
        .max()
        .unwrap_or(0);
    for p in &r.proposals {
        t.push_str(&format!(
            "  {}  {:<width$}  {:.2}  {}\n",
            p.id,
            p.kind.as_str(),
            p.confidence,
            p.shown_title()
        ));
    }
    match (&r.run_dir, r.dry_run) {
        (_, true) => t.push_str("Nothing was written (--dry-run).\n"),
        (Some(dir), false) => t.push_str(&format!("Run folder: {}\n", dir.display())),
        (None, false) => {}
    }
    if let Some(first) = r.proposals.first() {
        if r.dry_run {
            t.push_str("Next: `evolve run` to record these proposals\n");
        } else {
            t.push_str(&format!(
                "Next: `evolve show {0}` to read one, then `evolve apply {0}` or `evolve reject {0}`\n",
                first.id
            ));
        }
    } else if r.episodes == 0 {
        t.push_str("Next: record more work with `track`, then `evolve run` again\n");
    }
    t
}
