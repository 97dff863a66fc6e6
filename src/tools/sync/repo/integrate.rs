//! Integrating the remote: fast-forward or a three-way tree merge of our own
//! (each path both sides changed goes to `merge::merge_file`), handing the
//! result to `apply`, and the conflict gate (a recorded conflict stops every
//! sync until it is resolved).

use super::apply::apply;
use super::conflict::{Stop, conflict_error, copy_at, folders, record_conflict};
use super::state;
use super::tree::{Flat, Raw, bare_entry, blob, flatten_all, tree_of};
use super::{Session, abs, git_error, safe_rel, short};
use crate::error::Result;
use crate::output::Outcome;
use crate::tools::Ctx;
use crate::tools::sync::merge::{self, Merged};
use git2::Oid;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// What a pull did.
#[derive(Debug, Clone, Default)]
pub(super) struct Pulled {
    pub pulled: usize,
    pub files: Vec<String>,
    pub merged: bool,
    pub renamed: Vec<String>,
    pub commit: Option<Oid>,
    pub empty_remote: bool,
    /// The remote's paths git itself refuses (`..`, `.git`: a hostile
    /// remote's), left out of the merged history and never written.
    pub dropped: Vec<String>,
}

impl Pulled {
    /// `outcome` with a warning for each path left out of the history.
    pub fn warn(&self, mut outcome: Outcome) -> Outcome {
        for path in &self.dropped {
            outcome = outcome.with_warning(format!(
                "the remote's path {} is one git refuses; it was left out of the merged history and not written",
                Value::from(path.as_str())
            ));
        }
        outcome
    }

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
        self.dropped.extend(later.dropped);
        if later.commit.is_some() {
            self.commit = later.commit;
        }
        self.empty_remote &= later.empty_remote;
    }
}

/// Integrates the remote's `main` as fetched (`net::fetch`; `None`: the
/// remote has no `main` yet).
pub(super) fn pull(session: &Session, ctx: &Ctx, fetched: Option<Oid>) -> Result<Pulled> {
    let Some(remote) = fetched else {
        return Ok(Pulled {
            empty_remote: true,
            commit: session.head()?,
            ..Pulled::default()
        });
    };
    integrate(session, ctx, remote, &BTreeSet::new())
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
    // Only "no merge base" means two unrelated histories; any other failure
    // (a damaged object, an unreadable pack) is an error, not an empty base.
    let base = match repo.merge_base(local, remote) {
        Ok(base) => Some(base),
        Err(e) if e.code() == git2::ErrorCode::NotFound => None,
        Err(e) => return Err(git_error("find the common base of two histories", &e)),
    };
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
    let (tree, dropped) = build_tree(session, &result, &raw)?;
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
        dropped,
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

/// A tree object from a flat map (through an in-memory git index), and the
/// paths left out of it because git refuses them (`..`, `.git`: only a
/// hostile remote's tree, written by hand, holds one). Failing on them
/// instead would stop every later pull until the remote is repaired; left
/// out, the next push sends a history without them.
fn build_tree(session: &Session, flat: &Flat, raw: &Raw) -> Result<(Oid, Vec<String>)> {
    let mut index = git2::Index::new().map_err(|e| git_error("build a tree", &e))?;
    let mut dropped = Vec::new();
    let paths = flat.iter().map(|(p, e)| (p.as_bytes(), e));
    for (path, (oid, mode)) in paths.chain(raw.iter().map(|(p, e)| (p.as_slice(), e))) {
        let entry = bare_entry(path, *oid, *mode);
        let path = String::from_utf8_lossy(path);
        match index.add(&entry) {
            Ok(()) => {}
            Err(e) if refused_path(&e) => dropped.push(path.into_owned()),
            Err(e) => return Err(git_error(&format!("add {path} to the merged tree"), &e)),
        }
    }
    let tree = index
        .write_tree_to(&session.repo)
        .map_err(|e| git_error("write the merged tree", &e))?;
    Ok((tree, dropped))
}

/// Whether libgit2 refused an index entry for its path (a `..` or `.git`
/// component, an empty one), not for a failure of its own.
fn refused_path(e: &git2::Error) -> bool {
    e.class() == git2::ErrorClass::Index && e.message().starts_with("invalid path")
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
