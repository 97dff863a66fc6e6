//! What a query asks beyond its words: the time it names ("on 13 October
//! 2023", "in August", "last week", "yesterday", "the day before
//! yesterday", "this morning", "on Friday", "3 days ago") and whether it
//! asks *when* something happened.
//!
//! A named time becomes a window of dates: documents dated inside it rank
//! higher (`rank::context`), and its words leave the query (no turn says
//! "October 13, 2023" about itself; its date does). Relative times count
//! back from the query's `now`. A question that asks when ranks higher the
//! documents that say when (`rank::flags::TIMED`). Both are read from the
//! words alone, in English; anything not recognised stays a query word.

use jiff::civil::Date;

use super::query::{content_words, query_terms};
use crate::clock::{MONTHS, Time, WEEKDAYS, date_from, days};

/// A query read as a question.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Asked {
    /// Its content words, without those of the time it names.
    pub terms: Vec<String>,
    /// The dates it names: `[from, to)` in Unix seconds, with slack (a
    /// conversation is dated when it was saved; people say "the day
    /// before").
    pub window: Option<(i64, i64)>,
    /// The same without the slack: the day, the month, the calendar week
    /// named ("yesterday", "in March", "last week"), which a list of what
    /// was said then shows.
    pub said: Option<(i64, i64)>,
    /// It asks when something happened ("When did …", "what date …").
    pub when: bool,
    /// The names it holds ([`names_in`]).
    pub names: Vec<String>,
    /// It names a time and no other content word ("what did we do last
    /// week?"): its terms are the time's own words.
    pub only_time: bool,
}

/// Days of slack each side of a named day, and of a named month: a
/// conversation is dated when it was saved, and people say "the day
/// before".
const DAY_SLACK: i64 = 1;
const MONTH_SLACK: i64 = 3;

/// One word of the query: its lowercase text and byte span.
struct Word {
    text: String,
    start: usize,
    end: usize,
}

fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(Word {
                    text: text[s..i].to_lowercase(),
                    start: s,
                    end: i,
                });
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// A month name or its usual abbreviation: 1-12.
fn month(word: &str) -> Option<u32> {
    if let Some(i) = MONTHS.iter().position(|m| *m == word) {
        return Some(i as u32 + 1);
    }
    let short = match word {
        "sept" => "sep",
        // "mar" and "may" read as words too often; "may" is matched in full
        // only next to a number (below).
        "mar" => return None,
        w if w.len() == 3 => w,
        _ => return None,
    };
    MONTHS
        .iter()
        .position(|m| m.starts_with(short))
        .map(|i| i as u32 + 1)
}

/// "13", "13th", "1st": a day of the month.
fn day(word: &str) -> Option<u32> {
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    let rest = &word[digits.len()..];
    if digits.is_empty() || digits.len() > 2 || !["", "st", "nd", "rd", "th"].contains(&rest) {
        return None;
    }
    digits.parse().ok().filter(|d| (1..=31).contains(d))
}

/// "2023": a year from 1900 to 2100.
fn year(word: &str) -> Option<i32> {
    (word.len() == 4 && word.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.parse().ok())
        .flatten()
        .filter(|y| (1900..=2100).contains(y))
}

fn midnight(date: Date) -> i64 {
    Time::at_midnight(date).as_second()
}

/// The day `n` days before `today` (after it when `n` is negative).
fn days_before(today: Date, n: i64) -> Date {
    today.saturating_sub(days(n))
}

const DAY: i64 = 86_400;

/// A time's window for the ranking (with slack) and the time itself: what
/// a list of what was said then shows.
type Window = ((i64, i64), (i64, i64));

fn day_window(date: Date) -> Window {
    let at = midnight(date);
    (
        (at - DAY_SLACK * DAY, at + (1 + DAY_SLACK) * DAY),
        (at, at + DAY),
    )
}

fn month_window(y: i32, m: u32, slack: i64) -> Option<Window> {
    let first = date_from(y, m, 1)?;
    // The midnight after the month's last day: no date past 9999 is needed.
    let said = (midnight(first), midnight(first.last_of_month()) + DAY);
    Some(((said.0 - slack * DAY, said.1 + slack * DAY), said))
}

