//! Wall-clock access. `AGENTBOX_NOW` (RFC 3339) fixes the clock, so tests and
//! replays are reproducible.

use crate::error::{Error, Result};
use chrono::{DateTime, Duration, SecondsFormat, Timelike, Utc};

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

/// Why a text is not a [`parse_duration`] duration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DurationFault {
    /// Not a whole number and a unit (or a number past `i64`).
    Malformed,
    /// A number and a unit, but longer than chrono's durations go.
    OutOfRange,
}

/// A unit of a duration: its spellings, and how a count of it becomes a
/// duration (`None` past chrono's range).
type DurationUnit = (&'static [&'static str], fn(i64) -> Option<Duration>);

/// The units of a duration, each with its spellings.
const DURATION_UNITS: [DurationUnit; 5] = [
    (
        &["s", "sec", "secs", "second", "seconds"],
        Duration::try_seconds,
    ),
    (
        &["m", "min", "mins", "minute", "minutes"],
        Duration::try_minutes,
    ),
    (&["h", "hour", "hours"], Duration::try_hours),
    (&["d", "day", "days"], Duration::try_days),
    (&["w", "week", "weeks"], Duration::try_weeks),
];

/// A duration as `proactive due --within` and `track prune --older-than`
/// take it: a whole number of ASCII digits, optional white space, and a unit
/// (`45s`, `90m`, `90 min`, `2h`, `3 days`, `1w`). Units, lowercase: `s`,
/// `sec(s)`, `second(s)`; `m`, `min(s)`, `minute(s)`; `h`, `hour(s)`; `d`,
/// `day(s)`; `w`, `week(s)`. White space around the whole is ignored.
/// Never panics; callers set their own upper bound.
pub fn parse_duration(text: &str) -> Result<Duration, DurationFault> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .ok_or(DurationFault::Malformed)?;
    let (digits, unit) = text.split_at(split);
    let n: i64 = digits.parse().map_err(|_| DurationFault::Malformed)?;
    let unit = unit.trim_start();
    let (_, make) = DURATION_UNITS
        .iter()
        .find(|(names, _)| names.contains(&unit))
        .ok_or(DurationFault::Malformed)?;
    make(n).ok_or(DurationFault::OutOfRange)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_a_whole_number_and_a_unit() {
        use DurationFault::*;
        let ok = [
            // proactive's spellings
            ("90m", Duration::minutes(90)),
            ("2h", Duration::hours(2)),
            ("3d", Duration::days(3)),
            ("1w", Duration::weeks(1)),
            (" 0d ", Duration::zero()),
            ("90 min", Duration::minutes(90)),
            ("1 mins", Duration::minutes(1)),
            ("5minute", Duration::minutes(5)),
            ("5 minutes", Duration::minutes(5)),
            ("1 hour", Duration::hours(1)),
            ("12hours", Duration::hours(12)),
            ("1 day", Duration::days(1)),
            ("30 days", Duration::days(30)),
            ("2 week", Duration::weeks(2)),
            ("2 weeks", Duration::weeks(2)),
            ("3\td", Duration::days(3)),
            // track's
            ("45s", Duration::seconds(45)),
            ("30d", Duration::days(30)),
            ("007h", Duration::hours(7)),
            ("999999999w", Duration::weeks(999_999_999)),
            // the union
            ("45 secs", Duration::seconds(45)),
            ("1 second", Duration::seconds(1)),
            ("10 seconds", Duration::seconds(10)),
            ("5sec", Duration::seconds(5)),
        ];
        for (text, want) in ok {
            assert_eq!(parse_duration(text), Ok(want), "{text:?}");
        }
        let refused = [
            ("", Malformed),
            ("   ", Malformed),
            ("d", Malformed),
            ("3", Malformed),
            ("3x", Malformed),
            ("3D", Malformed),
            ("3 Days", Malformed),
            ("-1d", Malformed),
            ("+1d", Malformed),
            ("1.5h", Malformed),
            ("3 d x", Malformed),
            ("3dd", Malformed),
            ("３d", Malformed),
            ("99999999999999999999d", Malformed),
            ("9223372036854775807w", OutOfRange),
            ("9223372036854775807s", OutOfRange),
        ];
        for (text, why) in refused {
            assert_eq!(parse_duration(text), Err(why), "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn parse_duration_never_panics(text in "\\PC{0,24}") {
            let _ = parse_duration(&text);
        }

        #[test]
        fn durations_round_trip(
            n in 0i64..1_000_000_000,
            unit in 0usize..DURATION_UNITS.len(),
            spelling in 0usize..5,
            space in "[ \t]{0,2}",
            pad in " {0,2}",
        ) {
            let (names, make) = DURATION_UNITS[unit];
            let name = names[spelling % names.len()];
            let text = format!("{pad}{n}{space}{name}{pad}");
            proptest::prop_assert_eq!(parse_duration(&text), Ok(make(n).unwrap()));
        }
    }

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
