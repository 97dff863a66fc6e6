//! Keeping the derived index in step with its files, and healing it.
//!
//! - A damaged database (garbage bytes, a truncated file, missing tables) is
//!   rebuilt from scratch once, by whichever call meets it: the index is
//!   derived, so nothing is lost.
//! - A write whose file landed but whose index update failed still succeeds;
//!   it leaves a marker (`index/STALE`) and a warning, and the next open
//!   catches the index up with every file.
//! - A crash between a file write and its index update leaves no marker, so
//!   `search` checks the episode folders cheaply (`nested`), and
//!   `doctor` compares every file's stamp with the recorded one (`health`).
//! - A damaged row of the dense tables (`stamps`, `kinds`, `sessions`,
//!   `lengths`) is well-formed to SQLite: `doctor` compares them with the
//!   documents (`consistency`) and marks an index that disagrees damaged,
//!   so the next open rebuilds it.

use super::consistency;
use super::db::{Tx, db_error, is_damaged};
use super::disk::{
    CLAIMED, MARKER, diagnose, file_id, index_dir, is_marked, mark_stale, remove_db_files,
};
use super::index::{Index, SCHEMA_VERSION, read_docs, stamp};
use super::session::Session;
use super::sources::{self, Source};
use crate::error::{Error, ErrorType, Result};
use crate::home::Home;
use rusqlite::{OptionalExtension, params};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Runs an index update after its file write landed. The write is saved
/// whatever happens here: a failure marks the index stale (the next open
/// catches up) and leaves a warning on the home for the call's outcome.
pub fn index_update_or_warn(home: &Home, update: impl FnOnce(&Index) -> Result<()>) {
    let session = Session::of(home);
    let result = Index::open(home).and_then(|index| {
        let updated = session
            .join(&index.conn)
            .and_then(|()| session.guard(&index.conn, || update(&index)));
        match updated {
            // A damaged database is rebuilt from the files, which hold this write.
            Err(e) if is_damaged(&e) => Index::rebuild_damaged(home, index.file_id)
                .map(drop)
                .map_err(|e| diagnose(home, e)),
            other => other,
        }
    });
    if let Err(err) = result {
        mark_stale(home, &err.message);
        home.warn(not_indexed(&err));
    }
}

/// The warning of a write that landed but is not in the index: `err` is why.
pub fn not_indexed(err: &Error) -> String {
    let next = if err.hint.is_empty() || err.hint.contains("agentbox reindex") {
        "run `agentbox reindex`".to_string()
    } else {
        format!("{}, then run `agentbox reindex`", err.hint)
    };
    format!(
        "saved, but the search index could not be updated: {}; {next}",
        err.message
    )
}

/// The first string after every string that starts with `prefix` (text
/// compares byte by byte): `"a/"` → `"a0"`; `""` → past every path.
pub(super) fn prefix_end(prefix: &str) -> String {
    let mut bytes = prefix.as_bytes().to_vec();
    while let Some(last) = bytes.pop() {
        if last < 0x7f {
            bytes.push(last + 1);
            return String::from_utf8(bytes).unwrap_or_else(|_| "\u{10ffff}".to_string());
        }
    }
    "\u{10ffff}".to_string()
}

pub(super) fn wall_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}

/// Why a file's documents differ from the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lag {
    /// The file changed since it was indexed.
    Changed,
    /// The file was never indexed.
    Missing,
    /// The file is gone but its documents are still indexed.
    Gone,
}

impl Lag {
    pub fn as_str(self) -> &'static str {
        match self {
            Lag::Changed => "changed since indexed",
            Lag::Missing => "not indexed",
            Lag::Gone => "deleted but still indexed",
        }
    }
}

/// What `doctor` reports about the index (`health`).
#[derive(Debug, Clone, Default)]
pub struct Health {
    /// False when there is no database yet (the first search builds it).
    pub built: bool,
    /// Built by another agentbox version: the next open rebuilds it.
    pub outdated: bool,
    /// Documents per kind name.
    pub counts: BTreeMap<String, usize>,
    /// Files the index is behind on, sorted by path.
    pub behind: Vec<(String, Lag)>,
    /// A write could not update the index (`index/STALE`).
    pub marked: bool,
    /// The dense tables disagree with the documents (`consistency`): what
    /// is wrong. The index is marked damaged, so the next open rebuilds it.
    pub inconsistent: Option<String>,
}

