//! What stops a pull and how it is recorded: a `Stop` per path, the copy of
//! the remote's version kept in the home, the conflict record and the
//! `conflict` error every syncing verb returns while it waits.

use super::state::{self, ConflictRecord};
use super::tree::{blob, blob_size, tree_of};
use super::{Session, abs, short};
use crate::error::{Error, Result};
use crate::tools::sync::CONFLICT_SUFFIX;
use git2::Oid;
use std::path::Path;

/// A path that stops a pull: why, and where the remote's version is kept in
/// the home (`None`: only in sync.git).
#[derive(Debug, Clone)]
pub(super) struct Stop {
    pub(super) rel: String,
    pub(super) reason: String,
    pub(super) copy: Option<String>,
}

impl Stop {
    /// A conflict whose remote version goes beside the file, `<file>.remote`.
    pub(super) fn beside(rel: &str, reason: impl Into<String>) -> Stop {
        Stop {
            rel: rel.to_string(),
            reason: reason.into(),
            copy: Some(format!("{rel}{CONFLICT_SUFFIX}")),
        }
    }
}

/// The never-synced folder (its name ends in `.remote`) at the home's root
/// that keeps the remote's files of a folder that clashed with a file.
const CLASH_DIR: &str = "sync.remote";

/// The copy of the remote's `rel` when a file of this home is where the
/// remote has a folder: `sync.remote/<rel>`. Not beside the file: a folder
/// `<file>.remote/` would be taken for a skill or a session by the tools
/// that list folders.
pub(super) fn copy_at(rel: &str) -> String {
    format!("{CLASH_DIR}/{rel}")
}

/// The folders of `rel`, outermost first (`a`, `a/b` for `a/b/c`).
pub(super) fn folders(rel: &str) -> impl Iterator<Item = &str> {
    rel.match_indices('/').map(move |(i, _)| &rel[..i])
}

/// What a file pulled into `rel` may weigh: what the tools that read it
/// accept. `foresight.jsonl` is read line by line (each line capped); every
/// other file is read whole under `limits.max_item_bytes`.
pub(super) fn pull_limit(session: &Session, rel: &str) -> (u64, &'static str) {
    if rel == "memory/foresight.jsonl" {
        (crate::store::MAX_STATE_BYTES, "the state cap")
    } else {
        (session.home.store.max_item_bytes(), "limits.max_item_bytes")
    }
}

/// Keeps each conflicted file's remote version where its `Stop` says (no
/// copy of a file too big for the store: it stays in sync.git), records the
/// conflict and returns the `conflict` error. No synced file changes.
pub(super) fn record_conflict(session: &Session, remote: Oid, stops: &[Stop]) -> Result<Error> {
    let tree = tree_of(session, Some(remote))?;
    let mut copies = Vec::new();
    let mut stops = stops.to_vec();
    let kept = format!(
        "the remote's version is not written into the home; `git --git-dir {} show {}:PATH` prints it",
        session.git_path("").display(),
        short(remote)
    );
    for stop in &mut stops {
        let Some(copy_rel) = &stop.copy else {
            copies.push(String::new());
            continue;
        };
        // A copy whose name this home cannot hold (too long with its
        // `.remote`) is not made.
        if let Some(why) = super::unholdable(copy_rel) {
            stop.reason = format!("{}; its copy would have {why}: {kept}", stop.reason);
            copies.push(String::new());
            continue;
        }
        let theirs = tree
            .as_ref()
            .and_then(|t| t.get_path(Path::new(&stop.rel)).ok())
            .filter(|e| e.kind() == Some(git2::ObjectType::Blob))
            .map(|e| e.id());
        // Nor one over what the tools read (the limits of the path it
        // copies): it stays in sync.git.
        let (limit, name) = pull_limit(session, &stop.rel);
        if let Some(oid) = theirs
            && let size = blob_size(session, oid)?
            && size > limit
        {
            stop.reason = format!(
                "{}; {size} bytes, over {name} ({limit}): {kept}",
                stop.reason
            );
            copies.push(String::new());
            continue;
        }
        let bytes = blob(session, theirs)?.unwrap_or_default();
        let copy = abs(session.home, copy_rel);
        if let Some(parent) = copy.parent() {
            session.home.store.ensure_dir(parent)?;
        }
        session.home.store.write_pulled(&copy, &bytes, false)?;
        session
            .home
            .store
            .sync_paths([copy.as_path()].into_iter().chain(copy.parent()));
        copies.push(copy_rel.clone());
    }
    let record = ConflictRecord {
        remote: remote.to_string(),
        files: stops.iter().map(|s| s.rel.clone()).collect(),
        reasons: stops.iter().map(|s| s.reason.clone()).collect(),
        copies,
    };
    state::write_conflict(session, &record)?;
    Ok(conflict_error(session, &record))
}

/// The `conflict` error every syncing verb returns while a conflict waits.
pub(super) fn conflict_error(session: &Session, record: &ConflictRecord) -> Error {
    let copies: Vec<String> = (0..record.files.len())
        .filter_map(|i| record.copy(i))
        .collect();
    let mut hint = if copies.is_empty() {
        String::new()
    } else {
        format!(
            "keep what you want in the home, delete each {CONFLICT_SUFFIX} copy, then run `agentbox sync now` (the remote's versions are kept as {})",
            copies.join(", ")
        )
    };
    if copies.len() < record.files.len() {
        if !hint.is_empty() {
            hint.push_str("; ");
        }
        hint.push_str(&format!(
            "files not written into the home stay in sync.git (`git --git-dir {} show {}:PATH` prints one), and syncing them leaves them as they are on the remote",
            session.git_path("").display(),
            short_id(&record.remote)
        ));
    }
    let shown: Vec<String> = record
        .files
        .iter()
        .zip(&record.reasons)
        .map(|(f, r)| format!("{f} ({r})"))
        .collect();
    Error::conflict(format!(
        "sync stopped on a conflict with the remote: {}",
        shown.join("; ")
    ))
    .with_hint(hint)
    .with_detail("files", record.files.clone())
    .with_detail("reasons", record.reasons.clone())
    .with_detail("copies", copies)
}

fn short_id(oid: &str) -> &str {
    &oid[..oid.len().min(8)]
}
