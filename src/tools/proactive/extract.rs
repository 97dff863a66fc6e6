//! Foresight from turns: commitments and deadlines ("I'll send the report by
//! Friday") become items, dated against the turn's own timestamp.

use chrono::{DateTime, Utc};

/// One commitment found in a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub text: String,
    pub due: Option<DateTime<Utc>>,
    pub valid_from: DateTime<Utc>,
    pub valid_until: DateTime<Utc>,
}

/// The commitments in one turn's text (`role` is `user` or `assistant`).
pub fn find(_text: &str, _role: &str, _ts: DateTime<Utc>) -> Vec<Found> {
    Vec::new()
}

/// What `proactive extract` mines.
#[derive(Debug, Clone, Default)]
pub struct ExtractOptions {
    /// `None` or `Some("last")`: after the last extraction; else an RFC 3339
    /// time or a date.
    pub since: Option<String>,
    /// Only these sessions (empty: all).
    pub sessions: Vec<String>,
}

/// `proactive extract`: items from recent episodes. (F2 writes this.)
pub fn run(
    _ctx: &crate::tools::Ctx,
    _opts: &ExtractOptions,
) -> crate::error::Result<crate::output::Outcome> {
    Err(crate::error::Error::invalid_args(
        "proactive extract is being written",
    ))
}