impl Health {
    /// Whether the index holds exactly what the files say.
    pub fn is_fresh(&self) -> bool {
        self.behind.is_empty() && !self.marked && self.inconsistent.is_none()
    }

    /// What to do when the index is not fresh.
    pub fn hint(&self) -> &'static str {
        if self.inconsistent.is_some() {
            "run `agentbox reindex` (the next search also rebuilds it on its own)"
        } else {
            "run `agentbox reindex` (the next search also catches up on its own)"
        }
    }

    /// One line for `doctor`.
    pub fn message(&self) -> String {
        if !self.built {
            return "not built yet: the first search builds it".to_string();
        }
        if self.outdated {
            return "built by another agentbox version: the next search rebuilds it".to_string();
        }
        if let Some(why) = &self.inconsistent {
            return format!("{why}: the next search rebuilds it");
        }
        let parts: Vec<String> = sources::kinds()
            .into_iter()
            .map(|k| format!("{} {k}(s)", self.counts.get(k).copied().unwrap_or(0)))
            .collect();
        let counts = format!("{} indexed", parts.join(", "));
        if self.is_fresh() {
            return counts;
        }
        let mut text = format!("the index is behind its files ({counts})");
        if let Some((path, lag)) = self.behind.first() {
            text.push_str(&format!(
                ": {} file(s) out of step, e.g. {path} ({})",
                self.behind.len(),
                lag.as_str()
            ));
        }
        if self.marked {
            text.push_str("; a write could not update it (index/STALE)");
        }
        text
    }
}

/// The index's state for `doctor`, without repairing anything.
pub fn health(home: &Home) -> Result<Health> {
    let db = index_dir(home).join("search.db");
    home.store.check_path(&db)?;
    if std::fs::symlink_metadata(&db).is_err() {
        return Ok(Health::default());
    }
    let inspect = || -> Result<Health> {
        let index = Index::connect(home)?;
        let version = index.version()?;
        if version.as_deref() == Some(consistency::DAMAGED) {
            // Found so by an earlier `doctor`, not rebuilt yet.
            let why = index.damage_reason()?;
            return Ok(Health {
                built: true,
                inconsistent: Some(why.unwrap_or_else(|| "the index is damaged".to_string())),
                ..Health::default()
            });
        }
        if version.as_deref() != Some(SCHEMA_VERSION) {
            return Ok(Health {
                built: true,
                outdated: true,
                ..Health::default()
            });
        }
        // Counting the documents reads them all: the dense tables are
        // checked in the same pass.
        let audit = index.audit()?;
        let inconsistent = audit.summary();
        if let Some(why) = &inconsistent {
            index.mark_damaged(&audit, why);
        }
        Ok(Health {
            built: true,
            outdated: false,
            counts: audit.counts,
            behind: index.behind()?,
            marked: is_marked(home),
            inconsistent,
        })
    };
    inspect().map_err(|e| {
        let e = diagnose(home, e);
        if is_damaged(&e) {
            Error::new(
                ErrorType::Io,
                format!("the search index is damaged: {}", e.message),
            )
            .with_hint("run `agentbox reindex` (the next search also rebuilds it on its own)")
        } else {
            e
        }
    })
}

