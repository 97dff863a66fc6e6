//! Store primitives: the one place that writes files, takes locks, checks
//! revisions, validates names that become paths and enforces size caps.
//! Everything written passes through the redactor first.

use crate::error::{Error, ErrorType, Result, over_limit};
use crate::redact::Redactor;
use serde_json::Value;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

pub mod dir;
mod events;
mod external;
mod group;
mod jsonl;
mod process;
mod revision;

pub use events::EventLog;
pub use external::{
    ensure_external_dir, remove_external_dir, remove_external_empty_dir, remove_external_file,
    rename_external, write_external,
};
pub use group::SyncGroup;
pub use jsonl::Redacted;
use process::committed;
pub use process::{
    interrupt_requested, poll_interrupts, polls_interrupts, request_interrupt, write_committed,
    writes,
};
pub use revision::{EXPECT_FLAG, MAX_REVISION, Versioned};

/// Longest accepted name (plan id, slug, persona name, session key).
pub const MAX_NAME_LEN: usize = 128;

/// The cap on a tool's own state file (evolve's miner counts): bounded by
/// the tool, not by `limits.max_item_bytes`, which caps what users hand in.
pub const MAX_STATE_BYTES: u64 = 64 * 1024 * 1024;

/// Gives a file the mode of a plain (0644) or executable (0755) file.
fn set_executable(path: &Path, executable: bool) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = if executable { 0o755 } else { 0o644 };
        fs::set_permissions(path, fs::Permissions::from_mode(mode))
            .map_err(|e| io_error("set the mode of", path, &e))?;
    }
    #[cfg(not(unix))]
    let _ = (path, executable);
    Ok(())
}

/// `sync_paths` flushes the whole filesystem at once above this many paths.
const SYNCFS_ABOVE: usize = 32;

/// Access to the files of one home.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
    redactor: Redactor,
    max_item_bytes: u64,
    /// Appends whose fsync waits for the open group commit, if any.
    deferred: group::Deferred,
}

/// An advisory lock, released on drop (or when the process dies).
#[derive(Debug)]
pub struct Lock {
    file: File,
    path: PathBuf,
}

/// The most bytes of a lock's note (`Lock::note`).
const NOTE_BYTES: usize = 256;

impl Lock {
    /// The short note kept in the lock file itself, for whoever holds the
    /// lock next (the last episode id minted, for one): empty when there is
    /// none, and whatever a crash left half-written is the holder's to
    /// reject.
    pub fn note(&self) -> String {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; NOTE_BYTES];
        let n = self.file.read_at(&mut buf, 0).unwrap_or(0);
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }

    /// Replaces the note. Not synced: after a power cut the note may be an
    /// older one, which its holder must be able to live with.
    pub fn set_note(&self, note: &str) -> Result<()> {
        use std::os::unix::fs::FileExt;
        check_size("lock note", note.len() as u64, NOTE_BYTES as u64)?;
        self.file
            .set_len(0)
            .and_then(|()| self.file.write_all_at(note.as_bytes(), 0))
            .map_err(|e| io_error("write", &self.path, &e))
    }
}

/// What `Store::link` did to one link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkState {
    Created,
    Repaired,
    Unchanged,
}

impl LinkState {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkState::Created => "created",
            LinkState::Repaired => "repaired",
            LinkState::Unchanged => "ok",
        }
    }
}

