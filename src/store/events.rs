//! Event logs: JSONL streams with the sink rules of odek's
//! `--events-jsonl` (evolve's `events.jsonl`).

use super::{Store, check_size, committed, io_error};
use crate::error::{Error, ErrorType, Result};
use crate::redact::Redactor;
use serde_json::Value;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// An open event log (see [`Store::create_event_log`]).
#[derive(Debug)]
pub struct EventLog {
    file: File,
    path: PathBuf,
    redactor: Redactor,
    max_line_bytes: u64,
}

impl EventLog {
    /// Appends one event as one line, every string in it redacted, and
    /// flushes it to stable storage (write, then `sync_data`) before returning.
    pub fn append(&mut self, event: &Value) -> Result<()> {
        let mut event = event.clone();
        self.redactor.redact_value(&mut event);
        let mut line = serde_json::to_string(&event).map_err(|e| {
            Error::internal(format!(
                "cannot serialize an event for {}: {e}",
                self.path.display()
            ))
        })?;
        line.push('\n');
        check_size(
            &format!("an event for {}", self.path.display()),
            line.len() as u64,
            self.max_line_bytes,
        )?;
        committed();
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| io_error("append to", &self.path, &e))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Store {
    /// Opens an event log (JSONL) at `path` with the sink rules of odek's
    /// `--events-jsonl`: the parent folder must exist, a symlink at the path
    /// is refused (and the open passes `O_NOFOLLOW`, so one swapped in
    /// meanwhile is refused too), the file is created (or hardened) with mode
    /// 0600, and every appended event is on stable storage before `append`
    /// returns.
    pub fn create_event_log(&self, path: &Path) -> Result<EventLog> {
        self.check_inside(path)?;
        let parent = path.parent().unwrap_or(&self.root);
        if !parent.is_dir() {
            return Err(Error::new(
                ErrorType::Io,
                format!(
                    "cannot open the event log {}: its folder does not exist",
                    path.display()
                ),
            )
            .with_hint("create the folder first; an event log never creates folders")
            .with_detail("path", path.display().to_string()));
        }
        let symlink_refused = || {
            Error::new(
                ErrorType::Permission,
                format!(
                    "{} is a symlink; an event log is never written through a symlink",
                    path.display()
                ),
            )
            .with_hint("remove the symlink, then retry")
            .with_detail("path", path.display().to_string())
        };
        if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(symlink_refused());
        }
        let mut options = OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        let file = match options.open(path) {
            Ok(file) => file,
            #[cfg(unix)]
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(symlink_refused()),
            Err(e) => return Err(io_error("open", path, &e)),
        };
        #[cfg(unix)]
        {
            // An existing file keeps its mode on open: harden it.
            use std::os::unix::fs::PermissionsExt;
            file.set_permissions(fs::Permissions::from_mode(0o600))
                .map_err(|e| io_error("set the mode of", path, &e))?;
        }
        Ok(EventLog {
            file,
            path: path.to_path_buf(),
            redactor: self.redactor.clone(),
            max_line_bytes: self.max_item_bytes,
        })
    }
}
