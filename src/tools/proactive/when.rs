//! WHEN: the times people type (`2026-12-04`, `friday`, `in 3 days`…),
//! resolved in the local time zone against the clock.
//!
//! The grammar is small and strict (a hand-written parser over chrono, with
//! jiff's bundled IANA database for `TZ` names); docs/tools/proactive.md ("## WHEN") lists it and
//! what it does not cover. Natural-language crates were evaluated (interim,
//! the maintained successor of chrono-english): they return one instant, not
//! the span a day names, have no `end of month`/`this week`/`tonight`, and
//! guess on input they half understand, so the parser here stays strict and
//! rejects what it cannot read exactly.
//!
//! Spans: a day runs from its local midnight to the last second before the
//! next local midnight (`end` is inclusive: an item valid "until friday" is
//! still valid at 23:59:59 Friday). An instant has `start == end`.

use crate::error::{Error, Result};
use chrono::{
    DateTime, Datelike, Duration, LocalResult, Months, NaiveDate, NaiveDateTime, NaiveTime,
    TimeZone, Timelike, Utc, Weekday,
};
use jiff::tz::AmbiguousOffset;

/// What a WHEN names: the span it covers. An instant has `start == end`;
/// a day ("friday") runs from its local midnight to the last second before
/// the next one (`end` is inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct When {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
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
    Named(jiff::tz::TimeZone),
    /// The machine's zone (chrono's `Local`: a POSIX `TZ` rule or /etc/localtime; UTC without either).
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
    pub fn show(&self, t: DateTime<Utc>) -> String {
        let format = "%a %Y-%m-%d %H:%M";
        match self {
            Zone::Named(tz) => tz.wall(t).format(format).to_string(),
            Zone::Local => chrono::Local.wall(t).format(format).to_string(),
        }
    }
}

/// What reading a WHEN needs of a zone: the wall clock at an instant, and
/// the instants a wall clock names (none in a gap, two in an overlap).
trait Wall {
    fn wall(&self, t: DateTime<Utc>) -> NaiveDateTime;
    fn instants(&self, wall: &NaiveDateTime) -> LocalResult<DateTime<Utc>>;
}

impl Wall for chrono::Local {
    fn wall(&self, t: DateTime<Utc>) -> NaiveDateTime {
        t.with_timezone(self).naive_local()
    }

    fn instants(&self, wall: &NaiveDateTime) -> LocalResult<DateTime<Utc>> {
        self.from_local_datetime(wall)
            .map(|t| t.with_timezone(&Utc))
    }
}

impl Wall for jiff::tz::TimeZone {
    fn wall(&self, t: DateTime<Utc>) -> NaiveDateTime {
        let offset =
            self.to_offset(jiff::Timestamp::from_second(t.timestamp()).unwrap_or_default());
        t.naive_utc() + Duration::seconds(i64::from(offset.seconds()))
    }

    fn instants(&self, wall: &NaiveDateTime) -> LocalResult<DateTime<Utc>> {
        let at = |offset: jiff::tz::Offset| {
            Utc.from_utc_datetime(&(*wall - Duration::seconds(i64::from(offset.seconds()))))
        };
        let Ok(civil) = jiff::civil::DateTime::new(
            i16::try_from(wall.year()).unwrap_or(i16::MAX),
            wall.month() as i8,
            wall.day() as i8,
            wall.hour() as i8,
            wall.minute() as i8,
            wall.second() as i8,
            0,
        ) else {
            return LocalResult::None;
        };
        match self.to_ambiguous_timestamp(civil).offset() {
            AmbiguousOffset::Unambiguous { offset } => LocalResult::Single(at(offset)),
            AmbiguousOffset::Fold { before, after } => {
                let (a, b) = (at(before), at(after));
                LocalResult::Ambiguous(a.min(b), a.max(b))
            }
            AmbiguousOffset::Gap { .. } => LocalResult::None,
        }
    }
}

/// The forms a WHEN may take, for hints.
pub const ACCEPTED: &str = "accepted: an RFC 3339 time (2026-03-12T17:00:00Z), a date \
(2026-03-12, 12 March, March 12 2027, the 15th), now, today, tonight, tomorrow, yesterday, \
a weekday (friday, next friday, this friday), this/next week, this/next month, end of \
day/week/month/year, in 3 days / 2 weeks / 4 hours / 30 minutes / 1 month, 3 days ago, \
and a day with a clock time (friday 17:00, tomorrow at 9am)";

/// Resolves `input` against `now` in the zone from `TZ` ([`Zone::from_env`]).
pub fn resolve(input: &str, now: DateTime<Utc>) -> Result<When> {
    resolve_in(input, now, &Zone::from_env())
}