impl Store {
    pub fn new(root: PathBuf, redactor: Redactor, max_item_bytes: u64) -> Store {
        Store {
            root,
            redactor,
            max_item_bytes,
            deferred: group::Deferred::default(),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Replaces the redactor (a server that knows one more secret, the
    /// token it was given, masks it in everything it stores too).
    pub fn set_redactor(&mut self, redactor: Redactor) {
        self.redactor = redactor;
    }

    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }

    pub fn max_item_bytes(&self) -> u64 {
        self.max_item_bytes
    }

    /// A path inside the home. Every component must be a safe name, and the
    /// existing part of the path must not leave the home through a symlink.
    pub fn path(&self, parts: &[&str]) -> Result<PathBuf> {
        let mut path = self.root.clone();
        for part in parts {
            safe_name("path component", part)?;
            // A file name is stored as is, so it must not carry a secret.
            if self.redactor.redact(part) != *part {
                let shown = self.redactor.redact(part).into_owned();
                return Err(Error::invalid_args(format!(
                    "the name {} looks like a credential",
                    Value::from(shown.as_str())
                ))
                .with_hint("names become file names in the home; choose one without a token or password in it")
                .with_detail("name", shown));
            }
            path.push(part);
        }
        self.check_inside(&path)?;
        Ok(path)
    }

    /// The one check every path of the home passes before it is read or
    /// written: no existing component below the home's root may be a symlink
    /// (the links in `tools/` are the only symlinks a home has, and nothing
    /// is read or written through them), and the path must not resolve
    /// outside the home. Otherwise `permission` with `detail.path`.
    pub fn check_path(&self, path: &Path) -> Result<()> {
        self.check_inside(path)
    }

    fn check_inside(&self, path: &Path) -> Result<()> {
        if let Ok(rel) = path.strip_prefix(&self.root) {
            // Plain names only (no `..`) and no symlink among the existing
            // components: the path is the root's own folders, so it cannot
            // resolve outside the root and the walk up below is not needed.
            let mut plain = rel.components().next().is_some()
                && rel
                    .components()
                    .all(|part| matches!(part, Component::Normal(_)));
            let mut probe = self.root.clone();
            for (depth, part) in rel.components().enumerate() {
                probe.push(part);
                match fs::symlink_metadata(&probe) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        if depth == 1 && rel.starts_with("tools") {
                            plain = false;
                            continue;
                        }
                        return Err(Error::new(
                            ErrorType::Permission,
                            format!(
                                "{} is a symlink; agentbox does not read or write through symlinks inside its home",
                                probe.display()
                            ),
                        )
                        .with_hint("replace the link with a real folder or file (move its content in), or remove it")
                        .with_detail("path", probe.display().to_string()));
                    }
                    Ok(_) => {}
                    // The rest of the path does not exist yet (nor, when
                    // that is the first name, maybe the root: the walk up
                    // below says).
                    Err(_) => {
                        plain &= depth > 0;
                        break;
                    }
                }
            }
            if plain {
                return Ok(());
            }
        }
        let root = fs::canonicalize(&self.root).map_err(|e| Error::io("open", &self.root, &e))?;
        let mut probe = path;
        loop {
            match fs::canonicalize(probe) {
                Ok(real) => {
                    if real.starts_with(&root) {
                        return Ok(());
                    }
                    return Err(Error::new(
                        ErrorType::Permission,
                        format!(
                            "{} leads outside the home through a symlink",
                            path.display()
                        ),
                    )
                    .with_hint("remove the symlink; agentbox only reads and writes inside its home")
                    .with_detail("path", path.display().to_string()));
                }
                Err(_) => match probe.parent() {
                    Some(parent) => probe = parent,
                    None => return Ok(()),
                },
            }
        }
    }

    /// Reads a UTF-8 file inside the home; `None` when it does not exist.
    pub fn read(&self, path: &Path) -> Result<Option<String>> {
        self.read_capped(path, self.max_item_bytes)
    }

    /// Reads a tool's own state file (capped at [`MAX_STATE_BYTES`], not at
    /// the item cap); `None` when it does not exist.
    pub fn read_state(&self, path: &Path) -> Result<Option<String>> {
        self.read_capped(path, MAX_STATE_BYTES)
    }