fn year_window(y: i32) -> Option<Window> {
    let said = (
        midnight(date_from(y, 1, 1)?),
        midnight(date_from(y, 12, 31)?) + DAY,
    );
    Some((said, said))
}

/// The latest year in which month `m` (and day `d`) is not after `today`.
fn latest_year(today: Date, m: u32, d: u32) -> i32 {
    let this = i32::from(today.year());
    match date_from(this, m, d) {
        Some(date) if date <= today => this,
        _ => this - 1,
    }
}

/// A named time found at word `i`: its window and the words it spans
/// (first, last). No window: the words look like a date that does not exist
/// ("31 February 2023", "2023-13-01") or name a day to come ("the day after
/// tomorrow"); they stay query words.
type Found = (Option<Window>, usize, usize);

/// An absolute date around the month name at word `i`.
fn date_at(w: &[Word], i: usize, today: Date) -> Option<Found> {
    let m = month(&w[i].text)?;
    let get = |j: Option<usize>| j.and_then(|j| w.get(j));
    let before = |k: usize| i.checked_sub(k);
    let is_may = w[i].text == "may";
    // 13 October 2023, 13th of October 2023
    let day_before = get(before(1))
        .and_then(|x| day(&x.text))
        .map(|d| (d, before(1)))
        .or_else(|| {
            (get(before(1)).is_some_and(|x| x.text == "of"))
                .then(|| {
                    get(before(2))
                        .and_then(|x| day(&x.text))
                        .map(|d| (d, before(2)))
                })
                .flatten()
        });
    let day_after = get(Some(i + 1)).and_then(|x| day(&x.text));
    if let Some((d, Some(first))) = day_before {
        if let Some(y) = get(Some(i + 1)).and_then(|x| year(&x.text)) {
            let date = date_from(y, m, d);
            return Some((date.map(day_window), first, i + 1));
        }
        let date = date_from(latest_year(today, m, d), m, d);
        return Some((date.map(day_window), first, i));
    }
    if let Some(d) = day_after {
        // October 13, 2023; October 13
        if let Some(y) = get(Some(i + 2)).and_then(|x| year(&x.text)) {
            let date = date_from(y, m, d);
            return Some((date.map(day_window), i, i + 2));
        }
        // "May 2" is a date; "may 2023" below is a month.
        if year(&w[i + 1].text).is_none() {
            let date = date_from(latest_year(today, m, d), m, d);
            return Some((date.map(day_window), i, i + 1));
        }
    }
    if let Some(y) = get(Some(i + 1)).and_then(|x| year(&x.text)) {
        return Some((Some(month_window(y, m, MONTH_SLACK)?), i, i + 1));
    }
    // A month alone, after a preposition ("in August", "since March"): the
    // latest one. "The march of", "may I" are not months.
    let preposition = get(before(1)).is_some_and(|x| {
        [
            "in",
            "during",
            "since",
            "from",
            "until",
            "till",
            "by",
            "before",
            "after",
            "early",
            "late",
            "mid",
            "throughout",
        ]
        .contains(&x.text.as_str())
    });
    if is_may || !preposition {
        return None;
    }
    Some((
        Some(month_window(latest_year(today, m, 1), m, MONTH_SLACK)?),
        i,
        i,
    ))
}

/// 2023-10-13 (ISO), or a year alone.
fn numeric_at(w: &[Word], text: &str, i: usize) -> Option<Found> {
    let y = year(&w[i].text)?;
    let joined = |a: usize, b: usize| w.get(b).is_some_and(|_| &text[w[a].end..w[b].start] == "-");
    if joined(i, i + 1) && joined(i + 1, i + 2) {
        let m: Option<u32> = w[i + 1].text.parse().ok();
        let d: Option<u32> = w[i + 2].text.parse().ok();
        if let (Some(m), Some(d)) = (m, d) {
            let date = date_from(y, m, d);
            return Some((date.map(day_window), i, i + 2));
        }
    }
    Some((Some(year_window(y)?), i, i))
}

