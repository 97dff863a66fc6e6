//! How items read to a person: absolute times in UTC and relative ones
//! ("due in 2 days"), both computed from the call's clock only, so the same
//! clock always prints the same text.

use super::{Item, State};
use crate::clock::Time;
use crate::output::Style;
use crate::redact::Redactor;

/// `Fri 2026-01-16 17:00 UTC`.
pub fn absolute(at: Time) -> String {
    at.format("%a %Y-%m-%d %H:%M UTC")
}

/// A span in words, rounded down to its largest unit: `3 days`, `1 hour`,
/// `45 minutes`, `less than a minute`.
pub fn span(seconds: i64) -> String {
    let s = seconds.abs();
    let (n, unit) = if s >= 86_400 {
        (s / 86_400, "day")
    } else if s >= 3_600 {
        (s / 3_600, "hour")
    } else if s >= 60 {
        (s / 60, "minute")
    } else {
        return "less than a minute".to_string();
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// `in 2 days`, `3 hours ago`, `now`.
pub fn relative(at: Time, now: Time) -> String {
    let seconds = (at - now).as_secs();
    if seconds == 0 {
        "now".to_string()
    } else if seconds > 0 {
        format!("in {}", span(seconds))
    } else {
        format!("{} ago", span(seconds))
    }
}

/// What the item's dates say at `now`: `due in 2 days (Fri 2026-01-16 17:00
/// UTC)`, `overdue by 1 day`, `until …`, `snoozed until …`.
pub fn when_line(item: &Item, now: Time) -> String {
    let mut parts = Vec::new();
    match item.state(now) {
        State::Snoozed => {
            if let Some(until) = item.snoozed_until_at() {
                parts.push(format!(
                    "snoozed until {} ({})",
                    absolute(until),
                    relative(until, now)
                ));
            }
        }
        State::Upcoming => parts.push(format!(
            "from {} ({})",
            absolute(item.from_at()),
            relative(item.from_at(), now)
        )),
        _ => {}
    }
    if let Some(due) = item.due_at() {
        let seconds = (due - now).as_secs();
        if seconds < 0 {
            parts.push(format!("overdue by {} ({})", span(seconds), absolute(due)));
        } else {
            parts.push(format!("due {} ({})", relative(due, now), absolute(due)));
        }
    } else {
        let until = item.until_at();
        let verb = if now > until { "expired" } else { "until" };
        parts.push(format!(
            "{verb} {} ({})",
            absolute(until),
            relative(until, now)
        ));
    }
    parts.join(", ")
}

/// One item as a block of text: the id and text, then its dates and tags.
pub fn item_block(item: &Item, now: Time, s: Style) -> String {
    let state = item.state(now);
    let mark = match state {
        State::Valid => s.cyan("•"),
        State::Upcoming | State::Snoozed => s.dim("◦"),
        State::Done => s.green("✓"),
        State::Expired | State::Dismissed => s.dim("×"),
    };
    let label = if state == State::Valid {
        String::new()
    } else {
        format!(" [{}]", state.as_str())
    };
    let mut text = format!(
        "{mark} {}  {}{label}\n",
        s.bold(&item.id),
        one_line(&item.text)
    );
    let mut detail = when_line(item, now);
    if !item.tags.is_empty() {
        detail.push_str(&format!(" · #{}", item.tags.join(" #")));
    }
    text.push_str(&format!("    {}\n", s.dim(&detail)));
    text
}

/// A text on one line: line breaks become ` / ` and other control
/// characters (ESC, NUL… from a hand-edited file) a space, so no text can
/// drive a terminal or break a prompt.
pub fn one_line(text: &str) -> String {
    text.trim()
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" / ")
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// One bullet of `mem_context`'s Foresight section. Every part is bounded,
/// so a long item takes no more room than a short one and every valid item
/// gets its line: the text is cut to
/// [`BULLET_TEXT_CHARS`](super::BULLET_TEXT_CHARS) characters and the id
/// (hand-edited or synced, any length) to
/// [`BULLET_ID_CHARS`](super::BULLET_ID_CHARS), each with `…`; the dates are
/// printed by this program. Both are redacted first (a cut never leaves the
/// start of a secret its pattern no longer recognises) and put on one line.
pub fn bullet(item: &Item, now: Time, redactor: &Redactor) -> String {
    let when = match item.due_at() {
        Some(due) if due < now => format!("overdue since {}", absolute(due)),
        Some(due) => format!("due {} ({})", absolute(due), relative(due, now)),
        None => format!("until {}", absolute(item.until_at())),
    };
    let bounded = |text: &str, max: usize| cut(&one_line(&redactor.redact(text)), max);
    format!(
        "- {} ({when}; {})\n",
        bounded(&item.text, super::BULLET_TEXT_CHARS),
        bounded(&item.id, super::BULLET_ID_CHARS)
    )
}

/// `text` cut to at most `max` characters, the last one `…` when cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Time {
        super::super::parse_time(text).unwrap()
    }

    #[test]
    fn relative_times_round_down_to_their_largest_unit() {
        let now = at("2026-01-15T09:30:00Z");
        assert_eq!(relative(at("2026-01-17T10:00:00Z"), now), "in 2 days");
        assert_eq!(relative(at("2026-01-16T09:29:59Z"), now), "in 23 hours");
        assert_eq!(relative(at("2026-01-15T10:30:00Z"), now), "in 1 hour");
        assert_eq!(relative(at("2026-01-15T09:31:00Z"), now), "in 1 minute");
        assert_eq!(
            relative(at("2026-01-15T09:30:20Z"), now),
            "in less than a minute"
        );
        assert_eq!(relative(now, now), "now");
        assert_eq!(relative(at("2026-01-14T09:30:00Z"), now), "1 day ago");
        assert_eq!(
            absolute(at("2026-01-16T17:00:00Z")),
            "Fri 2026-01-16 17:00 UTC"
        );
    }
}
