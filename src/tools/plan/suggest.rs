//! What `proactive scan` brings up about plans: steps `in_progress` that
//! nobody touched for `proactive.stale_days` days (`stale_step`).

use super::storage::load_all;
use super::{PlanStatus, StepStatus};
use crate::clock::Clock;
use crate::clock::{Time, days as day_count};
use crate::error::Result;
use crate::home::Home;
use crate::tools::Suggestion;

/// In-progress steps of active plans whose step was last updated at least
/// `proactive.stale_days` days ago. Plans that do not parse are left to
/// `doctor`.
pub(super) fn stale_steps(home: &Home, clock: &Clock) -> Result<Vec<Suggestion>> {
    let now = clock.now();
    let days = home.config.proactive.stale_days;
    let cutoff = now
        - day_count(
            i64::try_from(days)
                .unwrap_or(i64::MAX / 86_400)
                .min(365_000),
        );
    let (plans, _broken) = load_all(home)?;
    let mut out = Vec::new();
    for (doc, _) in plans {
        if doc.status != PlanStatus::Active {
            continue;
        }
        for (i, step) in doc.steps.iter().enumerate() {
            if step.status != StepStatus::InProgress {
                continue;
            }
            let Some(updated) = parse(&step.updated).or_else(|| parse(&doc.updated)) else {
                continue;
            };
            if updated > cutoff {
                continue;
            }
            let idle = (now - updated).as_secs() / 86_400;
            out.push(Suggestion {
                kind: "stale_step".to_string(),
                text: format!(
                    "Step {} of plan {} (\"{}\") has been in progress for {idle} day{}",
                    i + 1,
                    doc.id,
                    one_line(&step.text),
                    if idle == 1 { "" } else { "s" }
                ),
                command: format!("plan show {}", doc.id),
            });
        }
    }
    Ok(out)
}

fn parse(text: &str) -> Option<Time> {
    Time::parse(text).ok()
}

fn one_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    if line.chars().count() > 80 {
        format!("{}…", line.chars().take(79).collect::<String>())
    } else {
        line.to_string()
    }
}