impl<'h> Index<'h> {
    /// Rebuilds a damaged database (`seen`: the file found damaged) from
    /// scratch, under the `index` lock. Another process may have replaced it
    /// while this one waited: then that index is used as it is.
    pub(super) fn rebuild_damaged(home: &'h Home, seen: Option<(u64, u64)>) -> Result<Index<'h>> {
        let _lock = home.store.lock("index")?;
        let db = index_dir(home).join("search.db");
        if file_id(&db) != seen
            && let Ok(index) = Index::connect(home)
            && index.version().ok().flatten().as_deref() == Some(SCHEMA_VERSION)
        {
            return Ok(index);
        }
        Index::rebuild_locked(home).map(|(index, _)| index)
    }

    /// Deletes the database and builds it again (the caller holds the `index` lock).
    pub(super) fn rebuild_locked(home: &'h Home) -> Result<(Index<'h>, super::RebuildStats)> {
        Session::of(home).drop_kept();
        home.store.ensure_dir(&index_dir(home))?;
        // A full build covers whatever the markers stood for.
        for name in [MARKER, CLAIMED] {
            home.store.remove_file(&index_dir(home).join(name))?;
        }
        remove_db_files(home)?;
        let index = Index::connect(home)?;
        let stats = index.build()?;
        Ok((index, stats))
    }

    /// Whether the database file is still the one this connection opened
    /// (`reindex` in another process replaces it).
    pub fn is_current(&self) -> bool {
        self.file_id.is_some() && file_id(&index_dir(self.home).join("search.db")) == self.file_id
    }

    /// When a write left the stale marker, catches up with every file.
    pub(super) fn catch_up_if_marked(&self) -> Result<()> {
        if !is_marked(self.home) {
            return Ok(());
        }
        let dir = index_dir(self.home);
        // Claim the marker first: one left by a write meanwhile survives for the next call.
        let _ = std::fs::rename(dir.join(MARKER), dir.join(CLAIMED));
        for (rel, lag) in self.behind()? {
            match lag {
                Lag::Gone => self.remove_source(&rel)?,
                Lag::Changed | Lag::Missing => self.reextract(&rel)?,
            }
        }
        self.home.store.remove_file(&dir.join(CLAIMED))?;
        Ok(())
    }

    /// Every file whose recorded stamp differs from the disk: a directory
    /// listing per folder and one `stat` per file.
    pub(super) fn behind(&self) -> Result<Vec<(String, Lag)>> {
        let known = self.known_sources("")?;
        let mut seen = HashSet::new();
        let mut lag = Vec::new();
        for source in sources::all()? {
            for rel in sources::files(self.home, source) {
                match known.get(&rel) {
                    None => lag.push((rel.clone(), Lag::Missing)),
                    Some(recorded) if stamp(&self.home.root.join(&rel)) != Some(*recorded) => {
                        lag.push((rel.clone(), Lag::Changed))
                    }
                    Some(_) => {}
                }
                seen.insert(rel);
            }
        }
        lag.extend(
            known
                .into_keys()
                .filter(|p| !seen.contains(p))
                .map(|p| (p, Lag::Gone)),
        );
        lag.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(lag)
    }

    /// Recorded stamps of the sources under `prefix` whose name ends with
    /// `suffix` (growing files: `sources_growing` holds only them).
    pub(super) fn known_growing(
        &self,
        prefix: &str,
        suffix: &str,
    ) -> Result<HashMap<String, (i64, i64)>> {
        self.stamps(
            "SELECT path, mtime_ns, size FROM sources WHERE growing = 1",
            [],
            |path| path.starts_with(prefix) && path.ends_with(suffix),
        )
    }

    /// Recorded stamps of the sources under `prefix` ("" for all): a range
    /// of the primary key, so a search reads only its own source's rows.
    pub(super) fn known_sources(&self, prefix: &str) -> Result<HashMap<String, (i64, i64)>> {
        self.stamps(
            "SELECT path, mtime_ns, size FROM sources WHERE path >= ?1 AND path < ?2",
            params![prefix, prefix_end(prefix)],
            |path| path.starts_with(prefix),
        )
    }

    /// The `(path, mtime, size)` rows `sql` selects whose path `keep` accepts.
    pub(super) fn stamps(
        &self,
        sql: &str,
        args: impl rusqlite::Params,
        keep: impl Fn(&str) -> bool,
    ) -> Result<HashMap<String, (i64, i64)>> {
        let mut stmt = self.conn.prepare_cached(sql).map_err(db_error)?;
        let rows = stmt
            .query_map(args, |r| {
                Ok((r.get::<_, String>(0)?, (r.get(1)?, r.get(2)?)))
            })
            .map_err(db_error)?;
        let mut out = HashMap::new();
        for row in rows {
            let (path, stamp) = row.map_err(db_error)?;
            if keep(&path) {
                out.insert(path, stamp);
            }
        }
        Ok(out)
    }

    /// Reads a file again and replaces its documents. An unreadable or
    /// unparsable file indexes nothing until it is fixed; its stamp is still
    /// recorded, so it is not retried on every call. A path no source lists
    /// (`persona/ACTIVE`, a file one level too deep, a symlink or folder
    /// where a file goes) is forgotten instead, exactly as `behind` sees it.
    pub(super) fn reextract(&self, rel: &str) -> Result<()> {
        let path = self.home.root.join(rel);
        let real = |path: &Path, dir: bool| {
            std::fs::symlink_metadata(path)
                .is_ok_and(|m| if dir { m.is_dir() } else { m.is_file() })
        };
        match sources::owner(rel)? {
            // A nested source lists only the files of real folders.
            Some(source)
                if real(&path, false)
                    && (!source.nested || path.parent().is_some_and(|p| real(p, true))) =>
            {
                self.reextract_from(source, rel)
            }
            _ => self.remove_source(rel),
        }
    }

    /// Re-extracts `rel` unless, once this connection holds the write lock,
    /// the index turns out to hold the file as it is now: another
    /// connection (a server's index writer, a search catching up) may have
    /// indexed it since the caller looked.
    pub(super) fn reextract_if_behind(&self, rel: &str) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        let now = stamp(&self.home.root.join(rel));
        if now.is_none() || self.recorded_stamp(rel)? != now {
            self.reextract(rel)?;
        }
        tx.commit()
    }

