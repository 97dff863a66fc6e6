//! Applying an integrated commit to the work tree: under a journal (so a
//! pull that dies mid-way is finished or aborted), what the home cannot hold
//! held back, then `main`, the git index and the search index.

use super::conflict::{Stop, copy_at, folders, pull_limit, record_conflict};
use super::state::{self, HeldPath, Journal};
use super::tree::{Flat, bare_entry, blob, blob_size, flatten_all, tree_of};
use super::{BRANCH, Session, abs, git_error, held_name, safe_rel, short, shown};
use crate::error::{Error, Result};
use crate::tools::sync::merge::{self, Merged};
use git2::Oid;
use std::collections::HashMap;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The test hook: after writing this many files, a pull sleeps 60 s (so a
/// test can kill it mid-apply deterministically, or write meanwhile).
const STALL_ENV: &str = "AGENTBOX_SYNC_STALL_AFTER";
/// How long the stall lasts, in seconds (default 60).
const STALL_SECS_ENV: &str = "AGENTBOX_SYNC_STALL_SECS";

/// Moves the work tree from the commit `from` to the commit `target` (under
/// the journal), then `main`, then the git index and the search index.
/// Returns the changed paths.
pub(super) fn apply(session: &Session, from: Option<Oid>, target: Oid) -> Result<Vec<String>> {
    let from_tree = tree_of(session, from)?;
    let target_tree = tree_of(session, Some(target))?;
    let diff = session
        .repo
        .diff_tree_to_tree(from_tree.as_ref(), target_tree.as_ref(), None)
        .map_err(|e| git_error("compare trees", &e))?;
    let mut files = Vec::new();
    for delta in diff.deltas() {
        for file in [delta.old_file(), delta.new_file()] {
            if let Some(rel) = file.path().and_then(Path::to_str)
                && (safe_rel(rel) || held_name(rel).is_some())
                && !files.iter().any(|f: &String| f == rel)
            {
                files.push(rel.to_string());
            }
        }
    }
    let journal = Journal {
        target: target.to_string(),
        from: from_tree.as_ref().map(|t| t.id().to_string()),
        files,
    };
    state::write_journal(session, &journal)?;
    finish(session, &journal)
}

/// Repairs a pull that died mid-apply: applies its target again (what is
/// already written is skipped) and moves the branch.
pub(super) fn repair(session: &Session) -> Result<()> {
    if let Some(journal) = state::read_journal(session)? {
        finish(session, &journal)?;
    }
    Ok(())
}

/// The hint of a pull that stopped part-way and left its journal: the way
/// out when finishing it keeps failing.
pub(super) const ABORT_HINT: &str = "the pull stopped part-way: fix the cause and run `agentbox sync now` to finish it, or run `agentbox sync abort` to drop it (the files it wrote stay and the next sync commits and merges them)";

/// Writes the journal's files, moves `main`, updates both indexes, removes
/// the journal. An error that leaves the journal says how to get out.
fn finish(session: &Session, journal: &Journal) -> Result<Vec<String>> {
    let mut touched = Vec::new();
    let result = finish_journal(session, journal, &mut touched);
    // What was written is indexed even when the pull stopped on a conflict
    // or part-way (the search index follows the files, as for every writer).
    if !touched.is_empty() {
        crate::search::index_update_or_warn(session.home, |ix| ix.refresh_files(&touched));
        record_pulled_personas(session, &touched);
    }
    result.map(|()| touched).map_err(|e| {
        if session.git_path(state::JOURNAL).exists() {
            let hint = if e.hint.is_empty() {
                ABORT_HINT.to_string()
            } else {
                format!("{}; {ABORT_HINT}", e.hint)
            };
            e.with_hint(hint)
        } else {
            e
        }
    })
}

/// Why the remote's entry `(oid, mode)` at `rel` cannot be written into the
/// home as it is, if it cannot: a symlink or other non-file entry, a file
/// over the limits, or something of the home in the way (a file where its
/// folder goes, a folder holding files where it goes). An empty folder in
/// the way is removed.
fn unwritable(
    session: &Session,
    target: Oid,
    rel: &str,
    (oid, mode): (Oid, i32),
) -> Result<Option<Stop>> {
    if let Some(reason) = held_name(rel) {
        return Ok(Some(Stop {
            rel: rel.to_string(),
            reason: format!(
                "{reason}: not written into the home; `git --git-dir {} show {}:PATH` prints it",
                session.git_path("").display(),
                short(target)
            ),
            copy: None,
        }));
    }
    if mode == 0o120000 {
        return Ok(Some(Stop::beside(
            rel,
            "the remote has a symlink here; sync never makes links in the home",
        )));
    }
    if mode != 0o100644 && mode != 0o100755 {
        return Ok(Some(Stop {
            rel: rel.to_string(),
            reason: format!("the remote has an entry of mode {mode:o} here, not a file"),
            copy: None,
        }));
    }
    let size = blob_size(session, oid)?;
    let (limit, name) = pull_limit(session, rel);
    if size > limit {
        return Ok(Some(Stop {
            rel: rel.to_string(),
            reason: format!(
                "{size} bytes, over {name} ({limit}): not written into the home; `git --git-dir {} show {}:{rel}` prints it",
                session.git_path("").display(),
                short(target)
            ),
            copy: None,
        }));
    }
    for dir in folders(rel) {
        match std::fs::symlink_metadata(abs(session.home, dir)) {
            Ok(meta) if meta.is_dir() => {}
            // A link is the store's to refuse (`permission`), and a missing
            // folder is created.
            Ok(meta) if meta.file_type().is_symlink() => return Ok(None),
            Ok(_) => {
                return Ok(Some(Stop {
                    rel: rel.to_string(),
                    reason: format!("a file of this home, {dir}, is where the remote has a folder"),
                    copy: Some(copy_at(rel)),
                }));
            }
            Err(_) => return Ok(None),
        }
    }
    let path = abs(session.home, rel);
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
        if crate::home::holds_no_file(&path) {
            session.home.store.remove_dir(&path)?;
            return Ok(None);
        }
        return Ok(Some(Stop::beside(
            rel,
            "a folder of this home is where the remote has a file",
        )));
    }
    Ok(None)
}

