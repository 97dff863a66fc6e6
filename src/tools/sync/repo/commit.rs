//! The commit step every syncing verb runs first: stage what changed in the
//! work tree, refuse anything that looks like a credential, commit.

use super::{BRANCH, Session, git_error, safe_rel};
use crate::error::{Error, ErrorType, Result};
use crate::tools::Ctx;
use git2::{Oid, Signature, Status, StatusOptions, Time};
use serde_json::json;
use std::borrow::Cow;
use std::collections::HashSet;
use std::path::Path;

/// At most this many findings are listed in a `permission` error.
const MAX_FINDINGS: usize = 20;

/// Synced paths that differ from the last commit (staged or not), with
/// whether the file is still there. Uses the git index's stat cache, so an
/// unchanged home costs a walk of the folders and no reads. With `refresh`
/// (the caller holds the sync lock), entries whose stat data is out of date
/// — files a pull wrote in the same second as the git index, which git must
/// re-read on every status — are refreshed and the index written back, so
/// the next call is cheap again.
pub(super) fn changed_paths(session: &Session, refresh: bool) -> Result<Vec<(String, bool)>> {
    let mut opts = StatusOptions::new();
    opts.update_index(refresh)
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        // Ignored entries are listed (folders once, not walked): a
        // `.gitignore` in the home — it syncs, so a remote may send one — or
        // the user's global excludes must not keep a synced file from
        // syncing; only the never-synced paths (through `safe_rel`) decide.
        .include_ignored(true)
        .recurse_ignored_dirs(false)
        .exclude_submodules(true)
        .renames_head_to_index(false)
        .renames_index_to_workdir(false);
    let statuses = session
        .repo
        .statuses(Some(&mut opts))
        .map_err(|e| git_error("list changed files", &e))?;
    let mut out = Vec::new();
    let mut ignored = Vec::new();
    // Paths a pull held back (kept in `main`, not in the home): no change of
    // this home while the home has there what it had when they were held.
    let held = super::state::read_held(session)?;
    // New files whose name never syncs (see `unsynced_name`): named in a
    // warning, never staged.
    let mut unsynced = Vec::new();
    for entry in statuses.iter() {
        let status = entry.status();
        if status.is_empty() {
            continue;
        }
        if status.contains(Status::WT_NEW) && super::unsynced_name(entry.path_bytes()) {
            unsynced.push(super::shown(entry.path_bytes()));
            continue;
        }
        let Some(rel) = entry.path() else { continue };
        if status.contains(Status::IGNORED) {
            ignored.push(rel.trim_end_matches('/').to_string());
            continue;
        }
        // `.gitignore` is never left held: the home restores the file every
        // sync, and that file replaces whatever the remote had (a link).
        if !safe_rel(rel) || (rel != ".gitignore" && super::apply::held_as_is(session, &held, rel))
        {
            continue;
        }
        // A file replaced by a folder is gone as a file (the folder's files
        // are entries of their own).
        let exists = std::fs::symlink_metadata(super::abs(session.home, rel))
            .is_ok_and(|meta| !meta.is_dir());
        out.push((rel.to_string(), exists));
    }
    if !unsynced.is_empty() {
        let more = unsynced.len().saturating_sub(MAX_FINDINGS);
        unsynced.truncate(MAX_FINDINGS);
        session.home.warn(format!(
            "never synced, their names hold a backslash, a control character, bytes that are not UTF-8 or a part over {} bytes, which other homes cannot write (rename them to sync them): {}{}",
            super::MAX_NAME_BYTES,
            unsynced.join(", "),
            if more > 0 { format!(" and {more} more") } else { String::new() }
        ));
    }
    if !ignored.is_empty() {
        let index = session
            .repo
            .index()
            .map_err(|e| git_error("open the git index", &e))?;
        for rel in ignored {
            untracked_under(session, &index, &rel, &mut out);
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The synced files at or under `rel` (an ignored path) that the git index
/// does not hold: new files a `.gitignore` hid. Never follows a symlink.
fn untracked_under(
    session: &Session,
    index: &git2::Index,
    rel: &str,
    out: &mut Vec<(String, bool)>,
) {
    if !safe_rel(rel) && !safe_rel(&format!("{rel}/x")) {
        return;
    }
    let path = super::abs(session.home, rel);
    let Ok(meta) = std::fs::symlink_metadata(&path) else {
        return;
    };
    if meta.is_dir() {
        let Ok(entries) = std::fs::read_dir(&path) else {
            return;
        };
        for entry in entries.flatten() {
            if let Some(name) = entry.file_name().to_str() {
                untracked_under(session, index, &format!("{rel}/{name}"), out);
            }
        }
    } else if safe_rel(rel) && index.get_path(Path::new(rel), 0).is_none() {
        out.push((rel.to_string(), true));
    }
}

/// A synced file or folder that is a symlink is `permission`: the store
/// never reads or writes through links inside the home, and committing one
/// would replace a folder in every other home with a link. Checks the
/// home's top-level entries, those of `memory/`, and every changed path.
fn refuse_links(session: &Session, changed: &[(String, bool)]) -> Result<()> {
    let root = &session.home.root;
    let mut rels: Vec<String> = Vec::new();
    for dir in ["", "memory/"] {
        if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
            for entry in entries.flatten() {
                if let Some(name) = entry.file_name().to_str() {
                    rels.push(format!("{dir}{name}"));
                }
            }
        }
    }
    rels.extend(changed.iter().filter(|(_, e)| *e).map(|(r, _)| r.clone()));
    for rel in rels {
        if !safe_rel(&rel) || !safe_rel(&format!("{rel}/x")) {
            continue;
        }
        let path = super::abs(session.home, &rel);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            session.home.store.check_path(&path)?;
            return Err(Error::new(
                ErrorType::Permission,
                format!(
                    "{} is a symlink; sync does not follow links inside the home",
                    path.display()
                ),
            )
            .with_hint(
                "replace the link with a real folder or file (move its content in), or remove it",
            )
            .with_detail("path", path.display().to_string()));
        }
    }
    Ok(())
}

/// One credential-looking line (or path) about to be committed.
struct Finding {
    /// The path, masked when the path itself holds the credential.
    rel: String,
    /// 1-based; 0 for a path.
    line: usize,
    masked: String,
    /// `content` or `path`.
    place: &'static str,
}

/// Commits the work tree's synced changes; `None` when nothing changed.
/// Before anything is staged, each changed file's new lines pass the
/// redactor: a line it would change is a credential → `permission`, and
/// nothing is committed (no secret ever enters the history).
pub(super) fn commit_step(session: &Session, ctx: &Ctx) -> Result<Option<Oid>> {
    let changed = changed_paths(session, true)?;
    refuse_links(session, &changed)?;
    let head = session.head()?;
    let head_tree = match head {
        Some(oid) => Some(
            session
                .repo
                .find_commit(oid)
                .and_then(|c| c.tree())
                .map_err(|e| git_error("read the last commit", &e))?,
        ),
        None => None,
    };
    let mut findings = Vec::new();
    let mut contents = Vec::new();
    let mut progress = crate::output::progress_bar(changed.len() as u64, "checking files");
    for (rel, exists) in &changed {
        progress.inc(1);
        if !exists {
            continue;
        }
        // A path is pushed as it is (tree entries, the commit subject): a
        // new one passes the same check as a new line. One the last commit
        // holds was checked then, or came from the remote.
        let committed = head_tree
            .as_ref()
            .is_some_and(|t| t.get_path(Path::new(rel)).is_ok());
        if !committed {
            scan_path(session, rel, &mut findings);
        }
        let path = super::abs(session.home, rel);
        let meta = std::fs::symlink_metadata(&path).map_err(|e| Error::io("read", &path, &e))?;
        if !meta.is_file() {
            continue;
        }
        // Every home that pulls must be able to write it back (the store's
        // cap on a file it writes for a tool): refused here, it never
        // reaches a remote where it would stop every other home's pull.
        crate::store::check_size(rel, meta.len(), crate::store::MAX_STATE_BYTES).map_err(|e| {
            e.with_hint(format!(
                "{rel} is too big to sync; move it out of the home or split it"
            ))
        })?;
        let bytes = std::fs::read(&path).map_err(|e| Error::io("read", &path, &e))?;
        let before = head_tree
            .as_ref()
            .and_then(|t| t.get_path(Path::new(rel)).ok())
            .and_then(|e| session.repo.find_blob(e.id()).ok())
            .map(|b| b.content().to_vec());
        scan(session, rel, &bytes, before.as_deref(), &mut findings);
        contents.push((
            rel.clone(),
            Oid::hash_object(git2::ObjectType::Blob, &bytes).ok(),
        ));
    }
    drop(progress);
    if !findings.is_empty() {
        return Err(blocked(&findings));
    }
    // Staged through a second handle of the repository whose new objects
    // stay in memory (a mempack) and reach the disk as ONE pack once the
    // commit is made: a thousand new files would otherwise become a
    // thousand loose object files. Nothing of a refused commit reaches disk.
    let staging = git2::Repository::open_bare(session.git_path(""))
        .and_then(|r| r.set_workdir(&session.home.root, false).map(|()| r))
        .map_err(|e| git_error("open sync.git", &e))?;
    let odb = staging
        .odb()
        .map_err(|e| git_error("open the object database", &e))?;
    let _mempack = odb
        .add_new_mempack_backend(1000)
        .map_err(|e| git_error("open the object database", &e))?;
    let mut index = staging
        .index()
        .map_err(|e| git_error("open the git index", &e))?;
    for (rel, exists) in &changed {
        let result = if *exists {
            index.add_path(Path::new(rel))
        } else {
            index.remove_path(Path::new(rel))
        };
        result.map_err(|e| git_error(&format!("stage {rel}"), &e))?;
    }
    // A file rewritten between the scan and the staging: scan what was staged.
    for (rel, scanned) in &contents {
        let staged = index.get_path(Path::new(rel), 0).map(|e| e.id);
        if staged.is_some() && staged != *scanned {
            let staged = staged.unwrap_or_else(Oid::zero);
            if let Ok(blob) = staging.find_blob(staged) {
                scan(session, rel, blob.content(), None, &mut findings);
            }
        }
    }
    if !findings.is_empty() {
        return Err(blocked(&findings));
    }
    let tree_id = index
        .write_tree()
        .map_err(|e| git_error("write the tree", &e))?;
    let unchanged = head_tree.as_ref().map(|t| t.id()) == Some(tree_id)
        || (head_tree.is_none() && changed.is_empty());
    let commit = if unchanged {
        None
    } else {
        let tree = staging
            .find_tree(tree_id)
            .map_err(|e| git_error("read the tree", &e))?;
        let parent = match head {
            Some(oid) => Some(
                staging
                    .find_commit(oid)
                    .map_err(|e| git_error("read the last commit", &e))?,
            ),
            None => None,
        };
        let sig = signature(session, ctx)?;
        let parents: Vec<&git2::Commit> = parent.iter().collect();
        let message = message(session.home.store.redactor(), &changed);
        let oid = staging
            .commit(None, &sig, &sig, &message, &tree, &parents)
            .map_err(|e| git_error("commit", &e))?;
        Some(oid)
    };
    if let Some(oid) = commit {
        persist(session, &staging, &odb, oid)?;
    }
    if let Some(oid) = commit {
        session
            .repo
            .reference(BRANCH, oid, true, "agentbox sync: commit")
            .map_err(|e| git_error("move the branch main", &e))?;
    }
    index
        .write()
        .map_err(|e| git_error("write the git index", &e))?;
    // The session's own handle reads the index just written.
    session
        .repo
        .index()
        .and_then(|mut i| i.read(true))
        .map_err(|e| git_error("read the git index", &e))?;
    Ok(commit)
}

/// Writes the new commit and every object it reaches that the repository
/// lacks (held in the staging handle's memory) as one pack file.
fn persist(
    session: &Session,
    staging: &git2::Repository,
    odb: &git2::Odb,
    commit: Oid,
) -> Result<()> {
    let fail = |e: git2::Error| git_error("pack the new objects", &e);
    let known = session.repo.odb().map_err(fail)?;
    let ids = super::pack::missing(staging, commit, &known)?;
    super::pack::transfer(odb, &ids, &known).map_err(super::pack::Failed::into_error)?;
    if !known.exists(commit) {
        return Err(Error::internal(
            "sync: the new commit did not reach sync.git",
        ));
    }
    Ok(())
}

/// Records a path the redactor would change (as a whole or a part of it).
fn scan_path(session: &Session, rel: &str, out: &mut Vec<Finding>) {
    let redactor = session.home.store.redactor();
    let masked = redactor.redact(rel);
    if masked != rel || rel.split('/').any(|part| redactor.redact(part) != part) {
        let masked = if masked == rel {
            rel.split('/')
                .map(|part| redactor.redact(part))
                .collect::<Vec<_>>()
                .join("/")
        } else {
            masked.into_owned()
        };
        out.push(Finding {
            rel: masked.clone(),
            line: 0,
            masked,
            place: "path",
        });
    }
}

/// Records each new line of `bytes` the redactor would change, in the
/// first of the file's [`text_views`] that has any.
fn scan(session: &Session, rel: &str, bytes: &[u8], before: Option<&[u8]>, out: &mut Vec<Finding>) {
    let redactor = session.home.store.redactor();
    let before_views = before.map(text_views).unwrap_or_default();
    let mut old: Option<HashSet<&str>> = None;
    for text in text_views(bytes) {
        let mut found = false;
        for (n, line) in text.lines().enumerate() {
            let masked = redactor.redact(line);
            if masked == line {
                continue;
            }
            // A line already committed was checked then (or came from the remote).
            let old =
                old.get_or_insert_with(|| before_views.iter().flat_map(|t| t.lines()).collect());
            if old.contains(line) {
                continue;
            }
            found = true;
            out.push(Finding {
                rel: redactor.redact(rel).into_owned(),
                line: n + 1,
                masked: masked.into_owned(),
                place: "content",
            });
        }
        if found {
            return;
        }
    }
}

/// The texts a file's bytes can be read as, for the secret check: UTF-16
/// first when a byte-order mark says so, UTF-8 (invalid bytes replaced),
/// and — when the bytes hold a NUL, as UTF-16 and UTF-32 text does — UTF-16
/// in both byte orders and the bytes with every NUL dropped (ASCII text in
/// UTF-16 or UTF-32 of either byte order, at any alignment). A credential
/// must not pass by being written in another encoding.
fn text_views(bytes: &[u8]) -> Vec<Cow<'_, str>> {
    let mut views = Vec::new();
    let bom = match bytes {
        [0xff, 0xfe, ..] => Some(false),
        [0xfe, 0xff, ..] => Some(true),
        _ => None,
    };
    if let Some(big_endian) = bom {
        views.push(Cow::Owned(utf16(&bytes[2..], big_endian)));
    }
    views.push(String::from_utf8_lossy(bytes));
    if bytes.contains(&0) {
        for big_endian in [false, true] {
            if bom != Some(big_endian) {
                views.push(Cow::Owned(utf16(bytes, big_endian)));
            }
        }
        let ascii: Vec<u8> = bytes.iter().copied().filter(|b| *b != 0).collect();
        views.push(Cow::Owned(String::from_utf8_lossy(&ascii).into_owned()));
    }
    views
}

