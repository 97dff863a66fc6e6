//! Revisions of a persona: `persona/.history/<name>/<rev>.md` holds the file
//! exactly as each revision left it, and `log.jsonl` beside them says what
//! made each one (`{rev, created, kind, keys?, from?}`). History is only ever
//! added to. The file is the truth: when it differs from the snapshot of its
//! own rev, it was edited by hand, and that edit is recorded as a revision of
//! its own before the next change.

use super::DIR;
use crate::error::{Error, Result};
use crate::home::Home;
use crate::store::Lock;
use serde_json::{Value, json};
use std::path::PathBuf;

/// Home-relative folder of the revisions of `name`.
pub fn rel_dir(name: &str) -> String {
    format!("{DIR}/.history/{name}")
}

fn dir(home: &Home, name: &str) -> PathBuf {
    home.root.join(DIR).join(".history").join(name)
}

/// The snapshot file of revision `rev`.
pub fn snapshot_path(home: &Home, name: &str, rev: u64) -> PathBuf {
    dir(home, name).join(format!("{rev}.md"))
}

fn log_path(home: &Home, name: &str) -> PathBuf {
    dir(home, name).join("log.jsonl")
}

/// The snapshot of revision `rev`, if it was kept.
pub fn snapshot(home: &Home, name: &str, rev: u64) -> Result<Option<String>> {
    home.store.read(&snapshot_path(home, name, rev))
}

/// The revisions that have a snapshot, ascending.
pub fn revs(home: &Home, name: &str) -> Result<Vec<u64>> {
    let dir = dir(home, name);
    home.store.check_path(&dir)?;
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io("read", &dir, &e)),
    };
    let mut revs: Vec<u64> = entries
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".md"))
                .and_then(|n| n.parse::<u64>().ok())
        })
        .filter(|rev| (1..=super::file::MAX_REV).contains(rev))
        .collect();
    revs.sort_unstable();
    Ok(revs)
}

/// How the file stands against its history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// The rev the persona is at: the file's own, or the rev its unrecorded
    /// hand edit will be recorded as. `--expect-version` compares with this.
    pub rev: u64,
    /// The file was edited by hand since the last recorded revision.
    pub hand_edited: bool,
}

/// Compares the file (`text`, claiming `file_rev`) with its history.
pub fn standing(home: &Home, name: &str, text: &str, file_rev: u64) -> Result<Standing> {
    let revs = revs(home, name)?;
    let highest = revs.last().copied().unwrap_or(0);
    let snap = if revs.contains(&file_rev) {
        snapshot(home, name, file_rev)?
    } else {
        None
    };
    Ok(match snap {
        Some(snap) if snap == text && file_rev == highest => Standing {
            rev: file_rev,
            hand_edited: false,
        },
        // A new rev the history has not seen: recorded as it is.
        None if file_rev > highest => Standing {
            rev: file_rev,
            hand_edited: true,
        },
        _ => Standing {
            rev: file_rev.max(highest) + 1,
            hand_edited: true,
        },
    })
}

/// What made a revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub rev: u64,
    /// RFC 3339; empty when the log has no line for it.
    pub created: String,
    /// `create`, `set`, `unset`, `text`, `revert`, `hand_edit` (or
    /// `unknown` for a snapshot without a log line).
    pub kind: String,
    /// The trait keys it changed.
    pub keys: Vec<String>,
    /// For `create --from` and `revert`: where the content came from.
    pub from: Option<Value>,
}

impl Entry {
    pub fn json(&self) -> Value {
        let mut value =
            json!({"rev": self.rev, "created": self.created, "kind": self.kind, "keys": self.keys});
        if let Some(from) = &self.from {
            value["from"] = from.clone();
        }
        value
    }
}

/// Records revision `rev`: its snapshot `text` (already what the file holds)
/// and its log line. Call with the persona lock held.
pub fn record(home: &Home, lock: &Lock, text: &str, entry: &Entry, name: &str) -> Result<()> {
    let dir = dir(home, name);
    home.store.ensure_dir(&dir)?;
    home.store
        .write_text(&snapshot_path(home, name, entry.rev), text)?;
    home.store
        .append_jsonl_held(lock, &log_path(home, name), &[entry.json()])
}

/// Every recorded revision, newest first: the snapshots, described by their
/// log lines (the last line for a rev wins).
pub fn entries(home: &Home, name: &str) -> Result<Vec<Entry>> {
    let revs = revs(home, name)?;
    // The log grows by a line per revision: it is the tool's own file, read
    // under the state cap, not the item cap (which ~10,000 revisions pass).
    let log = home
        .store
        .read_state(&log_path(home, name))?
        .unwrap_or_default();
    let mut logged: Vec<Entry> = Vec::new();
    // A torn or hand-mangled line describes nothing; its snapshot stays.
    for line in log.lines() {
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let Some(rev) = value["rev"].as_u64() else {
            continue;
        };
        logged.retain(|e| e.rev != rev);
        logged.push(Entry {
            rev,
            created: value["created"].as_str().unwrap_or("").to_string(),
            kind: value["kind"].as_str().unwrap_or("unknown").to_string(),
            keys: value["keys"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|k| k.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            from: value.get("from").cloned(),
        });
    }
    Ok(revs
        .into_iter()
        .rev()
        .map(|rev| {
            logged
                .iter()
                .find(|e| e.rev == rev)
                .cloned()
                .unwrap_or(Entry {
                    rev,
                    created: String::new(),
                    kind: "unknown".to_string(),
                    keys: Vec::new(),
                    from: None,
                })
        })
        .collect())
}
