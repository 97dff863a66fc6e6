//! Integrating the remote: fast-forward or a three-way tree merge of our own
//! (each path both sides changed goes to `merge::merge_file`), applying the
//! result to the work tree under a journal, and conflicts.

use super::state::{self, ConflictRecord, HeldPath, Journal};
use super::{BRANCH, Session, abs, git_error, held_name, net, safe_rel, short, shown};
use crate::error::{Error, Result};
use crate::tools::Ctx;
use crate::tools::sync::CONFLICT_SUFFIX;
use crate::tools::sync::merge::{self, Merged};
use git2::{Oid, Tree};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The test hook: after writing this many files, a pull sleeps 60 s (so a
/// test can kill it mid-apply deterministically, or write meanwhile).
const STALL_ENV: &str = "AGENTBOX_SYNC_STALL_AFTER";
/// How long the stall lasts, in seconds (default 60).
const STALL_SECS_ENV: &str = "AGENTBOX_SYNC_STALL_SECS";

/// What a pull did.
#[derive(Debug, Clone, Default)]
pub(super) struct Pulled {
    pub pulled: usize,
    pub files: Vec<String>,
    pub merged: bool,
    pub renamed: Vec<String>,
    pub commit: Option<Oid>,
    pub empty_remote: bool,
}

impl Pulled {
    pub fn to_json(&self) -> Value {
        json!({
            "pulled": self.pulled,
            "files": self.files,
            "merged": self.merged,
            "renamed": self.renamed,
            "commit": self.commit.map(|o| o.to_string()),
        })
    }

    pub fn text(&self) -> String {
        if self.empty_remote {
            return "The remote is empty: nothing to pull".to_string();
        }
        if self.pulled == 0 {
            return "Up to date with origin".to_string();
        }
        let mut text = format!(
            "Pulled {} commit{}{}: {} file{} changed",
            self.pulled,
            if self.pulled == 1 { "" } else { "s" },
            if self.merged {
                " (merged with ours)"
            } else {
                ""
            },
            self.files.len(),
            if self.files.len() == 1 { "" } else { "s" },
        );
        let shown: Vec<&str> = self.files.iter().take(5).map(String::as_str).collect();
        if !shown.is_empty() {
            text.push_str(&format!(
                " ({}{})",
                shown.join(", "),
                if self.files.len() > shown.len() {
                    ", …"
                } else {
                    ""
                }
            ));
        }
        if !self.renamed.is_empty() {
            text.push_str(&format!(
                "\nKept both records of a colliding id: {}",
                self.renamed.join(", ")
            ));
        }
        text
    }

    /// Adds a later pull of the same call (a push retry).
    pub fn absorb(&mut self, later: Pulled) {
        self.pulled += later.pulled;
        for f in later.files {
            if !self.files.contains(&f) {
                self.files.push(f);
            }
        }
        self.merged |= later.merged;
        self.renamed.extend(later.renamed);
        if later.commit.is_some() {
            self.commit = later.commit;
        }
        self.empty_remote &= later.empty_remote;
    }
}

/// Fetches and integrates the remote's `main`.
pub(super) fn pull(session: &Session, ctx: &Ctx) -> Result<Pulled> {
    let Some(remote) = net::fetch(session)? else {
        return Ok(Pulled {
            empty_remote: true,
            commit: session.head()?,
            ..Pulled::default()
        });
    };
    integrate(session, ctx, remote, &BTreeSet::new())
}

/// A path → (blob, mode) map of a tree.
type Flat = BTreeMap<String, (Oid, i32)>;

/// The files of a tree whose path is not UTF-8 (a hostile remote's): never
/// written into the home, kept in `main` as they are.
type Raw = BTreeMap<Vec<u8>, (Oid, i32)>;

/// The files of a tree: those with a UTF-8 path, and the others. Walked by
/// hand: git2's walk stops at a folder whose name is not UTF-8.
fn flatten_all(session: &Session, tree: Option<&Tree>) -> Result<(Flat, Raw)> {
    let (mut flat, mut raw) = (Flat::new(), Raw::new());
    let Some(tree) = tree else {
        return Ok((flat, raw));
    };
    let mut todo: Vec<(Vec<u8>, Oid)> = vec![(Vec::new(), tree.id())];
    while let Some((prefix, oid)) = todo.pop() {
        let tree = session
            .repo
            .find_tree(oid)
            .map_err(|e| git_error("read a tree", &e))?;
        for entry in tree.iter() {
            let mut path = prefix.clone();
            if !path.is_empty() {
                path.push(b'/');
            }
            path.extend_from_slice(entry.name_bytes());
            match entry.kind() {
                Some(git2::ObjectType::Tree) => todo.push((path, entry.id())),
                Some(git2::ObjectType::Blob) => {
                    let value = (entry.id(), entry.filemode());
                    match String::from_utf8(path) {
                        Ok(rel) => flat.insert(rel, value),
                        Err(e) => raw.insert(e.into_bytes(), value),
                    };
                }
                _ => {}
            }
        }
    }
    Ok((flat, raw))
}

fn tree_of<'r>(session: &'r Session, commit: Option<Oid>) -> Result<Option<Tree<'r>>> {
    match commit {
        None => Ok(None),
        Some(oid) => session
            .repo
            .find_commit(oid)
            .and_then(|c| c.tree())
            .map(Some)
            .map_err(|e| git_error("read a commit", &e)),
    }
}

