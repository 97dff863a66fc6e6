//! `proactive scan`: what the agent should bring up before being asked,
//! gathered from every tool's `suggest` functions (the registry's
//! `suggestion_sources`), each with the command that resolves it.

use super::{items, render};
use crate::clock::Clock;
use crate::clock::days;
use crate::error::Result;
use crate::home::Home;
use crate::output::Outcome;
use crate::tools::{Ctx, Suggestion};
use jiff::SignedDuration;
use serde_json::json;

/// An item whose window ends within this many hours is `expiring_item`.
pub const EXPIRING_HOURS: i64 = 24;

/// proactive's own suggestions: items valid now whose window ends within
/// 24 hours. An item with a due date is resolved by `done`; one without by
/// a snooze of a week (which also moves its window on).
pub fn expiring(home: &Home, clock: &Clock) -> Result<Vec<Suggestion>> {
    let now = clock.now();
    let mut list: Vec<_> = items::read(home)?
        .items
        .into_iter()
        .filter(|i| {
            i.is_valid(now) && i.until_at() - now <= SignedDuration::from_hours(EXPIRING_HOURS)
        })
        .collect();
    list.sort_by(super::by_due);
    Ok(list
        .into_iter()
        .map(|item| {
            let until = item.until_at();
            let command = if item.due.is_some() {
                format!("proactive done {}", item.id)
            } else {
                format!(
                    "proactive snooze {} --until {}",
                    item.id,
                    super::stamp(super::clamp(now + days(7)))
                )
            };
            Suggestion {
                kind: "expiring_item".to_string(),
                text: format!(
                    "\"{}\" expires {} ({})",
                    render::one_line(&item.text),
                    render::relative(until, now),
                    render::absolute(until)
                ),
                command,
            }
        })
        .collect())
}

/// `proactive scan [--stale-days N]`.
pub fn run(ctx: &Ctx, stale_days: Option<u64>) -> Result<Outcome> {
    let opened = ctx.home()?;
    // The sources read their settings from the home's config: --stale-days
    // overrides it for this call only.
    let mut home = opened.clone();
    if let Some(days) = stale_days {
        home.config.proactive.stale_days = days;
    }
    let mut suggestions: Vec<Suggestion> = Vec::new();
    let mut failed = Vec::new();
    for (tool, source) in ctx.registry.suggestion_sources() {
        match source(&home, &ctx.clock) {
            Ok(found) => {
                for s in found {
                    if !suggestions.contains(&s) {
                        suggestions.push(s);
                    }
                }
            }
            Err(e) => failed.push(format!(
                "scan: {tool}'s suggestions failed and are left out: {}",
                e.message
            )),
        }
    }
    for warning in home.take_warnings() {
        opened.warn(warning);
    }
    let s = ctx.style;
    let mut text = if suggestions.is_empty() {
        "Nothing to bring up: no stale steps, unscreened skills or expiring items.\n".to_string()
    } else {
        format!(
            "{} suggestion{}:\n",
            suggestions.len(),
            if suggestions.len() == 1 { "" } else { "s" }
        )
    };
    for sug in &suggestions {
        text.push_str(&format!(
            "  {} {}\n    {} {}\n",
            s.yellow("•"),
            sug.text,
            s.dim("→"),
            s.bold(&sug.command)
        ));
    }
    let mut outcome = Outcome::new(json!({ "suggestions": suggestions }), text)
        .with_meta("stale_days", home.config.proactive.stale_days);
    for warning in failed {
        outcome = outcome.with_warning(warning);
    }
    Ok(outcome)
}
