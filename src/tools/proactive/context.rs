//! `mem_context`'s `Foresight` section: the proactive items valid now.

use super::{items, render};
use crate::clock::Clock;
use crate::error::Result;
use crate::home::Home;
use crate::tools::ContextSection;

/// The most foresight items `mem_context` shows: the soonest due. An agent
/// needs what is coming up, not the whole list.
const FORESIGHT_ITEMS: usize = 20;

/// The `Foresight` section.
pub fn context_sections(home: &Home, clock: &Clock) -> Result<Vec<ContextSection>> {
    Ok(vec![ContextSection {
        heading: "Foresight",
        share: 20,
        body: foresight(home, clock),
    }])
}

/// The proactive items valid now, due soonest first (then, without a due
/// time, by the end of their window): expired, dismissed, done and snoozed
/// items never appear. `foresight.jsonl` is read once per call.
fn foresight(home: &Home, clock: &Clock) -> String {
    let now = clock.now();
    // A damaged foresight file must not cost the agent its matches.
    let items = match items::read(home) {
        Ok(items) => items.items,
        Err(err) => return format!("(unreadable: {} — {})\n", err.message, err.hint),
    };
    let valid: Vec<_> = items
        .into_iter()
        .filter(|item| item.is_valid(now))
        .collect();
    if valid.is_empty() {
        return "(none)\n".to_string();
    }
    // Each time is parsed once (a comparison sort would parse them over
    // and over); the index keeps the file's order on ties.
    let mut keyed: Vec<_> = valid
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            (
                (item.due_at().is_none(), item.due_at(), item.until_at(), i),
                item,
            )
        })
        .collect();
    keyed.sort_unstable_by_key(|(key, _)| *key);
    let total = keyed.len();
    let redactor = home.store.redactor();
    let mut out: String = keyed
        .iter()
        .take(FORESIGHT_ITEMS)
        .map(|(_, item)| render::bullet(item, now, redactor))
        .collect();
    if total > FORESIGHT_ITEMS {
        out.push_str(&format!(
            "- … and {} more (`proactive due` or `proactive list` shows them)\n",
            total - FORESIGHT_ITEMS
        ));
    }
    out
}
