//! `proactive`: time-bounded items (foresight) in `memory/foresight.jsonl`,
//! and what the agent should bring up before being asked.

pub mod extract;
pub mod items;
pub mod when;

use serde::{Deserialize, Serialize};

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
