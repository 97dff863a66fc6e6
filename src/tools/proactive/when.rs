//! WHEN: the times people type (`2026-12-04`, `friday`, `in 3 days`…),
//! resolved in the local time zone against the clock.
//!
//! The grammar is small and strict (a hand-written parser over jiff's civil
//! dates, with its bundled IANA database for `TZ` names); docs/tools/proactive.md ("## WHEN") lists it and
//! what it does not cover. Natural-language crates were evaluated (interim,
//! the maintained successor of chrono-english): they return one instant, not
//! the span a day names, have no `end of month`/`this week`/`tonight`, and
//! guess on input they half understand, so the parser here stays strict and
//! rejects what it cannot read exactly.
//!
//! Spans: a day runs from its local midnight to the last second before the
//! next local midnight (`end` is inclusive: an item valid "until friday" is
//! still valid at 23:59:59 Friday). An instant has `start == end`.

use crate::clock::{Time, date_from, days};
use crate::error::{Error, Result};
use jiff::civil::{self, Date, Weekday};
use jiff::tz::{AmbiguousOffset, TimeZone};
use jiff::{SignedDuration, Span};

/// What a WHEN names: the span it covers. An instant has `start == end`;
/// a day ("friday") runs from its local midnight to the last second before
/// the next one (`end` is inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct When {
    pub start: Time,
    pub end: Time,
}

/// The local time zone WHENs are read in.
///
/// Named zones come from jiff's bundled copy of the IANA database, not
/// chrono-tz: chrono-tz compiles every zone into tables of pointers, and
/// the loader relocated those 33,000 pointers at the start of every call of
/// every tool (docs/PERFORMANCE.md, "Start-up: plain calls").
#[derive(Debug, Clone, PartialEq)]
pub enum Zone {
    /// An IANA zone from the embedded database (independent of the machine's tzdata).
    Named(TimeZone),
    /// The machine's zone: a POSIX `TZ` rule or file, else /etc/localtime; UTC without either.
    Local,
}

impl Zone {
    /// `TZ` when it names an IANA zone (`Europe/Paris`, `:Asia/Kolkata`, `UTC`),
    /// else the machine's zone.
    pub fn from_env() -> Zone {
        match std::env::var("TZ") {
            Ok(name) => Zone::named(&name).unwrap_or(Zone::Local),
            Err(_) => Zone::Local,
        }
    }

    /// An IANA zone by name (a leading `:` is allowed, as in `TZ`).
    pub fn named(name: &str) -> Option<Zone> {
        let name = name.trim().trim_start_matches(':');
        if name.is_empty() {
            return None;
        }
        jiff::tz::db().get(name).ok().map(Zone::Named)
    }

    /// `t` as a person reads it in this zone: `Fri 2026-01-16 23:59`.
    pub fn show(&self, t: Time) -> String {
        wall_at(&self.rules(), t).format("%a %Y-%m-%d %H:%M")
    }

    /// The zone's rules: the named zone's, or the machine's.
    fn rules(&self) -> Rules {
        match self {
            Zone::Named(tz) => Rules {
                tz: tz.clone(),
                machine: false,
            },
            Zone::Local => Rules {
                tz: local_zone(),
                machine: true,
            },
        }
    }
}

/// A zone's rules, and how they read times past jiff's (9999-12-30T22:00Z,
/// which only the last day of 9999 reaches), as WHEN always has: a named
/// zone at the epoch's offset for an instant and as UTC for a wall clock,
/// the machine's zone at its offset of that last day.
struct Rules {
    tz: TimeZone,
    machine: bool,
}

impl Rules {
    /// The offset at `t` (see [`Rules`] past jiff's instants).
    fn offset(&self, t: Time) -> SignedDuration {
        let at = match jiff::Timestamp::from_second(t.as_second()) {
            Ok(at) => at,
            Err(_) if self.machine => jiff::Timestamp::MAX,
            Err(_) => jiff::Timestamp::UNIX_EPOCH,
        };
        SignedDuration::from_secs(i64::from(self.tz.to_offset(at).seconds()))
    }
}

