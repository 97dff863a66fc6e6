//! The deterministic finder: commitments, reminders and deadlines in one
//! turn's text, with their dates resolved against the turn's own time.
//!
//! A sentence yields an item when it has (1) a cue — a first-person promise
//! (`I'll`, `I will`, `we're going to`, `let's`, `I need to`…), a reminder
//! request (`remind me`, `don't forget`), or a deadline noun with a present
//! or future verb (`the demo is on 12 March`, `deadline is end of month`) —
//! and (2) a WHEN phrase that resolves, in the local zone, to a time not
//! before the turn. Sentences that are past (`I sent it on Friday`),
//! questions without a reminder request, idioms (`tomorrow never comes`),
//! quotes, and code or log lines never yield one.

use super::super::when::{self, Zone};
use crate::clock::{Time, days};
use crate::prose::prose_lines;
use regex::Regex;
use std::sync::LazyLock;

/// Longest item text, in characters.
pub const MAX_TEXT_CHARS: usize = 200;
/// How long an item without a due date stays valid.
pub const DEFAULT_WINDOW_DAYS: i64 = 7;
/// How long an item stays valid after its due time (so an overdue one is still seen).
pub const GRACE_DAYS: i64 = 1;

/// One commitment found in a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub text: String,
    pub due: Option<Time>,
    pub valid_from: Time,
    pub valid_until: Time,
}

/// Full weekday names (and `tues`, `thurs`): in prose `sun`, `sat` or
/// `c'mon` are not days.
const WEEKDAY: &str = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|tues|thurs";
const MONTH: &str = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";
const NUMBER: &str = r"\d{1,3}|a couple of|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty";
const CLOCK: &str = r"\d{1,2}:\d{2}(?:\s?[ap]m)?|\d{1,2}\s?[ap]m|noon|midnight";
const PART: &str = r"morning|afternoon|evening|night";

/// A WHEN phrase inside a sentence (the grammar `when::resolve` reads).
static PHRASE: LazyLock<Regex> = LazyLock::new(|| {
    let day = format!(
        r"today|tonight|tomorrow|eod|end of (?:the |this |next )?(?:day|week|month|year)|(?:this |next )?weekend|(?:this|next) (?:week|month|year)|(?:next |this )?(?:{WEEKDAY})|\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}(?:st|nd|rd|th)?(?: of)? (?:{MONTH})(?: \d{{4}})?|(?:{MONTH}) \d{{1,2}}(?:st|nd|rd|th)?(?:,? \d{{4}})?|the \d{{1,2}}(?:st|nd|rd|th)"
    );
    let offset = format!(r"in (?:{NUMBER}) (?:minute|min|hour|day|week|month|year)s?");
    let pattern = format!(
        r"(?i)\b(?:(?:{day})(?: (?:{PART}))?(?:,? (?:at )?(?:{CLOCK}))?|{offset}|(?:at )?(?:{CLOCK})(?: (?:{day}))?)\b"
    );
    Regex::new(&pattern).expect("the WHEN phrase pattern compiles")
});

/// A promise in the first person.
static PROMISE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:i'll|i will|i shall|i'm going to|i am going to|i'm gonna|i plan to|i promise to|i need to|i have to|i must|i should|i'd better|we'll|we will|we shall|we're going to|we are going to|we need to|we have to|we must|let's|let us|let me|i can have|i'll have|i will have)\b",
    )
    .expect("promise pattern")
});

/// A request to be reminded.
static REMIND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:remind (?:me|us)|don't forget|do not forget|remember to|make sure (?:to|you|i|we)|note to self)\b")
        .expect("reminder pattern")
});

/// A deadline or an appointment stated as a fact about the future.
static DEADLINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:deadline|due|expires?|expiry|renewal|demo|meeting|launch|release|appointment|interview|presentation|review|standup|exam|flight|submission|cut-?off|freeze|handover|kickoff|kick-off|offsite|workshop|call|sync|retro|party|dinner)\b[^.!?]{0,40}?\b(?:is|are|will be|'s|gets|starts?|ends?|closes?|happens|falls)\b|\b(?:is|are) (?:due|scheduled|planned|set|booked|moved|expected)\b|\bexpires?\b|\bdue\b",
    )
    .expect("deadline pattern")
});

