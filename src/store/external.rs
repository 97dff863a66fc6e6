//! Writers for files OUTSIDE a home: the config files and skill folders of
//! host agents (`sync hosts`). They live here because the store is the one
//! writer of files; they differ from the home's writers in two ways:
//!
//! - No redaction. A host's config file is the user's own: it may hold their
//!   tokens, and masking them would break the host. Bytes are written exactly
//!   as given; a caller checks what it adds itself.
//! - Symlinks. The caller refuses paths that lead through a symlink unless
//!   the user said to follow them (`--follow-symlinks`); a file that is
//!   itself a symlink (dotfiles kept in a repository and linked into
//!   `$HOME`) is then replaced at its target, so the link survives. Without
//!   `follow_links` a file that became a link since the caller's check is
//!   refused (`permission`), never written through.
//!   A file's mode is kept; a new file gets `new_mode`.

use super::{committed, create_temp, io_error, sync_dir};
use crate::error::{Error, ErrorType, Result};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Where a write to `path` lands: the symlink's target when `path` is a
/// symlink (followed to the end) and `follow_links`, else `path`. A link not
/// to be followed, or pointing at nothing, is `permission`: writing there
/// would either replace the user's link or create a file wherever it points.
fn write_target(path: &Path, follow_links: bool) -> Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => match fs::canonicalize(path) {
            Ok(target) if follow_links => Ok(target),
            _ => Err(Error::new(
                ErrorType::Permission,
                format!("{} is a symlink; it is not written through", path.display()),
            )
            .with_hint("replace the link with the real file, then retry")
            .with_detail("path", path.display().to_string())),
        },
        _ => Ok(path.to_path_buf()),
    }
}

/// Replaces the file at `path` (outside any home) atomically with `bytes`,
/// verbatim: temp file beside it, fsync, keep the old file's mode (else
/// `new_mode`), rename, fsync the folder. A directory in the way is
/// `conflict`; a symlink is written through only with `follow_links`.
pub fn write_external(path: &Path, bytes: &[u8], new_mode: u32, follow_links: bool) -> Result<()> {
    let target = write_target(path, follow_links)?;
    let mode = match fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => {
            return Err(
                Error::conflict(format!("{} is a folder, not a file", target.display()))
                    .with_hint("move it away, then retry")
                    .with_detail("path", target.display().to_string()),
            );
        }
        Ok(meta) => mode_of(&meta).unwrap_or(new_mode),
        Err(_) => new_mode,
    };
    let (tmp, mut file) = create_temp(&target).map_err(|e| io_error("write", &target, &e))?;
    let result = (|| -> io::Result<()> {
        file.write_all(bytes)?;
        set_mode(&tmp, mode)?;
        file.sync_all()?;
        committed();
        fs::rename(&tmp, &target)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(io_error("write", &target, &e));
    }
    sync_dir(&target);
    Ok(())
}

/// Deletes a file outside any home (the link itself when it is a symlink);
/// false when it did not exist.
pub fn remove_external_file(path: &Path) -> Result<bool> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io_error("remove", path, &e)),
        Ok(meta) if meta.is_dir() => {
            return Err(
                Error::invalid_args(format!("{} is a folder, not a file", path.display()))
                    .with_detail("path", path.display().to_string()),
            );
        }
        Ok(_) => {}
    }
    committed();
    fs::remove_file(path).map_err(|e| io_error("remove", path, &e))?;
    sync_dir(path);
    Ok(true)
}

/// Creates a folder outside any home (and its parents); returns the folders
/// it created, outermost first, so that their creator can remove exactly
/// those again.
pub fn ensure_external_dir(path: &Path) -> Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut probe = Some(path);
    while let Some(dir) = probe {
        if fs::symlink_metadata(dir).is_ok() {
            break;
        }
        missing.push(dir.to_path_buf());
        probe = dir.parent();
    }
    missing.reverse();
    if !missing.is_empty() {
        fs::create_dir_all(path).map_err(|e| io_error("create", path, &e))?;
    }
    if !path.is_dir() {
        return Err(Error::conflict(format!(
            "{} is in the way: it should be a folder",
            path.display()
        ))
        .with_hint("move it away, then retry")
        .with_detail("path", path.display().to_string()));
    }
    Ok(missing)
}

/// Removes an empty folder outside any home; false when it is not empty or
/// absent (a folder someone else put something in stays).
pub fn remove_external_empty_dir(path: &Path) -> bool {
    fs::remove_dir(path).is_ok()
}

/// Deletes a folder outside any home with everything in it (symlinks inside
/// removed as links); false when it did not exist.
pub fn remove_external_dir(path: &Path) -> Result<bool> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io_error("remove", path, &e)),
        Ok(meta) if !meta.is_dir() => {
            return Err(
                Error::invalid_args(format!("{} is not a folder", path.display()))
                    .with_detail("path", path.display().to_string()),
            );
        }
        Ok(_) => {}
    }
    committed();
    fs::remove_dir_all(path).map_err(|e| io_error("remove", path, &e))?;
    sync_dir(path);
    Ok(true)
}

/// Renames a folder outside any home into place (the destination must not
/// exist), durably.
pub fn rename_external(from: &Path, to: &Path) -> Result<()> {
    committed();
    fs::rename(from, to).map_err(|e| io_error("rename", to, &e))?;
    sync_dir(to);
    Ok(())
}

#[cfg(unix)]
fn mode_of(meta: &fs::Metadata) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    Some(meta.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn mode_of(_meta: &fs::Metadata) -> Option<u32> {
    None
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> io::Result<()> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn keeps_mode_and_writes_through_a_linked_file() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("dotfiles.json");
        fs::write(&real, "{}").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.path().join("config.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let e = write_external(&link, b"{\"a\":1}", 0o644, false).unwrap_err();
        assert_eq!(e.kind, ErrorType::Permission);
        assert_eq!(fs::read_to_string(&real).unwrap(), "{}");
        write_external(&link, b"{\"a\":1}", 0o644, true).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "{\"a\":1}");
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let fresh = dir.path().join("new/deeper");
        let made = ensure_external_dir(&fresh).unwrap();
        assert_eq!(made, vec![dir.path().join("new"), fresh.clone()]);
        write_external(&fresh.join("f"), b"x", 0o640, false).unwrap();
        // a dangling link is never written through
        let nowhere = dir.path().join("nowhere.json");
        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink(&nowhere, &dangling).unwrap();
        write_external(&dangling, b"x", 0o644, true).unwrap_err();
        assert!(!nowhere.exists());
        let mode = fs::metadata(fresh.join("f")).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }
}
