//! Wall-clock access. `AGENTBOX_NOW` (RFC 3339) fixes the clock, so tests and
//! replays are reproducible.

use crate::error::{Error, Result};
use chrono::{DateTime, SecondsFormat, Timelike, Utc};

/// The clock a call runs with: the real one, or the fixed instant from `AGENTBOX_NOW`.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    fixed: Option<DateTime<Utc>>,
}

impl Clock {
    /// Reads `AGENTBOX_NOW`; an unparsable value is `invalid_args`.
    pub fn from_env() -> Result<Clock> {
        match std::env::var("AGENTBOX_NOW") {
            Ok(text) if !text.is_empty() => {
                let fixed = DateTime::parse_from_rfc3339(&text)
                    .map_err(|e| {
                        Error::invalid_args(format!("AGENTBOX_NOW is not an RFC 3339 time: {e}"))
                            .with_hint("use a value like 2026-01-31T09:00:00Z, or unset it")
                            .with_detail("env", "AGENTBOX_NOW")
                    })?
                    .with_timezone(&Utc);
                Ok(Clock { fixed: Some(fixed) })
            }
            _ => Ok(Clock { fixed: None }),
        }
    }

    /// A clock fixed at `at` (what `AGENTBOX_NOW` gives), for library callers and tests.
    pub fn fixed(at: DateTime<Utc>) -> Clock {
        Clock { fixed: Some(at) }
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.fixed.unwrap_or_else(Utc::now)
    }

    /// The current time as stored in documents: RFC 3339, UTC, whole seconds.
    pub fn stamp(&self) -> String {
        stamp_of(self.now())
    }
}

/// The months' English names, January first: what the parsers of times in
/// text share (`proactive`'s "when", search's questions and time words).
pub const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The weekdays' English names, Monday first.
pub const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// A time as documents store it (what [`Clock::stamp`] gives for now): RFC
/// 3339, UTC, whole seconds (a fraction is cut, not rounded). A leap second
/// (`23:59:60`, which chrono accepts at any minute's end) is stored as the
/// second before it: `:60` is not a time most readers of the files accept.
pub fn stamp_of(at: DateTime<Utc>) -> String {
    let at = at
        .with_nanosecond(at.nanosecond() % 1_000_000_000)
        .unwrap_or(at);
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_times_are_whole_seconds_and_never_a_leap_second() {
        let at = |t: &str| DateTime::parse_from_rfc3339(t).unwrap().with_timezone(&Utc);
        assert_eq!(stamp_of(at("2023-05-08T12:30:60Z")), "2023-05-08T12:30:59Z");
        assert_eq!(
            stamp_of(at("2023-05-08T23:59:60+01:00")),
            "2023-05-08T22:59:59Z"
        );
        assert_eq!(
            stamp_of(at("2023-05-08T12:30:05.999+02:00")),
            "2023-05-08T10:30:05Z"
        );
    }
}
