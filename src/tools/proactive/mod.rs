//! `proactive`: time-bounded items (foresight) in `memory/foresight.jsonl`,
//! and what the agent should bring up before being asked.
//!
//! An item is valid (shown by `list`, `due` and `mem_context`) while its
//! status is open — or snoozed and the snooze is over — and the clock is in
//! its window, `valid_from ≤ now ≤ valid_until` (both ends inclusive).

mod cli;
mod context;
pub mod extract;
pub mod items;
pub mod render;
pub mod scan;
pub mod when;

use crate::clock::Time;
use crate::tools::Tool;
use serde::{Deserialize, Serialize};

pub const TOOL: Tool = Tool {
    doctor: &[items::check_store],
    context: &[context::context_sections],
    suggest: &[scan::expiring],
    ..Tool::derived::<cli::ProactiveCli>("proactive", cli::run)
};

/// The longest text `add` takes, in bytes: a reminder says what to do; the
/// details belong in a note. (Hand-edited or synced items may be longer:
/// they are still read, shown capped, and closable.)
pub const MAX_TEXT_BYTES: u64 = 2048;

/// The most characters of an item's text a `mem_context` bullet shows (as
/// many as `extract` keeps), so one long item cannot push the others out.
pub const BULLET_TEXT_CHARS: usize = extract::MAX_TEXT_CHARS;

/// The most characters of an item's id a `mem_context` bullet shows: ids
/// minted here are 14 (`f-<12 hex>`); a hand-edited or synced one may be
/// any length and is cut (with `…`).
pub const BULLET_ID_CHARS: usize = 64;

/// The most tags `add` puts on one item (each 1-64 characters).
pub const MAX_TAGS: usize = 20;

/// Where the items live, relative to the home.
pub const FORESIGHT_FILE: &str = "memory/foresight.jsonl";

/// `open`, `snoozed`, `dismissed` or `done`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemStatus {
    Open,
    Snoozed,
    Dismissed,
    Done,
}

impl ItemStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ItemStatus::Open => "open",
            ItemStatus::Snoozed => "snoozed",
            ItemStatus::Dismissed => "dismissed",
            ItemStatus::Done => "done",
        }
    }
}

/// One state of one item: a line of `foresight.jsonl`. The file is
/// append-only: a change (dismiss, done, snooze) appends the item's new
/// state, and the line with the latest `updated` wins (so two homes' files
/// merge as a union of lines).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub id: String,
    pub text: String,
    /// RFC 3339, UTC.
    pub valid_from: String,
    pub valid_until: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<String>,
    /// `cli`, `mcp`, or `extract:<turn id>`.
    pub source: String,
    pub created: String,
    pub updated: String,
    pub status: ItemStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snoozed_until: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// Where an item stands at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Valid now: shown by `list`, `due` and `mem_context`.
    Valid,
    /// Its window has not begun.
    Upcoming,
    /// Snoozed, and the snooze is not over.
    Snoozed,
    /// Its window is over.
    Expired,
    Dismissed,
    Done,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Valid => "valid",
            State::Upcoming => "upcoming",
            State::Snoozed => "snoozed",
            State::Expired => "expired",
            State::Dismissed => "dismissed",
            State::Done => "done",
        }
    }
}

/// An RFC 3339 time as stored; `None` when it does not parse.
pub fn parse_time(text: &str) -> Option<Time> {
    Time::parse(text).ok()
}

/// The last second a time can be stored at (RFC 3339 writes four-digit
/// years): 9999-12-31T23:59:59Z.
pub fn latest() -> Time {
    Time::parse("9999-12-31T23:59:59Z").unwrap_or(Time::MAX)
}

/// A computed time that is only shown, never stored (a look-ahead's end, a
/// suggested snooze), brought back to [`latest`] when it falls past it, so
/// it stays RFC 3339. No item can be due later, so nothing is missed.
pub fn clamp(at: Time) -> Time {
    at.min(latest())
}

/// A time as stored: RFC 3339, UTC, whole seconds.
pub fn stamp(at: Time) -> String {
    at.stamp()
}

impl Item {
    /// The times of the item (the reader keeps only items whose times parse).
    pub fn from_at(&self) -> Time {
        parse_time(&self.valid_from).unwrap_or(Time::MIN)
    }

    pub fn until_at(&self) -> Time {
        parse_time(&self.valid_until).unwrap_or(Time::MIN)
    }

    pub fn due_at(&self) -> Option<Time> {
        self.due.as_deref().and_then(parse_time)
    }

    pub fn snoozed_until_at(&self) -> Option<Time> {
        self.snoozed_until.as_deref().and_then(parse_time)
    }

    /// The times that must parse for the item to be read at all, with the
    /// name of the first one that does not.
    pub fn check_times(&self) -> Result<(), &'static str> {
        let fields: [(&'static str, Option<&str>); 5] = [
            ("valid_from", Some(&self.valid_from)),
            ("valid_until", Some(&self.valid_until)),
            ("updated", Some(&self.updated)),
            ("due", self.due.as_deref()),
            ("snoozed_until", self.snoozed_until.as_deref()),
        ];
        for (name, value) in fields {
            if let Some(value) = value
                && parse_time(value).is_none()
            {
                return Err(name);
            }
        }
        Ok(())
    }

    /// Where the item stands at `now`. The window rule: valid ⇔ open (or
    /// snoozed with `snoozed_until ≤ now`) and `valid_from ≤ now ≤ valid_until`.
    pub fn state(&self, now: Time) -> State {
        match self.status {
            ItemStatus::Dismissed => return State::Dismissed,
            ItemStatus::Done => return State::Done,
            ItemStatus::Snoozed => {
                if self.snoozed_until_at().is_none_or(|until| now < until) {
                    if now > self.until_at() {
                        return State::Expired;
                    }
                    return State::Snoozed;
                }
            }
            ItemStatus::Open => {}
        }
        if now < self.from_at() {
            State::Upcoming
        } else if now > self.until_at() {
            State::Expired
        } else {
            State::Valid
        }
    }

    /// Valid at `now` (the window rule).
    pub fn is_valid(&self, now: Time) -> bool {
        self.state(now) == State::Valid
    }

    /// The item as `data` shows it: the stored fields plus its state at `now`.
    pub fn to_json(&self, now: Time) -> serde_json::Value {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        if let Some(map) = value.as_object_mut() {
            map.insert("state".into(), self.state(now).as_str().into());
        }
        value
    }
}

/// Orders items for a person: due soonest first, then (no due) by the end
/// of their window, then in the order they were added.
pub fn by_due(a: &Item, b: &Item) -> std::cmp::Ordering {
    // Ties keep the file's order (callers sort stably): the item added
    // first comes first, never an order of random ids.
    let key = |i: &Item| (i.due_at().is_none(), i.due_at(), i.until_at());
    key(a).cmp(&key(b))
}
