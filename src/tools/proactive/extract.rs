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
