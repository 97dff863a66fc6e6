//! The small JSON files agentbox keeps inside `sync.git/` (never synced):
//! the pull journal, the conflict record, the time of the last sync.

use super::Session;
use crate::error::{Error, ErrorType, Result};
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
/// The paths `main` has that a pull did not write into the home (a remote
/// symlink, a file over the limits, something of the home in the way).
pub(super) const HELD: &str = "agentbox-held.json";

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
    /// Where each file's remote version is kept, home-relative (`""`: only
    /// in sync.git). Absent in older records: `<file>.remote` each.
    #[serde(default)]
    pub copies: Vec<String>,
}

impl ConflictRecord {
    /// The home-relative copy of the remote's version of file `i`, if any.
    pub fn copy(&self, i: usize) -> Option<String> {
        match self.copies.get(i) {
            Some(copy) if copy.is_empty() => None,
            Some(copy) => Some(copy.clone()),
            None => Some(format!(
                "{}{}",
                self.files[i],
                crate::tools::sync::CONFLICT_SUFFIX
            )),
        }
    }
}

/// A path of `main` a pull held back from the home.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct HeldPath {
    /// The blob `main` has there.
    pub blob: String,
    /// The blob of the file the home had there when it was held back
    /// (`None`: nothing). While the home still has exactly that, the path is
    /// not a change of this home: the next commit keeps `main`'s version.
    pub live: Option<String>,
    pub reason: String,
}

/// Every held-back path, by home-relative path.
pub(super) type Held = std::collections::BTreeMap<String, HeldPath>;

fn read_json<T: for<'de> Deserialize<'de>>(session: &Session, name: &str) -> Result<Option<T>> {
    let path = session.git_path(name);
    let text = match session.home.store.read_state(&path) {
        Ok(Some(text)) => text,
        Ok(None) => return Ok(None),
        // Not UTF-8 or over the cap: as damaged as bad JSON.
        Err(e) if e.kind != ErrorType::Permission && e.kind != ErrorType::Io => {
            return Err(damaged(&path, name, &e.message));
        }
        Err(e) => return Err(e),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| damaged(&path, name, &e.to_string()))
}

/// `io` for a state file of `sync.git` that cannot be read back, with the
/// repair: deleting it loses nothing (see [`repair_hint`]).
fn damaged(path: &Path, name: &str, why: &str) -> Error {
    Error::new(
        ErrorType::Io,
        format!("sync: {} is damaged: {why}", path.display()),
    )
    .with_hint(repair_hint(name))
    .with_detail("path", path.display().to_string())
}

/// How to repair a damaged state file. Deleting either loses nothing: a
/// pull journal's files are committed by the next sync as this home's
/// changes and merged again with the remote (which holds the same bytes);
/// a conflict record is made again by the next sync, which stops on the
/// same conflict.
pub(super) fn repair_hint(name: &str) -> String {
    let next = if name == JOURNAL {
        "the next sync commits what the interrupted pull wrote and merges with the remote again"
    } else {
        "the next sync finds the conflict again"
    };
    format!("delete sync.git/{name} ({next}; no file is lost), then run `agentbox sync now`")
}

/// Whether a state file exists and does not parse (doctor).
pub(super) fn peek_damaged(git_dir: &Path, name: &str) -> bool {
    match std::fs::read(git_dir.join(name)) {
        Ok(bytes) => match name {
            JOURNAL => serde_json::from_slice::<Journal>(&bytes).is_err(),
            _ => serde_json::from_slice::<ConflictRecord>(&bytes).is_err(),
        },
        Err(_) => false,
    }
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

pub(super) fn read_held(session: &Session) -> Result<Held> {
    Ok(read_json(session, HELD)?.unwrap_or_default())
}

/// Writes the held-back paths (removes the file when there are none).
pub(super) fn write_held(session: &Session, held: &Held) -> Result<()> {
    if held.is_empty() {
        remove(session, HELD)
    } else {
        write_json(session, HELD, held)
    }
}

/// The held-back paths without a session (doctor).
pub(super) fn peek_held(git_dir: &Path) -> Held {
    std::fs::read_to_string(git_dir.join(HELD))
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
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
