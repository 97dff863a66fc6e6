//! Moving objects between two object databases as one pack without deltas.
//!
//! libgit2's packbuilder searches every new object for a delta base (ten
//! candidates each, in-process, even towards a `file://` remote), which was
//! half of a push and a fifth of a pull of 1,000 new episodes. What a home
//! adds is mostly new files, which have no base to delta against, so the
//! commit step, a push and a fetch over `file://` write a plain zlib pack
//! instead and let the receiving database index it (libgit2's indexer checks
//! every object as it reads the pack).

use super::{BRANCH, Session, TRACKING, git_error, short};
use crate::error::{Error, ErrorType, Result};
use git2::{ErrorCode, ObjectType, Odb, Oid, Repository};
use sha1::{Digest, Sha1};
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

/// A `file://` remote: a bare repository on this machine.
fn open_local(url: &str, path: &Path) -> Result<Repository> {
    Repository::open_bare(path).map_err(|e| local_error(url, "open", &e))
}

fn local_error(url: &str, what: &str, err: &git2::Error) -> Error {
    Error::new(
        ErrorType::Network,
        format!("cannot {what} {url}: {}", err.message()),
    )
    .with_hint("check that the remote is a bare repository you may write to")
    .with_detail("url", url)
}

/// Fetch over `file://`: copies the objects of the remote's `main` this
/// home lacks and moves the tracking ref; `None` when the remote has no
/// `main` yet.
pub(super) fn fetch_local(session: &Session, url: &str, path: &Path) -> Result<Option<Oid>> {
    let remote = open_local(url, path)?;
    let tip = match remote.refname_to_id(BRANCH) {
        Ok(tip) => tip,
        Err(e) if e.code() == ErrorCode::NotFound => {
            if let Ok(mut stale) = session.repo.find_reference(TRACKING) {
                stale
                    .delete()
                    .map_err(|e| git_error("forget the remote's main", &e))?;
            }
            return Ok(None);
        }
        Err(e) => return Err(local_error(url, "read the main branch of", &e)),
    };
    let have = session
        .repo
        .odb()
        .map_err(|e| git_error("open the object database", &e))?;
    // Reading the remote's objects is the remote's failure (`network`);
    // writing them into sync.git is this home's (`io`).
    let ids = missing(&remote, tip, &have).map_err(|e| remote_side(url, "read", e))?;
    let theirs = remote
        .odb()
        .map_err(|e| local_error(url, "read the objects of", &e))?;
    transfer(&theirs, &ids, &have).map_err(|e| match e {
        Failed::Read(e) => remote_side(url, "read", e),
        Failed::Write(e) => e,
    })?;
    session
        .repo
        .reference(
            TRACKING,
            tip,
            true,
            &format!("agentbox sync: fetched {}", short(tip)),
        )
        .map_err(|e| git_error("record the fetch", &e))?;
    Ok(Some(tip))
}

/// Push over `file://`: copies the objects the remote lacks, then moves its
/// `main` from the commit it holds to `head` under git's ref lock. `false`
/// when the remote moved meanwhile (pull again and retry).
pub(super) fn push_local(session: &Session, url: &str, path: &Path, head: Oid) -> Result<bool> {
    let remote = open_local(url, path)?;
    send(&session.repo, url, &remote, head)
}

/// The push over `file://` once the remote is open: any failure of the
/// remote's side (it was removed or damaged meanwhile) is `network`, as
/// every push failure is.
fn send(ours: &Repository, url: &str, remote: &Repository, head: Oid) -> Result<bool> {
    let current = remote.refname_to_id(BRANCH).ok();
    if let Some(current) = current {
        let known = ours.odb().is_ok_and(|odb| odb.exists(current));
        let forward =
            current == head || (known && ours.graph_descendant_of(head, current).unwrap_or(false));
        if !forward {
            return Ok(false);
        }
    }
    let theirs = remote
        .odb()
        .map_err(|e| local_error(url, "read the objects of", &e))?;
    let ids = missing(ours, head, &theirs)?;
    let odb = ours
        .odb()
        .map_err(|e| git_error("open the object database", &e))?;
    transfer(&odb, &ids, &theirs).map_err(|e| match e {
        Failed::Read(e) => e,
        Failed::Write(e) => remote_side(url, "write to", e),
    })?;
    let message = format!("agentbox sync: push {}", short(head));
    let moved = match current {
        Some(current) => remote.reference_matching(BRANCH, head, true, current, &message),
        None => remote.reference(BRANCH, head, false, &message),
    };
    match moved {
        Ok(_) => Ok(true),
        Err(e)
            if matches!(
                e.code(),
                ErrorCode::Modified | ErrorCode::Exists | ErrorCode::Locked
            ) =>
        {
            Ok(false)
        }
        Err(e) => Err(local_error(url, "push to", &e)),
    }
}