/// Resolves `input` against `now` in `zone`.
pub fn resolve_in(input: &str, now: DateTime<Utc>, zone: &Zone) -> Result<When> {
    let found = match zone {
        Zone::Named(tz) => read(input, now, tz),
        Zone::Local => read(input, now, &chrono::Local),
    };
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
    Days(NaiveDate, NaiveDate),
    /// A part of one local day: `[from, to)`; `to == None` runs to the day's end.
    Part(NaiveDate, NaiveTime, Option<NaiveTime>),
    Instant(DateTime<Utc>),
    /// A local wall time (`in 3 days` keeps the time of day).
    Wall(NaiveDateTime),
}

fn read<Z: Wall>(input: &str, now: DateTime<Utc>, zone: &Z) -> Option<When> {
    let trimmed = input.trim();
    if trimmed.is_empty() || trimmed.len() > 200 {
        return None;
    }
    if let Ok(at) = DateTime::parse_from_rfc3339(trimmed) {
        let at = at.with_timezone(&Utc);
        return Some(When { start: at, end: at });
    }
    let local_now = zone.wall(now);
    // A local date and time without an offset: `2026-03-12T17:00`, `2026-03-12 17:00`.
    for format in [
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%d %H:%M",
    ] {
        if let Ok(at) = NaiveDateTime::parse_from_str(trimmed, format) {
            let at = local(zone, at.date(), at.time());
            return Some(When { start: at, end: at });
        }
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
            end: day_start(zone, last.succ_opt()?) - Duration::seconds(1),
        },
        Named::Part(day, from, to) => When {
            start: local(zone, day, from),
            end: match to {
                Some(to) => local(zone, day, to) - Duration::seconds(1),
                None => day_start(zone, day.succ_opt()?) - Duration::seconds(1),
            },
        },
    })
}