    /// A UTF-8 file of at most `cap` bytes; `None` when it does not exist.
    fn read_capped(&self, path: &Path, cap: u64) -> Result<Option<String>> {
        self.check_inside(path)?;
        let bytes = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_error("read", path, &e)),
        };
        check_size(&format!("{}", path.display()), bytes.len() as u64, cap)?;
        String::from_utf8(bytes).map(Some).map_err(|e| {
            not_utf8(&path.display().to_string(), &e).with_hint("repair or remove the file by hand")
        })
    }

    /// Replaces a tool's own state file atomically: compact JSON, every
    /// string redacted, capped at [`MAX_STATE_BYTES`]. A state holds
    /// megabytes (evolve's miner counts), so it is serialized straight to
    /// text; only when the redactor finds something in that text is it
    /// redacted value by value (the way every other document is).
    pub fn write_state<T: serde::Serialize>(&self, path: &Path, state: &T) -> Result<()> {
        let cannot = |e: serde_json::Error| {
            Error::internal(format!("cannot serialize {}: {e}", path.display()))
        };
        let mut text = serde_json::to_string(state).map_err(cannot)?;
        if self.redactor.redact(&text) != text {
            let mut value = serde_json::to_value(state).map_err(cannot)?;
            self.redactor.redact_value(&mut value);
            text = serde_json::to_string(&value).map_err(cannot)?;
        }
        text.push('\n');
        self.write_capped(path, text.as_bytes(), MAX_STATE_BYTES)
    }

    /// Replaces a text report a tool writes for people (evolve's
    /// `summary.md`) atomically, redacted, capped at [`MAX_STATE_BYTES`].
    pub fn write_report(&self, path: &Path, text: &str) -> Result<()> {
        let text = self.redactor.redact(text);
        self.write_capped(path, text.as_bytes(), MAX_STATE_BYTES)
    }

    /// Replaces a JSON document atomically, after redacting every string in it.
    pub fn write_json(&self, path: &Path, value: &Value) -> Result<()> {
        let mut value = value.clone();
        self.redactor.redact_value(&mut value);
        let mut text = serde_json::to_string_pretty(&value)
            .map_err(|e| Error::internal(format!("cannot serialize {}: {e}", path.display())))?;
        text.push('\n');
        self.write_bytes(path, text.as_bytes())
    }

    /// Replaces a text file atomically, after redacting it.
    pub fn write_text(&self, path: &Path, text: &str) -> Result<()> {
        let text = self.redactor.redact(text);
        self.write_bytes(path, text.as_bytes())
    }

    /// [`Store::write_text`] with the file's modification time set to
    /// `modified` before it takes the file's place: for a file dated by its
    /// mtime (PROFILE.md's facts), written at the clock's time, which
    /// `AGENTBOX_NOW` may fix.
    pub fn write_text_dated(&self, path: &Path, text: &str, modified: SystemTime) -> Result<()> {
        let text = self.redactor.redact(text);
        check_size(
            &format!("{}", path.display()),
            text.len() as u64,
            self.max_item_bytes,
        )?;
        self.check_inside(path)?;
        atomic_replace(path, text.as_bytes(), true, Some(modified))?;
        sync_dir(path);
        Ok(())
    }

    fn write_bytes(&self, path: &Path, bytes: &[u8]) -> Result<()> {
        self.write_capped(path, bytes, self.max_item_bytes)
    }

    /// Replaces a file atomically with `bytes`, at most `cap` of them.
    fn write_capped(&self, path: &Path, bytes: &[u8], cap: u64) -> Result<()> {
        check_size(&format!("{}", path.display()), bytes.len() as u64, cap)?;
        self.check_inside(path)?;
        atomic_write(path, bytes)
    }

    /// Renames a file inside the home atomically and makes the rename durable.
    /// An existing `to` is never replaced (`conflict`); hold the lock that
    /// guards both names.
    pub fn rename_new(&self, from: &Path, to: &Path) -> Result<()> {
        self.check_inside(from)?;
        self.check_inside(to)?;
        if fs::symlink_metadata(to).is_ok() {
            return Err(Error::conflict(format!("{} already exists", to.display()))
                .with_hint("move one of the two files away by hand, then retry")
                .with_detail("path", to.display().to_string()));
        }
        committed();
        fs::rename(from, to).map_err(|e| io_error("rename", from, &e))?;
        sync_dir(to);
        Ok(())
    }

    /// Takes the exclusive advisory lock `locks/<name>.lock`, waiting for it.
    /// Hold it across every read-modify-write of the document it names.
    pub fn lock(&self, name: &str) -> Result<Lock> {
        let (file, path) = self.lock_file(name)?;
        file.lock().map_err(|e| io_error("lock", &path, &e))?;
        Ok(Lock { file, path })
    }

    /// Opens (creating) `locks/<name>.lock`, unlocked.
    fn lock_file(&self, name: &str) -> Result<(File, PathBuf)> {
        // Lock names are a prefix plus a safe name (`episodes-<session>`), so
        // they get more room than a name; file names allow 255 bytes.
        check_name("lock name", name, MAX_NAME_LEN + 64)?;
        let dir = self.root.join("locks");
        self.ensure_dir(&dir)?;
        let path = dir.join(format!("{name}.lock"));
        self.check_inside(&path)?;
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| io_error("open", &path, &e))?;
        Ok((file, path))
    }

    /// Takes the lock `locks/<name>.lock` without waiting: `None` when another
    /// process holds it (the caller reports `conflict`).
    pub fn try_lock(&self, name: &str) -> Result<Option<Lock>> {
        let (file, path) = self.lock_file(name)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(Lock { file, path })),
            Err(fs::TryLockError::WouldBlock) => Ok(None),
            Err(fs::TryLockError::Error(e)) => Err(io_error("lock", &path, &e)),
        }
    }

    /// Creates the home folder itself (and its parents); true when it was new.
    pub fn create_root(&self) -> Result<bool> {
        if self.root.is_dir() {
            return Ok(false);
        }
        // A file, or a symlink to nothing, where the home goes.
        if fs::symlink_metadata(&self.root).is_ok() {
            return Err(Error::conflict(format!(
                "{} is in the way: it should be a folder (the home)",
                self.root.display()
            ))
            .with_hint("move it away (or point the symlink at a folder), then retry")
            .with_detail("path", self.root.display().to_string()));
        }
        fs::create_dir_all(&self.root).map_err(|e| Error::io("create", &self.root, &e))?;
        Ok(true)
    }

    /// Creates a directory (and parents) inside the home; true when it was new.
    /// A file where the folder goes is `conflict`.
    pub fn ensure_dir(&self, path: &Path) -> Result<bool> {
        self.check_inside(path)?;
        match fs::symlink_metadata(path) {
            Ok(meta) if meta.is_dir() => return Ok(false),
            Ok(_) => {
                return Err(Error::conflict(format!(
                    "{} is in the way: it should be a folder",
                    path.display()
                ))
                .with_hint("move it away, then retry (`agentbox init` adds missing folders)")
                .with_detail("path", path.display().to_string()));
            }
            Err(_) => {}
        }
        fs::create_dir_all(path).map_err(|e| io_error("create", path, &e))?;
        Ok(true)
    }

    /// Deletes a file inside the home and makes the deletion durable; false when
    /// it did not exist. Refuses directories and paths that leave the home.
    pub fn remove_file(&self, path: &Path) -> Result<bool> {
        self.check_inside(path)?;
        match fs::symlink_metadata(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(io_error("remove", path, &e)),
            Ok(meta) if meta.is_dir() => {
                return Err(Error::invalid_args(format!(
                    "{} is a directory, not a file",
                    path.display()
                ))
                .with_detail("path", path.display().to_string()));
            }
            Ok(_) => {}
        }
        committed();
        match fs::remove_file(path) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(io_error("remove", path, &e)),
        }
        sync_dir(path);
        Ok(true)
    }

    /// Replaces a file atomically with `bytes` (redacted when they are UTF-8
    /// text), executable or not: for copying folders such as skills.
    pub fn write_file(&self, path: &Path, bytes: &[u8], executable: bool) -> Result<()> {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.write_text(path, text)?,
            Err(_) => self.write_bytes(path, bytes)?,
        }
        set_executable(path, executable)
    }

    /// Replaces a file with the bytes a sync pull brought in: like
    /// `write_file`, but capped at [`MAX_STATE_BYTES`] (an episode or
    /// foresight file outgrows the item cap) instead of the item cap, and
    /// without making it durable yet: the caller writes many files under a
    /// journal, then calls [`Store::sync_paths`] once for the files and their
    /// folders (one flush for all instead of two per file).
    pub fn write_pulled(&self, path: &Path, bytes: &[u8], executable: bool) -> Result<()> {
        let text;
        let bytes = match std::str::from_utf8(bytes) {
            Ok(t) => {
                text = self.redactor.redact(t);
                text.as_bytes()
            }
            Err(_) => bytes,
        };
        check_size(
            &format!("{}", path.display()),
            bytes.len() as u64,
            MAX_STATE_BYTES,
        )?;
        self.check_inside(path)?;
        atomic_replace(path, bytes, false, None)?;
        set_executable(path, executable)
    }

    /// Makes these files and folders durable (their bytes, and the renames
    /// and deletions in the folders), each once; see [`Store::write_pulled`].
    pub fn sync_paths<'p>(&self, paths: impl IntoIterator<Item = &'p Path>) {
        let done: std::collections::BTreeSet<&Path> = paths.into_iter().collect();
        // Many files: one syncfs(2) of the home's filesystem costs what a
        // handful of fsyncs do, where a thousand fsyncs cost seconds.
        if done.len() > SYNCFS_ABOVE
            && let Ok(root) = File::open(&self.root)
        {
            use std::os::fd::AsRawFd;
            // SAFETY: syncfs only reads the descriptor, which `root` keeps open.
            if unsafe { libc::syncfs(root.as_raw_fd()) } == 0 {
                return;
            }
        }
        for path in done {
            if let Ok(handle) = File::open(path) {
                let _ = handle.sync_all();
            }
        }
    }

    /// Deletes a folder inside the home with everything in it; false when it
    /// did not exist. Symlinks inside are removed as links, never followed.
    pub fn remove_dir(&self, path: &Path) -> Result<bool> {
        self.check_inside(path)?;
        remove_external_dir(path)
    }

    /// Replaces a secret this home keeps (memory_mcp's bearer token)
    /// atomically, readable and writable by its owner only (0600 from the
    /// moment the file exists). Not redacted: the file is the secret, and it
    /// lives under `local/`, which is never synced.
    pub fn write_secret(&self, path: &Path, text: &str) -> Result<()> {
        self.check_inside(path)?;
        atomic_replace_as(path, text.as_bytes(), true, None, Some(0o600))?;
        sync_dir(path);
        Ok(())
    }

    /// Writes a file only if it does not exist yet; true when it was written.
    pub fn write_text_if_absent(&self, path: &Path, text: &str) -> Result<bool> {
        if fs::symlink_metadata(path).is_ok() {
            return Ok(false);
        }
        self.write_text(path, text)?;
        Ok(true)
    }

    /// Points the symlink `link` at `target`, replacing a wrong or broken link
    /// atomically. A regular file in the way is left alone (`conflict`).
    pub fn link(&self, link: &Path, target: &Path) -> Result<LinkState> {
        self.check_inside(link.parent().unwrap_or(&self.root))?;
        let state = match fs::symlink_metadata(link) {
            Err(_) => LinkState::Created,
            Ok(meta) if meta.file_type().is_symlink() => {
                if fs::read_link(link).is_ok_and(|current| current == target) {
                    return Ok(LinkState::Unchanged);
                }
                LinkState::Repaired
            }
            Ok(_) => {
                return Err(Error::conflict(format!(
                    "{} exists and is not a link",
                    link.display()
                ))
                .with_hint("move the file away, then run `agentbox link`")
                .with_detail("path", link.display().to_string()));
            }
        };
        let tmp = temp_path(link);
        symlink(target, &tmp).map_err(|e| io_error("create link", &tmp, &e))?;
        if let Err(e) = fs::rename(&tmp, link) {
            let _ = fs::remove_file(&tmp);
            return Err(io_error("replace", link, &e));
        }
        sync_dir(link);
        Ok(state)
    }
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(windows)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::windows::fs::symlink_file(target, link)
}