/// The machine's zone: `TZ` (a POSIX rule, a TZif file, a name), else
/// /etc/localtime. An unusable `TZ` falls back to /etc/localtime, and that
/// to UTC.
fn local_zone() -> TimeZone {
    let tz = std::env::var_os("TZ");
    tz.as_deref()
        .is_none_or(tz_file_is_readable)
        .then(|| TimeZone::try_system().ok())
        .flatten()
        .or_else(|| {
            let tzif = std::fs::read("/etc/localtime").ok()?;
            TimeZone::tzif("Local", &tzif).ok()
        })
        .unwrap_or(TimeZone::UTC)
}

/// The largest TZif file a `TZ` may name (the largest zone of the IANA
/// database is a few KB).
const MAX_TZIF_BYTES: u64 = 1 << 20;

/// Whether jiff may read the file `TZ` names: a path that exists (after an
/// optional `:`, relative to the working directory as jiff reads it) must
/// be a regular file of at most [`MAX_TZIF_BYTES`]. jiff reads it whole,
/// so a FIFO no one writes would block every WHEN, and /dev/zero fill the
/// memory. A POSIX rule or a zone name names no file and passes.
fn tz_file_is_readable(tz: &std::ffi::OsStr) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let bytes = tz.as_bytes();
    let path = bytes.strip_prefix(b":").unwrap_or(bytes);
    if path.is_empty() {
        return true;
    }
    match std::fs::metadata(std::ffi::OsStr::from_bytes(path)) {
        Ok(meta) => meta.is_file() && meta.len() <= MAX_TZIF_BYTES,
        Err(_) => true,
    }
}

/// The wall clock in `tz` at `t`, held as a [`Time`] (the reading as if it
/// were UTC), so the day after 9999-12-31 still has a midnight.
fn wall_at(zone: &Rules, t: Time) -> Time {
    t + zone.offset(t)
}

/// The instants the wall clock `wall` names in `tz`.
enum Instants {
    Single(Time),
    /// A fall-back overlap: the earlier instant.
    Ambiguous(Time),
    /// A spring-forward gap (or a wall clock past jiff's years).
    None,
}

fn instants(zone: &Rules, wall: Time) -> Instants {
    let at =
        |offset: jiff::tz::Offset| wall - SignedDuration::from_secs(i64::from(offset.seconds()));
    let civil = wall.utc();
    // Past jiff's years `utc` stops at the last: see [`Rules`].
    if Time::from_utc(civil) != wall {
        return if zone.machine {
            Instants::Single(wall - zone.offset(wall))
        } else {
            Instants::None
        };
    }
    let civil = civil.with().subsec_nanosecond(0).build().unwrap_or(civil);
    match zone.tz.to_ambiguous_timestamp(civil).offset() {
        AmbiguousOffset::Unambiguous { offset } => Instants::Single(at(offset)),
        AmbiguousOffset::Fold { before, after } => Instants::Ambiguous(at(before).min(at(after))),
        AmbiguousOffset::Gap { .. } => Instants::None,
    }
}

/// The forms a WHEN may take, for hints.
pub const ACCEPTED: &str = "accepted: an RFC 3339 time (2026-03-12T17:00:00Z), a date \
(2026-03-12, 12 March, March 12 2027, the 15th), now, today, tonight, tomorrow, yesterday, \
a weekday (friday, next friday, this friday), this/next week, this/next month, end of \
day/week/month/year, in 3 days / 2 weeks / 4 hours / 30 minutes / 1 month, 3 days ago, \
and a day with a clock time (friday 17:00, tomorrow at 9am)";

/// Resolves `input` against `now` in the zone from `TZ` ([`Zone::from_env`]).
pub fn resolve(input: &str, now: Time) -> Result<When> {
    resolve_in(input, now, &Zone::from_env())
}

/// Resolves `input` against `now` in `zone`.
pub fn resolve_in(input: &str, now: Time, zone: &Zone) -> Result<When> {
    let found = read(input, now, &zone.rules());
    // Years 1970 to 9999 only: RFC 3339 cannot write a later year, and
    // earlier ones are not covered (see docs/tools/proactive.md).
    let found = found.filter(|w| w.start.year() >= 1970 && w.end.year() <= 9999);
    found.ok_or_else(|| {
        let shown: String = input.chars().take(80).collect();
        Error::invalid_args(format!("cannot read {shown:?} as a time"))
            .with_hint(ACCEPTED)
            .with_detail("input", shown)
    })
}