/// Past tense or a look back: such a sentence is a report, not a commitment.
static PAST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:last (?:week|month|year|night|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|ago|yesterday|was|were|did|didn't|had|sent|went|happened|finished|already|earlier)\b",
    )
    .expect("past pattern")
});

/// A commitment turned down: `let's not`, `won't`, `never`.
static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:let's not|let us not|won't|will not|shall not|never|not going to|don't need to|do not need to|no need to|don't have to|do not have to)\b",
    )
    .expect("negation pattern")
});

/// Idioms about time that promise nothing.
static IDIOM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)tomorrow never comes|tomorrow is another day|there's always tomorrow|there is always tomorrow|live for today|one day at a time|not today|any day now|some day|someday|one of these days",
    )
    .expect("idiom pattern")
});

/// A line that is code or a log, not prose.
static CODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\s*(?:\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}|\[?(?:info|warn|warning|error|debug|trace)\]?[\s:]|[$#>]\s|//|/\*|#include|[{}]|<[a-z/!])|(?-i:^\s*(?:let (?:mut )?\w+\s*[:=]|(?:pub )?fn \w+|const \w+\s*[:=]|def \w+\(|class \w+|import \S|from \S+ import|use \w+::))|[;{}]\s*$|=>|::|\w\(\)",
    )
    .expect("code pattern")
});

/// The commitments in one turn's text (`role` `user` or `assistant`; any
/// other role yields nothing), dates read in the zone from `TZ`.
pub fn find(text: &str, role: &str, ts: Time) -> Vec<Found> {
    find_in(text, role, ts, &Zone::from_env())
}

/// [`find`] in an explicit zone.
pub fn find_in(text: &str, role: &str, ts: Time, zone: &Zone) -> Vec<Found> {
    if role != "user" && role != "assistant" {
        return Vec::new();
    }
    let text = text.replace(['\u{2019}', '\u{2018}'], "'");
    let mut found = Vec::new();
    for sentence in sentences(&text) {
        // "The kickoff is on the 2nd, and I'll prepare the agenda by
        // Tuesday": clauses that each stand as an item are two items.
        let clauses = clauses(&sentence);
        if clauses.len() > 1 && !sentence.ends_with('?') {
            let each: Vec<Found> = clauses
                .iter()
                .filter_map(|c| sentence_item(c, ts, zone))
                .collect();
            if each.len() > 1 {
                found.extend(each);
                continue;
            }
        }
        if let Some(f) = sentence_item(&sentence, ts, zone) {
            found.push(f);
        }
    }
    found
}

/// A sentence cut at `, and`, `, but`, `, then` and `;`.
fn clauses(sentence: &str) -> Vec<String> {
    static CUT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\s*(?:;|,\s*(?:and|but|then|and then)\b)\s*").expect("clause cut")
    });
    CUT.split(sentence)
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

fn sentence_item(sentence: &str, ts: Time, zone: &Zone) -> Option<Found> {
    if IDIOM.is_match(sentence) || NEGATION.is_match(sentence) {
        return None;
    }
    let promise = PROMISE.is_match(sentence);
    let remind = REMIND.is_match(sentence);
    let question = sentence.trim_end().ends_with('?');
    if question && !remind {
        return None;
    }
    if !promise && !remind {
        if !DEADLINE.is_match(sentence) || PAST.is_match(sentence) {
            return None;
        }
    } else if !remind && PAST.is_match(&without_phrases(sentence)) && !future_after_past(sentence) {
        return None;
    }
    let when = PHRASE
        .find_iter(sentence)
        .filter(|m| !preceded_by_past_marker(sentence, m.start()))
        .filter(|m| {
            !m.as_str().to_lowercase().starts_with("the ") || after_preposition(sentence, m.start())
        })
        .find_map(|m| when::resolve_in(m.as_str(), ts, zone).ok());
    let text = clip(sentence.trim());
    match when {
        Some(w) => {
            // A deadline already past when the turn was written is a report.
            if w.end < ts {
                return None;
            }
            let due = w.end;
            let valid_from = if remind && w.start > ts { w.start } else { ts };
            Some(Found {
                text,
                due: Some(due),
                valid_from,
                valid_until: due + days(GRACE_DAYS),
            })
        }
        // A reminder without a date is still an item, kept for a week.
        None if remind && !question => Some(Found {
            text,
            due: None,
            valid_from: ts,
            valid_until: ts + days(DEFAULT_WINDOW_DAYS),
        }),
        None => None,
    }
}