fn blob(session: &Session, oid: Option<Oid>) -> Result<Option<Vec<u8>>> {
    match oid {
        None => Ok(None),
        Some(oid) => session
            .repo
            .find_blob(oid)
            .map(|b| Some(b.content().to_vec()))
            .map_err(|e| git_error("read a file of the history", &e)),
    }
}

/// Integrates the commit `remote` into `main`. Paths in `ours` take our side
/// whatever the remote did (a person resolved them).
pub(super) fn integrate(
    session: &Session,
    ctx: &Ctx,
    remote: Oid,
    ours: &BTreeSet<String>,
) -> Result<Pulled> {
    let local = session.head()?;
    let repo = &session.repo;
    let descends = |a: Oid, b: Oid| a == b || repo.graph_descendant_of(a, b).unwrap_or(false);
    let Some(local) = local else {
        let pulled = session.count_commits(remote, None)?;
        let files = apply(session, None, remote)?;
        return Ok(Pulled {
            pulled,
            files,
            commit: Some(remote),
            ..Pulled::default()
        });
    };
    if descends(local, remote) {
        return Ok(Pulled {
            commit: Some(local),
            ..Pulled::default()
        });
    }
    let pulled = session.count_commits(remote, Some(local))?;
    if descends(remote, local) {
        let files = apply(session, Some(local), remote)?;
        return Ok(Pulled {
            pulled,
            files,
            commit: Some(remote),
            ..Pulled::default()
        });
    }
    let base = repo.merge_base(local, remote).ok();
    let ((flat_base, raw_base), (flat_ours, raw_ours), (flat_theirs, raw_theirs)) = (
        flatten_all(session, tree_of(session, base)?.as_ref())?,
        flatten_all(session, tree_of(session, Some(local))?.as_ref())?,
        flatten_all(session, tree_of(session, Some(remote))?.as_ref())?,
    );
    // Paths that are not UTF-8 only ever come from the remote (the commit
    // step never stages one): the remote's change wins, and none is lost.
    let mut raw = Raw::new();
    for path in raw_base
        .keys()
        .chain(raw_ours.keys())
        .chain(raw_theirs.keys())
    {
        let (b, o, t) = (raw_base.get(path), raw_ours.get(path), raw_theirs.get(path));
        if let Some(entry) = if o == t || t == b { o } else { t } {
            raw.insert(path.clone(), *entry);
        }
    }
    let paths: BTreeSet<&String> = flat_base
        .keys()
        .chain(flat_ours.keys())
        .chain(flat_theirs.keys())
        .collect();
    let mut result = Flat::new();
    let mut produced: BTreeMap<String, String> = BTreeMap::new();
    let mut conflicts: Vec<Stop> = Vec::new();
    let mut renamed = Vec::new();
    for rel in paths {
        let (b, o, t) = (
            flat_base.get(rel).copied(),
            flat_ours.get(rel).copied(),
            flat_theirs.get(rel).copied(),
        );
        let take = if o == t || t == b || ours.contains(rel) {
            o
        } else if o == b {
            t
        } else {
            None
        };
        if o == t || t == b || o == b || ours.contains(rel) {
            if let Some(entry) = take {
                result.insert(rel.clone(), entry);
            }
            continue;
        }
        // Gone from one side because that side made it a folder (or made a
        // folder of its own a file): a file/folder clash, not a deletion.
        // The changed side is kept here and `tree_clashes` reports the
        // clash (a merge would read the other side's folder as a file).
        if (o.is_none() && type_changed(&flat_ours, rel))
            || (t.is_none() && type_changed(&flat_theirs, rel))
        {
            if let Some(entry) = o.or(t) {
                result.insert(rel.clone(), entry);
            }
            continue;
        }
        let merged = merge::merge_file(
            rel,
            blob(session, b.map(|e| e.0))?.as_deref(),
            blob(session, o.map(|e| e.0))?.as_deref(),
            blob(session, t.map(|e| e.0))?.as_deref(),
        );
        match merged {
            Merged::Conflict(reason) => conflicts.push(Stop::beside(rel, reason)),
            Merged::Clean(outputs) => {
                let mode = o.or(t).map_or(0o100644, |e| e.1);
                for (path, bytes) in outputs {
                    if path != *rel {
                        if !safe_rel(&path) {
                            conflicts.push(Stop::beside(
                                rel,
                                format!("the merge named an unsafe path {path}"),
                            ));
                            continue;
                        }
                        if paths_taken(&flat_ours, &flat_theirs, &produced, &path) {
                            conflicts.push(Stop::beside(
                                rel,
                                format!("a renamed record would overwrite {path}"),
                            ));
                            continue;
                        }
                        renamed.push(path.clone());
                    }
                    produced.insert(path.clone(), rel.clone());
                    match bytes {
                        Some(bytes) => {
                            let oid = repo
                                .blob(&bytes)
                                .map_err(|e| git_error("store a merged file", &e))?;
                            result.insert(path, (oid, mode));
                        }
                        None => {
                            result.remove(&path);
                        }
                    }
                }
            }
        }
    }
    // A file of one side where the other has a folder cannot be one tree
    // (git would keep one of them and the home would lose the other).
    conflicts.extend(tree_clashes(&result, &flat_ours));
    if !conflicts.is_empty() {
        return Err(record_conflict(session, remote, &conflicts)?);
    }
    let tree = build_tree(session, &result, &raw)?;
    let sig = super::commit::signature(session, ctx)?;
    let (lc, rc) = (
        repo.find_commit(local)
            .map_err(|e| git_error("read a commit", &e))?,
        repo.find_commit(remote)
            .map_err(|e| git_error("read a commit", &e))?,
    );
    let tree = repo
        .find_tree(tree)
        .map_err(|e| git_error("read the merged tree", &e))?;
    let message = format!(
        "agentbox sync: merge {} into {}",
        short(remote),
        short(local)
    );
    let merge = repo
        .commit(None, &sig, &sig, &message, &tree, &[&lc, &rc])
        .map_err(|e| git_error("write the merge commit", &e))?;
    let files = apply(session, Some(local), merge)?;
    Ok(Pulled {
        pulled,
        files,
        merged: true,
        renamed,
        commit: Some(merge),
        empty_remote: false,
    })
}