/// A day-granular span or an instant, before it becomes UTC.
enum Named {
    /// Whole local days, `first..=last`.
    Days(Date, Date),
    /// A part of one local day: `[from, to)`; `to == None` runs to the day's end.
    Part(Date, civil::Time, Option<civil::Time>),
    Instant(Time),
    /// A local wall time (`in 3 days` keeps the time of day).
    Wall(civil::DateTime),
}

fn read(input: &str, now: Time, zone: &Rules) -> Option<When> {
    let trimmed = input.trim();
    if trimmed.is_empty() || trimmed.len() > 200 {
        return None;
    }
    if let Ok(at) = Time::parse(trimmed) {
        return Some(When { start: at, end: at });
    }
    let local_now = wall_at(zone, now).utc();
    // A local date and time without an offset: `2026-03-12T17:00`, `2026-03-12 17:00`.
    if let Some(at) = crate::clock::parse_local(trimmed) {
        let at = local(zone, at.date(), at.time());
        return Some(When { start: at, end: at });
    }
    let lower = trimmed.to_lowercase().replace(',', " ");
    let words: Vec<&str> = lower.split_whitespace().collect();
    let named = phrase(&words, local_now, now, zone)?;
    Some(match named {
        Named::Instant(at) => When { start: at, end: at },
        Named::Wall(t) => {
            let at = local(zone, t.date(), t.time());
            When { start: at, end: at }
        }
        Named::Days(first, last) => When {
            start: day_start(zone, first),
            end: day_end(zone, last),
        },
        Named::Part(day, from, to) => When {
            start: local(zone, day, from),
            end: match to {
                Some(to) => local(zone, day, to) - SignedDuration::from_secs(1),
                None => day_end(zone, day),
            },
        },
    })
}

/// A whole phrase: a day phrase, optionally with a clock time
/// (`friday 17:00`, `tomorrow at 9am`, `at 5pm`, `17:00 friday`).
fn phrase(words: &[&str], local_now: civil::DateTime, now: Time, zone: &Rules) -> Option<Named> {
    if words.is_empty() {
        return None;
    }
    let words = match words {
        ["on", rest @ ..] if !rest.is_empty() => rest,
        _ => words,
    };
    if let Some(named) = day_phrase(words, local_now, now) {
        return Some(named);
    }
    // Split off a clock time at the end (`… [at] 5pm`, `… 5 pm`) or the start.
    for take in [1usize, 2] {
        if words.len() < take {
            continue;
        }
        let (head, tail) = words.split_at(words.len() - take);
        let Some(time) = clock(&tail.join(" ")) else {
            continue;
        };
        let head = match head {
            [rest @ .., "at"] => rest,
            _ => head,
        };
        return at_time(head, time, local_now, now, zone);
    }
    for take in [1usize, 2] {
        if words.len() <= take {
            continue;
        }
        let (head, tail) = words.split_at(take);
        let head = match head {
            ["at", rest @ ..] => rest,
            _ => head,
        };
        if let Some(time) = clock(&head.join(" ")) {
            return at_time(tail, time, local_now, now, zone);
        }
    }
    None
}

/// The clock time `time` on the single day `head` names (today when `head` is empty).
fn at_time(
    head: &[&str],
    time: civil::Time,
    local_now: civil::DateTime,
    now: Time,
    zone: &Rules,
) -> Option<Named> {
    let day = if head.is_empty() {
        local_now.date()
    } else {
        match day_phrase(head, local_now, now)? {
            Named::Days(first, last) if first == last => first,
            Named::Part(day, _, _) => day,
            // `in 3 days at 5pm`: the day that offset lands on.
            Named::Wall(t) => t.date(),
            _ => return None,
        }
    };
    Some(Named::Instant(local(zone, day, time)))
}