/// A unique temporary name beside `path` (ignored by the home's .gitignore).
fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// Opens a fresh temp file beside `path`. A temp file left by a killed writer
/// whose pid is reused now must not block this write: take the next free name.
fn create_temp(path: &Path) -> io::Result<(PathBuf, File)> {
    let mut last = io::Error::from(io::ErrorKind::AlreadyExists);
    for _ in 0..64 {
        let tmp = temp_path(path);
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// Atomic replace: write a temp file, fsync it, rename over the target, fsync
/// the directory. A crash at any instant leaves the old or the new content.
fn atomic_write(path: &Path, bytes: &[u8]) -> Result<()> {
    atomic_replace(path, bytes, true, None)?;
    sync_dir(path);
    Ok(())
}

/// `atomic_write` without making the rename durable (the caller syncs the
/// folder); unless `durable`, the bytes are not flushed before the rename
/// either (the caller flushes the file later, under its own journal).
/// `modified` sets the modification time the file arrives with.
fn atomic_replace(
    path: &Path,
    bytes: &[u8],
    durable: bool,
    modified: Option<SystemTime>,
) -> Result<()> {
    atomic_replace_as(path, bytes, durable, modified, None)
}

/// [`atomic_replace`], the file given `mode` before a byte is written.
fn atomic_replace_as(
    path: &Path,
    bytes: &[u8],
    durable: bool,
    modified: Option<SystemTime>,
    mode: Option<u32>,
) -> Result<()> {
    let (tmp, mut file) = create_temp(path).map_err(|e| io_error("write", path, &e))?;
    let result = (|| -> io::Result<()> {
        if let Some(mode) = mode {
            use std::os::unix::fs::PermissionsExt;
            file.set_permissions(fs::Permissions::from_mode(mode))?;
        }
        file.write_all(bytes)?;
        if let Some(time) = modified {
            file.set_modified(time)?;
        }
        if durable {
            file.sync_all()?;
        }
        committed();
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(io_error("write", path, &e));
    }
    Ok(())
}

/// `Error::io`, but `permission` when the system refused access (a read-only
/// home, a folder this user may not write), with a hint about permissions.
fn io_error(action: &str, path: &Path, err: &io::Error) -> Error {
    let error = Error::io(action, path, err);
    if matches!(
        err.kind(),
        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem
    ) {
        let mut error = error.with_hint(format!(
            "give this user write access to {} (check its permissions, and that the filesystem is not read-only)",
            path.display()
        ));
        error.kind = ErrorType::Permission;
        return error;
    }
    error
}

/// Makes a rename durable. Some filesystems refuse to fsync directories; the
/// rename itself is still atomic there, so that failure is not an error.
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent()
        && let Ok(handle) = File::open(dir)
    {
        let _ = handle.sync_all();
    }
}

/// The line breaks that are not control characters: U+2028 LINE SEPARATOR
/// and U+2029 PARAGRAPH SEPARATOR (U+0085 NEXT LINE is a C1 control).
const LINE_BREAKS: [char; 2] = ['\u{2028}', '\u{2029}'];

/// Validates a name that becomes a path component: no traversal, no
/// separators, no absolute paths, no NUL, control characters or line
/// breaks, bounded length.
pub fn safe_name<'a>(what: &str, name: &'a str) -> Result<&'a str> {
    check_name(what, name, MAX_NAME_LEN)
}