/// Whether the side `flat`, which has no file `rel`, has a folder there
/// (files under `rel/`) or a file where a folder of `rel` goes.
fn type_changed(flat: &Flat, rel: &str) -> bool {
    let prefix = format!("{rel}/");
    flat.range(prefix.clone()..)
        .next()
        .is_some_and(|(k, _)| k.starts_with(&prefix))
        || folders(rel).any(|d| flat.contains_key(d))
}

/// Whether `path` (an extra path of a merge) is already another path of the
/// result.
fn paths_taken(
    ours: &Flat,
    theirs: &Flat,
    produced: &BTreeMap<String, String>,
    path: &str,
) -> bool {
    ours.contains_key(path) || theirs.contains_key(path) || produced.contains_key(path)
}

/// A git index entry with no stat data: `path` holds the object `oid`.
fn bare_entry(path: &[u8], oid: Oid, mode: i32) -> git2::IndexEntry {
    git2::IndexEntry {
        ctime: git2::IndexTime::new(0, 0),
        mtime: git2::IndexTime::new(0, 0),
        dev: 0,
        ino: 0,
        mode: mode as u32,
        uid: 0,
        gid: 0,
        file_size: 0,
        id: oid,
        flags: (path.len().min(0xfff)) as u16,
        flags_extended: 0,
        path: path.to_vec(),
    }
}

/// A tree object from a flat map (through an in-memory git index).
fn build_tree(session: &Session, flat: &Flat, raw: &Raw) -> Result<Oid> {
    let mut index = git2::Index::new().map_err(|e| git_error("build a tree", &e))?;
    let paths = flat.iter().map(|(p, e)| (p.as_bytes(), e));
    for (path, (oid, mode)) in paths.chain(raw.iter().map(|(p, e)| (p.as_slice(), e))) {
        let entry = bare_entry(path, *oid, *mode);
        let path = String::from_utf8_lossy(path);
        index
            .add(&entry)
            .map_err(|e| git_error(&format!("add {path} to the merged tree"), &e))?;
    }
    index
        .write_tree_to(&session.repo)
        .map_err(|e| git_error("write the merged tree", &e))
}

