//! The walk over a skill folder and its content hash.

use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};

/// What one entry below the skill folder is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EntryKind {
    /// A regular file; `executable` is any of the execute bits.
    File { executable: bool },
    /// A symbolic link, never followed: its target string.
    Symlink { target: String },
    /// A FIFO, socket or device: never read.
    Special,
}

/// One entry: its `/`-separated path relative to the skill folder.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub rel: String,
    pub abs: PathBuf,
    pub kind: EntryKind,
}

/// Every entry below `dir` (directories themselves excluded), sorted by
/// relative path. Symlinks are listed, never followed.
pub(crate) fn walk(dir: &Path) -> Result<Vec<Entry>> {
    // The folder itself is the caller's choice and may be reached through a
    // link; nothing below it is followed.
    let meta = match fs::metadata(dir) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::not_found(format!(
                "no skill folder at {}",
                dir.display()
            )));
        }
        Err(e) => return Err(Error::io("read", dir, &e)),
    };
    if !meta.is_dir() {
        return Err(Error::invalid_args(format!(
            "{} is not a skill folder",
            dir.display()
        )));
    }
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((abs_dir, rel_dir)) = stack.pop() {
        let rd = fs::read_dir(&abs_dir).map_err(|e| Error::io("read", &abs_dir, &e))?;
        for item in rd {
            let item = item.map_err(|e| Error::io("read", &abs_dir, &e))?;
            let name = item.file_name().to_string_lossy().into_owned();
            let rel = if rel_dir.is_empty() {
                name
            } else {
                format!("{rel_dir}/{name}")
            };
            let abs = item.path();
            let ft = item.file_type().map_err(|e| Error::io("read", &abs, &e))?;
            if ft.is_symlink() {
                let target = fs::read_link(&abs)
                    .map_err(|e| Error::io("read", &abs, &e))?
                    .to_string_lossy()
                    .into_owned();
                out.push(Entry {
                    rel,
                    abs,
                    kind: EntryKind::Symlink { target },
                });
            } else if ft.is_dir() {
                stack.push((abs, rel));
            } else if ft.is_file() {
                let meta = item.metadata().map_err(|e| Error::io("read", &abs, &e))?;
                out.push(Entry {
                    rel,
                    abs,
                    kind: EntryKind::File {
                        executable: is_executable(&meta),
                    },
                });
            } else {
                out.push(Entry {
                    rel,
                    abs,
                    kind: EntryKind::Special,
                });
            }
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(out)
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &fs::Metadata) -> bool {
    false
}

/// Hashes the entries of a walk, reading each regular file with `read`
/// (so a screen reads every file once).
pub(crate) fn hash_entries(
    entries: &[Entry],
    mut read: impl FnMut(&Entry) -> Result<Option<Vec<u8>>>,
) -> Result<String> {
    let mut h = Sha256::new();
    for e in entries {
        // Length-prefixed fields: no two folders hash the same by shifting
        // bytes between a name and a body.
        let (tag, body): (&[u8], Vec<u8>) = match &e.kind {
            EntryKind::File { executable } => (
                if *executable { b"x" } else { b"f" },
                read(e)?.unwrap_or_default(),
            ),
            EntryKind::Symlink { target } => (b"l", target.as_bytes().to_vec()),
            EntryKind::Special => (b"s", Vec::new()),
        };
        h.update((e.rel.len() as u64).to_le_bytes());
        h.update(e.rel.as_bytes());
        h.update(tag);
        h.update((body.len() as u64).to_le_bytes());
        h.update(&body);
    }
    Ok(hex_of(h))
}

/// `sha256:<hex>` of one text (`screen_text`).
pub(crate) fn text_hash(text: &str) -> String {
    let mut h = Sha256::new();
    h.update(text.as_bytes());
    hex_of(h)
}

fn hex_of(h: Sha256) -> String {
    let digest = h.finalize();
    let mut hex = String::with_capacity(7 + 64);
    hex.push_str("sha256:");
    for b in digest {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
}

/// Reads a regular file whole.
pub(crate) fn read_file(e: &Entry) -> Result<Option<Vec<u8>>> {
    match e.kind {
        EntryKind::File { .. } => fs::read(&e.abs)
            .map(Some)
            .map_err(|err| Error::io("read", &e.abs, &err)),
        _ => Ok(None),
    }
}
