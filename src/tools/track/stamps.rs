//! The time a turn was said, when the caller knows it: a message's
//! `timestamp`, `record --at`, an odek event's `timestamp`. One set of rules
//! for all three: RFC 3339 with any offset, stored in UTC whole seconds as
//! the clock's own stamps are, not before 1970 and not in the future.

use crate::clock::Time;
use crate::error::Error;
use jiff::SignedDuration;
use serde_json::Value;

/// How far past the clock a said time may lie: the clocks of the hosts that
/// send turns drift a little from this one's.
pub const MAX_SKEW: SignedDuration = SignedDuration::from_mins(5);

/// The form to use, for hints.
const FORMAT: &str = "RFC 3339 in UTC or with an offset, like 2023-05-08T13:56:00Z or \
                      2023-05-08T15:56:00+02:00";

/// Why a said time is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    NotRfc3339,
    /// Before 1970-01-01T00:00:00Z: a placeholder or a typo, never a turn.
    BeforeEpoch,
    /// Over [`MAX_SKEW`] after `now`, the clock's time.
    Future {
        now: Time,
    },
}

impl Refused {
    /// What is wrong, to follow the name of the field and its value.
    pub fn problem(self) -> String {
        match self {
            Refused::NotRfc3339 => "is not an RFC 3339 time".to_string(),
            Refused::BeforeEpoch => "is before 1970".to_string(),
            Refused::Future { now } => format!(
                "is in the future: more than {} minutes past the clock ({})",
                MAX_SKEW.as_mins(),
                crate::clock::stamp_of(now)
            ),
        }
    }

    /// What to do about it.
    pub fn hint(self) -> String {
        match self {
            Refused::NotRfc3339 => format!("give the time the turn was said as {FORMAT}"),
            Refused::BeforeEpoch => {
                format!("give the time the turn was said, 1970 or later, as {FORMAT}")
            }
            Refused::Future { now } => format!(
                "the clock says {} and allows {} minutes of drift: check the date and the \
                 offset ({FORMAT}), or leave the time out to take the clock's",
                crate::clock::stamp_of(now),
                MAX_SKEW.as_mins()
            ),
        }
    }

    /// `invalid_args` naming `what` (`messages[3].timestamp`, `--at`) and the
    /// value; the caller adds the detail that locates it (`field`, `flag`).
    pub fn error(self, what: &str, value: &str) -> Error {
        // A time is short: a long value is shown by its start, not echoed.
        const SHOWN: usize = 64;
        let shown = match value.char_indices().nth(SHOWN) {
            Some((end, _)) => format!("{}…", &value[..end]),
            None => value.to_string(),
        };
        Error::invalid_args(format!("{what} {} {}", Value::from(shown), self.problem()))
            .with_hint(self.hint())
    }
}

/// Parses a said time: RFC 3339 with any offset, to UTC (the fraction is
/// kept; [`crate::clock::stamp_of`] cuts it when the time is stored).
pub fn parse(text: &str) -> Result<Time, Refused> {
    let at = Time::parse(text).map_err(|_| Refused::NotRfc3339)?;
    check_range(at)?;
    Ok(at)
}

/// Refuses a time before 1970 (what [`parse`] checks, for times built by a
/// library caller).
pub fn check_range(at: Time) -> Result<(), Refused> {
    if at < Time::UNIX_EPOCH {
        return Err(Refused::BeforeEpoch);
    }
    Ok(())
}

/// Refuses a time more than [`MAX_SKEW`] after `now`.
pub fn check_not_future(at: Time, now: Time) -> Result<(), Refused> {
    if now.checked_add(MAX_SKEW).is_some_and(|last| at > last) {
        return Err(Refused::Future { now });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Time {
        Time::parse(text).unwrap()
    }

    #[test]
    fn times_are_read_in_utc_and_bounded() {
        assert_eq!(
            parse("2023-05-08T15:56:00+02:00"),
            Ok(at("2023-05-08T13:56:00Z"))
        );
        assert_eq!(parse("1970-01-01T00:00:00Z"), Ok(Time::UNIX_EPOCH));
        assert_eq!(
            parse("1970-01-01T00:30:00+01:00"),
            Err(Refused::BeforeEpoch)
        );
        for bad in [
            "",
            "2023-05-08",
            "2023-05-08 13:56:00",
            "May 8",
            "2023-05-08T13:56:00",
        ] {
            assert_eq!(parse(bad), Err(Refused::NotRfc3339), "{bad}");
        }
        let now = at("2026-01-15T09:30:00Z");
        assert_eq!(check_not_future(at("2026-01-15T09:35:00Z"), now), Ok(()));
        assert_eq!(
            check_not_future(at("2026-01-15T09:35:01Z"), now),
            Err(Refused::Future { now })
        );
        assert_eq!(check_not_future(at("2023-01-01T00:00:00Z"), now), Ok(()));
        let message = Refused::Future { now }
            .error("--at", "2027-01-01T00:00:00Z")
            .message;
        assert_eq!(
            message,
            "--at \"2027-01-01T00:00:00Z\" is in the future: more than 5 minutes past the clock (2026-01-15T09:30:00Z)"
        );
    }
}