fn day_phrase(words: &[&str], local_now: civil::DateTime, now: Time) -> Option<Named> {
    let today = local_now.date();
    let one = |d: Date| Some(Named::Days(d, d));
    let after = |d: Date, n: i64| d.checked_add(days(n)).ok();
    let monday = today
        .checked_sub(days(i64::from(today.weekday().to_monday_zero_offset())))
        .ok()?;
    match words {
        ["now"] => return Some(Named::Instant(now)),
        ["today"] | ["end", "of", "day"] | ["end", "of", "today"] | ["eod"] => return one(today),
        ["tomorrow"] => return one(today.tomorrow().ok()?),
        ["yesterday"] => return one(today.yesterday().ok()?),
        ["tonight"] => return Some(Named::Part(today, hm(18, 0), None)),
        ["this", "week"] => {
            return Some(Named::Days(monday, after(monday, 6)?));
        }
        ["next", "week"] => {
            let start = after(monday, 7)?;
            return Some(Named::Days(start, after(start, 6)?));
        }
        ["end", "of", "week"] | ["end", "of", "the", "week"] | ["end", "of", "this", "week"] => {
            return one(after(monday, 6)?);
        }
        ["end", "of", "next", "week"] => return one(after(monday, 13)?),
        ["this" | "the", "weekend"] | ["weekend"] => {
            let sat = next_weekday(today, Weekday::Saturday, true);
            let sat = if today.weekday() == Weekday::Sunday {
                today.yesterday().ok()?
            } else {
                sat?
            };
            return Some(Named::Days(sat, sat.tomorrow().ok()?));
        }
        ["this", "month"] => {
            let first = today.first_of_month();
            return Some(Named::Days(first, first.last_of_month()));
        }
        ["next", "month"] => {
            let first = next_month(today)?;
            return Some(Named::Days(first, first.last_of_month()));
        }
        ["end", "of", "month"] | ["end", "of", "the", "month"] | ["end", "of", "this", "month"] => {
            return one(today.last_of_month());
        }
        ["end", "of", "next", "month"] => {
            return one(next_month(today)?.last_of_month());
        }
        ["end", "of", "year"] | ["end", "of", "the", "year"] | ["end", "of", "this", "year"] => {
            return one(date_from(i32::from(today.year()), 12, 31)?);
        }
        ["next", "year"] => {
            return Some(Named::Days(
                date_from(i32::from(today.year()) + 1, 1, 1)?,
                date_from(i32::from(today.year()) + 1, 12, 31)?,
            ));
        }
        _ => {}
    }
    // Parts of a day: `tomorrow morning`, `friday evening`, `this afternoon`.
    if let [head @ .., last] = words
        && let Some((from, to)) = day_part(last)
        && !head.is_empty()
    {
        let day = match head {
            ["this"] => today,
            _ => match day_phrase(head, local_now, now)? {
                Named::Days(first, last) if first == last => first,
                _ => return None,
            },
        };
        return Some(Named::Part(day, from, to));
    }
    // Weekdays: `friday` and `next friday` are the next one after today;
    // `this friday` may be today.
    match words {
        [w] | ["next", w] if weekday(w).is_some() => {
            return one(next_weekday(today, weekday(w)?, false)?);
        }
        ["this", w] if weekday(w).is_some() => return one(next_weekday(today, weekday(w)?, true)?),
        _ => {}
    }
    if let Some(named) = offset(words, local_now, now) {
        return Some(named);
    }
    date(words, today).map(|d| Named::Days(d, d))
}

/// `in 3 days`, `3 days`, `in a week`, `2 hours ago`: minutes and hours are
/// exact durations; days, weeks and months keep the local wall time
/// (`in 1 day` across a DST change is 23 or 25 hours away).
fn offset(words: &[&str], local_now: civil::DateTime, now: Time) -> Option<Named> {
    let (sign, words) = match words {
        ["in", rest @ ..] => (1i64, rest),
        [rest @ .., "ago"] => (-1, rest),
        _ => (1, words),
    };
    // `a couple of days` is two.
    let words: &[&str] = match words {
        ["a", "couple", "of", unit] => return offset_by(2, sign, unit, local_now, now),
        _ => words,
    };
    let [count, unit] = words else {
        return None;
    };
    offset_by(number(count)?, sign, unit, local_now, now)
}

fn offset_by(
    n: i64,
    sign: i64,
    unit: &str,
    local_now: civil::DateTime,
    now: Time,
) -> Option<Named> {
    let signed = sign.checked_mul(n)?;
    let unit = unit.trim_end_matches('s');
    match unit {
        "minute" | "min" => Some(Named::Instant(
            now.checked_add(SignedDuration::from_secs(signed.checked_mul(60)?))?,
        )),
        "hour" | "hr" | "h" => Some(Named::Instant(
            now.checked_add(SignedDuration::from_secs(signed.checked_mul(3600)?))?,
        )),
        "day" => wall(local_now.checked_add(days(signed)).ok()?),
        "week" | "wk" => wall(local_now.checked_add(days(signed.checked_mul(7)?)).ok()?),
        "month" => wall(
            local_now
                .checked_add(Span::new().try_months(signed).ok()?)
                .ok()?,
        ),
        "year" | "yr" => wall(
            local_now
                .checked_add(Span::new().try_months(signed.checked_mul(12)?).ok()?)
                .ok()?,
        ),
        _ => None,
    }
}