    /// The `(mtime, size)` stamp recorded for `rel`, if any.
    pub(super) fn recorded_stamp(&self, rel: &str) -> Result<Option<(i64, i64)>> {
        self.conn
            .prepare_cached("SELECT mtime_ns, size FROM sources WHERE path = ?1")
            .and_then(|mut stmt| {
                stmt.query_row([rel], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()
            })
            .map_err(db_error)
    }

    /// Reads these home-relative files again, or forgets the ones that are
    /// gone: for a writer that is not the files' own tool (a sync pull).
    /// One transaction for all of them: a pull of a thousand files is one
    /// commit, not a thousand.
    pub fn refresh_files(&self, rels: &[String]) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        for rel in rels {
            self.reextract(rel)?;
        }
        tx.commit()
    }

    /// Reads a file of `source` again and replaces its documents (see `reextract`).
    pub(super) fn reextract_from(&self, source: &Source, rel: &str) -> Result<()> {
        // Stamped before it is read: see `replace_source_at`.
        let now = stamp(&self.home.root.join(rel));
        let docs = match read_docs(self.home, source, rel, &mut Vec::new()) {
            Ok(Some(docs)) => docs,
            Ok(None) => return self.remove_source(rel),
            // Unreadable or unparsable: index nothing from it until it is fixed.
            Err(_) => Vec::new(),
        };
        self.replace_source_at(rel, &docs, now)
    }

    /// Adds the documents of lines appended to `source`, which held `before`
    /// bytes before the append. When the index did not hold exactly those
    /// bytes (an earlier append never reached it), the whole file is
    /// re-extracted instead, so no turn stays unsearchable. `now` is the
    /// file's stamp taken right after the append (a later append may have
    /// moved it since).
    pub(super) fn append_source(
        &self,
        source: &str,
        before: u64,
        now: Option<(i64, i64)>,
        docs: &[super::Doc],
    ) -> Result<()> {
        let tx = Tx::begin(&self.conn)?;
        if self.recorded_stamp(source)?.map_or(0, |(_, size)| size) as u64 != before {
            drop(tx);
            return self.reextract_if_behind(source);
        }
        self.insert(docs)?;
        self.record_source_at(source, now)?;
        tx.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::prefix_end;

    #[test]
    fn a_prefix_range_holds_exactly_the_paths_under_it() {
        assert_eq!(prefix_end("memory/knowledge/"), "memory/knowledge0");
        assert_eq!(prefix_end("a~"), "a\u{7f}");
        assert_eq!(prefix_end(""), "\u{10ffff}");
        let end = prefix_end("memory/knowledge/");
        let inside = |path: &str| path >= "memory/knowledge/" && path < end.as_str();
        for path in ["memory/knowledge/a.md", "memory/knowledge/z/\u{e9}.md"] {
            assert!(inside(path), "{path}");
        }
        for path in [
            "memory/knowledge",
            "memory/knowledge0",
            "memory/knowledges/a.md",
        ] {
            assert!(!inside(path), "{path}");
        }
    }
}
