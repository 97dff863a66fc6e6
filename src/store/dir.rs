//! Listing a folder of thousands of entries to keep a few, without copying
//! the names it skips (`platform::names_where`, which says why), and what
//! the listed entries are.

use std::ffi::OsStr;
use std::path::Path;

pub use crate::platform::{Kind, names_where};

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
    use std::io;
    use std::os::unix::ffi::OsStrExt;

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