/// The blob id of the regular file at `path`, `None` for anything else.
fn live_blob(path: &Path) -> Option<String> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => Oid::hash_file(git2::ObjectType::Blob, path)
            .ok()
            .map(|o| o.to_string()),
        _ => None,
    }
}

/// Whether the held-back path `rel` is still as the pull left it (so it is
/// no change of this home: the commit step keeps `main`'s version).
pub(super) fn held_as_is(session: &Session, held: &state::Held, rel: &str) -> bool {
    held.get(rel)
        .is_some_and(|h| live_blob(&abs(session.home, rel)) == h.live)
}

fn finish_journal(session: &Session, journal: &Journal, touched: &mut Vec<String>) -> Result<()> {
    let repo = &session.repo;
    let target = Oid::from_str(&journal.target)
        .map_err(|_| Error::internal("sync.git/agentbox-pull.json names no commit"))?;
    let target_tree = tree_of(session, Some(target))?;
    let from_tree = match journal.from.as_deref().map(Oid::from_str) {
        Some(Ok(oid)) => Some(
            repo.find_tree(oid)
                .map_err(|e| git_error("read a tree", &e))?,
        ),
        _ => None,
    };
    let stall_after: Option<usize> = std::env::var(STALL_ENV).ok().and_then(|v| v.parse().ok());
    let stall_secs: u64 = std::env::var(STALL_SECS_ENV)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    // Looked up in maps: a tree lookup per file re-reads (and re-hashes)
    // every tree on the way, which grows with the folder.
    let ((target_files, target_raw), (from_files, from_raw)) = (
        flatten_all(session, target_tree.as_ref())?,
        flatten_all(session, from_tree.as_ref())?,
    );
    let entry = |files: &Flat, rel: &str| files.get(rel).copied();
    // What each touched file now holds, for the git index (hashing the
    // files again would cost as much as writing them).
    let mut staged: HashMap<String, Oid> = HashMap::new();
    let mut written = 0;
    let mut late_conflicts = Vec::new();
    let held_before = state::read_held(session)?;
    let mut held = held_before.clone();
    // A held-back path whose version `main` no longer has is done with.
    held.retain(|rel, h| {
        target_files
            .get(rel)
            .is_some_and(|e| e.0.to_string() == h.blob)
    });
    let mut held_back: Vec<(String, Oid, i32)> = Vec::new();
    // Deletions first: a folder the remote replaced with a file (or a file
    // with a folder) is gone before its replacement is written.
    let (gone, kept): (Vec<&String>, Vec<&String>) = journal
        .files
        .iter()
        .partition(|rel| !target_files.contains_key(*rel));
    let mut progress = crate::output::progress_bar(journal.files.len() as u64, "writing files");
    for rel in gone.into_iter().chain(kept) {
        progress.inc(1);
        let theirs = entry(&target_files, rel);
        let base = entry(&from_files, rel);
        let path = abs(session.home, rel);
        if let Some(theirs) = theirs
            && let Some(stop) = unwritable(session, target, rel, theirs)?
        {
            // Kept in `main` (the next push leaves it on the remote), not
            // written into the home; reported as a conflict below.
            let live = match held.get(rel) {
                Some(h) if h.blob == theirs.0.to_string() => h.live.clone(),
                _ => live_blob(&path),
            };
            held.insert(
                rel.clone(),
                HeldPath {
                    blob: theirs.0.to_string(),
                    live,
                    reason: stop.reason.clone(),
                },
            );
            held_back.push((rel.clone(), theirs.0, theirs.1));
            late_conflicts.push(stop);
            continue;
        }
        // A path held back until now that the home still has as it was then
        // is no edit of this home: it takes the incoming version.
        held.remove(rel);
        let was_held = held_before
            .get(rel)
            .is_some_and(|h| live_blob(&path) == h.live);
        let current = match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() => {
                Some(std::fs::read(&path).map_err(|e| Error::io("read", &path, &e))?)
            }
            _ => None,
        };
        let target_bytes = blob(session, theirs.map(|e| e.0))?;
        touched.push(rel.clone());
        if let Some((oid, _)) = theirs {
            staged.insert(rel.clone(), oid);
        }
        if current == target_bytes {
            continue;
        }
        let base_bytes = blob(session, base.map(|e| e.0))?;
        let executable = theirs.is_some_and(|e| e.1 == 0o100755);
        // An empty file where the target has bytes is a write a crash cut
        // short (files are flushed once, at the end), not an agent's edit.
        let cut_short = current.as_deref() == Some(&[][..]) && target_bytes.is_some();
        if current == base_bytes || cut_short || was_held {
            write(session, rel, target_bytes.as_deref(), executable)?;
        } else {
            // Written here after our commit step (an agent at work): merge
            // the two, and leave the result for the next commit.
            match merge::merge_file(
                rel,
                base_bytes.as_deref(),
                current.as_deref(),
                target_bytes.as_deref(),
            ) {
                Merged::Clean(outputs) => {
                    staged.remove(rel);
                    for (path, bytes) in outputs {
                        if safe_rel(&path) {
                            write(session, &path, bytes.as_deref(), executable)?;
                            if path != *rel {
                                touched.push(path);
                            }
                        }
                    }
                }
                Merged::Conflict(reason) => {
                    staged.remove(rel);
                    late_conflicts.push(Stop::beside(rel, reason));
                }
            }
        }
        written += 1;
        if stall_after == Some(written) {
            std::thread::sleep(std::time::Duration::from_secs(stall_secs));
        }
    }
    // The files written above and their renames become durable before the
    // branch moves (until then the journal can redo them).
    // Files first, then their folders.
    let (mut files, mut dirs) = (Vec::new(), Vec::new());
    for rel in touched.iter() {
        let path = abs(session.home, rel);
        if let Some(dir) = path.parent() {
            dirs.push(dir.to_path_buf());
        }
        if path.is_file() {
            files.push(path);
        }
    }
    session
        .home
        .store
        .sync_paths(files.iter().chain(&dirs).map(|p| p.as_path()));
    repo.reference(
        BRANCH,
        target,
        true,
        &format!("agentbox sync: {}", short(target)),
    )
    .map_err(|e| git_error("move the branch main", &e))?;
    let mut index = repo
        .index()
        .map_err(|e| git_error("open the git index", &e))?;
    for rel in touched.iter() {
        let result = match std::fs::symlink_metadata(abs(session.home, rel)) {
            // A folder now (a file replaced by one): its files are staged
            // by their own paths.
            Ok(meta) if meta.is_dir() => index.remove_path(Path::new(rel)),
            Ok(meta) => match staged.get(rel) {
                Some(oid) if meta.is_file() => index.add(&index_entry(rel, &meta, *oid)),
                _ => index.add_path(Path::new(rel)),
            },
            Err(_) => index.remove_path(Path::new(rel)),
        };
        result.map_err(|e| git_error(&format!("stage {rel}"), &e))?;
    }
    // A held-back path keeps `main`'s version in the git index (no stat
    // data: the home's file, if any, is not claimed to be it). One the index
    // cannot hold (a hostile tree naming a file and a folder alike) is left
    // out: the next commit drops it from `main` rather than wedge the pull.
    for (rel, oid, mode) in &held_back {
        let _ = index.add(&bare_entry(rel.as_bytes(), *oid, *mode));
    }
    // Paths that are not UTF-8 are never written into the home: the git
    // index keeps `main`'s version of each (so the next commit keeps it on
    // the remote) and drops those `main` no longer has. A new or changed one
    // is reported like any held-back path.
    let stale: Vec<Vec<u8>> = index
        .iter()
        .filter(|e| std::str::from_utf8(&e.path).is_err() && !target_raw.contains_key(&e.path))
        .map(|e| e.path)
        .collect();
    for path in stale {
        let _ = index.remove(Path::new(std::ffi::OsStr::from_bytes(&path)), 0);
    }
    for (path, (oid, mode)) in &target_raw {
        let _ = index.add(&bare_entry(path, *oid, *mode));
        if from_raw.get(path) != Some(&(*oid, *mode)) {
            late_conflicts.push(Stop {
                rel: shown(path),
                reason: format!(
                    "a name that is not UTF-8; this home never writes such a name: not written into the home; `git --git-dir {} show {}:PATH` prints it",
                    session.git_path("").display(),
                    short(target)
                ),
                copy: None,
            });
        }
    }
    index
        .write()
        .map_err(|e| git_error("write the git index", &e))?;
    state::write_held(session, &held)?;
    // A file written here meanwhile that cannot be merged with the incoming
    // one keeps this home's bytes; the incoming ones go beside it as
    // `.remote`. The target is now our commit, so the person's resolution is
    // simply committed over it.
    let late = if late_conflicts.is_empty() {
        None
    } else {
        Some(record_conflict(session, target, &late_conflicts)?)
    };
    state::remove_journal(session)?;
    match late {
        Some(conflict) => Err(conflict),
        None => Ok(()),
    }
}