/// A whole phrase: a day phrase, optionally with a clock time
/// (`friday 17:00`, `tomorrow at 9am`, `at 5pm`, `17:00 friday`).
fn phrase<Z: Wall>(
    words: &[&str],
    local_now: NaiveDateTime,
    now: DateTime<Utc>,
    zone: &Z,
) -> Option<Named> {
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
fn at_time<Z: Wall>(
    head: &[&str],
    time: NaiveTime,
    local_now: NaiveDateTime,
    now: DateTime<Utc>,
    zone: &Z,
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

fn day_phrase(words: &[&str], local_now: NaiveDateTime, now: DateTime<Utc>) -> Option<Named> {
    let today = local_now.date();
    let one = |d: NaiveDate| Some(Named::Days(d, d));
    let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
    match words {
        ["now"] => return Some(Named::Instant(now)),
        ["today"] | ["end", "of", "day"] | ["end", "of", "today"] | ["eod"] => return one(today),
        ["tomorrow"] => return one(today.succ_opt()?),
        ["yesterday"] => return one(today.pred_opt()?),
        ["tonight"] => return Some(Named::Part(today, hm(18, 0), None)),
        ["this", "week"] => {
            return Some(Named::Days(monday, monday + Duration::days(6)));
        }
        ["next", "week"] => {
            let start = monday + Duration::days(7);
            return Some(Named::Days(start, start + Duration::days(6)));
        }
        ["end", "of", "week"] | ["end", "of", "the", "week"] | ["end", "of", "this", "week"] => {
            return one(monday + Duration::days(6));
        }
        ["end", "of", "next", "week"] => return one(monday + Duration::days(13)),
        ["this" | "the", "weekend"] | ["weekend"] => {
            let sat = next_weekday(today, Weekday::Sat, true);
            let sat = if today.weekday() == Weekday::Sun {
                today.pred_opt()?
            } else {
                sat
            };
            return Some(Named::Days(sat, sat.succ_opt()?));
        }
        ["this", "month"] => {
            let first = today.with_day(1)?;
            return Some(Named::Days(first, month_end(first)?));
        }
        ["next", "month"] => {
            let first = today.with_day(1)? + Months::new(1);
            return Some(Named::Days(first, month_end(first)?));
        }
        ["end", "of", "month"] | ["end", "of", "the", "month"] | ["end", "of", "this", "month"] => {
            return one(month_end(today)?);
        }
        ["end", "of", "next", "month"] => {
            return one(month_end(today.with_day(1)? + Months::new(1))?);
        }
        ["end", "of", "year"] | ["end", "of", "the", "year"] | ["end", "of", "this", "year"] => {
            return one(NaiveDate::from_ymd_opt(today.year(), 12, 31)?);
        }
        ["next", "year"] => {
            return Some(Named::Days(
                NaiveDate::from_ymd_opt(today.year() + 1, 1, 1)?,
                NaiveDate::from_ymd_opt(today.year() + 1, 12, 31)?,
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
            return one(next_weekday(today, weekday(w)?, false));
        }
        ["this", w] if weekday(w).is_some() => return one(next_weekday(today, weekday(w)?, true)),
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
fn offset(words: &[&str], local_now: NaiveDateTime, now: DateTime<Utc>) -> Option<Named> {
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
    local_now: NaiveDateTime,
    now: DateTime<Utc>,
) -> Option<Named> {
    let signed = sign.checked_mul(n)?;
    let unit = unit.trim_end_matches('s');
    match unit {
        "minute" | "min" => Some(Named::Instant(
            now.checked_add_signed(Duration::try_minutes(signed)?)?,
        )),
        "hour" | "hr" | "h" => Some(Named::Instant(
            now.checked_add_signed(Duration::try_hours(signed)?)?,
        )),
        "day" => wall(local_now.checked_add_signed(Duration::try_days(signed)?)?),
        "week" | "wk" => wall(local_now.checked_add_signed(Duration::try_weeks(signed)?)?),
        "month" => {
            let months = Months::new(u32::try_from(n).ok()?);
            let t = if sign > 0 {
                local_now.checked_add_months(months)?
            } else {
                local_now.checked_sub_months(months)?
            };
            wall(t)
        }
        "year" | "yr" => {
            let months = Months::new(u32::try_from(n.checked_mul(12)?).ok()?);
            let t = if sign > 0 {
                local_now.checked_add_months(months)?
            } else {
                local_now.checked_sub_months(months)?
            };
            wall(t)
        }
        _ => None,
    }
}

fn wall(t: NaiveDateTime) -> Option<Named> {
    Some(Named::Wall(t.with_nanosecond(0)?))
}

/// `12 march`, `march 12`, `12th of march`, `march 12 2027`, `2026-03-12`,
/// `the 15th`: the next such day, today included, when no year is given.
fn date(words: &[&str], today: NaiveDate) -> Option<NaiveDate> {
    match words {
        [iso] => NaiveDate::parse_from_str(iso, "%Y-%m-%d").ok(),
        ["the", d] => {
            let day = ordinal(d)?;
            let mut first = today.with_day(1)?;
            for _ in 0..3 {
                if let Some(candidate) = first.with_day(day)
                    && candidate >= today
                {
                    return Some(candidate);
                }
                first = first + Months::new(1);
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
            NaiveDate::from_ymd_opt(year, month(m)?, ordinal(d)?)
        }
        _ => None,
    }
}

/// The next `month`/`day` on or after `today` (this year or the next).
fn upcoming(today: NaiveDate, month: u32, day: u32) -> Option<NaiveDate> {
    for year in [today.year(), today.year() + 1] {
        if let Some(d) = NaiveDate::from_ymd_opt(year, month, day)
            && d >= today
        {
            return Some(d);
        }
    }
    // 29 February: the next leap year.
    (today.year() + 2..today.year() + 9).find_map(|y| NaiveDate::from_ymd_opt(y, month, day))
}

fn next_weekday(today: NaiveDate, want: Weekday, today_counts: bool) -> NaiveDate {
    let ahead = (7 + want.num_days_from_monday() - today.weekday().num_days_from_monday()) % 7;
    let ahead = if ahead == 0 && !today_counts {
        7
    } else {
        ahead
    };
    today + Duration::days(i64::from(ahead))
}

fn month_end(day: NaiveDate) -> Option<NaiveDate> {
    (day.with_day(1)? + Months::new(1)).pred_opt()
}

fn hm(h: u32, m: u32) -> NaiveTime {
    NaiveTime::from_hms_opt(h, m, 0).expect("a valid clock time")
}

fn day_part(word: &str) -> Option<(NaiveTime, Option<NaiveTime>)> {
    match word {
        "morning" => Some((hm(6, 0), Some(hm(12, 0)))),
        "afternoon" => Some((hm(12, 0), Some(hm(18, 0)))),
        "evening" | "night" => Some((hm(18, 0), None)),
        _ => None,
    }
}

/// `17:00`, `9:30`, `9am`, `9 am`, `5:30pm`, `noon`, `midnight`.
fn clock(text: &str) -> Option<NaiveTime> {
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
    NaiveTime::from_hms_opt(h, m, 0)
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
    Weekday::try_from(u8::try_from(i).ok()?).ok()
}

/// Local midnight of `day` as UTC (the first existing instant of the day
/// when midnight falls in a DST gap).
fn day_start<Z: Wall>(zone: &Z, day: NaiveDate) -> DateTime<Utc> {
    local(zone, day, NaiveTime::MIN)
}

/// A local wall time as UTC: the earlier of two in a fall-back overlap, the
/// first existing minute after it in a spring-forward gap.
fn local<Z: Wall>(zone: &Z, day: NaiveDate, time: NaiveTime) -> DateTime<Utc> {
    let wall = day.and_time(time);
    for step in 0..=(4 * 60) {
        let probe = wall + Duration::minutes(step);
        match zone.instants(&probe) {
            LocalResult::Single(t) => return t,
            LocalResult::Ambiguous(early, _) => return early,
            LocalResult::None => {}
        }
    }
    Utc.from_utc_datetime(&wall)
}