/// `bytes` decoded as UTF-16, unpaired surrogates (and an odd last byte)
/// replaced.
fn utf16(bytes: &[u8], big_endian: bool) -> String {
    let units = bytes.chunks_exact(2).map(|pair| {
        let pair = [pair[0], pair[1]];
        if big_endian {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }
    });
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// The `permission` error for credential-looking lines.
fn blocked(findings: &[Finding]) -> Error {
    let first = &findings[0];
    let mut message = match first.place {
        "path" => format!("the path {} looks like it holds a credential", first.masked),
        _ => format!(
            "{}:{} looks like it holds a credential: {}",
            first.rel,
            first.line,
            first.masked.trim()
        ),
    };
    if findings.len() > 1 {
        message.push_str(&format!(" (and {} more)", findings.len() - 1));
    }
    message.push_str("; nothing was committed or pushed");
    let files: Vec<_> = findings
        .iter()
        .take(MAX_FINDINGS)
        .map(|f| {
            json!({
                "path": f.rel,
                "line": if f.line == 0 { serde_json::Value::Null } else { f.line.into() },
                "masked": f.masked,
                "where": f.place,
            })
        })
        .collect();
    let hint = if findings.iter().any(|f| f.place == "path") {
        "rename the file or folder (paths are pushed as they are) and remove any secret from the files (keep it in a credential store or an environment variable), then run the sync again"
    } else {
        "remove the secret from the file (keep it in a credential store or an environment variable), then run the sync again"
    };
    Error::new(ErrorType::Permission, message)
        .with_hint(hint)
        .with_detail("files", files)
}

/// `agentbox sync: 3 files (a, b, c)`, redacted: the paths of new files
/// were checked, but a deleted one (from the remote or an older commit) may
/// still name a credential, and the subject must not repeat it.
fn message(redactor: &crate::redact::Redactor, changed: &[(String, bool)]) -> String {
    let n = changed.len();
    let shown: Vec<&str> = changed.iter().take(3).map(|(r, _)| r.as_str()).collect();
    let text = format!(
        "agentbox sync: {n} file{} ({}{})",
        if n == 1 { "" } else { "s" },
        shown.join(", "),
        if n > shown.len() { ", …" } else { "" }
    );
    redactor.redact(&text).into_owned()
}

/// The author: git config's user when set, else `agentbox`; the time is the
/// call's clock.
pub(super) fn signature(session: &Session, ctx: &Ctx) -> Result<Signature<'static>> {
    let config = session.repo.config().ok();
    let get = |key: &str| config.as_ref().and_then(|c| c.get_string(key).ok());
    let name = get("user.name").unwrap_or_else(|| "agentbox".to_string());
    let email = get("user.email").unwrap_or_else(|| "agentbox@localhost".to_string());
    // The author goes into every commit pushed: it passes the secret check.
    let redactor = session.home.store.redactor();
    for (key, value) in [("user.name", &name), ("user.email", &email)] {
        let masked = redactor.redact(value);
        if masked != value.as_str() {
            return Err(Error::new(
                ErrorType::Permission,
                format!(
                    "git config's {key} ({masked}) looks like it holds a credential; nothing was committed or pushed"
                ),
            )
            .with_hint(format!(
                "set {key} to a name without a secret (`git config --global {key} …`), then run the sync again"
            ))
            .with_detail("files", vec![json!({"path": key, "line": null, "masked": masked, "where": "author"})]));
        }
    }
    let time = Time::new(ctx.clock.now().as_second(), 0);
    Signature::new(&name, &email, &time)
        .or_else(|_| Signature::new("agentbox", "agentbox@localhost", &time))
        .map_err(|e| git_error("make the commit's signature", &e))
}