/// Each persona file the pull wrote becomes a `pulled` revision of its
/// history (which does not sync): it is not a hand edit. A failure only
/// warns: the pull itself is done.
fn record_pulled_personas(session: &Session, touched: &[String]) {
    let names: Vec<&str> = touched
        .iter()
        .filter_map(|rel| rel.strip_prefix("persona/")?.strip_suffix(".md"))
        .filter(|name| !name.contains('/') && !name.starts_with('.'))
        .collect();
    if names.is_empty() {
        return;
    }
    let clock = match crate::clock::Clock::from_env() {
        Ok(clock) => clock,
        Err(e) => {
            session.home.warn(e.message);
            return;
        }
    };
    for name in names {
        if let Err(e) = crate::tools::persona::record_pulled(session.home, &clock, name) {
            session.home.warn(format!(
                "persona/{name}.md was pulled, but its revision could not be recorded: {}",
                e.message
            ));
        }
    }
}

/// The git index entry of a file written with the blob `oid`: its stat
/// data as git records it, so the next commit step sees it unchanged
/// without reading it. A file changed after the write no longer matches the
/// stat data (size, mtime), and a racy one is re-read by libgit2.
fn index_entry(rel: &str, meta: &std::fs::Metadata, oid: Oid) -> git2::IndexEntry {
    use std::os::unix::fs::MetadataExt;
    let time = |secs: i64, nanos: i64| git2::IndexTime::new(secs as i32, nanos as u32);
    git2::IndexEntry {
        ctime: time(meta.ctime(), meta.ctime_nsec()),
        mtime: time(meta.mtime(), meta.mtime_nsec()),
        dev: meta.dev() as u32,
        ino: meta.ino() as u32,
        mode: if meta.mode() & 0o111 != 0 {
            0o100755
        } else {
            0o100644
        },
        uid: meta.uid(),
        gid: meta.gid(),
        file_size: meta.size() as u32,
        id: oid,
        flags: 0,
        flags_extended: 0,
        path: rel.as_bytes().to_vec(),
    }
}

