//! Listing a folder of thousands of entries to keep a few: `std::fs::read_dir`
//! allocates each entry's name twice (the entry, then `file_name`), which is
//! most of the cost of finding a session's open episode among thousands of
//! closed ones, or the session folders new since the last search. Here the
//! caller sees each name as bytes first, and only the ones it keeps are
//! copied.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// What a directory entry is, as `readdir` tells it without a `stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    /// A symlink, a device, a socket, …
    Other,
    /// The file system does not say (`DT_UNKNOWN`): `lstat` it.
    Unknown,
}

/// The names in `dir` (`.` and `..` aside) that `keep` accepts, seen as
/// bytes, with what `readdir` says they are; in no particular order.
pub fn names_where(
    dir: &Path,
    mut keep: impl FnMut(&[u8]) -> bool,
) -> io::Result<Vec<(OsString, Kind)>> {
    let path = CString::new(dir.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a path"))?;
    // SAFETY: `path` is a valid C string; the stream is closed below on
    // every path out of the loop.
    let stream = unsafe { libc::opendir(path.as_ptr()) };
    if stream.is_null() {
        return Err(io::Error::last_os_error());
    }
    let mut out = Vec::new();
    let outcome = loop {
        // readdir returns NULL both at the end and on an error: only errno
        // tells them apart.
        // SAFETY: `errno` is this thread's.
        unsafe { *libc::__errno_location() = 0 };
        // SAFETY: `stream` is open; the entry it returns stays valid until
        // the next call on it, and is read before that.
        let entry = unsafe { libc::readdir(stream) };
        if entry.is_null() {
            let err = io::Error::last_os_error();
            break if err.raw_os_error() == Some(0) {
                Ok(())
            } else {
                Err(err)
            };
        }
        // SAFETY: `d_name` is a NUL-terminated name inside the entry.
        let (name, kind) = unsafe {
            (
                CStr::from_ptr((*entry).d_name.as_ptr()).to_bytes(),
                (*entry).d_type,
            )
        };
        if name == b"." || name == b".." || !keep(name) {
            continue;
        }
        let kind = match kind {
            libc::DT_REG => Kind::File,
            libc::DT_DIR => Kind::Dir,
            libc::DT_UNKNOWN => Kind::Unknown,
            _ => Kind::Other,
        };
        out.push((OsStr::from_bytes(name).to_os_string(), kind));
    };
    // SAFETY: `stream` came from `opendir` and is closed once.
    unsafe { libc::closedir(stream) };
    outcome.map(|()| out)
}

/// Whether the entry `name` of `dir` (of kind `kind`, as listed) is a
/// regular file, not following a symlink.
pub fn is_file(dir: &Path, name: &OsStr, kind: Kind) -> bool {
    match kind {
        Kind::File => true,
        Kind::Unknown => std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.is_file()),
        Kind::Dir | Kind::Other => false,
    }
}

/// Whether the entry `name` of `dir` is a folder, not following a symlink.
pub fn is_dir(dir: &Path, name: &OsStr, kind: Kind) -> bool {
    match kind {
        Kind::Dir => true,
        Kind::Unknown => std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.is_dir()),
        Kind::File | Kind::Other => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_what_it_keeps_with_its_kind() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.open.jsonl"), "x").unwrap();
        std::fs::write(tmp.path().join("b.jsonl"), "x").unwrap();
        std::fs::create_dir(tmp.path().join("c.open.jsonl")).unwrap();
        std::os::unix::fs::symlink("a.open.jsonl", tmp.path().join("d.open.jsonl")).unwrap();
        let mut got = names_where(tmp.path(), |n| n.ends_with(b".open.jsonl")).unwrap();
        got.sort_by(|a, b| a.0.cmp(&b.0));
        let names: Vec<&str> = got.iter().map(|(n, _)| n.to_str().unwrap()).collect();
        assert_eq!(names, ["a.open.jsonl", "c.open.jsonl", "d.open.jsonl"]);
        let files: Vec<bool> = got
            .iter()
            .map(|(n, k)| is_file(tmp.path(), n, *k))
            .collect();
        assert_eq!(files, [true, false, false]);
        let dirs: Vec<bool> = got.iter().map(|(n, k)| is_dir(tmp.path(), n, *k)).collect();
        assert_eq!(dirs, [false, true, false]);
        assert_eq!(names_where(tmp.path(), |_| true).unwrap().len(), 4);
    }

    #[test]
    fn a_missing_folder_is_not_found_and_a_file_is_not_a_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let err = names_where(&tmp.path().join("nope"), |_| true).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        std::fs::write(tmp.path().join("f"), "x").unwrap();
        let err = names_where(&tmp.path().join("f"), |_| true).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOTDIR));
    }

    #[test]
    fn names_that_are_not_utf8_come_back_as_they_are() {
        let tmp = tempfile::tempdir().unwrap();
        let name = OsStr::from_bytes(b"caf\xe9.jsonl");
        std::fs::write(tmp.path().join(name), "x").unwrap();
        let got = names_where(tmp.path(), |_| true).unwrap();
        assert_eq!(got, [(name.to_os_string(), Kind::File)]);
    }
}