/// Units of "N units ago": their length in days.
fn unit_days(word: &str) -> Option<i64> {
    match word.trim_end_matches('s') {
        "day" => Some(1),
        "week" => Some(7),
        "month" => Some(30),
        "year" => Some(365),
        _ => None,
    }
}

/// Parts of a day that may follow the day's name ("yesterday morning",
/// "Friday night"): they belong to the time, not to the query's words.
const DAY_PARTS: [&str; 4] = ["morning", "afternoon", "evening", "night"];

/// Words before a weekday that make it no day said, or not the latest one:
/// one to come ("next Friday", "every Monday") or a name ("Black Friday",
/// "Good Friday", "Cyber Monday").
const NOT_THE_LATEST: [&str; 9] = [
    "next",
    "coming",
    "upcoming",
    "following",
    "every",
    "each",
    "black",
    "good",
    "cyber",
];

/// The named day `date` spanning words `from..=to`, and the part of it
/// that follows them, when one does ("yesterday evening").
fn on_day(w: &[Word], date: Date, from: usize, to: usize) -> Found {
    let part = w
        .get(to + 1)
        .is_some_and(|x| DAY_PARTS.contains(&x.text.as_str()));
    (Some(day_window(date)), from, if part { to + 1 } else { to })
}

/// "the day before yesterday" (two days back), "the day after tomorrow"
/// at word `i` ("day"). A day to come is no time said: no window, and its
/// words stay query words (not "tomorrow" misread as a day past).
fn day_beside(w: &[Word], i: usize, today: Date) -> Option<Found> {
    let from = match w.get(i + 2)?.text.as_str() {
        "yesterday" => -1,
        "today" => 0,
        "tomorrow" => 1,
        _ => return None,
    };
    let days = from
        + match w.get(i + 1)?.text.as_str() {
            "before" => -1,
            "after" => 1,
            _ => return None,
        };
    if days > 0 {
        return Some((None, i, i + 2));
    }
    Some(on_day(w, days_before(today, -days), i, i + 2))
}

/// A time relative to `now` at word `i`: yesterday, today, tonight, this
/// morning|afternoon|evening, the day before yesterday, last night,
/// last/this week|weekend|month|year, last friday, a weekday alone, N days
/// ago (0 days ago: today).
///
/// A weekday alone ("on Friday", "what did we do tuesday") is the latest
/// such day, today included: on a Friday, "Friday" is today. A question
/// asked on a Friday about the Friday before says "last Friday", which is
/// never today. After a word of [`NOT_THE_LATEST`] it is no time. "This
/// Friday" is this week's (Monday first): today or before, or no time when
/// it is still to come.
fn relative_at(w: &[Word], i: usize, now: Time) -> Option<Found> {
    let today = now.date();
    let at = now.as_second();
    let word = w[i].text.as_str();
    let next = w.get(i + 1).map(|x| x.text.as_str());
    let now_wd = i64::from(today.weekday().to_monday_zero_offset());
    match word {
        "yesterday" => return Some(on_day(w, days_before(today, 1), i, i)),
        "today" | "tonight" => return Some(on_day(w, today, i, i)),
        "day" => return day_beside(w, i, today),
        "last" | "this" | "past" => {
            let last = word != "this";
            let window = match next? {
                "night" | "evening" if last => day_window(days_before(today, 1)),
                "morning" | "afternoon" | "evening" | "night" if !last => day_window(today),
                "week" => {
                    let monday = midnight(days_before(today, now_wd));
                    if last {
                        ((at - 14 * DAY, at), (monday - 7 * DAY, monday))
                    } else {
                        ((at - 7 * DAY, at + DAY), (monday, at + DAY))
                    }
                }
                "weekend" => {
                    let back = now_wd + 2;
                    let saturday = days_before(today, if last { back } else { back - 7 });
                    let from = midnight(saturday);
                    ((from - DAY, from + 3 * DAY), (from, from + 2 * DAY))
                }
                "month" => {
                    let (year, month) = (
                        i32::from(today.year()),
                        u32::from(today.month().unsigned_abs()),
                    );
                    let (y, m) = if last {
                        if month == 1 {
                            (year - 1, 12)
                        } else {
                            (year, month - 1)
                        }
                    } else {
                        (year, month)
                    };
                    month_window(y, m, MONTH_SLACK)?
                }
                "year" => {
                    let year = i32::from(today.year());
                    year_window(if last { year - 1 } else { year })?
                }
                d => {
                    let wd = WEEKDAYS.iter().position(|x| *x == d)? as i64;
                    let back = match (now_wd - wd).rem_euclid(7) {
                        // "last": the latest such day before today.
                        0 if last => 7,
                        // "this": the day of this week (Monday first); one
                        // still to come is no time said.
                        _ if !last && wd > now_wd => return Some((None, i, i + 1)),
                        back => back,
                    };
                    // "last Friday night": the night is Friday's.
                    return Some(on_day(w, days_before(today, back), i, i + 1));
                }
            };
            return Some((Some(window), i, i + 1));
        }
        d => {
            if let Some(wd) = WEEKDAYS.iter().position(|x| *x == d) {
                let before = i.checked_sub(1).map(|j| w[j].text.as_str());
                if before.is_some_and(|b| NOT_THE_LATEST.contains(&b)) {
                    return None;
                }
                let back = (now_wd - wd as i64).rem_euclid(7);
                return Some(on_day(w, days_before(today, back), i, i));
            }
        }
    }
    // "3 days ago", "a week ago", "two months ago", "0 days ago"
    let count = match word {
        "zero" => 0,
        "a" | "an" | "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "few" => 3,
        w => w.parse::<i64>().ok().filter(|n| (0..=1000).contains(n))?,
    };
    let days = unit_days(next?)?;
    if w.get(i + 2).map(|x| x.text.as_str()) != Some("ago") {
        return None;
    }
    if days == 1 {
        // "3 days ago" is that day, as "yesterday" is ("1 day ago").
        return Some((Some(day_window(days_before(today, count))), i, i + 2));
    }
    // "a week ago" is about then.
    let back = at - count * days * DAY;
    let slack = days * DAY / 2;
    let window = (back - slack, back + slack);
    Some((Some((window, window)), i, i + 2))
}