fn wall(t: civil::DateTime) -> Option<Named> {
    Some(Named::Wall(t.with().subsec_nanosecond(0).build().ok()?))
}

/// `12 march`, `march 12`, `12th of march`, `march 12 2027`, `2026-03-12`,
/// `the 15th`: the next such day, today included, when no year is given.
fn date(words: &[&str], today: Date) -> Option<Date> {
    match words {
        [iso] => crate::clock::parse_date(iso),
        ["the", d] => {
            let day = ordinal(d)?;
            let mut first = today.first_of_month();
            for _ in 0..3 {
                if let Some(candidate) = date_from(i32::from(first.year()), month_of(first), day)
                    && candidate >= today
                {
                    return Some(candidate);
                }
                first = next_month(first)?;
            }
            None
        }
        [d, "of", m] | [d, m] | [m, d] if month(m).is_some() && ordinal(d).is_some() => {
            upcoming(today, month(m)?, ordinal(d)?)
        }
        [d, "of", m, y] | [d, m, y] | [m, d, y] if month(m).is_some() && ordinal(d).is_some() => {
            let year = y
                .parse::<i32>()
                .ok()
                .filter(|y| (1970..=9999).contains(y))?;
            date_from(year, month(m)?, ordinal(d)?)
        }
        _ => None,
    }
}

/// The next `month`/`day` on or after `today` (this year or the next).
fn upcoming(today: Date, month: u32, day: u32) -> Option<Date> {
    let this = i32::from(today.year());
    for year in [this, this + 1] {
        if let Some(d) = date_from(year, month, day)
            && d >= today
        {
            return Some(d);
        }
    }
    // 29 February: the next leap year.
    (this + 2..this + 9).find_map(|y| date_from(y, month, day))
}

/// The next `want` after `today` (or today, when `today_counts`); `None` past 9999.
fn next_weekday(today: Date, want: Weekday, today_counts: bool) -> Option<Date> {
    let ahead = (7 + want.to_monday_zero_offset() - today.weekday().to_monday_zero_offset()) % 7;
    let ahead = if ahead == 0 && !today_counts {
        7
    } else {
        ahead
    };
    today.checked_add(days(i64::from(ahead))).ok()
}

/// The first day of the month after `day`'s; `None` past 9999.
fn next_month(day: Date) -> Option<Date> {
    day.first_of_month().checked_add(Span::new().months(1)).ok()
}

fn month_of(day: Date) -> u32 {
    u32::from(day.month().unsigned_abs())
}

fn hm(h: i8, m: i8) -> civil::Time {
    civil::Time::new(h, m, 0, 0).expect("a valid clock time")
}

fn day_part(word: &str) -> Option<(civil::Time, Option<civil::Time>)> {
    match word {
        "morning" => Some((hm(6, 0), Some(hm(12, 0)))),
        "afternoon" => Some((hm(12, 0), Some(hm(18, 0)))),
        "evening" | "night" => Some((hm(18, 0), None)),
        _ => None,
    }
}