/// `safe_name` with its own length limit (lock names embed a name plus a prefix).
fn check_name<'a>(what: &str, name: &'a str, max: usize) -> Result<&'a str> {
    let problem = if name.is_empty() {
        Some("is empty")
    } else if name.len() > max {
        Some("is too long")
    } else if name == "." || name == ".." || name.starts_with('.') {
        Some("starts with a dot")
    } else if name.contains(['/', '\\']) {
        Some("contains a path separator")
    } else if name.chars().any(char::is_control) {
        Some("contains a control character")
    } else if name.contains(LINE_BREAKS) {
        // Not control characters to Unicode (Zl, Zp), but line breaks to
        // JSON-in-JavaScript readers and editors: a name would print as two lines.
        Some("contains a line or paragraph separator (U+2028, U+2029)")
    } else if Path::new(name)
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        Some("is not a plain name")
    } else {
        None
    };
    match problem {
        None => Ok(name),
        Some(problem) => Err(Error::invalid_args(format!(
            "{what} {} {problem}",
            serde_json::Value::from(name)
        ))
        .with_hint(format!(
            "use a plain name: no '/' or '\\', no leading dot, no control characters or line breaks, at most {max} bytes"
        ))
        .with_detail("name", name)),
    }
}

/// Whether `rel` is a plain `/`-separated path below a folder: not empty,
/// no part empty, `.` or `..`, no backslash or control character in it.
pub fn plain_relative(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.contains('\\')
        && !rel.chars().any(char::is_control)
        && rel.split('/').all(|part| !matches!(part, "" | "." | ".."))
}

