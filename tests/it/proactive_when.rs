//! WHEN phrases (`proactive add --due friday`…): every phrase with a fixed
//! clock, window edges, time zones and DST boundaries, and a property test
//! that no input panics. Zones come from the embedded database, never from
//! the machine's tzdata.

use agentbox::clock::Time;
use agentbox::error::ErrorType;
use agentbox::tools::proactive::when::{When, Zone, resolve_in};
use jiff::SignedDuration;
use proptest::prelude::*;

/// The harness clock: Thursday 2026-01-15, 09:30 UTC.
const NOW: &str = "2026-01-15T09:30:00Z";

fn t(s: &str) -> Time {
    Time::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn zone(name: &str) -> Zone {
    Zone::named(name).unwrap_or_else(|| panic!("no zone {name}"))
}

fn at(input: &str, now: &str, z: &str) -> When {
    resolve_in(input, t(now), &zone(z)).unwrap_or_else(|e| panic!("{input:?}: {}", e.message))
}

/// `input` at the harness clock in UTC names `[start, end]`.
fn check(input: &str, start: &str, end: &str) {
    let w = at(input, NOW, "UTC");
    assert_eq!((w.start, w.end), (t(start), t(end)), "{input:?}");
}

/// A whole UTC day.
fn day(input: &str, date: &str) {
    check(
        input,
        &format!("{date}T00:00:00Z"),
        &format!("{date}T23:59:59Z"),
    );
}

/// An instant.
fn instant(input: &str, at: &str) {
    check(input, at, at);
}

#[test]
fn instants_and_dates() {
    instant("2026-03-12T17:00:00+01:00", "2026-03-12T16:00:00Z");
    instant("2026-03-12T17:00:00Z", "2026-03-12T17:00:00Z");
    instant("2026-03-12 17:00", "2026-03-12T17:00:00Z");
    instant("2026-03-12T17:00", "2026-03-12T17:00:00Z");
    day("2026-03-12", "2026-03-12");
    day("12 March", "2026-03-12");
    day("March 12", "2026-03-12");
    day("12th of March", "2026-03-12");
    day("mar 12th", "2026-03-12");
    day("12 March 2027", "2027-03-12");
    day("March 12, 2027", "2027-03-12");
    day("on 12 March", "2026-03-12");
    // A day-month already past this year is next year's; today counts.
    day("10 January", "2027-01-10");
    day("15 January", "2026-01-15");
    day("the 15th", "2026-01-15");
    day("the 14th", "2026-02-14");
    day("the 31st", "2026-01-31");
    day("29 February", "2028-02-29");
}

#[test]
fn day_phrases() {
    instant("now", NOW);
    day("today", "2026-01-15");
    day("end of day", "2026-01-15");
    day("eod", "2026-01-15");
    check("tonight", "2026-01-15T18:00:00Z", "2026-01-15T23:59:59Z");
    day("tomorrow", "2026-01-16");
    day("yesterday", "2026-01-14");
    check(
        "tomorrow morning",
        "2026-01-16T06:00:00Z",
        "2026-01-16T11:59:59Z",
    );
    check(
        "this afternoon",
        "2026-01-15T12:00:00Z",
        "2026-01-15T17:59:59Z",
    );
    check(
        "friday evening",
        "2026-01-16T18:00:00Z",
        "2026-01-16T23:59:59Z",
    );
    // Case and spacing do not matter.
    day("  TOMORROW ", "2026-01-16");
}

#[test]
fn weekdays() {
    // The clock is a Thursday: a weekday is the next one, today excluded.
    day("friday", "2026-01-16");
    day("fri", "2026-01-16");
    day("next friday", "2026-01-16");
    day("thursday", "2026-01-22");
    day("next thursday", "2026-01-22");
    day("this thursday", "2026-01-15");
    day("this friday", "2026-01-16");
    day("monday", "2026-01-19");
    day("wednesday", "2026-01-21");
    day("on monday", "2026-01-19");
}

#[test]
fn weeks_months_years() {
    check("this week", "2026-01-12T00:00:00Z", "2026-01-18T23:59:59Z");
    check("next week", "2026-01-19T00:00:00Z", "2026-01-25T23:59:59Z");
    day("end of week", "2026-01-18");
    day("end of the week", "2026-01-18");
    day("end of next week", "2026-01-25");
    check(
        "this weekend",
        "2026-01-17T00:00:00Z",
        "2026-01-18T23:59:59Z",
    );
    check("this month", "2026-01-01T00:00:00Z", "2026-01-31T23:59:59Z");
    check("next month", "2026-02-01T00:00:00Z", "2026-02-28T23:59:59Z");
    day("end of month", "2026-01-31");
    day("end of the month", "2026-01-31");
    day("end of next month", "2026-02-28");
    day("end of year", "2026-12-31");
    check("next year", "2027-01-01T00:00:00Z", "2027-12-31T23:59:59Z");
}

#[test]
fn offsets() {
    instant("in 3 days", "2026-01-18T09:30:00Z");
    instant("3 days", "2026-01-18T09:30:00Z");
    instant("in three days", "2026-01-18T09:30:00Z");
    instant("in a day", "2026-01-16T09:30:00Z");
    instant("in 2 weeks", "2026-01-29T09:30:00Z");
    instant("in a couple of weeks", "2026-01-29T09:30:00Z");
    instant("in a week", "2026-01-22T09:30:00Z");
    instant("in 4 hours", "2026-01-15T13:30:00Z");
    instant("in an hour", "2026-01-15T10:30:00Z");
    instant("in 30 minutes", "2026-01-15T10:00:00Z");
    instant("in 1 month", "2026-02-15T09:30:00Z");
    instant("in 1 year", "2027-01-15T09:30:00Z");
    instant("3 days ago", "2026-01-12T09:30:00Z");
    instant("2 hours ago", "2026-01-15T07:30:00Z");
}

#[test]
fn clock_times() {
    instant("friday 17:00", "2026-01-16T17:00:00Z");
    instant("friday at 17:00", "2026-01-16T17:00:00Z");
    instant("next friday 5pm", "2026-01-16T17:00:00Z");
    instant("tomorrow at 9am", "2026-01-16T09:00:00Z");
    instant("tomorrow 9 am", "2026-01-16T09:00:00Z");
    instant("tomorrow 9:30pm", "2026-01-16T21:30:00Z");
    instant("tomorrow at noon", "2026-01-16T12:00:00Z");
    instant("12 March at 14:15", "2026-03-12T14:15:00Z");
    instant("at 5pm", "2026-01-15T17:00:00Z");
    instant("17:00", "2026-01-15T17:00:00Z");
    instant("12am", "2026-01-15T00:00:00Z");
    instant("12pm", "2026-01-15T12:00:00Z");
    instant("5pm friday", "2026-01-16T17:00:00Z");
    instant("in 3 days at 5pm", "2026-01-18T17:00:00Z");
    instant("at 9am tomorrow", "2026-01-16T09:00:00Z");
    instant("tomorrow morning at 8am", "2026-01-16T08:00:00Z");
}

#[test]
fn unreadable_input_is_invalid_args_naming_it() {
    for bad in [
        "",
        "   ",
        "someday",
        "friday 25:00",
        "next fortnight",
        "in 3 parsecs",
        "32 March",
        "2026-02-30",
        "the 32nd",
        "tomorrow 9",
        "13pm",
        "next week 17:00",
        "in 4 hours at 5pm",
        "in -3 days",
        "in 99999999 days",
        "friday friday",
        "31 February 2027",
    ] {
        let err = resolve_in(bad, t(NOW), &zone("UTC")).expect_err(bad);
        assert_eq!(err.kind, ErrorType::InvalidArgs, "{bad:?}");
        assert!(
            err.message.contains(&format!("{:?}", bad)),
            "{}",
            err.message
        );
        assert!(
            err.hint.contains("tomorrow") && err.hint.contains("in 3 days"),
            "{}",
            err.hint
        );
    }
}

#[test]
fn window_edges() {
    // A day ends one second before the next begins: nothing falls between.
    let today = at("today", NOW, "UTC");
    let tomorrow = at("tomorrow", NOW, "UTC");
    assert_eq!(today.end + SignedDuration::from_secs(1), tomorrow.start);
    // At the last second of a day it is still that day; a second later, the next.
    let last = at("today", "2026-01-15T23:59:59Z", "UTC");
    assert_eq!(last, today);
    let next = at("today", "2026-01-16T00:00:00Z", "UTC");
    assert_eq!(next, tomorrow);
    // In New York the day turns at 05:00 UTC in winter.
    let ny = at("today", "2026-01-16T04:59:59Z", "America/New_York");
    assert_eq!(ny.start, t("2026-01-15T05:00:00Z"));
    let ny = at("today", "2026-01-16T05:00:00Z", "America/New_York");
    assert_eq!(ny.start, t("2026-01-16T05:00:00Z"));
    // The week turns at Monday's local midnight.
    let sunday_night = at("next week", "2026-01-18T23:59:59Z", "UTC");
    assert_eq!(sunday_night.start, t("2026-01-19T00:00:00Z"));
    let monday = at("next week", "2026-01-19T00:00:00Z", "UTC");
    assert_eq!(monday.start, t("2026-01-26T00:00:00Z"));
}

#[test]
fn time_zones_give_different_instants() {
    // 09:30 UTC is 04:30 in New York and 15:00 in Kolkata, the same date.
    let utc = at("today", NOW, "UTC");
    let ny = at("today", NOW, "America/New_York");
    let kol = at("today", NOW, "Asia/Kolkata");
    assert_eq!(utc.start, t("2026-01-15T00:00:00Z"));
    assert_eq!(
        (ny.start, ny.end),
        (t("2026-01-15T05:00:00Z"), t("2026-01-16T04:59:59Z"))
    );
    assert_eq!(
        (kol.start, kol.end),
        (t("2026-01-14T18:30:00Z"), t("2026-01-15T18:29:59Z"))
    );
    // Late evening UTC is already tomorrow in Kolkata, still today in New York.
    let late = "2026-01-15T23:30:00Z";
    assert_eq!(
        at("tomorrow", late, "Asia/Kolkata").start,
        t("2026-01-16T18:30:00Z")
    );
    assert_eq!(
        at("tomorrow", late, "America/New_York").start,
        t("2026-01-16T05:00:00Z")
    );
    assert_eq!(at("tomorrow", late, "UTC").start, t("2026-01-16T00:00:00Z"));
    // Clock times are local.
    assert_eq!(
        at("friday 17:00", NOW, "Asia/Kolkata").start,
        t("2026-01-16T11:30:00Z")
    );
    assert_eq!(
        at("friday 17:00", NOW, "America/New_York").start,
        t("2026-01-16T22:00:00Z")
    );
    // An RFC 3339 time is the same instant everywhere.
    let fixed = "2026-03-12T17:00:00Z";
    assert_eq!(
        at(fixed, NOW, "Asia/Kolkata"),
        at(fixed, NOW, "America/New_York")
    );
    // A TZ value with a leading colon, as libc accepts it.
    assert_eq!(Zone::named(":Asia/Kolkata"), Zone::named("Asia/Kolkata"));
    assert!(Zone::named("Nowhere/Atlantis").is_none());
}

#[test]
fn dst_spring_forward() {
    // New York, Saturday 2026-03-07 12:00 EST; clocks jump 02:00 → 03:00 on Sunday.
    let now = "2026-03-07T17:00:00Z";
    let tomorrow = at("tomorrow", now, "America/New_York");
    // Local midnight stays midnight: EST at the start, EDT at the end (a 23-hour day).
    assert_eq!(tomorrow.start, t("2026-03-08T05:00:00Z"));
    assert_eq!(tomorrow.end, t("2026-03-09T03:59:59Z"));
    assert_eq!(
        tomorrow.end - tomorrow.start,
        SignedDuration::from_hours(23) - SignedDuration::from_secs(1)
    );
    // `in 1 day` keeps the wall time (12:00 EDT, 23 hours on); `in 24 hours` does not.
    assert_eq!(
        at("in 1 day", now, "America/New_York").start,
        t("2026-03-08T16:00:00Z")
    );
    assert_eq!(
        at("in 24 hours", now, "America/New_York").start,
        t("2026-03-08T17:00:00Z")
    );
    // A wall time inside the gap moves to the first one that exists (03:00 EDT).
    assert_eq!(
        at("tomorrow 2:30am", now, "America/New_York").start,
        t("2026-03-08T07:00:00Z")
    );
    // In UTC nothing shifts.
    assert_eq!(at("in 1 day", now, "UTC").start, t("2026-03-08T17:00:00Z"));
}

#[test]
fn dst_fall_back() {
    // New York, Saturday 2026-10-31 12:00 EDT; clocks fall 02:00 → 01:00 on Sunday.
    let now = "2026-10-31T16:00:00Z";
    let tomorrow = at("tomorrow", now, "America/New_York");
    assert_eq!(tomorrow.start, t("2026-11-01T04:00:00Z"));
    assert_eq!(tomorrow.end, t("2026-11-02T04:59:59Z"));
    assert_eq!(
        tomorrow.end - tomorrow.start,
        SignedDuration::from_hours(25) - SignedDuration::from_secs(1)
    );
    assert_eq!(
        at("in 1 day", now, "America/New_York").start,
        t("2026-11-01T17:00:00Z")
    );
    assert_eq!(
        at("in 24 hours", now, "America/New_York").start,
        t("2026-11-01T16:00:00Z")
    );
    // A wall time that happens twice is the first one (01:30 EDT).
    assert_eq!(
        at("tomorrow 1:30am", now, "America/New_York").start,
        t("2026-11-01T05:30:00Z")
    );
    // The week containing the change still runs Monday to Sunday midnight.
    let week = at("this week", now, "America/New_York");
    assert_eq!(week.start, t("2026-10-26T04:00:00Z"));
    assert_eq!(week.end, t("2026-11-02T04:59:59Z"));
}

const WORDS: &[&str] = &[
    "in", "at", "on", "the", "next", "this", "end", "of", "friday", "tomorrow", "today", "week",
    "month", "3", "days", "hours", "ago", "12", "march", "2027", "17:00", "9am", "15th", "a",
    "morning", "noon", "99999999", "0", "31", "february", "year", "weekend", "-1", "",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn never_panics_on_any_string(input in ".{0,60}", secs in 0i64..7_000_000_000, z in 0usize..4) {
        let now = Time::from_second(secs).expect("a time");
        let zone = zone(["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"][z]);
        let _ = resolve_in(&input, now, &zone);
    }

    #[test]
    fn never_panics_on_phrase_like_input(
        words in proptest::collection::vec(proptest::sample::select(WORDS), 0..5),
        secs in 0i64..7_000_000_000,
        z in 0usize..3,
    ) {
        let now = Time::from_second(secs).expect("a time");
        let zone = zone(["UTC", "America/New_York", "Asia/Kolkata"][z]);
        if let Ok(w) = resolve_in(&words.join(" "), now, &zone) {
            prop_assert!(w.start <= w.end);
        }
    }
}