/// Every object reachable from `tip` in `src` that `have` lacks: new
/// commits, then the trees and files they reach. An object `have` holds
/// implies everything below it, so the walk stops there.
pub(super) fn missing(src: &Repository, tip: Oid, have: &Odb) -> Result<Vec<Oid>> {
    let fail = |e: git2::Error| git_error("list the objects to transfer", &e);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut commits = vec![tip];
    let mut trees = Vec::new();
    while let Some(id) = commits.pop() {
        if have.exists(id) || !seen.insert(id) {
            continue;
        }
        let commit = src.find_commit(id).map_err(fail)?;
        out.push(id);
        trees.push(commit.tree_id());
        commits.extend(commit.parent_ids());
    }
    while let Some(id) = trees.pop() {
        if have.exists(id) || !seen.insert(id) {
            continue;
        }
        out.push(id);
        let tree = src.find_tree(id).map_err(fail)?;
        for entry in tree.iter() {
            match entry.kind() {
                Some(ObjectType::Tree) => trees.push(entry.id()),
                Some(ObjectType::Blob) => {
                    let blob = entry.id();
                    if !have.exists(blob) && seen.insert(blob) {
                        out.push(blob);
                    }
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

/// Which side of a transfer failed: reading `src` or writing `dest`.
pub(super) enum Failed {
    Read(Error),
    Write(Error),
}

impl Failed {
    pub(super) fn into_error(self) -> Error {
        match self {
            Failed::Read(e) | Failed::Write(e) => e,
        }
    }
}

/// A failure on the remote's side of a `file://` transfer: `network`, with
/// the URL, whatever libgit2 or the file system said.
fn remote_side(url: &str, what: &str, err: Error) -> Error {
    Error::new(
        ErrorType::Network,
        format!("cannot {what} {url}: {}", err.message),
    )
    .with_hint(
        "check that the remote still exists and is a bare repository you may write to (`agentbox sync remote`), then retry",
    )
    .with_detail("url", url)
}

/// Writes the objects `ids` of `src` into `dest` as one pack.
pub(super) fn transfer(src: &Odb, ids: &[Oid], dest: &Odb) -> std::result::Result<(), Failed> {
    if ids.is_empty() {
        return Ok(());
    }
    let read = |e: git2::Error| Failed::Read(git_error("read the objects to transfer", &e));
    let fail = |e: git2::Error| Failed::Write(git_error("write a pack", &e));
    let mut pack = Vec::new();
    pack.extend_from_slice(b"PACK");
    pack.extend_from_slice(&2u32.to_be_bytes());
    let count = u32::try_from(ids.len())
        .map_err(|_| Failed::Read(Error::internal("sync: too many objects for one pack")))?;
    pack.extend_from_slice(&count.to_be_bytes());
    for id in ids {
        let object = src.read(*id).map_err(read)?;
        let kind = match object.kind() {
            ObjectType::Commit => 1,
            ObjectType::Tree => 2,
            ObjectType::Blob => 3,
            ObjectType::Tag => 4,
            _ => {
                return Err(Failed::Read(Error::internal(
                    "sync: an object of no known type",
                )));
            }
        };
        entry_header(&mut pack, kind, object.len() as u64);
        let mut z = flate2::write::ZlibEncoder::new(&mut pack, flate2::Compression::fast());
        z.write_all(object.data())
            .and_then(|()| z.finish().map(drop))
            .map_err(|e| Failed::Read(io_error(e)))?;
    }
    let trailer = Sha1::digest(&pack);
    pack.extend_from_slice(&trailer);
    let mut writer = dest.packwriter().map_err(fail)?;
    writer
        .write_all(&pack)
        .map_err(|e| Failed::Write(io_error(e)))?;
    writer.commit().map_err(fail)?;
    dest.refresh().map_err(fail)
}

/// A pack entry's header: the type and the inflated size, 4 bits then 7
/// bits a byte, the high bit saying another byte follows.
fn entry_header(out: &mut Vec<u8>, kind: u8, mut size: u64) {
    let mut byte = (kind << 4) | (size & 0x0f) as u8;
    size >>= 4;
    while size > 0 {
        out.push(byte | 0x80);
        byte = (size & 0x7f) as u8;
        size >>= 7;
    }
    out.push(byte);
}

fn io_error(e: std::io::Error) -> Error {
    Error::new(ErrorType::Io, format!("sync: cannot write a pack: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_headers_follow_the_pack_format() {
        let header = |kind, size| {
            let mut out = Vec::new();
            entry_header(&mut out, kind, size);
            out
        };
        assert_eq!(header(3, 0), [0x30]);
        assert_eq!(header(3, 15), [0x3f]);
        assert_eq!(header(3, 16), [0xb0, 0x01]);
        assert_eq!(header(1, 300), [0x9c, 0x12]);
        assert_eq!(header(2, 1 << 20), [0xa0, 0x80, 0x80, 0x04]);
    }

    #[test]
    fn a_remote_removed_mid_push_is_network() {
        let dir = tempfile::tempdir().unwrap();
        let ours = Repository::init_bare(dir.path().join("ours")).unwrap();
        let sig = git2::Signature::new("t", "t@t", &git2::Time::new(0, 0)).unwrap();
        let mut builder = ours.treebuilder(None).unwrap();
        builder
            .insert("a", ours.blob(b"one").unwrap(), 0o100644)
            .unwrap();
        let tree = ours.find_tree(builder.write().unwrap()).unwrap();
        let head = ours.commit(None, &sig, &sig, "m", &tree, &[]).unwrap();
        let path = dir.path().join("remote.git");
        Repository::init_bare(&path).unwrap();
        let remote = open_local("file:///remote.git", &path).unwrap();
        // Removed once the push has the remote's object database open.
        drop(remote.odb().unwrap());
        std::fs::remove_dir_all(&path).unwrap();
        let err = send(&ours, "file:///remote.git", &remote, head).unwrap_err();
        assert_eq!(err.kind, ErrorType::Network, "{err:?}");
        assert!(!err.hint.is_empty());
    }

    #[test]
    fn a_transfer_copies_exactly_the_missing_objects() {
        let dir = tempfile::tempdir().unwrap();
        let src = Repository::init_bare(dir.path().join("src")).unwrap();
        let dest = Repository::init_bare(dir.path().join("dest")).unwrap();
        let sig = git2::Signature::new("t", "t@t", &git2::Time::new(0, 0)).unwrap();
        let commit = |repo: &Repository, files: &[(&str, &[u8])], parent: Option<Oid>| {
            let mut builder = repo.treebuilder(None).unwrap();
            for (name, bytes) in files {
                let blob = repo.blob(bytes).unwrap();
                builder.insert(name, blob, 0o100644).unwrap();
            }
            let tree = repo.find_tree(builder.write().unwrap()).unwrap();
            let parents: Vec<git2::Commit> = parent
                .iter()
                .map(|p| repo.find_commit(*p).unwrap())
                .collect();
            let parents: Vec<&git2::Commit> = parents.iter().collect();
            repo.commit(None, &sig, &sig, "m", &tree, &parents).unwrap()
        };
        let big = vec![b'x'; 100_000];
        let first = commit(&src, &[("a", b"one"), ("b", &big)], None);
        let ids = missing(&src, first, &dest.odb().unwrap()).unwrap();
        assert_eq!(ids.len(), 4, "a commit, a tree and two files");
        assert!(transfer(&src.odb().unwrap(), &ids, &dest.odb().unwrap()).is_ok());
        let second = commit(
            &src,
            &[("a", b"one"), ("b", &big), ("c", b"two")],
            Some(first),
        );
        let ids = missing(&src, second, &dest.odb().unwrap()).unwrap();
        assert_eq!(ids.len(), 3, "only the new commit, tree and file");
        assert!(transfer(&src.odb().unwrap(), &ids, &dest.odb().unwrap()).is_ok());
        let got = dest.find_commit(second).unwrap().tree().unwrap();
        let b = got.get_name("b").unwrap().id();
        assert_eq!(dest.find_blob(b).unwrap().content(), &big[..]);
        assert!(
            missing(&src, second, &dest.odb().unwrap())
                .unwrap()
                .is_empty()
        );
    }
}