/// "I'll resend what I sent yesterday by Friday": a promise whose past words
/// come before the promise itself still counts.
fn future_after_past(sentence: &str) -> bool {
    let (Some(p), Some(past)) = (PROMISE.find(sentence), PAST.find(sentence)) else {
        return false;
    };
    p.start() < past.start()
}

/// The sentence without its WHEN phrases (so `tomorrow` never reads as past).
fn without_phrases(sentence: &str) -> String {
    PHRASE.replace_all(sentence, " ").into_owned()
}

/// `since Friday`, `last friday`, `on friday I sent`: a phrase right after a
/// look-back word names the past.
fn preceded_by_past_marker(sentence: &str, at: usize) -> bool {
    let before = sentence[..at].trim_end().to_lowercase();
    ["last", "since", "past", "previous"]
        .iter()
        .any(|w| before.ends_with(w))
}

/// `the 15th` names a day only after `on`, `by`, `before`, `until`, `till`,
/// `due` or `for` (not in `I'll fix the 2nd test`).
fn after_preposition(sentence: &str, at: usize) -> bool {
    let before = sentence[..at].trim_end().to_lowercase();
    let last = before
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    ["on", "by", "before", "until", "till", "due", "for"].contains(&last)
}

fn clip(text: &str) -> String {
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= MAX_TEXT_CHARS {
        return text;
    }
    let mut out: String = text.chars().take(MAX_TEXT_CHARS - 1).collect();
    out.push('…');
    out
}

/// The prose sentences of a turn: fenced code blocks, `>` quotes, indented
/// lines ([`prose_lines`]) and code or log lines are left out; lines split
/// at `.`, `!`, `?` followed by a space (not inside `a.m.`/`e.g.`-style
/// abbreviations of one letter).
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose_lines(text) {
        let trimmed = line.trim();
        if trimmed.is_empty() || CODE.is_match(line) {
            continue;
        }
        let prose = trimmed.trim_start_matches(['-', '*', '+', ' ']);
        let chars: Vec<(usize, char)> = prose.char_indices().collect();
        let mut start = 0;
        for (k, &(i, c)) in chars.iter().enumerate() {
            let end_here = matches!(c, '.' | '!' | '?')
                && chars.get(k + 1).is_none_or(|&(_, n)| n.is_whitespace())
                && !(c == '.' && k >= 2 && chars[k - 2].1 == '.');
            if end_here {
                let s = prose[start..i + c.len_utf8()].trim();
                if !s.is_empty() {
                    out.push(s.to_string());
                }
                start = i + c.len_utf8();
            }
        }
        let rest = prose[start..].trim();
        if !rest.is_empty() {
            out.push(rest.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Time {
        Time::parse(s).unwrap()
    }

    fn utc() -> Zone {
        Zone::named("UTC").unwrap()
    }

    #[test]
    fn sentences_skip_code_and_split_prose() {
        let text = "I'll send it by Friday. Thanks!\n```\nlet x = tomorrow();\n```\n    indented tomorrow\n2026-01-01T10:00 ERROR tomorrow";
        assert_eq!(sentences(text), vec!["I'll send it by Friday.", "Thanks!"]);
        // A quote is someone else's words, with or without a space after `>`.
        let quoted = "> I'll send it tomorrow.\n>I'll call you on Monday.\nOk.";
        assert_eq!(sentences(quoted), vec!["Ok."]);
    }

    #[test]
    fn tool_and_system_turns_yield_nothing() {
        let ts = at("2026-01-15T09:30:00Z");
        assert!(find_in("I'll send it tomorrow.", "tool", ts, &utc()).is_empty());
        assert!(find_in("I'll send it tomorrow.", "system", ts, &utc()).is_empty());
        assert_eq!(
            find_in("I'll send it tomorrow.", "assistant", ts, &utc()).len(),
            1
        );
    }

    #[test]
    fn text_is_clipped() {
        let long = format!("I'll do it tomorrow {}", "very ".repeat(80));
        let f = find_in(&long, "user", at("2026-01-15T09:30:00Z"), &utc());
        assert_eq!(f[0].text.chars().count(), MAX_TEXT_CHARS);
    }
}