/// Reads `text` as a question asked at `now`.
pub fn ask(text: &str, now: Time) -> Asked {
    let w = words(text);
    let today = now.date();
    // Every time named, in order; the window is the first absolute one
    // ("last Friday, on 23 January 2022": the date says which Friday), else
    // the first relative one. All their words leave the query.
    let mut named: Vec<(Found, bool)> = Vec::new();
    let mut i = 0;
    while i < w.len() {
        // A date read backwards from its month ("13 may") cannot take back
        // words an earlier time already took ("may 13 may").
        let after = named
            .last()
            .map_or(0, |((_, _, to), _): &(Found, bool)| to + 1);
        let found = relative_at(&w, i, now)
            .map(|f| (f, false))
            .or_else(|| date_at(&w, i, today).map(|f| (f, true)))
            .or_else(|| numeric_at(&w, text, i).map(|f| (f, true)))
            .filter(|((_, from, _), _)| *from >= after);
        match found {
            Some(found) => {
                i = found.0.2 + 1;
                named.push(found);
            }
            None => i += 1,
        }
    }
    named.retain(|((window, _, _), _)| window.is_some());
    let found = named
        .iter()
        .find(|(_, absolute)| *absolute)
        .or(named.first())
        .map(|(f, _)| *f);
    let first = w.first().map(|x| x.text.as_str());
    let second = w.get(1).map(|x| x.text.as_str());
    let when = first == Some("when")
        || matches!(
            (first, second),
            (
                Some("what" | "which"),
                Some("date" | "day" | "time" | "year" | "month" | "week")
            )
        )
        || (first == Some("how") && second == Some("long"));
    let Some((Some((window, said)), _, _)) = found else {
        return Asked {
            terms: query_terms(text),
            window: None,
            said: None,
            when,
            names: names_in(text),
            only_time: false,
        };
    };
    let mut rest = String::with_capacity(text.len());
    let mut at = 0;
    for ((_, from, to), _) in &named {
        rest.push_str(&text[at..w[*from].start]);
        rest.push(' ');
        at = w[*to].end;
    }
    rest.push_str(&text[at..]);
    let mut terms = content_words(&rest);
    let only_time = terms.is_empty();
    if only_time {
        // Nothing but a time: its words are all there is to look for.
        terms = query_terms(text);
    }
    Asked {
        terms,
        window: Some(window),
        said: Some(said),
        when,
        names: names_in(text),
        only_time,
    }
}

