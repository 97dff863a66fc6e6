//! The small JSON files agentbox keeps inside `sync.git/` (never synced):
//! the pull journal, the conflict record, the time of the last sync.

use super::Session;
use crate::error::Result;
use crate::tools::Ctx;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::Path;

/// Written before a pull touches the work tree, removed when it is done.
pub(super) const JOURNAL: &str = "agentbox-pull.json";
/// An unresolved conflict: the remote commit and the conflicted files.
pub(super) const CONFLICT: &str = "agentbox-conflict.json";
/// `{last_sync}`.
const STATE: &str = "agentbox.json";

/// A pull in progress: move the work tree from the tree `from` to the commit
/// `target`, for `files`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Journal {
    pub target: String,
    pub from: Option<String>,
    pub files: Vec<String>,
}

/// A conflict waiting for a person.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct ConflictRecord {
    pub remote: String,
    pub files: Vec<String>,
    #[serde(default)]
    pub reasons: Vec<String>,
}

fn read_json<T: for<'de> Deserialize<'de>>(session: &Session, name: &str) -> Result<Option<T>> {
    let path = session.git_path(name);
    let Some(text) = session.home.store.read_state(&path)? else {
        return Ok(None);
    };
    serde_json::from_str(&text).map(Some).map_err(|e| {
        crate::error::Error::internal(format!("{} is damaged: {e}", path.display()))
            .with_hint("delete it and run `agentbox sync now`")
    })
}

fn write_json<T: Serialize>(session: &Session, name: &str, value: &T) -> Result<()> {
    session
        .home
        .store
        .write_state(&session.git_path(name), value)
}

fn remove(session: &Session, name: &str) -> Result<()> {
    session.home.store.remove_file(&session.git_path(name))?;
    Ok(())
}

pub(super) fn read_journal(session: &Session) -> Result<Option<Journal>> {
    read_json(session, JOURNAL)
}

pub(super) fn write_journal(session: &Session, journal: &Journal) -> Result<()> {
    write_json(session, JOURNAL, journal)
}

pub(super) fn remove_journal(session: &Session) -> Result<()> {
    remove(session, JOURNAL)
}

pub(super) fn read_conflict(session: &Session) -> Result<Option<ConflictRecord>> {
    read_json(session, CONFLICT)
}

pub(super) fn write_conflict(session: &Session, record: &ConflictRecord) -> Result<()> {
    write_json(session, CONFLICT, record)
}

pub(super) fn remove_conflict(session: &Session) -> Result<()> {
    remove(session, CONFLICT)
}

/// The conflict record without a session (doctor).
pub(super) fn peek_conflict(git_dir: &Path) -> Option<ConflictRecord> {
    let text = std::fs::read_to_string(git_dir.join(CONFLICT)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Records that a pull, push or now succeeded, at the clock's time.
pub(super) fn record_sync(session: &Session, ctx: &Ctx) -> Result<()> {
    write_json(session, STATE, &json!({"last_sync": ctx.clock.stamp()}))
}

pub(super) fn last_sync(session: &Session) -> Option<String> {
    peek_last_sync(&session.git_path(""))
}

/// `last_sync` without a session (doctor).
pub(super) fn peek_last_sync(git_dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(git_dir.join(STATE)).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value["last_sync"].as_str().map(str::to_string)
}
