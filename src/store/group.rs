//! Group commit: a scope in which appends write at once but defer their
//! fsync, so that the appends of several requests handled together
//! (`memory_mcp` handling the requests already waiting on its stdin) are made
//! durable with one `sync_data` per touched file instead of one per append.
//!
//! Only a caller that holds every acknowledgement back until
//! [`SyncGroup::finish`] has returned `Ok` may open a group: what it defers is
//! not durable before then. A kill -9 keeps what was written (the kernel has
//! it); a power cut may lose what was not yet synced, which was never
//! acknowledged. The CLI never opens a group.

use super::{Store, io_error};
use crate::error::Result;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The appends of the open group, if one is open (see [`Store::defer_syncs`]).
#[derive(Debug, Default)]
pub(super) struct Deferred(Mutex<Option<Pending>>);

/// What an open group has to make durable.
#[derive(Debug, Default)]
struct Pending {
    /// One handle per file appended to, in the order first touched. The
    /// handle, not the path, is synced: a file renamed meanwhile (an episode
    /// closed in the same group) is still the file that was written.
    files: Vec<(PathBuf, File)>,
    /// Appends deferred so far.
    appends: u64,
}

/// A clone of a store starts with no group open: a group belongs to the one
/// caller that opened it.
impl Clone for Deferred {
    fn clone(&self) -> Deferred {
        Deferred::default()
    }
}

impl Deferred {
    fn pending(&self) -> std::sync::MutexGuard<'_, Option<Pending>> {
        // A panic while holding the lock left a list that is still valid.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes `file` (just appended to) durable now, or, while a group is
    /// open, keeps it for the group's one sync.
    pub(super) fn sync_or_defer(&self, path: &Path, file: File) -> io::Result<()> {
        let mut pending = self.pending();
        let Some(group) = pending.as_mut() else {
            drop(pending);
            return file.sync_data();
        };
        group.appends += 1;
        if !group.files.iter().any(|(p, _)| p == path) {
            group.files.push((path.to_path_buf(), file));
        }
        Ok(())
    }
}

/// An open group of deferred fsyncs (see [`Store::defer_syncs`]). Dropped
/// without [`SyncGroup::finish`] (a panic), it still syncs what it holds.
#[derive(Debug)]
pub struct SyncGroup<'s> {
    store: &'s Store,
}

impl Store {
    /// Opens a group commit: until the returned guard is finished, appends
    /// (`append_jsonl`, `append_jsonl_held`) write their lines at once but
    /// leave the fsync to [`SyncGroup::finish`], which syncs each touched file
    /// once. Nothing written in the group may be acknowledged before `finish`
    /// returns `Ok`. A group opened while one is open shares it: the first
    /// `finish` syncs and closes it, and later appends sync at once.
    pub fn defer_syncs(&self) -> SyncGroup<'_> {
        self.deferred.pending().get_or_insert_with(Pending::default);
        SyncGroup { store: self }
    }

    /// Whether a group commit is open (see [`Store::defer_syncs`]): the
    /// search index joins it with one transaction for the whole group.
    pub fn in_group(&self) -> bool {
        self.deferred.pending().is_some()
    }
}

impl SyncGroup<'_> {
    /// Appends deferred since the group opened: a caller compares the count
    /// before and after a request to know whether the request wrote.
    pub fn appends(&self) -> u64 {
        self.store
            .deferred
            .pending()
            .as_ref()
            .map_or(0, |group| group.appends)
    }

    /// Closes the group: `sync_data` on each file appended to, once. Returns
    /// how many files were synced, or the first failure (every file is still
    /// tried). On an error, nothing the group wrote may be reported durable.
    pub fn finish(self) -> Result<usize> {
        // Synced here, with its result: not again on drop.
        std::mem::ManuallyDrop::new(self).sync()
    }

    fn sync(&self) -> Result<usize> {
        let Some(group) = self.store.deferred.pending().take() else {
            return Ok(0);
        };
        let mut first_error = None;
        for (path, file) in &group.files {
            if let Err(e) = file.sync_data() {
                first_error.get_or_insert_with(|| io_error("sync", path, &e));
            }
        }
        match first_error {
            Some(error) => Err(error),
            None => Ok(group.files.len()),
        }
    }
}

impl Drop for SyncGroup<'_> {
    fn drop(&mut self) {
        let _ = self.sync();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::Redactor;
    use serde_json::json;

    fn store(dir: &Path) -> Store {
        Store::new(dir.to_path_buf(), Redactor::builtin(), 1 << 20)
    }

    #[test]
    fn a_group_syncs_each_file_once_and_writes_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
        let group = store.defer_syncs();
        let lock = store.lock("t").unwrap();
        for i in 0..3 {
            store
                .append_jsonl_held(&lock, &a, &[json!({"n": i})])
                .unwrap();
        }
        store.append_jsonl("t2", &b, &json!({"n": 9})).unwrap();
        assert_eq!(group.appends(), 4);
        // Written before the sync: a reader (and a kill -9) sees the lines.
        assert_eq!(std::fs::read_to_string(&a).unwrap().lines().count(), 3);
        assert_eq!(group.finish().unwrap(), 2);
        // Closed: the next append syncs at once and no group counts it.
        store.append_jsonl("t2", &b, &json!({"n": 10})).unwrap();
        assert_eq!(store.defer_syncs().finish().unwrap(), 0);
    }

    #[test]
    fn a_failed_group_sync_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        let group = store.defer_syncs();
        // fsync of a pipe fails (EINVAL): the stand-in for a disk that
        // refuses the flush.
        let (_reader, writer) = std::io::pipe().unwrap();
        let pipe = File::from(std::os::fd::OwnedFd::from(writer));
        let path = dir.path().join("pipe");
        store.deferred.sync_or_defer(&path, pipe).unwrap();
        let err = group.finish().unwrap_err();
        assert_eq!(err.kind, crate::error::ErrorType::Io);
        assert!(err.message.contains("pipe"), "{}", err.message);
        // The failed group is closed all the same.
        assert_eq!(store.defer_syncs().finish().unwrap(), 0);
    }

    #[test]
    fn a_clone_of_the_store_is_outside_the_group() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        let group = store.defer_syncs();
        let other = store.clone();
        other
            .append_jsonl("t", &dir.path().join("c.jsonl"), &json!({"n": 1}))
            .unwrap();
        assert_eq!(group.appends(), 0);
        assert_eq!(group.finish().unwrap(), 0);
    }
}