/// The names in `text`: the words it capitalises ("Caroline", "LGBTQ")
/// other than the first of a sentence and "I", lowercased like query words.
/// In a conversation between two people each name is in most turns (who
/// spoke, whom they address), so BM25 weighs it as filler; a question that
/// names someone asks about them (`rank`: [`NAMED`](super::rank::NAMED)).
pub fn names_in(text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut sentence_starts = true;
    for piece in text.split_inclusive(|c: char| !c.is_alphanumeric()) {
        let word = piece.trim_end_matches(|c: char| !c.is_alphanumeric());
        let capitalised = word.chars().next().is_some_and(char::is_uppercase);
        if !word.is_empty() {
            if capitalised && !sentence_starts && word != "I" {
                let name = word.to_lowercase();
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            sentence_starts = false;
        }
        if piece.ends_with(['.', '!', '?', '\n']) {
            sentence_starts = true;
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> Time {
        // A Wednesday.
        Time::parse("2026-06-17T15:00:00Z").unwrap()
    }

    fn day(y: i32, m: u32, d: u32) -> i64 {
        midnight(date_from(y, m, d).unwrap())
    }

    fn window(text: &str) -> Option<(i64, i64)> {
        ask(text, now()).window
    }

    #[test]
    fn absolute_dates_name_a_day_month_or_year() {
        let oct13 = Some((day(2023, 10, 12), day(2023, 10, 15)));
        assert_eq!(
            window("What did Caroline share on October 13, 2023?"),
            oct13
        );
        assert_eq!(window("what happened on 13 October 2023"), oct13);
        assert_eq!(window("the 13th of October 2023"), oct13);
        assert_eq!(window("notes from 2023-10-13 please"), oct13);
        assert_eq!(
            window("What was John doing in August 2023?"),
            Some((day(2023, 8, 1) - 3 * DAY, day(2023, 9, 1) + 3 * DAY))
        );
        assert_eq!(
            window("dec 2025"),
            Some((day(2025, 12, 1) - 3 * DAY, day(2026, 1, 1) + 3 * DAY))
        );
        assert_eq!(window("in 2022"), Some((day(2022, 1, 1), day(2023, 1, 1))));
        // Without a year: the latest such date up to now.
        assert_eq!(
            window("on July 4"),
            Some((day(2025, 7, 3), day(2025, 7, 6)))
        );
        assert_eq!(
            window("what did we plan in March?"),
            Some((day(2026, 3, 1) - 3 * DAY, day(2026, 4, 1) + 3 * DAY))
        );
    }

    #[test]
    fn relative_times_count_back_from_now() {
        let today = day(2026, 6, 17);
        assert_eq!(
            window("what did we fix yesterday"),
            Some((day(2026, 6, 15), today + DAY))
        );
        assert_eq!(
            window("Last week's deploy?"),
            Some((now().as_second() - 14 * DAY, now().as_second()))
        );
        assert_eq!(
            window("last year"),
            Some((day(2025, 1, 1), day(2026, 1, 1)))
        );
        assert_eq!(
            window("last month"),
            Some((day(2026, 5, 1) - 3 * DAY, day(2026, 6, 1) + 3 * DAY))
        );
        // Last Friday from a Wednesday: five days back.
        assert_eq!(
            window("the bug from last friday"),
            Some((day(2026, 6, 11), day(2026, 6, 14)))
        );
        // "3 days ago" is that day, with a day of slack as any day named.
        assert_eq!(
            window("3 days ago"),
            Some((day(2026, 6, 13), day(2026, 6, 16)))
        );
        let week = now().as_second() - 7 * DAY;
        assert!(window("a week ago").is_some_and(|(a, b)| a < week && week < b));
    }

    /// The time said (the strict window) of `text`, asked at [`now`].
    fn said(text: &str) -> Option<(i64, i64)> {
        ask(text, now()).said
    }

    /// The calendar day `d` of June 2026 as a strict window.
    fn june(d: u32) -> Option<(i64, i64)> {
        Some((day(2026, 6, d), day(2026, 6, d + 1)))
    }

    #[test]
    fn the_day_before_yesterday_is_two_days_back_and_a_day_to_come_is_no_time() {
        // now(): Wednesday 17 June 2026.
        for text in [
            "the day before yesterday",
            "what did we fix the day before yesterday?",
            "Day before yesterday",
        ] {
            assert_eq!(said(text), june(15), "{text}");
            assert_eq!(
                ask(text, now()).window,
                Some((day(2026, 6, 14), day(2026, 6, 17))),
                "{text}"
            );
        }
        let asked = ask("the deploy the day before yesterday", now());
        assert_eq!(asked.terms, ["deploy"]);
        assert_eq!(said("the day before today"), june(16));
        // Tomorrow is no memory: no window, neither today nor yesterday,
        // and its words stay.
        for text in [
            "the day after tomorrow",
            "what is due the day after tomorrow",
        ] {
            let asked = ask(text, now());
            assert_eq!(asked.window, None, "{text}");
            assert_eq!(asked.terms, query_terms(text), "{text}");
        }
    }

    #[test]
    fn parts_of_today_are_today() {
        for text in [
            "today",
            "tonight",
            "this morning",
            "what did we do this afternoon?",
            "This evening's deploy",
            "today in the morning",
            "earlier today",
        ] {
            assert_eq!(said(text), june(17), "{text}");
        }
        assert_eq!(said("last night"), june(16));
        assert_eq!(said("last evening"), june(16));
        // A part of a day named with it is the time's word, not the query's.
        assert!(ask("what did we do this morning", now()).only_time);
        assert!(ask("yesterday afternoon", now()).only_time);
        assert_eq!(said("yesterday afternoon"), june(16));
        assert_eq!(ask("the deploy this morning", now()).terms, ["deploy"]);
    }

    #[test]
    fn a_weekday_alone_is_the_latest_such_day_today_included() {
        // now(): Wednesday 17 June 2026.
        assert_eq!(said("on Friday"), june(12));
        assert_eq!(said("what did we do Friday"), june(12));
        assert_eq!(said("Tuesday"), june(16));
        assert_eq!(said("tuesday"), june(16));
        assert_eq!(said("on monday morning"), june(15));
        assert_eq!(said("Thursday"), june(11));
        // Today's weekday is today; "last" is the one before.
        assert_eq!(said("on Wednesday"), june(17));
        assert_eq!(said("last Wednesday"), june(10));
        assert_eq!(said("last friday night"), june(12));
        assert_eq!(said("this Wednesday"), june(17));
        assert_eq!(said("this monday"), june(15));
        assert_eq!(ask("this Friday", now()).window, None);
        assert!(ask("what did we do on Friday?", now()).only_time);
        assert_eq!(ask("the outage on Friday", now()).terms, ["outage"]);
        // A weekday to come, every week, or in a name: no time, and the
        // words stay.
        for text in [
            "next Friday",
            "the deploy every monday",
            "each Tuesday standup",
            "Black Friday sale",
            "Good Friday",
            "deploys on fridays",
        ] {
            let asked = ask(text, now());
            assert_eq!(asked.window, None, "{text}");
            assert_eq!(asked.terms, query_terms(text), "{text}");
        }
        // A date says which Friday.
        assert_eq!(
            said("on Friday, 23 January 2022"),
            Some((day(2022, 1, 23), day(2022, 1, 24)))
        );
    }

    #[test]
    fn zero_days_ago_is_today_and_one_day_ago_is_yesterday() {
        for text in ["0 days ago", "zero days ago", "what did we do 0 days ago?"] {
            let asked = ask(text, now());
            assert_eq!(asked.said, june(17), "{text}");
            assert_eq!(asked.window, ask("today", now()).window, "{text}");
        }
        for text in ["1 day ago", "a day ago", "one day ago"] {
            let (asked, yesterday) = (ask(text, now()), ask("yesterday", now()));
            assert_eq!(asked.said, june(16), "{text}");
            assert_eq!(asked.window, yesterday.window, "{text}");
        }
        assert_eq!(said("2 days ago"), said("the day before yesterday"));
        // "0 weeks ago" is about now.
        let at = now().as_second();
        assert!(window("0 weeks ago").is_some_and(|(a, b)| a < at && at < b));
    }

    #[test]
    fn words_that_only_look_like_times_stay_words() {
        for text in [
            "may I deploy on fridays",
            "the march of progress",
            "deploy the last build",
            "port 8080 and version 3",
            "why is it slow",
        ] {
            assert_eq!(window(text), None, "{text}");
        }
    }

    #[test]
    fn names_are_capitalised_words_inside_a_sentence() {
        assert_eq!(
            names_in("What did Caroline research? Then John's car, and I, LGBTQ."),
            ["caroline", "john", "lgbtq"]
        );
        assert!(names_in("When did we go?").is_empty());
        assert!(names_in("").is_empty());
        assert_eq!(ask("Did Ann go to Ann's party", now()).names, ["ann"]);
    }

    #[test]
    fn the_time_said_is_the_window_without_its_slack() {
        // now(): Wednesday 17 June 2026, 15:00.
        let said = |text: &str| ask(text, now()).said;
        assert_eq!(
            said("yesterday"),
            Some((day(2026, 6, 16), day(2026, 6, 17)))
        );
        assert_eq!(
            said("3 days ago"),
            Some((day(2026, 6, 14), day(2026, 6, 15)))
        );
        assert_eq!(said("last week"), Some((day(2026, 6, 8), day(2026, 6, 15))));
        assert_eq!(
            said("last weekend"),
            Some((day(2026, 6, 13), day(2026, 6, 15)))
        );
        assert_eq!(said("in March"), Some((day(2026, 3, 1), day(2026, 4, 1))));
        assert_eq!(
            said("on 13 October 2023"),
            Some((day(2023, 10, 13), day(2023, 10, 14)))
        );
        assert_eq!(said("in 2022"), Some((day(2022, 1, 1), day(2023, 1, 1))));
        assert_eq!(said("what did we do"), None);
        // The ranking's window holds the time said.
        for text in [
            "yesterday",
            "3 days ago",
            "last week",
            "in March",
            "last weekend",
        ] {
            let asked = ask(text, now());
            let (w, s) = (asked.window.unwrap(), asked.said.unwrap());
            assert!(w.0 <= s.0 && s.1 <= w.1, "{text}");
        }
    }

    #[test]
    fn a_time_alone_is_noticed() {
        assert!(ask("what did we do last week?", now()).only_time);
        assert!(ask("3 days ago", now()).only_time);
        assert!(!ask("the database last week", now()).only_time);
        // No time named: never "only a time".
        assert!(!ask("what did we do?", now()).only_time);
    }

    #[test]
    fn the_time_leaves_the_terms_and_when_is_noticed() {
        let asked = ask(
            "What kind of painting did Caroline share on October 13, 2023?",
            now(),
        );
        assert_eq!(asked.terms, ["kind", "painting", "caroline", "share"]);
        assert!(!asked.when);
        assert!(ask("When did Melanie paint a sunrise?", now()).when);
        assert!(ask("what date is the launch", now()).when);
        assert!(ask("How long ago did we move?", now()).when);
        assert!(!ask("whenever it rains", now()).when);
        // Two times: the date says which Friday, and neither stays a word.
        let asked = ask(
            "What did Joanna finish last Friday on 23 January, 2022?",
            now(),
        );
        assert_eq!(asked.window, Some((day(2022, 1, 22), day(2022, 1, 25))));
        assert_eq!(asked.terms, ["joanna", "finish"]);
        // A date that does not exist is no time, and its words stay.
        assert!(ask("may 13 may", now()).window.is_some());
        for text in ["on 31 February 2023", "2023-02-30", "2023-13-01", "Feb 30"] {
            let asked = ask(text, now());
            assert_eq!(asked.window, None, "{text}");
            assert_eq!(asked.terms, query_terms(text), "{text}");
        }
        // A query that is only a time keeps its words.
        assert_eq!(ask("yesterday", now()).terms, ["yesterday"]);
    }
}