/// A path that stops a pull: why, and where the remote's version is kept in
/// the home (`None`: only in sync.git).
#[derive(Debug, Clone)]
struct Stop {
    rel: String,
    reason: String,
    copy: Option<String>,
}

impl Stop {
    /// A conflict whose remote version goes beside the file, `<file>.remote`.
    fn beside(rel: &str, reason: impl Into<String>) -> Stop {
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
fn copy_at(rel: &str) -> String {
    format!("{CLASH_DIR}/{rel}")
}

/// The folders of `rel`, outermost first (`a`, `a/b` for `a/b/c`).
fn folders(rel: &str) -> impl Iterator<Item = &str> {
    rel.match_indices('/').map(move |(i, _)| &rel[..i])
}

/// The file/folder clashes of a merge result: a file `a` on one side where
/// the other side has files under `a/`. The remote's side of each clash is a
/// conflict, its version kept under `a.remote`; this home's side stays.
fn tree_clashes(result: &Flat, ours: &Flat) -> Vec<Stop> {
    let mut stops: BTreeMap<String, Stop> = BTreeMap::new();
    for rel in result.keys() {
        let Some(dir) = folders(rel).find(|d| result.contains_key(*d)) else {
            continue;
        };
        let stop = if ours.contains_key(dir) {
            Stop {
                rel: rel.clone(),
                reason: format!("the remote has a folder {dir}/ where this home has a file"),
                copy: Some(copy_at(rel)),
            }
        } else {
            Stop::beside(
                dir,
                format!("the remote has a file {dir} where this home has a folder"),
            )
        };
        stops.insert(stop.rel.clone(), stop);
    }
    stops.into_values().collect()
}

/// The size of a blob, read from its header (a hostile remote's blob may be
/// far too big to read whole).
fn blob_size(session: &Session, oid: Oid) -> Result<u64> {
    session
        .repo
        .odb()
        .and_then(|odb| odb.read_header(oid))
        .map(|(size, _)| size as u64)
        .map_err(|e| git_error("read a file of the history", &e))
}

/// Keeps each conflicted file's remote version where its `Stop` says (no
/// copy of a file too big for the store: it stays in sync.git), records the
/// conflict and returns the `conflict` error. No synced file changes.
fn record_conflict(session: &Session, remote: Oid, stops: &[Stop]) -> Result<Error> {
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
fn conflict_error(session: &Session, record: &ConflictRecord) -> Error {
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

/// Stops while a recorded conflict still has a `.remote` copy; once all are
/// deleted, commits the person's resolution and merges the recorded remote
/// commit again, the resolved paths taking our side.
pub(super) fn conflict_gate(session: &Session, ctx: &Ctx) -> Result<()> {
    let Some(record) = state::read_conflict(session)? else {
        return Ok(());
    };
    let waiting = (0..record.files.len()).any(|i| {
        record
            .copy(i)
            .is_some_and(|copy| std::fs::symlink_metadata(abs(session.home, &copy)).is_ok())
    });
    if waiting {
        return Err(conflict_error(session, &record));
    }
    super::commit::commit_step(session, ctx)?;
    if let Ok(remote) = Oid::from_str(&record.remote)
        && session.repo.find_commit(remote).is_ok()
    {
        let ours: BTreeSet<String> = record.files.iter().cloned().collect();
        integrate(session, ctx, remote, &ours)?;
    }
    state::remove_conflict(session)?;
    Ok(())
}

/// Moves the work tree from the commit `from` to the commit `target` (under
/// the journal), then `main`, then the git index and the search index.
/// Returns the changed paths.
fn apply(session: &Session, from: Option<Oid>, target: Oid) -> Result<Vec<String>> {
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

/// What a file pulled into `rel` may weigh: what the tools that read it
/// accept. `foresight.jsonl` is read line by line (each line capped); every
/// other file is read whole under `limits.max_item_bytes`.
fn pull_limit(session: &Session, rel: &str) -> (u64, &'static str) {
    if rel == "memory/foresight.jsonl" {
        (crate::store::MAX_STATE_BYTES, "the state cap")
    } else {
        (session.home.store.max_item_bytes(), "limits.max_item_bytes")
    }
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
    for rel in gone.into_iter().chain(kept) {
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