/// Writes (or deletes) one file of the work tree through the store.
fn write(session: &Session, rel: &str, bytes: Option<&[u8]>, executable: bool) -> Result<()> {
    let path = abs(session.home, rel);
    match bytes {
        Some(bytes) => {
            if let Some(parent) = path.parent() {
                session.home.store.ensure_dir(parent)?;
            }
            session.home.store.write_pulled(&path, bytes, executable)
        }
        None => {
            session.home.store.remove_file(&path)?;
            prune_empty_parents(session, rel)
        }
    }
}

/// Removes the folders a deletion left without any file (a skill the
/// remote removed would otherwise stay as an empty `skills/NAME/`, which
/// `skill_forge list` and doctor report as a skill without SKILL.md), up to
/// the home's own layout folders, which stay.
fn prune_empty_parents(session: &Session, rel: &str) -> Result<()> {
    let mut dir = Path::new(rel).parent();
    while let Some(folder) = dir.and_then(Path::to_str).filter(|f| !f.is_empty()) {
        if super::is_layout_folder(folder) {
            break;
        }
        let path = abs(session.home, folder);
        let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        if !is_dir || !crate::home::holds_no_file(&path) {
            break;
        }
        session.home.store.remove_dir(&path)?;
        dir = Path::new(folder).parent();
    }
    Ok(())
}