/// `17:00`, `9:30`, `9am`, `9 am`, `5:30pm`, `noon`, `midnight`.
fn clock(text: &str) -> Option<civil::Time> {
    match text {
        "noon" | "midday" => return Some(hm(12, 0)),
        "midnight" => return Some(hm(0, 0)),
        _ => {}
    }
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (body, meridiem) = if let Some(b) = compact.strip_suffix("am") {
        (b, Some(false))
    } else if let Some(b) = compact.strip_suffix("pm") {
        (b, Some(true))
    } else {
        (compact.as_str(), None)
    };
    let (h, m) = match body.split_once(':') {
        Some((h, m)) if m.len() == 2 => (h, m),
        Some(_) => return None,
        None if meridiem.is_some() => (body, "00"),
        None => return None,
    };
    if h.is_empty() || h.len() > 2 || !h.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !m.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (mut h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
    match meridiem {
        Some(pm) => {
            if !(1..=12).contains(&h) {
                return None;
            }
            h = match (h, pm) {
                (12, false) => 0,
                (12, true) => 12,
                (h, true) => h + 12,
                (h, false) => h,
            };
        }
        None if h > 23 => return None,
        None => {}
    }
    civil::Time::new(i8::try_from(h).ok()?, i8::try_from(m).ok()?, 0, 0).ok()
}

fn number(word: &str) -> Option<i64> {
    let n = match word {
        "a" | "an" | "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        "fifteen" => 15,
        "twenty" => 20,
        "thirty" => 30,
        _ if !word.is_empty() && word.len() <= 6 && word.bytes().all(|b| b.is_ascii_digit()) => {
            word.parse().ok()?
        }
        _ => return None,
    };
    Some(n)
}

/// `12`, `12th`, `1st`, `2nd`, `3rd` (1–31).
fn ordinal(word: &str) -> Option<u32> {
    let digits = ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|s| word.strip_suffix(s))
        .unwrap_or(word);
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|d| (1..=31).contains(d))
}

fn month(word: &str) -> Option<u32> {
    let word = word.trim_end_matches('.');
    crate::clock::MONTHS
        .iter()
        .position(|m| {
            *m == word
                || (word.len() >= 3 && m.starts_with(word) && (word.len() == 3 || word == "sept"))
        })
        .and_then(|i| u32::try_from(i + 1).ok())
}

fn weekday(word: &str) -> Option<Weekday> {
    let word = word.trim_end_matches('.');
    // The full name or a prefix of three letters or more (`wed`, `thurs`).
    let i = crate::clock::WEEKDAYS
        .iter()
        .position(|long| word.len() >= 3 && long.starts_with(word))?;
    Weekday::from_monday_zero_offset(i8::try_from(i).ok()?).ok()
}

/// Local midnight of `day` as UTC (the first existing instant of the day
/// when midnight falls in a DST gap).
fn day_start(zone: &Rules, day: Date) -> Time {
    local(zone, day, civil::Time::midnight())
}

/// The last second of local day `day`: a second before the next local
/// midnight (which after 9999-12-31 is read as UTC, jiff's zones ending there).
fn day_end(zone: &Rules, day: Date) -> Time {
    local_wall(zone, Time::at_midnight(day) + days(1)) - SignedDuration::from_secs(1)
}

/// A local wall time as UTC: the earlier of two in a fall-back overlap, the
/// first existing minute after it in a spring-forward gap.
fn local(zone: &Rules, day: Date, time: civil::Time) -> Time {
    local_wall(zone, Time::from_utc(day.to_datetime(time)))
}

/// [`local`] for a wall clock held as a [`Time`] (see [`wall_at`]); a wall
/// clock no instant has within four hours is read as UTC.
fn local_wall(zone: &Rules, wall: Time) -> Time {
    for step in 0..=(4 * 60) {
        let probe = wall + SignedDuration::from_mins(step);
        match instants(zone, probe) {
            Instants::Single(t) | Instants::Ambiguous(t) => return t,
            Instants::None => {}
        }
    }
    wall
}

#[cfg(test)]
mod tests {
    use super::tz_file_is_readable;
    use std::ffi::OsStr;

    #[test]
    fn only_a_small_regular_file_named_by_tz_is_read() {
        for tz in ["/dev/zero", ":/dev/zero", "/dev/null", "/tmp", ":/", "."] {
            assert!(!tz_file_is_readable(OsStr::new(tz)), "{tz}");
        }
        let big = std::env::temp_dir().join(format!("agentbox-tz-{}", std::process::id()));
        std::fs::write(&big, vec![0u8; (super::MAX_TZIF_BYTES + 1) as usize]).unwrap();
        assert!(!tz_file_is_readable(big.as_os_str()));
        std::fs::write(&big, b"TZif").unwrap();
        assert!(tz_file_is_readable(big.as_os_str()));
        std::fs::remove_file(&big).unwrap();
        for tz in [
            "",
            ":",
            "America/New_York",
            "EST5EDT,M3.2.0,M11.1.0",
            "UTC",
            "/no/such/zone",
        ] {
            assert!(tz_file_is_readable(OsStr::new(tz)), "{tz}");
        }
    }
}
