//! The index on disk: its folder, its database files, the stale marker a
//! failed update leaves there, and what an error opening them means.

use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use std::path::{Path, PathBuf};

/// Left in `index/` by a write whose index update failed.
pub(super) const MARKER: &str = "STALE";
/// The marker while a call catches up (renamed, so a marker left meanwhile survives).
pub(super) const CLAIMED: &str = "STALE.claimed";

/// The SQLite files of the index, in `index/`.
const DB_FILES: [&str; 3] = ["search.db", "search.db-wal", "search.db-shm"];

/// The folder of the search index (`search.db` and its WAL files).
pub(super) fn index_dir(home: &Home) -> PathBuf {
    home.root.join("index")
}

fn is_permission(kind: std::io::ErrorKind) -> bool {
    matches!(
        kind,
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
    )
}

/// Says what is wrong when the index cannot be opened or written: a folder or
/// database file this user may not write is `permission`, naming the path.
pub(super) fn diagnose(home: &Home, err: Error) -> Error {
    if err.kind != ErrorType::Io {
        return err;
    }
    let dir = index_dir(home);
    let unwritable = |path: &Path, e: std::io::Error| {
        Error::new(
            ErrorType::Permission,
            format!(
                "cannot write the search index: {} is not writable ({e})",
                path.display()
            ),
        )
        .with_hint(format!(
            "give this user write access to the home (e.g. chmod -R u+w {}); the index is derived, so nothing is lost meanwhile",
            home.root.display()
        ))
        .with_detail("path", path.display().to_string())
    };
    let probe = dir.join(format!(".probe.{}.tmp", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
        }
        Err(e) if is_permission(e.kind()) => return unwritable(&dir, e),
        Err(_) => {}
    }
    for name in DB_FILES {
        let path = dir.join(name);
        if let Err(e) = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            && is_permission(e.kind())
        {
            return unwritable(&path, e);
        }
    }
    err
}

/// `conflict` when something other than a file sits where the database goes.
pub(super) fn check_db_files(home: &Home) -> Result<()> {
    for name in DB_FILES {
        let path = index_dir(home).join(name);
        home.store.check_path(&path)?;
        if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
            return Err(Error::conflict(format!(
                "{} is in the way of the search index: it is not a file",
                path.display()
            ))
            .with_hint("move it away; the index is derived and is rebuilt on the next search")
            .with_detail("path", path.display().to_string()));
        }
    }
    Ok(())
}

/// Deletes the database files (the caller holds the `index` lock).
pub(super) fn remove_db_files(home: &Home) -> Result<()> {
    for name in DB_FILES {
        home.store.remove_file(&index_dir(home).join(name))?;
    }
    Ok(())
}

/// Leaves `index/STALE`, so the next open catches the index up with the files.
/// Best effort: when even this fails, `doctor` still sees the index behind.
pub(super) fn mark_stale(home: &Home, reason: &str) {
    let _ = home
        .store
        .write_text(&index_dir(home).join(MARKER), &format!("{reason}\n"));
}

/// Whether a stale marker waits (claimed by a call that did not finish
/// counts): an update failed, and the next open catches up from the files.
pub fn is_marked(home: &Home) -> bool {
    let dir = index_dir(home);
    dir.join(MARKER).is_file() || dir.join(CLAIMED).is_file()
}

/// `(device, inode)` of a file, to notice a database replaced under a kept connection.
pub(super) fn file_id(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::metadata(path).ok().map(|m| (m.len(), 0))
    }
}
