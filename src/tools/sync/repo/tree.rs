//! The history's trees and blobs as sync reads them: a tree flattened to a
//! path map, a commit's tree, a blob's bytes and size, a bare index entry.

use super::{Session, git_error};
use crate::error::Result;
use git2::{Oid, Tree};
use std::collections::BTreeMap;

/// A path → (blob, mode) map of a tree.
pub(super) type Flat = BTreeMap<String, (Oid, i32)>;

/// The files of a tree whose path is not UTF-8 (a hostile remote's): never
/// written into the home, kept in `main` as they are.
pub(super) type Raw = BTreeMap<Vec<u8>, (Oid, i32)>;

/// The files of a tree: those with a UTF-8 path, and the others. Walked by
/// hand: git2's walk stops at a folder whose name is not UTF-8.
pub(super) fn flatten_all(session: &Session, tree: Option<&Tree>) -> Result<(Flat, Raw)> {
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

/// The tree of the commit `commit` (`None`: no commit, no tree).
pub(super) fn tree_of<'r>(session: &'r Session, commit: Option<Oid>) -> Result<Option<Tree<'r>>> {
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

/// The bytes of the blob `oid` (`None`: no blob, no bytes).
pub(super) fn blob(session: &Session, oid: Option<Oid>) -> Result<Option<Vec<u8>>> {
    match oid {
        None => Ok(None),
        Some(oid) => session
            .repo
            .find_blob(oid)
            .map(|b| Some(b.content().to_vec()))
            .map_err(|e| git_error("read a file of the history", &e)),
    }
}

/// The size of a blob, read from its header (a hostile remote's blob may be
/// far too big to read whole).
pub(super) fn blob_size(session: &Session, oid: Oid) -> Result<u64> {
    session
        .repo
        .odb()
        .and_then(|odb| odb.read_header(oid))
        .map(|(size, _)| size as u64)
        .map_err(|e| git_error("read a file of the history", &e))
}

/// A git index entry with no stat data: `path` holds the object `oid`.
pub(super) fn bare_entry(path: &[u8], oid: Oid, mode: i32) -> git2::IndexEntry {
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