/// `invalid_args` for bytes that are not UTF-8, naming the file, byte and line.
pub fn not_utf8(name: &str, err: &std::string::FromUtf8Error) -> Error {
    let at = err.utf8_error().valid_up_to();
    let line = err.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1;
    Error::invalid_args(format!(
        "{name} is not valid UTF-8 (byte {at}, line {line})"
    ))
    .with_detail("path", name)
    .with_detail("line", line)
}

/// `invalid_args` with `{limit_name, observed, limit}` when an item is too big.
pub fn check_size(what: &str, observed: u64, limit: u64) -> Result<()> {
    if observed > limit {
        return Err(over_limit(
            format!("{what} is {observed} bytes"),
            "max_item_bytes",
            observed,
            limit,
        )
        .with_hint("shorten it, or raise limits.max_item_bytes in the home's config.json"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_names_refuse_paths_and_controls() {
        for bad in [
            "", ".", "..", "../x", "a/b", "a\\b", "/etc", ".hidden", "a\0b", "a\nb", "a\x1bb",
        ]
        .into_iter()
        .chain(["a\u{85}b", "a\u{2028}b", "a\u{2029}b"])
        {
            assert!(safe_name("name", bad).is_err(), "{bad:?} accepted");
        }
        assert!(safe_name("name", &"x".repeat(MAX_NAME_LEN + 1)).is_err());
        for good in [
            "plan",
            "ship-v1",
            "a.b_c",
            "ünïcode",
            "x".repeat(MAX_NAME_LEN).as_str(),
        ] {
            assert_eq!(safe_name("name", good).unwrap(), good);
        }
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("doc.json");
        atomic_write(&path, b"one").unwrap();
        atomic_write(&path, b"two").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "two");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn store_refuses_symlink_escapes() {
        let outside = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), home.path().join("plans")).unwrap();
        let store = Store::new(home.path().to_path_buf(), Redactor::builtin(), 1024);
        let err = store.path(&["plans", "x.json"]).unwrap_err();
        assert_eq!(err.kind, ErrorType::Permission);
        assert!(store.path(&["other", "x.json"]).is_ok());
    }

    #[test]
    fn store_refuses_every_symlink_below_the_root_but_tools_links() {
        let home = tempfile::tempdir().unwrap();
        let store = Store::new(home.path().to_path_buf(), Redactor::builtin(), 1024);
        // even one that points inside the home
        fs::create_dir(home.path().join("real")).unwrap();
        std::os::unix::fs::symlink(home.path().join("real"), home.path().join("locks")).unwrap();
        assert_eq!(store.lock("x").unwrap_err().kind, ErrorType::Permission);
        assert!(
            fs::read_dir(home.path().join("real"))
                .unwrap()
                .next()
                .is_none()
        );
        std::os::unix::fs::symlink(home.path().join("real"), home.path().join("index")).unwrap();
        let err = store.ensure_dir(&home.path().join("index")).unwrap_err();
        assert_eq!(err.kind, ErrorType::Permission);
        assert_eq!(
            err.detail["path"],
            home.path().join("index").display().to_string()
        );
        let err = store
            .read(&home.path().join("index").join("a"))
            .unwrap_err();
        assert_eq!(err.kind, ErrorType::Permission);
        fs::create_dir(home.path().join("tools")).unwrap();
        std::os::unix::fs::symlink("/bin/true", home.path().join("tools").join("t")).unwrap();
        assert!(
            store
                .check_inside(&home.path().join("tools").join("t"))
                .is_err()
        );
        assert!(
            store
                .ensure_dir(&home.path().join("memory").join("episodes"))
                .unwrap()
        );
        // a file where a folder goes
        fs::write(home.path().join("plans"), "x").unwrap();
        let err = store.ensure_dir(&home.path().join("plans")).unwrap_err();
        assert_eq!(err.kind, ErrorType::Conflict);
    }

    #[test]
    fn appends_are_whole_redacted_lines_from_many_threads() {
        let home = tempfile::tempdir().unwrap();
        let store = Store::new(home.path().to_path_buf(), Redactor::builtin(), 1 << 20);
        let path = home.path().join("events.jsonl");
        std::thread::scope(|scope| {
            for t in 0..8 {
                let (store, path) = (&store, &path);
                scope.spawn(move || {
                    for i in 0..50 {
                        let v = serde_json::json!({"t": t, "i": i, "pad": "x".repeat(5000)});
                        store.append_jsonl("events", path, &v).unwrap();
                    }
                });
            }
        });
        store
            .append_jsonl("events", &path, &serde_json::json!({"password": "hunter2"}))
            .unwrap();
        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 401);
        for line in &lines {
            serde_json::from_str::<Value>(line).unwrap();
        }
        assert!(!text.contains("hunter2"));
    }

    #[test]
    fn held_appends_terminate_a_torn_tail_and_write_whole_lines() {
        let home = tempfile::tempdir().unwrap();
        let store = Store::new(home.path().to_path_buf(), Redactor::builtin(), 1 << 20);
        let path = home.path().join("ep.jsonl");
        let lock = store.lock("ep").unwrap();
        store.append_jsonl_held(&lock, &path, &[]).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "");
        fs::write(&path, "{\"a\":1}\n{\"torn\":").unwrap();
        let values = [
            serde_json::json!({"b": 2}),
            serde_json::json!({"token": "password=hunter2"}),
        ];
        store.append_jsonl_held(&lock, &path, &values).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert_eq!(lines[1], "{\"torn\":");
        assert_eq!(lines[2], "{\"b\":2}");
        assert!(!text.contains("hunter2"));
        // one line over the cap refuses the whole batch
        let small = Store::new(home.path().to_path_buf(), Redactor::builtin(), 16);
        let err = small
            .append_jsonl_held(&lock, &path, &[serde_json::json!({"c": "x".repeat(32)})])
            .unwrap_err();
        assert_eq!(err.detail["limit_name"], "max_item_bytes");
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn jsonl_files_are_written_whole_and_redacted() {
        let home = tempfile::tempdir().unwrap();
        let store = Store::new(home.path().to_path_buf(), Redactor::builtin(), 64);
        let path = home.path().join("ep.jsonl");
        let values: Vec<Value> = (0..10)
            .map(|i| serde_json::json!({"i": i, "pad": "xxxxxxxx"}))
            .collect();
        store.write_jsonl(&path, &values).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 10);
        let err = store
            .write_jsonl(&path, &[serde_json::json!({"x": "y".repeat(80)})])
            .unwrap_err();
        assert_eq!(err.kind, ErrorType::InvalidArgs);
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 10);
    }

    #[test]
    fn rename_new_never_clobbers() {
        let home = tempfile::tempdir().unwrap();
        let store = Store::new(home.path().to_path_buf(), Redactor::builtin(), 1024);
        let (a, b) = (
            home.path().join("a.open.jsonl"),
            home.path().join("a.jsonl"),
        );
        fs::write(&a, "one\n").unwrap();
        store.rename_new(&a, &b).unwrap();
        assert!(!a.exists());
        assert_eq!(fs::read_to_string(&b).unwrap(), "one\n");
        fs::write(&a, "two\n").unwrap();
        let err = store.rename_new(&a, &b).unwrap_err();
        assert_eq!(err.kind, ErrorType::Conflict);
        assert_eq!(fs::read_to_string(&b).unwrap(), "one\n");
        assert_eq!(fs::read_to_string(&a).unwrap(), "two\n");
    }

    #[test]
    fn remove_file_deletes_once_and_refuses_dirs_and_escapes() {
        let home = tempfile::tempdir().unwrap();
        let store = Store::new(home.path().to_path_buf(), Redactor::builtin(), 1024);
        let path = home.path().join("note.md");
        fs::write(&path, "x").unwrap();
        assert!(store.remove_file(&path).unwrap());
        assert!(!path.exists());
        assert!(!store.remove_file(&path).unwrap());
        fs::create_dir(home.path().join("dir")).unwrap();
        assert!(store.remove_file(&home.path().join("dir")).is_err());
        assert!(home.path().join("dir").is_dir());
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("keep"), "x").unwrap();
        std::os::unix::fs::symlink(outside.path(), home.path().join("out")).unwrap();
        let err = store
            .remove_file(&home.path().join("out").join("keep"))
            .unwrap_err();
        assert_eq!(err.kind, ErrorType::Permission);
        assert!(outside.path().join("keep").exists());
    }

    #[test]
    fn try_lock_does_not_wait() {
        let home = tempfile::tempdir().unwrap();
        let store = Store::new(home.path().to_path_buf(), Redactor::builtin(), 1024);
        let held = store.try_lock("run").unwrap().expect("free");
        assert!(store.try_lock("run").unwrap().is_none());
        assert!(store.try_lock("other").unwrap().is_some());
        drop(held);
        assert!(store.try_lock("run").unwrap().is_some());
        assert!(store.try_lock("../x").is_err());
    }

    #[test]
    fn event_logs_follow_the_sink_rules() {
        use std::os::unix::fs::PermissionsExt;
        let home = tempfile::tempdir().unwrap();
        let store = Store::new(home.path().to_path_buf(), Redactor::builtin(), 1 << 16);
        let path = home.path().join("events.jsonl");
        let mut log = store.create_event_log(&path).unwrap();
        log.append(&serde_json::json!({"type": "run_started", "note": "password=hunter2"}))
            .unwrap();
        log.append(&serde_json::json!({"type": "run_completed"}))
            .unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(!text.contains("hunter2"), "{text}");
        // an existing file is hardened, and appended to
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        let mut again = store.create_event_log(&path).unwrap();
        again.append(&serde_json::json!({"n": 3})).unwrap();
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 3);
        // a symlink at the path is refused, and its target untouched
        let target = home.path().join("target.txt");
        fs::write(&target, "keep").unwrap();
        let link = home.path().join("linked.jsonl");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = store.create_event_log(&link).unwrap_err();
        assert_eq!(err.kind, ErrorType::Permission);
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        // a dangling symlink too (the open would create its target)
        let dangling = home.path().join("dangling.jsonl");
        std::os::unix::fs::symlink(home.path().join("nowhere"), &dangling).unwrap();
        assert_eq!(
            store.create_event_log(&dangling).unwrap_err().kind,
            ErrorType::Permission
        );
        assert!(!home.path().join("nowhere").exists());
        // the parent folder must exist
        let missing = home.path().join("no-such-dir").join("events.jsonl");
        let err = store.create_event_log(&missing).unwrap_err();
        assert_eq!(err.kind, ErrorType::Io);
        assert!(!home.path().join("no-such-dir").exists());
        // one event over the item cap is refused whole
        let small = Store::new(home.path().to_path_buf(), Redactor::builtin(), 32);
        let mut log = small.create_event_log(&path).unwrap();
        assert!(
            log.append(&serde_json::json!({"x": "y".repeat(64)}))
                .is_err()
        );
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 3);
    }

    #[test]
    fn size_cap_reports_the_limit() {
        let err = check_size("input", 11, 10).unwrap_err();
        assert_eq!(err.detail["limit_name"], "max_item_bytes");
        assert_eq!(err.detail["observed"], 11);
        assert_eq!(err.detail["limit"], 10);
    }
}
